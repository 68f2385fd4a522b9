//===- Value.h - run-time values of the KTIR interpreter --------*- C++ -*-===//
//
// The value model. Scalars carry their element kind and one 64-bit payload
// (an integer, kept wrapped to its width and sign-extended, or a double
// already rounded to its type). Tensors are contiguous row-major arrays in
// one of three storage classes, so that every op runs as a tight typed loop:
//   * f16, bf16, f32 -> float  (f16/bf16 values are always exactly
//                               representable, i.e. rounded after each op)
//   * f64            -> double
//   * i1 .. i64, index -> int64_t (wrapped to the width, sign-extended;
//                               i1 true is stored as -1)
// Tensors are immutable once built and shared by reference (value
// semantics, ktir.md §6.2).
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_INTERP_VALUE_H
#define KTFLOW_INTERP_VALUE_H

#include "ktflow/Interp/Float16.h"
#include "ktflow/Support/Units.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/Types.h"

#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ktflow::interp {

enum class ElemKind : uint8_t { I1, I8, I16, I32, I64, Index, F16, BF16, F32, F64 };
enum class Storage : uint8_t { F32, F64, I64 };

inline bool isFloatKind(ElemKind k) { return k >= ElemKind::F16; }
inline bool isIntKind(ElemKind k) { return k <= ElemKind::Index; }
inline Storage storageOf(ElemKind k) {
  if (k == ElemKind::F64)
    return Storage::F64;
  return isFloatKind(k) ? Storage::F32 : Storage::I64;
}
/// Bit width of an integer kind (index is 64).
unsigned intWidth(ElemKind k);
/// Size of one element in memory (ktir.md §2.2).
ElementSize elementSize(ElemKind k);
const char *kindName(ElemKind k);
/// The kind of a builtin scalar type, or nothing for unsupported types.
std::optional<ElemKind> kindOf(mlir::Type type);

/// Wraps `v` to the width of integer kind `k` (two's complement), sign-extended.
inline int64_t wrapInt(ElemKind k, int64_t v) {
  switch (k) {
  case ElemKind::I1:
    return (v & 1) ? -1 : 0;
  case ElemKind::I8:
    return int8_t(v);
  case ElemKind::I16:
    return int16_t(v);
  case ElemKind::I32:
    return int32_t(v);
  default:
    return v;
  }
}
/// The value of `v` read as an unsigned integer of kind `k`.
inline uint64_t asUnsigned(ElemKind k, int64_t v) {
  unsigned w = intWidth(k);
  return w == 64 ? uint64_t(v) : (uint64_t(v) & ((uint64_t(1) << w) - 1));
}
/// Rounds a double once to float kind `k`.
double roundDouble(ElemKind k, double v);
/// Rounds a float (already the exact f32 result) to float kind `k` (not f64).
inline float roundFloat(ElemKind k, float v) {
  if (k == ElemKind::F16)
    return roundToHalf(v);
  if (k == ElemKind::BF16)
    return roundToBF16(v);
  return v;
}

/// A scalar value: an integer (wrapped) or a float (rounded to its kind).
struct Scalar {
  ElemKind kind = ElemKind::Index;
  int64_t i = 0;
  double f = 0;

  static Scalar ofInt(ElemKind k, int64_t v) {
    Scalar s;
    s.kind = k;
    s.i = wrapInt(k, v);
    return s;
  }
  static Scalar ofFloat(ElemKind k, double v) {
    Scalar s;
    s.kind = k;
    s.f = roundDouble(k, v);
    return s;
  }
  bool isFloat() const { return isFloatKind(kind); }
  /// The value as a double (integers as signed).
  double asDouble() const { return isFloat() ? f : double(i); }
};

/// A dense row-major tensor.
class Tensor {
public:
  Tensor(ElemKind kind, llvm::ArrayRef<int64_t> shape);

  ElemKind kind() const { return elemKind; }
  Storage storage() const { return storageOf(elemKind); }
  llvm::ArrayRef<int64_t> shape() const { return dims; }
  unsigned rank() const { return dims.size(); }
  int64_t numElements() const { return count; }
  /// Row-major strides (in elements) of this tensor's shape.
  llvm::SmallVector<int64_t, 4> strides() const;

  float *f32() { return f32Data.data(); }
  const float *f32() const { return f32Data.data(); }
  double *f64() { return f64Data.data(); }
  const double *f64() const { return f64Data.data(); }
  int64_t *i64() { return i64Data.data(); }
  const int64_t *i64() const { return i64Data.data(); }

  Scalar get(int64_t linear) const;
  void set(int64_t linear, const Scalar &value);
  /// Copies element `from` of `src` (same storage class) to element `to`.
  void copyElement(int64_t to, const Tensor &src, int64_t from);
  void fill(const Scalar &value);

private:
  ElemKind elemKind;
  llvm::SmallVector<int64_t, 4> dims;
  int64_t count;
  std::vector<float> f32Data;
  std::vector<double> f64Data;
  std::vector<int64_t> i64Data;
};

using TensorPtr = std::shared_ptr<const Tensor>;

std::string formatShape(llvm::ArrayRef<int64_t> shape);
std::string formatScalar(const Scalar &s);

} // namespace ktflow::interp

#endif // KTFLOW_INTERP_VALUE_H
