//===- ExecuteTransfers.cpp - copies, vector loads and vector stores ===//
//
// A copy (an n-D strided DMA descriptor), a vector load and a vector store
// reserve the path of their route (source port, links, destination port)
// through the resource calendar. The issuing unit is free once its data
// has left the first resource (a DMA engine queues descriptors, a load
// unit pipelines reads); the data lands in memory when its tail arrives,
// as a pending write, so a reader that runs earlier sees the old bytes.
// A gather runs in two steps: it reads its index vector over the route from
// the index buffer's memory (each index checked against the view's extent:
// an index outside it stops the run with the instruction's location, never
// reads another row), and when the indices have arrived it copies the runs
// they name like a copy whose outermost source offsets they give. A
// scatter is the same with the indices giving the outermost destination
// offsets; its runs land in order, so of two runs to one row the later
// stays (as the interpreter keeps the later point, ktir.md 5.7).
//
//===----------------------------------------------------------------------===//
#include "Engine.h"

#include "llvm/Support/FormatVariadic.h"

#include "llvm/Support/MathExtras.h"

#include <cstring>

using namespace ktflow;
using namespace ktflow::sim;
using namespace ktflow::sim::detail;
using namespace ktflow::arch;
using namespace ktflow::dc;
using llvm::StringRef;

void Engine::landWrite(size_t index) {
  PendingWrite &w = writes[index];
  size_t offset = 0;
  for (auto [address, size] : w.runs) {
    memories[w.memory].write(address, w.data.data() + offset, size);
    offset += size.count();
  }
  freeWrites.push_back(index);
}

bool Engine::executeCopy(unsigned unit, const Instruction &inst) {
  Unit &u = units[unit];
  if (!payIssueCost(unit))
    return false;
  std::optional<Place> dstOr = resolve(u, inst.dst), srcOr = resolve(u, inst.src);
  if (!dstOr || !srcOr)
    return false;
  Place dst = *dstOr, src = *srcOr;
  llvm::SmallVector<Bytes, 4> srcStrides, dstStrides;
  Bytes srcExtent = inst.bytes, dstExtent = inst.bytes;
  int64_t runs = 1;
  for (const CopyDim &d : inst.dims)
    if (d.srcStride < Bytes(0) || d.dstStride < Bytes(0))
      return fail(u, "negative strides are not supported");
  for (const CopyDim &d : inst.dims) {
    srcStrides.push_back(d.srcStride);
    dstStrides.push_back(d.dstStride);
    // Loaded code can name any count and stride: an extent past int64
    // is an error, not an overflow.
    int64_t srcSpan, dstSpan, src, dst;
    if (llvm::MulOverflow(d.srcStride.count(), d.count - 1, srcSpan) ||
        llvm::MulOverflow(d.dstStride.count(), d.count - 1, dstSpan) ||
        llvm::AddOverflow(srcExtent.count(), srcSpan, src) ||
        llvm::AddOverflow(dstExtent.count(), dstSpan, dst) ||
        llvm::MulOverflow(runs, d.count, runs))
      return fail(u, "the copy's extent overflows");
    srcExtent = Bytes(src);
    dstExtent = Bytes(dst);
  }
  if (!checkAccess(u, src, inst.bytes, srcStrides, srcExtent) ||
      !checkAccess(u, dst, inst.bytes, dstStrides, dstExtent))
    return false;
  Bytes total = inst.bytes * runs;
  // The simulator stages a copy's bytes in host memory; a bound keeps a
  // corrupt descriptor from exhausting it (a host limit, not a device one).
  if (options.computeValues && total > kMaxStagedBytes)
    return fail(u, llvm::formatv("copies {0} bytes at once; the simulator stages at most {1}",
                                 total.count(), kMaxStagedBytes.count()));
  std::vector<PathStep> path;
  if (Reservable *p = portResource(src.memory))
    path.push_back(p);
  if (!appendRouteBetween(u, path, src.memory, u.instance))
    return false;
  if (!appendRouteBetween(u, path, u.instance, dst.memory))
    return false;
  if (Reservable *p = portResource(dst.memory))
    path.push_back({p, /*write=*/true});
  auto [sendEnd, tail] = reserve(path, total);
  size_t w = newWrite(memoryKey(dst.memory));
  if (options.computeValues) {
    PendingWrite &pw = writes[w];
    pw.data.resize(total.count());
    SimMemory &from = memoryOf(src.memory);
    // Walk the runs in row-major order of the dimensions.
    llvm::SmallVector<int64_t, 4> idx(inst.dims.size(), 0);
    for (int64_t r = 0; r < runs; ++r) {
      Bytes so = src.address, dof = dst.address;
      for (size_t d = 0; d < idx.size(); ++d) {
        so += inst.dims[d].srcStride * idx[d];
        dof += inst.dims[d].dstStride * idx[d];
      }
      from.read(so, pw.data.data() + r * inst.bytes.count(), inst.bytes);
      pw.runs.push_back({dof, inst.bytes});
      for (size_t d = idx.size(); d-- > 0;) {
        if (++idx[d] < inst.dims[d].count)
          break;
        idx[d] = 0;
      }
    }
  }
  issued(u);
  return awaitWrite(unit, w, sendEnd, tail);
}

