//===- VerifyUtils.h - helpers shared by the ktdp verifiers -----*- C++ -*-===//
#ifndef KTFLOW_LIB_KTDP_VERIFYUTILS_H
#define KTFLOW_LIB_KTDP_VERIFYUTILS_H

#include "ktflow/KTDP/KTDPOps.h"

#include <string>

namespace ktflow::ktdp::detail {

/// Prints a shape as `8x?x64` (or `(rank 0)`).
std::string shapeString(llvm::ArrayRef<int64_t> shape);

/// The grid-dependent rule of §4.1: ct_id < number of tiles.
mlir::LogicalResult verifyCtIdAgainstGrid(mlir::Operation *op,
                                          MemorySpaceAttr space);

/// Number of tiles of the enclosing kernel's grid, if it has one.
std::optional<int64_t> getTileCount(mlir::Operation *op);

/// The tile-shape rule shared by both access-tile constructors (§5.4 rule 8,
/// §5.5 rule 6): when the set has no symbols, the result shape must equal
/// the extent of order(set); an unbounded set is an error. `ruleName` names
/// the rule in the diagnostic.
mlir::LogicalResult verifyTileShape(mlir::Operation *op, llvm::StringRef setName,
                                    mlir::IntegerSet set,
                                    llvm::ArrayRef<unsigned> perm,
                                    AccessTileType resultType,
                                    llvm::StringRef ruleName);

/// Custom directive `custom<LabeledIndexList>("label", $values, $integers)`
/// of construct_memory_view: `label: [entry, ...]`.
mlir::ParseResult parseLabeledIndexList(
    mlir::OpAsmParser &parser, llvm::StringRef label,
    llvm::SmallVectorImpl<mlir::OpAsmParser::UnresolvedOperand> &values,
    mlir::DenseI64ArrayAttr &integers);
void printLabeledIndexList(mlir::OpAsmPrinter &printer, mlir::Operation *op,
                           llvm::StringRef label, mlir::OperandRange values,
                           llvm::ArrayRef<int64_t> integers);

/// Custom directive `custom<FutureType>(type($future))`: a tile_future type
/// in the full or the stripped form. Unlike the generic type parser, it
/// accepts the full form with an inline set containing `>=` (see
/// InterTileOps.cpp). Prints the stripped form.
mlir::ParseResult parseFutureType(mlir::OpAsmParser &parser, mlir::Type &type);
void printFutureType(mlir::OpAsmPrinter &printer, mlir::Operation *op,
                     mlir::Type type);

} // namespace ktflow::ktdp::detail

#endif // KTFLOW_LIB_KTDP_VERIFYUTILS_H
