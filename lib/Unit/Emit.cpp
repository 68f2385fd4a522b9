//===- Emit.cpp - unit IR to a device-code bundle -------------------------===//
//
// Strategy. Mechanical: every op of a program after ktunit-insert-sync and
// ktunit-allocate-registers is one device-code instruction (a loop is
// `loop`/`end`, a compute body is its ops in order, a register declaration
// is nothing), every attribute one operand, through dc::ProgramBuilder so
// loop nesting is kept; dc::verifyBundle then checks the result. Nothing is
// decided here: IR that still has channels or virtual registers is refused
// with an error naming the pass that is missing. The pass writes the
// bundle's text form (lib/DeviceCode/TextForm) so lit tests can FileCheck
// the device code and `ktflow asm` can assemble it.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Unit/Emit.h"

#include "ktflow/DeviceCode/TextForm.h"
#include "ktflow/Unit/Passes.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"

namespace ktflow::ktunit {
#define GEN_PASS_DEF_EMIT
#include "ktflow/Unit/Passes.h.inc"
} // namespace ktflow::ktunit

using namespace mlir;
using namespace ktflow;
using namespace ktflow::ktunit;

namespace {

class Emitter {
public:
  explicit Emitter(dc::Bundle &bundle) : bundle(bundle) {}

  LogicalResult emitProgram(ProgramOp program) {
    std::vector<int64_t> instances;
    if (program.getInstances())
      instances.assign(program.getInstances()->begin(), program.getInstances()->end());
    dc::ProgramBuilder builder(bundle, program.getUnit(), instances,
                               uint32_t(program.getTableColumns()));
    for (SmallVector<int64_t> &row : program.getTableRows())
      builder.addTableRow(std::vector<int64_t>(row.begin(), row.end()));
    if (ArrayAttr cells = program.getLaunchCellsAttr())
      for (Attribute cell : cells) {
        auto parts = dyn_cast<ArrayAttr>(cell);
        if (!parts || parts.size() != 3 || !isa<IntegerAttr>(parts[0]) ||
            !isa<IntegerAttr>(parts[1]) || !isa<StringAttr>(parts[2]))
          return program.emitError("a launch cell is not [row, column, \"expression\"]");
        builder.program().launchCells.push_back(
            {uint32_t(cast<IntegerAttr>(parts[0]).getInt()),
             uint32_t(cast<IntegerAttr>(parts[1]).getInt()),
             cast<StringAttr>(parts[2]).getValue().str()});
      }
    return emitBlock(program.getBody().front(), builder);
  }

  llvm::StringMap<uint32_t> symbolIndex;

private:
  LogicalResult emitBlock(Block &block, dc::ProgramBuilder &b) {
    for (Operation &op : block)
      if (failed(emitOp(&op, b)))
        return failure();
    return success();
  }

  static dc::NodeRef node(NodeRefAttr ref) {
    dc::InstanceSelector selector;
    selector.kind = ref.getKind() == InstanceKind::Absolute ? dc::InstanceSelector::Kind::Absolute
                    : ref.getKind() == InstanceKind::Column
                        ? dc::InstanceSelector::Kind::TableColumn
                        : dc::InstanceSelector::Kind::Nearest;
    selector.value = ref.getValue();
    return dc::ProgramBuilder::node(ref.getName(), selector);
  }

  FailureOr<dc::Address> address(Operation *op, AddressAttr a) {
    dc::Address out;
    if (a.getIsSymbol()) {
      auto it = symbolIndex.find(a.getBase().getName());
      if (it == symbolIndex.end())
        return op->emitError() << "unknown symbol @" << a.getBase().getName();
      out = dc::ProgramBuilder::symbolAddress(it->second, Bytes(a.getOffset()));
    } else {
      out.base = dc::Address::Base::Memory;
      out.memory = node(a.getBase());
      out.offset = Bytes(a.getOffset());
    }
    if (a.getColumn())
      out.tableColumn = uint32_t(*a.getColumn());
    for (LoopTermAttr t : a.getTerms())
      out.terms.push_back({uint32_t(t.getDepth()), Bytes(t.getStride()), t.getModulus()});
    return out;
  }

