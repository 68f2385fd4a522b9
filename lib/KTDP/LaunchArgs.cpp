//===- LaunchArgs.cpp - `--arg NAME=VALUE` for KTIR kernels ---------------===//
#include "ktflow/KTDP/LaunchArgs.h"

#include "ktflow/KTDP/KTDPOps.h"
#include "ktflow/KTDP/KTDPTypes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/Twine.h"

using namespace mlir;
using namespace ktflow;

std::optional<ktdp::ArgBinding> ktdp::splitArgBinding(llvm::StringRef text) {
  if (!text.contains('='))
    return std::nullopt;
  auto [name, value] = text.split('=');
  return ArgBinding{name.str(), value.str()};
}

std::optional<unsigned> ktdp::resolveArgumentName(llvm::ArrayRef<std::string> names,
                                                  llvm::StringRef name) {
  for (unsigned i = 0; i < names.size(); ++i)
    if (names[i] == name)
      return i;
  unsigned i;
  if (name.consume_front("arg") && !name.getAsInteger(10, i) && i < names.size())
    return i;
  return std::nullopt;
}

llvm::SmallVector<std::string> ktdp::argumentNames(func::FuncOp kernel) {
  llvm::SmallVector<std::string> names;
  if (kernel.isExternal())
    return names;
  for (BlockArgument arg : kernel.getBody().front().getArguments()) {
    if (auto named = dyn_cast<NameLoc>(arg.getLoc()))
      names.push_back(named.getName().str());
    else
      names.push_back("arg" + std::to_string(arg.getArgNumber()));
  }
  return names;
}

FailureOr<TypedAttr> ktdp::parseLaunchValue(Type type, llvm::StringRef text,
                                            llvm::StringRef argName, std::string &error) {
  error.clear();
  auto rt = dyn_cast<RuntimeArgType>(type);
  Type value = rt ? rt.getValueType() : type;
  text = text.trim();
  if (auto f = dyn_cast<FloatType>(value)) {
    double d;
    if (text.getAsDouble(d)) {
      llvm::raw_string_ostream os(error);
      os << "value '" << text << "' for argument '" << argName << "' is not a " << f
         << " number";
      return failure();
    }
    llvm::APFloat v(d);
    bool lost;
    v.convert(f.getFloatSemantics(), llvm::APFloat::rmNearestTiesToEven, &lost);
    return TypedAttr(FloatAttr::get(f, v));
  }
  if (!value.isIntOrIndex()) {
    error = ("argument '" + argName + "' has type ").str();
    llvm::raw_string_ostream os(error);
    os << type << ", which takes no launch value";
    return failure();
  }
  int64_t v;
  if (text.getAsInteger(0, v)) {
    if (value.isInteger(1) && (text == "true" || text == "false")) {
      v = text == "true";
    } else {
      error = ("value '" + text + "' for argument '" + argName + "' is not an integer").str();
      return failure();
    }
  }
  unsigned width = value.isIndex() ? 64 : value.getIntOrFloatBitWidth();
  if (width < 64 && (v < -(int64_t(1) << (width - 1)) || v >= (int64_t(1) << width))) {
    llvm::raw_string_ostream os(error);
    os << "value " << v << " for argument '" << argName << "' does not fit " << value;
    return failure();
  }
  if (rt) {
    if (rt.getGranularity() && v % *rt.getGranularity() != 0) {
      error = ("runtime argument '" + argName + "' = " + llvm::Twine(v) +
               " is not a multiple of its granularity " + llvm::Twine(*rt.getGranularity()))
                  .str();
      return failure();
    }
    if (rt.getUpperbound() && v > *rt.getUpperbound()) {
      error = ("runtime argument '" + argName + "' = " + llvm::Twine(v) +
               " exceeds its upperbound " + llvm::Twine(*rt.getUpperbound()))
                  .str();
      return failure();
    }
  }
  return TypedAttr(IntegerAttr::get(value, v));
}

bool ktdp::isBufferBase(BlockArgument arg) {
  llvm::SmallVector<Value> work = {arg};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (auto view = dyn_cast<ConstructMemoryViewOp>(user);
          view && use.getOperandNumber() == 0)
        return true;
      if (isa<arith::AddIOp>(user))
        work.push_back(user->getResult(0));
    }
  }
  return false;
}
