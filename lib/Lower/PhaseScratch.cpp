//===- PhaseScratch.cpp - carried values of a group of phases in scratchpad ===//
//
// Strategy. The schedule's `phase_values = scratchpad` (PhaseValues.cpp)
// keeps what an earlier phase computed per vector (softmax's exp(x - max))
// for a later phase without the registers to hold a row of it: the compute
// unit sends each carried vector, in pieces of one load/store unit access,
// to the store unit, which writes it into the row's slot (allocation's
// `phase_scratch_address`, one row of every carried value per sub-core
// instance, value after value, each vector at its element offset); the
// load unit pushes it back before the vector's arguments in the phase that
// reads it, and the compute unit joins the pieces. The slot is a channel
// of depth 1 from the store unit to the load unit, taken once per row:
// every phase writing it comes before every phase reading it (the
// schedule checks), so the store unit writes a row's values only after the
// load unit has read the previous row's back. Decided in the schedule;
// this file only emits it (one scratchpad level: the load and store units
// are the slot's only accessors).
//
//===----------------------------------------------------------------------===//
#include "GroupLowering.h"

#include "ktflow/Schedule/PhaseValues.h"
#include "ktflow/Schedule/ScheduleUtils.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::lower;
using namespace ktflow::lower::detail;
namespace ks = ktflow::ktsched;

