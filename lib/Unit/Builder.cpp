//===- Builder.cpp - building unit programs op by op ----------------------===//
//
// Strategy. Ops go to the end of the innermost open block (the program's,
// a loop's); register declarations go to the start of the program, in the
// order registers are first written, so every handle dominates all of its
// uses whatever loop first writes it. Arithmetic is created by device-code
// opcode name (`ktunit.<opcode>`), so one table, the device code's, says
// which instruction a vector op kind is; an opcode without a ktunit op is
// an error at the program.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Unit/Builder.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::ktunit;

ProgramBuilder::ProgramBuilder(BundleOp bundle, StringRef name, StringRef unit,
                               std::vector<int64_t> instances, uint32_t tableColumns,
                               const std::vector<std::string> &symbolNames, Location loc)
    : builder(bundle.getContext()), loc(loc), unitName(unit.str()), symbolNames(symbolNames),
      columns(tableColumns) {
  Block &body = bundle.getBody().front();
  builder.setInsertionPointToEnd(&body);
  DenseI64ArrayAttr instancesAttr;
  if (!instances.empty())
    instancesAttr = builder.getDenseI64ArrayAttr(instances);
  programOp = ProgramOp::create(builder, loc, builder.getStringAttr(name),
                                builder.getStringAttr(unit), instancesAttr, nullptr, nullptr);
  blocks.push_back(&programOp.getBody().emplaceBlock());
}

void ProgramBuilder::addTableRow(std::vector<int64_t> row) {
  row.resize(columns, 0);
  table.push_back(std::move(row));
}

void ProgramBuilder::appendTableColumns(const std::vector<std::vector<int64_t>> &rows,
                                        uint32_t added) {
  if (added == 0)
    return;
  if (table.empty())
    table.assign(rows.size(), std::vector<int64_t>(columns, 0));
  for (size_t i = 0; i < table.size() && i < rows.size(); ++i)
    table[i].insert(table[i].end(), rows[i].begin(), rows[i].end());
  columns += added;
}

void ProgramBuilder::finish() {
  if (finished)
    return;
  finished = true;
  if (!launchCells.empty()) {
    SmallVector<Attribute> cells;
    for (const dc::LaunchCell &cell : launchCells)
      cells.push_back(builder.getArrayAttr({builder.getI64IntegerAttr(cell.row),
                                            builder.getI64IntegerAttr(cell.column),
                                            builder.getStringAttr(cell.expr)}));
    programOp.setLaunchCellsAttr(builder.getArrayAttr(cells));
  }
  if (columns == 0 || table.empty())
    return;
  std::vector<int64_t> flat;
  for (std::vector<int64_t> &row : table) {
    row.resize(columns, 0);
    flat.insert(flat.end(), row.begin(), row.end());
  }
  auto type = RankedTensorType::get({int64_t(table.size()), int64_t(columns)},
                                    builder.getI64Type());
  programOp.setTableAttr(DenseIntElementsAttr::get(type, ArrayRef<int64_t>(flat)));
}

void ProgramBuilder::loop(int64_t count) {
  builder.setInsertionPointToEnd(blocks.back());
  auto op = LoopOp::create(builder, loc, count, IntegerAttr());
  blocks.push_back(&op.getBody().emplaceBlock());
}

void ProgramBuilder::loopFromTable(uint32_t column, int64_t maxCount) {
  builder.setInsertionPointToEnd(blocks.back());
  auto op = LoopOp::create(builder, loc, maxCount,
                           builder.getIntegerAttr(builder.getI64Type(), column));
  blocks.push_back(&op.getBody().emplaceBlock());
}

void ProgramBuilder::openGuard(uint32_t column) {
  loopFromTable(column, 1);
  ++termBase;
}

void ProgramBuilder::closeGuard() {
  end();
  --termBase;
}

void ProgramBuilder::addLaunchCell(uint32_t row, uint32_t column, StringRef expr) {
  launchCells.push_back({row, column, expr.str()});
}

void ProgramBuilder::end() {
  assert(blocks.size() > 1 && "end() without an open loop");
  blocks.pop_back();
}

void ProgramBuilder::loopAround(int64_t count) {
  aroundDepths.push_back(blocks.size() - 1);
  loop(count);
  termBase = blocks.size() - 1;
}

void ProgramBuilder::endLoopAround() {
  assert(!aroundDepths.empty() && "endLoopAround() without loopAround()");
  end();
  aroundDepths.pop_back();
  termBase = aroundDepths.empty() ? 0 : aroundDepths.back() + 1;
}

