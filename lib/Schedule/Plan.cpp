//===- Plan.cpp - decisions as a JSON plan file ---------------------------===//
//
// Strategy: a plan is read off the schedule's decision attributes (merge
// on the kernel; tile, loop order, split and lead on each group's outer
// pipeline, depth on its buffers, hoist on the buffers its DMA loads
// fill (by tensor name), unit on its stages; every decision of each
// contraction, which replay sets for ktsched-schedule-contraction to
// check) and written with
// llvm/Support/JSON.h. The merge is replayed by the merge pass, before the
// split (readPlanMerge); applyPlan only checks the schedule carries it.
// Replaying checks that the plan names exactly the schedule's kernels and
// groups and that every value is well formed for its group (rank, bounds,
// permutation, shares summing to the extent, same unit binding) before
// writing it back with source "plan". Whether the replayed decisions fit
// memory is then checked by allocation, exactly as for heuristic ones.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Schedule/Plan.h"
#include "ktflow/Schedule/PhaseValues.h"

#include "ktflow/Schedule/KTSched.h"
#include "ktflow/Schedule/ScheduleUtils.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::ktsched;
namespace json = llvm::json;

static json::Array toJson(ArrayRef<int64_t> values) {
  json::Array array;
  for (int64_t v : values)
    array.push_back(v);
  return array;
}

static SmallVector<StageOp> stagesOf(GroupOp group) {
  SmallVector<StageOp> stages;
  group.walk<WalkOrder::PreOrder>([&](StageOp stage) {
    if (stage->getAttr("unit"))
      stages.push_back(stage);
  });
  return stages;
}

