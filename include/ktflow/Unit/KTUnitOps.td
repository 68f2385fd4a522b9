//===- KTUnitOps.td - the unit IR: ops ----------------------*- tablegen -*-===//
//
// Structure (bundle, symbol, channel, program, loop, compute), transfers,
// synchronisation (channel acquire/release before ktunit-insert-sync,
// semaphore signal/wait/credit after it) and vector ops over register
// handles. docs/unit.md explains each op and why it looks as it does.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_UNIT_KTUNITOPS_TD
#define KTFLOW_UNIT_KTUNITOPS_TD

include "ktflow/Unit/KTUnitBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/RegionKindInterface.td"

class KTUnit_Op<string mnemonic, list<Trait> traits = []>
    : Op<KTUnit_Dialect, mnemonic, traits>;

/// An op of a program body: directly in a program, a loop or a compute body.
class KTUnit_InstOp<string mnemonic, list<Trait> traits = []>
    : KTUnit_Op<mnemonic, !listconcat(traits,
          [ParentOneOf<["ProgramOp", "LoopOp", "ComputeOp"]>])>;

/// A signed 64-bit integer (I64Attr's accessors read it unsigned).
def KTUnit_I64Attr : TypedSignlessIntegerAttrBase<I64, "int64_t",
                                                   "64-bit signless integer attribute"> {
  let convertFromStorage = "$_self.getValue().getSExtValue()";
}

// No C++ type on purpose: the printer then keeps `!ktunit.vreg<...>` whole.
def KTUnit_VReg : Type<CPred<"::llvm::isa<::ktflow::ktunit::VRegType>($_self)">,
                       "vector register handle">;

//===----------------------------------------------------------------------===//
// Structure
//===----------------------------------------------------------------------===//

def KTUnit_BundleOp : KTUnit_Op<"bundle", [Symbol, SymbolTable, IsolatedFromAbove,
    NoTerminator, SingleBlock, NoRegionArguments]> {
  let summary = "the device code of one kernel: symbols, channels, programs";
  let arguments = (ins SymbolNameAttr:$sym_name, StrAttr:$device);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name `device` $device attr-dict-with-keyword $body";
}

