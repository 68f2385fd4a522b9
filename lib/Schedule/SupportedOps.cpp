//===- SupportedOps.cpp - the one table of what the scheduler handles -----===//
//
// One static list names every op the scheduler accepts and the role it plays
// (SupportedOps.h). checkOpSupported() adds the structural limits of each
// role: what the current scheduler cannot express yet gets a diagnostic that
// names the op and the missing capability, so an unsupported kernel stops at
// the input check and never reaches a pass that would have to guess.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Schedule/SupportedOps.h"

#include "mlir/Analysis/FlatLinearValueConstraints.h"

#include "ktflow/KTDP/IntegerSetUtils.h"
#include "ktflow/KTDP/KTDPOps.h"
#include "ktflow/KTDP/KTDPTypes.h"
#include "ktflow/KTDP/LaunchArgs.h"
#include "ktflow/Schedule/ScheduleUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::ktsched;

static const OpSupport kSupportedOps[] = {
    {"func.func", OpRole::Structure, ""},
    {"func.return", OpRole::Structure, ""},
    {"scf.for", OpRole::Structure, ""},
    {"scf.yield", OpRole::Structure, ""},
    {"ktdp.get_compute_tile_id", OpRole::Index, ""},
    {"arith.addi", OpRole::Index, ""},
    {"arith.subi", OpRole::Index, ""},
    {"arith.muli", OpRole::Index, ""},
    {"arith.divui", OpRole::Index, ""},
    {"arith.divsi", OpRole::Index, ""},
    {"arith.remui", OpRole::Index, ""},
    {"arith.remsi", OpRole::Index, ""},
    {"arith.floordivsi", OpRole::Index, ""},
    {"arith.ceildivsi", OpRole::Index, ""},
    {"arith.ceildivui", OpRole::Index, ""},
    {"arith.cmpi", OpRole::Index, ""},
    {"arith.select", OpRole::Index, ""},
    {"arith.minsi", OpRole::Index, ""},
    {"arith.maxsi", OpRole::Index, ""},
    {"arith.minui", OpRole::Index, ""},
    {"arith.maxui", OpRole::Index, ""},
    {"arith.index_cast", OpRole::Index, ""},
    {"arith.index_castui", OpRole::Index, ""},
    {"ktdp.runtime_arg_extract", OpRole::Index, ""},
    {"ktdp.construct_memory_view", OpRole::View, ""},
    {"ktdp.construct_distributed_memory_view", OpRole::View, ""},
    {"ktdp.construct_access_tile", OpRole::View, ""},
    {"ktdp.construct_indirect_access_tile", OpRole::View, ""},
    {"ktdp.region_terminator", OpRole::Structure, ""},
    {"ktdp.load", OpRole::Load, ""},
    {"ktdp.store", OpRole::Store, ""},
    {"arith.addf", OpRole::Elementwise, "add"},
    {"arith.subf", OpRole::Elementwise, "sub"},
    {"arith.mulf", OpRole::Elementwise, "mul"},
    {"arith.divf", OpRole::Elementwise, "div"},
    {"arith.maximumf", OpRole::Elementwise, "max"},
    {"arith.maxnumf", OpRole::Elementwise, "max"},
    {"arith.minimumf", OpRole::Elementwise, "min"},
    {"arith.minnumf", OpRole::Elementwise, "min"},
    {"arith.negf", OpRole::Elementwise, "neg"},
    {"arith.extf", OpRole::Elementwise, "cast"},
    {"arith.truncf", OpRole::Elementwise, "cast"},
    {"math.absf", OpRole::Elementwise, "abs"},
    {"math.exp", OpRole::Elementwise, "exp"},
    {"math.log", OpRole::Elementwise, "log"},
    {"math.sqrt", OpRole::Elementwise, "sqrt"},
    {"math.rsqrt", OpRole::Elementwise, "rsqrt"},
    {"math.tanh", OpRole::Elementwise, "tanh"},
    {"math.erf", OpRole::Elementwise, "erf"},
    {"math.powf", OpRole::Elementwise, "pow"},
    {"math.fma", OpRole::Elementwise, "fma"},
    {"arith.cmpf", OpRole::Elementwise, "cmp"},
    // Integer lane-wise ops on tensors (scalars are index arithmetic): the
    // same op classes as their float twins, the register type picking the
    // integer form. Signed forms only: a vector register's lanes are
    // sign-extended, and the unsigned compares and conversions are missing.
    {"arith.addi", OpRole::Elementwise, "add"},
    {"arith.subi", OpRole::Elementwise, "sub"},
    {"arith.muli", OpRole::Elementwise, "mul"},
    {"arith.maxsi", OpRole::Elementwise, "max"},
    {"arith.minsi", OpRole::Elementwise, "min"},
    {"arith.cmpi", OpRole::Elementwise, "cmp"},
    {"arith.extsi", OpRole::Elementwise, "cast"},
    {"arith.trunci", OpRole::Elementwise, "cast"},
    {"arith.sitofp", OpRole::Elementwise, "cast"},
    {"arith.fptosi", OpRole::Elementwise, "cast"},
    {"arith.select", OpRole::Elementwise, "select"},
    {"linalg.add", OpRole::Elementwise, "add"},
    {"linalg.sub", OpRole::Elementwise, "sub"},
    {"linalg.mul", OpRole::Elementwise, "mul"},
    {"linalg.div", OpRole::Elementwise, "div"},
    {"linalg.max", OpRole::Elementwise, "max"},
    {"linalg.min", OpRole::Elementwise, "min"},
    {"linalg.negf", OpRole::Elementwise, "neg"},
    {"linalg.abs", OpRole::Elementwise, "abs"},
    {"linalg.exp", OpRole::Elementwise, "exp"},
    {"linalg.log", OpRole::Elementwise, "log"},
    {"linalg.sqrt", OpRole::Elementwise, "sqrt"},
    {"linalg.rsqrt", OpRole::Elementwise, "rsqrt"},
    {"linalg.tanh", OpRole::Elementwise, "tanh"},
    {"linalg.erf", OpRole::Elementwise, "erf"},
    {"linalg.powf", OpRole::Elementwise, "pow"},
    {"linalg.broadcast", OpRole::Broadcast, ""},
    {"tensor.splat", OpRole::Broadcast, ""},
    {"linalg.reduce", OpRole::Reduce, ""},
    {"linalg.matmul", OpRole::Contraction, ""},
    {"linalg.yield", OpRole::Reduce, ""},
    {"arith.constant", OpRole::Init, ""},
    {"tensor.empty", OpRole::Init, ""},
    {"linalg.fill", OpRole::Init, ""},
    {"tensor.collapse_shape", OpRole::ShapeCast, ""},
    {"tensor.extract", OpRole::ShapeCast, ""},
};

