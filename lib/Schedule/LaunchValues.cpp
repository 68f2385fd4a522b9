//===- LaunchValues.cpp - the launch values a kernel is specialized for ---===//
#include "ktflow/Schedule/LaunchValues.h"

#include "llvm/ADT/SmallString.h"

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
    // APFloat prints the shortest digits that read back to the same value
    // in its own semantics.
    llvm::SmallString<32> text;
    f.getValue().toString(text, /*FormatPrecision=*/0, /*FormatMaxPadding=*/0);
    return text.str().str();
  }
  if (auto i = dyn_cast<IntegerAttr>(value)) {
    if (i.getType().isInteger(1))
      return i.getValue().isZero() ? "0" : "1";
    return std::to_string(i.getValue().getSExtValue());
  }
  return "";
}
