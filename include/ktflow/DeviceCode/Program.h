//===- Program.h - device code: instructions, programs, bundles -*- C++ -*-===//
//
// Device code is the bottom of the stack: per execution unit a stream of
// instructions (docs/devicecode.md). The data structures here are what the
// lowering builds (through ProgramBuilder), what the binary encoding and the
// text form serialise, and what the simulator executes.
//
// Programs are SPMD per unit kind: a Program names a unit (a node of the
// architecture description, by name) and the instances that run it; each
// such instance has one row of the program's per-instance table, whose
// columns add per-instance byte offsets to addresses and select peer
// instances. Nothing here knows a unit, a memory or a number of a device:
// names are resolved against an ArchModel when a bundle is simulated.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_DEVICECODE_PROGRAM_H
#define KTFLOW_DEVICECODE_PROGRAM_H

#include "ktflow/Support/Units.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ktflow::dc {

/// Element types of vector registers. Values are the encoding (the integer
/// types since bundle version 5). Integer lanes wrap to their width (two's
/// complement, ktir.md "Integer semantics").
enum class ElemType : uint8_t { F16 = 1, BF16 = 2, F32 = 3, I8 = 4, I32 = 5, I64 = 6 };
inline bool isIntegerType(ElemType type) {
  return type == ElemType::I8 || type == ElemType::I32 || type == ElemType::I64;
}
llvm::StringRef elemTypeName(ElemType type);
std::optional<ElemType> parseElemType(llvm::StringRef name);
ElementSize elemTypeSize(ElemType type);

/// Register and semaphore numbers an instruction may hold: encoding sanity
/// bounds (a register number is one byte; a semaphore number is bounded so
/// a corrupt bundle is rejected early), not device properties. How many a
/// unit has is a fact of the architecture description
/// (ArchModel::vectorRegisterCount / semaphoreCount), checked where a model
/// is at hand (sim::checkUnitResources).
constexpr unsigned kEncodableVectorRegisters = 256;
constexpr unsigned kEncodableSemaphores = 1024;
/// Deepest loop nest a program may have.
constexpr unsigned kMaxLoopDepth = 16;
/// Widest per-instance table a program may have.
constexpr unsigned kMaxTableColumns = 1024;
/// Most elements a register may hold: an encoding sanity bound that keeps a
/// corrupt bundle from asking for absurd allocations, not a device property.
constexpr int64_t kMaxVectorElements = 1 << 20;

/// Which instance of a named node an instruction means.
struct InstanceSelector {
  enum class Kind : uint8_t {
    /// The instance with the cheapest route from (or to) the executing
    /// instance, as ArchModel::routeTo / routeFrom choose it.
    Nearest = 0,
    /// A fixed instance number (mixed radix, see ArchModel).
    Absolute = 1,
    /// The instance number held in a column of the per-instance table.
    TableColumn = 2,
  };
  Kind kind = Kind::Nearest;
  int64_t value = 0; ///< Instance number or column index.
};

/// A node of the architecture description by name, with an instance.
struct NodeRef {
  std::string name;
  InstanceSelector instance;
};

/// `(loopIndex(depth) mod modulus) * stride` added to an address; modulus 0
/// means no modulus. N-buffering is a term with modulus N.
struct LoopTerm {
  uint32_t depth = 0; ///< 0 = outermost loop enclosing the instruction.
  Bytes stride;
  int64_t modulus = 0;
};

/// A byte address: base + offset + table column + loop terms.
struct Address {
  enum class Base : uint8_t {
    /// A kernel argument: its address is patched in at load time.
    Symbol = 0,
    /// Offset 0 of an instance of a memory node.
    Memory = 1,
  };
  Base base = Base::Memory;
  uint32_t symbol = 0; ///< Index into Bundle::symbols for Base::Symbol.
  NodeRef memory;      ///< For Base::Memory.
  Bytes offset;
  /// Column of the per-instance table added as a byte offset, if any.
  std::optional<uint32_t> tableColumn;
  llvm::SmallVector<LoopTerm, 2> terms;
};

/// One dimension of a strided copy: `count` runs, `srcStride` / `dstStride`
/// bytes apart.
struct CopyDim {
  int64_t count = 1;
  Bytes srcStride, dstStride;
};