  /// The physical register of a handle, or an error when it is virtual.
  FailureOr<uint8_t> reg(Operation *op, Value handle) {
    auto decl = handle.getDefiningOp<VRegOp>();
    if (!decl || !decl.getPhys())
      return op->emitError() << "uses a virtual register: run ktunit-allocate-registers first";
    if (*decl.getPhys() < 0 || *decl.getPhys() >= int64_t(dc::kEncodableVectorRegisters))
      return op->emitError() << "uses register " << *decl.getPhys()
                             << ", which device code cannot encode";
    return uint8_t(*decl.getPhys());
  }

  static dc::ElemType elemType(Value handle) {
    // The register type's verifier admits only types device code has.
    Type t = cast<VRegType>(handle.getType()).getElementType();
    std::string name;
    llvm::raw_string_ostream os(name);
    t.print(os);
    return dc::parseElemType(name).value_or(dc::ElemType::F32);
  }
  static Elements count(Value handle) {
    return Elements(cast<VRegType>(handle.getType()).getCount());
  }

  LogicalResult emitOp(Operation *op, dc::ProgramBuilder &b) {
    if (isa<ChannelOp, AcquireOp, ReleaseOp>(op))
      return op->emitError() << "still uses a channel: run ktunit-insert-sync first";
    if (auto loop = dyn_cast<LoopOp>(op)) {
      if (std::optional<int64_t> column = loop.getCountColumn())
        b.loopFromTable(uint32_t(*column));
      else
        b.loop(loop.getCount());
      if (failed(emitBlock(loop.getBody().front(), b)))
        return failure();
      b.end();
      return success();
    }
    if (auto compute = dyn_cast<ComputeOp>(op))
      return emitBlock(compute.getBody().front(), b);
    if (isa<VRegOp>(op))
      return success();
    if (auto s = dyn_cast<SignalOp>(op)) {
      b.signal(node(s.getPeer()), uint32_t(s.getSem()));
      return success();
    }
    if (auto w = dyn_cast<WaitOp>(op)) {
      b.wait(uint32_t(w.getSem()), w.getCount());
      return success();
    }
    if (auto c = dyn_cast<CreditOp>(op)) {
      b.credit(uint32_t(c.getSem()), c.getCount());
      return success();
    }
    if (auto copy = dyn_cast<CopyOp>(op)) {
      FailureOr<dc::Address> dst = address(op, copy.getDst()), src = address(op, copy.getSrc());
      if (failed(dst) || failed(src))
        return failure();
      SmallVector<dc::CopyDim> dims;
      for (auto [n, ss, ds] :
           llvm::zip(copy.getCounts(), copy.getSrcStrides(), copy.getDstStrides()))
        dims.push_back({n, Bytes(ss), Bytes(ds)});
      b.copy(*dst, *src, Bytes(copy.getRun()), dims);
      return success();
    }
    auto indexedCopy = [&](auto indexed, bool scatter) -> LogicalResult {
      FailureOr<dc::Address> dst = address(op, indexed.getDst()),
                             src = address(op, indexed.getSrc()),
                             index = address(op, indexed.getIndex());
      if (failed(dst) || failed(src) || failed(index))
        return failure();
      SmallVector<dc::CopyDim> dims;
      for (auto [n, ss, ds] :
           llvm::zip(indexed.getCounts(), indexed.getSrcStrides(), indexed.getDstStrides()))
        dims.push_back({n, Bytes(ss), Bytes(ds)});
      dc::ElemType type =
          indexed.getIndexType().isInteger(64) ? dc::ElemType::I64 : dc::ElemType::I32;
      if (scatter)
        b.scatter(*dst, *src, Bytes(indexed.getRun()), dims, *index, type, indexed.getBound());
      else
        b.gather(*dst, *src, Bytes(indexed.getRun()), dims, *index, type, indexed.getBound());
      return success();
    };
    if (auto gather = dyn_cast<GatherOp>(op))
      return indexedCopy(gather, /*scatter=*/false);
    if (auto scatter = dyn_cast<ScatterOp>(op))
      return indexedCopy(scatter, /*scatter=*/true);
    if (isa<FenceOp>(op))
      return op->emitError("a fence is emitted by ktunit-insert-sync first");
    if (auto push = dyn_cast<PushOp>(op)) {
      FailureOr<dc::Address> src = address(op, push.getSrc());
      if (failed(src))
        return failure();
      b.push(node(push.getPeer()), *src, Bytes(push.getBytes()));
      return success();
    }
    if (auto pop = dyn_cast<PopOp>(op)) {
      FailureOr<dc::Address> dst = address(op, pop.getDst());
      if (failed(dst))
        return failure();
      b.pop(node(pop.getPeer()), *dst, Bytes(pop.getBytes()));
      return success();
    }
    return emitVector(op, b);
  }

