//===- Builder.h - building unit programs op by op --------------*- C++ -*-===//
//
// A lowering into the unit IR writes each program as a sequence of device
// operations, the way device code reads: open a loop, move a vector, close
// the loop. ktunit::ProgramBuilder is that interface over the ktunit ops. It
// takes addresses and node references in the device-code vocabulary
// (dc::Address, dc::NodeRef: base, offset, table column, loop terms) and
// turns them into #ktunit.addr / #ktunit.node attributes, keeps loop
// nesting right, and hands out *virtual* registers: a `Reg` is a number
// whose `ktunit.vreg` handle is declared at the program's start when it is
// first written, with the shape that write gives it. A write of another
// shape (a whole-register write only) starts a new handle for the same
// number, so a lowering may reuse a scratch number for values of different
// shapes; ktunit-allocate-registers picks the physical registers later.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_UNIT_BUILDER_H
#define KTFLOW_UNIT_BUILDER_H

#include "ktflow/DeviceCode/Program.h"
#include "ktflow/Unit/KTUnit.h"

#include "mlir/IR/Builders.h"

#include <string>
#include <vector>

namespace ktflow::ktunit {

/// A virtual vector register of one program (see ProgramBuilder).
using Reg = unsigned;

class ProgramBuilder {
public:
  /// Appends `ktunit.program @name unit "unit"` to `bundle`, run by
  /// `instances` (every instance of the unit when empty), with a table of
  /// `tableColumns` columns filled by addTableRow(). `symbolNames` names the
  /// bundle symbols dc::Address::symbol indexes.
  ProgramBuilder(BundleOp bundle, llvm::StringRef name, llvm::StringRef unit,
                 std::vector<int64_t> instances, uint32_t tableColumns,
                 const std::vector<std::string> &symbolNames, mlir::Location loc);
  ~ProgramBuilder() { finish(); }
  ProgramBuilder(const ProgramBuilder &) = delete;
  ProgramBuilder &operator=(const ProgramBuilder &) = delete;

  /// Adds a table row for the next running instance.
  void addTableRow(std::vector<int64_t> row);
  /// Appends columns to every row (row i gets `rows[i]`).
  void appendTableColumns(const std::vector<std::vector<int64_t>> &rows, uint32_t columns);
  uint32_t tableColumns() const { return columns; }
  /// Writes the table into the program (done by the destructor too).
  void finish();

  ProgramOp program() { return programOp; }
  llvm::StringRef unit() const { return unitName; }

  /// Opens a counted loop; its index is usable in loop terms at the current
  /// depth (loopDepth() before the call).
  void loop(int64_t count);
  void end();
  unsigned loopDepth() const { return blocks.size() - 1 - termBase; }

  /// A loop around code written as if it were at depth 0: until
  /// endLoopAround(), loop terms of addresses are shifted below the new
  /// loop (loopDepth() counts from inside it), and a term of depth
  /// kLoopAround means the new loop's index. How a lowering repeats a
  /// tile's code over the tiles of a run without renumbering its loops.
  static constexpr uint32_t kLoopAround = ~0u;
  void loopAround(int64_t count);
  /// Loops whose trip count is table column `column` (a launch-table
  /// entry), at most `maxCount` for every admitted launch value.
  void loopFromTable(uint32_t column, int64_t maxCount);
  /// A loop of 0 or 1 trips (count: table column `column`) around code
  /// written as if it were not there: loop terms shift below it, as in
  /// loopAround(), but kLoopAround keeps naming the enclosing loopAround().
  /// How a lowering skips a tile some launch values do not run.
  void openGuard(uint32_t column);
  void closeGuard();
  /// Table cell (row, column) is `expr` of the unbound launch values,
  /// computed at launch (dc::LaunchCell); the table holds a placeholder.
  void addLaunchCell(uint32_t row, uint32_t column, llvm::StringRef expr);
  void endLoopAround();

  void acquire(ChannelOp channel, Side side, int64_t count = 1);
  void release(ChannelOp channel, Side side, int64_t count = 1);

  void copy(dc::Address dst, dc::Address src, Bytes runBytes, llvm::ArrayRef<dc::CopyDim> dims);
  void push(dc::NodeRef peer, dc::Address src, Bytes bytes);
  /// A copy whose dims[0] source positions are the `indexType` indices at
  /// `index`, each below `bound` (a DMA gather).
  void gather(dc::Address dst, dc::Address src, Bytes runBytes, llvm::ArrayRef<dc::CopyDim> dims,
              dc::Address index, dc::ElemType indexType, int64_t bound);
  /// A copy whose dims[0] destination positions are the `indexType`
  /// indices at `index`, each below `bound` (a DMA scatter).
  void scatter(dc::Address dst, dc::Address src, Bytes runBytes,
               llvm::ArrayRef<dc::CopyDim> dims, dc::Address index, dc::ElemType indexType,
               int64_t bound);
  /// The program's earlier writes land before its next instruction; `self`
  /// names the running instance.
  void fence(dc::NodeRef self);