/// Ops known to be outside the coverage, with what the scheduler lacks.
static const std::pair<StringLiteral, StringLiteral> kMissing[] = {
    {"linalg.batch_matmul", "matrix-unit scheduling"},
    {"linalg.transpose", "transposing transfers"},
    {"linalg.generic", "generic bodies"},
    {"ktdp.inter_tile_produce", "experimental inter-tile communication"},
    {"ktdp.inter_tile_reduce", "experimental inter-tile communication"},
    {"ktdp.inter_tile_consume", "experimental inter-tile communication"},
    {"tensor.insert", "scalar insertion into tensors"},
    {"tensor.expand_shape", "reshapes of computed tensors"},
    {"scf.if", "control flow whose condition differs between grid tiles or iterations (an "
               "scf.if every tile takes alike is folded)"},
    {"scf.while", "data-dependent loops"},
};

ArrayRef<OpSupport> ktflow::ktsched::supportedOps() { return kSupportedOps; }

const OpSupport *ktflow::ktsched::lookupOpSupport(StringRef name) {
  for (const OpSupport &entry : kSupportedOps)
    if (entry.name == name)
      return &entry;
  return nullptr;
}

const OpSupport *ktflow::ktsched::lookupOpSupport(Operation *op) {
  // An op with an index entry and a lane-wise one (arith.select) is index
  // arithmetic on scalars and lane-wise on tensors.
  bool onTensors = llvm::any_of(
      llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()),
      [](Type type) { return isa<ShapedType>(type); });
  const OpSupport *found = nullptr;
  for (const OpSupport &entry : kSupportedOps)
    if (entry.name == op->getName().getStringRef()) {
      if ((entry.role == OpRole::Index) != onTensors)
        return &entry;
      found = found ? found : &entry;
    }
  return found;
}

/// The kernel's scalar argument `value` is computed from that no launch
/// value binds (ktsched-specialize substituted the bound ones), if any: a
/// diagnostic can then name the argument to bind instead of the arithmetic.
static std::optional<std::string> unboundArgument(Value value) {
  llvm::SmallVector<Value> work = {value};
  llvm::SmallPtrSet<Operation *, 8> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
      if (func && !ktdp::isBufferBase(arg))
        return ktdp::argumentNames(func)[arg.getArgNumber()];
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (!def || !seen.insert(def).second || def->getNumRegions() != 0)
      continue;
    for (Value operand : def->getOperands())
      work.push_back(operand);
  }
  return std::nullopt;
}

/// The op whose result first stops `value` from tracing to an affine
/// expression of the grid coordinates and `iv`: following operands that do
/// not trace, the deepest op whose operands all do (an arith.minsi of tile
/// ids that specialization could not fold).
static Operation *firstNonAffineOp(Value value, Value iv) {
  Operation *def = value.getDefiningOp();
  while (def) {
    Value next;
    for (Value operand : def->getOperands())
      if (failed(traceAffineIndex(operand, iv)) && operand.getDefiningOp()) {
        next = operand;
        break;
      }
    if (!next)
      return def;
    def = next.getDefiningOp();
  }
  return nullptr;
}

/// Why `value` is not usable where a constant or an affine index is needed:
/// " (it depends on kernel argument 'n', which no launch value binds: pass
/// --arg n=VALUE)" when it does; for an index that does not trace (with
/// loop variable `iv`), the op that stops it; else "".
static std::string bindHint(Value value, Value iv = {}) {
  if (std::optional<std::string> name = unboundArgument(value))
    return " (it depends on kernel argument '" + *name +
           "', which no launch value binds: pass --arg " + *name + "=VALUE)";
  if (!value.getType().isIntOrIndex() || succeeded(traceAffineIndex(value, iv)))
    return "";
  if (Operation *op = firstNonAffineOp(value, iv))
    return (" ('" + op->getName().getStringRef() +
            "' does not fold to an affine expression: its value differs between grid "
            "tiles or loop iterations)")
        .str();
  return "";
}

/// Element types that live in vector registers (dc::ElemType).
static bool isScheduledElement(Type type) {
  return type.isF16() || type.isF32() || type.isBF16() || type.isSignlessInteger(8) ||
         type.isSignlessInteger(32) || type.isSignlessInteger(64);
}
static constexpr StringLiteral kScheduledTypes = "f16, bf16, f32, i8, i32 or i64";

/// Tensors the scheduler moves: static shape, elements of a register type.
static LogicalResult checkTensor(Operation *op, Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return success();
  if (!tensor.hasStaticShape())
    return op->emitError("'") << op->getName() << "' on " << type
                              << " not supported: scheduling needs static shapes";
  if (!isScheduledElement(tensor.getElementType()))
    return op->emitError("'") << op->getName() << "' on " << type
                              << " not supported: compute bodies need " << kScheduledTypes;
  return success();
}

