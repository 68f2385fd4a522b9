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