void ktflow::ktsched::writePlan(ModuleOp module, llvm::raw_ostream &os) {
  json::Array kernels;
  for (KernelOp kernel : module.getOps<KernelOp>()) {
    json::Array groups;
    for (GroupOp group : kernel.getOps<GroupOp>()) {
      json::Object g{{"name", group.getSymName()}};
      if (PipelineOp pipeline = outerPipeline(group)) {
        g["tile"] = toJson(decisionInts(pipeline, "tile"));
        g["loop_order"] = toJson(decisionInts(pipeline, "loop_order"));
        if (auto split = dyn_cast_or_null<DictionaryAttr>(decisionValue(pipeline, "split")))
          g["split"] = json::Object{
              {"dim", split.getAs<IntegerAttr>("dim").getInt()},
              {"instances", split.getAs<IntegerAttr>("instances").getInt()},
              {"shares", toJson(split.getAs<DenseI64ArrayAttr>("shares").asArrayRef())}};
      }
      SmallVector<BufferOp> buffers = groupBuffers(group);
      if (!buffers.empty())
        g["depth"] = decisionInt(buffers.front(), "depth").value_or(1);
      if (PipelineOp pipeline = outerPipeline(group)) {
        if (std::optional<int64_t> lead = decisionInt(pipeline, "lead"))
          g["lead"] = *lead;
        if (auto classes = dyn_cast_or_null<ArrayAttr>(decisionValue(pipeline, "classes"))) {
          json::Array list;
          // Only the partly masked classes: an unmasked one has the split's.
          for (auto cls : classes.getAsRange<DictionaryAttr>())
            if (!llvm::equal(cls.getAs<DenseI64ArrayAttr>("space").asArrayRef(),
                             group.getSpace()))
              list.push_back(json::Object{
                {"tiles", toJson(cls.getAs<DenseI64ArrayAttr>("tiles").asArrayRef())},
                {"shares", toJson(cls.getAs<DenseI64ArrayAttr>("shares").asArrayRef())}});
          if (!list.empty())
            g["classes"] = std::move(list);
        }
      }
      json::Array hoisted;
      bool decided = false;
      for (BufferOp buffer : dmaLoadBuffers(group))
        if (auto hoist = dyn_cast_or_null<BoolAttr>(decisionValue(buffer, "hoist"))) {
          decided = true;
          if (hoist.getValue())
            hoisted.push_back(bufferTensorName(buffer));
        }
      if (decided)
        g["hoist"] = std::move(hoisted);
      if (auto values = dyn_cast_or_null<StringAttr>(decisionValue(group, kPhaseValues)))
        g[kPhaseValues] = values.getValue();
      if (group->hasAttr("phases")) {
        std::optional<int64_t> columns = streamColumns(group);
        g[kResidency] = columns ? kStreamed : kResident;
        if (columns)
          g[kStreamColumns] = *columns;
      }
      json::Array units;
      for (StageOp stage : stagesOf(group))
        units.push_back(json::Object{
            {"role", stage.getRole()},
            {"unit", cast<StringAttr>(decisionValue(stage, "unit")).getValue()}});
      g["units"] = std::move(units);
      groups.push_back(std::move(g));
    }
    json::Object k{{"name", kernel.getSymName()}, {"groups", std::move(groups)}};
    // Contractions: their decisions (ktsched-schedule-contraction).
    json::Array contractions;
    for (ContractionOp op : kernel.getOps<ContractionOp>()) {
      json::Object c{{"name", op.getSymName()}};
      for (StringRef key : {"compute", "matrix_unit", "vector_unit", "multiply_accumulate", "layout",
                            "resident", "accumulator_path", "accumulator_init"})
        if (auto text = dyn_cast_or_null<StringAttr>(decisionValue(op, key)))
          c[key] = text.getValue();
      for (StringRef key : {"block", "step"})
        if (auto sizes = dyn_cast_or_null<DenseI64ArrayAttr>(decisionValue(op, key)))
          c[key] = toJson(sizes.asArrayRef());
      if (auto buffers = dyn_cast_or_null<IntegerAttr>(decisionValue(op, "buffers")))
        c["buffers"] = buffers.getInt();
      if (auto order = dyn_cast_or_null<ArrayAttr>(decisionValue(op, "loop_order"))) {
        json::Array names;
        for (auto name : order.getAsRange<StringAttr>())
          names.push_back(name.getValue());
        c["loop_order"] = std::move(names);
      }
      for (StringRef key : {"split", "reuse", "block_buffers"})
        if (auto count = dyn_cast_or_null<IntegerAttr>(decisionValue(op, key)))
          c[key] = count.getInt();
      if (auto merge = dyn_cast_or_null<DictionaryAttr>(decisionValue(op, "merge")))
        c["merge"] = json::Object{{"dim", merge.getAs<IntegerAttr>("dim").getInt()},
                                  {"factor", merge.getAs<IntegerAttr>("factor").getInt()}};
      contractions.push_back(std::move(c));
    }
    if (!contractions.empty())
      k["contractions"] = std::move(contractions);
    if (auto device = kernel->getAttrOfType<StringAttr>("device"))
      k["device"] = device.getValue();
    if (auto merge = dyn_cast_or_null<DictionaryAttr>(decisionValue(kernel, "merge")))
      k["merge"] = json::Object{{"dim", merge.getAs<IntegerAttr>("dim").getInt()},
                                {"factor", merge.getAs<IntegerAttr>("factor").getInt()}};
    kernels.push_back(std::move(k));
  }
  os << llvm::formatv("{0:2}", json::Value(json::Object{{"version", 1},
                                                        {"kernels", std::move(kernels)}}))
     << "\n";
}

namespace {
/// Replays one group's entry; every error names the plan file and group.
struct GroupReplay {
  GroupOp group;
  const json::Object &entry;
  StringRef file;

  InFlightDiagnostic error() {
    return group.emitError("plan ") << file << ", group '" << group.getSymName() << "': ";
  }

  std::optional<SmallVector<int64_t>> ints(StringRef key) {
    const json::Array *array = entry.getArray(key);
    if (!array)
      return std::nullopt;
    SmallVector<int64_t> values;
    for (const json::Value &v : *array) {
      std::optional<int64_t> i = v.getAsInteger();
      if (!i)
        return std::nullopt;
      values.push_back(*i);
    }
    return values;
  }

