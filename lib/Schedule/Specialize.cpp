//===- Specialize.cpp - substitute launch values, fold index arithmetic ---===//
//
// Strategy (DESIGN.md, "Launch values"): frontends pass block sizes, extents
// and offsets as kernel arguments, and the scheduler needs subscripts, loop
// bounds and view shapes that are affine in the grid coordinates and loop
// variables, or constant. So, as Triton does for its constexpr arguments,
// each bound argument is replaced by a constant (a runtime_arg's `value`
// extraction by a constant of its underlying type), and then the scalar
// arithmetic is folded by MLIR's own arith folders and canonicalization
// patterns, applied greedily to the scalar ops only (tensor computations are
// left exactly as written), plus the narrowing of a float constant, which
// MLIR folds only when exact. Two KTDP rewrites join them: a runtime_arg's
// granularity and upperbound are constants of its type, and a memory view
// whose SSA sizes or strides became constants turns static, its
// coordinate_set symbols replaced by those constants. The values are
// recorded on the kernel (LaunchValues.h) for the device code to carry.
// A runtime_arg left unbound that only sets loop upper bounds and view
// sizes stays symbolic (UnboundLaunchValues.cpp): the kernel is scheduled
// at its upperbound, the loops' bounds recorded as functions of it. What
// does not fold stays for the input check, which names the unbound
// argument a construct depends on.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Schedule/Passes.h"

#include "ktflow/KTDP/KTDPOps.h"
#include "ktflow/KTDP/KTDPTypes.h"
#include "ktflow/KTDP/LaunchArgs.h"
#include "ktflow/Schedule/LaunchValues.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace ktflow::ktsched {
#define GEN_PASS_DEF_SPECIALIZE
#include "ktflow/Schedule/Passes.h.inc"
} // namespace ktflow::ktsched

using namespace mlir;
using namespace ktflow;
using namespace ktflow::ktsched;

namespace {

/// `granularity` and `upperbound` of a runtime_arg are constants of its type.
struct FoldRuntimeArgGuarantee : OpRewritePattern<ktdp::RuntimeArgExtractOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ktdp::RuntimeArgExtractOp op,
                                PatternRewriter &rewriter) const override {
    auto type = cast<ktdp::RuntimeArgType>(op.getInput().getType());
    std::optional<int64_t> value;
    if (op.getKind() == ktdp::RuntimeArgExtractKind::Granularity)
      value = type.getGranularity();
    else if (op.getKind() == ktdp::RuntimeArgExtractKind::Upperbound)
      value = type.getUpperbound();
    if (!value)
      return failure();
    rewriter.replaceOpWithNewOp<arith::ConstantIndexOp>(op, *value);
    return success();
  }
};

