// Loads an architecture description by name from the installed
// descriptions (the package's KTFLOW_ARCH_DIR) and prints what the model says
// about the device.
#include "ktflow/Arch/ArchModel.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: arch-consumer NAME\n";
    return 2;
  }
  setenv("KTFLOW_ARCH_PATH", KTFLOW_ARCH_DIR, /*overwrite=*/1);
  mlir::MLIRContext context;
  std::string error;
  std::shared_ptr<const ktflow::arch::ArchModel> model =
      ktflow::arch::ArchModel::load(context, argv[1], error);
  if (!model) {
    llvm::errs() << "arch-consumer: " << error << "\n";
    return 1;
  }
  llvm::outs() << "device " << model->name() << ": clock " << model->clockMhz() << " MHz, from "
               << *ktflow::arch::ArchModel::resolveDescription(argv[1]) << "\n";
  for (const ktflow::arch::Group &group : model->groups())
    llvm::outs() << "group " << group.name << " x" << group.count << "\n";
  return 0;
}
