//===- KTDPOps.td - ktdp operations -------------------------*- tablegen -*-===//
//
// The operations of ../shared/docs/ktir.md §5. Verifier rules are numbered
// as in the spec and diagnostics name them ("rule 5.2.3").
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_KTDP_OPS_TD
#define KTFLOW_KTDP_OPS_TD

include "ktflow/KTDP/KTDPDialect.td"
include "ktflow/KTDP/KTDPAttrs.td"
include "ktflow/KTDP/KTDPTypes.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def KTDP_ViewOrTensor : AnyTypeOf<[AnyMemRef, AnyRankedTensor],
                                  "memref or ranked tensor">;

//===----------------------------------------------------------------------===//
// §5.1 get_compute_tile_id
//===----------------------------------------------------------------------===//

def KTDP_GetComputeTileIdOp : KTDP_Op<"get_compute_tile_id", [Pure]> {
  let summary = "grid coordinates of the executing compute tile";
  let description = [{
    Result `i` is grid coordinate `i` (x, y, z) of the executing tile; no
    linearisation. 1 to 3 results.
  }];
  let results = (outs Variadic<Index>:$coords);
  let assemblyFormat = "attr-dict `:` type($coords)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// §5.2 construct_memory_view
//===----------------------------------------------------------------------===//

def KTDP_ConstructMemoryViewOp : KTDP_Op<"construct_memory_view",
    [Pure, AttrSizedOperandSegments]> {
  let summary = "a strided view of memory over a set of global coordinates";
  let description = [{
    ```
    %v = ktdp.construct_memory_view %base, sizes: [%m, 64], strides: [64, 1] {
           coordinate_set = affine_set<...>, memory_space = #ktdp.memory_space<global>
         } : memref<?x64xf16>
    ```
    `offset`, sizes and strides count elements of the result's element type.
    The symbols of `coordinate_set` bind, left to right, to the SSA sizes.
  }];
  let arguments = (ins
    Index:$offset,
    Variadic<Index>:$sizes,
    Variadic<Index>:$strides,
    DenseI64ArrayAttr:$static_sizes,
    DenseI64ArrayAttr:$static_strides,
    KTDP_MemorySpaceAttr:$memory_space,
    OptionalAttr<IntegerSetAttr>:$coordinate_set
  );
  let results = (outs AnyMemRef:$result);
  let assemblyFormat = [{
    $offset `,` custom<LabeledIndexList>("\"sizes\"", $sizes, $static_sizes)
    `,` custom<LabeledIndexList>("\"strides\"", $strides, $static_strides)
    attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Sizes and strides with static entries as IntegerAttr and dynamic ones
    /// as the SSA value, in list order.
    ::llvm::SmallVector<::mlir::OpFoldResult> getMixedSizes();
    ::llvm::SmallVector<::mlir::OpFoldResult> getMixedStrides();
    ::mlir::MemRefType getType() {
      return ::llvm::cast<::mlir::MemRefType>(getResult().getType());
    }
    unsigned getRank() { return getStaticSizes().size(); }
    ::mlir::Type getElementType() { return getType().getElementType(); }
    /// The SSA size entries, which bind the symbols of coordinate_set.
    ::mlir::OperandRange getCoordinateSetSymbolOperands() {
      return getSizes().take_front(
          getCoordinateSet() ? getCoordinateSet()->getNumSymbols() : 0);
    }
  }];
}

//===----------------------------------------------------------------------===//
// §5.3 construct_distributed_memory_view
//===----------------------------------------------------------------------===//

def KTDP_ConstructDistributedMemoryViewOp
    : KTDP_Op<"construct_distributed_memory_view", [Pure]> {
  let summary = "one view over the union of partition views";
  let description = [{
    A coordinate resolves through the first partition (operand order) whose
    view accepts it as valid; coordinates in no partition are masked.
  }];
  let arguments = (ins Variadic<AnyMemRef>:$partitions);
  let results = (outs AnyMemRef:$result);
  let assemblyFormat = [{
    `(` ($partitions^ `:` type($partitions))? `)` attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::MemRefType getType() {
      return ::llvm::cast<::mlir::MemRefType>(getResult().getType());
    }
    /// The construct_memory_view of partition `i` (verified to exist).
    ConstructMemoryViewOp getPartitionView(unsigned i);
  }];
}

//===----------------------------------------------------------------------===//
// §5.4 construct_access_tile
//===----------------------------------------------------------------------===//

def KTDP_ConstructAccessTileOp : KTDP_Op<"construct_access_tile",
    [Pure, AttrSizedOperandSegments]> {
  let summary = "the coordinates of a view that one access touches";
  let description = [{
    ```
    %t = ktdp.construct_access_tile %view[%r0, %c0] {
           access_tile_set = affine_set<(d0, d1) : (...)>,
           access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
         } : memref<64x128xf16> -> !ktdp.access_tile<16x128xindex>
    ```
    The subscripts form `base_map` (hidden) applied to `indices`: plain SSA
    values are its dimensions, `symbol(%x)` values its symbols. Point `p` of
    `access_tile_set` (symbols bound to `symbol_operands`) addresses base
    coordinate `base_map(indices) + p` and sits at tile position
    `order(p) - qlo`.
  }];
  let arguments = (ins
    KTDP_ViewOrTensor:$base,
    Variadic<Index>:$indices,
    Variadic<Index>:$symbol_operands,
    AffineMapAttr:$base_map,
    IntegerSetAttr:$access_tile_set,
    AffineMapAttr:$access_tile_order
  );
  let results = (outs KTDP_AccessTileType:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    AccessTileType getType() { return getResult().getType(); }
    /// True when the base is a tensor value rather than a memory view.
    bool hasTensorBase() {
      return ::llvm::isa<::mlir::RankedTensorType>(getBase().getType());
    }
    ::mlir::ShapedType getBaseType() {
      return ::llvm::cast<::mlir::ShapedType>(getBase().getType());
    }
    /// The base_map's dimension operands and symbol operands.
    ::mlir::OperandRange getBaseMapDimOperands() {
      return getIndices().take_front(getBaseMap().getNumDims());
    }
    ::mlir::OperandRange getBaseMapSymbolOperands() {
      return getIndices().drop_front(getBaseMap().getNumDims());
    }
    /// access_tile_order as a permutation (result i reads set dimension
    /// perm[i]); std::nullopt when it is not a permutation.
    std::optional<::llvm::SmallVector<unsigned>> getOrderPermutation();
  }];
}