FailureOr<PhaseNest::Spill> GroupLowering::phaseScratch(int64_t j, ktunit::ProgramBuilder &ld,
                                                        ktunit::ProgramBuilder &vec,
                                                        ktunit::ProgramBuilder &st,
                                                        InstanceTable &ldTable,
                                                        InstanceTable &stTable) {
  std::optional<int64_t> address = ks::decisionInt(group, ks::kPhaseScratchAddress);
  auto bytes = group->getAttrOfType<IntegerAttr>(ks::kPhaseScratchBytes);
  if (!address || !bytes || loads.empty() || twoLevel || streamColumns)
    return group.emitError("group @")
           << group.getSymName()
           << ": phase_values = scratchpad without its slot (phase_scratch_address), or on "
              "a row this lowering does not carry through scratchpad";
  std::string sub = std::to_string(j);
  // The load and store unit of the same sub-core instance, per core (a
  // memory shared by several sub-cores is equally near to all of them).
  auto peer = [](StringRef unit, InstanceTable &table, ArrayRef<int64_t> instances) {
    if (std::optional<uint32_t> column = table.columnFor(instances))
      return dc::ProgramBuilder::node(unit, {dc::InstanceSelector::Kind::TableColumn, *column});
    return dc::ProgramBuilder::node(unit,
                                    {dc::InstanceSelector::Kind::Absolute, instances.front()});
  };
  std::vector<int64_t> ldOf, stOf;
  for (int64_t c : coreIds) {
    ldOf.push_back(ldInstances[c][j]);
    stOf.push_back(stInstances[c][j]);
  }
  ktunit::ChannelOp channel = makeChannel("spill" + sub, 1, "st" + sub, "ld" + sub,
                                          peer(ldUnit, stTable, ldOf), peer(stUnit, ldTable, stOf));
  const Transfer &slotOf = loads.front();
  Bytes vectorBytes = toBytes(Elements(vectorWidth), esize);
  int64_t rowVectors = (tileShape.back() + vectorWidth - 1) / vectorWidth;
  int64_t last = int64_t(space.size()) - 1;
  // Per carried value: where its row starts in the slot, its element size
  // and register type, its pieces, and the register it comes back in.
  struct Carried {
    Bytes offset;
    ElementSize size;
    dc::ElemType type;
    int64_t pieces;
    ktunit::Reg back, piece;
  };
  auto values = std::make_shared<llvm::DenseMap<Value, Carried>>();
  Bytes offset(0);
  for (Value v : phased->carriedValues()) {
    Carried c;
    c.offset = offset;
    c.size = ks::elementSize(v.getType());
    c.type = registerTypeOf(v.getType()).value_or(dc::ElemType::F32);
    Bytes perVector = toBytes(Elements(vectorWidth), c.size);
    c.pieces = (perVector.count() + vectorBytes.count() - 1) / vectorBytes.count();
    if (c.pieces < 1 || vectorWidth % c.pieces != 0)
      return group.emitError("a carried value of ")
             << v.getType() << " is no whole number of load/store unit accesses";
    c.back = vec.newReg();
    c.piece = vec.newReg();
    (*values)[v] = c;
    offset = offset + toBytes(Elements(rowVectors * vectorWidth), c.size);
  }
  if (offset.count() > bytes.getInt())
    return group.emitError("group @") << group.getSymName() << ": the phase_values slot of "
                                      << bytes.getInt() << " bytes does not hold a row ("
                                      << offset.count() << " bytes)";
  Bytes base = Bytes(*address) + slotOf.instanceStride * j;
  std::string memory = slotOf.memory;
  auto at = [values, base, memory, last](const SpacePosition &pos, Value v) {
    const Carried &c = values->find(v)->second;
    dc::Address a = dc::ProgramBuilder::memoryAddress(
        memory, base + c.offset + toBytes(Elements(pos.constant[last]), c.size));
    for (auto [depth, multiplier] : pos.terms[last])
      a.terms.push_back({depth, toBytes(Elements(multiplier), c.size), 0});
    return a;
  };
  std::string ldName = ldUnit, stName = stUnit, computeName = computeUnit;
  int64_t width = vectorWidth;
  PhaseNest::Spill spill;
  spill.send = [values, &vec, stName, width](Value v, ktunit::Reg r) {
    const Carried &c = values->find(v)->second;
    if (c.pieces == 1)
      return vec.send(dc::ProgramBuilder::node(stName), r);
    int64_t perPiece = width / c.pieces;
    for (int64_t p = 0; p < c.pieces; ++p) {
      vec.slice(c.piece, r, p * perPiece, Elements(perPiece));
      vec.send(dc::ProgramBuilder::node(stName), c.piece);
    }
  };
  spill.receive = [values, &vec, ldName, width](Value v) {
    const Carried &c = values->find(v)->second;
    dc::NodeRef from = dc::ProgramBuilder::node(ldName);
    if (c.pieces == 1) {
      vec.recv(c.back, c.type, Elements(width), from);
      return c.back;
    }
    Elements perPiece(width / c.pieces);
    vec.recv(c.back, c.type, perPiece, from);
    for (int64_t p = 1; p < c.pieces; ++p) {
      vec.recv(c.piece, c.type, perPiece, from);
      vec.concat(c.back, c.back, c.piece);
    }
    return c.back;
  };
  auto pieces = [values, vectorBytes, at](const SpacePosition &pos, Value v, auto each) {
    dc::Address a = at(pos, v);
    for (int64_t p = 0; p < values->find(v)->second.pieces; ++p) {
      dc::Address piece = a;
      piece.offset = piece.offset + vectorBytes * p;
      each(piece);
    }
  };
  spill.push = [pieces, &ld, computeName, vectorBytes](const SpacePosition &pos, Value v) {
    pieces(pos, v, [&](const dc::Address &a) {
      ld.push(dc::ProgramBuilder::node(computeName), a, vectorBytes);
    });
  };
  spill.pop = [pieces, &st, computeName, vectorBytes](const SpacePosition &pos, Value v) {
    pieces(pos, v, [&](const dc::Address &a) {
      st.pop(dc::ProgramBuilder::node(computeName), a, vectorBytes);
    });
  };
  using ktunit::Side;
  spill.loadSide = [&ld, channel](bool acquire) {
    if (acquire)
      ld.acquire(channel, Side::consumer);
    else
      ld.release(channel, Side::consumer);
  };
  spill.storeSide = [&st, channel](bool acquire) {
    if (acquire)
      st.acquire(channel, Side::producer);
    else
      st.release(channel, Side::producer);
  };
  return spill;
}
