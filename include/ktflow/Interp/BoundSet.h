//===- BoundSet.h - enumerating bounded integer sets ------------*- C++ -*-===//
//
// KTIR describes view coordinates, access tiles and variable spaces with
// MLIR integer sets whose symbols are bound at run time (ktir.md §4.2). A
// BoundSet is such a set with its symbols substituted: it knows its
// bounding box and tests membership. Pure boxes (every constraint bounds a
// single dimension) are recognised so that enumeration and membership need
// no per-point constraint evaluation.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_INTERP_BOUNDSET_H
#define KTFLOW_INTERP_BOUNDSET_H

#include "mlir/IR/IntegerSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace ktflow::interp {

class BoundSet {
public:
  /// Binds `symbols` (one per set symbol) and computes the bounding box.
  /// Returns nothing and sets `error` when the set is unbounded.
  static std::optional<BoundSet> bind(mlir::IntegerSet set,
                                      llvm::ArrayRef<int64_t> symbols,
                                      std::string &error);

  unsigned rank() const { return numDims; }
  /// True when the set is exactly its bounding box.
  bool isBox() const { return box; }
  bool isEmpty() const { return empty; }
  /// Inclusive bounding box (tight per dimension for boxes; for other sets
  /// an over-approximation, see exactCorners).
  llvm::ArrayRef<int64_t> lower() const { return lo; }
  llvm::ArrayRef<int64_t> upper() const { return hi; }

  bool contains(llvm::ArrayRef<int64_t> point) const;
  /// Calls `fn` for every point of the set. Dimension `order[0]` varies
  /// slowest, `order.back()` fastest (the identity order is lexicographic).
  void forEach(llvm::ArrayRef<unsigned> order,
               llvm::function_ref<void(llvm::ArrayRef<int64_t>)> fn) const;
  /// Per-dimension min and max over the actual points (enumerates unless the
  /// set is a box). False when the set is empty.
  bool exactCorners(llvm::SmallVectorImpl<int64_t> &lower,
                    llvm::SmallVectorImpl<int64_t> &upper) const;
  /// Number of points in the bounding box.
  int64_t boxVolume() const;

private:
  /// sum(coeffs[d] * x[d]) + constant (>= 0, or == 0 when `equality`).
  struct Linear {
    llvm::SmallVector<int64_t, 4> coeffs;
    int64_t constant = 0;
    bool equality = false;
  };
  unsigned numDims = 0;
  bool box = true;
  bool empty = false;
  llvm::SmallVector<int64_t, 4> lo, hi;
  llvm::SmallVector<Linear, 8> linear;
  /// Constraints with floordiv/ceildiv/mod, evaluated per point.
  llvm::SmallVector<std::pair<mlir::AffineExpr, bool>, 2> nonlinear;
  llvm::SmallVector<int64_t, 2> symbolValues;
};

/// Evaluates an affine expression at integer dims and symbols (floordiv,
/// ceildiv and mod with MLIR's semantics).
int64_t evaluateAffine(mlir::AffineExpr expr, llvm::ArrayRef<int64_t> dims,
                       llvm::ArrayRef<int64_t> symbols);

} // namespace ktflow::interp

#endif // KTFLOW_INTERP_BOUNDSET_H
