//===- Units.h - bytes, elements and cycles as distinct types ---*- C++ -*-===//
//
// Most bugs in this field are address arithmetic that mixes bytes, elements
// and larger transfer units. Addresses and sizes therefore carry their unit
// in their type: a Bytes cannot be added to an Elements, and converting
// between them needs the element size, spelled out at the call site.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_SUPPORT_UNITS_H
#define KTFLOW_SUPPORT_UNITS_H

#include <cstdint>
#include <functional>

namespace ktflow {

/// A signed count of some unit, tagged so different units do not mix.
template <typename Tag>
class Quantity {
public:
  constexpr Quantity() = default;
  constexpr explicit Quantity(int64_t value) : value(value) {}
  constexpr int64_t count() const { return value; }

  constexpr Quantity operator+(Quantity o) const { return Quantity(value + o.value); }
  constexpr Quantity operator-(Quantity o) const { return Quantity(value - o.value); }
  constexpr Quantity operator*(int64_t k) const { return Quantity(value * k); }
  /// How many times `o` fits in this quantity (a plain number).
  constexpr int64_t operator/(Quantity o) const { return value / o.value; }
  constexpr Quantity operator%(Quantity o) const { return Quantity(value % o.value); }
  Quantity &operator+=(Quantity o) { value += o.value; return *this; }
  Quantity &operator-=(Quantity o) { value -= o.value; return *this; }
  constexpr bool operator==(Quantity o) const { return value == o.value; }
  constexpr bool operator!=(Quantity o) const { return value != o.value; }
  constexpr bool operator<(Quantity o) const { return value < o.value; }
  constexpr bool operator<=(Quantity o) const { return value <= o.value; }
  constexpr bool operator>(Quantity o) const { return value > o.value; }
  constexpr bool operator>=(Quantity o) const { return value >= o.value; }

  /// Rounds up to a multiple of `align` (which must be positive).
  constexpr Quantity alignTo(Quantity align) const {
    return Quantity((value + align.value - 1) / align.value * align.value);
  }
  constexpr bool isAlignedTo(Quantity align) const { return value % align.value == 0; }

private:
  int64_t value = 0;
};

struct BytesTag {};
struct ElementsTag {};
struct CyclesTag {};

/// A byte count or byte address.
using Bytes = Quantity<BytesTag>;
/// A count or index of elements of some element type (known from context).
using Elements = Quantity<ElementsTag>;
/// A duration or point in simulated time.
using Cycles = Quantity<CyclesTag>;

/// The size of an element type, in bytes.
struct ElementSize {
  Bytes bytes;
};

inline constexpr Bytes toBytes(Elements n, ElementSize size) {
  return Bytes(n.count() * size.bytes.count());
}
/// Exact conversion: `b` must be a multiple of the element size.
inline constexpr Elements toElements(Bytes b, ElementSize size) {
  return Elements(b.count() / size.bytes.count());
}

} // namespace ktflow

template <typename Tag>
struct std::hash<ktflow::Quantity<Tag>> {
  size_t operator()(ktflow::Quantity<Tag> q) const { return std::hash<int64_t>()(q.count()); }
};

#endif // KTFLOW_SUPPORT_UNITS_H
