//===- MemoryViewOps.cpp - construct_memory_view and its distributed form -===//
//
// Verifiers for the two view constructors (spec §5.2, §5.3) and the
// accessors consumers use to read a view's layout. The static/dynamic size
// and stride lists follow upstream memref conventions (a DenseI64ArrayAttr
// with ShapedType::kDynamic where an SSA operand stands).
//
//===----------------------------------------------------------------------===//
#include "VerifyUtils.h"
#include "ktflow/KTDP/IntegerSetUtils.h"
#include "ktflow/KTDP/KTDPOps.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace ktflow::ktdp;
using namespace ktflow::ktdp::detail;

/// `sizes: [16, %m]`: the label, a colon and upstream's mixed
/// static/dynamic index list. A custom directive rather than literals so that
/// the printer writes no space before the colon, as KTIR programs do.
ParseResult ktflow::ktdp::detail::parseLabeledIndexList(
    OpAsmParser &parser, StringRef label,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &values,
    DenseI64ArrayAttr &integers) {
  if (parser.parseKeyword(label) || parser.parseColon())
    return failure();
  return parseDynamicIndexList(parser, values, integers);
}

void ktflow::ktdp::detail::printLabeledIndexList(OpAsmPrinter &printer,
                                                 Operation *op, StringRef label,
                                                 OperandRange values,
                                                 ArrayRef<int64_t> integers) {
  printer << label << ": ";
  printDynamicIndexList(printer, op, values, integers);
}

SmallVector<OpFoldResult> ConstructMemoryViewOp::getMixedSizes() {
  Builder builder(getContext());
  return getMixedValues(getStaticSizes(), getSizes(), builder);
}

SmallVector<OpFoldResult> ConstructMemoryViewOp::getMixedStrides() {
  Builder builder(getContext());
  return getMixedValues(getStaticStrides(), getStrides(), builder);
}

static size_t countDynamic(ArrayRef<int64_t> list) {
  return llvm::count_if(list, ShapedType::isDynamic);
}

