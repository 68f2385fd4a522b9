//===- MergeGroupPrograms.cpp - one program per unit instance over groups -===//
//
// Strategy. Each compute group is lowered on its own and leaves its programs
// at the end of the bundle. Here every (unit, instance) collects, group by
// group, the program that runs it and its table row. Instances whose
// sequence of group programs is the same are served by one merged program:
// its body is the groups' bodies in order, its table the groups' columns
// side by side, so each group's `+tC` / `@x[tC]` references are shifted by
// the columns of the groups before it. Groups run one after the other on
// every unit; the lowering drains every semaphore and FIFO at the end of a
// group, so concatenation is all the synchronisation the boundary needs.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Lower/MergeGroupPrograms.h"

#include <map>

using namespace ktflow;
using namespace ktflow::lower;

namespace {

void shiftColumns(dc::NodeRef &ref, uint32_t shift) {
  if (ref.instance.kind == dc::InstanceSelector::Kind::TableColumn)
    ref.instance.value += shift;
}

void shiftColumns(dc::Address &address, uint32_t shift) {
  if (address.tableColumn)
    *address.tableColumn += shift;
  if (address.base == dc::Address::Base::Memory)
    shiftColumns(address.memory, shift);
}

void shiftColumns(dc::Instruction &inst, uint32_t shift) {
  shiftColumns(inst.peer, shift);
  shiftColumns(inst.dst, shift);
  shiftColumns(inst.src, shift);
  // A gather's or scatter's index vector is an address of its own.
  if (inst.op == dc::Opcode::Gather || inst.op == dc::Opcode::Scatter)
    shiftColumns(inst.index, shift);
  if (inst.laneFromTable)
    inst.lane += shift;
  if (inst.op == dc::Opcode::Loop && inst.countFromTable)
    inst.count += shift;
}

std::vector<int64_t> runningInstances(const dc::Program &program,
                                      const arch::ArchModel &model) {
  if (!program.instances.empty())
    return program.instances;
  std::vector<int64_t> all;
  if (std::optional<arch::NodeId> node = model.lookupNode(program.unit))
    for (int64_t i = 0, e = model.nodeInstanceCount(*node); i < e; ++i)
      all.push_back(i);
  return all;
}

} // namespace

void ktflow::lower::mergeGroupPrograms(dc::Bundle &bundle,
                                       const std::vector<size_t> &groupStarts,
                                       const arch::ArchModel &model) {
  if (groupStarts.size() < 2)
    return;
  size_t groups = groupStarts.size();
  auto groupEnd = [&](size_t g) {
    return g + 1 < groups ? groupStarts[g + 1] : bundle.programs.size();
  };
  // (unit, instance) -> per group: (program index, table row) or none.
  using Slot = std::pair<size_t, size_t>;
  constexpr Slot kNone{SIZE_MAX, SIZE_MAX};
  std::map<std::pair<std::string, int64_t>, std::vector<Slot>> runs;
  for (size_t g = 0; g < groups; ++g)
    for (size_t p = groupStarts[g]; p < groupEnd(g); ++p) {
      const dc::Program &program = bundle.programs[p];
      std::vector<int64_t> instances = runningInstances(program, model);
      for (size_t row = 0; row < instances.size(); ++row) {
        std::vector<Slot> &slots = runs[{program.unit, instances[row]}];
        slots.resize(groups, kNone);
        slots[g] = {p, row};
      }
    }

  // Instances with the same programs per group share a merged program.
  struct Merged {
    std::string unit;
    std::vector<size_t> programs; // per group, SIZE_MAX when idle
    std::vector<int64_t> instances;
    std::vector<std::vector<int64_t>> rows;
    /// Per instance, per group: the part's table row (SIZE_MAX when idle).
    std::vector<std::vector<size_t>> partRows;
  };
  std::vector<Merged> merged;
  std::map<std::pair<std::string, std::vector<size_t>>, size_t> byShape;
  for (auto &[key, slots] : runs) {
    std::vector<size_t> programs;
    for (const Slot &s : slots)
      programs.push_back(s.first);
    auto [it, inserted] = byShape.try_emplace({key.first, programs}, merged.size());
    if (inserted)
      merged.push_back({key.first, programs, {}, {}});
    Merged &m = merged[it->second];
    m.instances.push_back(key.second);
    std::vector<int64_t> row;
    for (const Slot &s : slots)
      if (s.first != SIZE_MAX) {
        const dc::Program &program = bundle.programs[s.first];
        if (program.tableColumns > 0)
          row.insert(row.end(), program.table[s.second].begin(), program.table[s.second].end());
      }
    m.rows.push_back(std::move(row));
    std::vector<size_t> partRows;
    for (const Slot &s : slots)
      partRows.push_back(s.second);
    m.partRows.push_back(std::move(partRows));
  }

  std::vector<dc::Program> result;
  for (Merged &m : merged) {
    dc::Program program;
    program.unit = m.unit;
    program.instances = m.instances;
    uint32_t columns = 0;
    for (auto [g, p] : llvm::enumerate(m.programs)) {
      if (p == SIZE_MAX)
        continue;
      const dc::Program &part = bundle.programs[p];
      // Launch-table cells move with their part's row and columns.
      for (const dc::LaunchCell &cell : part.launchCells)
        for (size_t r = 0; r < m.instances.size(); ++r)
          if (m.partRows[r][g] == cell.row)
            program.launchCells.push_back({uint32_t(r), cell.column + columns, cell.expr});
      for (dc::Instruction inst : part.body) {
        shiftColumns(inst, columns);
        program.body.push_back(std::move(inst));
      }
      columns += part.tableColumns;
    }
    program.tableColumns = columns;
    if (columns > 0)
      program.table = std::move(m.rows);
    result.push_back(std::move(program));
  }
  bundle.programs = std::move(result);
}
