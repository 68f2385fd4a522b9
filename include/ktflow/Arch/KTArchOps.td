//===- KTArchOps.td - ktarch operations ----------------------*- tablegen -*-===//
//
// One op per construct of a description. Ops check what they can see alone
// (positive sizes, counts, depths); whole-device properties (names resolve,
// memories and compute units are reachable, KTIR memory spaces are backed)
// are checked by building the ArchModel in ktarch.device's verifier, so a
// description that parses and verifies is one the compiler can use.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_ARCH_KTARCHOPS_TD
#define KTFLOW_ARCH_KTARCHOPS_TD

include "ktflow/Arch/KTArchDialect.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/RegionKindInterface.td"

// A signless i64 read as a signed value: descriptions write plain integers
// (`bandwidth = -8`), and the verifiers must see the sign to reject it.
def KTArch_IntAttr : SignlessIntegerAttrBase<I64, "64-bit integer attribute"> {
  let returnType = "int64_t";
  let convertFromStorage = "$_self.getValue().getSExtValue()";
}

class KTArch_Op<string mnemonic, list<Trait> traits = []>
    : Op<KTArch_Dialect, mnemonic, traits>;

def KTArch_DeviceOp : KTArch_Op<"device",
    [Symbol, NoTerminator, SingleBlock, NoRegionArguments]> {
  let summary = "one accelerator: the root of a description";
  let description = [{
    Holds the device's memories, units, groups and links. `clock_mhz` is the
    clock the cycle counts of the description refer to.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, KTArch_IntAttr:$clock_mhz);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name `clock_mhz` `=` $clock_mhz attr-dict-with-keyword $body";
  let hasRegionVerifier = 1;
}

def KTArch_GroupOp : KTArch_Op<"group",
    [NoTerminator, SingleBlock, NoRegionArguments,
     ParentOneOf<["DeviceOp", "GroupOp"]>]> {
  let summary = "a replicated group (core, sub-core) of memories and units";
  let description = [{
    Everything inside is instantiated `count` times. What a group declares is
    private to each instance; what an enclosing scope declares is shared by
    all instances of the group.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, KTArch_IntAttr:$count);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name `count` `=` $count attr-dict-with-keyword $body";
  let hasVerifier = 1;
}

def KTArch_MemoryOp : KTArch_Op<"memory", [ParentOneOf<["DeviceOp", "GroupOp"]>]> {
  let summary = "a memory: capacity, alignment, KTIR spaces it backs";
  let description = [{
    `capacity` and `reserved` are bytes per instance (`reserved` is kept
    back from the compiler: program, debug, runtime); `alignment` is the
    byte alignment of buffers placed in it; `spaces` lists the KTIR memory
    spaces (`global`, `ct_local`) it backs; `bandwidth`, when present, is the
    bytes per cycle one instance serves in total over all its links, shared
    by every user.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       KTArch_IntAttr:$capacity,
                       DefaultValuedAttr<KTArch_IntAttr, "0">:$reserved,
                       KTArch_IntAttr:$alignment,
                       DefaultValuedAttr<StrArrayAttr, "{}">:$spaces,
                       OptionalAttr<KTArch_IntAttr>:$bandwidth);
  let assemblyFormat = "$sym_name attr-dict";
  let hasVerifier = 1;
}

class KTArch_MoverOp<string mnemonic, string what>
    : KTArch_Op<mnemonic, [ParentOneOf<["DeviceOp", "GroupOp"]>]> {
  let summary = what;
  let description = [{
    `access` lists, per memory the unit reads or writes, the legal access
    sizes and alignments (#ktarch.access). `semaphores` (required) is the
    number of counting semaphores each instance has; `vector_registers`,
    when present, the vector registers each instance has (absent: none, the
    unit only moves bytes).
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       DefaultValuedAttr<TypedArrayAttrBase<KTArch_AccessAttr, "access rules">, "{}">:$access,
                       KTArch_IntAttr:$semaphores,
                       OptionalAttr<KTArch_IntAttr>:$vector_registers);
  let assemblyFormat = "$sym_name attr-dict";
  let hasVerifier = 1;
}

def KTArch_DmaOp : KTArch_MoverOp<"dma",
    "a DMA engine: moves n-D strided blocks between memories">;
def KTArch_LoadUnitOp : KTArch_MoverOp<"load_unit",
    "a scratchpad load unit: streams scratchpad data into a queue">;
def KTArch_StoreUnitOp : KTArch_MoverOp<"store_unit",
    "a scratchpad store unit: drains a queue into scratchpad">;

def KTArch_ComputeOp : KTArch_Op<"compute", [ParentOneOf<["DeviceOp", "GroupOp"]>]> {
  let summary = "a compute unit: lanes, op classes and their issue costs";
  let description = [{
    `lanes` maps an element type name (`f16`, `f32`, ...) to the elements
    one issue processes; `ops` maps an op class to its issue cost in cycles
    per vector; `matrix` = [rows, cols] makes it a matrix unit whose issue
    does rows*cols*lanes multiply-accumulates. `access` (as for movers) is
    needed only when the unit reads or writes a memory directly.
    `semaphores` and `vector_registers` (both required) are the counting
    semaphores and vector registers each instance has.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       DictionaryAttr:$lanes,
                       DictionaryAttr:$ops,
                       OptionalAttr<DenseI64ArrayAttr>:$matrix,
                       DefaultValuedAttr<TypedArrayAttrBase<KTArch_AccessAttr, "access rules">, "{}">:$access,
                       KTArch_IntAttr:$semaphores,
                       KTArch_IntAttr:$vector_registers);
  let assemblyFormat = "$sym_name attr-dict";
  let hasVerifier = 1;
}

def KTArch_LinkOp : KTArch_Op<"link", [ParentOneOf<["DeviceOp", "GroupOp"]>]> {
  let summary = "a directed link between two nodes";
  let description = [{
    Moves data from `from` to `to` at `bandwidth` bytes per cycle after
    `latency` cycles, in units of `granule` bytes. With `fifo_depth` it is a
    queue holding that many granules. There is one link per instance of the
    scope that declares it: a link declared outside the group of an endpoint
    is shared by all instances of that group.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       FlatSymbolRefAttr:$from,
                       FlatSymbolRefAttr:$to,
                       KTArch_IntAttr:$bandwidth,
                       KTArch_IntAttr:$latency,
                       KTArch_IntAttr:$granule,
                       OptionalAttr<KTArch_IntAttr>:$fifo_depth);
  let assemblyFormat = "$sym_name `:` $from `->` $to attr-dict";
  let hasVerifier = 1;
}

#endif // KTFLOW_ARCH_KTARCHOPS_TD