LogicalResult ConstructMemoryViewOp::verify() {
  ArrayRef<int64_t> sizes = getStaticSizes();
  ArrayRef<int64_t> strides = getStaticStrides();
  // Generic-form input can disagree with itself; check before indexing.
  if (countDynamic(sizes) != getSizes().size() ||
      countDynamic(strides) != getStrides().size())
    return emitOpError() << "static_sizes/static_strides have "
                         << countDynamic(sizes) << "/" << countDynamic(strides)
                         << " dynamic entries but " << getSizes().size() << "/"
                         << getStrides().size() << " SSA operands were given";

  // Rule 1.
  if (sizes.size() != strides.size())
    return emitOpError() << "sizes has " << sizes.size()
                         << " entries but strides has " << strides.size()
                         << " (spec §5.2 rule 1)";
  // Rule 2.
  MemRefType type = getType();
  unsigned rank = sizes.size();
  if (type.getRank() != int64_t(rank))
    return emitOpError() << "result memref has rank " << type.getRank()
                         << " but sizes/strides describe rank " << rank
                         << " (spec §5.2 rule 2)";
  // Rule 3. An SSA size opposite a static dimension is a run-time check,
  // unless the SSA value is a known constant.
  SmallVector<OpFoldResult> mixedSizes = getMixedSizes();
  for (unsigned k = 0; k < rank; ++k) {
    int64_t dim = type.getDimSize(k);
    if (ShapedType::isDynamic(sizes[k])) {
      std::optional<int64_t> known = getConstantIntValue(mixedSizes[k]);
      if (known && !ShapedType::isDynamic(dim) && *known != dim)
        return emitOpError() << "size operand of dimension " << k
                             << " is the constant " << *known
                             << " but the result's dimension is " << dim
                             << " (spec §5.2 rule 3)";
      continue;
    }
    if (ShapedType::isDynamic(dim))
      return emitOpError() << "result dimension " << k
                           << " is '?' and needs an SSA size, got the "
                              "integer "
                           << sizes[k] << " (spec §5.2 rule 3)";
    if (dim != sizes[k])
      return emitOpError() << "size " << sizes[k] << " of dimension " << k
                           << " differs from the result's dimension " << dim
                           << " (spec §5.2 rule 3)";
  }
  // Rule 4 and §3.5: memory space, also in the memref's memory-space slot.
  MemorySpaceAttr space = getMemorySpace();
  if (failed(verifyCtIdAgainstGrid(*this, space)))
    return failure();
  if (Attribute slot = type.getMemorySpace()) {
    if (slot != space)
      return emitOpError() << "result memref memory space " << slot
                           << " disagrees with memory_space " << space
                           << " (spec §3.5)";
  }
  if (!type.getLayout().isIdentity())
    return emitOpError() << "memref layout " << type.getLayout()
                         << " is not supported: the op's strides give the "
                            "layout (spec §3.5)";
  // Rule 7.
  for (unsigned k = 0; k < rank; ++k)
    if (!ShapedType::isDynamic(strides[k]) && strides[k] < 0)
      return emitOpError() << "stride " << strides[k] << " of dimension " << k
                           << " is negative; negative strides are not "
                              "supported (spec §5.2 rule 7)";

  std::optional<IntegerSet> set = getCoordinateSet();
  // Warnings go to the location, not the op: an op-attached warning prints
  // the op, printing verifies it, and verifying warns again — unbounded
  // recursion whenever the context prints ops on diagnostics (found by
  // fuzz/ktir-fuzzer).
  if (!set) {
    mlir::emitWarning(getLoc()) << "'" << getOperationName() << "' op has no coordinate_set; it is treated as the box "
                     "[0, size_k) (spec §5.2 rule 4)";
    return success();
  }
  // Rule 5.
  if (set->getNumDims() != rank)
    return emitOpError() << "coordinate_set has " << set->getNumDims()
                         << " dimensions but the view has rank " << rank
                         << " (spec §5.2 rule 5)";
  // Rule 6.
  if (set->getNumSymbols() > getSizes().size())
    return emitOpError() << "coordinate_set has " << set->getNumSymbols()
                         << " symbols but only " << getSizes().size()
                         << " SSA size entries bind them (spec §5.2 rule 6)";
  // Rule 8 and §4.2: check the set's extent when it has no symbols.
  if (set->getNumSymbols() != 0)
    return success();
  BoundingBox box = computeBoundingBox(*set);
  if (box.status == BoundingBox::Status::Unbounded)
    return emitOpError() << "coordinate_set is unbounded in dimension "
                         << box.unboundedDim << " (spec §4.2)";
  if (!box.isBounded())
    return success();
  SmallVector<int64_t> extents = box.getExtents();
  for (unsigned k = 0; k < rank; ++k)
    if (!ShapedType::isDynamic(sizes[k]) && extents[k] > sizes[k]) {
      mlir::emitWarning(getLoc()) << "'" << getOperationName() << "' op coordinate_set spans "
                                  << extents[k]
                    << " coordinates in dimension " << k
                    << ", more than the size " << sizes[k]
                    << "; the extra points are masked (spec §5.2 rule 8)";
      break;
    }
  return success();
}

ConstructMemoryViewOp
ConstructDistributedMemoryViewOp::getPartitionView(unsigned i) {
  return getPartitions()[i].getDefiningOp<ConstructMemoryViewOp>();
}

LogicalResult ConstructDistributedMemoryViewOp::verify() {
  if (getPartitions().empty())
    return emitOpError() << "needs at least one partition (spec §5.3)";
  MemRefType type = getType();
  for (auto [i, partition] : llvm::enumerate(getPartitions())) {
    auto partType = cast<MemRefType>(partition.getType());
    if (partType.getElementType() != type.getElementType())
      return emitOpError() << "partition " << i << " has element type "
                           << partType.getElementType()
                           << " but the result has "
                           << type.getElementType() << " (spec §5.3)";
    if (partType.getRank() != type.getRank())
      return emitOpError() << "partition " << i << " has rank "
                           << partType.getRank() << " but the result has rank "
                           << type.getRank() << " (spec §5.3)";
    Operation *def = partition.getDefiningOp();
    if (def && isa<ConstructDistributedMemoryViewOp>(def))
      return emitOpError() << "partition " << i
                           << " is itself a distributed view; nesting "
                              "distributed views is not supported (spec §5.3)";
    if (!def || !isa<ConstructMemoryViewOp>(def))
      return emitOpError() << "partition " << i
                           << " must be produced by "
                              "ktdp.construct_memory_view (spec §5.3)";
  }
  return success();
}
