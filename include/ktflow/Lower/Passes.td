//===- Passes.td - schedule IR to unit IR -------------------*- tablegen -*-===//
//
// The lowering from the schedule into the unit IR (DESIGN.md, "The unit
// IR"), as a pass so it runs alone in ktflow-opt; `ktflow compile` calls the
// same function (lower::lowerScheduleToUnit) and then the unit passes.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_LOWER_PASSES_TD
#define KTFLOW_LOWER_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerScheduleToUnit : Pass<"ktunit-lower-schedule", "::mlir::ModuleOp"> {
  let summary = "Schedule IR -> unit IR: programs, channels, virtual registers";
  let description = [{
    Each compute group of the module's ktsched.kernel (or each round or
    class of its grid tiles) becomes one ktunit.bundle appended to the
    module: one program per unit kind and sub-core instance, SPMD over the
    cores with instance tables, a channel per buffer hand-off, virtual
    registers, the tile loop of a sub-core as a counted loop. The kernel
    is left in place.
  }];
  let options = [
    Option<"arch", "arch", "std::string", /*default=*/"\"\"",
           "architecture description (name or file)">
  ];
}

#endif // KTFLOW_LOWER_PASSES_TD
