//===- ScheduleVectorContraction.cpp - a contraction on the vector unit ---===//
//
// Strategy. Where the description has no matrix unit that can run a
// ktsched.contraction (deep), or a plan says `compute = vector`, the
// product runs on a vector unit as multiply-accumulates of whole output
// rows: C[i, :] = init + sum over k, in order, of A[i, k] * B[k, :], each
// A element broadcast over the row (`bcast`) and folded into the row's
// accumulator register. Each output element then folds k = 0, 1, ... in
// the interpreter's order with the interpreter's roundings (ktir.md §7.2),
// so the result is the same bits. This pass records what the lowering
// (lib/Lower/VectorContraction.cpp) follows:
//
//  * `compute = vector` and the vector unit: a compute unit without a
//    matrix shape that accesses the scratchpad itself, one fixed access
//    size both ways (its vload/vstore), with lanes for the operand,
//    accumulator and stored types and the op classes `copy` (bcast,
//    slice, concat), `cast` where the types differ, the multiply-
//    accumulate's and the epilogue's — found by capability, never by name;
//  * `multiply_accumulate`: `fma` where a product of two operand elements
//    is exact in the accumulator type (f16 or bf16 into f32: twice the
//    operand's significand fits), so one rounding is the interpreter's
//    rounded product plus rounded sum; else `mul_add` (a product, then a
//    sum, each rounded);
//  * the `step` [TM, TN, TK]: the grid tile as TM x TN panels folding K
//    in steps of TK, whose regions fit the scratchpad (and, per core, the
//    staging memory): K in as few steps as fit (between steps the panel's
//    accumulators wait in scratchpad, `acc`), then the largest panel;
//  * the `block` [bm, TN, A]: bm output rows whose accumulators stay in
//    registers across a step's K (`resident = accumulator`, loop order
//    m, n, k), the step's TN columns per row, and K consumed one
//    access of A elements at a time (each A row's access cast once, its
//    elements broadcast one by one); the largest bm dividing TM whose
//    accumulators, A accesses and the B row and epilogue temporaries fit
//    the unit's vector registers;
//  * `layout = rows`: A, B and C stay row-major in scratchpad as the DMA
//    lands them (the vector unit reads whole B rows), so operand and stored
//    rows must be whole accesses; `merge` as on the matrix unit makes a
//    tile's N columns whole where they are not;
//  * `accumulator_path = registers`, `accumulator_init = constant`
//    (`vconst` of the init on the vector unit), `split = 1`.
//
// The scratchpad regions (facts) are a step's A and B rows, the epilogue's
// row operands, the accumulators and the stored rows; where two DMAs reach the scratchpad through
// a staging memory (deep's L2), each core's grid tile has a copy of them
// there (`staging_memory`, `staging_stride`). Only that path is lowered
// yet: one DMA level below a vector unit that accesses the scratchpad
// itself is diagnosed, as is a description with no such vector unit.
//
//===----------------------------------------------------------------------===//
#include "ScheduleContraction.h"

#include "ktflow/Schedule/ScheduleUtils.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::arch;
using namespace ktflow::ktsched;

