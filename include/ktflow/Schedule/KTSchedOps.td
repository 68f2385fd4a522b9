//===- KTSchedOps.td - the schedule IR ----------------------*- tablegen -*-===//
//
// The schedule IR (DESIGN.md, "The schedule IR"): a KTIR kernel becomes
// compute groups, each a pipeline of stages bound to units of the
// architecture model, joined by FIFOs and scratchpad buffers. Data
// dependencies are SSA edges: a stage's results are the channels later
// stages consume. Every scheduling decision is a #ktsched.decision attribute
// that records where it came from. docs/schedule.md explains each op.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_SCHEDULE_KTSCHEDOPS_TD
#define KTFLOW_SCHEDULE_KTSCHEDOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def KTSched_Dialect : Dialect {
  let name = "ktsched";
  let summary = "schedules: nested, buffered, split pipelines of unit stages";
  let cppNamespace = "::ktflow::ktsched";
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
}

class KTSched_Op<string mnemonic, list<Trait> traits = []>
    : Op<KTSched_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Types and attributes
//===----------------------------------------------------------------------===//

def KTSched_ChannelType : TypeDef<KTSched_Dialect, "Channel"> {
  let mnemonic = "channel";
  let summary = "a stream of data between two stages";
  let description = [{
    What flows along an SSA edge of a pipeline: tiles (between memory
    levels) or vectors (between scratchpad and a compute unit). Whether it
    is held in a FIFO or a buffer is said by the op that produces it.
  }];
}

