//===- ReduceKernel.cpp - shrink a failing kernel spec --------------------===//
//
// Greedy reduction: candidates are generated from the current spec in order
// of how much they remove (outputs, then operations, then shape and grid),
// the first one that validates and still fails replaces the current spec,
// and the search restarts from it. After each structural edit, nodes no
// output reaches and buffers no node or output uses are removed, so the
// printed kernel only mentions what the failure needs.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Gen/ReduceKernel.h"

using namespace ktflow;
using namespace ktflow::gen;

/// Removes nodes unreachable from the outputs and buffers nobody uses,
/// renumbering the references.
static void removeDead(KernelSpec &spec) {
  std::vector<bool> live(spec.nodes.size(), false);
  for (const Output &o : spec.outputs)
    live[o.node] = true;
  for (size_t i = spec.nodes.size(); i-- > 0;)
    if (live[i])
      for (unsigned op : spec.nodes[i].operands)
        live[op] = true;
  std::vector<unsigned> newIndex(spec.nodes.size(), 0);
  std::vector<Node> nodes;
  for (size_t i = 0; i < spec.nodes.size(); ++i) {
    if (!live[i])
      continue;
    newIndex[i] = nodes.size();
    Node n = spec.nodes[i];
    for (unsigned &op : n.operands)
      op = newIndex[op];
    nodes.push_back(n);
  }
  spec.nodes = std::move(nodes);
  for (Output &o : spec.outputs)
    o.node = newIndex[o.node];

  std::vector<bool> used(spec.buffers.size(), false);
  for (const Node &n : spec.nodes)
    if (n.kind == NodeKind::Load || n.kind == NodeKind::Broadcast)
      used[n.buffer] = true;
  for (const Output &o : spec.outputs)
    used[o.buffer] = true;
  std::vector<unsigned> newBuffer(spec.buffers.size(), 0);
  std::vector<Buffer> buffers;
  for (size_t i = 0; i < spec.buffers.size(); ++i) {
    if (!used[i])
      continue;
    newBuffer[i] = buffers.size();
    buffers.push_back(spec.buffers[i]);
  }
  spec.buffers = std::move(buffers);
  for (Node &n : spec.nodes)
    if (n.kind == NodeKind::Load || n.kind == NodeKind::Broadcast)
      n.buffer = newBuffer[n.buffer];
  for (Output &o : spec.outputs)
    o.buffer = newBuffer[o.buffer];
}

/// Smaller variants of `spec`, most aggressive first.
static std::vector<KernelSpec> candidates(const KernelSpec &spec) {
  std::vector<KernelSpec> result;
  for (size_t i = 0; spec.outputs.size() > 1 && i < spec.outputs.size(); ++i) {
    KernelSpec c = spec;
    c.outputs.erase(c.outputs.begin() + i);
    removeDead(c);
    result.push_back(std::move(c));
  }
  // Bypass an operation: its users read its first operand instead.
  for (size_t k = 0; k < spec.nodes.size(); ++k) {
    if (spec.nodes[k].operands.empty())
      continue;
    for (unsigned pick = 0; pick < spec.nodes[k].operands.size(); ++pick) {
      KernelSpec c = spec;
      unsigned replacement = spec.nodes[k].operands[pick];
      for (Node &n : c.nodes)
        for (unsigned &op : n.operands)
          if (op == k)
            op = replacement;
      for (Output &o : c.outputs)
        if (o.node == k)
          o.node = replacement;
      removeDead(c);
      result.push_back(std::move(c));
    }
  }
  auto shrink = [&](int64_t KernelSpec::*field) {
    int64_t value = spec.*field;
    for (int64_t smaller : {int64_t(1), value / 2, value - 1}) {
      if (smaller < 1 || smaller >= value)
        continue;
      KernelSpec c = spec;
      c.*field = smaller;
      result.push_back(std::move(c));
    }
  };
  if (spec.rank == 2)
    shrink(&KernelSpec::rows);
  shrink(&KernelSpec::cols);
  for (size_t d = 0; d < spec.grid.size(); ++d)
    if (spec.grid[d] > 1) {
      KernelSpec c = spec;
      c.grid[d] = 1;
      result.push_back(std::move(c));
    }
  if (spec.distribution != Distribution::RowBlocks) {
    KernelSpec c = spec;
    c.distribution = Distribution::RowBlocks;
    result.push_back(std::move(c));
  }
  if (!spec.hoistInvariantLoads) {
    KernelSpec c = spec;
    c.hoistInvariantLoads = true;
    result.push_back(std::move(c));
  }
  return result;
}

KernelSpec gen::reduceKernel(const KernelSpec &spec,
                             const std::function<bool(const KernelSpec &)> &stillFails,
                             unsigned maxAttempts) {
  KernelSpec current = spec;
  unsigned attempts = 0;
  bool progress = true;
  while (progress && attempts < maxAttempts) {
    progress = false;
    for (KernelSpec &candidate : candidates(current)) {
      if (candidate.validate())
        continue;
      if (attempts++ >= maxAttempts)
        break;
      if (stillFails(candidate)) {
        current = std::move(candidate);
        progress = true;
        break;
      }
    }
  }
  return current;
}