namespace {

/// Registers the K loop needs beside the bm accumulators and bm A
/// accesses: a B row's access, its joined row, its cast, the broadcast A
/// element and a product (mul_add).
constexpr int64_t kLoopScratch = 5;
/// Registers the epilogue needs beside its body's values: the stored row,
/// its piece, one spare for the body's constants.
constexpr int64_t kEpilogueScratch = 3;

int64_t bytesOf(Type type) { return elementSize(type).bytes.count(); }

std::string typeName(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

/// Whether a product of two `operand` values is exact in `acc`.
bool exactProduct(Type operand, Type acc) {
  auto in = dyn_cast<FloatType>(operand), out = dyn_cast<FloatType>(acc);
  return in && out &&
         2 * llvm::APFloat::semanticsPrecision(in.getFloatSemantics()) <=
             llvm::APFloat::semanticsPrecision(out.getFloatSemantics());
}

/// The fixed access size of `unit` to `memory` (min = max), if it has one.
std::optional<Bytes> ownAccess(const ArchModel &model, NodeId unit, NodeId memory) {
  const AccessRule *rule = model.node(unit).accessTo(memory);
  if (!rule || rule->minSize != rule->maxSize)
    return std::nullopt;
  return rule->minSize;
}

} // namespace

LogicalResult ktflow::ktsched::detail::scheduleVectorContraction(ContractionOp op,
                                                                 KernelOp kernel,
                                                                 const ArchModel &model,
                                                                 const Placement &placement,
                                                                 StringRef whyNotMatrix) {
  Builder b(op.getContext());
  auto tensorOf = [&](DictionaryAttr transfer) {
    return cast<TensorOp>(SymbolTable::lookupSymbolIn(
        kernel, cast<FlatSymbolRefAttr>(transfer.get("tensor")).getValue()));
  };
  auto shapeOf = [](DictionaryAttr transfer) {
    return cast<DenseI64ArrayAttr>(transfer.get("shape")).asArrayRef();
  };
  Type inputType = tensorOf(op.getA()).getElementType();
  Type outputType = tensorOf(op.getC()).getElementType();
  Type accType = op.getAccumulatorType();
  int64_t m = shapeOf(op.getA())[0], k = shapeOf(op.getA())[1], n = shapeOf(op.getB())[1];
  NodeId spad = placement.scratchpad;
  if (!isa<FloatType>(inputType) || !isa<FloatType>(accType))
    return op.emitError("a contraction on the vector unit is built for float operands only, ")
           << "and " << whyNotMatrix;

  // The multiply-accumulate: one rounding where the product is exact.
  StringRef mac = exactProduct(inputType, accType) ? "fma" : "mul_add";
  if (auto replayed = dyn_cast_or_null<StringAttr>(decisionValue(op, "multiply_accumulate"));
      replayed && replayed.getValue() != mac)
    return op.emitError("the plan's multiply_accumulate '")
           << replayed.getValue() << "' would round " << typeName(inputType) << " products in "
           << typeName(accType) << " otherwise than the interpreter ('" << mac << "' does not)";

  // The vector unit, by capability: its op classes and lanes, and its own
  // accesses of one size to the scratchpad.
  llvm::SetVector<StringRef> classes;
  classes.insert("copy");
  if (mac == "fma")
    classes.insert("fma");
  else {
    classes.insert("mul");
    classes.insert("add");
  }
  if (inputType != accType || outputType != accType)
    classes.insert("cast");
  SmallVector<Attribute> epilogueOps;
  SmallVector<Type> types = {inputType, accType, outputType};
  if (!op.getEpilogue().empty()) {
    for (auto vop : op.getEpilogue().front().getOps<VectorOp>())
      epilogueOps.push_back(b.getStringAttr(vop.getKind()));
    for (StringRef c : requiredOpClasses(op.getEpilogue()))
      classes.insert(c);
    llvm::append_range(types, bodyElementTypes(op.getEpilogue()));
  }
  std::optional<NodeId> vector;
  std::optional<Bytes> access;
  std::string why = "no compute unit without a matrix shape";
  for (NodeId unit : model.computeUnits()) {
    const ComputeInfo &info = model.node(unit).compute;
    if (info.isMatrix())
      continue;
    std::string name = "@" + model.node(unit).name;
    if (auto missing = llvm::find_if(classes, [&](StringRef c) { return !info.issueCost(c); });
        missing != classes.end()) {
      why = name + " has no op class '" + missing->str() + "'";
      continue;
    }
    if (auto missing = llvm::find_if(types, [&](Type t) { return !info.lanesFor(t); });
        missing != types.end()) {
      why = name + " has no lanes for " + typeName(*missing);
      continue;
    }
    access = ownAccess(model, unit, spad);
    if (!access) {
      why = name + " does not access @" + model.node(spad).name +
            " itself in accesses of one size";
      continue;
    }
    vector = unit;
    break;
  }
  if (!vector)
    return op.emitError("no vector unit of @")
           << model.name() << " can run this contraction (" << why << "; it needs op classes "
           << llvm::join(classes.getArrayRef(), ", ") << " and its own accesses of @"
           << model.node(spad).name << "), and " << whyNotMatrix;
  std::string unitName = model.node(*vector).name;

  // The DMA path: two movers through a staging memory are lowered.
  std::optional<ScratchpadPath> path = findScratchpadPath(model, placement);
  if (!path || !path->staging)
    return op.emitError("a contraction on the vector unit is lowered where two DMAs reach @")
           << model.node(spad).name << " through a staging memory; this path of @"
           << model.name() << " is not built yet";

  // Operand and stored rows are whole accesses (merging column tiles where
  // N is not); A rows too, so every access of A holds elements of one row.
  int64_t bytes = access->count(), es = bytesOf(inputType), eo = bytesOf(outputType);
  auto rowsWhole = [&](int64_t columns) {
    return (columns * es) % bytes == 0 && (columns * eo) % bytes == 0;
  };
  FailureOr<int64_t> mergedN = ktsched::detail::decideContractionMerge(op, kernel, n, rowsWhole, bytes);
  if (failed(mergedN))
    return failure();
  n = *mergedN;
  if ((k * es) % bytes)
    return op.emitError("the contraction's A rows (K = ")
           << k << " elements of " << inputType << ") are not whole " << bytes
           << "-byte accesses of @" << unitName;
  int64_t perAccess = bytes / es;

  // Row operands of the epilogue: whole accesses, held in registers.
  int64_t rowOperands = 0;
  if (ArrayAttr operands = op.getEpilogueOperandsAttr())
    for (auto [i, t] : llvm::enumerate(operands)) {
      auto transfer = cast<DictionaryAttr>(t);
      if ((shapeOf(transfer)[1] * bytesOf(tensorOf(transfer).getElementType())) % bytes)
        return op.emitError("the epilogue's row operand ")
               << i << " is not whole " << bytes << "-byte accesses of @" << unitName;
      ++rowOperands;
    }

  // Scratchpad regions of one step [tm, tn, tk], aligned, from the
  // memory's start: A's and B's rows of the step, the epilogue's row
  // operands (the panel's columns), the panel's accumulators where K runs
  // in several steps, and its stored rows.
  Bytes alignment = memoryAlignment(model, spad);
  SmallVector<int64_t> rowOperandBytes;
  if (ArrayAttr operands = op.getEpilogueOperandsAttr())
    for (Attribute t : operands)
      rowOperandBytes.push_back(bytesOf(tensorOf(cast<DictionaryAttr>(t)).getElementType()));
  auto layout = [&](int64_t tm, int64_t tn, int64_t tk, Bytes &end) {
    SmallVector<std::pair<std::string, int64_t>> regions = {{"a_rows", tm * tk * es},
                                                            {"b_rows", tk * tn * es}};
    for (auto [i, size] : llvm::enumerate(rowOperandBytes))
      regions.push_back({"epilogue_" + std::to_string(i), tn * size});
    if (tk < k)
      regions.push_back({"acc", tm * tn * bytesOf(accType)});
    regions.push_back({"c_rows", tm * tn * eo});
    end = Bytes(0);
    for (auto &entry : regions)
      end = (end + Bytes(entry.second)).alignTo(alignment);
    return regions;
  };
  Bytes usable = model.node(spad).memory.usable();
  Bytes stagingUsable = model.node(*path->staging).memory.usable();
  Bytes stagingAlignment = memoryAlignment(model, *path->staging);
  // A step is legal where it divides the grid tile in whole accesses of
  // the vector unit (A's rows of the step, B's, the stored rows and the
  // row operands' columns) and fits the scratchpad and, one copy per core,
  // the staging memory.
  auto stepLegal = [&](int64_t tm, int64_t tn, int64_t tk) {
    if (tm < 1 || tn < 1 || tk < 1 || m % tm || n % tn || k % tk || (tk * es) % bytes ||
        (tn * es) % bytes || (tn * eo) % bytes)
      return false;
    for (int64_t size : rowOperandBytes)
      if ((tn * size) % bytes)
        return false;
    Bytes end(0);
    (void)layout(tm, tn, tk, end);
    return end <= usable && end.alignTo(stagingAlignment) * placement.cores <= stagingUsable;
  };
  // The step: K in as few steps as fit (each step but the last writes the
  // panel's accumulators to scratchpad and the next reads them back), then
  // the largest panel (A is read once per panel column, B once per panel
  // row), the wider on a tie (a B row is joined once per row block).
  SmallVector<int64_t, 3> step;
  for (int64_t tk = k; tk >= 1 && step.empty(); --tk) {
    if (k % tk)
      continue;
    int64_t bestArea = 0;
    for (int64_t tm = 1; tm <= m; ++tm)
      for (int64_t tn = 1; tn <= n; ++tn)
        if ((m % tm == 0 && n % tn == 0) && tm * tn >= bestArea && stepLegal(tm, tn, tk)) {
          if (step.empty() || tm * tn > bestArea || tn > step[1])
            step = {tm, tn, tk};
          bestArea = tm * tn;
        }
  }
  if (auto replayed = dyn_cast_or_null<DenseI64ArrayAttr>(decisionValue(op, "step"))) {
    if (replayed.size() != 3 || !stepLegal(replayed[0], replayed[1], replayed[2]))
      return op.emitError("the plan's step is not legal for @")
             << unitName << ": it must divide the " << m << "x" << n << "x" << k
             << " tile in whole " << bytes << "-byte accesses and fit @"
             << model.node(spad).name << " and @" << model.node(*path->staging).name;
    step.assign(replayed.asArrayRef().begin(), replayed.asArrayRef().end());
  }
  if (step.empty()) {
    Bytes least(0);
    int64_t tn = bytes / std::min(es, eo);
    (void)layout(1, tn, perAccess, least);
    return op.emitError("no step of the contraction's ")
           << m << "x" << n << "x" << k << " grid tile fits: even one row of " << tn
           << " columns and one access of K needs " << least.count() << " bytes of @"
           << model.node(spad).name << " (" << usable.count() << " usable) and "
           << (least.alignTo(stagingAlignment) * placement.cores).count() << " of @"
           << model.node(*path->staging).name << " (" << stagingUsable.count()
           << " usable, one copy per core)";
  }
  int64_t tm = step[0], tn = step[1], tk = step[2];

  // The block: the most accumulator rows of the step the registers hold.
  int64_t registers = model.vectorRegisterCount(*vector);
  auto fits = [&](int64_t bm) {
    int64_t loop = rowOperands + 2 * bm + kLoopScratch;
    int64_t epilogue = rowOperands + bm + int64_t(epilogueOps.size()) + kEpilogueScratch;
    return bm > 0 && tm % bm == 0 && std::max(loop, epilogue) <= registers;
  };
  int64_t bm = 0;
  for (int64_t rows = 1; rows <= tm; ++rows)
    if (fits(rows))
      bm = rows;
  if (auto replayed = dyn_cast_or_null<DenseI64ArrayAttr>(decisionValue(op, "block"))) {
    if (replayed.size() != 3 || !fits(replayed[0]) || replayed[1] != tn ||
        replayed[2] != perAccess)
      return op.emitError("the plan's block is not legal for @")
             << unitName << ": M rows dividing the step's " << tm
             << " whose accumulators fit " << registers << " registers, N = the step's " << tn
             << ", K = " << perAccess << " (one access of A)";
    bm = replayed[0];
  }
  if (!bm)
    return op.emitError("@") << unitName << "'s " << registers
                             << " vector registers hold no row of accumulators beside the "
                                "K loop's and the epilogue's values";

  // A plan's strategy values must be the ones built.
  for (auto [key, value] : {std::pair<StringRef, StringRef>("vector_unit", unitName),
                            {"layout", "rows"},
                            {"resident", "accumulator"},
                            {"accumulator_path", "registers"},
                            {"accumulator_init", "constant"}})
    if (auto replayed = dyn_cast_or_null<StringAttr>(decisionValue(op, key));
        replayed && replayed.getValue() != value)
      return op.emitError("the plan's ")
             << key << " '" << replayed.getValue() << "' is not what the vector unit of @"
             << model.name() << " runs ('" << value << "')";
  if (auto replayed = dyn_cast_or_null<StringAttr>(decisionValue(op, "matrix_unit")))
    return op.emitError("the plan binds matrix unit '")
           << replayed.getValue() << "' to a contraction on the vector unit";

  auto decision = [&](StringRef name, Attribute value) {
    if (!op->hasAttr(name))
      op->setAttr(name, decide(value, kHeuristic));
  };
  decision("compute", b.getStringAttr("vector"));
  decision("vector_unit", b.getStringAttr(unitName));
  decision("multiply_accumulate", b.getStringAttr(mac));
  decision("step", b.getDenseI64ArrayAttr({tm, tn, tk}));
  decision("block", b.getDenseI64ArrayAttr({bm, tn, perAccess}));
  decision("layout", b.getStringAttr("rows"));
  decision("resident", b.getStringAttr("accumulator"));
  decision("loop_order", b.getStrArrayAttr({"m", "n", "k"}));
  decision("split", b.getI64IntegerAttr(1));
  decision("accumulator_path", b.getStringAttr("registers"));
  decision("accumulator_init", b.getStringAttr("constant"));
  if (!epilogueOps.empty())
    decision("epilogue",
             b.getDictionaryAttr({b.getNamedAttr("unit", b.getStringAttr(unitName)),
                                  b.getNamedAttr("ops", b.getArrayAttr(epilogueOps))}));
  op->setAttr("memory", b.getStringAttr(model.node(spad).name));

  Bytes end(0);
  SmallVector<NamedAttribute> placed;
  Bytes next(0);
  for (auto &[name, size] : layout(tm, tn, tk, end)) {
    placed.push_back(b.getNamedAttr(name, b.getDenseI64ArrayAttr({next.count(), size})));
    next = (next + Bytes(size)).alignTo(alignment);
  }
  op->setAttr("regions", b.getDictionaryAttr(placed));

  // Each core's step has its own copy of the regions in the staging
  // memory, `staging_stride` bytes apart.
  Bytes stride = end.alignTo(stagingAlignment);
  op->setAttr("staging_memory", b.getStringAttr(model.node(*path->staging).name));
  op->setAttr("staging_stride", b.getI64IntegerAttr(stride.count()));
  return success();
}