def KTSched_DecisionAttr : AttrDef<KTSched_Dialect, "Decision"> {
  let mnemonic = "decision";
  let summary = "a scheduling decision and where it came from";
  let description = [{
    `#ktsched.decision<VALUE, SOURCE>` where SOURCE is `heuristic`, `plan`
    or `costmodel` (DESIGN.md principle 3). The plan file is exactly the set
    of decision attributes of a schedule.
  }];
  let parameters = (ins "::mlir::Attribute":$value,
                        StringRefParameter<"heuristic, plan or costmodel">:$source);
  let assemblyFormat = "`<` $value `,` $source `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Kernel-level structure
//===----------------------------------------------------------------------===//

def KTSched_KernelOp : KTSched_Op<"kernel", [Symbol, SymbolTable,
    IsolatedFromAbove, NoTerminator, SingleBlock, NoRegionArguments]> {
  let summary = "the schedule of one KTIR kernel";
  let description = [{
    Holds the kernel's global tensors and scalar arguments, then its
    compute groups in program order (they run one after another on every
    core). Attributes: `grid` (3 grid extents), `num_args`.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, DenseI64ArrayAttr:$grid,
                       I64Attr:$num_args);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
}

def KTSched_TensorOp : KTSched_Op<"tensor", [Symbol,
    HasParent<"KernelOp">]> {
  let summary = "a tensor in global memory, addressed from a kernel argument";
  let description = [{
    Everything device code needs to address it: the kernel argument holding
    its base (in elements of `element_type`, ktir.md §2.3) plus `offset`
    elements, the element
    type, the view's valid shape and strides (in elements) and the lower
    corner of its coordinate set (coordinates are global, §5.2). The shape
    is the view's sizes cut to its coordinate set's box (points outside it
    are masked, §5.2); where the set is narrower, `view_sizes` keeps the
    sizes, which say how far the view's data reaches in memory.

    A distributed view (ktir.md §5.3) is a tensor with `partitions`: the
    tensors of its partition views, in operand order. Its `shape` and
    `lower_corner` are the box of their union (global coordinates); `arg`,
    `offset` and `strides` are the first partition's and address nothing
    on their own: each transfer through it is one copy per partition piece
    a tile touches (ktsched-resolve-partitions, lib/Lower/DistributedCopy.cpp).

    A gathered tensor (`gather_index`) is the rows of a table that an index
    tensor names, in index order: coordinate (p, c) is the table's element
    (index[p], c). `arg`, `offset`, `strides` and the inner dimensions are
    the table's; the outermost dimension runs over the index tensor's
    positions (its `shape` and `lower_corner` are the index view's), and
    `gather_bound` is the table's row count, which every index must be
    below. Its rows are not where `strides` would put them: a transfer
    through it is a DMA gather (lib/Lower/GatheredLoad.cpp), and the passes
    that read rows as consecutive bytes leave it alone.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, I64Attr:$arg, I64Attr:$offset,
                       TypeAttr:$element_type, DenseI64ArrayAttr:$shape,
                       DenseI64ArrayAttr:$strides,
                       DenseI64ArrayAttr:$lower_corner,
                       OptionalAttr<DenseI64ArrayAttr>:$view_sizes,
                       OptionalAttr<FlatSymbolRefArrayAttr>:$partitions,
                       OptionalAttr<FlatSymbolRefAttr>:$gather_index,
                       OptionalAttr<I64Attr>:$gather_bound);
  let assemblyFormat = "$sym_name attr-dict";
}

def KTSched_GroupOp : KTSched_Op<"group", [Symbol, NoTerminator, SingleBlock,
    NoRegionArguments, HasParent<"KernelOp">]> {
  let summary = "a compute group: loads to stores, one fused compute body";
  let description = [{
    `space` is the iteration space of one grid tile's work (per loop
    iteration), `reduce_dims` the dimensions the group reduces over,
    `loop` (optional) the scf.for the group runs in: a dictionary with
    `lb`, `ub` (affine maps of the grid coordinates) and `step`.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       DenseI64ArrayAttr:$space,
                       DenseI64ArrayAttr:$reduce_dims,
                       TypeAttr:$element_type,
                       OptionalAttr<DictionaryAttr>:$loop);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
}

def KTSched_ContractionOp : KTSched_Op<"contraction", [Symbol, HasParent<"KernelOp">]> {
  let summary = "a contraction compute group: C = A x B (+ init), then an epilogue";
  let description = [{
    One grid tile's matrix product: `a`, `b` and `c` are transfers
    (dictionaries `{tensor, origin, shape}` as on ktsched.load/store) of
    the M x K, K x N and M x N tiles; `accumulator_type` is the declared
    precision the K sum is carried in, `init` its constant initial value,
    and the stored type is `c`'s tensor's. ktsched-schedule-contraction
    adds the decisions (units, blocks, resident operand, loop order,
    operand layout) and the scratchpad regions. docs/schedule.md,
    "Contractions".

    The optional `epilogue` is the element-wise work between the product
    and the store, one element at a time like a ktsched.compute body: its
    first block argument is one accumulator element, the others one
    element of each `epilogue_operands` transfer (`{tensor, origin, shape,
    dims}`, `dims` as on ktsched.load: a bias row is `[-1, 1]`, broadcast
    along M); its ktsched.vop ops end in a ktsched.yield of the stored
    element. Without it the product is stored, cast to the stored type.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, DictionaryAttr:$a, DictionaryAttr:$b,
                       DictionaryAttr:$c, TypeAttr:$accumulator_type, F64Attr:$init,
                       OptionalAttr<ArrayAttr>:$epilogue_operands);
  let regions = (region AnyRegion:$epilogue);
  let assemblyFormat = "$sym_name attr-dict (`epilogue` $epilogue^)?";
}

def KTSched_TransposeOp : KTSched_Op<"transpose", [Symbol, HasParent<"KernelOp">]> {
  let summary = "a transpose compute group: dst = transpose(src), relayed by a vector unit";
  let description = [{
    One grid tile's 2-D transpose, from a load whose access tile order
    swaps the two dimensions straight into a store: `src` and `dst` are
    transfers (dictionaries `{tensor, origin, shape}` as on
    ktsched.load/store) of the R x C source block, in the source's own
    coordinates, and the C x R stored block. ktsched-schedule-transpose
    adds the decisions (`transpose = vector`, the vector unit, the
    sub-block) and the scratchpad regions. docs/schedule.md, "Transposes".
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, DictionaryAttr:$src, DictionaryAttr:$dst);
  let assemblyFormat = "$sym_name attr-dict";
}

def KTSched_GatherOp : KTSched_Op<"gather", [Symbol, HasParent<"KernelOp">]> {
  let summary = "an indirect transfer group: rows named by an index tensor copied into a block, or a block copied into them";
  let description = [{
    One grid tile's load through an indirect access tile (its outermost
    coordinate read from an index tensor) stored directly: `src` is the
    table (`{tensor, origin, shape}`: origin 0 along the indirect
    dimension, the direct coordinates elsewhere; shape the gathered
    block's), `index` the index tensor's run (`{tensor, origin, shape}`,
    one index per gathered row) and `dst` the stored block. With
    `scatter`, the other way round: a block loaded directly (`src`) stored
    through an indirect access tile, `dst` the table whose rows the
    indices name. ktsched-schedule-gather adds the decisions (`transfer =
    dma_gather` or `dma_scatter`, the rows per transfer `block`, the slots
    `depth`) and the scratchpad regions. docs/schedule.md, "Gathers".
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, DictionaryAttr:$src, DictionaryAttr:$index,
                       DictionaryAttr:$dst, UnitAttr:$scatter);
  let assemblyFormat = "$sym_name attr-dict";
}

def KTSched_ScalarArgOp : KTSched_Op<"scalar_arg", [Pure]> {
  let summary = "a scalar kernel argument, passed by value";
  let arguments = (ins I64Attr:$arg, TypeAttr:$value_type);
  let results = (outs KTSched_ChannelType:$result);
  let assemblyFormat = "attr-dict";
}

def KTSched_LoadOp : KTSched_Op<"load"> {
  let summary = "the tile of a global tensor a group reads per grid tile";
  let description = [{
    `origin` maps (g0, g1, g2[, iv]) — grid coordinates and the loop's
    induction variable — to the global coordinates of the tile's first
    element; `shape` is the tile shape; `dims` lists, per tile dimension,
    the dimension of the group's iteration space it runs along (missing
    iteration dimensions are broadcast).
  }];
  let arguments = (ins FlatSymbolRefAttr:$tensor, AffineMapAttr:$origin,
                       DenseI64ArrayAttr:$shape, DenseI64ArrayAttr:$dims);
  let results = (outs KTSched_ChannelType:$result);
  let assemblyFormat = "$tensor attr-dict";
}

def KTSched_StoreOp : KTSched_Op<"store"> {
  let summary = "the tile of a global tensor a group writes per grid tile";
  let arguments = (ins KTSched_ChannelType:$value, FlatSymbolRefAttr:$tensor,
                       AffineMapAttr:$origin, DenseI64ArrayAttr:$shape,
                       DenseI64ArrayAttr:$dims);
  let assemblyFormat = "$value `to` $tensor attr-dict";
}

def KTSched_ComputeOp : KTSched_Op<"compute"> {
  let summary = "a fused compute body over element streams";
  let description = [{
    The body's block arguments are one element of each input, its ops are
    ktsched.vop, and ktsched.yield returns one element per result. The
    same body runs a vector at a time once the pipeline fixes the lanes.
  }];
  let arguments = (ins Variadic<KTSched_ChannelType>:$inputs);
  let results = (outs Variadic<KTSched_ChannelType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    (`(` $inputs^ `)`)? attr-dict-with-keyword (`->` type($results)^)? $body
  }];
}

def KTSched_VectorOp : KTSched_Op<"vop", [Pure]> {
  let summary = "one vector operation of a compute body";
  let description = [{
    `kind` is the op class the compute unit must offer (add, sub, mul, div,
    max, min, neg, abs, exp, log, sqrt, rsqrt, tanh, erf, pow, fma, cmp,
    select, cast, copy, reduce) plus a few forms: `const` (attribute
    `value`), `reduce` (attribute `combiner` = add, max or min, attribute
    `dim` = the reduced iteration dimension), `cmp` (attribute `predicate`
    = lt, le, gt, ge, eq or ne; the result is a mask of 1 or 0 in the
    compared type, which `select` reads as its first operand). Operands and
    the result are one element; the unit applies it lane-wise.
  }];
  let arguments = (ins StrAttr:$kind, Variadic<AnyType>:$operands);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $kind (`(` $operands^ `)`)? attr-dict `:` functional-type($operands, $result)
  }];
}

def KTSched_YieldOp : KTSched_Op<"yield", [Terminator, Pure]> {
  let summary = "ends a compute body or a nested stage";
  let arguments = (ins Variadic<AnyType>:$values);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, ::mlir::ValueRange{}); }]>];
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