enum class Opcode : uint8_t {
  // Control.
  Loop = 1,    ///< count: repeat the body up to the matching End.
  End = 2,
  // Synchronisation.
  Signal = 3,  ///< peer, sem: increment semaphore `sem` of `peer`.
  Wait = 4,    ///< sem, count: block until own semaphore >= count, subtract.
  /// sem, count: add count to own semaphore (local, no peer): the initial
  /// credits of a slot ring, so a producer need not skip its first waits.
  Credit = 5,
  // Data movement.
  Copy = 10,   ///< dst, src, runBytes, dims: memory -> memory (DMA).
  /// dst, src, runBytes, dims, index, type, bound: a copy whose outermost
  /// dimension is indirect (a DMA gather, version 5): the DMA first reads
  /// dims[0].count indices of `type` (i32 or i64) at `index`, then places
  /// run k's source at src + indices[k] * dims[0].srcStride; an index
  /// outside [0, indexBound) is a run-time error, never a read.
  Gather = 17,
  /// dst, src, runBytes, dims, index, type, bound: a copy whose outermost
  /// destination is indirect (a DMA scatter, version 6): as Gather, except
  /// that run k is written to dst + indices[k] * dims[0].dstStride; an
  /// index outside [0, indexBound) is a run-time error, never a write.
  Scatter = 18,
  Push = 11,   ///< peer, src, bytes: memory -> FIFO to peer.
  Pop = 12,    ///< peer, dst, bytes: FIFO from peer -> memory.
  Recv = 13,   ///< vd, type, count, peer: FIFO from peer -> register.
  Send = 14,   ///< peer, va: register -> FIFO to peer.
  VLoad = 15,  ///< vd, type, count, src: memory -> register.
  VStore = 16, ///< dst, va: register -> memory.
  // Vector arithmetic (element type and count come from the operands).
  VConst = 20, ///< vd, type, count, imm: splat.
  Add = 21, Sub = 22, Mul = 23, Div = 24, Max = 25, Min = 26,
  Pow = 27,    ///< vd, va, vb: va ** vb (math.powf).
  Fma = 28,    ///< vd, va, vb, vc: va * vb + vc, rounded once (math.fma).
  Neg = 30, Abs = 31, Exp = 32, Mov = 33,
  Sqrt = 34, Rsqrt = 35, Log = 36, Tanh = 37, Erf = 38,
  Cast = 40,   ///< vd, type, va.
  Cmp = 41,    ///< vd, va, vb, predicate: 1 or 0 in va's type.
  Select = 42, ///< vd, vm, va, vb: vm != 0 ? va : vb.
  Bcast = 43,  ///< vd, va, lane, count: count copies of va[lane].
  Reduce = 44, ///< vd, va, combiner: one element, folded left to right.
  Slide = 45,  ///< vd, va: vd = vd[1..] followed by va[0] (collects scalars).
  /// vd, va, vb, lane: the va.count lanes of the pair va:vb from `lane` on
  /// (va[lane..] followed by vb[..lane-1]); the lane may be a table column,
  /// so one program serves instances whose data sit at different lanes.
  Ext = 46,
  /// vd, va, vb: va's elements followed by vb's (one type): a vector that
  /// arrived as several messages (a wide element type, one access each).
  Concat = 47,
  /// vd, va, lane, count: `count` elements of va from `lane` on: the part
  /// of a wide vector one message or memory access can carry.
  Slice = 48,
  // Matrix arithmetic (shapes come from the operands and the depth).
  /// vd, va, vb, count: vd += va x vb on a matrix unit, K = count: va holds
  /// M x K elements row-major, vb K x N, vd M x N of the accumulator's
  /// type; every product and sum rounded to vd's type, each element folding
  /// k = 0, 1, ... in order (sim/MatrixOps.h).
  Mma = 50,
};

enum class CmpPredicate : uint8_t { Lt = 0, Le = 1, Gt = 2, Ge = 3, Eq = 4, Ne = 5 };
enum class Combiner : uint8_t { Add = 0, Max = 1, Min = 2 };

llvm::StringRef opcodeName(Opcode op);
std::optional<Opcode> parseOpcode(llvm::StringRef name);
llvm::StringRef predicateName(CmpPredicate p);
/// The predicate named `name` (lt, le, gt, ge, eq, ne); nullopt otherwise,
/// or for a null attribute name.
std::optional<CmpPredicate> parsePredicate(llvm::StringRef name);
llvm::StringRef combinerName(Combiner c);
/// The op class of the architecture description (`ops` of a compute unit)
/// whose issue cost a vector instruction pays, or "" for non-vector ops.
llvm::StringRef opClassOf(Opcode op, Combiner combiner = Combiner::Add);
bool isVectorArith(Opcode op);
bool isBinaryArith(Opcode op);
bool isUnaryArith(Opcode op);
/// `fma`: three source registers, one rounding.
bool isTernaryArith(Opcode op);
/// `mma`: a matrix unit's block multiply-accumulate.
inline bool isMatrixArith(Opcode op) { return op == Opcode::Mma; }