/// Whether every constraint of `set` involves a single dimension (and no
/// symbol): then the set is exactly its bounding box.
static bool constrainsDimsAlone(IntegerSet set) {
  for (AffineExpr constraint : set.getConstraints()) {
    SmallVector<int64_t> flat;
    if (failed(getFlattenedAffineExpr(constraint, set.getNumDims(), set.getNumSymbols(), &flat)))
      return false;
    // Coefficients: dims, symbols, locals, then the constant.
    int64_t dimsUsed = 0;
    for (unsigned i = 0; i < set.getNumDims(); ++i)
      dimsUsed += flat[i] != 0;
    for (size_t i = set.getNumDims(); i + 1 < flat.size(); ++i)
      if (flat[i] != 0)
        return false;
    if (dimsUsed > 1)
      return false;
  }
  return true;
}

/// A non-identity access_tile_order is scheduled as a transpose group
/// (ktsched-schedule-transpose): a 2-D swap on tiles only loaded, each
/// load stored directly through an identity-ordered tile, outside loops.
static LogicalResult checkTransposingTile(ktdp::ConstructAccessTileOp tile,
                                          ArrayRef<unsigned> perm) {
  auto fail = [&](const Twine &why) {
    return tile.emitError("'ktdp.construct_access_tile' with a non-identity "
                          "access_tile_order not supported: ")
           << why;
  };
  if (perm.size() != 2)
    return fail("only the 2-D transpose is lowered (a permutation of ") << perm.size()
           << " dimensions is missing)";
  if (tile->getParentOfType<scf::ForOp>())
    return fail("a transposing load inside a loop is missing");
  for (Operation *user : tile->getUsers()) {
    auto load = dyn_cast<ktdp::LoadOp>(user);
    if (!load)
      return fail("only loads through a transposing tile are lowered (a transposing store "
                  "is missing)");
    Value loaded = load->getResult(0);
    auto store = loaded.hasOneUse() ? dyn_cast<ktdp::StoreOp>(*loaded.getUsers().begin())
                                    : ktdp::StoreOp();
    if (!store || store.getValue() != loaded)
      return fail("a transposed load must be stored directly, and only there (a transposed "
                  "operand feeding compute ops is missing)");
    auto storeTile = store.getTile().getDefiningOp<ktdp::ConstructAccessTileOp>();
    auto storePerm = storeTile ? storeTile.getOrderPermutation() : std::nullopt;
    if (!storePerm || !llvm::equal(*storePerm, llvm::seq<unsigned>(0, storePerm->size())))
      return fail("the transposed load must be stored through an identity-ordered tile");
  }
  return success();
}

static LogicalResult checkAccessTile(ktdp::ConstructAccessTileOp tile) {
  if (tile.hasTensorBase())
    return tile.emitError("'ktdp.construct_access_tile' over a tensor value not supported: "
                          "transfers need a memory view");
  if (!tile.getSymbolOperands().empty())
    return tile.emitError("'ktdp.construct_access_tile' with symbols(...) not supported: "
                          "tile sets must be static");
  auto perm = tile.getOrderPermutation();
  if (!perm)
    return tile.emitError("'ktdp.construct_access_tile' whose access_tile_order is not a "
                          "permutation not supported");
  if (!llvm::equal(*perm, llvm::seq<unsigned>(0, perm->size())) &&
      failed(checkTransposingTile(tile, *perm)))
    return failure();
  ktdp::BoundingBox box = ktdp::computeBoundingBox(tile.getAccessTileSet());
  if (!box.isBounded())
    return tile.emitError("'ktdp.construct_access_tile' with an empty or unbounded set "
                          "not supported");
  int64_t boxPoints = 1, points = 0;
  for (int64_t e : box.getExtents())
    boxPoints *= e;
  // A set whose every constraint bounds one dimension is its bounding box;
  // only another set needs its points counted (which grows with the tile).
  if (!constrainsDimsAlone(tile.getAccessTileSet()))
    (void)ktdp::forEachPoint(tile.getAccessTileSet(), {}, [&](ArrayRef<int64_t>) {
      ++points;
      return points <= boxPoints;
    });
  else
    points = boxPoints;
  if (points != boxPoints)
    return tile.emitError("'ktdp.construct_access_tile' with a non-rectangular set not "
                          "supported: transfers of tiles with holes are missing");
  // A distributed view's transfers are one copy per partition piece
  // (ktsched-resolve-partitions checks its partitions).
  if (!tile.getBase().getDefiningOp<ktdp::ConstructMemoryViewOp>() &&
      !tile.getBase().getDefiningOp<ktdp::ConstructDistributedMemoryViewOp>())
    return tile.emitError("'ktdp.construct_access_tile' base is not a "
                          "ktdp.construct_memory_view: only plain and distributed views are "
                          "supported");
  return success();
}

/// Whether `map`'s one result is `base + d`, `base` free of dimensions:
/// how a subscript of an indirect tile runs along its variable d.
static bool runsAlong(AffineMap map, unsigned d) {
  if (map.getNumResults() != 1 || d >= map.getNumDims())
    return false;
  AffineExpr rest = simplifyAffineExpr(map.getResult(0) - getAffineDimExpr(d, map.getContext()),
                                       map.getNumDims(), map.getNumSymbols());
  return llvm::none_of(llvm::seq<unsigned>(0, map.getNumDims()),
                       [&](unsigned k) { return rest.isFunctionOfDim(k); });
}

