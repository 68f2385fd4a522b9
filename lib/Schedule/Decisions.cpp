//===- Decisions.cpp - a schedule's decisions as a flat list --------------===//
//
// Strategy: one pre-order walk; every attribute whose value is a
// DecisionAttr becomes a record. The op is named by its mnemonic and the
// identifying attributes it has (role, tensor, memory, level), so the list
// needs no knowledge of which op carries which decision and stays complete
// when a pass adds a new one.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Schedule/Decisions.h"

#include "ktflow/Schedule/KTSched.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::ktsched;

/// A decision's value without MLIR's type suffixes: `2`, `[128, 64]`,
/// `dma`, `dim=0 factor=1`.
static void printValue(Attribute value, llvm::raw_ostream &os) {
  if (auto integer = dyn_cast<IntegerAttr>(value)) {
    os << integer.getInt();
  } else if (auto string = dyn_cast<StringAttr>(value)) {
    os << string.getValue();
  } else if (auto array = dyn_cast<DenseI64ArrayAttr>(value)) {
    os << "[";
    llvm::interleaveComma(array.asArrayRef(), os);
    os << "]";
  } else if (auto dict = dyn_cast<DictionaryAttr>(value)) {
    llvm::interleave(
        dict.getValue(), os,
        [&](NamedAttribute entry) {
          os << entry.getName().getValue() << "=";
          printValue(entry.getValue(), os);
        },
        " ");
  } else if (auto list = dyn_cast<ArrayAttr>(value)) {
    os << "[";
    llvm::interleaveComma(list.getValue(), os, [&](Attribute a) { printValue(a, os); });
    os << "]";
  } else {
    value.print(os);
  }
}

/// `stage dma_load (level 0)`, `buffer @arg0 in lx (level 0)`.
static std::string describeOp(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << op->getName().stripDialect();
  if (auto symbol = op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName()))
    os << " @" << symbol.getValue();
  if (auto role = op->getAttrOfType<StringAttr>("role"))
    os << " " << role.getValue();
  if (auto tensor = op->getAttrOfType<FlatSymbolRefAttr>("tensor"))
    os << " @" << tensor.getValue();
  if (auto memory = op->getAttrOfType<StringAttr>("memory"))
    os << " in " << memory.getValue();
  if (auto level = op->getAttrOfType<IntegerAttr>("level"))
    os << " (level " << level.getInt() << ")";
  return text;
}

std::vector<DecisionRecord> ktflow::ktsched::listDecisions(ModuleOp module) {
  std::vector<DecisionRecord> records;
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    for (NamedAttribute attr : op->getAttrs()) {
      auto decision = dyn_cast<DecisionAttr>(attr.getValue());
      if (!decision)
        continue;
      DecisionRecord record;
      if (auto kernel = isa<KernelOp>(op) ? cast<KernelOp>(op) : op->getParentOfType<KernelOp>())
        record.kernel = kernel.getSymName().str();
      if (auto group = isa<GroupOp>(op) ? cast<GroupOp>(op) : op->getParentOfType<GroupOp>())
        record.group = group.getSymName().str();
      record.where = describeOp(op);
      record.name = attr.getName().str();
      llvm::raw_string_ostream os(record.value);
      printValue(decision.getValue(), os);
      record.source = decision.getSource().str();
      records.push_back(std::move(record));
    }
  });
  return records;
}