  LogicalResult run() {
    Builder b(group.getContext());
    PipelineOp pipeline = outerPipeline(group);
    if (!pipeline)
      return error() << "the schedule has no pipeline to replay into";
    ArrayRef<int64_t> space = group.getSpace();
    int64_t rank = space.size();

    // Split first: the tile is checked against a sub-core's share.
    SmallVector<int64_t> share(space);
    if (const json::Object *split = entry.getObject("split")) {
      auto current = dyn_cast_or_null<DictionaryAttr>(decisionValue(pipeline, "split"));
      std::optional<int64_t> dim = split->getInteger("dim");
      std::optional<int64_t> instances = split->getInteger("instances");
      const json::Array *sharesJson = split->getArray("shares");
      if (!dim || !instances || !sharesJson)
        return error() << "split needs integer 'dim', 'instances' and an array 'shares'";
      if (*dim < 0 || *dim >= rank)
        return error() << "split dimension " << *dim << " is not a dimension of a " << rank
                       << "-D iteration space";
      int64_t expected = current ? current.getAs<IntegerAttr>("instances").getInt() : 1;
      if (*instances != expected)
        return error() << "split over " << *instances << " instances, but the architecture has "
                       << expected;
      SmallVector<int64_t> shares;
      int64_t sum = 0;
      for (const json::Value &v : *sharesJson) {
        std::optional<int64_t> s = v.getAsInteger();
        if (!s || *s < 0)
          return error() << "split shares must be non-negative integers";
        shares.push_back(*s);
        sum += *s;
      }
      if ((int64_t)shares.size() != *instances || sum != space[*dim])
        return error() << "split shares must be " << *instances << " values summing to "
                       << space[*dim] << ", got " << shares.size() << " summing to " << sum;
      // A reduced dimension is not split: the split the scheduler records
      // when no other dimension can be split (one instance takes it all,
      // as for a column sum) replays, no other does.
      if (llvm::is_contained(group.getReduceDims(), *dim) &&
          llvm::count(shares, int64_t(0)) + 1 != (int64_t)shares.size())
        return error() << "split dimension " << *dim << " is reduced: only one instance may "
                       << "take it (the others' shares 0)";
      pipeline->setAttr(
          "split", decide(b.getDictionaryAttr(
                              {b.getNamedAttr("dim", b.getI64IntegerAttr(*dim)),
                               b.getNamedAttr("instances", b.getI64IntegerAttr(*instances)),
                               b.getNamedAttr("shares", b.getDenseI64ArrayAttr(shares))}),
                          kPlan));
      share[*dim] = *llvm::max_element(shares);
    } else if (auto current =
                   dyn_cast_or_null<DictionaryAttr>(decisionValue(pipeline, "split"))) {
      int64_t dim = current.getAs<IntegerAttr>("dim").getInt();
      share[dim] = *llvm::max_element(current.getAs<DenseI64ArrayAttr>("shares").asArrayRef());
    }

    if (entry.get("tile")) {
      std::optional<SmallVector<int64_t>> tile = ints("tile");
      if (!tile || (int64_t)tile->size() != rank)
        return error() << "tile must be " << rank << " integers";
      for (int64_t d = 0; d < rank; ++d) {
        if ((*tile)[d] < 1 || (*tile)[d] > share[d])
          return error() << "tile extent " << (*tile)[d] << " of dimension " << d
                         << " is outside [1, " << share[d] << "]";
        if (llvm::is_contained(group.getReduceDims(), d) && (*tile)[d] != space[d])
          return error() << "reduced dimension " << d << " must be whole (" << space[d] << ")";
      }
      SmallVector<int64_t> counts;
      for (int64_t d = 0; d < rank; ++d)
        counts.push_back((share[d] + (*tile)[d] - 1) / (*tile)[d]);
      pipeline->setAttr("tile", decide(b.getDenseI64ArrayAttr(*tile), kPlan));
      pipeline->setAttr("tile_counts", b.getDenseI64ArrayAttr(counts));
    }
    if (entry.get("loop_order")) {
      std::optional<SmallVector<int64_t>> order = ints("loop_order");
      SmallVector<int64_t> sorted = order ? *order : SmallVector<int64_t>{};
      llvm::sort(sorted);
      if (!order || (int64_t)order->size() != rank ||
          !llvm::equal(sorted, llvm::seq<int64_t>(0, rank)))
        return error() << "loop_order must be a permutation of 0.." << rank - 1;
      pipeline->setAttr("loop_order", decide(b.getDenseI64ArrayAttr(*order), kPlan));
    }
    if (entry.get("depth")) {
      std::optional<int64_t> depth = entry.getInteger("depth");
      if (!depth || *depth < 1)
        return error() << "depth must be an integer of at least 1";
      for (BufferOp buffer : groupBuffers(group))
        buffer->setAttr("depth", decide(b.getI64IntegerAttr(*depth), kPlan));
    }
    if (entry.get("lead")) {
      // Checked against the final depths by ktsched-order-transfers.
      std::optional<int64_t> lead = entry.getInteger("lead");
      if (!lead || *lead < 0)
        return error() << "lead must be a non-negative integer";
      pipeline->setAttr("lead", decide(b.getI64IntegerAttr(*lead), kPlan));
    }
    if (entry.get("classes")) {
      // Checked against the schedule's classes by ktsched-classify-tiles.
      const json::Array *classes = entry.getArray("classes");
      if (!classes)
        return error() << "classes must be an array of {tiles, shares}";
      SmallVector<Attribute> entries;
      for (const json::Value &v : *classes) {
        const json::Object *cls = v.getAsObject();
        GroupReplay item{group, cls ? *cls : entry, file};
        std::optional<SmallVector<int64_t>> tiles = cls ? item.ints("tiles") : std::nullopt;
        std::optional<SmallVector<int64_t>> shares = cls ? item.ints("shares") : std::nullopt;
        if (!tiles || !shares)
          return error() << "every class needs integer arrays 'tiles' and 'shares'";
        entries.push_back(b.getDictionaryAttr(
            {b.getNamedAttr("tiles", b.getDenseI64ArrayAttr(*tiles)),
             b.getNamedAttr("shares", b.getDenseI64ArrayAttr(*shares))}));
      }
      pipeline->setAttr("classes", decide(b.getArrayAttr(entries), kPlan));
    }
    if (entry.get(kPhaseValues)) {
      // Checked against the registers by ktsched-allocate's decision.
      std::optional<StringRef> values = entry.getString(kPhaseValues);
      if (!group->hasAttr("phases"))
        return error() << kPhaseValues << " is a decision of groups of phases only";
      if (!values || (*values != kPhaseValuesInRegisters && *values != kPhaseValuesRecomputed &&
                      *values != kPhaseValuesInScratchpad))
        return error() << kPhaseValues << " must be \"" << kPhaseValuesInRegisters << "\", \""
                       << kPhaseValuesInScratchpad << "\" or \"" << kPhaseValuesRecomputed << "\"";
      group->setAttr(kPhaseValues, decide(b.getStringAttr(*values), kPlan));
    }
    if (entry.get(kResidency) || entry.get(kStreamColumns)) {
      // Whether each phase reads the row again from global memory, and in
      // parts of how many columns; allocation checks that they fit.
      std::optional<StringRef> residency = entry.getString(kResidency);
      std::optional<int64_t> columns = entry.getInteger(kStreamColumns);
      if (!group->hasAttr("phases"))
        return error() << kResidency << " is a decision of groups of phases only";
      if (!residency || (*residency != kResident && *residency != kStreamed))
        return error() << kResidency << " must be \"" << kResident << "\" or \"" << kStreamed
                       << "\"";
      pipeline->removeAttr(kResidency);
      pipeline->removeAttr(kStreamColumns);
      if (*residency == kStreamed) {
        SmallVector<int64_t> tile = decisionInts(pipeline, "tile");
        int64_t depth = 1;
        for (BufferOp buffer : groupBuffers(group))
          depth = std::max<int64_t>(depth, decisionInt(buffer, "depth").value_or(1));
        if (!streamableGroup(group))
          return error() << "a streamed group reduces its rows (the last dimension) in phases";
        if (tile.empty() || llvm::any_of(ArrayRef<int64_t>(tile).drop_back(),
                                         [](int64_t e) { return e != 1; }))
          return error() << "a streamed tile is one row (extent 1 but in the last dimension)";
        if (!columns || *columns < 1 || tile.back() % *columns != 0 ||
            (tile.back() / *columns) % depth != 0)
          return error() << kStreamColumns << " must divide the row of " << tile.back()
                         << " into a whole number of rotations of the " << depth
                         << " buffer slots";
        pipeline->setAttr(kResidency, decide(b.getStringAttr(kStreamed), kPlan));
        pipeline->setAttr(kStreamColumns, decide(b.getI64IntegerAttr(*columns), kPlan));
      } else if (columns) {
        return error() << kStreamColumns << " is a decision of streamed groups only";
      }
    }
    if (entry.get("hoist")) {
      const json::Array *names = entry.getArray("hoist");
      if (!names)
        return error() << "hoist must be an array of the names of loaded tensors";
      SmallVector<BufferOp> loads = dmaLoadBuffers(group);
      for (const json::Value &v : *names) {
        std::optional<StringRef> name = v.getAsString();
        if (!name || llvm::none_of(loads, [&](BufferOp buffer) {
              return bufferTensorName(buffer) == *name;
            }))
          return error() << "hoist names '" << (name ? *name : StringRef("<not a string>"))
                         << "', which no DMA load of the group fills";
      }
      for (BufferOp buffer : loads) {
        bool hoisted = llvm::any_of(*names, [&](const json::Value &v) {
          return v.getAsString() == bufferTensorName(buffer);
        });
        buffer->setAttr("hoist", decide(b.getBoolAttr(hoisted), kPlan));
      }
    }
    if (const json::Array *units = entry.getArray("units")) {
      SmallVector<StageOp> stages = stagesOf(group);
      if (units->size() != stages.size())
        return error() << "plan binds " << units->size() << " stages, the schedule has "
                       << stages.size();
      for (auto [stage, value] : llvm::zip(stages, *units)) {
        const json::Object *unit = value.getAsObject();
        std::optional<StringRef> role = unit ? unit->getString("role") : std::nullopt;
        std::optional<StringRef> name = unit ? unit->getString("unit") : std::nullopt;
        auto bound = cast<StringAttr>(decisionValue(stage, "unit")).getValue();
        if (!role || !name || *role != stage.getRole() || *name != bound)
          return error() << "stage '" << stage.getRole() << "' is bound to @" << bound
                         << " by the route; rebinding units is not supported";
      }
    }
    return success();
  }
};

/// A plan's JSON, checked to be an object with an array 'kernels'.
FailureOr<json::Value> parsePlan(Location fileLoc, StringRef text) {
  llvm::Expected<json::Value> parsed = json::parse(text);
  if (!parsed)
    return emitError(fileLoc, "invalid plan JSON: ") << llvm::toString(parsed.takeError());
  const json::Object *root = parsed->getAsObject();
  if (!root || !root->getArray("kernels"))
    return emitError(fileLoc, "plan must be an object with an array 'kernels'");
  return std::move(*parsed);
}
} // namespace

