//===- Value.cpp - scalars and dense tensors of the interpreter -----------===//
//
// Element-kind helpers and the Tensor container. Per-element accessors here
// (get/set) are for cold paths (constants, diagnostics, region bodies); the
// op implementations use the typed storage pointers directly.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Interp/Value.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/raw_ostream.h"

using namespace ktflow;
using namespace ktflow::interp;

unsigned interp::intWidth(ElemKind k) {
  switch (k) {
  case ElemKind::I1:
    return 1;
  case ElemKind::I8:
    return 8;
  case ElemKind::I16:
    return 16;
  case ElemKind::I32:
    return 32;
  default:
    return 64;
  }
}

ElementSize interp::elementSize(ElemKind k) {
  switch (k) {
  case ElemKind::I1:
  case ElemKind::I8:
    return {Bytes(1)};
  case ElemKind::I16:
  case ElemKind::F16:
  case ElemKind::BF16:
    return {Bytes(2)};
  case ElemKind::I32:
  case ElemKind::F32:
    return {Bytes(4)};
  default:
    return {Bytes(8)};
  }
}

const char *interp::kindName(ElemKind k) {
  static const char *names[] = {"i1",    "i8",  "i16",  "i32", "i64",
                                "index", "f16", "bf16", "f32", "f64"};
  return names[unsigned(k)];
}

std::optional<ElemKind> interp::kindOf(mlir::Type type) {
  if (type.isIndex())
    return ElemKind::Index;
  if (type.isF16())
    return ElemKind::F16;
  if (type.isBF16())
    return ElemKind::BF16;
  if (type.isF32())
    return ElemKind::F32;
  if (type.isF64())
    return ElemKind::F64;
  if (auto it = mlir::dyn_cast<mlir::IntegerType>(type)) {
    switch (it.getWidth()) {
    case 1:
      return ElemKind::I1;
    case 8:
      return ElemKind::I8;
    case 16:
      return ElemKind::I16;
    case 32:
      return ElemKind::I32;
    case 64:
      return ElemKind::I64;
    }
  }
  return std::nullopt;
}

double interp::roundDouble(ElemKind k, double v) {
  switch (k) {
  case ElemKind::F16:
    return halfBitsToFloat(doubleToHalfBits(v));
  case ElemKind::BF16:
    return bf16BitsToFloat(doubleToBF16Bits(v));
  case ElemKind::F32:
    return double(float(v));
  default:
    return v;
  }
}

Tensor::Tensor(ElemKind kind, llvm::ArrayRef<int64_t> shape)
    : elemKind(kind), dims(shape.begin(), shape.end()) {
  count = 1;
  for (int64_t d : shape)
    count *= d;
  switch (storage()) {
  case Storage::F32:
    f32Data.assign(count, 0.0f);
    break;
  case Storage::F64:
    f64Data.assign(count, 0.0);
    break;
  case Storage::I64:
    i64Data.assign(count, 0);
    break;
  }
}

llvm::SmallVector<int64_t, 4> Tensor::strides() const {
  llvm::SmallVector<int64_t, 4> s(dims.size(), 1);
  for (int i = int(dims.size()) - 2; i >= 0; --i)
    s[i] = s[i + 1] * dims[i + 1];
  return s;
}

Scalar Tensor::get(int64_t linear) const {
  Scalar s;
  s.kind = elemKind;
  switch (storage()) {
  case Storage::F32:
    s.f = f32Data[linear];
    break;
  case Storage::F64:
    s.f = f64Data[linear];
    break;
  case Storage::I64:
    s.i = i64Data[linear];
    break;
  }
  return s;
}

void Tensor::set(int64_t linear, const Scalar &value) {
  switch (storage()) {
  case Storage::F32:
    f32Data[linear] = float(value.f);
    break;
  case Storage::F64:
    f64Data[linear] = value.f;
    break;
  case Storage::I64:
    i64Data[linear] = value.i;
    break;
  }
}

void Tensor::copyElement(int64_t to, const Tensor &src, int64_t from) {
  switch (storage()) {
  case Storage::F32:
    f32Data[to] = src.f32Data[from];
    break;
  case Storage::F64:
    f64Data[to] = src.f64Data[from];
    break;
  case Storage::I64:
    i64Data[to] = src.i64Data[from];
    break;
  }
}

void Tensor::fill(const Scalar &value) {
  switch (storage()) {
  case Storage::F32:
    std::fill(f32Data.begin(), f32Data.end(), float(value.f));
    break;
  case Storage::F64:
    std::fill(f64Data.begin(), f64Data.end(), value.f);
    break;
  case Storage::I64:
    std::fill(i64Data.begin(), i64Data.end(), value.i);
    break;
  }
}

std::string interp::formatShape(llvm::ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

std::string interp::formatScalar(const Scalar &s) {
  std::string out;
  llvm::raw_string_ostream os(out);
  if (s.isFloat())
    os << s.f;
  else if (s.kind == ElemKind::I1)
    os << (s.i ? "true" : "false");
  else
    os << s.i;
  os << " : " << kindName(s.kind);
  return out;
}
