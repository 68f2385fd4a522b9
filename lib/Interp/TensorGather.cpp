//===- TensorGather.cpp - strided copies of tensors -----------------------===//
//
// Builds a tensor whose element i is a source element at a strided offset:
// broadcast, transpose and permuted copies are one walk over the output in
// row-major order with an incrementally updated source offset.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Interp/Elementwise.h"

using namespace ktflow;
using namespace ktflow::interp;

TensorPtr interp::gatherStrided(const Tensor &src, llvm::ArrayRef<int64_t> outShape,
                                llvm::ArrayRef<int64_t> srcStrides) {
  auto out = std::make_shared<Tensor>(src.kind(), outShape);
  int64_t n = out->numElements();
  unsigned rank = outShape.size();
  if (n == 0)
    return out;
  llvm::SmallVector<int64_t, 4> idx(rank, 0);
  int64_t s = 0;
  for (int64_t i = 0; i < n; ++i) {
    out->copyElement(i, src, s);
    for (int level = int(rank) - 1; level >= 0; --level) {
      s += srcStrides[level];
      if (++idx[level] < outShape[level])
        break;
      s -= outShape[level] * srcStrides[level];
      idx[level] = 0;
    }
  }
  return out;
}
