//===- KernelSource.cpp - parse a kernel keeping its SSA names ------------===//
#include "KernelSource.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Verifier.h"

mlir::OwningOpRef<mlir::ModuleOp>
ktflow::tool::parseKernelSource(llvm::SourceMgr &sourceMgr, mlir::MLIRContext &context,
                                mlir::AsmParserState &asmState, llvm::StringRef bufferName,
                                llvm::StringRef *failedStage) {
  mlir::Block block;
  mlir::ParserConfig config(&context);
  if (mlir::failed(mlir::parseAsmSourceFile(sourceMgr, &block, config, &asmState))) {
    if (failedStage)
      *failedStage = "parsing";
    return nullptr;
  }
  mlir::OwningOpRef<mlir::ModuleOp> module;
  if (llvm::hasSingleElement(block) && mlir::isa<mlir::ModuleOp>(block.front())) {
    module = mlir::cast<mlir::ModuleOp>(block.front());
    module->getOperation()->remove();
  } else {
    module = mlir::ModuleOp::create(mlir::FileLineColLoc::get(&context, bufferName, 1, 1));
    auto &ops = module->getBody()->getOperations();
    ops.splice(ops.end(), block.getOperations());
  }
  if (mlir::failed(mlir::verify(*module))) {
    if (failedStage)
      *failedStage = "verification";
    return nullptr;
  }
  return module;
}