NodeRefAttr ProgramBuilder::nodeRef(MLIRContext *context, const dc::NodeRef &ref) {
  InstanceKind kind = ref.instance.kind == dc::InstanceSelector::Kind::Absolute
                          ? InstanceKind::Absolute
                      : ref.instance.kind == dc::InstanceSelector::Kind::TableColumn
                          ? InstanceKind::Column
                          : InstanceKind::Nearest;
  return NodeRefAttr::get(context, ref.name, kind, ref.instance.value);
}

AddressAttr ProgramBuilder::address(const dc::Address &a) {
  bool isSymbol = a.base == dc::Address::Base::Symbol;
  NodeRefAttr base;
  if (isSymbol) {
    StringRef name = a.symbol < symbolNames.size() ? StringRef(symbolNames[a.symbol]) : "";
    base = NodeRefAttr::get(getContext(), name, InstanceKind::Nearest, 0);
  } else {
    base = node(a.memory);
  }
  SmallVector<LoopTermAttr> terms;
  for (const dc::LoopTerm &t : a.terms) {
    int64_t depth = t.depth == kLoopAround
                        ? (aroundDepths.empty() ? 0 : int64_t(aroundDepths.back()))
                        : int64_t(t.depth) + termBase;
    terms.push_back(LoopTermAttr::get(getContext(), depth, t.stride.count(), t.modulus));
  }
  std::optional<int64_t> column;
  if (a.tableColumn)
    column = *a.tableColumn;
  return AddressAttr::get(getContext(), isSymbol, base, a.offset.count(), column, terms);
}

void ProgramBuilder::acquire(ChannelOp channel, Side side, int64_t count) {
  builder.setInsertionPointToEnd(blocks.back());
  AcquireOp::create(builder, loc, channel.getSymName(), side, count);
}

void ProgramBuilder::release(ChannelOp channel, Side side, int64_t count) {
  builder.setInsertionPointToEnd(blocks.back());
  ReleaseOp::create(builder, loc, channel.getSymName(), side, count);
}

void ProgramBuilder::copy(dc::Address dst, dc::Address src, Bytes runBytes,
                          ArrayRef<dc::CopyDim> dims) {
  SmallVector<int64_t> counts, srcStrides, dstStrides;
  for (const dc::CopyDim &d : dims) {
    counts.push_back(d.count);
    srcStrides.push_back(d.srcStride.count());
    dstStrides.push_back(d.dstStride.count());
  }
  AddressAttr d = address(dst), s = address(src);
  builder.setInsertionPointToEnd(blocks.back());
  CopyOp::create(builder, loc, d, s, runBytes.count(), counts, srcStrides, dstStrides);
}

template <typename IndexedCopyOp>
void ProgramBuilder::indexedCopy(dc::Address dst, dc::Address src, Bytes runBytes,
                                 ArrayRef<dc::CopyDim> dims, dc::Address index,
                                 dc::ElemType indexType, int64_t bound) {
  SmallVector<int64_t> counts, srcStrides, dstStrides;
  for (const dc::CopyDim &d : dims) {
    counts.push_back(d.count);
    srcStrides.push_back(d.srcStride.count());
    dstStrides.push_back(d.dstStride.count());
  }
  AddressAttr d = address(dst), s = address(src), i = address(index);
  Type type = builder.getIntegerType(indexType == dc::ElemType::I64 ? 64 : 32);
  builder.setInsertionPointToEnd(blocks.back());
  IndexedCopyOp::create(builder, loc, d, s, runBytes.count(), counts, srcStrides, dstStrides, i,
                        type, bound);
}

void ProgramBuilder::gather(dc::Address dst, dc::Address src, Bytes runBytes,
                            ArrayRef<dc::CopyDim> dims, dc::Address index,
                            dc::ElemType indexType, int64_t bound) {
  indexedCopy<GatherOp>(dst, src, runBytes, dims, index, indexType, bound);
}

void ProgramBuilder::scatter(dc::Address dst, dc::Address src, Bytes runBytes,
                             ArrayRef<dc::CopyDim> dims, dc::Address index,
                             dc::ElemType indexType, int64_t bound) {
  indexedCopy<ScatterOp>(dst, src, runBytes, dims, index, indexType, bound);
}

void ProgramBuilder::fence(dc::NodeRef self) {
  NodeRefAttr ref = node(self);
  builder.setInsertionPointToEnd(blocks.back());
  FenceOp::create(builder, loc, ref);
}