  void pop(dc::NodeRef peer, dc::Address dst, Bytes bytes);

  /// A fresh virtual register.
  Reg newReg() { return regs.emplace_back(), regs.size() - 1; }
  void recv(Reg vd, dc::ElemType type, Elements count, dc::NodeRef peer);
  void send(dc::NodeRef peer, Reg va);
  void vload(Reg vd, dc::ElemType type, Elements count, dc::Address src);
  void vstore(dc::Address dst, Reg va);
  void vconst(Reg vd, dc::ElemType type, Elements count, double value);
  /// Binary and unary arithmetic (and `mov`) by device-code opcode; an
  /// opcode without a ktunit op is reported at the program and status()
  /// fails.
  void binary(dc::Opcode op, Reg vd, Reg va, Reg vb);
  void unary(dc::Opcode op, Reg vd, Reg va);
  /// Ternary arithmetic (`fma vd, va, vb, vc` = va * vb + vc).
  void ternary(dc::Opcode op, Reg vd, Reg va, Reg vb, Reg vc);
  mlir::LogicalResult status() const { return mlir::failure(broken); }
  void cast(Reg vd, dc::ElemType type, Reg va);
  void cmp(dc::CmpPredicate p, Reg vd, Reg va, Reg vb);
  void select(Reg vd, Reg vm, Reg va, Reg vb);
  void bcast(Reg vd, Reg va, int64_t lane, Elements count);
  void reduce(dc::Combiner c, Reg vd, Reg va);
  void slide(Reg vd, Reg va);
  /// `ext vd, va, vb, lane`, or with `laneColumn` the lane in that table column.
  void ext(Reg vd, Reg va, Reg vb, int64_t lane,
           std::optional<uint32_t> laneColumn = std::nullopt);
  void concat(Reg vd, Reg va, Reg vb);
  /// `mma vd, va, vb, depth`: vd (M x N) += va (M x K) x vb (K x N), K =
  /// depth; reads and writes vd.
  void mma(Reg vd, Reg va, Reg vb, Elements depth);
  void slice(Reg vd, Reg va, int64_t lane, Elements count);

  mlir::MLIRContext *getContext() { return builder.getContext(); }
  AddressAttr address(const dc::Address &a);
  NodeRefAttr node(const dc::NodeRef &ref) { return nodeRef(getContext(), ref); }
  static NodeRefAttr nodeRef(mlir::MLIRContext *context, const dc::NodeRef &ref);

private:
  /// A gather or a scatter (IndexedCopyOp) of the given operands.
  template <typename IndexedCopyOp>
  void indexedCopy(dc::Address dst, dc::Address src, Bytes runBytes,
                   llvm::ArrayRef<dc::CopyDim> dims, dc::Address index,
                   dc::ElemType indexType, int64_t bound);
  /// The handle register `r` holds now; it must have been written.
  mlir::Value use(Reg r);
  /// The handle a whole-register write of `type` into `r` writes.
  mlir::Value def(Reg r, VRegType type);
  VRegType regType(dc::ElemType type, Elements count);
  /// `ktunit.<op> vd, sources...`, vd shaped as the first source.
  void arith(dc::Opcode op, Reg vd, llvm::ArrayRef<Reg> sources);
  VRegType typeOf(Reg r) { return llvm::cast<VRegType>(use(r).getType()); }

  mlir::OpBuilder builder;
  mlir::Location loc;
  ProgramOp programOp;
  std::string unitName;
  const std::vector<std::string> &symbolNames;
  llvm::SmallVector<mlir::Block *, 8> blocks;
  std::vector<mlir::Value> regs;
  /// The last register declaration (the next goes after it).
  mlir::Operation *lastDeclaration = nullptr;
  std::vector<std::vector<int64_t>> table;
  std::vector<dc::LaunchCell> launchCells;
  uint32_t columns = 0;
  /// Depths of the open loopAround() loops; terms shift by their number.
  llvm::SmallVector<unsigned, 2> aroundDepths;
  unsigned termBase = 0;
  bool finished = false;
  bool broken = false;
};

} // namespace ktflow::ktunit

#endif // KTFLOW_UNIT_BUILDER_H
