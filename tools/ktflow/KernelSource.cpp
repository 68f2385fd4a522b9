//===- KernelSource.cpp - parse a kernel keeping its SSA names ------------===//
#include "KernelSource.h"

#include "mlir/Support/FileUtilities.h"

#include "ktflow/Interp/Interpreter.h"
#include "ktflow/Support/ParseGuard.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Verifier.h"

#include <memory>

static mlir::OwningOpRef<mlir::ModuleOp>
parseGuarded(llvm::SourceMgr &sourceMgr, mlir::MLIRContext &context,
             mlir::AsmParserState *asmState, llvm::StringRef bufferName,
             llvm::StringRef *failedStage) {
  // On the heap so that a parser crash can leak it: the parser's partial
  // state may point into it. Verified below, outside the guard, so that only
  // a crash in the parser is survived.
  auto block = std::make_unique<mlir::Block>();
  mlir::ParserConfig config(&context, /*verifyAfterParse=*/false);
  mlir::LogicalResult parsed = mlir::failure();
  mlir::LogicalResult guarded = ktflow::runParserSafely(context, bufferName, [&] {
    parsed = mlir::parseAsmSourceFile(sourceMgr, block.get(), config, asmState);
  });
  if (mlir::failed(guarded))
    (void)block.release();
  if (mlir::failed(guarded) || mlir::failed(parsed)) {
    if (failedStage)
      *failedStage = "parsing";
    return nullptr;
  }
  mlir::OwningOpRef<mlir::ModuleOp> module;
  if (llvm::hasSingleElement(*block) && mlir::isa<mlir::ModuleOp>(block->front())) {
    module = mlir::cast<mlir::ModuleOp>(block->front());
    module->getOperation()->remove();
  } else {
    module = mlir::ModuleOp::create(mlir::FileLineColLoc::get(&context, bufferName, 1, 1));
    auto &ops = module->getBody()->getOperations();
    ops.splice(ops.end(), block->getOperations());
  }
  // Argument names as written, where passes can read them.
  if (asmState) {
    ktflow::interp::SourceNames names = ktflow::interp::collectSourceNames(*asmState);
    module->walk([&](mlir::func::FuncOp func) {
      if (func.isExternal())
        return;
      for (mlir::BlockArgument arg : func.getBody().front().getArguments())
        if (auto it = names.find(arg); it != names.end())
          arg.setLoc(mlir::NameLoc::get(mlir::StringAttr::get(&context, it->second),
                                        arg.getLoc()));
    });
  }
  if (mlir::failed(mlir::verify(*module))) {
    if (failedStage)
      *failedStage = "verification";
    return nullptr;
  }
  return module;
}

mlir::OwningOpRef<mlir::ModuleOp>
ktflow::tool::parseKernelSource(llvm::SourceMgr &sourceMgr, mlir::MLIRContext &context,
                                mlir::AsmParserState &asmState, llvm::StringRef bufferName,
                                llvm::StringRef *failedStage) {
  return parseGuarded(sourceMgr, context, &asmState, bufferName, failedStage);
}

mlir::OwningOpRef<mlir::ModuleOp> ktflow::tool::parseKernelSource(llvm::SourceMgr &sourceMgr,
                                                                mlir::MLIRContext &context,
                                                                llvm::StringRef bufferName) {
  mlir::AsmParserState asmState;
  return parseGuarded(sourceMgr, context, &asmState, bufferName, nullptr);
}

mlir::OwningOpRef<mlir::ModuleOp>
ktflow::tool::openKernelSource(llvm::SourceMgr &sourceMgr, mlir::MLIRContext &context,
                               llvm::StringRef path, llvm::StringRef command) {
  std::string error;
  auto file = mlir::openInputFile(path, &error);
  if (!file) {
    llvm::errs() << "ktflow " << command << ": " << error << "\n";
    return nullptr;
  }
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  return parseKernelSource(sourceMgr, context, path);
}
