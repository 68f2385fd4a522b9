//===- TensorEval.cpp - tensor dialect ops --------------------------------===//
//
// Shape manipulation and element access on immutable tensors. Reshapes
// (expand/collapse/reshape/cast) share the row-major data and only change
// the shape; slices and inserts copy. Indices are checked against the shape
// at run time.
//
//===----------------------------------------------------------------------===//
#include "Executor.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::interp;

namespace {
/// Values of mixed static/dynamic lists (offsets, sizes, strides).
struct MixedReader {
  TileExecutor &ex;
  SmallVector<int64_t, 4> read(ArrayRef<OpFoldResult> list) {
    SmallVector<int64_t, 4> out;
    for (OpFoldResult r : list) {
      if (auto attr = dyn_cast<Attribute>(r))
        out.push_back(cast<IntegerAttr>(attr).getInt());
      else
        out.push_back(ex.index(cast<Value>(r)));
    }
    return out;
  }
};
} // namespace

/// A tensor with the same data and a new shape.
static TensorPtr reshaped(const Tensor &t, ArrayRef<int64_t> shape) {
  auto out = std::make_shared<Tensor>(t.kind(), shape);
  for (int64_t i = 0, n = t.numElements(); i < n; ++i)
    out->copyElement(i, t, i);
  return out;
}

/// Linear index of `idx` in `t`, or a failure message.
static int64_t linearIndex(TileExecutor &ex, const Tensor &t, ArrayRef<int64_t> idx) {
  auto strides = t.strides();
  int64_t lin = 0;
  for (unsigned d = 0; d < t.rank(); ++d) {
    if (idx[d] < 0 || idx[d] >= t.shape()[d])
      ex.fail("tensor index " + formatShape(idx) + " is out of bounds for shape " +
              formatShape(t.shape()));
    lin += idx[d] * strides[d];
  }
  return lin;
}

/// Calls fn(sliceLinear, tensorLinear) for each element of a strided slice.
template <class Fn>
static void forEachSliceElement(TileExecutor &ex, const Tensor &t,
                                ArrayRef<int64_t> offsets, ArrayRef<int64_t> sizes,
                                ArrayRef<int64_t> steps, Fn fn) {
  unsigned rank = t.rank();
  for (unsigned d = 0; d < rank; ++d) {
    if (sizes[d] == 0)
      return;
    int64_t last = offsets[d] + (sizes[d] - 1) * steps[d];
    if (offsets[d] < 0 || last >= t.shape()[d] || last < 0)
      ex.fail("slice [offset " + llvm::Twine(offsets[d]) + ", size " +
              llvm::Twine(sizes[d]) + ", stride " + llvm::Twine(steps[d]) +
              "] leaves dimension " + llvm::Twine(d) + " of shape " +
              formatShape(t.shape()));
  }
  auto strides = t.strides();
  SmallVector<int64_t, 4> idx(rank, 0);
  int64_t n = 1;
  for (int64_t s : sizes)
    n *= s;
  for (int64_t i = 0; i < n; ++i) {
    int64_t lin = 0;
    for (unsigned d = 0; d < rank; ++d)
      lin += (offsets[d] + idx[d] * steps[d]) * strides[d];
    fn(i, lin);
    for (int level = int(rank) - 1; level >= 0; --level) {
      if (++idx[level] < sizes[level])
        break;
      idx[level] = 0;
    }
  }
}