/// One instruction. Only the fields its opcode uses are meaningful.
struct Instruction {
  Opcode op = Opcode::End;
  uint8_t vd = 0, va = 0, vb = 0, vc = 0;
  ElemType type = ElemType::F32;
  /// Loop count, wait count, element count (registers), lane (Bcast, Ext, Slice).
  int64_t count = 0;
  int64_t lane = 0;
  /// Ext: `lane` is a column of the per-instance table, whose value is the lane.
  bool laneFromTable = false;
  /// Loop: `count` is a column of the per-instance table, whose value is the
  /// trip count (a launch-table entry, zero included).
  bool countFromTable = false;
  /// Semaphore index (Signal/Wait/Credit); predicate or combiner (Cmp/Reduce).
  uint32_t sem = 0;
  CmpPredicate predicate = CmpPredicate::Lt;
  Combiner combiner = Combiner::Add;
  double imm = 0;
  /// Bytes moved (Push/Pop), bytes of one contiguous run (Copy).
  Bytes bytes;
  NodeRef peer;
  Address dst, src;
  llvm::SmallVector<CopyDim, 3> dims; ///< Outermost first (Copy, Gather).
  /// Gather: where its indices are (`type` of each), and the number of
  /// source positions they may name (the view's extent along dims[0]).
  Address index;
  int64_t indexBound = 0;
};

/// The vector registers `inst` reads or writes, in operand order.
llvm::SmallVector<uint8_t, 4> registerOperands(const Instruction &inst);

/// A launch-table entry: cell (row, column) of a program's per-instance
/// table is `expr` (LaunchTable.h's grammar) of the unbound launch values.
struct LaunchCell {
  uint32_t row = 0, column = 0;
  std::string expr;
};

struct Program {
  /// The unit node that runs it.
  std::string unit;
  /// Instances running it; empty = every instance of the unit.
  std::vector<int64_t> instances;
  /// Columns of the per-instance table (0 = no table).
  uint32_t tableColumns = 0;
  /// One row per running instance (in `instances` order, or instance order
  /// when `instances` is empty), `tableColumns` values each.
  std::vector<std::vector<int64_t>> table;
  /// Table cells the runtime computes once at launch from the launch values
  /// (bindLaunchValues, LaunchTable.h); the table holds a placeholder there.
  std::vector<LaunchCell> launchCells;
  std::vector<Instruction> body;
};

/// A kernel argument: a buffer in the global memory whose address the
/// runtime assigns and patches in at load time.
struct Symbol {
  std::string name;
  /// Element type name as in MLIR ("f16", "bf16", "f32", "i32", ...).
  std::string elementType;
  std::vector<int64_t> shape;
  Bytes size;
  bool isInput = false, isOutput = false;
};

/// A launch value the code was specialized for (DESIGN.md, "Launch
/// values"): scalar kernel argument `arg`, called `name` in the source, had
/// `value` at compile time; the code is only valid for that value. An
/// unbound one (`bound` false, no value) is given at launch: a multiple of
/// `granularity` in [0, upperbound], which the launch-table cells read.
struct LaunchValue {
  std::string name;
  uint32_t arg = 0;
  /// The argument's (underlying) type as MLIR spells it: "index", "i32",
  /// "f16", ...
  std::string type;
  /// The value as text that reads back exactly in `type` ("2000", "0.125").
  std::string value;
  bool bound = true;
  int64_t granularity = 1, upperbound = 0;
  /// Bound at launch (bindLaunchValues), not at compile time; not encoded.
  bool boundAtLaunch = false;
};

/// Whether `text` is `launch`'s value in its type (integers compared
/// exactly, floats after rounding to the type); std::nullopt when `text`
/// is not a value of that type.
std::optional<bool> sameLaunchValue(const LaunchValue &launch, llvm::StringRef text);

struct Bundle {
  /// The architecture description the code was built for (informative).
  std::string device;
  /// The launch values it was specialized for, in argument order.
  std::vector<LaunchValue> launchValues;
  std::vector<Symbol> symbols;
  std::vector<Program> programs;
};

/// The byte size of one element of an element type name, if known.
std::optional<ElementSize> elementSizeOf(llvm::StringRef elementType);

