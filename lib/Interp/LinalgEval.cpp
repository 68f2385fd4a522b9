//===- LinalgEval.cpp - linalg ops on tensors -----------------------------===//
//
// Two paths. Fast paths cover the ops real kernels spend their time in:
// named elementwise ops, fill, copy, broadcast, transpose, reduce with a
// single commutative combiner, and matmul/batch_matmul with default maps.
// Everything else (generic, reduce with a cmpf+select or casting body,
// matvec, dot, user-defined maps, ...) runs through the general structured
// evaluator: iterate the loop space row-major (reduction loops fold in
// increasing order), read each operand through its indexing map and run the
// op's region on scalars. Both start from the `outs` values and never
// mutate them (ktir.md §6.2).
//
//===----------------------------------------------------------------------===//
#include "Executor.h"

#include "ktflow/Interp/BoundSet.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::interp;

/// The tensor value of a linalg operand converted to `kind` if needed.
static TensorPtr asKind(TensorPtr t, ElemKind kind) {
  return t->kind() == kind ? t : convertTensor(*t, kind);
}

/// Elementwise kernels of named linalg ops: float kind, int kind.
static std::optional<std::pair<FloatBinary, std::optional<IntBinary>>>
namedBinary(Operation *op) {
  using R = std::pair<FloatBinary, std::optional<IntBinary>>;
  return llvm::TypeSwitch<Operation *, std::optional<R>>(op)
      .Case([](linalg::AddOp) { return R{FloatBinary::Add, IntBinary::Add}; })
      .Case([](linalg::SubOp) { return R{FloatBinary::Sub, IntBinary::Sub}; })
      .Case([](linalg::MulOp) { return R{FloatBinary::Mul, IntBinary::Mul}; })
      .Case([](linalg::DivOp) { return R{FloatBinary::Div, IntBinary::DivS}; })
      .Case([](linalg::DivUnsignedOp) { return R{FloatBinary::Div, IntBinary::DivU}; })
      .Case([](linalg::MaxOp) { return R{FloatBinary::MaximumF, IntBinary::MaxS}; })
      .Case([](linalg::MinOp) { return R{FloatBinary::MinimumF, IntBinary::MinS}; })
      .Case([](linalg::PowFOp) { return R{FloatBinary::Pow, std::nullopt}; })
      .Default([](Operation *) { return std::nullopt; });
}

static std::optional<FloatUnary> namedUnary(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<FloatUnary>>(op)
      .Case([](linalg::ExpOp) { return FloatUnary::Exp; })
      .Case([](linalg::LogOp) { return FloatUnary::Log; })
      .Case([](linalg::AbsOp) { return FloatUnary::Abs; })
      .Case([](linalg::CeilOp) { return FloatUnary::Ceil; })
      .Case([](linalg::FloorOp) { return FloatUnary::Floor; })
      .Case([](linalg::NegFOp) { return FloatUnary::Neg; })
      .Case([](linalg::ReciprocalOp) { return FloatUnary::Reciprocal; })
      .Case([](linalg::RoundOp) { return FloatUnary::Round; })
      .Case([](linalg::SqrtOp) { return FloatUnary::Sqrt; })
      .Case([](linalg::RsqrtOp) { return FloatUnary::Rsqrt; })
      .Case([](linalg::SquareOp) { return FloatUnary::Square; })
      .Case([](linalg::TanhOp) { return FloatUnary::Tanh; })
      .Case([](linalg::ErfOp) { return FloatUnary::Erf; })
      .Default([](Operation *) { return std::nullopt; });
}

