//===- KTDPDialect.td - the KTIR input dialect --------------*- tablegen -*-===//
//
// The `ktdp` dialect is ktflow's input language, KTIR, as defined by
// ../shared/docs/ktir.md: memory views, access tiles, loads and stores.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_KTDP_DIALECT_TD
#define KTFLOW_KTDP_DIALECT_TD

include "mlir/IR/OpBase.td"

def KTDP_Dialect : Dialect {
  let name = "ktdp";
  let summary = "KTIR: tiled multi-core kernels with explicit memory views";
  let cppNamespace = "::ktflow::ktdp";
}

#endif // KTFLOW_KTDP_DIALECT_TD