void ProgramBuilder::push(dc::NodeRef peer, dc::Address src, Bytes bytes) {
  NodeRefAttr p = node(peer);
  AddressAttr s = address(src);
  builder.setInsertionPointToEnd(blocks.back());
  PushOp::create(builder, loc, p, s, bytes.count());
}

void ProgramBuilder::pop(dc::NodeRef peer, dc::Address dst, Bytes bytes) {
  NodeRefAttr p = node(peer);
  AddressAttr d = address(dst);
  builder.setInsertionPointToEnd(blocks.back());
  PopOp::create(builder, loc, p, d, bytes.count());
}

VRegType ProgramBuilder::regType(dc::ElemType type, Elements count) {
  Type element;
  switch (type) {
  case dc::ElemType::F16:
    element = builder.getF16Type();
    break;
  case dc::ElemType::BF16:
    element = builder.getBF16Type();
    break;
  case dc::ElemType::F32:
    element = builder.getF32Type();
    break;
  case dc::ElemType::I8:
  case dc::ElemType::I32:
  case dc::ElemType::I64:
    element = builder.getIntegerType(dc::elemTypeSize(type).bytes.count() * 8);
    break;
  }
  return VRegType::get(getContext(), count.count(), element);
}

Value ProgramBuilder::use(Reg r) {
  assert(r < regs.size() && regs[r] && "a register read before it is written");
  return regs[r];
}

Value ProgramBuilder::def(Reg r, VRegType type) {
  assert(r < regs.size() && "a register the builder did not hand out");
  if (regs[r] && regs[r].getType() == type)
    return regs[r];
  OpBuilder::InsertionGuard guard(builder);
  Block &entry = programOp.getBody().front();
  // After the declarations already there, before the first instruction.
  if (lastDeclaration)
    builder.setInsertionPointAfter(lastDeclaration);
  else
    builder.setInsertionPointToStart(&entry);
  auto decl = VRegOp::create(builder, loc, type, IntegerAttr());
  lastDeclaration = decl;
  regs[r] = decl.getResult();
  return regs[r];
}

void ProgramBuilder::recv(Reg vd, dc::ElemType type, Elements count, dc::NodeRef peer) {
  NodeRefAttr p = node(peer);
  Value d = def(vd, regType(type, count));
  builder.setInsertionPointToEnd(blocks.back());
  RecvOp::create(builder, loc, d, p);
}

void ProgramBuilder::send(dc::NodeRef peer, Reg va) {
  NodeRefAttr p = node(peer);
  Value a = use(va);
  builder.setInsertionPointToEnd(blocks.back());
  SendOp::create(builder, loc, p, a);
}

void ProgramBuilder::vload(Reg vd, dc::ElemType type, Elements count, dc::Address src) {
  AddressAttr s = address(src);
  Value d = def(vd, regType(type, count));
  builder.setInsertionPointToEnd(blocks.back());
  VLoadOp::create(builder, loc, d, s);
}

void ProgramBuilder::vstore(dc::Address dst, Reg va) {
  AddressAttr d = address(dst);
  Value a = use(va);
  builder.setInsertionPointToEnd(blocks.back());
  VStoreOp::create(builder, loc, d, a);
}

void ProgramBuilder::vconst(Reg vd, dc::ElemType type, Elements count, double value) {
  Value d = def(vd, regType(type, count));
  builder.setInsertionPointToEnd(blocks.back());
  VConstOp::create(builder, loc, d, builder.getF64FloatAttr(value));
}

/// `ktunit.<opcode>` with the given register operands and no attributes.
static LogicalResult createByOpcode(OpBuilder &builder, Location loc, dc::Opcode op,
                                    ValueRange operands, ProgramOp program) {
  std::string name = ("ktunit." + dc::opcodeName(op)).str();
  std::optional<RegisteredOperationName> registered =
      RegisteredOperationName::lookup(name, builder.getContext());
  if (!registered)
    return program.emitError() << "device-code instruction '" << dc::opcodeName(op)
                               << "' has no ktunit op";
  OperationState state(loc, *registered);
  state.addOperands(operands);
  builder.create(state);
  return success();
}

void ProgramBuilder::arith(dc::Opcode op, Reg vd, ArrayRef<Reg> sources) {
  SmallVector<Value, 4> operands;
  for (Reg r : sources)
    operands.push_back(use(r));
  // The result has the first source's shape (the verifiers check the rest).
  operands.insert(operands.begin(), def(vd, llvm::cast<VRegType>(operands.front().getType())));
  builder.setInsertionPointToEnd(blocks.back());
  if (failed(createByOpcode(builder, loc, op, operands, programOp)))
    broken = true;
}