/// A memory view whose SSA sizes or strides are constants becomes static:
/// the constants move into static_sizes / static_strides, a `?` dimension of
/// the result takes the size, and each coordinate_set symbol bound to a
/// folded size is replaced by it (the remaining symbols keep binding the
/// remaining SSA sizes, left to right). A constant opposite a different
/// static dimension is left for the verifier to report.
struct FoldConstantViewShape : OpRewritePattern<ktdp::ConstructMemoryViewOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ktdp::ConstructMemoryViewOp view,
                                PatternRewriter &rewriter) const override {
    MemRefType type = view.getType();
    SmallVector<int64_t> sizes(view.getStaticSizes()), strides(view.getStaticStrides());
    SmallVector<int64_t> shape(type.getShape());
    SmallVector<Value> dynSizes, dynStrides;
    std::optional<IntegerSet> set = view.getCoordinateSet();
    unsigned numSymbols = set ? set->getNumSymbols() : 0;
    SmallVector<AffineExpr> symbols;
    bool changed = false;
    unsigned entry = 0;
    for (unsigned k = 0; k < sizes.size(); ++k) {
      if (!ShapedType::isDynamic(sizes[k]))
        continue;
      Value size = view.getSizes()[entry];
      std::optional<int64_t> known = getConstantIntValue(size);
      bool fold = known && *known >= 0 &&
                  (ShapedType::isDynamic(shape[k]) || shape[k] == *known);
      if (entry < numSymbols)
        symbols.push_back(fold ? getAffineConstantExpr(*known, getContext())
                               : getAffineSymbolExpr(dynSizes.size(), getContext()));
      if (fold) {
        sizes[k] = shape[k] = *known;
        changed = true;
      } else {
        dynSizes.push_back(size);
      }
      ++entry;
    }
    entry = 0;
    for (unsigned k = 0; k < strides.size(); ++k) {
      if (!ShapedType::isDynamic(strides[k]))
        continue;
      Value stride = view.getStrides()[entry++];
      std::optional<int64_t> known = getConstantIntValue(stride);
      if (known && *known >= 0) {
        strides[k] = *known;
        changed = true;
      } else {
        dynStrides.push_back(stride);
      }
    }
    if (!changed)
      return failure();
    IntegerSetAttr newSet;
    if (set) {
      SmallVector<AffineExpr> dims;
      for (unsigned d = 0; d < set->getNumDims(); ++d)
        dims.push_back(getAffineDimExpr(d, getContext()));
      unsigned kept = llvm::count_if(symbols, [](AffineExpr e) { return isa<AffineSymbolExpr>(e); });
      newSet = IntegerSetAttr::get(
          set->replaceDimsAndSymbols(dims, symbols, set->getNumDims(), kept));
    }
    auto newType = MemRefType::get(shape, type.getElementType(), type.getLayout(),
                                   type.getMemorySpace());
    auto folded = ktdp::ConstructMemoryViewOp::create(
        rewriter, view.getLoc(), newType, view.getOffset(), dynSizes, dynStrides,
        rewriter.getDenseI64ArrayAttr(sizes), rewriter.getDenseI64ArrayAttr(strides),
        view.getMemorySpace(), newSet);
    folded->setDiscardableAttrs(view->getDiscardableAttrDictionary());
    // The users (access tiles, distributed views) take any memref of the
    // view's rank and element type, so they see the static type directly.
    rewriter.replaceOp(view, folded.getResult());
    return success();
  }
};

/// A scalar arith.truncf of a constant is the constant rounded to nearest,
/// ties to even, as the interpreter narrows (ktir.md §7.1). MLIR's own
/// folder folds only exact narrowings, and a scale such as 0.3 is not one.
struct FoldTruncFConstant : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::TruncFOp op, PatternRewriter &rewriter) const override {
    auto type = dyn_cast<FloatType>(op.getType());
    FloatAttr input;
    // An explicit rounding mode is the folder's to honour.
    if (!type || op.getRoundingmodeAttr() || !matchPattern(op.getIn(), m_Constant(&input)))
      return failure();
    llvm::APFloat value = input.getValue();
    bool lost;
    value.convert(type.getFloatSemantics(), llvm::APFloat::rmNearestTiesToEven, &lost);
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, type, FloatAttr::get(type, value));
    return success();
  }
};

/// Whether the specialization folds `op`: scalar arithmetic (tensor ops keep
/// their form for the compute groups) and the KTDP ops rewritten above.
bool isFoldCandidate(Operation *op) {
  if (isa<ktdp::RuntimeArgExtractOp, ktdp::ConstructMemoryViewOp>(op))
    return true;
  if (op->getDialect() == nullptr || op->getDialect()->getNamespace() != "arith")
    return false;
  return llvm::none_of(op->getResultTypes(), [](Type t) { return isa<ShapedType>(t); }) &&
         llvm::none_of(op->getOperandTypes(), [](Type t) { return isa<ShapedType>(t); });
}

struct SpecializePass : ktflow::ktsched::impl::SpecializeBase<SpecializePass> {
  using SpecializeBase::SpecializeBase;

