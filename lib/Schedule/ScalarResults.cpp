//===- ScalarResults.cpp - scalars read from one-element tensors ----------===//
//
// Strategy: a worklist of tensor.extract ops whose tensor has one element.
// Each use of an extracted scalar that has a tensor counterpart is
// rewritten onto the tensor, and the rewritten op's result is read by a new
// extract that joins the worklist, so a chain of scalar ops (a mean, an
// epilogue cast) moves onto tensors one op at a time until it reaches the
// from_elements or splat that made a tensor of it again. The rewrite keeps
// values exactly: a one-element tensor op computes, and rounds, as the
// scalar op does.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Schedule/ScalarResults.h"

#include "ktflow/Schedule/SupportedOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::ktsched;

/// The one-element float tensor `extract` reads, if it reads one.
static RankedTensorType oneElementSource(tensor::ExtractOp extract) {
  auto type = extract.getTensor().getType();
  if (!type.hasStaticShape() || type.getNumElements() != 1 ||
      !isa<FloatType>(type.getElementType()))
    return {};
  return type;
}

static bool isKernelScalar(Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  return arg && isa<func::FuncOp>(arg.getOwner()->getParentOp()) &&
         isa<FloatType>(arg.getType());
}

/// Whether `op` is an element-wise scalar op with a tensor counterpart (the
/// same op on tensors is in the supported-op table); compares and selects
/// are not, their scalar mask has no lane-wise meaning here.
static bool isLiftable(Operation *op) {
  if (isa<arith::CmpFOp, arith::SelectOp>(op) || op->getNumResults() != 1 ||
      op->getNumRegions() != 0 || !isa<FloatType>(op->getResult(0).getType()))
    return false;
  const OpSupport *entry = lookupOpSupport(op);
  return entry && entry->role == OpRole::Elementwise &&
         op->getName().getDialectNamespace() != "linalg";
}

/// The dimensions a broadcast of a one-element tensor of rank `rank` into
/// `shape` adds: every dimension of extent above one, then unit
/// dimensions from the innermost, until the kept ones are as many as
/// `rank` (each kept dimension has extent one, as the source does).
static std::optional<SmallVector<int64_t>> addedDims(ArrayRef<int64_t> shape, int64_t rank) {
  int64_t adding = (int64_t)shape.size() - rank;
  if (adding <= 0)
    return std::nullopt;
  SmallVector<bool> added(shape.size(), false);
  int64_t count = 0;
  for (auto [i, extent] : llvm::enumerate(shape))
    if (extent != 1) {
      added[i] = true;
      ++count;
    }
  for (int64_t i = shape.size() - 1; i >= 0 && count < adding; --i)
    if (!added[i]) {
      added[i] = true;
      ++count;
    }
  if (count != adding)
    return std::nullopt;
  SmallVector<int64_t> dims;
  for (auto [i, a] : llvm::enumerate(added))
    if (a)
      dims.push_back(i);
  return dims;
}

/// Rewrites `user`, a use of the scalar `extract` reads from `source`, onto
/// tensors; returns the new extract its result is read by, if any.
static FailureOr<tensor::ExtractOp> liftUse(tensor::ExtractOp extract, Operation *user,
                                            RankedTensorType source) {
  Value tensor = extract.getTensor();
  OpBuilder b(user);
  Location loc = user->getLoc();
  if (auto from = dyn_cast<tensor::FromElementsOp>(user)) {
    if (from.getType() != source)
      return failure();
    from.getResult().replaceAllUsesWith(tensor);
    from.erase();
    return tensor::ExtractOp();
  }
  if (auto splat = dyn_cast<tensor::SplatOp>(user)) {
    auto type = splat.getType();
    if (type == source) {
      splat.getResult().replaceAllUsesWith(tensor);
      splat.erase();
      return tensor::ExtractOp();
    }
    std::optional<SmallVector<int64_t>> dims =
        type.hasStaticShape() ? addedDims(type.getShape(), source.getRank()) : std::nullopt;
    if (!dims)
      return failure();
    Value empty = tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
    auto broadcast = linalg::BroadcastOp::create(b, loc, tensor, empty, *dims);
    splat.getResult().replaceAllUsesWith(broadcast.getResult()[0]);
    splat.erase();
    return tensor::ExtractOp();
  }
  if (!isLiftable(user))
    return failure();
  // Every operand: this scalar, another one read from a tensor of the same
  // shape, a constant or a scalar kernel argument.
  SmallVector<Value> operands;
  for (Value operand : user->getOperands()) {
    auto other = operand.getDefiningOp<tensor::ExtractOp>();
    if (other && oneElementSource(other) &&
        other.getTensor().getType().getShape() == source.getShape()) {
      operands.push_back(other.getTensor());
      continue;
    }
    auto type = RankedTensorType::get(source.getShape(), operand.getType());
    auto constant = operand.getDefiningOp<arith::ConstantOp>();
    if (constant && isa<FloatAttr>(constant.getValue())) {
      operands.push_back(arith::ConstantOp::create(
          b, loc, type, SplatElementsAttr::get(type, constant.getValue())));
      continue;
    }
    if (!isKernelScalar(operand))
      return failure();
    operands.push_back(tensor::SplatOp::create(b, loc, type, operand));
  }
  auto resultType = RankedTensorType::get(source.getShape(), user->getResult(0).getType());
  OperationState state(loc, user->getName(), operands, TypeRange{resultType},
                       user->getAttrs());
  Operation *lifted = b.create(state);
  auto read = tensor::ExtractOp::create(b, loc, lifted->getResult(0), extract.getIndices());
  user->getResult(0).replaceAllUsesWith(read.getResult());
  user->erase();
  return read;
}

void ktflow::ktsched::liftOneElementScalars(Operation *root) {
  SmallVector<tensor::ExtractOp> work;
  root->walk([&](tensor::ExtractOp extract) {
    if (oneElementSource(extract))
      work.push_back(extract);
  });
  while (!work.empty()) {
    tensor::ExtractOp extract = work.pop_back_val();
    RankedTensorType source = oneElementSource(extract);
    // Users change as they are rewritten: take them one at a time.
    bool progress = true;
    while (progress) {
      progress = false;
      for (Operation *user : llvm::make_early_inc_range(extract->getUsers())) {
        FailureOr<tensor::ExtractOp> read = liftUse(extract, user, source);
        if (failed(read))
          continue;
        if (*read)
          work.push_back(*read);
        progress = true;
        break;
      }
    }
    if (extract->use_empty())
      extract.erase();
  }
}
