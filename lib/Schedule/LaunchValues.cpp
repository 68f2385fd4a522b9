//===- LaunchValues.cpp - the launch values a kernel is specialized for ---===//
#include "ktflow/Schedule/LaunchValues.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstdlib>

using namespace mlir;
using namespace ktflow::ktsched;

std::vector<LaunchValue> ktflow::ktsched::launchValuesOf(Operation *kernel) {
  std::vector<LaunchValue> values;
  auto list = kernel ? kernel->getAttrOfType<ArrayAttr>(kLaunchValuesAttr) : ArrayAttr();
  if (!list)
    return values;
  for (Attribute entry : list) {
    auto dict = dyn_cast<DictionaryAttr>(entry);
    auto name = dict ? dict.getAs<StringAttr>("name") : StringAttr();
    auto arg = dict ? dict.getAs<IntegerAttr>("arg") : IntegerAttr();
    auto value = dict ? dyn_cast_or_null<TypedAttr>(dict.get("value")) : TypedAttr();
    if (name && arg && value)
      values.push_back({name.str(), unsigned(arg.getInt()), value});
  }
  return values;
}

std::string ktflow::ktsched::launchValueText(TypedAttr value) {
  if (auto f = dyn_cast<FloatAttr>(value)) {
    // The fewest significant digits that read back to the same value in its
    // own type ("0.3" for the f32 nearest 0.3, not its nine digits).
    const llvm::fltSemantics &semantics = f.getValue().getSemantics();
    double d = f.getValueAsDouble();
    for (int digits = 1; digits <= 17; ++digits) {
      std::string text = llvm::formatv("{0}", llvm::format("%.*g", digits, d)).str();
      llvm::APFloat back(std::strtod(text.c_str(), nullptr));
      bool lost;
      back.convert(semantics, llvm::APFloat::rmNearestTiesToEven, &lost);
      if (back.bitwiseIsEqual(f.getValue()))
        return text;
    }
    return llvm::formatv("{0}", llvm::format("%.17g", d)).str();
  }
  if (auto i = dyn_cast<IntegerAttr>(value)) {
    if (i.getType().isInteger(1))
      return i.getValue().isZero() ? "0" : "1";
    return std::to_string(i.getValue().getSExtValue());
  }
  return "";
}

std::vector<UnboundLaunchValue> ktflow::ktsched::unboundLaunchValuesOf(Operation *kernel) {
  std::vector<UnboundLaunchValue> values;
  auto list = kernel ? kernel->getAttrOfType<ArrayAttr>(kUnboundLaunchValuesAttr) : ArrayAttr();
  if (!list)
    return values;
  for (Attribute entry : list) {
    auto dict = dyn_cast<DictionaryAttr>(entry);
    if (!dict)
      continue;
    auto name = dict.getAs<StringAttr>("name");
    auto arg = dict.getAs<IntegerAttr>("arg");
    auto type = dict.getAs<StringAttr>("type");
    auto granularity = dict.getAs<IntegerAttr>("granularity");
    auto upperbound = dict.getAs<IntegerAttr>("upperbound");
    if (name && arg && type && granularity && upperbound)
      values.push_back({name.str(), unsigned(arg.getInt()), type.str(), granularity.getInt(),
                        upperbound.getInt()});
  }
  return values;
}

std::vector<int64_t> ktflow::ktsched::admittedValues(const UnboundLaunchValue &v) {
  std::vector<int64_t> values;
  for (int64_t x = 0; x <= v.upperbound; x += std::max<int64_t>(1, v.granularity))
    values.push_back(x);
  return values;
}

std::string ktflow::ktsched::launchExprText(AffineExpr expr, llvm::ArrayRef<std::string> names) {
  if (auto c = dyn_cast<AffineConstantExpr>(expr))
    return c.getValue() < 0 ? "(" + std::to_string(c.getValue()) + ")"
                            : std::to_string(c.getValue());
  if (auto s = dyn_cast<AffineSymbolExpr>(expr))
    return s.getPosition() < names.size() ? names[s.getPosition()]
                                          : "s" + std::to_string(s.getPosition());
  if (auto d = dyn_cast<AffineDimExpr>(expr))
    return "d" + std::to_string(d.getPosition()); // rejected by the device code: no dims
  auto bin = cast<AffineBinaryOpExpr>(expr);
  std::string lhs = launchExprText(bin.getLHS(), names), rhs = launchExprText(bin.getRHS(), names);
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return "(" + lhs + " + " + rhs + ")";
  case AffineExprKind::Mul:
    return "(" + lhs + " * " + rhs + ")";
  case AffineExprKind::FloorDiv:
    return "(" + lhs + " floordiv " + rhs + ")";
  case AffineExprKind::CeilDiv:
    return "(" + lhs + " ceildiv " + rhs + ")";
  case AffineExprKind::Mod:
    return "(" + lhs + " mod " + rhs + ")";
  default:
    return "?";
  }
}