/// An indirect access tile is scheduled as a gather group
/// (ktsched-schedule-gather): its outermost coordinate read from a 1-D
/// index view of i32 or i64 along the first intermediate variable, every
/// other coordinate direct along its own variable, over a box in identity
/// order, outside loops; each load through it stored directly through an
/// identity-ordered tile (a gather), each store through it of a load
/// through an identity-ordered tile stored nowhere else (a scatter).
static LogicalResult checkIndirectTile(ktdp::ConstructIndirectAccessTileOp tile) {
  auto fail = [&](const Twine &why) {
    return tile.emitError("'ktdp.construct_indirect_access_tile' not supported: ") << why;
  };
  if (tile.hasTensorBase() || !tile.getBase().getDefiningOp<ktdp::ConstructMemoryViewOp>())
    return fail("the base must be a ktdp.construct_memory_view (gathers from a tensor value "
                "are missing)");
  if (!tile.getSymbolOperands().empty())
    return fail("symbols(...) in the variable space are missing: the space must be static");
  auto perm = tile.getOrderPermutation();
  if (!perm || !llvm::equal(*perm, llvm::seq<unsigned>(0, perm->size())))
    return fail("only the identity variables_space_order is lowered (a transposing gather is "
                "missing)");
  IntegerSet space = tile.getVariablesSpaceSet();
  if (!ktdp::isBox(space) || !ktdp::computeBoundingBox(space).isBounded())
    return fail("the variable space must be a bounded box (gathers with holes are missing)");
  unsigned rank = tile.getNumSubscripts();
  if (rank == 0 || tile.getIntermediateVariableArgs().size() != rank)
    return fail("one intermediate variable per subscript is needed");
  for (unsigned d = 0; d < rank; ++d) {
    bool indirect = tile.getSubscriptKind(d) == ktdp::SubscriptKind::Indirect;
    if (indirect != (d == 0))
      return fail("only the outermost subscript may be indirect (a gather of rows; indirect "
                  "inner coordinates are missing)");
    AffineMap map = tile.getSubscriptMap(d);
    if (!runsAlong(map, d))
      return fail("subscript ")
             << d << " must be an affine function of the captured values plus intermediate "
             << "variable " << d << " (each coordinate running along its own variable)";
  }
  Value indexView = tile.getIndexViewForDim(0);
  auto indexType = cast<MemRefType>(indexView.getType());
  if (indexType.getRank() != 1 || !indexView.getDefiningOp<ktdp::ConstructMemoryViewOp>())
    return fail("the index view must be a 1-D ktdp.construct_memory_view");
  if (!indexType.getElementType().isSignlessInteger(32) &&
      !indexType.getElementType().isSignlessInteger(64))
    return fail("indices of ") << indexType.getElementType()
                               << " are missing: the DMA gathers through i32 or i64 indices";
  for (Value captured : tile.getCaptured())
    if (failed(traceAffineIndex(captured, Value())))
      return fail("a captured subscript value must be affine in the grid coordinates")
             << bindHint(captured);
  if (tile->getParentOfType<scf::ForOp>())
    return fail("a gather inside a loop is missing");
  auto identityTile = [](Value tile) {
    auto direct = tile.getDefiningOp<ktdp::ConstructAccessTileOp>();
    auto perm = direct ? direct.getOrderPermutation() : std::nullopt;
    return perm && llvm::equal(*perm, llvm::seq<unsigned>(0, perm->size()));
  };
  for (Operation *user : tile->getUsers()) {
    if (auto store = dyn_cast<ktdp::StoreOp>(user)) {
      auto loaded = store.getValue().getDefiningOp<ktdp::LoadOp>();
      if (!loaded) {
        // Computed rows scattered: a compute group whose DMA scatters the
        // tile's result rows through the index tensor (GatheredLoad.cpp).
        if (rank != 2)
          return fail("computed rows are scattered into 2-D tables only (rows of a "
                      "higher-rank table are missing)");
        continue;
      }
      if (!store.getValue().hasOneUse() || !identityTile(loaded.getTile()))
        return fail("a scattered value must be loaded through an identity-ordered "
                    "ktdp.construct_access_tile and stored only there (a loaded value "
                    "scattered and also used otherwise is missing)");
      continue;
    }
    auto load = dyn_cast<ktdp::LoadOp>(user);
    if (!load)
      return fail("an indirect tile is lowered only as the tile of a load or a store");
    Value loaded = load->getResult(0);
    auto store = loaded.hasOneUse() ? dyn_cast<ktdp::StoreOp>(*loaded.getUsers().begin())
                                    : ktdp::StoreOp();
    if (!store || store.getValue() != loaded) {
      // Gathered rows feeding compute: a compute group whose DMA gathers
      // the tile's rows (GatheredLoad.cpp), one table row per position.
      if (rank != 2)
        return fail("gathered rows feeding compute are lowered from 2-D tables only (rows of "
                    "a higher-rank table are missing)");
      for (Operation *consumer : loaded.getUsers())
        if (isa<ktdp::StoreOp, linalg::MatmulOp, linalg::BatchMatmulOp, linalg::TransposeOp>(
                consumer))
          return fail("gathered rows feed element-wise and reduction ops only (stored both "
                      "directly and computed on, or fed to a matmul or a transpose, is "
                      "missing)");
      continue;
    }
    auto storeTile = store.getTile().getDefiningOp<ktdp::ConstructAccessTileOp>();
    auto storePerm = storeTile ? storeTile.getOrderPermutation() : std::nullopt;
    if (!storePerm || !llvm::equal(*storePerm, llvm::seq<unsigned>(0, storePerm->size())))
      return fail("the gathered rows must be stored through an identity-ordered "
                  "ktdp.construct_access_tile");
  }
  return success();
}

