//===- SchedulePipeline.cpp - KTIR to schedule, as a library --------------===//
//
// The scheduler in the order of DESIGN.md: specialization on the launch
// values, conditions every grid tile takes alike folded, round trips
// through the program's own scratchpad forwarded, loops absorbed
// into wider blocks, input check, compute groups, distributed views' partition pieces,
// initial pipeline,
// granule-aligned blocks of rows per grid tile, flattening of dense rows
// that are not whole vectors, path expansion, nesting, buffering, grid-tile
// merge, instance split, tile selection, an optional plan replay, grid-tile
// classes and their shares, the DMA's transfer order (hoisted loads, lead
// of loads over stores), allocation. The driver and the later
// lowering both build it from here.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Schedule/SchedulePipeline.h"

#include "ktflow/Schedule/Passes.h"

using namespace ktflow::ktsched;

void ktflow::ktsched::buildSchedulePipeline(mlir::OpPassManager &pm,
                                            const ScheduleOptions &options) {
  SpecializeOptions specialize;
  specialize.args.assign(options.args.begin(), options.args.end());
  pm.addPass(createSpecialize(specialize));
  pm.addPass(createFoldGridConditions());
  pm.addPass(createForwardLocalStores({options.arch}));
  pm.addPass(createAbsorbLoops());
  pm.addPass(createAbsorbContraction());
  pm.addPass(createCheckInput());
  pm.addPass(createFormComputeGroups());
  pm.addPass(createResolvePartitions());
  pm.addPass(createBuildInitialPipeline({options.arch}));
  pm.addPass(createAlignGridBlocks({options.arch}));
  pm.addPass(createFlattenRows());
  pm.addPass(createExpandPaths({options.arch}));
  pm.addPass(createNestPipelines());
  pm.addPass(createBufferPipelines({options.arch, options.depth}));
  // The merge is replayed from the plan here, not in ApplyPlan: the split
  // and the tiles depend on the merged space.
  pm.addPass(createMergeGridTiles({options.arch, options.plan}));
  pm.addPass(createSplitInstances({options.arch}));
  pm.addPass(createSelectTiles({options.arch}));
  if (!options.plan.empty())
    pm.addPass(createApplyPlan({options.plan}));
  // After replay: on the final split, tiles and depths, keeping what the
  // plan set.
  pm.addPass(createClassifyGridTiles({options.arch}));
  pm.addPass(createOrderTransfers());
  pm.addPass(createAllocateScratchpad({options.arch}));
  pm.addPass(createScheduleContraction({options.arch}));
  pm.addPass(createScheduleTranspose({options.arch}));
  pm.addPass(createScheduleGather({options.arch}));
}