/// The combiner of a reduce body `%r = OP %a, %b; linalg.yield %r` where
/// {%a, %b} are the two block arguments and OP is commutative.
static std::optional<std::variant<FloatBinary, IntBinary>>
simpleCombiner(linalg::ReduceOp reduce) {
  Block &body = reduce.getCombiner().front();
  if (body.getNumArguments() != 2 || !llvm::hasSingleElement(body.without_terminator()))
    return std::nullopt;
  Operation &op = body.front();
  if (op.getNumOperands() != 2 || op.getNumResults() != 1 ||
      body.getTerminator()->getOperand(0) != op.getResult(0))
    return std::nullopt;
  Value a = op.getOperand(0), b = op.getOperand(1);
  if (!((a == body.getArgument(0) && b == body.getArgument(1)) ||
        (a == body.getArgument(1) && b == body.getArgument(0))))
    return std::nullopt;
  using R = std::optional<std::variant<FloatBinary, IntBinary>>;
  return llvm::TypeSwitch<Operation *, R>(&op)
      .Case([](arith::AddFOp) { return R(FloatBinary::Add); })
      .Case([](arith::MulFOp) { return R(FloatBinary::Mul); })
      .Case([](arith::MaximumFOp) { return R(FloatBinary::MaximumF); })
      .Case([](arith::MinimumFOp) { return R(FloatBinary::MinimumF); })
      .Case([](arith::MaxNumFOp) { return R(FloatBinary::MaxNumF); })
      .Case([](arith::MinNumFOp) { return R(FloatBinary::MinNumF); })
      .Case([](arith::AddIOp) { return R(IntBinary::Add); })
      .Case([](arith::MulIOp) { return R(IntBinary::Mul); })
      .Case([](arith::MaxSIOp) { return R(IntBinary::MaxS); })
      .Case([](arith::MinSIOp) { return R(IntBinary::MinS); })
      .Case([](arith::MaxUIOp) { return R(IntBinary::MaxU); })
      .Case([](arith::MinUIOp) { return R(IntBinary::MinU); })
      .Case([](arith::AndIOp) { return R(IntBinary::And); })
      .Case([](arith::OrIOp) { return R(IntBinary::Or); })
      .Case([](arith::XOrIOp) { return R(IntBinary::Xor); })
      .Default([](Operation *) { return std::nullopt; });
}