static LogicalResult checkView(ktdp::ConstructMemoryViewOp view) {
  if (view.getMemorySpace().isCtLocal() && view.getMemorySpace().getCtId())
    return view.emitError("'ktdp.construct_memory_view' in ")
           << view.getMemorySpace()
           << " (another tile's scratchpad) not supported: transfers between tiles' "
              "scratchpads are missing";
  // Own-scratchpad views the forwarding (ktsched-forward-local-stores)
  // resolved are gone by now; what is left is used in a way it diagnosed.
  if (!view.getMemorySpace().isGlobal())
    return view.emitError("'ktdp.construct_memory_view' in ")
           << view.getMemorySpace()
           << " not supported: program-owned scratchpad staging is forwarded only from a "
              "store to a load of the same bytes";
  if (!view.getSizes().empty() || !view.getStrides().empty()) {
    Value dynamic = !view.getSizes().empty() ? view.getSizes()[0] : view.getStrides()[0];
    return view.emitError("'ktdp.construct_memory_view' with SSA sizes or strides not "
                          "supported: scheduling needs static shapes")
           << bindHint(dynamic);
  }
  if (!view.getCoordinateSet())
    return view.emitError("'ktdp.construct_memory_view' without coordinate_set not supported");
  ktdp::BoundingBox box = ktdp::computeBoundingBox(*view.getCoordinateSet());
  if (!box.isBounded())
    return view.emitError("'ktdp.construct_memory_view' with an unbounded coordinate_set "
                          "not supported");
  if (!ktdp::isBox(*view.getCoordinateSet()))
    return view.emitError("'ktdp.construct_memory_view' with a coordinate_set that is not a "
                          "box not supported: masks are ranges of each dimension");
  if (!isScheduledElement(view.getElementType()))
    return view.emitError("'ktdp.construct_memory_view' of ")
           << view.getElementType() << " not supported: compute bodies need " << kScheduledTypes;
  return success();
}

std::optional<StringRef> ktflow::ktsched::lanewisePredicate(arith::CmpFPredicate predicate) {
  switch (predicate) {
  case arith::CmpFPredicate::OLT:
    return StringRef("lt");
  case arith::CmpFPredicate::OLE:
    return StringRef("le");
  case arith::CmpFPredicate::OGT:
    return StringRef("gt");
  case arith::CmpFPredicate::OGE:
    return StringRef("ge");
  case arith::CmpFPredicate::OEQ:
    return StringRef("eq");
  case arith::CmpFPredicate::UNE:
    return StringRef("ne");
  default:
    return std::nullopt;
  }
}

std::optional<StringRef> ktflow::ktsched::lanewisePredicate(arith::CmpIPredicate predicate) {
  switch (predicate) {
  case arith::CmpIPredicate::slt:
    return StringRef("lt");
  case arith::CmpIPredicate::sle:
    return StringRef("le");
  case arith::CmpIPredicate::sgt:
    return StringRef("gt");
  case arith::CmpIPredicate::sge:
    return StringRef("ge");
  case arith::CmpIPredicate::eq:
    return StringRef("eq");
  case arith::CmpIPredicate::ne:
    return StringRef("ne");
  default:
    return std::nullopt;
  }
}

std::optional<StringRef> ktflow::ktsched::lanewisePredicate(Operation *compare) {
  if (auto cmp = dyn_cast_or_null<arith::CmpFOp>(compare))
    return lanewisePredicate(cmp.getPredicate());
  if (auto cmp = dyn_cast_or_null<arith::CmpIOp>(compare))
    return lanewisePredicate(cmp.getPredicate());
  return std::nullopt;
}

/// A lane-wise compare is a mask in its operands' type (1 or 0 per lane):
/// the only thing a compute body does with it is select by it.
static LogicalResult checkCompare(Operation *cmp) {
  StringRef name = cmp->getName().getStringRef();
  Type operand = cmp->getOperand(0).getType();
  if (!isa<RankedTensorType>(operand))
    return cmp->emitError("'") << name
                               << "' on scalars not supported: compare tensors lane-wise";
  if (failed(checkTensor(cmp, operand)))
    return failure();
  if (!lanewisePredicate(cmp)) {
    if (auto f = dyn_cast<arith::CmpFOp>(cmp))
      return cmp->emitError("'arith.cmpf' predicate '")
             << arith::stringifyCmpFPredicate(f.getPredicate())
             << "' not supported: lane-wise compares are olt, ole, ogt, oge, oeq and une";
    return cmp->emitError("'arith.cmpi' predicate '")
           << arith::stringifyCmpIPredicate(cast<arith::CmpIOp>(cmp).getPredicate())
           << "' not supported: lane-wise integer compares are slt, sle, sgt, sge, eq and "
              "ne (lanes are signed)";
  }
  for (OpOperand &use : cmp->getUses())
    if (!isa<arith::SelectOp>(use.getOwner()) || use.getOperandNumber() != 0)
      return use.getOwner()->emitError("use of an '")
             << name << "' result by '" << use.getOwner()->getName()
             << "' not supported: a compare's mask is only a select's condition";
  return success();
}

static LogicalResult checkSelect(arith::SelectOp select) {
  if (failed(checkTensor(select, select.getType())))
    return failure();
  Operation *cmp = select.getCondition().getDefiningOp();
  if (!isa<RankedTensorType>(select.getCondition().getType()) ||
      !isa_and_nonnull<arith::CmpFOp, arith::CmpIOp>(cmp))
    return select.emitError("'arith.select' condition not supported: it must be the "
                            "result of a lane-wise 'arith.cmpf' or 'arith.cmpi'");
  Type maskType = getElementTypeOrSelf(cmp->getOperand(0).getType());
  if (maskType != getElementTypeOrSelf(select.getType()))
    return select.emitError("'arith.select' of ")
           << getElementTypeOrSelf(select.getType()) << " by a compare of " << maskType
           << " not supported: the mask is in the compared type; compare in the selected type";
  return success();
}

/// Whether `value` is an argument of the kernel function itself (not of a
/// loop body).
static bool isKernelArgument(Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  return arg && isa_and_nonnull<func::FuncOp>(arg.getOwner()->getParentOp());
}

