//===- DeadlockReport.cpp - who waits on what when every unit is blocked ===//
//
// When the event queue runs dry with unfinished units, the report lists
// each blocked unit and what it waits for, then searches the wait-for
// graph for a cycle: a FIFO wait points at the peer, a semaphore wait at
// every unfinished unit whose remaining program signals it (conservative).
//
//===----------------------------------------------------------------------===//
#include "Engine.h"

#include "llvm/Support/FormatVariadic.h"

#include <functional>

using namespace ktflow;
using namespace ktflow::sim;
using namespace ktflow::sim::detail;
using namespace ktflow::arch;
using namespace ktflow::dc;
using llvm::StringRef;

std::string Engine::deadlockReport() {
  std::string report;
  llvm::raw_string_ostream os(report);
  os << "deadlock at cycle " << now.count() << ": every unfinished unit is blocked\n";
  for (const Unit &u : units)
    if (u.state == State::Blocked)
      os << "  " << u.name << " at instruction " << u.pc << " ("
         << opcodeName(u.program->body[u.pc].op) << ") waits for " << u.blockReason << "\n";
  // Semaphore waits point at every unfinished unit whose remaining program
  // signals the waiting unit: a conservative wait-for edge.
  auto waitsFor = [&](unsigned i) {
    std::vector<unsigned> targets;
    const Unit &u = units[i];
    if (u.waitingOn >= 0) {
      targets.push_back(unsigned(u.waitingOn));
      return targets;
    }
    // The instance a signal of unit `src` reaches, as execution would
    // resolve it (absent if it cannot be told without running).
    auto peerOf = [&](const Unit &src, const NodeRef &ref) -> std::optional<NodeInstance> {
      std::optional<NodeId> id = model.lookupNode(ref.name);
      if (!id)
        return std::nullopt;
      switch (ref.instance.kind) {
      case InstanceSelector::Kind::Absolute:
        return NodeInstance{*id, ref.instance.value};
      case InstanceSelector::Kind::TableColumn:
        if (!src.row)
          return std::nullopt;
        return NodeInstance{*id, (*src.row)[ref.instance.value]};
      case InstanceSelector::Kind::Nearest:
        break;
      }
      if (std::optional<Route> r = model.routeTo(src.instance, *id))
        return r->dest;
      if (std::optional<Route> r = model.routeFrom(*id, src.instance))
        return r->source;
      return std::nullopt;
    };
    for (unsigned j = 0; j < units.size(); ++j) {
      if (units[j].state == State::Done || j == i)
        continue;
      for (size_t pc = 0; pc < units[j].program->body.size(); ++pc) {
        const Instruction &in = units[j].program->body[pc];
        if (in.op != Opcode::Signal || int(in.sem) != u.waitingSem)
          continue;
        std::optional<NodeInstance> target = peerOf(units[j], in.peer);
        if (!target || *target == u.instance) {
          targets.push_back(j);
          break;
        }
      }
    }
    return targets;
  };
  // Depth-first search for a cycle among blocked units.
  std::vector<int> color(units.size(), 0);
  std::vector<unsigned> stack;
  std::vector<unsigned> cycle;
  std::function<bool(unsigned)> dfs = [&](unsigned i) {
    color[i] = 1;
    stack.push_back(i);
    for (unsigned j : waitsFor(i)) {
      if (units[j].state != State::Blocked)
        continue;
      if (color[j] == 1) {
        auto it = std::find(stack.begin(), stack.end(), j);
        cycle.assign(it, stack.end());
        cycle.push_back(j);
        return true;
      }
      if (color[j] == 0 && dfs(j))
        return true;
    }
    stack.pop_back();
    color[i] = 2;
    return false;
  };
  for (unsigned i = 0; i < units.size() && cycle.empty(); ++i)
    if (units[i].state == State::Blocked && color[i] == 0)
      dfs(i);
  if (!cycle.empty()) {
    os << "  cycle of waits:";
    for (size_t k = 0; k < cycle.size(); ++k)
      os << (k ? " -> " : " ") << units[cycle[k]].name;
    os << "\n";
  } else {
    for (const Unit &u : units)
      if (u.state == State::Blocked && u.waitingOn >= 0 &&
          units[u.waitingOn].state == State::Done)
        os << "  " << u.name << " waits on " << units[u.waitingOn].name
           << ", which has finished\n";
  }
  return report;
}
