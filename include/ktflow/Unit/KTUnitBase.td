//===- KTUnitBase.td - the unit IR: dialect, attributes, types -*- tablegen -*-===//
//
// The unit IR (DESIGN.md, "The unit IR"; docs/unit.md): what every unit kind
// does, in order, and how units hand data to each other. Addresses and peers
// mirror dc::Address and dc::NodeRef one to one, so emission is mechanical.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_UNIT_KTUNITBASE_TD
#define KTFLOW_UNIT_KTUNITBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def KTUnit_Dialect : Dialect {
  let name = "ktunit";
  let summary = "unit programs: SPMD per unit kind, channels, counted loops";
  let cppNamespace = "::ktflow::ktunit";
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    /// Attributes and types live in KTUnitAttrs.cpp with their syntax.
    void registerAttributesAndTypes();
  }];
}

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def KTUnit_Side : I32EnumAttr<"Side", "which end of a channel", [
    I32EnumAttrCase<"producer", 0>, I32EnumAttrCase<"consumer", 1>]> {
  let cppNamespace = "::ktflow::ktunit";
}

def KTUnit_CmpPredicate : I32EnumAttr<"CmpPredicate", "vector comparison", [
    I32EnumAttrCase<"lt", 0>, I32EnumAttrCase<"le", 1>, I32EnumAttrCase<"gt", 2>,
    I32EnumAttrCase<"ge", 3>, I32EnumAttrCase<"eq", 4>, I32EnumAttrCase<"ne", 5>]> {
  let cppNamespace = "::ktflow::ktunit";
}

def KTUnit_Combiner : I32EnumAttr<"Combiner", "reduction combiner", [
    I32EnumAttrCase<"add", 0>, I32EnumAttrCase<"max", 1>, I32EnumAttrCase<"min", 2>]> {
  let cppNamespace = "::ktflow::ktunit";
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

def KTUnit_NodeRefAttr : AttrDef<KTUnit_Dialect, "NodeRef"> {
  let mnemonic = "node";
  let summary = "a node of the architecture description and which instance";
  let description = [{
    Mirrors dc::NodeRef. `#ktunit.node<@ld>` is the nearest instance (the
    cheapest route, as ArchModel::routeTo/routeFrom choose it),
    `#ktunit.node<@ld[3]>` instance 3, `#ktunit.node<@ld[t2]>` the instance
    in column 2 of the program's per-instance table.
  }];
  let parameters = (ins StringRefParameter<"node name">:$name,
                        "::ktflow::ktunit::InstanceKind":$kind,
                        "int64_t":$value);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def KTUnit_LoopTermAttr : AttrDef<KTUnit_Dialect, "LoopTerm"> {
  let mnemonic = "term";
  let summary = "(loop index mod modulus) * stride bytes";
  let description = [{
    One term of an address: the index of the enclosing counted loop at
    `depth` (0 = the outermost loop of the program enclosing the op), taken
    modulo `modulus` when it is not 0, times `stride` bytes. Printed inside
    an address as `d0 * 64` or `(d0 mod 2) * 4096`.
  }];
  let parameters = (ins "int64_t":$depth, "int64_t":$stride, "int64_t":$modulus);
  let assemblyFormat = "`<` $depth `,` $stride `,` $modulus `>`";
  let genVerifyDecl = 1;
}

def KTUnit_AddressAttr : AttrDef<KTUnit_Dialect, "Address"> {
  let mnemonic = "addr";
  let summary = "a byte address: base + offset + table column + loop terms";
  let description = [{
    Mirrors dc::Address. The base is a kernel-argument buffer
    (`sym @A`, a ktunit.symbol of the bundle) or offset 0 of an instance of
    a memory node (`@spad`, `@spad[1]`, `@spad[t3]`). Then, in this order:
    a constant byte offset (`+ 64`, `- 64`), a table column added as bytes
    (`+ t0`) and loop terms (`+ d0 * 64`, `+ (d1 mod 2) * 4096`), e.g.
    `#ktunit.addr<@spad + 512 + t0 + (d0 mod 2) * 4096 + d1 * 64>`.
  }];
  let parameters = (ins "bool":$isSymbol,
                        "::ktflow::ktunit::NodeRefAttr":$base,
                        "int64_t":$offset,
                        OptionalParameter<"std::optional<int64_t>">:$column,
                        ArrayRefParameter<"::ktflow::ktunit::LoopTermAttr">:$terms);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

def KTUnit_VRegType : TypeDef<KTUnit_Dialect, "VReg"> {
  let mnemonic = "vreg";
  let summary = "a vector register handle: N elements of a float type";
  let description = [{
    `!ktunit.vreg<32xf16>`: a virtual vector register holding 32 f16
    elements. Handles are SSA values created by `ktunit.vreg`; ops read and
    write the register they name, so a register keeps its value across loop
    iterations (accumulators, `slide`) as device registers do.
  }];
  let parameters = (ins "int64_t":$count, "::mlir::Type":$elementType);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

#endif // KTFLOW_UNIT_KTUNITBASE_TD