bool Engine::executeGather(unsigned unit, const Instruction &inst) {
  Unit &u = units[unit];
  if (!payIssueCost(unit))
    return false;
  std::optional<Place> dstOr = resolve(u, inst.dst), srcOr = resolve(u, inst.src);
  std::optional<Place> indexOr = resolve(u, inst.index);
  if (!dstOr || !srcOr || !indexOr)
    return false;
  Place dst = *dstOr, src = *srcOr, index = *indexOr;
  const CopyDim &outer = inst.dims.front();
  int64_t count = outer.count;
  ElementSize indexSize = elemTypeSize(inst.type);
  Bytes indexBytes = toBytes(Elements(count), indexSize);
  if (!u.gatherIndicesAt) {
    // Step 1: the indices travel from their memory to the DMA engine, in
    // the smallest access the engine's rule for that memory allows that
    // holds them (aligned down, sized up to the rule's minimum and
    // multiple): an index vector need not be a legal DMA run itself.
    Place fetch = index;
    Bytes fetchBytes = indexBytes;
    if (const AccessRule *rule =
            model.node(u.instance.node).accessTo(index.memory.node)) {
      int64_t align = std::max<int64_t>(1, rule->alignment.count());
      int64_t multiple = std::max<int64_t>(1, rule->sizeMultiple.count());
      int64_t start = index.address.count() / align * align;
      int64_t size = index.address.count() + indexBytes.count() - start;
      size = std::max(size, rule->minSize.count());
      size = (size + multiple - 1) / multiple * multiple;
      fetch.address = Bytes(start);
      fetchBytes = Bytes(size);
    }
    if (!checkAccess(u, fetch, fetchBytes, {}, fetchBytes))
      return false;
    std::vector<PathStep> path;
    if (Reservable *p = portResource(index.memory))
      path.push_back(p);
    if (!appendRouteBetween(u, path, index.memory, u.instance))
      return false;
    auto [sendEnd, tail] = reserve(path, fetchBytes);
    busy(unit, sendEnd);
    u.gatherIndices.assign(count, 0);
    if (options.computeValues) {
      std::vector<uint8_t> raw(indexBytes.count());
      memoryOf(index.memory).read(index.address, raw.data(), indexBytes);
      for (int64_t k = 0; k < count; ++k) {
        int64_t v;
        if (inst.type == ElemType::I32) {
          int32_t w;
          std::memcpy(&w, raw.data() + 4 * k, 4);
          v = w;
        } else {
          std::memcpy(&v, raw.data() + 8 * k, 8);
        }
        if (v < 0 || v >= inst.indexBound)
          return fail(u, llvm::formatv("{5} index {0} (entry {1} of the indices at byte {2} "
                                       "of {3}) is outside the view's [0, {4})",
                                       v, k, index.address.count(),
                                       model.instanceName(index.memory), inst.indexBound,
                                       opcodeName(inst.op)));
        u.gatherIndices[k] = v;
      }
    }
    u.gatherIndicesAt = tail;
    --u.stats.instructions; // the same instruction runs again for its rows
    resumeAt(unit, std::max(now, tail));
    return false;
  }
  if (now < *u.gatherIndicesAt) {
    --u.stats.instructions;
    resumeAt(unit, *u.gatherIndicesAt);
    return false;
  }
  u.gatherIndicesAt.reset();
  // Step 2: the runs. Every index is in [0, bound), so the indexed side's
  // extent (the source of a gather, the destination of a scatter) is that
  // of a copy over `bound` positions of the outer dimension.
  bool scatter = inst.op == Opcode::Scatter;
  llvm::SmallVector<Bytes, 4> srcStrides, dstStrides;
  Bytes srcExtent = inst.bytes, dstExtent = inst.bytes;
  int64_t runs = 1;
  for (const CopyDim &d : inst.dims)
    if (d.srcStride < Bytes(0) || d.dstStride < Bytes(0))
      return fail(u, "negative strides are not supported");
  for (auto [n, d] : llvm::enumerate(inst.dims)) {
    srcStrides.push_back(d.srcStride);
    dstStrides.push_back(d.dstStride);
    int64_t srcCount = n == 0 && !scatter ? inst.indexBound : d.count;
    int64_t dstCount = n == 0 && scatter ? inst.indexBound : d.count;
    int64_t srcSpan, dstSpan, s, t;
    if (llvm::MulOverflow(d.srcStride.count(), srcCount - 1, srcSpan) ||
        llvm::MulOverflow(d.dstStride.count(), dstCount - 1, dstSpan) ||
        llvm::AddOverflow(srcExtent.count(), srcSpan, s) ||
        llvm::AddOverflow(dstExtent.count(), dstSpan, t) ||
        llvm::MulOverflow(runs, d.count, runs))
      return fail(u, llvm::formatv("the {0}'s extent overflows", opcodeName(inst.op)));
    srcExtent = Bytes(s);
    dstExtent = Bytes(t);
  }
  if (!checkAccess(u, src, inst.bytes, srcStrides, srcExtent) ||
      !checkAccess(u, dst, inst.bytes, dstStrides, dstExtent))
    return false;
  Bytes total = inst.bytes * runs;
  if (options.computeValues && total > kMaxStagedBytes)
    return fail(u, llvm::formatv("{2} moves {0} bytes at once; the simulator stages at most {1}",
                                 total.count(), kMaxStagedBytes.count(), opcodeName(inst.op)));
  std::vector<PathStep> path;
  if (Reservable *p = portResource(src.memory))
    path.push_back(p);
  if (!appendRouteBetween(u, path, src.memory, u.instance))
    return false;
  if (!appendRouteBetween(u, path, u.instance, dst.memory))
    return false;
  if (Reservable *p = portResource(dst.memory))
    path.push_back({p, /*write=*/true});
  auto [sendEnd, tail] = reserve(path, total);
  size_t w = newWrite(memoryKey(dst.memory));
  if (options.computeValues) {
    PendingWrite &pw = writes[w];
    pw.data.resize(total.count());
    SimMemory &from = memoryOf(src.memory);
    llvm::SmallVector<int64_t, 4> idx(inst.dims.size(), 0);
    for (int64_t r = 0; r < runs; ++r) {
      // The outer position of the indexed side is the run's index.
      int64_t outerAt = u.gatherIndices[idx[0]];
      Bytes so = src.address + outer.srcStride * (scatter ? idx[0] : outerAt);
      Bytes dof = dst.address + outer.dstStride * (scatter ? outerAt : idx[0]);
      for (size_t d = 1; d < idx.size(); ++d) {
        so += inst.dims[d].srcStride * idx[d];
        dof += inst.dims[d].dstStride * idx[d];
      }
      from.read(so, pw.data.data() + r * inst.bytes.count(), inst.bytes);
      pw.runs.push_back({dof, inst.bytes});
      for (size_t d = idx.size(); d-- > 0;) {
        if (++idx[d] < inst.dims[d].count)
          break;
        idx[d] = 0;
      }
    }
  }
  issued(u);
  return awaitWrite(unit, w, sendEnd, tail);
}

