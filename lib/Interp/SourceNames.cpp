//===- SourceNames.cpp - argument names as written in the source ----------===//
//
// MLIR drops SSA names when parsing. The parser's AsmParserState records
// where each block argument is defined; the text at that range is the name
// the user wrote (`%a_ptr`), which `ktflow interp --arg a_ptr=...` uses.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Interp/Interpreter.h"

#include "mlir/AsmParser/AsmParserState.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::interp;

SourceNames interp::collectSourceNames(const AsmParserState &state) {
  SourceNames names;
  for (const AsmParserState::BlockDefinition &def : state.getBlockDefs()) {
    if (!def.block || def.arguments.size() != def.block->getNumArguments())
      continue;
    for (auto [i, argDef] : llvm::enumerate(def.arguments)) {
      const char *start = argDef.loc.Start.getPointer();
      const char *end = argDef.loc.End.getPointer();
      if (!start || !end || end <= start)
        continue;
      llvm::StringRef text(start, end - start);
      text.consume_front("%");
      if (!text.empty())
        names[def.block->getArgument(i)] = text.str();
    }
  }
  return names;
}