  void runOnOperation() override {
    SmallVector<func::FuncOp> kernels;
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal())
        kernels.push_back(func);
    SmallVector<ktdp::ArgBinding> bindings;
    for (const std::string &text : args) {
      std::optional<ktdp::ArgBinding> binding = ktdp::splitArgBinding(text);
      if (!binding) {
        emitError(getOperation().getLoc())
            << "launch value '" << text << "' must have the form NAME=VALUE";
        return signalPassFailure();
      }
      bindings.push_back(*binding);
    }
    RewritePatternSet patterns(&getContext());
    for (RegisteredOperationName name : getContext().getRegisteredOperations())
      if (name.getDialectNamespace() == "arith")
        name.getCanonicalizationPatterns(patterns, &getContext());
    patterns.add<FoldRuntimeArgGuarantee, FoldConstantViewShape, FoldTruncFConstant>(
        &getContext());
    FrozenRewritePatternSet frozen(std::move(patterns));
    // Bound values first; the runtime_args still unbound are then carried
    // symbolically (UnboundLaunchValues.cpp) and what they set folds too.
    for (func::FuncOp kernel : kernels)
      if (failed(substitute(kernel, bindings)) || failed(fold(kernel, frozen)) ||
          failed(carryUnboundLaunchValues(kernel)) || failed(fold(kernel, frozen)))
        return signalPassFailure();
  }

  /// Replaces every bound argument's uses by its value and records it.
  LogicalResult substitute(func::FuncOp kernel, ArrayRef<ktdp::ArgBinding> bindings) {
    if (bindings.empty())
      return success();
    SmallVector<std::string> names = ktdp::argumentNames(kernel);
    Block &entry = kernel.getBody().front();
    OpBuilder builder(&entry, entry.begin());
    std::map<unsigned, std::pair<std::string, TypedAttr>> bound;
    for (const ktdp::ArgBinding &binding : bindings) {
      std::optional<unsigned> index = ktdp::resolveArgumentName(names, binding.name);
      if (!index) {
        std::string known;
        for (const std::string &n : names)
          known += (known.empty() ? "" : ", ") + n;
        return kernel.emitError("unknown argument name '")
               << binding.name << "' in --arg " << binding.name << "=" << binding.value
               << " (kernel @" << kernel.getName() << " has: " << known << ")";
      }
      BlockArgument arg = entry.getArgument(*index);
      const std::string &name = names[*index];
      if (bound.count(*index))
        return kernel.emitError("argument '") << name << "' is bound twice";
      if (ktdp::isBufferBase(arg))
        return kernel.emitError("argument '")
               << name << "' is a buffer (a memory view is based on it), not a launch "
               << "value: --arg " << binding.name << "=" << binding.value
               << " binds only scalar arguments here";
      std::string error;
      FailureOr<TypedAttr> value =
          ktdp::parseLaunchValue(arg.getType(), binding.value, name, error);
      if (failed(value))
        return kernel.emitError(error);
      bound[*index] = {name, *value};
    }
    SmallVector<Attribute> recorded;
    for (auto &[index, entryValue] : bound) {
      auto &[name, value] = entryValue;
      BlockArgument arg = entry.getArgument(index);
      Value constant = arith::ConstantOp::create(builder, arg.getLoc(), value);
      if (isa<ktdp::RuntimeArgType>(arg.getType())) {
        for (Operation *user : llvm::make_early_inc_range(arg.getUsers()))
          if (auto extract = dyn_cast<ktdp::RuntimeArgExtractOp>(user);
              extract && extract.getKind() == ktdp::RuntimeArgExtractKind::Value)
            extract.getResult().replaceAllUsesWith(constant);
      } else {
        arg.replaceAllUsesWith(constant);
      }
      MLIRContext *ctx = &getContext();
      recorded.push_back(DictionaryAttr::get(
          ctx, {NamedAttribute(StringAttr::get(ctx, "arg"),
                               IntegerAttr::get(IntegerType::get(ctx, 64), index)),
                NamedAttribute(StringAttr::get(ctx, "name"), StringAttr::get(ctx, name)),
                NamedAttribute(StringAttr::get(ctx, "value"), value)}));
    }
    kernel->setAttr(kLaunchValuesAttr, ArrayAttr::get(&getContext(), recorded));
    return success();
  }

  /// Folds the kernel's scalar arithmetic and KTDP launch-time constructs.
  LogicalResult fold(func::FuncOp kernel, const FrozenRewritePatternSet &patterns) {
    SmallVector<Operation *> ops;
    kernel.walk([&](Operation *op) {
      if (isFoldCandidate(op))
        ops.push_back(op);
    });
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    // Folding cannot fail; not converging within the driver's iteration
    // limit only leaves some arithmetic unfolded, which the input check
    // then reports where it matters.
    (void)applyOpPatternsGreedily(ops, patterns, config);
    return success();
  }
};

} // namespace
