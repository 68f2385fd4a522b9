//===- RandomContents.h - seeded contents of unbound buffers ----*- C++ -*-===//
//
// The values the interpreter puts in a buffer that no --arg binds, shared
// with `ktflow sim`, so a bundle simulated with --seed N starts from the
// bytes `ktflow interp --seed N` and `ktflow run --seed N` use. One stream
// serves every buffer of a launch in order (a seed is a launch, not a
// buffer): floats are standard normals (Box-Muller, the second sample of a
// pair kept for the next element, across buffers too), integers uniform in
// [0, 16), i1 a fair bit.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_INTERP_RANDOMCONTENTS_H
#define KTFLOW_INTERP_RANDOMCONTENTS_H

#include "ktflow/Interp/Value.h"

#include <cstdint>
#include <optional>

namespace ktflow::interp {

class RandomContents {
public:
  explicit RandomContents(uint64_t seed);

  /// Writes the next `elements` values of element kind `kind` to `out`
  /// (little endian, `elements * elementSize(kind)` bytes).
  void fill(ElemKind kind, int64_t elements, uint8_t *out);

private:
  /// splitmix64: portable, so the same seed gives the same data everywhere.
  uint64_t next();
  double uniform();
  double normal();

  uint64_t state;
  std::optional<double> spare;
};

} // namespace ktflow::interp

#endif // KTFLOW_INTERP_RANDOMCONTENTS_H