//===----------------------------------------------------------------------===//
// §5.5 construct_indirect_access_tile
//===----------------------------------------------------------------------===//

def KTDP_SubscriptKind : I32EnumAttr<"SubscriptKind",
    "kind of one subscript of an indirect access tile", [
      I32EnumAttrCase<"Direct", 0, "direct">,
      I32EnumAttrCase<"Indirect", 1, "indirect">
    ]> {
  let cppNamespace = "::ktflow::ktdp";
  let genSpecializedAttr = 0;
}

def KTDP_ConstructIndirectAccessTileOp
    : KTDP_Op<"construct_indirect_access_tile", [
        AttrSizedOperandSegments, MemoryEffects<[MemRead]>,
        SingleBlockImplicitTerminator<"RegionTerminatorOp">,
        DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "an access tile whose coordinates are partly read from memory";
  let description = [{
    ```
    %g = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j)
           %table[ind(%ids[%base + %i]), (%j)] {
             variables_space_set = affine_set<...>, variables_space_order = affine_map<...>
           } : memref<64x128xf16>, memref<16xi32> -> !ktdp.access_tile<8x128xindex>
    ```
    The intermediate variables are the `index` block arguments of the hidden
    region. Subscript `d` is `per_dim_subscript_maps[d]` (dims: the
    intermediate variables; symbols: the `captured` operands). A direct
    subscript's map has one result, the coordinate; an indirect one has one
    result per dimension of its index view, and the coordinate is the integer
    read from that view there. Index views appear in subscript order.
  }];
  let arguments = (ins
    KTDP_ViewOrTensor:$base,
    Variadic<AnyMemRef>:$index_views,
    Variadic<Index>:$captured,
    Variadic<Index>:$symbol_operands,
    IntegerSetAttr:$variables_space_set,
    AffineMapAttr:$variables_space_order,
    DenseI32ArrayAttr:$per_dim_subscript_kinds,
    TypedArrayAttrBase<AffineMapAttr, "affine map array">:$per_dim_subscript_maps
  );
  let results = (outs KTDP_AccessTileType:$result);
  let regions = (region SizedRegion<1>:$intermediate_variables);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    AccessTileType getType() { return getResult().getType(); }
    bool hasTensorBase() {
      return ::llvm::isa<::mlir::RankedTensorType>(getBase().getType());
    }
    ::mlir::ShapedType getBaseType() {
      return ::llvm::cast<::mlir::ShapedType>(getBase().getType());
    }
    /// The intermediate variables (block arguments of the hidden region).
    ::mlir::Block::BlockArgListType getIntermediateVariableArgs() {
      return getIntermediateVariables().front().getArguments();
    }
    unsigned getNumSubscripts() { return getPerDimSubscriptKinds().size(); }
    SubscriptKind getSubscriptKind(unsigned dim) {
      return static_cast<SubscriptKind>(getPerDimSubscriptKinds()[dim]);
    }
    ::mlir::AffineMap getSubscriptMap(unsigned dim) {
      return ::llvm::cast<::mlir::AffineMapAttr>(getPerDimSubscriptMaps()[dim])
          .getValue();
    }
    /// The index view read by subscript `dim`; null for a direct subscript.
    ::mlir::Value getIndexViewForDim(unsigned dim);
    std::optional<::llvm::SmallVector<unsigned>> getOrderPermutation();
  }];
}

