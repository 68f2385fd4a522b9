//===- SymbolFiles.cpp - device-code symbols as .npy files ----------------===//
#include "ktflow/Run/SymbolFiles.h"

#include "ktflow/Arch/ArchModel.h"
#include "ktflow/Interp/Npy.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace ktflow;

std::optional<interp::ElemKind> run::symbolKind(mlir::MLIRContext &context,
                                                llvm::StringRef elementType) {
  mlir::Type t = arch::parseElementTypeName(elementType, &context);
  if (!t)
    return std::nullopt;
  return interp::kindOf(t);
}

std::optional<std::string> run::symbolNpyDtype(mlir::MLIRContext &context,
                                               llvm::StringRef elementType) {
  std::optional<interp::ElemKind> kind = symbolKind(context, elementType);
  if (!kind)
    return std::nullopt;
  return std::string(interp::npyDtypeOf(*kind));
}

llvm::Error run::writeOutputSymbols(mlir::MLIRContext &context, const dc::Bundle &bundle,
                                    const sim::SimResult &result, llvm::StringRef dir) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return llvm::createStringError(ec, "cannot create '" + dir + "': " + ec.message());
  for (const dc::Symbol &s : bundle.symbols) {
    if (!s.isOutput)
      continue;
    interp::NpyArray array;
    // Raw bytes for a type the interpreter has no dtype for.
    array.dtype = symbolNpyDtype(context, s.elementType).value_or("u1");
    array.shape = s.shape;
    auto data = result.buffers.find(s.name);
    if (data != result.buffers.end())
      array.data = data->second;
    llvm::SmallString<128> path(dir);
    llvm::sys::path::append(path, s.name + ".npy");
    if (llvm::Error e = interp::writeNpy(path, array))
      return e;
  }
  return llvm::Error::success();
}

llvm::Error run::writeArrays(llvm::ArrayRef<std::pair<std::string, interp::NpyArray>> arrays,
                             llvm::StringRef dir) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return llvm::createStringError(ec, "cannot create '" + dir + "': " + ec.message());
  for (const auto &[name, array] : arrays) {
    llvm::SmallString<128> path(dir);
    llvm::sys::path::append(path, name + ".npy");
    if (llvm::Error e = interp::writeNpy(path, array))
      return e;
  }
  return llvm::Error::success();
}
