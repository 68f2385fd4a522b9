//===- RandomKernel.h - random kernels within the scheduler's coverage -*- C++ -*-===//
//
// `randomKernel(seed, options)` draws a KernelSpec from a seed: the same seed
// and options give the same kernel on every platform (the generator uses its
// own integer PRNG, not <random>'s implementation-defined distributions).
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_GEN_RANDOMKERNEL_H
#define KTFLOW_GEN_RANDOMKERNEL_H

#include "ktflow/Gen/KernelSpec.h"

namespace ktflow::gen {

struct RandomKernelOptions {
  /// Upper bound on the number of grid tiles (product of the grid). The
  /// default fits the smallest shipped description (`sample`, two cores).
  int64_t maxTiles = 2;
  /// Upper bounds of the kernel shape (rows for rank 2, elements for rank 1).
  int64_t maxRows = 96;
  int64_t maxCols = 320;
  /// Upper bound on elementwise operations in the expression.
  unsigned maxOps = 6;
  /// Also draw the math ops (sqrt, rsqrt, log, tanh, erf, pow, fma,
  /// cmpf + select). Off by default, so a seed names the same kernel as
  /// before they existed (the tests and regressions keyed on seeds).
  bool math = false;
  /// Also draw the loop forms: launch-value extents bounding the loops, an
  /// inner accumulating loop (reductions carried as iter_args), a column-
  /// block loop nested in a row loop, a row loop with a clamped bound. Off
  /// by default for the same reason as `math`; drawn from a stream of their
  /// own, so the rest of a seed's kernel is the one it names without them.
  bool loops = false;
  /// Draw fused multi-phase bodies instead (rank 2, rows reduced): one to
  /// three row reductions, each reading values of the phases before it,
  /// per-row chains between them (a per-row value computed from another:
  /// a mean, plus an epsilon, under rsqrt), transcendental ops, and mixed
  /// precision (f16 data, f32 statistics, most of the time); the rows of
  /// the final phase are stored. `math` widens the op set as elsewhere.
  bool phases = false;
  /// Integer data instead: i32 buffers and compute, the wrapping integer
  /// ops (addi, subi, muli, maxsi, minsi, a negation as 0 - x, relu as
  /// maxsi with 0, clamps, signed cmpi + select) and integer constants; no
  /// reductions (integer combiners are outside the coverage). Excludes
  /// `math`, `loops` and `phases`.
  bool ints = false;
};

/// Inputs are assumed to be of magnitude at most this (the interpreter's
/// random inputs are standard normal); intermediate values whose bound grows
/// past what the compute type holds comfortably are clamped.
constexpr double kAssumedInputMagnitude = 8.0;

KernelSpec randomKernel(uint64_t seed, const RandomKernelOptions &options);

} // namespace ktflow::gen

#endif // KTFLOW_GEN_RANDOMKERNEL_H