/// Sets the contraction decisions a plan kernel entry gives (source
/// "plan"); ktsched-schedule-contraction then checks them against the
/// description and keeps them. An entry without "contractions" keeps the
/// heuristic's.
static LogicalResult replayContractions(KernelOp kernel, const json::Object &entry,
                                        StringRef file) {
  const json::Value *value = entry.get("contractions");
  if (!value)
    return success();
  const json::Array *list = value->getAsArray();
  size_t count = llvm::range_size(kernel.getOps<ContractionOp>());
  if (!list || list->size() != count)
    return kernel.emitError("plan ") << file << ": 'contractions' must list the kernel's "
                                     << count << " contraction(s)";
  Builder b(kernel.getContext());
  for (const json::Value &c : *list) {
    const json::Object *object = c.getAsObject();
    std::optional<StringRef> name = object ? object->getString("name") : std::nullopt;
    auto op = name ? dyn_cast_or_null<ContractionOp>(SymbolTable::lookupSymbolIn(kernel, *name))
                   : ContractionOp();
    if (!op)
      return kernel.emitError("plan ") << file << " names contraction '"
                                       << name.value_or("<missing>") << "' the kernel lacks";
    auto fail = [&](StringRef key) {
      return op.emitError("plan ") << file << ", contraction '" << *name << "': '" << key
                                   << "' is malformed";
    };
    for (StringRef key : {"compute", "matrix_unit", "vector_unit", "multiply_accumulate", "layout",
                          "resident", "accumulator_path", "accumulator_init"})
      if (const json::Value *v = object->get(key)) {
        std::optional<StringRef> text = v->getAsString();
        if (!text)
          return fail(key);
        op->setAttr(key, decide(b.getStringAttr(*text), kPlan));
      }
    // Three positive sizes: the block of one mma, the step (M x N panel,
    // K depth) of the grid tile.
    for (StringRef key : {"block", "step"})
      if (const json::Value *v = object->get(key)) {
        const json::Array *array = v->getAsArray();
        SmallVector<int64_t> sizes;
        for (const json::Value &e : array ? *array : json::Array())
          if (std::optional<int64_t> i = e.getAsInteger(); i && *i > 0)
            sizes.push_back(*i);
        if (!array || sizes.size() != 3 || array->size() != 3)
          return fail(key);
        op->setAttr(key, decide(b.getDenseI64ArrayAttr(sizes), kPlan));
      }
    if (const json::Value *v = object->get("buffers")) {
      std::optional<int64_t> buffers = v->getAsInteger();
      if (!buffers || *buffers < 1)
        return fail("buffers");
      op->setAttr("buffers", decide(b.getI64IntegerAttr(*buffers), kPlan));
    }
    if (const json::Value *v = object->get("loop_order")) {
      const json::Array *array = v->getAsArray();
      SmallVector<StringRef> order;
      for (const json::Value &e : array ? *array : json::Array())
        if (std::optional<StringRef> t = e.getAsString())
          order.push_back(*t);
      if (!array || order.size() != array->size())
        return fail("loop_order");
      op->setAttr("loop_order", decide(b.getStrArrayAttr(order), kPlan));
    }
    for (StringRef key : {"split", "reuse", "block_buffers"})
      if (const json::Value *v = object->get(key)) {
        std::optional<int64_t> count = v->getAsInteger();
        if (!count || *count < 1)
          return fail(key);
        op->setAttr(key, decide(b.getI64IntegerAttr(*count), kPlan));
      }
    if (const json::Value *v = object->get("merge")) {
      const json::Object *m = v->getAsObject();
      std::optional<int64_t> dim = m ? m->getInteger("dim") : std::nullopt;
      std::optional<int64_t> factor = m ? m->getInteger("factor") : std::nullopt;
      if (!dim || !factor || *dim < 0 || *dim > 2 || *factor < 1)
        return fail("merge");
      op->setAttr("merge", decide(b.getDictionaryAttr(
                                      {b.getNamedAttr("dim", b.getI64IntegerAttr(*dim)),
                                       b.getNamedAttr("factor", b.getI64IntegerAttr(*factor))}),
                                  kPlan));
    }
  }
  return success();
}

