//===- Views.h - memory views, access tiles, load and store -----*- C++ -*-===//
//
// Run-time forms of the ktdp addressing values (ktir.md §5.2-5.7) and the
// data movement through them:
//   * MemoryView: a partial map from global coordinates to element
//     addresses (offset, strides, lower corner lo, coordinate set, extent);
//   * View: one MemoryView, or the partitions of a distributed view;
//   * AccessTile: an ordered set of base coordinates with tile positions.
//     Box tiles with a permutation order are kept symbolic (anchor, box,
//     permutation) so that loads and stores of whole boxes run as strided
//     copies; other tiles (holes, indirect tiles) are materialised as a
//     list of (position, coordinate) points.
// Errors (access outside allocated memory, unspecified memory space) are
// thrown as InterpError; masked coordinates load 0 and store nothing.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_INTERP_VIEWS_H
#define KTFLOW_INTERP_VIEWS_H

#include "ktflow/Interp/BoundSet.h"
#include "ktflow/Interp/Memory.h"
#include "ktflow/Interp/Value.h"

#include <memory>
#include <string>

namespace ktflow::interp {

/// A run-time error; the executor adds the op location and the tile.
struct InterpError {
  std::string message;
};

enum class SpaceKind { Global, Local, Unspecified };

struct MemoryView {
  SpaceKind space = SpaceKind::Global;
  /// For Local: the owning tile's linear id, or -1 for the executing tile.
  int64_t ctId = -1;
  ElemKind kind = ElemKind::F16;
  /// Element index of the view's first element.
  Elements offset;
  llvm::SmallVector<int64_t, 4> sizes, strides, lo;
  BoundSet coords;

  explicit MemoryView(BoundSet coords) : coords(std::move(coords)) {}
  unsigned rank() const { return sizes.size(); }
  bool isValid(llvm::ArrayRef<int64_t> c) const;
  /// Element index of a valid coordinate.
  Elements elementIndex(llvm::ArrayRef<int64_t> c) const;
};

struct View {
  ElemKind kind = ElemKind::F16;
  unsigned rank = 0;
  llvm::SmallVector<std::shared_ptr<const MemoryView>, 2> parts;
  /// The first partition that accepts `c`, or null when `c` is masked.
  const MemoryView *resolve(llvm::ArrayRef<int64_t> c) const;
};
using ViewPtr = std::shared_ptr<const View>;

struct AccessTile {
  ViewPtr view;          // memref base, or
  TensorPtr tensorBase;  // tensor base (load only)
  llvm::SmallVector<int64_t, 4> shape;

  /// Box form: the set is the box [boxLo, boxHi] (anchor already added,
  /// i.e. base coordinates), and tile position i runs along base dim
  /// perm[i].
  bool boxForm = false;
  llvm::SmallVector<int64_t, 4> boxLo, boxHi;
  llvm::SmallVector<unsigned, 4> perm;

  /// Materialised form: points in enumeration order.
  std::vector<int64_t> positions;   // linear tile position per point
  std::vector<int64_t> coords;      // baseRank coordinates per point
  std::vector<uint8_t> masked;      // point masked (e.g. invalid index)

  unsigned baseRank() const;
  int64_t numPositions() const;
  int64_t numPoints() const;
};
using TilePtr = std::shared_ptr<const AccessTile>;

/// Where loads and stores go.
struct MemoryContext {
  GlobalMemory &global;
  Scratchpads &pads;
  /// The executing tile's linear id.
  int64_t tile = 0;
};

/// ktdp.load: gathers the tile into a tensor of kind `kind`.
TensorPtr loadTile(const AccessTile &tile, ElemKind kind, MemoryContext &mem);
/// ktdp.store: scatters `data` through the tile.
void storeTile(const AccessTile &tile, const Tensor &data, MemoryContext &mem);

/// Reads one element (for index views of indirect tiles); false if masked.
bool readElement(const View &view, llvm::ArrayRef<int64_t> coord,
                 MemoryContext &mem, Scalar &out);

std::string formatCoord(llvm::ArrayRef<int64_t> c);

} // namespace ktflow::interp

#endif // KTFLOW_INTERP_VIEWS_H