/// Whether `value` is a constant tensor (dense splat, splat or fill of a
/// constant, or a splat of a scalar kernel argument such as an `eps`,
/// which ktsched-absorb-loops makes of `scalar + eps`): an epilogue's
/// other operand.
static bool isConstantTensor(Value value) {
  Operation *def = value.getDefiningOp();
  if (isa_and_nonnull<arith::ConstantOp>(def))
    return true;
  if (auto splat = dyn_cast_or_null<tensor::SplatOp>(def))
    return splat.getInput().getDefiningOp<arith::ConstantOp>() != nullptr ||
           isKernelArgument(splat.getInput());
  if (auto fill = dyn_cast_or_null<linalg::FillOp>(def))
    return fill.getInputs()[0].getDefiningOp<arith::ConstantOp>() != nullptr;
  return false;
}

/// Whether `value` holds one value per row of a reduction (a phase's
/// result): a reduction, an element-wise op of such values and constants,
/// or a one-element tensor of such a scalar.
static bool isPerRowTensor(Value value) {
  Operation *def = value.getDefiningOp();
  if (isa_and_nonnull<linalg::ReduceOp>(def))
    return true;
  const OpSupport *entry = def ? lookupOpSupport(def) : nullptr;
  if (!entry || entry->role != OpRole::Elementwise || def->getNumResults() != 1 ||
      isa<arith::CmpFOp, arith::CmpIOp, arith::SelectOp>(def))
    return false;
  ValueRange inputs = def->getOperands();
  if (auto dps = dyn_cast<linalg::LinalgOp>(def))
    inputs = dps.getDpsInputs();
  return llvm::all_of(inputs, [](Value v) { return isConstantTensor(v) || isPerRowTensor(v); });
}

/// Whether scalar `value` is computed from per-row values (tensor.extract
/// of a reduction, at least one), kernel arguments and constants by
/// element-wise ops: a phase's per-row statistic, splat back over its row
/// in a later phase.
static bool isPerRowScalar(Value value, bool &extracted) {
  if (isa<BlockArgument>(value))
    return true;
  Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  if (isa<arith::ConstantOp>(def))
    return true;
  if (auto extract = dyn_cast<tensor::ExtractOp>(def)) {
    extracted = true;
    return isPerRowTensor(extract.getTensor());
  }
  const OpSupport *entry = lookupOpSupport(def);
  if (!entry || entry->role != OpRole::Elementwise || def->getNumResults() != 1 ||
      isa<arith::CmpFOp, arith::CmpIOp, arith::SelectOp>(def))
    return false;
  return llvm::all_of(def->getOperands(),
                      [&](Value operand) { return isPerRowScalar(operand, extracted); });
}

static bool isPerRowScalar(Value value) {
  bool extracted = false;
  return isPerRowScalar(value, extracted) && extracted;
}

/// A reduced value is stored, or passes through an epilogue: element-wise
/// ops whose other operands are constants or per-row values (a cast, a
/// scaling, a mean from a sum), applied once per result. A later phase
/// reads it back over the reduced rows: a linalg.broadcast along the
/// reduced dimensions, or a tensor.extract whose scalar is splat (checked
/// at the splat). Anything else would need another kind of pass.
static LogicalResult checkReducedUses(Value reduced, ArrayRef<int64_t> reducedDims) {
  for (OpOperand &use : reduced.getUses()) {
    Operation *user = use.getOwner();
    if (isa<ktdp::StoreOp>(user))
      continue;
    if (auto broadcast = dyn_cast<linalg::BroadcastOp>(user)) {
      if (broadcast.getDimensions() != reducedDims)
        return user->emitError("'linalg.broadcast' of a 'linalg.reduce' result along other "
                               "dimensions than the reduced ones not supported: a later "
                               "phase reads a per-row value back along its rows");
      continue;
    }
    if (isa<tensor::ExtractOp>(user))
      continue;
    const OpSupport *entry = lookupOpSupport(user);
    bool epilogue = entry && entry->role == OpRole::Elementwise &&
                    !isa<arith::CmpFOp, arith::SelectOp>(user) && user->getNumResults() == 1;
    if (epilogue) {
      ValueRange inputs = user->getOperands();
      if (auto dps = dyn_cast<linalg::LinalgOp>(user))
        inputs = dps.getDpsInputs();
      epilogue = llvm::all_of(inputs, [&](Value v) {
        return v == reduced || isConstantTensor(v) || isPerRowTensor(v);
      });
    }
    if (!epilogue)
      return user->emitError("use of a 'linalg.reduce' result by '")
             << user->getName()
             << "' not supported: a reduced value is stored, passes through element-wise ops "
                "with constants and other per-row values, or is broadcast back along the "
                "reduced dimensions (linalg.broadcast, tensor.extract and tensor.splat) for "
                "a later phase";
    if (failed(checkReducedUses(user->getResult(0), reducedDims)))
      return failure();
  }
  return success();
}

static LogicalResult checkReduce(linalg::ReduceOp reduce) {
  if (reduce.getInputs().size() != 1 || reduce.getInits().size() != 1)
    return reduce.emitError("'linalg.reduce' with several inputs not supported");
  if (reduce.getDimensions().size() != 1)
    return reduce.emitError("'linalg.reduce' over several dimensions not supported");
  Block &body = reduce.getCombiner().front();
  if (body.getOperations().size() != 2)
    return reduce.emitError("'linalg.reduce' combiner must be one add, max or min op");
  Operation &combiner = body.front();
  StringRef name = combiner.getName().getStringRef();
  if (name != "arith.addf" && name != "arith.maximumf" && name != "arith.maxnumf" &&
      name != "arith.minimumf" && name != "arith.minnumf")
    return combiner.emitError("'") << name
                                   << "' as a reduction combiner not supported: "
                                      "combiners are add, max and min";
  return checkReducedUses(reduce->getResult(0), reduce.getDimensions());
}