bool TileExecutor::execTensor(Operation *op) {
  MixedReader mixed{*this};
  auto dynSizes = [&](ValueRange values) {
    SmallVector<int64_t, 4> out;
    for (Value v : values)
      out.push_back(index(v));
    return out;
  };

  if (auto empty = dyn_cast<tensor::EmptyOp>(op)) {
    auto shape = resolveShape(empty.getType(), dynSizes(empty.getDynamicSizes()));
    set(empty.getResult(), TensorPtr(std::make_shared<Tensor>(elemKindOf(empty.getType()), shape)));
    return true;
  }
  if (auto splat = dyn_cast<tensor::SplatOp>(op)) {
    auto shape = resolveShape(splat.getType(), dynSizes(splat.getDynamicSizes()));
    auto t = std::make_shared<Tensor>(elemKindOf(splat.getType()), shape);
    t->fill(scalar(splat.getInput()));
    set(splat.getResult(), TensorPtr(t));
    return true;
  }
  if (auto extract = dyn_cast<tensor::ExtractOp>(op)) {
    TensorPtr t = tensor(extract.getTensor());
    auto idx = dynSizes(extract.getIndices());
    set(extract.getResult(), t->get(linearIndex(*this, *t, idx)));
    return true;
  }
  if (auto insert = dyn_cast<tensor::InsertOp>(op)) {
    TensorPtr t = tensor(insert.getDest());
    auto idx = dynSizes(insert.getIndices());
    auto out = std::make_shared<Tensor>(*t);
    out->set(linearIndex(*this, *t, idx), scalar(insert.getScalar()));
    set(insert.getResult(), TensorPtr(out));
    return true;
  }
  if (auto fromElements = dyn_cast<tensor::FromElementsOp>(op)) {
    auto type = fromElements.getType();
    auto t = std::make_shared<Tensor>(elemKindOf(type), type.getShape());
    int64_t i = 0;
    for (Value v : fromElements.getElements())
      t->set(i++, scalar(v));
    set(fromElements.getResult(), TensorPtr(t));
    return true;
  }
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
    TensorPtr src = tensor(slice.getSource());
    auto offsets = mixed.read(slice.getMixedOffsets());
    auto sizes = mixed.read(slice.getMixedSizes());
    auto steps = mixed.read(slice.getMixedStrides());
    auto out = std::make_shared<Tensor>(src->kind(), sizes);
    forEachSliceElement(*this, *src, offsets, sizes, steps,
                        [&](int64_t i, int64_t lin) { out->copyElement(i, *src, lin); });
    // Rank-reducing slices drop unit dimensions.
    llvm::SmallBitVector dropped = slice.getDroppedDims();
    SmallVector<int64_t, 4> shape;
    for (unsigned d = 0; d < sizes.size(); ++d)
      if (!dropped.test(d))
        shape.push_back(sizes[d]);
    set(slice.getResult(), reshaped(*out, shape));
    return true;
  }
  if (auto insertSlice = dyn_cast<tensor::InsertSliceOp>(op)) {
    TensorPtr src = tensor(insertSlice.getSource());
    TensorPtr dest = tensor(insertSlice.getDest());
    auto offsets = mixed.read(insertSlice.getMixedOffsets());
    auto sizes = mixed.read(insertSlice.getMixedSizes());
    auto steps = mixed.read(insertSlice.getMixedStrides());
    int64_t count = 1;
    for (int64_t s : sizes)
      count *= s;
    if (count != src->numElements())
      fail("insert_slice source " + formatShape(src->shape()) +
           " does not fill the slice " + formatShape(sizes));
    auto out = std::make_shared<Tensor>(*dest);
    forEachSliceElement(*this, *dest, offsets, sizes, steps,
                        [&](int64_t i, int64_t lin) { out->copyElement(lin, *src, i); });
    set(insertSlice.getResult(), TensorPtr(out));
    return true;
  }
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
    TensorPtr src = tensor(expand.getSrc());
    auto shape = mixed.read(expand.getMixedOutputShape());
    int64_t count = 1;
    for (int64_t s : shape)
      count *= s;
    if (count != src->numElements())
      fail("expand_shape output shape " + formatShape(shape) +
           " does not hold the " + llvm::Twine(src->numElements()) + " elements");
    set(expand.getResult(), reshaped(*src, shape));
    return true;
  }
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op)) {
    TensorPtr src = tensor(collapse.getSrc());
    SmallVector<int64_t, 4> shape;
    for (const ReassociationIndices &group : collapse.getReassociationIndices()) {
      int64_t n = 1;
      for (int64_t d : group)
        n *= src->shape()[d];
      shape.push_back(n);
    }
    if (shape.empty() && src->numElements() != 1)
      fail("collapse_shape to rank 0 needs exactly one element");
    set(collapse.getResult(), reshaped(*src, shape));
    return true;
  }
  if (auto reshape = dyn_cast<tensor::ReshapeOp>(op)) {
    TensorPtr src = tensor(reshape.getSource());
    TensorPtr shapeT = tensor(reshape.getShape());
    SmallVector<int64_t, 4> shape;
    for (int64_t i = 0; i < shapeT->numElements(); ++i)
      shape.push_back(shapeT->get(i).i);
    int64_t count = 1;
    for (int64_t s : shape)
      count *= s;
    if (count != src->numElements())
      fail("reshape to " + formatShape(shape) + " changes the element count");
    set(reshape.getResult(), reshaped(*src, shape));
    return true;
  }
  if (auto castOp = dyn_cast<tensor::CastOp>(op)) {
    TensorPtr src = tensor(castOp.getSource());
    auto type = cast<RankedTensorType>(castOp.getType());
    for (unsigned d = 0; d < type.getRank(); ++d)
      if (!type.isDynamicDim(d) && type.getDimSize(d) != src->shape()[d])
        fail("tensor.cast to " + formatShape(type.getShape()) +
             " of a tensor of shape " + formatShape(src->shape()));
    set(castOp.getResult(), src);
    return true;
  }
  if (auto dim = dyn_cast<tensor::DimOp>(op)) {
    TensorPtr src = tensor(dim.getSource());
    int64_t d = index(dim.getIndex());
    if (d < 0 || d >= int64_t(src->rank()))
      fail("tensor.dim index out of range");
    set(dim.getResult(), Scalar::ofInt(ElemKind::Index, src->shape()[d]));
    return true;
  }
  if (auto rank = dyn_cast<tensor::RankOp>(op)) {
    set(rank.getResult(), Scalar::ofInt(ElemKind::Index, tensor(rank.getTensor())->rank()));
    return true;
  }
  if (auto concat = dyn_cast<tensor::ConcatOp>(op)) {
    int64_t dim = concat.getDim();
    SmallVector<TensorPtr, 4> parts;
    for (Value v : concat.getInputs())
      parts.push_back(tensor(v));
    SmallVector<int64_t, 4> shape(parts[0]->shape());
    shape[dim] = 0;
    for (auto &p : parts)
      shape[dim] += p->shape()[dim];
    auto out = std::make_shared<Tensor>(parts[0]->kind(), shape);
    SmallVector<int64_t, 4> offsets(shape.size(), 0), steps(shape.size(), 1);
    for (auto &p : parts) {
      forEachSliceElement(*this, *out, offsets, p->shape(), steps,
                          [&](int64_t i, int64_t lin) { out->copyElement(lin, *p, i); });
      offsets[dim] += p->shape()[dim];
    }
    set(concat.getResult(), TensorPtr(out));
    return true;
  }
  if (auto generate = dyn_cast<tensor::GenerateOp>(op)) {
    auto shape = resolveShape(generate.getType(), dynSizes(generate.getDynamicExtents()));
    auto out = std::make_shared<Tensor>(elemKindOf(generate.getType()), shape);
    SmallVector<int64_t, 4> idx(shape.size(), 0);
    Block &body = generate.getBody().front();
    for (int64_t i = 0, n = out->numElements(); i < n; ++i) {
      SmallVector<RtValue, 4> args;
      for (int64_t v : idx)
        args.push_back(Scalar::ofInt(ElemKind::Index, v));
      auto yielded = runBlock(body, args);
      current = op;
      out->set(i, std::get<Scalar>(yielded[0]));
      for (int level = int(shape.size()) - 1; level >= 0; --level) {
        if (++idx[level] < shape[level])
          break;
        idx[level] = 0;
      }
    }
    set(generate.getResult(), TensorPtr(out));
    return true;
  }
  if (auto pad = dyn_cast<tensor::PadOp>(op)) {
    TensorPtr src = tensor(pad.getSource());
    auto low = mixed.read(pad.getMixedLowPad());
    auto high = mixed.read(pad.getMixedHighPad());
    SmallVector<int64_t, 4> shape;
    for (unsigned d = 0; d < src->rank(); ++d)
      shape.push_back(low[d] + src->shape()[d] + high[d]);
    auto out = std::make_shared<Tensor>(src->kind(), shape);
    // The padding value is what the region yields at each padded index. A
    // value defined outside the region (or a constant, wherever it is
    // defined) is the same everywhere: evaluate it once. The region's own
    // ops are evaluated by running it, never read before they ran.
    Block &body = pad.getRegion().front();
    Value yielded = body.getTerminator()->getOperand(0);
    auto runAt = [&](ArrayRef<int64_t> idx) {
      SmallVector<RtValue, 4> args;
      for (int64_t v : idx)
        args.push_back(Scalar::ofInt(ElemKind::Index, v));
      auto values = runBlock(body, args);
      current = op;
      return std::get<Scalar>(values[0]);
    };
    SmallVector<int64_t, 4> idx(shape.size(), 0);
    if (!pad.getRegion().isAncestor(yielded.getParentRegion())) {
      out->fill(scalar(yielded));
    } else if (pad.getConstantPaddingValue()) {
      out->fill(runAt(idx));
    } else {
      // Index-dependent padding: run the region at every padded element.
      for (int64_t i = 0, n = out->numElements(); i < n; ++i) {
        bool inside = true;
        for (unsigned d = 0; d < shape.size(); ++d)
          inside &= idx[d] >= low[d] && idx[d] < low[d] + src->shape()[d];
        if (!inside)
          out->set(i, runAt(idx));
        for (int level = int(shape.size()) - 1; level >= 0; --level) {
          if (++idx[level] < shape[level])
            break;
          idx[level] = 0;
        }
      }
    }
    SmallVector<int64_t, 4> steps(shape.size(), 1);
    forEachSliceElement(*this, *out, low, src->shape(), steps,
                        [&](int64_t i, int64_t lin) { out->copyElement(lin, *src, i); });
    set(pad.getResult(), TensorPtr(out));
    return true;
  }
  return false;
}