def KTDP_RegionTerminatorOp : KTDP_Op<"region_terminator", [
    Pure, Terminator, HasParent<"ConstructIndirectAccessTileOp">]> {
  let summary = "implicit terminator of an indirect tile's variable region";
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// §5.6 load, §5.7 store
//===----------------------------------------------------------------------===//

def KTDP_LoadOp : KTDP_Op<"load", [MemoryEffects<[MemRead]>]> {
  let summary = "read the elements an access tile addresses into a tensor";
  let description = [{
    Masked points and holes read as +0. The tile type may be written in the
    stripped form `<8x64xindex>`.
  }];
  let arguments = (ins KTDP_AccessTileType:$tile);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$tile attr-dict `:` type($tile) `->` type($result)";
  let hasVerifier = 1;
}

def KTDP_StoreOp : KTDP_Op<"store", [MemoryEffects<[MemWrite]>]> {
  let summary = "write a tensor to the elements an access tile addresses";
  let arguments = (ins AnyRankedTensor:$value, KTDP_AccessTileType:$tile);
  let assemblyFormat = [{
    $value `,` $tile attr-dict `:` type($value) `,` type($tile)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// §5.8 runtime_arg_extract
//===----------------------------------------------------------------------===//

def KTDP_RuntimeArgExtractOp : KTDP_Op<"runtime_arg_extract", [Pure]> {
  let summary = "the launch value of a runtime argument, or a guarantee";
  let arguments = (ins KTDP_RuntimeArgExtractKind:$kind,
                       KTDP_RuntimeArgType:$input);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $kind `from` $input `:` type($input) attr-dict `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// §5.9 inter-tile communication (experimental)
//===----------------------------------------------------------------------===//

def KTDP_InterTileProduceOp : KTDP_Op<"inter_tile_produce", [
    MemoryEffects<[MemWrite]>, SingleBlock,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "offer per-group partial values to other tiles (experimental)";
  let description = [{
    A tile in `P(g) = producer_tiles_per_group(g)` runs the region with the
    group index and offers the values of `ktdp.yield_partial`.
  }];
  let arguments = (ins IntegerSetAttr:$producer_tiles_per_group);
  let results = (outs KTDP_TileFutureType:$result);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    TileFutureType getType() { return getResult().getType(); }
    ::mlir::BlockArgument getGroupIndexArg() {
      return getBody().front().getArgument(0);
    }
  }];
}

def KTDP_InterTileReduceOp : KTDP_Op<"inter_tile_reduce", [
    MemoryEffects<[MemRead, MemWrite]>, SingleBlock]> {
  let summary = "combine the partials of each group's producers (experimental)";
  let arguments = (ins
    KTDP_TileFutureType:$future,
    IntegerSetAttr:$consumer_tiles_per_group,
    OptionalAttr<IntegerSetAttr>:$producer_dependency_per_consumer,
    Variadic<AnyType>:$identity
  );
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$combiner);
  let assemblyFormat = [{
    `(` $future `)` `consumer_tiles_per_group` `=` $consumer_tiles_per_group `,`
    (`producer_dependency_per_consumer` `=` $producer_dependency_per_consumer^ `,`)?
    `identity` `(` ($identity^ `:` type($identity))? `)`
    attr-dict `:` custom<FutureType>(type($future)) `->` type($results) $combiner
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def KTDP_InterTileConsumeOp : KTDP_Op<"inter_tile_consume", [
    MemoryEffects<[MemRead]>]> {
  let summary = "deliver a producer's partials unchanged (experimental)";
  let arguments = (ins
    KTDP_TileFutureType:$future,
    IntegerSetAttr:$consumer_tiles_per_group,
    OptionalAttr<IntegerSetAttr>:$producer_dependency_per_consumer
  );
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = [{
    `(` $future `)` `consumer_tiles_per_group` `=` $consumer_tiles_per_group
    (`,` `producer_dependency_per_consumer` `=` $producer_dependency_per_consumer^)?
    attr-dict `:` custom<FutureType>(type($future)) `->` type($results)
  }];
  let hasVerifier = 1;
}

def KTDP_YieldPartialOp : KTDP_Op<"yield_partial", [
    Pure, Terminator, ReturnLike, HasParent<"InterTileProduceOp">]> {
  let summary = "the partials a producer tile offers";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

def KTDP_YieldReducedOp : KTDP_Op<"yield_reduced", [
    Pure, Terminator, ReturnLike, HasParent<"InterTileReduceOp">]> {
  let summary = "the combination of two sets of partials";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

#endif // KTFLOW_KTDP_OPS_TD
