//===- KTDPOps.cpp - ktdp operations: small ops and shared helpers --------===//
//
// Holds the generated op definitions and the verifiers of the small ops
// (tile id, load, store, runtime_arg_extract), plus the kernel-grid helper
// used by every rule that depends on the tile count. The view, access-tile
// and inter-tile ops live in their own files.
//
//===----------------------------------------------------------------------===//
#include "ktflow/KTDP/KTDPOps.h"
#include "VerifyUtils.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace ktflow::ktdp;
using namespace ktflow::ktdp::detail;

using ktflow::ktdp::detail::parseFutureType;
using ktflow::ktdp::detail::parseLabeledIndexList;
using ktflow::ktdp::detail::printFutureType;
using ktflow::ktdp::detail::printLabeledIndexList;

#define GET_OP_CLASSES
#include "ktflow/KTDP/KTDPOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Kernel grid
//===----------------------------------------------------------------------===//

/// Reads a grid attribute; the error message (if any) goes to `why`.
static std::optional<SmallVector<int64_t, 3>> readGrid(Attribute attr,
                                                       std::string &why) {
  SmallVector<int64_t, 3> grid;
  if (auto dense = dyn_cast<DenseI64ArrayAttr>(attr)) {
    llvm::append_range(grid, dense.asArrayRef());
  } else if (auto array = dyn_cast<ArrayAttr>(attr)) {
    for (Attribute element : array) {
      auto integer = dyn_cast<IntegerAttr>(element);
      if (!integer) {
        why = "grid entries must be integers";
        return std::nullopt;
      }
      grid.push_back(integer.getValue().getSExtValue());
    }
  } else {
    why = "grid must be a list of integers or array<i64: ...>";
    return std::nullopt;
  }
  if (grid.empty() || grid.size() > 3) {
    why = "grid must have 1 to 3 entries, got " + std::to_string(grid.size());
    return std::nullopt;
  }
  for (int64_t extent : grid)
    if (extent <= 0) {
      why = "grid entries must be positive, got " + std::to_string(extent);
      return std::nullopt;
    }
  grid.resize(3, 1);
  return grid;
}

std::optional<SmallVector<int64_t, 3>>
ktflow::ktdp::getKernelGrid(Operation *op) {
  auto func = op->getParentOfType<FunctionOpInterface>();
  if (!func)
    return std::nullopt;
  Attribute attr = func->getAttr("grid");
  if (!attr)
    return std::nullopt;
  std::string why;
  return readGrid(attr, why);
}

LogicalResult ktflow::ktdp::verifyKernelGrid(Operation *funcOp) {
  Attribute attr = funcOp->getAttr("grid");
  if (!attr)
    return success();
  std::string why;
  if (!readGrid(attr, why))
    return funcOp->emitError() << why << " (spec §1.3)";
  return success();
}

/// Number of tiles of the enclosing kernel's grid, if it has one.
std::optional<int64_t> ktflow::ktdp::detail::getTileCount(Operation *op) {
  std::optional<SmallVector<int64_t, 3>> grid = getKernelGrid(op);
  if (!grid)
    return std::nullopt;
  return (*grid)[0] * (*grid)[1] * (*grid)[2];
}

/// Verifies the grid-dependent rule of §4.1: ct_id < tile count.
LogicalResult
ktflow::ktdp::detail::verifyCtIdAgainstGrid(Operation *op,
                                            MemorySpaceAttr space) {
  if (!space || !space.getCtId())
    return success();
  std::optional<int64_t> tiles = getTileCount(op);
  if (tiles && *space.getCtId() >= *tiles)
    return op->emitOpError() << "memory space ct_id = " << *space.getCtId()
                             << " is not less than the number of tiles ("
                             << *tiles << ") of the enclosing grid (spec §4.1)";
  return success();
}