bool Engine::executeVLoad(unsigned unit, const Instruction &inst) {
  Unit &u = units[unit];
  std::optional<Place> srcOr = resolve(u, inst.src);
  if (!srcOr)
    return false;
  Place src = *srcOr;
  Bytes size = toBytes(Elements(inst.count), elemTypeSize(inst.type));
  if (!checkAccess(u, src, size, {}, size))
    return false;
  std::vector<PathStep> path;
  if (Reservable *p = portResource(src.memory))
    path.push_back(p);
  if (!appendRouteBetween(u, path, src.memory, u.instance))
    return false;
  auto [sendEnd, tail] = reserve(path, size);
  VectorValue &v = u.regs[inst.vd];
  v.type = inst.type;
  v.count = inst.count;
  if (options.computeValues) {
    std::vector<uint8_t> bytes(size.count());
    memoryOf(src.memory).read(src.address, bytes.data(), size);
    loadVector(v, bytes.data());
  }
  busy(unit, tail);
  ++u.pc;
  resumeAt(unit, tail);
  return false;
}

bool Engine::executeVStore(unsigned unit, const Instruction &inst) {
  Unit &u = units[unit];
  const VectorValue &v = u.regs[inst.va];
  if (v.count == 0)
    return fail(u, llvm::formatv("register v{0} holds no value", unsigned(inst.va)));
  std::optional<Place> dstOr = resolve(u, inst.dst);
  if (!dstOr)
    return false;
  Place dst = *dstOr;
  Bytes size = toBytes(Elements(v.count), elemTypeSize(v.type));
  if (!checkAccess(u, dst, size, {}, size))
    return false;
  std::vector<PathStep> path;
  if (!appendRouteBetween(u, path, u.instance, dst.memory))
    return false;
  if (Reservable *p = portResource(dst.memory))
    path.push_back({p, /*write=*/true});
  auto [sendEnd, tail] = reserve(path, size);
  size_t w = newWrite(memoryKey(dst.memory));
  if (options.computeValues) {
    writes[w].data.resize(size.count());
    storeVector(v, writes[w].data.data());
    writes[w].runs.push_back({dst.address, size});
  }
  return awaitWrite(unit, w, sendEnd, tail);
}
