//===- KernelSpec.cpp - invariants of a generated kernel's description ----===//
//
// The tile shape follows from the distribution alone (ceil division, so the
// last tiles of an uneven split are masked by the views' coordinate sets).
// validate() states what the printer assumes, so a reducer that edits a spec
// learns at once when an edit made it meaningless.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Gen/KernelSpec.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace ktflow;
using namespace ktflow::gen;

llvm::StringRef gen::elemTypeName(ElemType type) {
  return type == ElemType::F16 ? "f16" : type == ElemType::I32 ? "i32" : "f32";
}

std::optional<ElemType> gen::parseElemType(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<ElemType>>(name)
      .Case("f16", ElemType::F16)
      .Case("f32", ElemType::F32)
      .Case("i32", ElemType::I32)
      .Default(std::nullopt);
}

ElementSize gen::elemSize(ElemType type) {
  return ElementSize{Bytes(type == ElemType::F16 ? 2 : 4)};
}

llvm::StringRef gen::distributionName(Distribution d) {
  switch (d) {
  case Distribution::RowBlocks:
    return "row blocks";
  case Distribution::ColBlocks:
    return "column blocks";
  case Distribution::Blocks2D:
    return "2-D blocks";
  case Distribution::RowLoop:
    return "cyclic row loop";
  case Distribution::ClampedRowLoop:
    return "clamped row-chunk loop";
  }
  return "?";
}

static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

int64_t KernelSpec::numTiles() const {
  int64_t n = 1;
  for (int64_t g : grid)
    n *= g;
  return n;
}

int64_t KernelSpec::tileRows() const {
  if (rank == 1)
    return 1;
  switch (distribution) {
  case Distribution::RowBlocks:
    return ceilDiv(rows, numTiles());
  case Distribution::ColBlocks:
    return rows;
  case Distribution::Blocks2D:
    return ceilDiv(rows, grid[0]);
  case Distribution::RowLoop:
  case Distribution::ClampedRowLoop:
    return 1;
  }
  return 1;
}

int64_t KernelSpec::tileCols() const {
  switch (distribution) {
  case Distribution::RowBlocks:
    return rank == 1 ? ceilDiv(cols, numTiles()) : cols;
  case Distribution::ColBlocks:
    return ceilDiv(cols, numTiles());
  case Distribution::Blocks2D:
    return ceilDiv(cols, grid[1]);
  case Distribution::RowLoop:
  case Distribution::ClampedRowLoop:
    return cols;
  }
  return cols;
}

int64_t KernelSpec::reducedLength() const { return reduceDim == 1 ? tileRows() : tileCols(); }

int64_t KernelSpec::chunkRows() const { return ceilDiv(rows, numTiles()); }

unsigned KernelSpec::walkedDim() const {
  bool reduces = llvm::any_of(outputs, [](const Output &o) { return o.kind != OutputKind::Store; });
  return reduces ? reduceDim : 1;
}

std::vector<std::string> KernelSpec::launchArgs() const {
  if (!launchValues)
    return {};
  return {"n_rows=" + std::to_string(rows), "n_cols=" + std::to_string(cols)};
}

