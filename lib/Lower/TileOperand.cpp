//===- TileOperand.cpp - a transfer of a whole-tile group -----------------===//
//
// A whole-tile op names its transfers as dictionaries; these helpers
// resolve one against its ktsched.tensor, declare its kernel argument as a
// bundle symbol once, and place a grid tile's block in it (the tensor's
// offset, strides and lower corner applied to the origin map).
//
//===----------------------------------------------------------------------===//
#include "TileOperand.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::lower::detail;

FailureOr<TileOperand> ktflow::lower::detail::resolveTileOperand(ks::KernelOp kernel,
                                                                 Operation *op,
                                                                 DictionaryAttr transfer) {
  TileOperand t;
  auto name = dyn_cast_or_null<FlatSymbolRefAttr>(transfer.get("tensor"));
  t.tensor = name ? dyn_cast_or_null<ks::TensorOp>(
                        SymbolTable::lookupSymbolIn(kernel, name.getValue()))
                  : ks::TensorOp();
  auto origin = dyn_cast_or_null<AffineMapAttr>(transfer.get("origin"));
  auto shape = dyn_cast_or_null<DenseI64ArrayAttr>(transfer.get("shape"));
  if (!t.tensor || !origin || !shape)
    return op->emitError("transfer without tensor, origin or shape");
  t.origin = origin.getValue();
  t.shape.assign(shape.asArrayRef().begin(), shape.asArrayRef().end());
  t.esize = ks::elementSize(t.tensor.getElementType()).bytes.count();
  std::optional<dc::ElemType> reg = registerType(t.tensor.getElementType());
  if (!reg)
    return op->emitError("transfer of a type without vector registers");
  t.regType = *reg;
  return t;
}

uint32_t ktflow::lower::detail::tileOperandSymbol(const arch::ArchModel &model,
                                                  ks::KernelOp kernel, const TileOperand &t,
                                                  bool isOutput, LoweredKernel &out,
                                                  KernelSymbols &symbols) {
  int64_t arg = t.tensor.getArg();
  for (size_t s = 0; s < out.symbolArgs.size(); ++s)
    if (out.symbolArgs[s] == arg) {
      out.bundle.symbols[s].isInput |= !isOutput;
      out.bundle.symbols[s].isOutput |= isOutput;
      return s;
    }
  int64_t last = 0;
  for (ks::TensorOp tensor : kernel.getBody().getOps<ks::TensorOp>())
    if (tensor.getArg() == arg)
      last = std::max(last, ks::tensorDataEnd(tensor).count());
  Bytes size(last * t.esize);
  auto global = model.memoriesBacking(arch::KtirSpace::Global);
  if (!global.empty())
    size = size.alignTo(model.node(global.front()).memory.alignment);
  std::string typeName;
  llvm::raw_string_ostream os(typeName);
  t.tensor.getElementType().print(os);
  dc::Symbol symbol{"arg" + std::to_string(arg), typeName, {size.count() / t.esize}, size,
                    !isOutput, isOutput};
  out.bundle.symbols.push_back(symbol);
  symbols.names.push_back(symbol.name);
  symbols.types.push_back(t.tensor.getElementType());
  out.symbolArgs.push_back(arg);
  return out.bundle.symbols.size() - 1;
}

int64_t ktflow::lower::detail::tileOperandOffset(const TileOperand &t, ArrayRef<int64_t> grid,
                                                 int64_t tile) {
  int64_t g0 = tile % grid[0], g1 = (tile / grid[0]) % grid[1], g2 = tile / (grid[0] * grid[1]);
  SmallVector<int64_t> coords = t.origin.compose(SmallVector<int64_t>{g0, g1, g2, 0});
  ArrayRef<int64_t> strides = t.tensor.getStrides(), lower = t.tensor.getLowerCorner();
  int64_t elements = t.tensor.getOffset();
  for (size_t d = 0; d < coords.size(); ++d)
    elements += (coords[d] - lower[d]) * strides[d];
  return elements * t.esize;
}
