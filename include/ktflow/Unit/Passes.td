//===- Passes.td - the unit IR's passes ---------------------*- tablegen -*-===//
//
// Below the schedule (DESIGN.md, "The unit IR"): sync insertion, register
// allocation, the capacity and deadlock analyses, emission. Passes that ask
// hardware questions take `arch` (a description name or file); when it is
// empty they use the description embedded in the module, as the schedule
// passes do (ktsched::getArchModel).
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_UNIT_PASSES_TD
#define KTFLOW_UNIT_PASSES_TD

include "mlir/Pass/PassBase.td"

def InsertSync : Pass<"ktunit-insert-sync", "::mlir::ModuleOp"> {
  let summary = "Channels -> semaphores: credit, wait and signal";
  let description = [{
    Per channel a "full" semaphore in the consumer's unit and a "free" one
    in the producer's, allocated against the unit's semaphore count; the
    free semaphore starts with `depth` credits and the producer drains them
    at its end, so every semaphore ends at zero.
  }];
  let options = [
    Option<"arch", "arch", "std::string", /*default=*/"\"\"",
           "architecture description (name or file)">
  ];
}

def AllocateRegisters : Pass<"ktunit-allocate-registers", "::mlir::ModuleOp"> {
  let summary = "Virtual vector registers -> physical register numbers";
  let options = [
    Option<"arch", "arch", "std::string", /*default=*/"\"\"",
           "architecture description (name or file)">
  ];
}

def CheckCapacity : Pass<"ktunit-check-capacity", "::mlir::ModuleOp"> {
  let summary = "Every memory range a program touches lies within the memory";
  let options = [
    Option<"arch", "arch", "std::string", /*default=*/"\"\"",
           "architecture description (name or file)">
  ];
}

def CheckDeadlock : Pass<"ktunit-check-deadlock", "::mlir::ModuleOp"> {
  let summary = "Channels balance and the synchronisation skeleton completes";
  let options = [
    Option<"arch", "arch", "std::string", /*default=*/"\"\"",
           "architecture description (name or file)">,
    Option<"maxSteps", "max-steps", "int64_t", /*default=*/"10000000",
           "budget of abstract synchronisation steps (all instances together)">
  ];
}

def Emit : Pass<"ktunit-emit", "::mlir::ModuleOp"> {
  let summary = "Unit IR after sync insertion and register allocation -> device code text";
  let options = [
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "where to write the bundle's text form ('-' = stdout)">
  ];
}

#endif // KTFLOW_UNIT_PASSES_TD
