//===- KTArchDialect.td - the architecture description dialect -*- tablegen -*-===//
//
// `ktarch` describes one accelerator: its memories, execution units, the
// directed links between them and how groups of them are replicated. All
// hardware knowledge of ktflow lives in such a description; the compiler,
// the cost model and the simulator read it through ArchModel (ArchModel.h).
// docs/arch.md explains every construct.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_ARCH_KTARCHDIALECT_TD
#define KTFLOW_ARCH_KTARCHDIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def KTArch_Dialect : Dialect {
  let name = "ktarch";
  let summary = "architecture descriptions of scratchpad dataflow accelerators";
  let cppNamespace = "::ktflow::ktarch";
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    /// Architecture models built from description files, keyed by canonical
    /// path. Kept here so that a model (which holds types and locations of
    /// this context) lives exactly as long as its MLIRContext.
    llvm::StringMap<std::shared_ptr<const ::ktflow::arch::ArchModel>> &modelCache() {
      return cachedModels;
    }
  private:
    llvm::StringMap<std::shared_ptr<const ::ktflow::arch::ArchModel>> cachedModels;
  public:
  }];
}

class KTArch_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<KTArch_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def KTArch_AccessAttr : KTArch_Attr<"Access", "access"> {
  let summary = "the accesses a unit may make to one memory";
  let description = [{
    A unit that reads or writes `memory` moves between `min_size` and
    `max_size` bytes per access, in multiples of `size_multiple` bytes, at a
    memory address aligned to `alignment` bytes.
  }];
  let parameters = (ins "::mlir::SymbolRefAttr":$memory,
                        "int64_t":$min_size,
                        "int64_t":$max_size,
                        "int64_t":$size_multiple,
                        "int64_t":$alignment);
  let assemblyFormat = "`<` struct(params) `>`";
}

#endif // KTFLOW_ARCH_KTARCHDIALECT_TD