Value ktflow::ktdp::getAccessTileBase(Value tile) {
  if (auto op = tile.getDefiningOp<ConstructAccessTileOp>())
    return op.getBase();
  if (auto op = tile.getDefiningOp<ConstructIndirectAccessTileOp>())
    return op.getBase();
  return {};
}

//===----------------------------------------------------------------------===//
// get_compute_tile_id
//===----------------------------------------------------------------------===//

LogicalResult GetComputeTileIdOp::verify() {
  size_t k = getCoords().size();
  if (k < 1 || k > 3)
    return emitOpError() << "must have 1 to 3 results (one per grid "
                            "dimension), got "
                         << k << " (spec §5.1)";
  return success();
}

//===----------------------------------------------------------------------===//
// load / store
//===----------------------------------------------------------------------===//

/// Prints a shape as 8x?x64.
std::string ktflow::ktdp::detail::shapeString(ArrayRef<int64_t> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(
      shape, os,
      [&](int64_t dim) {
        if (ShapedType::isDynamic(dim))
          os << '?';
        else
          os << dim;
      },
      "x");
  if (shape.empty())
    os << "(rank 0)";
  return text;
}

/// The shape and element-type rules shared by load and store (§5.6, §5.7).
static LogicalResult verifyDataMatchesTile(Operation *op, StringRef what,
                                           RankedTensorType data,
                                           AccessTileType tile,
                                           Value tileValue) {
  if (data.getShape() != tile.getShape())
    return op->emitOpError()
           << what << " shape " << shapeString(data.getShape())
           << " differs from the access tile's shape "
           << shapeString(tile.getShape()) << " (spec §"
           << (what == "result" ? "5.6" : "5.7") << ")";
  if (Value base = getAccessTileBase(tileValue)) {
    Type baseElement = cast<ShapedType>(base.getType()).getElementType();
    if (baseElement != data.getElementType())
      return op->emitOpError()
             << what << " element type " << data.getElementType()
             << " differs from the element type " << baseElement
             << " of the tile's base view (spec §"
             << (what == "result" ? "5.6" : "5.7") << ")";
  }
  return success();
}

LogicalResult LoadOp::verify() {
  return verifyDataMatchesTile(*this, "result", getResult().getType(),
                               getTile().getType(), getTile());
}

LogicalResult StoreOp::verify() {
  if (failed(verifyDataMatchesTile(*this, "stored value", getValue().getType(),
                                   getTile().getType(), getTile())))
    return failure();
  Value base = getAccessTileBase(getTile());
  if (base && isa<RankedTensorType>(base.getType()))
    return emitOpError() << "store through an access tile over a tensor "
                            "base is not supported; tensor bases are "
                            "load-only (spec §5.4)";
  return success();
}

//===----------------------------------------------------------------------===//
// runtime_arg_extract
//===----------------------------------------------------------------------===//

LogicalResult RuntimeArgExtractOp::verify() {
  RuntimeArgType input = getInput().getType();
  Type resultType = getResult().getType();
  switch (getKind()) {
  case RuntimeArgExtractKind::Value:
    if (resultType != input.getValueType())
      return emitOpError() << "'value' result type " << resultType
                           << " differs from the runtime_arg's underlying "
                              "type "
                           << input.getValueType() << " (spec §5.8)";
    return success();
  case RuntimeArgExtractKind::Granularity:
  case RuntimeArgExtractKind::Upperbound: {
    bool isGranularity = getKind() == RuntimeArgExtractKind::Granularity;
    StringRef name = isGranularity ? "granularity" : "upperbound";
    if (!(isGranularity ? input.getGranularity() : input.getUpperbound()))
      return emitOpError() << "extracts '" << name << "' but the type "
                           << input << " has no " << name << " (spec §5.8)";
    if (!resultType.isIndex())
      return emitOpError() << "'" << name << "' result must be index, got "
                           << resultType << " (spec §5.8)";
    return success();
  }
  }
  return success();
}