//===----------------------------------------------------------------------===//
// Pipelines
//===----------------------------------------------------------------------===//

def KTSched_PipelineOp : KTSched_Op<"pipeline", [
    SingleBlockImplicitTerminator<"YieldOp">, NoRegionArguments]> {
  let summary = "stages running concurrently, joined by FIFOs and buffers";
  let description = [{
    `level` counts memory levels from global memory (0); `moves` says what
    one step moves (`tile` or `vector`). Decisions (tile, loop order,
    split) are attributes of the outermost pipeline. An inner pipeline
    yields the channels its enclosing nested stage produces.
  }];
  let results = (outs Variadic<KTSched_ChannelType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "attr-dict-with-keyword (`->` type($results)^)? $body";
}

def KTSched_StageOp : KTSched_Op<"stage"> {
  let summary = "one activity on one unit";
  let description = [{
    `role` names the activity (load, compute, store before path expansion;
    then dma_load, load, compute, store, dma_store, ..., and `nested`, the
    stage of an outer pipeline that runs an inner pipeline per tile).
    `unit` (a decision) names the architecture node it runs on.
    `transfers` (load/store stages) lists, per result or operand, the tensor
    it moves. A compute stage holds the compute body; a nested stage the
    inner pipeline, ended by ktsched.yield of the channels it produces.
  }];
  let arguments = (ins StrAttr:$role, Variadic<KTSched_ChannelType>:$inputs);
  let results = (outs Variadic<KTSched_ChannelType>:$results);
  let regions = (region AnyRegion:$body);
  let assemblyFormat = [{
    $role (`(` $inputs^ `)`)? attr-dict-with-keyword (`->` type($results)^)? ($body^)?
  }];
}

def KTSched_FifoOp : KTSched_Op<"fifo", [Pure]> {
  let summary = "a FIFO between two stages";
  let description = [{
    Logical until path expansion binds it to a link of the architecture
    (`link`); its depth comes from the link.
  }];
  let arguments = (ins KTSched_ChannelType:$source);
  let results = (outs KTSched_ChannelType:$result);
  let assemblyFormat = "$source attr-dict";
}

def KTSched_BufferOp : KTSched_Op<"buffer", [Pure]> {
  let summary = "a buffer in a memory, written by one stage, read by the next";
  let description = [{
    `memory` names the architecture memory. Later passes add `bytes` (one
    copy), `depth` (copies; a decision), `address` (a decision, bytes from
    the start of the memory instance) and `instance_stride` (bytes between
    the copies of consecutive sub-core instances).
  }];
  let arguments = (ins KTSched_ChannelType:$source);
  let results = (outs KTSched_ChannelType:$result);
  let assemblyFormat = "$source attr-dict";
}

#endif // KTFLOW_SCHEDULE_KTSCHEDOPS_TD
