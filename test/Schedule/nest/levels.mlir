// One memory level at a time: the outer pipeline (level 0) moves a tile
// between global memory and the scratchpad around a nested stage whose
// inner pipeline moves a vector at a time between scratchpad and compute.
// The boundary buffers stay outside. deep has one more level (L2, L1).
// Nesting itself takes no description: the levels come from path
// expansion on each one (see unexpanded.mlir). Twins: sample and spyre get
// no third pipeline level, deep no fourth.
// RUN: ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_nest | FileCheck %s --check-prefix=TWO -DSPAD=spad --implicit-check-not='level = 2 : i64, moves'
// RUN: ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_nest | FileCheck %s --check-prefix=TWO -DSPAD=lx --implicit-check-not='level = 2 : i64, moves'
// RUN: ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-initial-pipeline=arch=deep %to_nest | FileCheck %s --check-prefix=THREE --implicit-check-not='level = 3 : i64, moves'

// TWO: ktsched.pipeline attributes {level = 0 : i64, moves = "tile"}
// TWO: ktsched.stage "dma_load"
// TWO: %[[IN:[0-9]+]] = ktsched.buffer {{.*}}memory = "[[SPAD]]"
// TWO: %[[NEST:[0-9]+]] = ktsched.stage "nested"(%[[IN]],
// TWO-NEXT: %[[INNER:[0-9]+]] = ktsched.pipeline attributes {level = 1 : i64, moves = "vector"}
// TWO-NEXT: ktsched.stage "load"(%[[IN]],
// TWO: ktsched.stage "compute"
// TWO: %[[ST:[0-9]+]] = ktsched.stage "store"
// TWO: ktsched.yield %[[ST]]
// TWO: ktsched.yield %[[INNER]]
// TWO: %[[OUT:[0-9]+]] = ktsched.buffer %[[NEST]] {{.*}}memory = "[[SPAD]]"
// TWO: ktsched.stage "dma_store"(%[[OUT]])

// THREE: ktsched.pipeline attributes {level = 0 : i64, moves = "tile"}
// THREE: ktsched.stage "dma_load" {{.*}}"l2_dma"
// THREE: ktsched.stage "nested"
// THREE: ktsched.pipeline attributes {level = 1 : i64, moves = "tile"}
// THREE: ktsched.stage "dma_load"{{.*}}"tile_dma"
// THREE: ktsched.stage "nested"
// THREE: ktsched.pipeline attributes {level = 2 : i64, moves = "vector"}
// THREE-NEXT: ktsched.stage "compute"
// THREE: ktsched.stage "dma_store"{{.*}}"tile_dma"
// THREE: ktsched.stage "dma_store"{{.*}}"l2_dma"