  LogicalResult emitVector(Operation *op, dc::ProgramBuilder &b) {
    // Every vector op's registers, physical, in operand order.
    SmallVector<uint8_t, 4> r;
    for (Value operand : op->getOperands()) {
      FailureOr<uint8_t> n = reg(op, operand);
      if (failed(n))
        return failure();
      r.push_back(*n);
    }
    auto binary = [&](dc::Opcode code) { return b.binary(code, r[0], r[1], r[2]), success(); };
    auto unary = [&](dc::Opcode code) { return b.unary(code, r[0], r[1]), success(); };
    if (auto recv = dyn_cast<RecvOp>(op))
      return b.recv(r[0], elemType(recv.getDst()), count(recv.getDst()), node(recv.getPeer())),
             success();
    if (auto send = dyn_cast<SendOp>(op))
      return b.send(node(send.getPeer()), r[0]), success();
    if (auto load = dyn_cast<VLoadOp>(op)) {
      FailureOr<dc::Address> src = address(op, load.getSrc());
      if (failed(src))
        return failure();
      return b.vload(r[0], elemType(load.getDst()), count(load.getDst()), *src), success();
    }
    if (auto store = dyn_cast<VStoreOp>(op)) {
      FailureOr<dc::Address> dst = address(op, store.getDst());
      if (failed(dst))
        return failure();
      return b.vstore(*dst, r[0]), success();
    }
    if (auto c = dyn_cast<VConstOp>(op))
      return b.vconst(r[0], elemType(c.getDst()), count(c.getDst()),
                      c.getValue().convertToDouble()),
             success();
    if (isa<AddOp>(op)) return binary(dc::Opcode::Add);
    if (isa<SubOp>(op)) return binary(dc::Opcode::Sub);
    if (isa<MulOp>(op)) return binary(dc::Opcode::Mul);
    if (isa<DivOp>(op)) return binary(dc::Opcode::Div);
    if (isa<MaxOp>(op)) return binary(dc::Opcode::Max);
    if (isa<MinOp>(op)) return binary(dc::Opcode::Min);
    if (isa<PowOp>(op)) return binary(dc::Opcode::Pow);
    if (isa<FmaOp>(op))
      return b.ternary(dc::Opcode::Fma, r[0], r[1], r[2], r[3]), success();
    if (isa<NegOp>(op)) return unary(dc::Opcode::Neg);
    if (isa<AbsOp>(op)) return unary(dc::Opcode::Abs);
    if (isa<ExpOp>(op)) return unary(dc::Opcode::Exp);
    if (isa<SqrtOp>(op)) return unary(dc::Opcode::Sqrt);
    if (isa<RsqrtOp>(op)) return unary(dc::Opcode::Rsqrt);
    if (isa<LogOp>(op)) return unary(dc::Opcode::Log);
    if (isa<TanhOp>(op)) return unary(dc::Opcode::Tanh);
    if (isa<ErfOp>(op)) return unary(dc::Opcode::Erf);
    if (isa<MovOp>(op)) return unary(dc::Opcode::Mov);
    if (auto cast = dyn_cast<CastOp>(op))
      return b.cast(r[0], elemType(cast.getDst()), r[1]), success();
    if (auto cmp = dyn_cast<CmpOp>(op))
      return b.cmp(dc::CmpPredicate(uint8_t(cmp.getPredicate())), r[0], r[1], r[2]), success();
    if (isa<SelectOp>(op))
      return b.select(r[0], r[1], r[2], r[3]), success();
    if (auto bcast = dyn_cast<BcastOp>(op))
      return b.bcast(r[0], r[1], bcast.getLane(), count(bcast.getDst())), success();
    if (auto reduce = dyn_cast<ReduceOp>(op))
      return b.reduce(dc::Combiner(uint8_t(reduce.getCombiner())), r[0], r[1]), success();
    if (isa<SlideOp>(op))
      return b.slide(r[0], r[1]), success();
    if (auto ext = dyn_cast<ExtOp>(op)) {
      std::optional<uint32_t> column;
      if (ext.getLaneFromTable())
        column = uint32_t(ext.getLane());
      return b.ext(r[0], r[1], r[2], column ? 0 : ext.getLane(), column), success();
    }
    if (isa<ConcatOp>(op))
      return b.concat(r[0], r[1], r[2]), success();
    if (auto mma = dyn_cast<MmaOp>(op))
      return b.mma(r[0], r[1], r[2], Elements(mma.getDepth())), success();
    if (auto slice = dyn_cast<SliceOp>(op))
      return b.slice(r[0], r[1], slice.getLane(), count(slice.getDst())), success();
    return op->emitError() << "has no device-code instruction";
  }

