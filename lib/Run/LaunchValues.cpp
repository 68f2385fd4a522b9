//===- LaunchValues.cpp - launch values of device code --------------------===//
#include "ktflow/Run/LaunchValues.h"

#include "ktflow/DeviceCode/LaunchTable.h"

#include "ktflow/Schedule/KTSched.h"
#include "ktflow/Schedule/LaunchValues.h"
#include "llvm/Support/raw_ostream.h"

using namespace ktflow;

void run::recordLaunchValues(mlir::ModuleOp scheduled, dc::Bundle &bundle) {
  bundle.launchValues.clear();
  for (auto kernel : scheduled.getOps<ktsched::KernelOp>())
    for (const ktsched::LaunchValue &v : ktsched::launchValuesOf(kernel)) {
      dc::LaunchValue out;
      out.name = v.name;
      out.arg = v.arg;
      llvm::raw_string_ostream type(out.type);
      type << v.value.getType();
      out.value = ktsched::launchValueText(v.value);
      bundle.launchValues.push_back(std::move(out));
    }
  // The values left unbound, whose launch-table entries the runtime
  // computes at launch.
  for (auto kernel : scheduled.getOps<ktsched::KernelOp>())
    for (const ktsched::UnboundLaunchValue &v : ktsched::unboundLaunchValuesOf(kernel)) {
      dc::LaunchValue out;
      out.name = v.name;
      out.arg = v.arg;
      out.type = v.type;
      out.bound = false;
      out.granularity = v.granularity;
      out.upperbound = v.upperbound;
      bundle.launchValues.push_back(std::move(out));
    }
  std::stable_sort(bundle.launchValues.begin(), bundle.launchValues.end(),
                   [](const dc::LaunchValue &a, const dc::LaunchValue &b) { return a.arg < b.arg; });
}

llvm::Error run::bindRunTimeLaunchValues(dc::Bundle &bundle, llvm::ArrayRef<std::string> args) {
  std::map<std::string, std::string> given;
  for (const std::string &arg : args) {
    auto [name, value] = llvm::StringRef(arg).split('=');
    if (const dc::LaunchValue *launch = findLaunchValue(bundle, name); launch && !launch->bound)
      given[launch->name] = value.str();
  }
  return dc::bindLaunchValues(bundle, given);
}

const dc::LaunchValue *run::findLaunchValue(const dc::Bundle &bundle, llvm::StringRef name) {
  for (const dc::LaunchValue &v : bundle.launchValues)
    if (v.name == name || ("arg" + std::to_string(v.arg)) == name)
      return &v;
  return nullptr;
}

llvm::Error run::checkLaunchValue(const dc::LaunchValue &launch, llvm::StringRef value) {
  // Left unbound at compile time: given now, within its guarantees.
  if (!launch.bound) {
    llvm::Expected<int64_t> v = dc::parseUnboundValue(launch, value);
    return v ? llvm::Error::success() : v.takeError();
  }
  std::optional<bool> same = dc::sameLaunchValue(launch, value);
  if (same && *same)
    return llvm::Error::success();
  std::string message =
      "--arg " + launch.name + "=" + value.str() + ": the device code was specialized for " +
      launch.name + "=" + launch.value + " (" + launch.type + ")" +
      (same ? "; compile it again with --arg " + launch.name + "=" + value.str() +
                  " to run it with that value"
            : ", and '" + value.str() + "' is not a " + launch.type + " value");
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}
