//===- KTUnitOps.cpp - the unit IR dialect: registration and verifiers ----===//
//
// Every structural rule emission relies on is checked here, so a
// hand-written or generated unit program that verifies can always be
// emitted: symbol sizes, table shapes, channel ends and sides, loop-term
// depths against the loops that enclose an op, register shapes of the
// vector ops.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Unit/KTUnit.h"

#include "ktflow/DeviceCode/Program.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::ktunit;

#include "ktflow/Unit/KTUnitDialect.cpp.inc"
#include "ktflow/Unit/KTUnitEnums.cpp.inc"

#define GET_OP_CLASSES
#include "ktflow/Unit/KTUnitOps.cpp.inc"

void KTUnitDialect::initialize() {
  registerAttributesAndTypes();
  addOperations<
#define GET_OP_LIST
#include "ktflow/Unit/KTUnitOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Shared queries
//===----------------------------------------------------------------------===//

unsigned ktunit::loopDepthOf(Operation *op) {
  unsigned depth = 0;
  for (Operation *p = op->getParentOp(); p && !isa<ProgramOp>(p); p = p->getParentOp())
    depth += isa<LoopOp>(p);
  return depth;
}

ProgramOp ktunit::programOf(Operation *op) {
  return isa<ProgramOp>(op) ? cast<ProgramOp>(op) : op->getParentOfType<ProgramOp>();
}

int64_t ktunit::tripProduct(Operation *op) {
  int64_t trips = 1;
  for (Operation *p = op->getParentOp(); p && !isa<ProgramOp>(p); p = p->getParentOp())
    if (auto loop = dyn_cast<LoopOp>(p))
      trips *= loop.getCount();
  return trips;
}

int64_t ktunit::vregBytes(VRegType type) {
  std::string name;
  llvm::raw_string_ostream os(name);
  os << type.getElementType();
  std::optional<ElementSize> size = dc::elementSizeOf(name);
  return size ? toBytes(Elements(type.getCount()), *size).count() : 0;
}

void ktunit::registerAccesses(Operation *op, SmallVectorImpl<Value> &writes,
                              SmallVectorImpl<Value> &reads) {
  if (isa<VRegOp>(op))
    return;
  // By convention the first register operand of a vector op is the one it
  // writes, except for send and vstore, which only read.
  bool writesFirst = !isa<SendOp, VStoreOp>(op);
  bool first = true;
  for (Value operand : op->getOperands()) {
    if (!isa<VRegType>(operand.getType()))
      continue;
    if (first && writesFirst) {
      writes.push_back(operand);
      if (isa<SlideOp, MmaOp>(op))
        reads.push_back(operand);
    } else {
      reads.push_back(operand);
    }
    first = false;
  }
}

/// Checks that every loop term of `address` names a loop enclosing `op`.
static LogicalResult verifyAddress(Operation *op, AddressAttr address, StringRef what) {
  unsigned depth = loopDepthOf(op);
  for (LoopTermAttr term : address.getTerms())
    if (term.getDepth() >= depth)
      return op->emitOpError() << what << " uses loop index d" << term.getDepth() << " but "
                               << depth << " loop(s) enclose the op";
  if (address.getColumn()) {
    ProgramOp program = programOf(op);
    if (program && *address.getColumn() >= program.getTableColumns())
      return op->emitOpError() << what << " uses table column t" << *address.getColumn()
                               << " of a table with " << program.getTableColumns()
                               << " column(s)";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Structure
//===----------------------------------------------------------------------===//

LogicalResult SymbolOp::verify() {
  std::string name;
  llvm::raw_string_ostream os(name);
  os << getElementType();
  std::optional<ElementSize> size = dc::elementSizeOf(name);
  if (!size)
    return emitOpError() << "has an element type device code cannot hold: " << name;
  int64_t elements = 1;
  for (int64_t d : getShape()) {
    if (d < 0)
      return emitOpError() << "has a negative dimension";
    elements *= d;
  }
  int64_t bytes = toBytes(Elements(elements), *size).count();
  if (getBytes() != bytes)
    return emitOpError() << "is " << getBytes() << " bytes but its shape holds " << bytes;
  return success();
}

int64_t ProgramOp::getTableColumns() {
  if (!getTable())
    return 0;
  auto type = cast<ShapedType>(getTable()->getType());
  return type.getRank() == 2 ? type.getDimSize(1) : 0;
}

SmallVector<SmallVector<int64_t>> ProgramOp::getTableRows() {
  SmallVector<SmallVector<int64_t>> rows;
  if (!getTable())
    return rows;
  int64_t columns = getTableColumns();
  SmallVector<int64_t> values;
  for (const APInt &v : getTable()->getValues<APInt>())
    values.push_back(v.getSExtValue());
  for (size_t i = 0; columns && i < values.size(); i += columns)
    rows.emplace_back(values.begin() + i, values.begin() + i + columns);
  return rows;
}

LogicalResult ProgramOp::verify() {
  if (getTable()) {
    auto type = cast<ShapedType>(getTable()->getType());
    if (type.getRank() != 2 || type.getDimSize(1) < 1 ||
        type.getDimSize(1) > int64_t(dc::kMaxTableColumns))
      return emitOpError() << "table must be rows x columns (1.." << dc::kMaxTableColumns
                           << " columns)";
    if (getInstances() && type.getDimSize(0) != int64_t(getInstances()->size()))
      return emitOpError() << "table has " << type.getDimSize(0) << " row(s) for "
                           << getInstances()->size() << " instance(s)";
  }
  if (getInstances()) {
    if (getInstances()->empty())
      return emitOpError() << "lists no instance (omit `instances` for all of them)";
    llvm::SmallDenseSet<int64_t> seen;
    ArrayRef<int64_t> instances = *getInstances();
    for (int64_t i : instances)
      if (i < 0 || !seen.insert(i).second)
        return emitOpError() << "lists instance " << i << " twice or negative";
  }
  return success();
}

LogicalResult LoopOp::verify() {
  if (getCount() < 0)
    return emitOpError() << "has a negative trip count";
  if (loopDepthOf(*this) + 1 > dc::kMaxLoopDepth)
    return emitOpError() << "nests deeper than " << dc::kMaxLoopDepth << " loops";
  return success();
}

//===----------------------------------------------------------------------===//
// Channels
//===----------------------------------------------------------------------===//

LogicalResult ChannelOp::verify() {
  if (getDepth() < 1)
    return emitOpError() << "has depth " << getDepth() << "; a channel holds at least one slot";
  return success();
}

LogicalResult ChannelOp::verifySymbolUses(SymbolTableCollection &symbols) {
  Operation *bundle = (*this)->getParentOp();
  auto check = [&](FlatSymbolRefAttr name, NodeRefAttr ref, StringRef side) -> LogicalResult {
    auto program = symbols.lookupSymbolIn<ProgramOp>(bundle, name.getAttr());
    if (!program)
      return emitOpError() << "names " << side << " " << name << ", which is not a program";
    if (ref.getName() != program.getUnit())
      return emitOpError() << "refers to its " << side << " as a node @" << ref.getName()
                           << ", but " << name << " runs on @" << program.getUnit();
    if (ref.getKind() == InstanceKind::Column)
      for (StringAttr other : {getProducerAttr().getAttr(), getConsumerAttr().getAttr()})
        if (other != name.getAttr())
          if (auto user = symbols.lookupSymbolIn<ProgramOp>(bundle, other))
            if (ref.getValue() >= user.getTableColumns())
              return emitOpError() << "takes its " << side << "'s instance from column t"
                                   << ref.getValue() << " of " << FlatSymbolRefAttr::get(other)
                                   << ", whose table has " << user.getTableColumns()
                                   << " column(s)";
    return success();
  };
  if (getProducer() == getConsumer())
    return emitOpError() << "has one program at both ends";
  return failure(failed(check(getConsumerAttr(), getConsumerRef(), "consumer")) ||
                 failed(check(getProducerAttr(), getProducerRef(), "producer")));
}

/// A channel use must name a channel whose `side` is the using program.
static LogicalResult verifyChannelUse(Operation *op, FlatSymbolRefAttr name, Side side,
                                      int64_t count) {
  if (count < 1)
    return op->emitOpError() << "moves fewer than one slot";
  ProgramOp program = programOf(op);
  auto bundle = program ? program->getParentOfType<BundleOp>() : BundleOp();
  if (!bundle)
    return success();
  auto channel = SymbolTable::lookupSymbolIn(bundle, name.getAttr());
  auto ch = dyn_cast_or_null<ChannelOp>(channel);
  if (!ch)
    return op->emitOpError() << "names " << name << ", which is not a channel";
  StringRef end = side == Side::producer ? ch.getProducer() : ch.getConsumer();
  if (end != program.getSymName())
    return op->emitOpError() << "uses the " << stringifySide(side) << " side of " << name
                             << ", but that side is @" << end << ", not @"
                             << program.getSymName();
  return success();
}

LogicalResult AcquireOp::verify() {
  return verifyChannelUse(*this, getChannelAttr(), getSide(), getCount());
}
LogicalResult ReleaseOp::verify() {
  return verifyChannelUse(*this, getChannelAttr(), getSide(), getCount());
}

LogicalResult WaitOp::verify() {
  if (getSem() < 0 || getCount() < 1)
    return emitOpError() << "needs a semaphore >= 0 and a count >= 1";
  return success();
}
LogicalResult CreditOp::verify() {
  if (getSem() < 0 || getCount() < 1)
    return emitOpError() << "needs a semaphore >= 0 and a count >= 1";
  return success();
}

//===----------------------------------------------------------------------===//
// Transfers
//===----------------------------------------------------------------------===//

LogicalResult CopyOp::verify() {
  if (getRun() < 1)
    return emitOpError() << "copies runs of fewer than one byte";
  if (getCounts().size() != getSrcStrides().size() ||
      getCounts().size() != getDstStrides().size())
    return emitOpError() << "needs one count, source and destination stride per dimension";
  for (int64_t c : getCounts())
    if (c < 1)
      return emitOpError() << "has a dimension of fewer than one run";
  return failure(failed(verifyAddress(*this, getDst(), "destination")) ||
                 failed(verifyAddress(*this, getSrc(), "source")));
}
/// The rules a gather and a scatter share: `indexed` names the side the
/// indices place ("gathered", "scattered").
template <typename IndexedCopyOp>
static LogicalResult verifyIndexedCopy(IndexedCopyOp op, StringRef indexed) {
  if (op.getRun() < 1)
    return op.emitOpError() << "copies runs of fewer than one byte";
  if (op.getCounts().empty() || op.getCounts().size() != op.getSrcStrides().size() ||
      op.getCounts().size() != op.getDstStrides().size())
    return op.emitOpError() << "needs an outermost (" << indexed
                            << ") dimension and one count, source and destination stride per "
                               "dimension";
  for (int64_t c : op.getCounts())
    if (c < 1)
      return op.emitOpError() << "has a dimension of fewer than one run";
  Type type = op.getIndexType();
  if (!type.isInteger(32) && !type.isInteger(64))
    return op.emitOpError() << "reads indices of " << type << "; only i32 and i64 are "
                            << indexed << " by";
  if (op.getBound() < 1)
    return op.emitOpError() << "has an index bound of " << op.getBound();
  return failure(failed(verifyAddress(op, op.getDst(), "destination")) ||
                 failed(verifyAddress(op, op.getSrc(), "source")) ||
                 failed(verifyAddress(op, op.getIndex(), "index")));
}
LogicalResult GatherOp::verify() { return verifyIndexedCopy(*this, "gathered"); }
LogicalResult ScatterOp::verify() { return verifyIndexedCopy(*this, "scattered"); }
LogicalResult PushOp::verify() {
  if (getBytes() < 1)
    return emitOpError() << "moves fewer than one byte";
  return verifyAddress(*this, getSrc(), "source");
}
LogicalResult PopOp::verify() {
  if (getBytes() < 1)
    return emitOpError() << "moves fewer than one byte";
  return verifyAddress(*this, getDst(), "destination");
}
LogicalResult VLoadOp::verify() { return verifyAddress(*this, getSrc(), "source"); }
LogicalResult VStoreOp::verify() { return verifyAddress(*this, getDst(), "destination"); }

//===----------------------------------------------------------------------===//
// Vector ops
//===----------------------------------------------------------------------===//

static VRegType vregOf(Value v) { return cast<VRegType>(v.getType()); }

LogicalResult CastOp::verify() {
  if (vregOf(getDst()).getCount() != vregOf(getSrc()).getCount())
    return emitOpError() << "converts " << vregOf(getSrc()).getCount() << " elements into a "
                         << vregOf(getDst()).getCount() << "-element register";
  return success();
}

LogicalResult BcastOp::verify() {
  if (vregOf(getDst()).getElementType() != vregOf(getSrc()).getElementType())
    return emitOpError() << "broadcasts between element types";
  if (getLane() < 0 || getLane() >= vregOf(getSrc()).getCount())
    return emitOpError() << "lane " << getLane() << " is outside the source";
  return success();
}

LogicalResult ReduceOp::verify() {
  if (vregOf(getDst()).getElementType() != vregOf(getSrc()).getElementType() ||
      vregOf(getDst()).getCount() != 1)
    return emitOpError() << "reduces into one element of the source's type";
  return success();
}

LogicalResult MmaOp::verify() {
  auto d = cast<VRegType>(getDst().getType()), a = cast<VRegType>(getLhs().getType()),
       b = cast<VRegType>(getRhs().getType());
  int64_t k = getDepth();
  if (a.getElementType() != b.getElementType())
    return emitOpError() << "multiplies operands of two element types";
  if (k <= 0 || a.getCount() % k || b.getCount() % k)
    return emitOpError() << "depth " << k << " does not divide the operands' "
                         << a.getCount() << " and " << b.getCount() << " elements";
  if (d.getCount() != (a.getCount() / k) * (b.getCount() / k))
    return emitOpError() << "accumulator of " << d.getCount() << " elements is not M x N = "
                         << a.getCount() / k << " x " << b.getCount() / k;
  return success();
}

LogicalResult SlideOp::verify() {
  if (vregOf(getDst()).getElementType() != vregOf(getSrc()).getElementType())
    return emitOpError() << "slides between element types";
  return success();
}

LogicalResult ExtOp::verify() {
  if (getLane() < 0)
    return emitOpError() << "has a negative lane or column";
  if (!getLaneFromTable() && getLane() >= vregOf(getLhs()).getCount())
    return emitOpError() << "lane " << getLane() << " is outside the registers";
  if (getLaneFromTable()) {
    ProgramOp program = programOf(*this);
    if (program && getLane() >= program.getTableColumns())
      return emitOpError() << "takes its lane from column t" << getLane()
                           << " of a table with " << program.getTableColumns()
                           << " column(s)";
  }
  return success();
}

LogicalResult ConcatOp::verify() {
  VRegType d = vregOf(getDst()), a = vregOf(getLhs()), b = vregOf(getRhs());
  if (d.getElementType() != a.getElementType() || a.getElementType() != b.getElementType() ||
      d.getCount() != a.getCount() + b.getCount())
    return emitOpError() << "needs one element type and a destination of both counts";
  return success();
}

LogicalResult SliceOp::verify() {
  VRegType d = vregOf(getDst()), a = vregOf(getSrc());
  if (d.getElementType() != a.getElementType() || getLane() < 0 ||
      getLane() + d.getCount() > a.getCount())
    return emitOpError() << "takes lanes " << getLane() << ".." << getLane() + d.getCount()
                         << " of a " << a.getCount() << "-element register";
  return success();
}