/// A row operand of a contraction's epilogue: a loaded 1 x N tile (perhaps
/// extended), collapsed to N and broadcast along M (a bias).
static bool isBroadcastRow(Value value) {
  auto broadcast = value.getDefiningOp<linalg::BroadcastOp>();
  if (!broadcast || broadcast.getDimensions() != ArrayRef<int64_t>{0})
    return false;
  auto collapse = broadcast.getInput().getDefiningOp<tensor::CollapseShapeOp>();
  if (!collapse || collapse.getSrcType().getRank() != 2 ||
      collapse.getSrcType().getDimSize(0) != 1 || collapse.getResultType().getRank() != 1)
    return false;
  Value source = collapse.getSrc();
  if (auto extend = source.getDefiningOp<arith::ExtFOp>())
    source = extend.getIn();
  return source.getDefiningOp<ktdp::LoadOp>() != nullptr;
}

/// Whether `value` is a linalg.matmul's result or computed element-wise
/// from one (a value of a contraction's epilogue).
static bool derivesFromMatmul(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  if (isa<linalg::MatmulOp>(def))
    return true;
  const OpSupport *entry = lookupOpSupport(def);
  if (!entry || entry->role != OpRole::Elementwise)
    return false;
  return llvm::any_of(def->getOperands(), derivesFromMatmul);
}

/// The epilogue of a contraction: from the product to its one store,
/// element-wise ops (no compare or select) whose other operands are splat
/// constants or broadcast rows (isBroadcastRow), run per accumulator block
/// on the vector unit.
static LogicalResult checkContractionEpilogue(linalg::MatmulOp matmul) {
  auto fail = [&](Operation *at, const Twine &why) {
    return at->emitError("contraction epilogue not supported: ") << why;
  };
  llvm::SmallPtrSet<Value, 16> epilogue;
  SmallVector<Value> work = {matmul->getResult(0)};
  epilogue.insert(work.front());
  int64_t stores = 0;
  while (!work.empty()) {
    Value value = work.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (auto store = dyn_cast<ktdp::StoreOp>(user)) {
        ++stores;
        continue;
      }
      const OpSupport *entry = lookupOpSupport(user);
      if (!entry || entry->role != OpRole::Elementwise || user->getNumResults() != 1 ||
          isa<arith::CmpFOp, arith::SelectOp>(user))
        return fail(user, "'" + user->getName().getStringRef() +
                              "' reads the product; only element-wise arithmetic, math "
                              "and casts run after it");
      for (Value input : user->getOperands())
        if (!derivesFromMatmul(input) && !isConstantTensor(input) && !isBroadcastRow(input))
          return fail(user, "its operands must be the product's values, splat constants or "
                            "a loaded 1 x N row collapsed and broadcast along M (a bias)");
      if (epilogue.insert(user->getResult(0)).second)
        work.push_back(user->getResult(0));
    }
  }
  if (stores != 1)
    return fail(matmul, "the product's epilogue must end in exactly one store");
  return success();
}

/// A contraction group is one linalg.matmul of two loaded 2-D tiles (A
/// M x K, B K x N, one element type) into a splat constant (the
/// accumulator's init, of the declared precision), stored through an
/// epilogue of element-wise ops (none, a cast, a bias and an activation:
/// checkContractionEpilogue) (ktsched-absorb-contraction made a K loop of
/// them one such matmul).
static LogicalResult checkContraction(linalg::MatmulOp matmul) {
  auto fail = [&](const Twine &why) {
    return matmul.emitError("'linalg.matmul' not supported: ") << why;
  };
  if (matmul.hasUserDefinedMaps())
    return fail("transposed or broadcast operands (indexing maps) are missing");
  if (matmul->getParentOfType<scf::ForOp>())
    return fail("a contraction inside a loop is scheduled only as a K loop whose blocks are "
                "adjacent along K, accumulated through its iter_arg from a constant");
  Type inputType;
  for (Value input : matmul.getDpsInputs()) {
    auto load = input.getDefiningOp<ktdp::LoadOp>();
    if (!load || cast<RankedTensorType>(input.getType()).getRank() != 2)
      return fail("its operands must be loaded 2-D tiles (an operand computed by other ops "
                  "would need an epilogue before the contraction)");
    Type t = getElementTypeOrSelf(input.getType());
    if (inputType && t != inputType)
      return fail("its operands must have one element type");
    inputType = t;
  }
  auto init = matmul.getDpsInits()[0].getDefiningOp<arith::ConstantOp>();
  if (!init || !isa<SplatElementsAttr>(init.getValue()))
    return fail("its accumulator must start from a splat constant");
  return checkContractionEpilogue(matmul);
}

