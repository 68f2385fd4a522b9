// --dump-plan writes every decision as JSON; --plan replays it, and the
// replayed decisions carry source "plan". Replaying the unedited plan
// reproduces the heuristic schedule; an edited depth changes the depth.
// RUN: ktflow compile %S/../Inputs/odd_rows_loop.mlir --arch spyre --dump-plan %t.json > %t.heuristic.mlir
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: ktflow compile %S/../Inputs/odd_rows_loop.mlir --arch spyre --plan %t.json | FileCheck %s --check-prefix=REPLAY
// RUN: sed -e 's/"depth": 2/"depth": 3/' %t.json > %t.depth3.json
// RUN: ktflow compile %S/../Inputs/odd_rows_loop.mlir --arch spyre --plan %t.depth3.json | FileCheck %s --check-prefix=DEPTH3
// RUN: ktflow compile %S/../Inputs/odd_rows_loop.mlir --arch deep --dump-plan %t.deep.json > /dev/null
// RUN: FileCheck %s --check-prefix=DEEP < %t.deep.json
// JSON: "device": "spyre"
// JSON: "depth": 2
// JSON: "name": "g0"
// JSON: "split": {
// JSON-NEXT: "dim": 1,
// JSON-NEXT: "instances": 2,
// JSON-NEXT: "shares": [
// JSON-NEXT: 128,
// JSON-NEXT: 64
// JSON: "tile": [
// JSON-NEXT: 5,
// JSON-NEXT: 128
// JSON: "role": "dma_load",
// JSON-NEXT: "unit": "dma"
// JSON: "role": "compute",
// JSON-NEXT: "unit": "sfp"
// JSON: "name": "odd_rows_loop"
// REPLAY: split = #ktsched.decision<{dim = 1 : i64, instances = 2 : i64, shares = array<i64: 128, 64>}, "plan">, tile = #ktsched.decision<array<i64: 5, 128>, "plan">
// REPLAY: depth = #ktsched.decision<2 : i64, "plan">
// DEPTH3: depth = #ktsched.decision<3 : i64, "plan">
// DEEP: "role": "dma_load",
// DEEP-NEXT: "unit": "l2_dma"
// DEEP: "role": "dma_load",
// DEEP-NEXT: "unit": "tile_dma"
