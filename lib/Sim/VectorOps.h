//===- VectorOps.h - values of vector registers and their arithmetic -*- C++ -*-===//
//
// A vector register holds `count` elements of one element type: float
// types as floats rounded to the type after every operation (f16/bf16 the
// way the hardware rounds, round to nearest even), integer types (i8, i32,
// i64) as int64 lanes wrapped to the type's width and sign-extended, as the
// interpreter keeps them (ktir.md "Integer semantics": i32 and i64 wrap).
// With `compute` false only the type and count are tracked (timing-only
// runs).
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_LIB_SIM_VECTOROPS_H
#define KTFLOW_LIB_SIM_VECTOROPS_H

#include "ktflow/DeviceCode/Program.h"
#include "mlir/IR/Types.h"

#include <vector>

namespace ktflow::sim {

struct VectorValue {
  dc::ElemType type = dc::ElemType::F32;
  int64_t count = 0; ///< 0: the register holds nothing yet.
  std::vector<float> values; ///< The lanes of a float type.
  std::vector<int64_t> ints; ///< The lanes of an integer type (wrapped).
};

/// Whether register type `t` is the MLIR element type `type` (the keys of a
/// compute unit's `lanes`).
bool sameElementType(dc::ElemType t, mlir::Type type);

/// `v` wrapped to the width of integer type `t` (two's complement),
/// sign-extended.
int64_t wrapToType(dc::ElemType t, int64_t v);

/// Whether the vector instruction `op` has a meaning on lanes of integer
/// type (add, sub, mul, max, min, neg, cmp, select, cast and the moves);
/// the others (div, pow, fma, the transcendentals) are float-only.
bool hasIntegerForm(dc::Opcode op);

inline bool sameShape(const VectorValue &a, const VectorValue &b) {
  return a.type == b.type && a.count == b.count;
}

/// Decodes `v.count` elements of `v.type` from little-endian bytes.
void loadVector(VectorValue &v, const uint8_t *bytes);
/// Encodes the elements as little-endian bytes.
void storeVector(const VectorValue &v, uint8_t *bytes);

VectorValue splat(dc::ElemType type, int64_t count, double value, bool compute);
/// `count` copies of lane `lane` of `a` (the caller checks the range).
VectorValue broadcastLane(const VectorValue &a, int64_t lane, int64_t count, bool compute);
/// `d`'s lanes moved down by one, `a`'s lane 0 last (`slide`).
VectorValue slideVector(const VectorValue &d, const VectorValue &a, bool compute);
VectorValue castVector(const VectorValue &a, dc::ElemType to, bool compute);
VectorValue reduceVector(const VectorValue &a, dc::Combiner c, bool compute);
VectorValue selectVector(const VectorValue &mask, const VectorValue &a,
                         const VectorValue &b, bool compute);
VectorValue compareVector(dc::CmpPredicate p, const VectorValue &a, const VectorValue &b,
                          bool compute);
VectorValue binaryVector(dc::Opcode op, const VectorValue &a, const VectorValue &b,
                         bool compute);
VectorValue unaryVector(dc::Opcode op, const VectorValue &a, bool compute);
/// `fma`: a * b + c, one rounding (operands of one shape).
VectorValue ternaryVector(dc::Opcode op, const VectorValue &a, const VectorValue &b,
                          const VectorValue &c, bool compute);
/// The a.count lanes of the pair a:b from `lane` on (0 <= lane < a.count;
/// a and b of the same shape).
VectorValue extractVector(const VectorValue &a, const VectorValue &b, int64_t lane,
                          bool compute);
/// a's elements followed by b's (of a's type); values move unrounded.
VectorValue concatVectors(const VectorValue &a, const VectorValue &b, bool compute);
/// `count` elements of a from `lane` on (the caller checks the range).
VectorValue sliceVector(const VectorValue &a, int64_t lane, int64_t count, bool compute);

} // namespace ktflow::sim

#endif // KTFLOW_LIB_SIM_VECTOROPS_H