std::optional<std::string> KernelSpec::validate() const {
  if (rank != 1 && rank != 2)
    return "rank must be 1 or 2";
  if (rows < 1 || cols < 1)
    return "shape must be positive";
  if (rank == 1 && rows != 1)
    return "a rank-1 kernel has rows = 1";
  if (grid.empty() || grid.size() > 2)
    return "grid must have 1 or 2 dimensions";
  for (int64_t g : grid)
    if (g < 1)
      return "grid sizes must be positive";
  if (distribution == Distribution::Blocks2D && grid.size() != 2)
    return "2-D blocks need a 2-D grid";
  if (rank == 1 && distribution != Distribution::RowBlocks)
    return "rank-1 kernels are divided in element blocks";
  if (innerBlock < 0)
    return "an inner block is positive";
  if (nodes.empty() || outputs.empty())
    return "a kernel needs at least one node and one output";
  for (const Buffer &b : buffers) {
    if (rank == 1 && (b.shape == BufferShape::Row || b.shape == BufferShape::Column))
      return "row/column buffers need rank 2";
    if (b.shape == BufferShape::Halves &&
        (rank != 2 || distribution != Distribution::RowBlocks || innerBlock > 0))
      return "a buffer of halves needs rank 2 and row blocks without an inner loop";
  }
  for (size_t i = 0; i < nodes.size(); ++i) {
    const Node &n = nodes[i];
    for (unsigned op : n.operands)
      if (op >= i)
        return "node operands must come earlier";
    size_t expected = n.kind == NodeKind::Unary || n.kind == NodeKind::RowReduce ? 1
                      : n.kind == NodeKind::Binary ? 2
                      : n.kind == NodeKind::Fma    ? 3
                                                   : 0;
    if (n.operands.size() != expected)
      return "wrong operand count on node " + std::to_string(i);
    if (n.kind == NodeKind::RowReduce &&
        (rank != 2 || reduceDim != 1 ||
         (n.binary != BinaryOp::Add && n.binary != BinaryOp::Max && n.binary != BinaryOp::Min)))
      return "a row reduction node sums, maxes or mins the rows of a rank-2 tile";
    if (n.kind == NodeKind::Load || n.kind == NodeKind::Broadcast) {
      if (n.buffer >= buffers.size() || buffers[n.buffer].isOutput)
        return "leaf node " + std::to_string(i) + " must read an input buffer";
      BufferShape shape = buffers[n.buffer].shape;
      bool full = shape == BufferShape::Full || shape == BufferShape::Halves;
      if (full != (n.kind == NodeKind::Load))
        return "Load reads Full or Halves buffers, Broadcast the others";
      if (n.half > (shape == BufferShape::Halves ? 1u : 0u))
        return "a half is 0 or 1, of a buffer of halves";
    }
  }
  bool hasReduce = false;
  for (const Output &o : outputs) {
    if (o.node >= nodes.size() || o.buffer >= buffers.size() || !buffers[o.buffer].isOutput)
      return "output must store a node into an output buffer";
    const Buffer &b = buffers[o.buffer];
    if (o.kind == OutputKind::Store) {
      if (b.shape != BufferShape::Full && b.shape != BufferShape::Halves)
        return "stored outputs are Full or Halves buffers";
      if (o.half > (b.shape == BufferShape::Halves ? 1u : 0u))
        return "a half is 0 or 1, of a buffer of halves";
      continue;
    }
    hasReduce = true;
    if (rank != 2)
      return "reductions need rank 2";
    if (b.type != computeType)
      return "a reduction's buffer has the compute type";
    if (b.shape != (reduceDim == 1 ? BufferShape::Column : BufferShape::Row))
      return "a reduction over dimension 1 fills a column, over 0 a row";
  }
  if (hasReduce) {
    // The reduced dimension must not be split across tiles (that would need
    // a cross-tile combine); across the iterations of an inner loop it is
    // an accumulation.
    bool splitsReduced =
        reduceDim == 1 ? (distribution == Distribution::ColBlocks ||
                          distribution == Distribution::Blocks2D)
                       : (distribution != Distribution::ColBlocks);
    if (splitsReduced)
      return "the distribution splits the reduced dimension";
  }
  if (innerBlock > 0) {
    if (rank != 2)
      return "an inner loop needs rank 2";
    // Every block of the inner loop must be a part of one wider block:
    // full operands only (a broadcast operand is the same every iteration).
    for (const Node &n : nodes)
      if (n.kind == NodeKind::Broadcast)
        return "an inner loop reads full operands only";
    if (hasReduce) {
      for (const Output &o : outputs)
        if (o.kind == OutputKind::Store)
          return "an accumulating inner loop stores only its reductions";
    } else if (distribution != Distribution::RowLoop &&
               distribution != Distribution::ClampedRowLoop) {
      return "an inner loop without reductions is nested in a row loop";
    }
  }
  if (scalarAccumulator && (innerBlock <= 0 || !hasReduce || reducedLength() != 1))
    return "a scalar accumulator carries one-element reductions of an inner loop";
  return std::nullopt;
}