void ProgramBuilder::binary(dc::Opcode op, Reg vd, Reg va, Reg vb) { arith(op, vd, {va, vb}); }

void ProgramBuilder::unary(dc::Opcode op, Reg vd, Reg va) { arith(op, vd, {va}); }

void ProgramBuilder::ternary(dc::Opcode op, Reg vd, Reg va, Reg vb, Reg vc) {
  arith(op, vd, {va, vb, vc});
}

void ProgramBuilder::cast(Reg vd, dc::ElemType type, Reg va) {
  Value a = use(va);
  Value d = def(vd, regType(type, Elements(typeOf(va).getCount())));
  builder.setInsertionPointToEnd(blocks.back());
  CastOp::create(builder, loc, d, a);
}

void ProgramBuilder::cmp(dc::CmpPredicate p, Reg vd, Reg va, Reg vb) {
  Value a = use(va), b = use(vb);
  Value d = def(vd, llvm::cast<VRegType>(a.getType()));
  builder.setInsertionPointToEnd(blocks.back());
  CmpOp::create(builder, loc, CmpPredicate(uint32_t(p)), d, a, b);
}

void ProgramBuilder::select(Reg vd, Reg vm, Reg va, Reg vb) {
  Value m = use(vm), a = use(va), b = use(vb);
  Value d = def(vd, llvm::cast<VRegType>(a.getType()));
  builder.setInsertionPointToEnd(blocks.back());
  SelectOp::create(builder, loc, d, m, a, b);
}

void ProgramBuilder::bcast(Reg vd, Reg va, int64_t lane, Elements count) {
  Value a = use(va);
  VRegType from = llvm::cast<VRegType>(a.getType());
  Value d = def(vd, VRegType::get(getContext(), count.count(), from.getElementType()));
  builder.setInsertionPointToEnd(blocks.back());
  BcastOp::create(builder, loc, d, a, lane);
}

void ProgramBuilder::reduce(dc::Combiner c, Reg vd, Reg va) {
  Value a = use(va);
  VRegType from = llvm::cast<VRegType>(a.getType());
  Value d = def(vd, VRegType::get(getContext(), 1, from.getElementType()));
  builder.setInsertionPointToEnd(blocks.back());
  ReduceOp::create(builder, loc, Combiner(uint32_t(c)), d, a);
}

void ProgramBuilder::mma(Reg vd, Reg va, Reg vb, Elements depth) {
  // Reads and writes vd: its handle stays.
  Value a = use(va), b = use(vb), d = use(vd);
  builder.setInsertionPointToEnd(blocks.back());
  MmaOp::create(builder, loc, d, a, b, depth.count());
}

void ProgramBuilder::slide(Reg vd, Reg va) {
  // Reads and writes vd: its handle stays.
  Value a = use(va), d = use(vd);
  builder.setInsertionPointToEnd(blocks.back());
  SlideOp::create(builder, loc, d, a);
}

void ProgramBuilder::ext(Reg vd, Reg va, Reg vb, int64_t lane,
                         std::optional<uint32_t> laneColumn) {
  Value a = use(va), b = use(vb);
  Value d = def(vd, llvm::cast<VRegType>(a.getType()));
  builder.setInsertionPointToEnd(blocks.back());
  ExtOp::create(builder, loc, d, a, b, laneColumn ? int64_t(*laneColumn) : lane,
                laneColumn.has_value());
}

void ProgramBuilder::concat(Reg vd, Reg va, Reg vb) {
  Value a = use(va), b = use(vb);
  VRegType ta = llvm::cast<VRegType>(a.getType()), tb = llvm::cast<VRegType>(b.getType());
  Value d = def(vd, VRegType::get(getContext(), ta.getCount() + tb.getCount(),
                                  ta.getElementType()));
  builder.setInsertionPointToEnd(blocks.back());
  ConcatOp::create(builder, loc, d, a, b);
}

void ProgramBuilder::slice(Reg vd, Reg va, int64_t lane, Elements count) {
  Value a = use(va);
  VRegType from = llvm::cast<VRegType>(a.getType());
  Value d = def(vd, VRegType::get(getContext(), count.count(), from.getElementType()));
  builder.setInsertionPointToEnd(blocks.back());
  SliceOp::create(builder, loc, d, a, lane);
}