LogicalResult ktflow::ktsched::applyPlan(ModuleOp module, StringRef text, StringRef file) {
  MLIRContext *ctx = module.getContext();
  Location fileLoc = FileLineColLoc::get(ctx, file, 1, 1);
  FailureOr<json::Value> parsed = parsePlan(fileLoc, text);
  if (failed(parsed))
    return failure();
  const json::Array *kernels = parsed->getAsObject()->getArray("kernels");
  size_t scheduled = llvm::range_size(module.getOps<KernelOp>());
  if (kernels->size() != scheduled)
    return emitError(fileLoc, "plan has ") << kernels->size() << " kernels, the input has "
                                           << scheduled;
  for (const json::Value &k : *kernels) {
    const json::Object *kernelEntry = k.getAsObject();
    std::optional<StringRef> name = kernelEntry ? kernelEntry->getString("name") : std::nullopt;
    if (!name)
      return emitError(fileLoc, "every plan kernel needs a 'name'");
    auto kernel = dyn_cast_or_null<KernelOp>(SymbolTable::lookupSymbolIn(module, *name));
    if (!kernel)
      return emitError(fileLoc, "plan kernel '") << *name << "' is not in the input";
    if (const json::Value *merge = kernelEntry->get("merge")) {
      const json::Object *m = merge->getAsObject();
      std::optional<int64_t> dim = m ? m->getInteger("dim") : std::nullopt;
      std::optional<int64_t> factor = m ? m->getInteger("factor") : std::nullopt;
      auto current = dyn_cast_or_null<DictionaryAttr>(decisionValue(kernel, "merge"));
      int64_t curDim = current ? current.getAs<IntegerAttr>("dim").getInt() : 0;
      int64_t curFactor = current ? current.getAs<IntegerAttr>("factor").getInt() : 1;
      if (!dim || !factor)
        return kernel.emitError("plan ") << file << ", kernel '" << *name
                                         << "': merge needs integer 'dim' and 'factor'";
      // A factor of 1 merges nothing along any dimension.
      if (*factor != curFactor || (curFactor != 1 && *dim != curDim))
        return kernel.emitError("plan ")
               << file << ", kernel '" << *name << "': merge {dim " << *dim << ", factor "
               << *factor << "} is not the schedule's {dim " << curDim << ", factor "
               << curFactor << "}: the merge is replayed before the split, by "
               << "-ktsched-merge-tiles with the same plan";
    }
    if (failed(replayContractions(kernel, *kernelEntry, file)))
      return failure();
    const json::Array *groups = kernelEntry->getArray("groups");
    size_t count = llvm::range_size(kernel.getOps<GroupOp>());
    if (!groups || groups->size() != count)
      return kernel.emitError("plan ") << file << " does not match kernel '" << *name
                                       << "': it has " << count << " compute groups";
    for (const json::Value &g : *groups) {
      const json::Object *groupEntry = g.getAsObject();
      std::optional<StringRef> groupName =
          groupEntry ? groupEntry->getString("name") : std::nullopt;
      auto group = groupName ? dyn_cast_or_null<GroupOp>(
                                   SymbolTable::lookupSymbolIn(kernel, *groupName))
                             : GroupOp();
      if (!group)
        return kernel.emitError("plan ") << file << " names group '"
                                         << groupName.value_or("<missing>")
                                         << "' that kernel '" << *name << "' lacks";
      if (failed(GroupReplay{group, *groupEntry, file}.run()))
        return failure();
    }
  }
  return success();
}

