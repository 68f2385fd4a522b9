//===- Passes.td - the scheduler's passes -------------------*- tablegen -*-===//
//
// The scheduler pipeline of DESIGN.md, one pass per refinement. Passes that
// ask hardware questions take `arch` (a description name or file); when it
// is empty they use the description embedded in the module, or the one the
// initial pipeline recorded on the kernel.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_SCHEDULE_PASSES_TD
#define KTFLOW_SCHEDULE_PASSES_TD

include "mlir/Pass/PassBase.td"

class ArchPass<string name> : Pass<name, "::mlir::ModuleOp"> {
  list<Option> archOptions = [
    Option<"arch", "arch", "std::string", /*default=*/"\"\"",
           "architecture description (name or file)">
  ];
}

def Specialize : Pass<"ktsched-specialize", "::mlir::ModuleOp"> {
  let summary = "Substitute bound launch values and fold the index arithmetic";
  let description = [{
    DESIGN.md, "Launch values": each `args` entry `NAME=VALUE` binds a
    scalar kernel argument (`index`, an integer, a float, or a
    `!ktdp.runtime_arg`) by its source name or `argN`; its uses become a
    constant, and the scalar arithmetic (arith folders and canonicalization
    patterns), runtime_arg guarantees and view sizes that are now constant
    fold, so subscripts, loop bounds and trip counts are affine in the grid
    coordinates and loop variables or constants. The bound values are
    recorded on the kernel as `ktsched.launch_values`. Without `args` only
    what is already constant folds.
  }];
  let options = [
    ListOption<"args", "args", "std::string",
               "launch values NAME=VALUE (NAME as written in the source, or argN)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def FoldGridConditions : Pass<"ktsched-fold-conditions", "::mlir::ModuleOp"> {
  let summary = "Replace each scf.if that every grid tile takes alike by its taken branch";
  let description = [{
    A condition that is a constant, or an arith.cmpi of indices affine in
    the grid ids (`%pid < %n` once `n` is bound), is evaluated on every grid
    tile; when all agree the taken branch replaces the scf.if. Others stay
    for the input check to diagnose.
  }];
}

def ForwardLocalStores : ArchPass<"ktsched-forward-local-stores"> {
  let summary = "Replace loads of the program's own scratchpad by the tensors stored there";
  let description = [{
    ktir.md 2.4 and 2.5: a kernel that stages a tensor through its own
    tile's scratchpad (`ct_local` without `ct_id`) and loads it back reads
    the tensor the latest store to those bytes wrote. Such a load, when
    that store wrote exactly its bytes (same base, extents, byte strides,
    order and type), becomes the stored tensor; the scratchpad stores and
    their views then go, so no program-owned range is left to reserve.
    Accesses are checked against the capacity of the memory backing
    `ct_local` (when `arch` is set). Loads of unwritten bytes, of bytes
    written in another shape, accesses in loops or branches and
    non-constant addresses are diagnosed; `ct_id` views are left for the
    input check.
  }];
  let options = archOptions;
}

def AbsorbLoops : Pass<"ktsched-absorb-loops", "::mlir::ModuleOp"> {
  let summary = "Rewrite loops whose iterations move adjacent blocks into one wider block";
  let description = [{
    An accumulating scf.for (iter_args combined with a reduction over the
    dimension its blocks advance along) becomes one reduction over the whole
    span, initialised with the carried value's init; a loop without
    iter_args nested in another loop becomes one wider block. The rewritten
    access tiles carry `ktsched.absorbed_loop = {dim, trips, carried}`.
    A scalar iter_arg (the one element of each block's reduction, read by
    tensor.extract) becomes the one-element result of the wider reduction;
    scalar uses of one-element tensors then move onto the tensors
    (ScalarResults.h). Other loops are left for the input check to diagnose.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def AbsorbContraction : Pass<"ktsched-absorb-contraction", "::mlir::ModuleOp"> {
  let summary = "Rewrite a K loop accumulating linalg.matmul results into one contraction";
  let description = [{
    An scf.for whose one tensor iter_arg starts from a splat constant and
    takes, per iteration, linalg.matmul of an M x K block of A and a K x N
    block of B into itself (outs), where the A block advances by its extent
    along its K dimension (1) and the B block along its K dimension (0),
    becomes one linalg.matmul over the union of the blocks, its outs the
    constant. The widened access tiles record
    `ktsched.absorbed_loop = {carried = "contraction", dim, trips}`.
    Other loops are left for the input check to diagnose.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def CheckInput : Pass<"ktsched-check-input", "::mlir::ModuleOp"> {
  let summary = "Reject KTIR outside the scheduler's coverage";
  let description = [{
    Every op of every kernel must be in the supported-op table
    (ktflow/Schedule/SupportedOps.h), which the later lowering queries too;
    structural limits (loops with iter_args, non-identity orders, dynamic
    shapes, non-global views) are diagnosed here, naming the op and what is
    missing.
  }];
}

def FormComputeGroups : Pass<"ktsched-form-groups", "::mlir::ModuleOp"> {
  let summary = "Turn each kernel into compute groups with fused bodies";
  let dependentDialects = ["::ktflow::ktsched::KTSchedDialect"];
}

def ResolvePartitions : Pass<"ktsched-resolve-partitions", "::mlir::ModuleOp"> {
  let summary = "Check each distributed view's partitions and record the pieces of its transfers";
  let description = [{
    For each ktsched.tensor with `partitions`: they must neither overlap nor
    leave a hole in their union's box, and only compute groups' loads and
    stores (in loops with static bounds) may use it. Records `pieces` on
    each such load and store: per grid tile (linear id; in a loop, a list
    per iteration), the partitions its tile touches, each as [partition,
    start0, size0, start1, size1, ...] relative to the tile's origin.
  }];
}

def BuildInitialPipeline : ArchPass<"ktsched-initial-pipeline"> {
  let summary = "load -> compute -> store over logical FIFOs, a vector per step";
  let options = archOptions;
}

def AlignGridBlocks : ArchPass<"ktsched-align-blocks"> {
  let summary = "Re-divide row blocks and cyclic row loops so each grid tile stores whole DMA granules";
  let description = [{
    A group whose grid tiles (or loop iterations) store runs that are not
    whole granules of global memory's transfers would make two cores share
    a granule. Its rows are independent, so each grid tile gets one
    contiguous block of them whose stores are whole granules (a cyclic loop
    or chunked loop is dropped; element-wise grid row blocks are resized,
    element-wise grid column blocks become blocks of whole rows).
    Tiles left without rows are fully masked. Records `granule_blocks` on
    the group. A loop whose iterations on each tile are contiguous rows
    (chunked, or cyclic on one tile) whose stores are whole granules
    already becomes one block of the tile's own rows (`loop_blocks`), so
    tile selection sizes its tiles instead of one tile per iteration.
  }];
  let options = archOptions;
}

def FlattenRows : Pass<"ktsched-flatten", "::mlir::ModuleOp"> {
  let summary = "One flat run for groups whose grid tiles are whole, dense rows that are not whole vectors";
  let description = [{
    Rewrites such a group's iteration space to one dimension of rows x
    columns elements (absorbing a row loop whose iterations are adjacent),
    its transfers to runs of one-dimensional views of their tensors, so
    that only the last vector of a grid tile can be partial. Records
    `flatten` on the group. Reductions, row and column operands and views
    with gaps between rows are left alone.
  }];
}

def ExpandPaths : ArchPass<"ktsched-expand-paths"> {
  let summary = "One stage per unit on the shortest route of each transfer";
  let options = archOptions;
}

def NestPipelines : Pass<"ktsched-nest", "::mlir::ModuleOp"> {
  let summary = "One pipeline per memory level: tiles outside, vectors inside";
}

def BufferPipelines : ArchPass<"ktsched-buffer"> {
  let summary = "N-buffer the buffers between stages; check the budget";
  let options = !listconcat(archOptions, [
    Option<"depth", "depth", "int64_t", /*default=*/"2",
           "copies of each buffer written by one stage and read by another">
  ]);
}

def MergeGridTiles : ArchPass<"ktsched-merge-tiles"> {
  let summary = "Merge consecutive grid tiles so each one's reduction results are a legal DMA run";
  let description = [{
    A reduction's results leave each grid tile as one DMA run, and cores
    never share a DMA access; when a tile's run is not a legal access, k
    consecutive tiles (contiguous in every transfer) become one, run by one
    core. The decision is `merge = {dim, factor}` on the kernel; with
    `plan`, a plan's `merge` is replayed instead (it must run before the
    split, so plan replay of everything else stays after tile selection).
  }];
  let options = !listconcat(archOptions, [
    Option<"plan", "plan", "std::string", /*default=*/"\"\"",
           "plan file whose kernel `merge` entries replace the heuristic">
  ]);
}

def SplitInstances : ArchPass<"ktsched-split"> {
  let summary = "Distribute each group's work over the sub-core instances";
  let options = archOptions;
}

def SelectTiles : ArchPass<"ktsched-select-tiles"> {
  let summary = "Tiles whose buffers fit the scratchpad budget, no larger than the pipeline needs";
  let options = archOptions;
}

def ScheduleContraction : ArchPass<"ktsched-schedule-contraction"> {
  let summary = "Bind each contraction to a matrix unit and decide its blocks, reuse and layout";
  let description = [{
    For every ktsched.contraction: the matrix unit (a compute unit with a
    `matrix` shape and the `matmul` class, reached from the scratchpad
    through a load unit and draining into a store unit: a route search),
    the vector unit that lays operands out in blocks and runs the epilogue,
    the M/N/K block of one matrix instruction (each operand block one
    access of the load unit, the accumulator block one access of the store
    unit), the operand that stays resident, the loop order, the operand
    layout, and the scratchpad regions. A description that offers no such
    binding is diagnosed at the contraction.
  }];
  let options = archOptions;
}

def ScheduleTranspose : ArchPass<"ktsched-schedule-transpose"> {
  let summary = "Bind each transpose to a vector unit and decide its sub-block";
  let description = [{
    For every ktsched.transpose: `transpose = vector` (descriptions forbid
    element-granular DMA and load/store accesses, so the vector unit
    transposes in registers with slice and concat), the vector unit (op
    class `copy`, lanes for the type, fed from and drained into the
    scratchpad by a load and a store unit: a route search), the sub-block
    [H, W] (H source rows form one piece of a transposed row, W source
    columns are transposed per pass over those rows: W accumulator
    registers), and the scratchpad regions (the source rows as the DMA
    lands them, whole granules per row, and the transposed rows). What it
    cannot bind or lay out is diagnosed at the transpose.
  }];
  let options = archOptions;
}

def ScheduleGather : ArchPass<"ktsched-schedule-gather"> {
  let summary = "Bind each gather to the DMA that reaches global memory and size its blocks";
  let description = [{
    For every ktsched.gather: `transfer = dma_gather` (the DMA's indexed
    copy: the index run is copied into scratchpad, then the gather reads
    the rows those indices name), the DMA (the mover next to global memory
    on the route to the scratchpad) and the memory it lands in, `block`
    (rows per gather: the most whose slots fit, at most one DMA run of
    rows), `depth` (row slots: 2 where the rows are gathered in more than
    one block, so one block's copy out overlaps the next block's gather),
    and the regions (`index`: the index run as whole granules, `rows`:
    depth slots of block rows). Rows that are not legal DMA runs, blocks
    that do not fit and index runs past their tensor are diagnosed.
  }];
  let options = archOptions;
}

def ApplyPlan : Pass<"ktsched-apply-plan", "::mlir::ModuleOp"> {
  let summary = "Replace decisions by those of a plan file (JSON)";
  let options = [
    Option<"planFile", "plan", "std::string", /*default=*/"\"\"",
           "plan file written by --dump-plan and possibly edited">
  ];
}

def ClassifyGridTiles : ArchPass<"ktsched-classify-tiles"> {
  let summary = "Classes of grid tiles with equal valid extent, and how instances share each";
  let description = [{
    Records `classes` on each outer pipeline: the grid tiles with the same
    valid (unmasked) extent and loop trip count, that extent, and the split
    shares of each class (a masked class's shares are rebalanced over what
    is valid). Fully masked tiles are in no class; tiles whose loads of
    rows at a stride the global DMA rule does not align start at other
    offsets into a DMA unit are in other classes. Runs after tile
    selection and plan replay; a plan's shares are checked and kept.
  }];
  let options = archOptions;
}

def OrderTransfers : Pass<"ktsched-order-transfers", "::mlir::ModuleOp"> {
  let summary = "Decide which loads are hoisted out of the tile loop and how far loads lead stores";
  let description = [{
    Records `hoist` (a bool on each buffer a dma_load fills: copied once per
    sub-core instance instead of with every tile) and `lead` (on the outer
    pipeline: tiles the DMA's loads run ahead of its stores, at most the
    rotating input depth minus one). Runs after tile selection and plan
    replay; decisions a plan set are kept and checked.
  }];
}

def AllocateScratchpad : ArchPass<"ktsched-allocate"> {
  let summary = "Addresses for every buffer, aligned, reused across groups";
  let options = archOptions;
}

#endif // KTFLOW_SCHEDULE_PASSES_TD