LogicalResult ktflow::ktsched::checkOpSupported(Operation *op) {
  const OpSupport *entry = lookupOpSupport(op);
  if (!entry) {
    StringRef name = op->getName().getStringRef();
    for (const auto &[missing, what] : kMissing)
      if (missing == name)
        return op->emitError("'") << name << "' not supported by the scheduler: " << what
                                  << " is missing";
    return op->emitError("'") << name
                              << "' not supported by the scheduler: it is not in the "
                                 "supported-op table";
  }
  // A compare's i1 mask is the one non-float tensor a body may hold.
  if (isa<arith::CmpFOp>(op) || (isa<arith::CmpIOp>(op) && entry->role != OpRole::Index))
    return checkCompare(op);
  if (auto select = dyn_cast<arith::SelectOp>(op); select && entry->role != OpRole::Index)
    return checkSelect(select);
  if (entry->role == OpRole::Index)
    for (Type type : llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()))
      if (isa<ShapedType>(type))
        return op->emitError("'") << op->getName() << "' on " << type
                                  << " not supported: index arithmetic is on scalars";
  for (Type type : op->getResultTypes())
    if (failed(checkTensor(op, type)))
      return failure();
  for (Type type : op->getOperandTypes())
    if (failed(checkTensor(op, type)))
      return failure();

  if (auto func = dyn_cast<func::FuncOp>(op)) {
    for (Type arg : func.getArgumentTypes()) {
      Type value = arg;
      if (auto rt = dyn_cast<ktdp::RuntimeArgType>(arg))
        value = rt.getValueType();
      if (!value.isIntOrIndex() && !isScheduledElement(value))
        return func.emitError("kernel argument of type ")
               << arg
               << " not supported: arguments are index base addresses, or index, "
                  "integer and f16/bf16/f32 scalars (launch values)";
    }
    if (func.getNumResults() != 0)
      return func.emitError("kernel with results not supported");
    return success();
  }
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    // ktsched-absorb-loops rewrote every loop it could into a wider block.
    if (loop.getNumRegionIterArgs() != 0)
      return loop.emitError("'scf.for' with iter_args not supported: a carried value is "
                            "scheduled only as an accumulation (combined by add, max or min "
                            "with a reduction of the same combiner, from a constant init, "
                            "over the dimension along which the loop's blocks are adjacent, "
                            "with as many iterations on every grid tile; where blocks pass their "
                            "view's end, the masked points, loaded as zeros, must fold in a "
                            "constant the init can take: zero into a sum, any into a max or min "
                            "whose blocks pass the end on every grid tile)");
    if (loop->getParentOfType<scf::ForOp>())
      return loop.emitError("nested 'scf.for' not supported: the schedule has one loop "
                            "level; an inner loop is absorbed into the tile only when its "
                            "blocks are adjacent along one dimension and it runs as many "
                            "iterations on every grid tile")
             << bindHint(unboundArgument(loop.getUpperBound()) ? loop.getUpperBound()
                                                                : loop.getLowerBound());
    for (auto [bound, upper] : {std::pair(loop.getLowerBound(), false),
                                std::pair(loop.getUpperBound(), true)})
      if (failed(traceLoopBound(bound, upper)))
        return loop.emitError("'scf.for' bounds must be affine in the grid coordinates (an "
                              "upper bound may be clamped by minsi/minui, a lower one raised "
                              "by maxsi/maxui)")
               << bindHint(bound);
    auto step = getConstantIntValue(loop.getStep());
    if (!step || *step <= 0)
      return loop.emitError("'scf.for' step must be a positive constant")
             << bindHint(loop.getStep());
    return success();
  }
  if (auto view = dyn_cast<ktdp::ConstructMemoryViewOp>(op))
    return checkView(view);
  if (auto tile = dyn_cast<ktdp::ConstructAccessTileOp>(op)) {
    if (failed(checkAccessTile(tile)))
      return failure();
    Value iv;
    if (auto loop = tile->getParentOfType<scf::ForOp>())
      iv = loop.getInductionVar();
    for (Value index : tile.getIndices())
      if (failed(traceAffineIndex(index, iv)))
        return tile.emitError("'ktdp.construct_access_tile' subscript not supported: it must "
                              "be affine in the grid coordinates and the loop variable")
               << bindHint(index, iv);
    return success();
  }
  if (auto tile = dyn_cast<ktdp::ConstructIndirectAccessTileOp>(op))
    return checkIndirectTile(tile);
  if (auto reduce = dyn_cast<linalg::ReduceOp>(op))
    return checkReduce(reduce);
  if (auto matmul = dyn_cast<linalg::MatmulOp>(op))
    return checkContraction(matmul);
  if (auto extract = dyn_cast<ktdp::RuntimeArgExtractOp>(op))
    return extract.emitError("'ktdp.runtime_arg_extract' of the launch value not supported: "
                             "symbolic launch values are missing")
           << bindHint(extract.getInput());
  if (auto splat = dyn_cast<tensor::SplatOp>(op)) {
    Value input = splat.getInput();
    if (!isa<BlockArgument>(input) && !input.getDefiningOp<arith::ConstantOp>() &&
        !isPerRowScalar(input))
      return splat.emitError("'tensor.splat' of a computed scalar not supported: splat a "
                             "kernel argument, a constant or a per-row value of an earlier "
                             "phase (a tensor.extract of a reduction)")
             << bindHint(input);
    return success();
  }
  if (auto extract = dyn_cast<tensor::ExtractOp>(op)) {
    auto source = extract.getTensor().getType();
    if (source.getNumElements() != 1)
      return extract.emitError("'tensor.extract' from ")
             << source << " not supported: only the one element of a one-element tensor "
             << "(a reduction's per-row value) becomes a scalar";
    return success();
  }
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op)) {
    // A bias row of a contraction's epilogue: 1 x N to N, broadcast along M
    // into values of the product (checkContractionEpilogue).
    bool biasRow = collapse.getResultType().getRank() == 1 && collapse->hasOneUse() &&
                   llvm::all_of(collapse->getUsers(), [](Operation *user) {
                     return isa<linalg::BroadcastOp>(user) &&
                            isBroadcastRow(user->getResult(0)) &&
                            llvm::all_of(user->getUsers(), [](Operation *reader) {
                              return llvm::any_of(reader->getOperands(), derivesFromMatmul);
                            });
                   });
    if (collapse.getResultType().getRank() != 0 && !biasRow)
      return collapse.emitError("'tensor.collapse_shape' to rank > 0 not supported: only a "
                                "one-element tile collapsed to a scalar");
    return success();
  }
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
    if (isa<RankedTensorType>(constant.getType()) && (!dense || !dense.isSplat()))
      return constant.emitError("non-splat tensor constant not supported");
    return success();
  }
  return success();
}
