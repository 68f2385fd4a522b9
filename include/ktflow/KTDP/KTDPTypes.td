//===- KTDPTypes.td - ktdp types ----------------------------*- tablegen -*-===//
#ifndef KTFLOW_KTDP_TYPES_TD
#define KTFLOW_KTDP_TYPES_TD

include "ktflow/KTDP/KTDPDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class KTDP_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<KTDP_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def KTDP_AccessTileType : KTDP_Type<"AccessTile", "access_tile",
                                    [ShapedTypeInterface]> {
  let summary = "an ordered set of coordinates into one base view (§3.1)";
  let description = [{
    `!ktdp.access_tile<8x128xindex>`, `!ktdp.access_tile<?x64xindex>`,
    `!ktdp.access_tile<index>`. The element type is always `index`; this is
    checked when the type is parsed.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType);
  let builders = [
    TypeBuilder<(ins "::llvm::ArrayRef<int64_t>":$shape), [{
      return $_get($_ctxt, shape, ::mlir::IndexType::get($_ctxt));
    }]>
  ];
  let skipDefaultBuilders = 1;
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    using ::mlir::ShapedType::Trait<AccessTileType>::getRank;
    using ::mlir::ShapedType::Trait<AccessTileType>::getDimSize;
    using ::mlir::ShapedType::Trait<AccessTileType>::hasStaticShape;
    using ::mlir::ShapedType::Trait<AccessTileType>::getNumElements;
    using ::mlir::ShapedType::Trait<AccessTileType>::isDynamicDim;
    bool hasRank() const { return true; }
    ::mlir::ShapedType cloneWith(std::optional<::llvm::ArrayRef<int64_t>> shape,
                                 ::mlir::Type elementType) const;
  }];
}

def KTDP_RuntimeArgType : KTDP_Type<"RuntimeArg", "runtime_arg"> {
  let summary = "a launch-time value with optional guarantees (§3.2)";
  let description = [{
    `!ktdp.runtime_arg<index, granularity=32, upperbound=256>`: the value is
    a multiple of `granularity` and at most `upperbound`.
  }];
  let parameters = (ins
    "::mlir::Type":$valueType,
    OptionalParameter<"std::optional<int64_t>">:$granularity,
    OptionalParameter<"std::optional<int64_t>">:$upperbound
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def KTDP_TileFutureType : KTDP_Type<"TileFuture", "tile_future"> {
  let summary = "handle of an inter-tile produce (experimental, §3.3)";
  let description = [{
    `!ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : ...>>`:
    one partial per listed tensor type, over the group indices of `groups`.
    The older form without parentheses and with one partial type parses too.
  }];
  // `groups` is kept as an attribute so the printer can alias it: MLIR's
  // lexer cannot read `>=` inside the body of a `!ktdp.tile_future<...>`
  // written in full (it takes `>` as a closing bracket).
  let parameters = (ins ArrayRefParameter<"::mlir::Type">:$partialTypes,
                        "::mlir::IntegerSetAttr":$groupsAttr);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    ::mlir::IntegerSet getGroups() const { return getGroupsAttr().getValue(); }
  }];
}

#endif // KTFLOW_KTDP_TYPES_TD
