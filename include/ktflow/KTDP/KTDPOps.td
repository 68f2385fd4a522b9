//===- KTDPOps.td - ktdp operations -------------------------*- tablegen -*-===//
#ifndef KTFLOW_KTDP_OPS_TD
#define KTFLOW_KTDP_OPS_TD

include "ktflow/KTDP/KTDPDialect.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class KTDP_Op<string mnemonic, list<Trait> traits = []>
    : Op<KTDP_Dialect, mnemonic, traits>;

def KTDP_GetComputeTileIdOp : KTDP_Op<"get_compute_tile_id", [Pure]> {
  let summary = "grid coordinates of the executing compute tile";
  let results = (outs Variadic<Index>:$coords);
  let assemblyFormat = "attr-dict `:` type($coords)";
}

#endif // KTFLOW_KTDP_OPS_TD