FailureOr<std::optional<PlanMerge>>
ktflow::ktsched::readPlanMerge(KernelOp kernel, StringRef text, StringRef file) {
  Location fileLoc = FileLineColLoc::get(kernel.getContext(), file, 1, 1);
  FailureOr<json::Value> parsed = parsePlan(fileLoc, text);
  if (failed(parsed))
    return failure();
  const json::Array *kernels = parsed->getAsObject()->getArray("kernels");
  for (const json::Value &k : *kernels) {
    const json::Object *entry = k.getAsObject();
    if (!entry || entry->getString("name") != kernel.getSymName())
      continue;
    const json::Value *merge = entry->get("merge");
    if (!merge)
      return std::optional<PlanMerge>();
    const json::Object *m = merge->getAsObject();
    std::optional<int64_t> dim = m ? m->getInteger("dim") : std::nullopt;
    std::optional<int64_t> factor = m ? m->getInteger("factor") : std::nullopt;
    if (!dim || !factor)
      return kernel.emitError("plan ") << file << ", kernel '" << kernel.getSymName()
                                       << "': merge needs integer 'dim' and 'factor'";
    return std::optional<PlanMerge>(PlanMerge{*dim, *factor});
  }
  // A plan without this kernel: applyPlan reports the mismatch.
  return std::optional<PlanMerge>();
}
