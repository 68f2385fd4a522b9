//===- KTDPEval.cpp - ktdp ops ---------------------------------------------===//
//
// Builds the run-time forms of views and access tiles (Views.h) from the
// ktdp ops and moves data with ktdp.load / ktdp.store.
//
//===----------------------------------------------------------------------===//
#include "Executor.h"

#include "ktflow/KTDP/KTDPOps.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::interp;

bool TileExecutor::execKTDP(Operation *op) {
  if (auto tileId = dyn_cast<ktdp::GetComputeTileIdOp>(op)) {
    for (auto [i, result] : llvm::enumerate(tileId->getResults()))
      set(result, Scalar::ofInt(ElemKind::Index, i < 3 ? tileCoords[i] : 0));
    return true;
  }
  return false;
}