bool TileExecutor::execLinalg(Operation *op) {
  if (auto index = dyn_cast<linalg::IndexOp>(op)) {
    uint64_t dim = index.getDim();
    if (dim >= linalgLoopIndex.size())
      fail("linalg.index " + llvm::Twine(dim) + " outside the loop nest");
    set(index.getResult(), Scalar::ofInt(ElemKind::Index, linalgLoopIndex[dim]));
    return true;
  }
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return false;
  if (!linalgOp.hasPureTensorSemantics())
    fail("linalg ops on memrefs are not supported (KTIR computes on tensors)");

  // Shapes of inputs and inits must agree with the indexing maps at run time
  // (dynamic sizes); the general evaluator checks every access, the fast
  // paths below check shapes directly.
  auto inits = linalgOp.getDpsInits();
  auto inputs = linalgOp.getDpsInputs();

  if (auto fill = dyn_cast<linalg::FillOp>(op)) {
    TensorPtr init = tensor(inits[0]);
    auto out = std::make_shared<Tensor>(init->kind(), init->shape());
    out->fill(convertScalar(scalar(inputs[0]), init->kind()));
    set(op->getResult(0), TensorPtr(out));
    return true;
  }

  if (auto kinds = namedBinary(op)) {
    TensorPtr init = tensor(inits[0]);
    TensorPtr a = asKind(tensor(inputs[0]), init->kind());
    TensorPtr b = asKind(tensor(inputs[1]), init->kind());
    if (a->shape() != init->shape() || b->shape() != init->shape())
      fail("operand shapes differ: " + formatShape(a->shape()) + ", " +
           formatShape(b->shape()) + " -> " + formatShape(init->shape()));
    if (isFloatKind(init->kind())) {
      set(op->getResult(0), applyBinary(kinds->first, *a, *b));
    } else {
      if (!kinds->second)
        fail("'" + op->getName().getStringRef() + "' on integers is not supported");
      int64_t bad = -1;
      TensorPtr r = applyBinary(*kinds->second, *a, *b, bad);
      if (!r)
        fail("integer division by zero at element " + llvm::Twine(bad));
      set(op->getResult(0), r);
    }
    return true;
  }

  if (auto kind = namedUnary(op)) {
    TensorPtr init = tensor(inits[0]);
    if (isFloatKind(init->kind())) {
      TensorPtr a = asKind(tensor(inputs[0]), init->kind());
      if (a->shape() != init->shape())
        fail("operand shapes differ: " + formatShape(a->shape()) + " -> " +
             formatShape(init->shape()));
      set(op->getResult(0), applyUnary(*kind, *a));
      return true;
    }
  }

  if (isa<linalg::CopyOp>(op)) {
    TensorPtr init = tensor(inits[0]);
    TensorPtr a = asKind(tensor(inputs[0]), init->kind());
    if (a->shape() != init->shape())
      fail("copy shapes differ");
    set(op->getResult(0), a);
    return true;
  }

  if (auto bcast = dyn_cast<linalg::BroadcastOp>(op)) {
    TensorPtr in = tensor(bcast.getInput());
    TensorPtr init = tensor(bcast.getInit());
    ArrayRef<int64_t> added = bcast.getDimensions();
    auto inStrides = in->strides();
    SmallVector<int64_t, 4> strides;
    unsigned next = 0;
    for (unsigned d = 0; d < init->rank(); ++d) {
      if (llvm::is_contained(added, int64_t(d))) {
        strides.push_back(0);
        continue;
      }
      if (next >= in->rank() || in->shape()[next] != init->shape()[d])
        fail("broadcast input shape " + formatShape(in->shape()) +
             " does not match output " + formatShape(init->shape()));
      strides.push_back(inStrides[next++]);
    }
    set(op->getResult(0), asKind(gatherStrided(*in, init->shape(), strides), init->kind()));
    return true;
  }

  if (auto transpose = dyn_cast<linalg::TransposeOp>(op)) {
    TensorPtr in = tensor(transpose.getInput());
    TensorPtr init = tensor(transpose.getInit());
    ArrayRef<int64_t> perm = transpose.getPermutation();
    auto inStrides = in->strides();
    SmallVector<int64_t, 4> strides;
    for (unsigned i = 0; i < perm.size(); ++i) {
      if (in->shape()[perm[i]] != init->shape()[i])
        fail("transpose shapes do not match the permutation");
      strides.push_back(inStrides[perm[i]]);
    }
    set(op->getResult(0), asKind(gatherStrided(*in, init->shape(), strides), init->kind()));
    return true;
  }

  if (auto reduceOp = dyn_cast<linalg::ReduceOp>(op)) {
    if (reduceOp.getInputs().size() == 1) {
      TensorPtr in = tensor(reduceOp.getInputs()[0]);
      TensorPtr init = tensor(reduceOp.getInits()[0]);
      auto combiner = simpleCombiner(reduceOp);
      if (combiner && in->kind() == init->kind()) {
        ArrayRef<int64_t> dims = reduceOp.getDimensions();
        SmallVector<int64_t, 4> expected;
        for (unsigned d = 0; d < in->rank(); ++d)
          if (!llvm::is_contained(dims, int64_t(d)))
            expected.push_back(in->shape()[d]);
        if (ArrayRef<int64_t>(expected) != init->shape())
          fail("reduce init shape " + formatShape(init->shape()) +
               " does not match input " + formatShape(in->shape()) +
               " without the reduced dimensions");
        TensorPtr r;
        if (auto *f = std::get_if<FloatBinary>(&*combiner)) {
          if (isFloatKind(in->kind()))
            r = reduce(*f, *in, *init, dims);
        } else if (isIntKind(in->kind())) {
          r = reduce(std::get<IntBinary>(*combiner), *in, *init, dims);
        }
        if (r) {
          set(op->getResult(0), r);
          return true;
        }
      }
    }
  }

  if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op)) {
    bool userMaps = false;
    if (auto mm = dyn_cast<linalg::MatmulOp>(op))
      userMaps = mm.hasUserDefinedMaps();
    if (auto bmm = dyn_cast<linalg::BatchMatmulOp>(op))
      userMaps = bmm.hasUserDefinedMaps();
    if (!userMaps && !op->hasAttr("cast")) {
      TensorPtr c = tensor(inits[0]);
      TensorPtr a = asKind(tensor(inputs[0]), c->kind());
      TensorPtr b = asKind(tensor(inputs[1]), c->kind());
      unsigned r = c->rank();
      bool batchOk = r == 2 || (a->shape()[0] == c->shape()[0] && b->shape()[0] == c->shape()[0]);
      if (!batchOk || a->shape()[r - 2] != c->shape()[r - 2] ||
          b->shape()[r - 1] != c->shape()[r - 1] ||
          a->shape()[r - 1] != b->shape()[r - 2])
        fail("matmul shapes do not agree: " + formatShape(a->shape()) + " x " +
             formatShape(b->shape()) + " -> " + formatShape(c->shape()));
      set(op->getResult(0), matmul(*a, *b, *c));
      return true;
    }
  }

  runLinalgGeneric(op);
  return true;
}

