//===- ExecuteVector.cpp - vector compute instructions ===//
//
// A vector instruction checks that its operands hold values of matching
// shapes, computes its result with VectorOps (rounded as the hardware
// does), and costs the unit's issue cost for its op class times the issues
// its vectors need at the unit's lanes per element type. A matrix
// instruction (mma) costs the unit's `matmul` issue cost per R x C x lanes
// issue its block needs and computes with MatrixOps.
//
//===----------------------------------------------------------------------===//
#include "Engine.h"

#include "ktflow/Sim/MatrixOps.h"

#include "llvm/Support/FormatVariadic.h"

using namespace ktflow;
using namespace ktflow::sim;
using namespace ktflow::sim::detail;
using namespace ktflow::arch;
using namespace ktflow::dc;
using llvm::StringRef;

bool Engine::executeVector(unsigned unit, const Instruction &inst) {
  Unit &u = units[unit];
  const Node &node = model.node(u.instance.node);
  if (!node.isCompute())
    return fail(u, "@" + node.name + " is not a compute unit");
  StringRef opClass = opClassOf(inst.op, inst.combiner);
  std::optional<Cycles> issue = node.compute.issueCost(opClass);
  if (!issue)
    return fail(u, "@" + node.name + " has no op class '" + opClass.str() + "'");
  // Every register the instruction reads must hold a value.
  llvm::SmallVector<uint8_t, 3> reads;
  switch (inst.op) {
  case Opcode::VConst:
    break;
  case Opcode::Slide:
    reads = {inst.vd, inst.va};
    break;
  case Opcode::Ext:
  case Opcode::Concat:
    reads = {inst.va, inst.vb};
    break;
  case Opcode::Mma:
    reads = {inst.vd, inst.va, inst.vb};
    break;
  case Opcode::Select:
    reads = {inst.vc, inst.va, inst.vb};
    break;
  case Opcode::Fma:
    reads = {inst.va, inst.vb, inst.vc};
    break;
  default:
    reads = {inst.va};
    if (isBinaryArith(inst.op) || inst.op == Opcode::Cmp)
      reads.push_back(inst.vb);
    break;
  }
  for (uint8_t r : reads)
    if (u.regs[r].count == 0)
      return fail(u, llvm::formatv("register v{0} holds no value", unsigned(r)));
  auto operand = [&](uint8_t r) -> const VectorValue & { return u.regs[r]; };
  // The vectors the instruction processes decide the issues it needs.
  int64_t issues = 0;
  auto issuesFor = [&](ElemType t, int64_t count) {
    for (const auto &[type, lanes] : node.compute.lanes)
      if (sameElementType(t, type)) {
        issues = std::max(issues, (count + lanes - 1) / lanes);
        return true;
      }
    return fail(u, "@" + node.name + " has no lanes for " + elemTypeName(t).str());
  };
  // Integer lanes have the wrapping forms of the lane-wise ops; division,
  // pow, fma and the transcendentals are float-only.
  for (uint8_t r : reads)
    if (isIntegerType(u.regs[r].type) && !hasIntegerForm(inst.op))
      return fail(u, llvm::formatv("'{0}' has no form for {1} lanes (v{2})",
                                   opcodeName(inst.op), elemTypeName(u.regs[r].type),
                                   unsigned(r)));
  std::string error;
  VectorValue out;
  switch (inst.op) {
  case Opcode::VConst:
    if (!issuesFor(inst.type, inst.count))
      return false;
    out = splat(inst.type, inst.count, inst.imm, options.computeValues);
    break;
  case Opcode::Cast: {
    const VectorValue &a = operand(inst.va);
    if (!issuesFor(a.type, a.count))
      return false;
    if (!issuesFor(inst.type, a.count))
      return false;
    out = castVector(a, inst.type, options.computeValues);
    break;
  }
  case Opcode::Bcast: {
    const VectorValue &a = operand(inst.va);
    if (inst.lane >= a.count)
      return fail(u, llvm::formatv("lane {0} of a {1}-element register", inst.lane, a.count));
    if (!issuesFor(a.type, inst.count))
      return false;
    out = broadcastLane(a, inst.lane, inst.count, options.computeValues);
    break;
  }
  case Opcode::Reduce: {
    const VectorValue &a = operand(inst.va);
    if (!issuesFor(a.type, a.count))
      return false;
    out = reduceVector(a, inst.combiner, options.computeValues);
    break;
  }
  case Opcode::Select: {
    const VectorValue &m = operand(inst.vc), &a = operand(inst.va), &b = operand(inst.vb);
    if (!sameShape(m, a) || !sameShape(a, b))
      return fail(u, "select operands differ in type or element count");
    if (!issuesFor(a.type, a.count))
      return false;
    out = selectVector(m, a, b, options.computeValues);
    break;
  }
  case Opcode::Slide: {
    const VectorValue &d = operand(inst.vd), &a = operand(inst.va);
    if (d.type != a.type)
      return fail(u, "slide operands differ in element type");
    if (!issuesFor(d.type, d.count))
      return false;
    out = slideVector(d, a, options.computeValues);
    break;
  }
  case Opcode::Ext: {
    const VectorValue &a = operand(inst.va), &b = operand(inst.vb);
    if (!sameShape(a, b))
      return fail(u, "ext operands differ in type or element count");
    int64_t lane = inst.laneFromTable ? tableValue(u, uint32_t(inst.lane)) : inst.lane;
    if (lane < 0 || lane >= a.count)
      return fail(u, llvm::formatv("lane {0} of a {1}-element register", lane, a.count));
    if (!issuesFor(a.type, a.count))
      return false;
    out = extractVector(a, b, lane, options.computeValues);
    break;
  }
  case Opcode::Concat: {
    const VectorValue &a = operand(inst.va), &b = operand(inst.vb);
    if (a.type != b.type)
      return fail(u, "concat operands differ in element type");
    if (a.count + b.count > dc::kMaxVectorElements)
      return fail(u, llvm::formatv("concat of {0} and {1} elements exceeds {2}", a.count,
                                   b.count, dc::kMaxVectorElements));
    if (!issuesFor(a.type, a.count + b.count))
      return false;
    out = concatVectors(a, b, options.computeValues);
    break;
  }
  case Opcode::Slice: {
    const VectorValue &a = operand(inst.va);
    if (inst.lane + inst.count > a.count)
      return fail(u, llvm::formatv("lanes {0}..{1} of a {2}-element register", inst.lane,
                                   inst.lane + inst.count - 1, a.count));
    if (!issuesFor(a.type, inst.count))
      return false;
    out = sliceVector(a, inst.lane, inst.count, options.computeValues);
    break;
  }
  case Opcode::Cmp: {
    const VectorValue &a = operand(inst.va), &b = operand(inst.vb);
    if (!sameShape(a, b))
      return fail(u, "cmp operands differ in type or element count");
    if (!issuesFor(a.type, a.count))
      return false;
    out = compareVector(inst.predicate, a, b, options.computeValues);
    break;
  }
  case Opcode::Mma: {
    const VectorValue &a = operand(inst.va), &b = operand(inst.vb), &acc = operand(inst.vd);
    int64_t depth = inst.count;
    if (a.type != b.type)
      return fail(u, llvm::formatv("mma operands v{0} ({1}) and v{2} ({3}) differ in type",
                                   unsigned(inst.va), elemTypeName(a.type), unsigned(inst.vb),
                                   elemTypeName(b.type)));
    if (depth <= 0 || a.count % depth != 0 || b.count % depth != 0)
      return fail(u, llvm::formatv("mma depth {0} does not divide v{1} ({2} elements) and "
                                   "v{3} ({4} elements)",
                                   depth, unsigned(inst.va), a.count, unsigned(inst.vb),
                                   b.count));
    MatrixShape shape{a.count / depth, b.count / depth, depth};
    if (acc.count != shape.rows * shape.cols)
      return fail(u, llvm::formatv("mma accumulator v{0} holds {1} elements, not {2} x {3}",
                                   unsigned(inst.vd), acc.count, shape.rows, shape.cols));
    MatrixIssue timing = matrixIssues(node.compute, node.name, a.type, shape);
    if (!timing.error.empty())
      return fail(u, timing.error);
    issues = timing.issues;
    out = acc;
    if (options.computeValues)
      multiplyAccumulate(a.values.data(), b.values.data(), out.values.data(), shape, acc.type);
    break;
  }
  case Opcode::Fma: {
    const VectorValue &a = operand(inst.va), &b = operand(inst.vb), &c = operand(inst.vc);
    if (!sameShape(a, b) || !sameShape(a, c))
      return fail(u, "fma operands differ in type or element count");
    if (!issuesFor(a.type, a.count))
      return false;
    out = ternaryVector(inst.op, a, b, c, options.computeValues);
    break;
  }
  default:
    if (isBinaryArith(inst.op)) {
      const VectorValue &a = operand(inst.va), &b = operand(inst.vb);
      if (!sameShape(a, b))
        return fail(u, llvm::formatv("operands v{0} ({1} x {2}) and v{3} ({4} x {5}) differ",
                              unsigned(inst.va), a.count, elemTypeName(a.type),
                              unsigned(inst.vb), b.count, elemTypeName(b.type)));
      if (!issuesFor(a.type, a.count))
        return false;
      out = binaryVector(inst.op, a, b, options.computeValues);
    } else {
      const VectorValue &a = operand(inst.va);
      if (!issuesFor(a.type, a.count))
        return false;
      out = unaryVector(inst.op, a, options.computeValues);
    }
    break;
  }
  u.regs[inst.vd] = std::move(out);
  Cycles until = now + cost(*issue * issues);
  busy(unit, until);
  ++u.pc;
  if (until == now)
    return true;
  resumeAt(unit, until);
  return false;
}