  dc::Bundle &bundle;
};

struct EmitPass : ktunit::impl::EmitBase<EmitPass> {
  using EmitBase::EmitBase;

  void runOnOperation() override {
    FailureOr<dc::Bundle> bundle = emitBundle(getOperation());
    if (failed(bundle))
      return signalPassFailure();
    std::string error;
    auto file = openOutputFile(output, &error);
    if (!file) {
      emitError(getOperation().getLoc()) << "cannot write '" << output << "': " << error;
      return signalPassFailure();
    }
    dc::printBundle(*bundle, file->os());
    file->keep();
  }
};

} // namespace

FailureOr<dc::Bundle> ktunit::emitBundle(ModuleOp module) {
  SmallVector<BundleOp> bundles(module.getOps<BundleOp>());
  if (bundles.size() != 1)
    return emitError(module.getLoc()) << "expected one ktunit.bundle, found " << bundles.size();
  return emitBundle(bundles.front());
}

FailureOr<dc::Bundle> ktunit::emitBundle(BundleOp op) {
  dc::Bundle bundle;
  bundle.device = op.getDevice().str();
  // Unbound launch values the launch-table cells read: {name, arg, type,
  // granularity, upperbound} each (the lowering records them).
  if (auto unbound = op->getAttrOfType<ArrayAttr>("launch_values"))
    for (Attribute entry : unbound) {
      auto dict = dyn_cast<DictionaryAttr>(entry);
      auto name = dict ? dict.getAs<StringAttr>("name") : StringAttr();
      auto arg = dict ? dict.getAs<IntegerAttr>("arg") : IntegerAttr();
      auto type = dict ? dict.getAs<StringAttr>("type") : StringAttr();
      auto granularity = dict ? dict.getAs<IntegerAttr>("granularity") : IntegerAttr();
      auto upperbound = dict ? dict.getAs<IntegerAttr>("upperbound") : IntegerAttr();
      if (!name || !arg || !type || !granularity || !upperbound)
        return op.emitError("an unbound launch value lacks name, arg, type, granularity or "
                            "upperbound");
      dc::LaunchValue v;
      v.name = name.str();
      v.arg = uint32_t(arg.getInt());
      v.type = type.str();
      v.bound = false;
      v.granularity = granularity.getInt();
      v.upperbound = upperbound.getInt();
      bundle.launchValues.push_back(std::move(v));
    }
  Emitter emitter(bundle);
  for (SymbolOp symbol : op.getOps<SymbolOp>()) {
    std::string type;
    llvm::raw_string_ostream os(type);
    os << symbol.getElementType();
    emitter.symbolIndex[symbol.getSymName()] = uint32_t(bundle.symbols.size());
    bundle.symbols.push_back({symbol.getSymName().str(), type,
                              std::vector<int64_t>(symbol.getShape().begin(),
                                                   symbol.getShape().end()),
                              Bytes(symbol.getBytes()), symbol.getInput(), symbol.getOutput()});
  }
  for (Operation &child : op.getBody().front()) {
    if (isa<ChannelOp>(child))
      return child.emitError() << "still uses a channel: run ktunit-insert-sync first";
    if (auto program = dyn_cast<ProgramOp>(child))
      if (failed(emitter.emitProgram(program)))
        return failure();
  }
  if (llvm::Error error = dc::verifyBundle(bundle, "ktunit-emit")) {
    InFlightDiagnostic diag = op.emitError() << llvm::toString(std::move(error));
    return failure();
  }
  return bundle;
}