void TileExecutor::runLinalgGeneric(Operation *op) {
  auto linalgOp = cast<linalg::LinalgOp>(op);
  SmallVector<RtValue, 4> operands;
  SmallVector<int64_t, 8> allSizes;
  for (OpOperand &operand : op->getOpOperands()) {
    const RtValue &v = get(operand.get());
    operands.push_back(v);
    if (auto *t = std::get_if<TensorPtr>(&v))
      allSizes.append((*t)->shape().begin(), (*t)->shape().end());
  }
  AffineMap shapesToLoops = linalgOp.getShapesToLoopsMap();
  if (!shapesToLoops)
    fail("cannot derive the loop bounds of this linalg op");
  SmallVector<int64_t, 4> ranges;
  for (AffineExpr e : shapesToLoops.getResults())
    ranges.push_back(evaluateAffine(e, allSizes, {}));
  SmallVector<AffineMap, 4> maps = linalgOp.getIndexingMapsArray();

  unsigned numInputs = linalgOp.getNumDpsInputs();
  SmallVector<std::shared_ptr<Tensor>, 2> results;
  SmallVector<SmallVector<int64_t, 4>, 4> strides;
  for (unsigned i = 0; i < operands.size(); ++i) {
    if (auto *t = std::get_if<TensorPtr>(&operands[i]))
      strides.push_back((*t)->strides());
    else
      strides.emplace_back();
  }
  for (unsigned i = numInputs; i < operands.size(); ++i)
    results.push_back(std::make_shared<Tensor>(*std::get<TensorPtr>(operands[i])));

  Block &body = op->getRegion(0).front();
  unsigned numLoops = ranges.size();
  for (int64_t r : ranges)
    if (r <= 0)
      goto done;
  {
    SmallVector<int64_t, 4> idx(numLoops, 0);
    SmallVector<RtValue, 4> args(operands.size());
    SmallVector<int64_t, 4> linear(operands.size());
    while (true) {
      for (unsigned i = 0; i < operands.size(); ++i) {
        const Tensor *t = i < numInputs
                              ? (std::holds_alternative<TensorPtr>(operands[i])
                                     ? std::get<TensorPtr>(operands[i]).get()
                                     : nullptr)
                              : results[i - numInputs].get();
        if (!t) {
          args[i] = operands[i];
          continue;
        }
        int64_t lin = 0;
        AffineMap map = maps[i];
        for (unsigned d = 0; d < map.getNumResults(); ++d) {
          int64_t c = evaluateAffine(map.getResult(d), idx, {});
          if (c < 0 || c >= t->shape()[d])
            fail("linalg operand " + llvm::Twine(i) + " accessed at index " +
                 llvm::Twine(c) + " of dimension " + llvm::Twine(d) +
                 " (size " + llvm::Twine(t->shape()[d]) + ")");
          lin += c * strides[i][d];
        }
        linear[i] = lin;
        args[i] = t->get(lin);
      }
      linalgLoopIndex.assign(idx.begin(), idx.end());
      SmallVector<RtValue, 4> yielded = runBlock(body, args);
      current = op;
      for (unsigned j = 0; j < results.size(); ++j)
        results[j]->set(linear[numInputs + j],
                        convertScalar(std::get<Scalar>(yielded[j]), results[j]->kind()));
      int level = int(numLoops) - 1;
      for (; level >= 0; --level) {
        if (++idx[level] < ranges[level])
          break;
        idx[level] = 0;
      }
      if (level < 0)
        break;
    }
  }
done:
  linalgLoopIndex.clear();
  for (unsigned j = 0; j < results.size(); ++j)
    set(op->getResult(j), TensorPtr(results[j]));
}