/// Checks every structural rule a bundle must obey without an architecture
/// (operand ranges, loop nesting, table shapes, symbol sizes). The decoder,
/// the text parser and the builder all run it, so the simulator can rely on
/// it. `where` prefixes the messages.
llvm::Error verifyBundle(const Bundle &bundle, llvm::StringRef where);

/// Matching End for each Loop (and Loop for each End), by instruction index;
/// only valid on a verified program.
std::vector<size_t> matchLoops(const Program &program);

/// Emits programs instruction by instruction, keeping loop nesting right.
class ProgramBuilder {
public:
  ProgramBuilder(Bundle &bundle, llvm::StringRef unit,
                 std::vector<int64_t> instances = {}, uint32_t tableColumns = 0);

  /// Adds a table row for the next running instance.
  void addTableRow(std::vector<int64_t> row);

  static Address symbolAddress(uint32_t symbol, Bytes offset = Bytes(0));
  static Address memoryAddress(llvm::StringRef memory, Bytes offset = Bytes(0),
                               InstanceSelector instance = {});
  static NodeRef node(llvm::StringRef name, InstanceSelector instance = {});

  /// Opens a counted loop; its index is usable in LoopTerms at the current
  /// depth (loopDepth() before the call).
  void loop(int64_t count);
  /// Opens a loop whose trip count is table column `column`.
  void loopFromTable(uint32_t column);
  void end();
  unsigned loopDepth() const { return depth; }

  void signal(NodeRef peer, uint32_t sem);
  void wait(uint32_t sem, int64_t count);
  void credit(uint32_t sem, int64_t count);
  void copy(Address dst, Address src, Bytes runBytes, llvm::ArrayRef<CopyDim> dims);
  /// A copy whose dims[0] source positions are read from `index` (Gather).
  void gather(Address dst, Address src, Bytes runBytes, llvm::ArrayRef<CopyDim> dims,
              Address index, ElemType indexType, int64_t indexBound);
  /// A copy whose dims[0] destination positions are read from `index`
  /// (Scatter).
  void scatter(Address dst, Address src, Bytes runBytes, llvm::ArrayRef<CopyDim> dims,
               Address index, ElemType indexType, int64_t indexBound);
  void push(NodeRef peer, Address src, Bytes bytes);
  void pop(NodeRef peer, Address dst, Bytes bytes);
  void recv(uint8_t vd, ElemType type, Elements count, NodeRef peer);
  void send(NodeRef peer, uint8_t va);
  void vload(uint8_t vd, ElemType type, Elements count, Address src);
  void vstore(Address dst, uint8_t va);
  void vconst(uint8_t vd, ElemType type, Elements count, double value);
  void binary(Opcode op, uint8_t vd, uint8_t va, uint8_t vb);
  void unary(Opcode op, uint8_t vd, uint8_t va);
  /// `fma vd, va, vb, vc`: va * vb + vc.
  void ternary(Opcode op, uint8_t vd, uint8_t va, uint8_t vb, uint8_t vc);
  void cast(uint8_t vd, ElemType type, uint8_t va);
  void cmp(CmpPredicate p, uint8_t vd, uint8_t va, uint8_t vb);
  void select(uint8_t vd, uint8_t vm, uint8_t va, uint8_t vb);
  void bcast(uint8_t vd, uint8_t va, int64_t lane, Elements count);
  void reduce(Combiner c, uint8_t vd, uint8_t va);
  void slide(uint8_t vd, uint8_t va);
  /// `ext vd, va, vb, lane`, or with `laneColumn` the lane in that table column.
  void ext(uint8_t vd, uint8_t va, uint8_t vb, int64_t lane,
           std::optional<uint32_t> laneColumn = std::nullopt);
  void concat(uint8_t vd, uint8_t va, uint8_t vb);
  void slice(uint8_t vd, uint8_t va, int64_t lane, Elements count);
  /// vd += va x vb over `depth` (K) elements (Opcode::Mma).
  void mma(uint8_t vd, uint8_t va, uint8_t vb, Elements depth);

  Program &program() { return bundle.programs[index]; }

private:
  Instruction &emit(Opcode op);
  void indexedCopy(Opcode op, Address dst, Address src, Bytes runBytes,
                   llvm::ArrayRef<CopyDim> dims, Address index, ElemType indexType,
                   int64_t indexBound);
  Bundle &bundle;
  size_t index;
  unsigned depth = 0;
};

} // namespace ktflow::dc

#endif // KTFLOW_DEVICECODE_PROGRAM_H
