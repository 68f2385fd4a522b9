//===- KTDPAttrs.td - ktdp attributes and enums -------------*- tablegen -*-===//
#ifndef KTFLOW_KTDP_ATTRS_TD
#define KTFLOW_KTDP_ATTRS_TD

include "ktflow/KTDP/KTDPDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

// Where a memory view lives (spec §4.1). `unspecified` comes only from the
// older spelling; it is kept so a not-yet-placed view can be printed and
// rejected later, at the point where memory is reached.
def KTDP_MemorySpaceKind : I32EnumAttr<"MemorySpaceKind",
    "kind of memory a view lives in", [
      I32EnumAttrCase<"Global", 0, "global">,
      I32EnumAttrCase<"CtLocal", 1, "ct_local">,
      I32EnumAttrCase<"Unspecified", 2, "unspecified">
    ]> {
  let cppNamespace = "::ktflow::ktdp";
  let genSpecializedAttr = 0;
}

def KTDP_RuntimeArgExtractKind : I32EnumAttr<"RuntimeArgExtractKind",
    "what ktdp.runtime_arg_extract reads from a runtime argument", [
      I32EnumAttrCase<"Value", 0, "value">,
      I32EnumAttrCase<"Granularity", 1, "granularity">,
      I32EnumAttrCase<"Upperbound", 2, "upperbound">
    ]> {
  let cppNamespace = "::ktflow::ktdp";
}

def KTDP_MemorySpaceAttr : AttrDef<KTDP_Dialect, "MemorySpace"> {
  let mnemonic = "memory_space";
  let summary = "memory space of a view: global or a tile's scratchpad";
  let description = [{
    Current spelling: `#ktdp.memory_space<global|ct_local[, ct_id = N]>`.
    The older `#ktdp.spyre_memory_space<HBM|LX|L0|unspecified[, core = N]>`
    parses to the same attribute (HBM -> global, LX/L0 -> ct_local,
    core -> ct_id) and prints in the current spelling; its `unspecified`
    prints as `#ktdp.memory_space<unspecified>`.
  }];
  let parameters = (ins
    "MemorySpaceKind":$kind,
    OptionalParameter<"std::optional<int64_t>">:$ctId
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Parses the body (after the mnemonic) of the older spelling
    /// `#ktdp.spyre_memory_space<...>`.
    static ::mlir::Attribute parseLegacy(::mlir::AsmParser &parser);

    bool isGlobal() const { return getKind() == MemorySpaceKind::Global; }
    bool isCtLocal() const { return getKind() == MemorySpaceKind::CtLocal; }
    bool isUnspecified() const {
      return getKind() == MemorySpaceKind::Unspecified;
    }
  }];
}

#endif // KTFLOW_KTDP_ATTRS_TD
