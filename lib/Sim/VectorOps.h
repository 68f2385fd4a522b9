//===- VectorOps.h - values of vector registers and their arithmetic -*- C++ -*-===//
//
// A vector register holds `count` elements of one element type, kept as
// floats and rounded to the type after every operation (f16/bf16 the way
// the hardware rounds, round to nearest even). With `compute` false only
// the type and count are tracked (timing-only runs).
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_LIB_SIM_VECTOROPS_H
#define KTFLOW_LIB_SIM_VECTOROPS_H

#include "ktflow/DeviceCode/Program.h"

#include <vector>

namespace ktflow::sim {

struct VectorValue {
  dc::ElemType type = dc::ElemType::F32;
  int64_t count = 0; ///< 0: the register holds nothing yet.
  std::vector<float> values;
};

inline bool sameShape(const VectorValue &a, const VectorValue &b) {
  return a.type == b.type && a.count == b.count;
}

/// Decodes `v.count` elements of `v.type` from little-endian bytes.
void loadVector(VectorValue &v, const uint8_t *bytes);
/// Encodes the elements as little-endian bytes.
void storeVector(const VectorValue &v, uint8_t *bytes);

VectorValue splat(dc::ElemType type, int64_t count, double value, bool compute);
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
