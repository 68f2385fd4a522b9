//===- IntegerSetUtils.h - finite integer sets of KTIR ----------*- C++ -*-===//
//
// KTIR describes tiles, views and tile groups as bounded integer sets
// (affine_set<...>) and orders as affine maps. These helpers answer the
// questions consumers ask of them: evaluate an expression at a point, test
// membership, bind symbols, compute the exact integer bounding box, the tile
// shape under a permutation order, and enumerate points in order.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_KTDP_INTEGERSETUTILS_H
#define KTFLOW_KTDP_INTEGERSETUTILS_H

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace ktflow::ktdp {

/// Evaluates `expr` with the given dimension and symbol values, with MLIR's
/// semantics (floordiv/ceildiv round toward -inf/+inf, mod is non-negative).
/// std::nullopt on a division by a non-positive value, on a missing
/// dimension/symbol value, or on signed overflow.
std::optional<int64_t> evaluateAffineExpr(mlir::AffineExpr expr,
                                          llvm::ArrayRef<int64_t> dims,
                                          llvm::ArrayRef<int64_t> symbols);

/// Evaluates every result of `map`; std::nullopt as for evaluateAffineExpr.
std::optional<llvm::SmallVector<int64_t>>
evaluateAffineMap(mlir::AffineMap map, llvm::ArrayRef<int64_t> dims,
                  llvm::ArrayRef<int64_t> symbols);

/// Whether `point` satisfies every constraint of `set` with the symbols
/// bound; std::nullopt when a constraint cannot be evaluated.
std::optional<bool> containsPoint(mlir::IntegerSet set,
                                  llvm::ArrayRef<int64_t> point,
                                  llvm::ArrayRef<int64_t> symbols);

/// `set` with its symbols replaced by constants (symbols.size() must equal
/// set.getNumSymbols()); the result has no symbols.
mlir::IntegerSet bindSymbols(mlir::IntegerSet set,
                             llvm::ArrayRef<int64_t> symbols);

/// The exact integer bounding box of a set without symbols.
struct BoundingBox {
  enum class Status {
    Bounded,   ///< lower/upper are the per-dimension min/max of the points.
    Empty,     ///< the set has no integer point.
    Unbounded, ///< dimension `unboundedDim` has no finite min or max.
    Symbolic,  ///< the set still has symbols; bind them first.
    NotAffine, ///< a constraint is semi-affine (e.g. mod by a symbol).
  };
  Status status = Status::Empty;
  unsigned unboundedDim = 0;
  llvm::SmallVector<int64_t> lower, upper;

  bool isBounded() const { return status == Status::Bounded; }
  /// upper - lower + 1 per dimension; all zeros for an empty set.
  llvm::SmallVector<int64_t> getExtents() const;
};

/// Computes the bounding box of `set` after binding `symbols` (which must
/// number set.getNumSymbols(); pass {} for a set without symbols).
BoundingBox computeBoundingBox(mlir::IntegerSet set,
                               llvm::ArrayRef<int64_t> symbols = {});

/// Whether `set` is a box: every constraint bounds one dimension (or none),
/// so its points are exactly those of its bounding box.
bool isBox(mlir::IntegerSet set);

/// If `order` is a permutation of its dimensions (square, each result a
/// distinct dimension), returns perm with result i = d_perm[i].
std::optional<llvm::SmallVector<unsigned>>
getPermutation(mlir::AffineMap order);

/// Shape and lower corner of `Q = { order(p) : p in set }` (spec §5.4) for a
/// permutation order: shape[i] = extent of set dimension perm[i] and the
/// tile position of point p is order(p) - qlo. For an empty set, the shape is
/// all zeros. `box.status` tells why there is no shape.
struct TileShape {
  BoundingBox box; ///< bounding box of the set itself (not permuted)
  llvm::SmallVector<int64_t> shape, qlo;
};
TileShape computeTileShape(mlir::IntegerSet set, llvm::ArrayRef<unsigned> perm,
                           llvm::ArrayRef<int64_t> symbols = {});

/// Calls `fn` for every integer point of `set` (symbols bound), in
/// lexicographic order of the dimensions, rightmost innermost. Fails when the
/// set is not bounded after binding. Stops early if `fn` returns false.
mlir::LogicalResult
forEachPoint(mlir::IntegerSet set, llvm::ArrayRef<int64_t> symbols,
             llvm::function_ref<bool(llvm::ArrayRef<int64_t>)> fn);

/// Enumerates the points `p` of an access tile's set in the order of spec
/// §5.4: lexicographic in `order(p)` for the permutation order `perm`. `fn`
/// receives the set point `p` and its tile position `order(p) - qlo`. Fails
/// when the set is not bounded after binding; stops early if `fn` returns
/// false.
mlir::LogicalResult forEachTilePoint(
    mlir::IntegerSet set, llvm::ArrayRef<unsigned> perm,
    llvm::ArrayRef<int64_t> symbols,
    llvm::function_ref<bool(llvm::ArrayRef<int64_t> point,
                            llvm::ArrayRef<int64_t> position)>
        fn);

} // namespace ktflow::ktdp

#endif // KTFLOW_KTDP_INTEGERSETUTILS_H