def KTUnit_SymbolOp : KTUnit_Op<"symbol", [Symbol, HasParent<"BundleOp">]> {
  let summary = "a kernel-argument buffer in global memory";
  let description = [{
    `ktunit.symbol @A : f16 [256] 512 bytes input`: element type, shape,
    byte size (the shape's size exactly) and direction. Addresses name it as
    `sym @A`; the runtime patches its address in at load time.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, TypeAttr:$element_type,
                       DenseI64ArrayAttr:$shape, KTUnit_I64Attr:$bytes,
                       UnitAttr:$input, UnitAttr:$output);
  let assemblyFormat = [{
    $sym_name `:` $element_type $shape $bytes `bytes` (`input` $input^)?
    (`output` $output^)? attr-dict
  }];
  let hasVerifier = 1;
}

def KTUnit_ChannelOp : KTUnit_Op<"channel", [Symbol, HasParent<"BundleOp">,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "a ring of `depth` slots one program fills and another drains";
  let description = [{
    In the spirit of mlir-aie's ObjectFIFO: the producer acquires a free
    slot and releases it full, the consumer acquires a full slot and
    releases it free. `consumer_ref` is how a producer instance names its
    consumer instance (usually a table column), `producer_ref` how a
    consumer names its producer. Which semaphores implement the hand-off is
    decided by ktunit-insert-sync.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, KTUnit_I64Attr:$depth,
                       FlatSymbolRefAttr:$producer, FlatSymbolRefAttr:$consumer,
                       KTUnit_NodeRefAttr:$consumer_ref,
                       KTUnit_NodeRefAttr:$producer_ref);
  let assemblyFormat = "$sym_name attr-dict";
  let hasVerifier = 1;
}

def KTUnit_ProgramOp : KTUnit_Op<"program", [Symbol, HasParent<"BundleOp">,
    NoTerminator, SingleBlock, NoRegionArguments]> {
  let summary = "what the instances of one unit kind run (SPMD)";
  let description = [{
    `ktunit.program @ld0 unit "ld" instances [0, 2] table dense<...>`: the
    unit node that runs it, the instances running it (all of the unit's when
    absent) and a per-instance table, one row per running instance (in
    `instances` order), whose columns addresses and peers may use.
    `launch_cells` ([row, column, "expression"] each) are table cells the
    runtime computes at launch from unbound launch values (the bundle's
    `launch_values`); the table holds their value at the upperbounds.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, StrAttr:$unit,
                       OptionalAttr<DenseI64ArrayAttr>:$instances,
                       OptionalAttr<I64ElementsAttr>:$table,
                       OptionalAttr<ArrayAttr>:$launch_cells);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name `unit` $unit (`instances` $instances^)? (`table` $table^)?
    attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Columns of the per-instance table (0 without one).
    int64_t getTableColumns();
    /// Table rows, one per running instance.
    llvm::SmallVector<llvm::SmallVector<int64_t>> getTableRows();
  }];
}

def KTUnit_LoopOp : KTUnit_InstOp<"loop", [NoTerminator, SingleBlock,
    NoRegionArguments]> {
  let summary = "a counted loop; its index is `dD` in addresses at its depth";
  let description = [{
    With `count_column`, the trip count is that column of the program's
    table (a launch-table entry, zero included), and `count` its largest
    value over every launch value the bundle admits (what bounds addresses).
  }];
  let arguments = (ins KTUnit_I64Attr:$count,
                       OptionalAttr<KTUnit_I64Attr>:$count_column);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$count attr-dict-with-keyword $body";
  let hasVerifier = 1;
}

def KTUnit_ComputeOp : KTUnit_InstOp<"compute", [NoTerminator, SingleBlock,
    NoRegionArguments]> {
  let summary = "a compute body: one phase of vector ops";
  let description = [{
    Groups the vector ops of one phase; several phases are consecutive
    compute ops. Registers are allocated over every compute body of a
    program together (values may flow from one phase to the next).
  }];
  let arguments = (ins OptionalAttr<StrAttr>:$phase);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "($phase^)? attr-dict-with-keyword $body";
}

//===----------------------------------------------------------------------===//
// Transfers
//===----------------------------------------------------------------------===//

def KTUnit_CopyOp : KTUnit_InstOp<"copy"> {
  let summary = "n-D strided copy between memories in bytes (DMA)";
  let description = [{
    `counts[k]` runs per dimension (outermost first), `src_strides[k]` /
    `dst_strides[k]` bytes apart, each run `run` contiguous bytes.
  }];
  let arguments = (ins KTUnit_AddressAttr:$dst, KTUnit_AddressAttr:$src,
                       KTUnit_I64Attr:$run, DenseI64ArrayAttr:$counts,
                       DenseI64ArrayAttr:$src_strides, DenseI64ArrayAttr:$dst_strides);
  let assemblyFormat = [{
    qualified($dst) `,` qualified($src) `run` $run `dims` $counts $src_strides
    $dst_strides attr-dict
  }];
  let hasVerifier = 1;
}

// A copy one side of whose outermost dimension is indexed by a buffer.
class KTUnit_IndexedCopyOp<string mnemonic> : KTUnit_InstOp<mnemonic> {
  let arguments = (ins KTUnit_AddressAttr:$dst, KTUnit_AddressAttr:$src,
                       KTUnit_I64Attr:$run, DenseI64ArrayAttr:$counts,
                       DenseI64ArrayAttr:$src_strides, DenseI64ArrayAttr:$dst_strides,
                       KTUnit_AddressAttr:$index, TypeAttr:$index_type,
                       KTUnit_I64Attr:$bound);
  let assemblyFormat = [{
    qualified($dst) `,` qualified($src) `run` $run `dims` $counts $src_strides
    $dst_strides `index` qualified($index) `type` $index_type `bound` $bound attr-dict
  }];
  let hasVerifier = 1;
}

def KTUnit_GatherOp : KTUnit_IndexedCopyOp<"gather"> {
  let summary = "a copy whose outermost source positions come from a buffer (DMA gather)";
  let description = [{
    As `copy`, except that run k of the outermost dimension reads from
    `src + index[k] * src_strides[0]`: the DMA first reads `counts[0]`
    indices of `index_type` (i32 or i64) at `index`, then the runs they
    name. An index outside [0, `bound`) stops the run with an error (the
    device never reads past the view). Device-code `gather` (opcode 17).
  }];
}

def KTUnit_ScatterOp : KTUnit_IndexedCopyOp<"scatter"> {
  let summary = "a copy whose outermost destination positions come from a buffer (DMA scatter)";
  let description = [{
    As `gather` with the sides exchanged: run k of the outermost dimension
    is written to `dst + index[k] * dst_strides[0]`, the runs in order (of
    two runs to one position the later stays). An index outside [0,
    `bound`) stops the run with an error (the device never writes past the
    view). Device-code `scatter` (opcode 18, bundle version 6).
  }];
}

def KTUnit_FenceOp : KTUnit_InstOp<"fence"> {
  let summary = "the program's earlier writes land before its next instruction";
  let description = [{
    A mover's transfers are queued: the next one may start before an
    earlier one's data has landed. A fence orders a transfer that reads
    what an earlier transfer of the same program wrote (a DMA gathering
    rows through indices it copied itself). `self` is how the running
    instance names itself. ktunit-insert-sync turns it into a signal to
    itself (delivered once its writes have landed) and a wait.
  }];
  let arguments = (ins KTUnit_NodeRefAttr:$self);
  let assemblyFormat = "qualified($self) attr-dict";
}

def KTUnit_PushOp : KTUnit_InstOp<"push"> {
  let summary = "memory -> FIFO to a peer, one message of `bytes`";
  let arguments = (ins KTUnit_NodeRefAttr:$peer, KTUnit_AddressAttr:$src, KTUnit_I64Attr:$bytes);
  let assemblyFormat = "qualified($peer) `,` qualified($src) `,` $bytes attr-dict";
  let hasVerifier = 1;
}

def KTUnit_PopOp : KTUnit_InstOp<"pop"> {
  let summary = "FIFO from a peer -> memory, one message of `bytes`";
  let arguments = (ins KTUnit_NodeRefAttr:$peer, KTUnit_AddressAttr:$dst, KTUnit_I64Attr:$bytes);
  let assemblyFormat = "qualified($peer) `,` qualified($dst) `,` $bytes attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Synchronisation
//===----------------------------------------------------------------------===//

def KTUnit_AcquireOp : KTUnit_InstOp<"acquire"> {
  let summary = "take `count` slots of a channel (free for the producer, full for the consumer)";
  let arguments = (ins FlatSymbolRefAttr:$channel, KTUnit_Side:$side,
                       DefaultValuedAttr<KTUnit_I64Attr, "1">:$count);
  let assemblyFormat = "$channel $side (`count` $count^)? attr-dict";
  let hasVerifier = 1;
}

def KTUnit_ReleaseOp : KTUnit_InstOp<"release"> {
  let summary = "hand `count` slots on (full to the consumer, free to the producer)";
  let arguments = (ins FlatSymbolRefAttr:$channel, KTUnit_Side:$side,
                       DefaultValuedAttr<KTUnit_I64Attr, "1">:$count);
  let assemblyFormat = "$channel $side (`count` $count^)? attr-dict";
  let hasVerifier = 1;
}

def KTUnit_SignalOp : KTUnit_InstOp<"signal"> {
  let summary = "increment semaphore `sem` of `peer`";
  let arguments = (ins KTUnit_NodeRefAttr:$peer, KTUnit_I64Attr:$sem);
  let assemblyFormat = "qualified($peer) `,` `sem` $sem attr-dict";
}

def KTUnit_WaitOp : KTUnit_InstOp<"wait"> {
  let summary = "block until own semaphore `sem` >= count, subtract count";
  let arguments = (ins KTUnit_I64Attr:$sem, KTUnit_I64Attr:$count);
  let assemblyFormat = "`sem` $sem `,` $count attr-dict";
  let hasVerifier = 1;
}

def KTUnit_CreditOp : KTUnit_InstOp<"credit"> {
  let summary = "add count to own semaphore `sem` (initial credits)";
  let arguments = (ins KTUnit_I64Attr:$sem, KTUnit_I64Attr:$count);
  let assemblyFormat = "`sem` $sem `,` $count attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Vector registers and vector ops
//===----------------------------------------------------------------------===//

def KTUnit_VRegOp : KTUnit_InstOp<"vreg"> {
  let summary = "declare a vector register handle";
  let description = [{
    A virtual register until ktunit-allocate-registers writes `phys`, the
    physical register number.
  }];
  let arguments = (ins OptionalAttr<KTUnit_I64Attr>:$phys);
  let results = (outs KTUnit_VReg:$reg);
  let assemblyFormat = "attr-dict `:` type($reg)";
}

def KTUnit_RecvOp : KTUnit_InstOp<"recv"> {
  let summary = "one message from the FIFO from a peer into a register";
  let arguments = (ins KTUnit_VReg:$dst, KTUnit_NodeRefAttr:$peer);
  let assemblyFormat = "qualified($peer) `->` $dst attr-dict `:` type($dst)";
}

def KTUnit_SendOp : KTUnit_InstOp<"send"> {
  let summary = "a register as one message into the FIFO to a peer";
  let arguments = (ins KTUnit_NodeRefAttr:$peer, KTUnit_VReg:$src);
  let assemblyFormat = "qualified($peer) `,` $src attr-dict `:` type($src)";
}

def KTUnit_VLoadOp : KTUnit_InstOp<"vload"> {
  let summary = "memory -> register";
  let arguments = (ins KTUnit_VReg:$dst, KTUnit_AddressAttr:$src);
  let assemblyFormat = "qualified($src) `->` $dst attr-dict `:` type($dst)";
  let hasVerifier = 1;
}

def KTUnit_VStoreOp : KTUnit_InstOp<"vstore"> {
  let summary = "register -> memory";
  let arguments = (ins KTUnit_AddressAttr:$dst, KTUnit_VReg:$src);
  let assemblyFormat = "qualified($dst) `,` $src attr-dict `:` type($src)";
  let hasVerifier = 1;
}

def KTUnit_VConstOp : KTUnit_InstOp<"vconst"> {
  let summary = "every element of the register set to a constant";
  let arguments = (ins KTUnit_VReg:$dst, F64Attr:$value);
  let assemblyFormat = "$dst `,` $value attr-dict `:` type($dst)";
}

class KTUnit_BinaryOp<string mnemonic>
    : KTUnit_InstOp<mnemonic, [AllTypesMatch<["dst", "lhs", "rhs"]>]> {
  let summary = "elementwise " # mnemonic # " of two registers";
  let arguments = (ins KTUnit_VReg:$dst, KTUnit_VReg:$lhs, KTUnit_VReg:$rhs);
  let assemblyFormat = "$dst `,` $lhs `,` $rhs attr-dict `:` type($dst)";
}
def KTUnit_AddOp : KTUnit_BinaryOp<"add">;
def KTUnit_SubOp : KTUnit_BinaryOp<"sub">;
def KTUnit_MulOp : KTUnit_BinaryOp<"mul">;
def KTUnit_DivOp : KTUnit_BinaryOp<"div">;
def KTUnit_MaxOp : KTUnit_BinaryOp<"max">;
def KTUnit_MinOp : KTUnit_BinaryOp<"min">;
def KTUnit_PowOp : KTUnit_BinaryOp<"pow">;

def KTUnit_FmaOp : KTUnit_InstOp<"fma", [AllTypesMatch<["dst", "lhs", "rhs", "addend"]>]> {
  let summary = "lhs * rhs + addend per element, rounded once";
  let arguments = (ins KTUnit_VReg:$dst, KTUnit_VReg:$lhs, KTUnit_VReg:$rhs,
                       KTUnit_VReg:$addend);
  let assemblyFormat = "$dst `,` $lhs `,` $rhs `,` $addend attr-dict `:` type($dst)";
}

class KTUnit_UnaryOp<string mnemonic>
    : KTUnit_InstOp<mnemonic, [AllTypesMatch<["dst", "src"]>]> {
  let summary = "elementwise " # mnemonic # " of a register";
  let arguments = (ins KTUnit_VReg:$dst, KTUnit_VReg:$src);
  let assemblyFormat = "$dst `,` $src attr-dict `:` type($dst)";
}
def KTUnit_NegOp : KTUnit_UnaryOp<"neg">;
def KTUnit_AbsOp : KTUnit_UnaryOp<"abs">;
def KTUnit_ExpOp : KTUnit_UnaryOp<"exp">;
def KTUnit_SqrtOp : KTUnit_UnaryOp<"sqrt">;
def KTUnit_RsqrtOp : KTUnit_UnaryOp<"rsqrt">;
def KTUnit_LogOp : KTUnit_UnaryOp<"log">;
def KTUnit_TanhOp : KTUnit_UnaryOp<"tanh">;
def KTUnit_ErfOp : KTUnit_UnaryOp<"erf">;
def KTUnit_MovOp : KTUnit_UnaryOp<"mov">;

def KTUnit_CastOp : KTUnit_InstOp<"cast"> {
  let summary = "convert every element to the destination's element type";
  let arguments = (ins KTUnit_VReg:$dst, KTUnit_VReg:$src);
  let assemblyFormat = "$dst `,` $src attr-dict `:` type($dst) `,` type($src)";
  let hasVerifier = 1;
}

def KTUnit_CmpOp : KTUnit_InstOp<"cmp", [AllTypesMatch<["dst", "lhs", "rhs"]>]> {
  let summary = "1 or 0 per element in the operands' type";
  let arguments = (ins KTUnit_CmpPredicate:$predicate, KTUnit_VReg:$dst,
                       KTUnit_VReg:$lhs, KTUnit_VReg:$rhs);
  let assemblyFormat = "$predicate $dst `,` $lhs `,` $rhs attr-dict `:` type($dst)";
}

def KTUnit_SelectOp : KTUnit_InstOp<"select",
    [AllTypesMatch<["dst", "mask", "lhs", "rhs"]>]> {
  let summary = "mask != 0 ? lhs : rhs per element";
  let arguments = (ins KTUnit_VReg:$dst, KTUnit_VReg:$mask, KTUnit_VReg:$lhs,
                       KTUnit_VReg:$rhs);
  let assemblyFormat = "$dst `,` $mask `,` $lhs `,` $rhs attr-dict `:` type($dst)";
}

def KTUnit_BcastOp : KTUnit_InstOp<"bcast"> {
  let summary = "the destination's count copies of element `lane` of src";
  let arguments = (ins KTUnit_VReg:$dst, KTUnit_VReg:$src, KTUnit_I64Attr:$lane);
  let assemblyFormat = "$dst `,` $src `,` $lane attr-dict `:` type($dst) `,` type($src)";
  let hasVerifier = 1;
}

def KTUnit_ReduceOp : KTUnit_InstOp<"reduce"> {
  let summary = "one element: src folded left to right";
  let arguments = (ins KTUnit_Combiner:$combiner, KTUnit_VReg:$dst, KTUnit_VReg:$src);
  let assemblyFormat = "$combiner $dst `,` $src attr-dict `:` type($dst) `,` type($src)";
  let hasVerifier = 1;
}

def KTUnit_SlideOp : KTUnit_InstOp<"slide"> {
  let summary = "dst shifted down one lane, src[0] appended (reads and writes dst)";
  let arguments = (ins KTUnit_VReg:$dst, KTUnit_VReg:$src);
  let assemblyFormat = "$dst `,` $src attr-dict `:` type($dst) `,` type($src)";
  let hasVerifier = 1;
}

def KTUnit_ExtOp : KTUnit_InstOp<"ext", [AllTypesMatch<["dst", "lhs", "rhs"]>]> {
  let summary = "the lanes of lhs:rhs from `lane` on (or the lane in a table column)";
  let arguments = (ins KTUnit_VReg:$dst, KTUnit_VReg:$lhs, KTUnit_VReg:$rhs,
                       KTUnit_I64Attr:$lane, UnitAttr:$lane_from_table);
  let assemblyFormat = [{
    $dst `,` $lhs `,` $rhs `,` (`column` $lane_from_table^)? $lane attr-dict `:` type($dst)
  }];
  let hasVerifier = 1;
}

def KTUnit_ConcatOp : KTUnit_InstOp<"concat"> {
  let summary = "lhs's elements followed by rhs's";
  let arguments = (ins KTUnit_VReg:$dst, KTUnit_VReg:$lhs, KTUnit_VReg:$rhs);
  let assemblyFormat = [{
    $dst `,` $lhs `,` $rhs attr-dict `:` type($dst) `,` type($lhs) `,` type($rhs)
  }];
  let hasVerifier = 1;
}

def KTUnit_MmaOp : KTUnit_InstOp<"mma"> {
  let summary = "dst (M x N) += lhs (M x K) x rhs (K x N) on a matrix unit (reads and writes dst)";
  let arguments = (ins KTUnit_VReg:$dst, KTUnit_VReg:$lhs, KTUnit_VReg:$rhs,
                       KTUnit_I64Attr:$depth);
  let assemblyFormat = [{
    $dst `,` $lhs `,` $rhs `,` $depth attr-dict `:` type($dst) `,` type($lhs) `,` type($rhs)
  }];
  let hasVerifier = 1;
}

def KTUnit_SliceOp : KTUnit_InstOp<"slice"> {
  let summary = "the destination's count elements of src from `lane` on";
  let arguments = (ins KTUnit_VReg:$dst, KTUnit_VReg:$src, KTUnit_I64Attr:$lane);
  let assemblyFormat = "$dst `,` $src `,` $lane attr-dict `:` type($dst) `,` type($src)";
  let hasVerifier = 1;
}

#endif // KTFLOW_UNIT_KTUNITOPS_TD
