// An accumulating loop (example 07's form) becomes one reduction over the
// span of its adjacent row chunks, initialised with the carried value's
// init (with what masked points past a view's end fold in, where they do);
// the wider access tile records what it absorbed. Negative twin:
// accumulate-kept.mlir.
// RUN: ktflow-opt %s -split-input-file -ktsched-absorb-loops | FileCheck %s

// CHECK-LABEL: func.func @column_sums
// CHECK-NOT: scf.for
// CHECK: %[[INIT:.*]] = arith.constant dense<1.000000e+00> : tensor<64xf32>
// CHECK: ktdp.construct_access_tile {{.*}}ktsched.absorbed_loop = {carried = "accumulator", dim = 0 : i64, trips = 4 : i64}{{.*}} -> !ktdp.access_tile<64x64xindex>
// CHECK: linalg.reduce { arith.addf } ins(%{{.*}} : tensor<64x64xf32>) outs(%[[INIT]] : tensor<64xf32>) dimensions = [0]
// CHECK-NOT: scf.for

#m_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#chunk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>
func.func @column_sums(%m: index, %out: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %t = ktdp.get_compute_tile_id : index
  %col = arith.muli %t, %c64 : index
  %m_mem = ktdp.construct_memory_view %m, sizes: [64, 128], strides: [128, 1] {
      coordinate_set = #m_all, memory_space = #ktdp.memory_space<global>
  } : memref<64x128xf16>
  %start = arith.constant dense<1.0> : tensor<64xf32>
  %total = scf.for %k = %c0 to %c64 step %c16 iter_args(%running = %start) -> (tensor<64xf32>) {
    %at = ktdp.construct_access_tile %m_mem[%k, %col] {
        access_tile_set = #chunk, access_tile_order = #lex
    } : memref<64x128xf16> -> !ktdp.access_tile<16x64xindex>
    %part16 = ktdp.load %at : !ktdp.access_tile<16x64xindex> -> tensor<16x64xf16>
    %part = arith.extf %part16 : tensor<16x64xf16> to tensor<16x64xf32>
    %zero = arith.constant dense<0.0> : tensor<64xf32>
    %sum = linalg.reduce { arith.addf } ins(%part : tensor<16x64xf32>)
             outs(%zero : tensor<64xf32>) dimensions = [0]
    %next = arith.addf %running, %sum : tensor<64xf32>
    scf.yield %next : tensor<64xf32>
  }
  %narrow = arith.truncf %total : tensor<64xf32> to tensor<64xf16>
  return
}

// -----

#m_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#chunk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>

// Blocks past the view's end (rows 64..71 of the last chunk): KTIR loads
// the masked points as zeros, which a sum of the loads folds in as the
// identity, so the union is absorbed as it is.
// CHECK-LABEL: func.func @overhang
// CHECK-NOT: scf.for
// CHECK: ktsched.absorbed_loop = {carried = "accumulator", dim = 0 : i64, trips = 5 : i64}
// CHECK: linalg.reduce { arith.addf } ins(%{{.*}} : tensor<80x64xf16>)
func.func @overhang(%m: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c72 = arith.constant 72 : index
  %m_mem = ktdp.construct_memory_view %m, sizes: [64, 128], strides: [128, 1] {
      coordinate_set = #m_all, memory_space = #ktdp.memory_space<global>
  } : memref<64x128xf16>
  %start = arith.constant dense<0.0> : tensor<64xf16>
  %total = scf.for %k = %c0 to %c72 step %c16 iter_args(%running = %start) -> (tensor<64xf16>) {
    %at = ktdp.construct_access_tile %m_mem[%k, %c0] {
        access_tile_set = #chunk, access_tile_order = #lex
    } : memref<64x128xf16> -> !ktdp.access_tile<16x64xindex>
    %part = ktdp.load %at : !ktdp.access_tile<16x64xindex> -> tensor<16x64xf16>
    %zero = arith.constant dense<0.0> : tensor<64xf16>
    %sum = linalg.reduce { arith.addf } ins(%part : tensor<16x64xf16>)
             outs(%zero : tensor<64xf16>) dimensions = [0]
    %next = arith.addf %running, %sum : tensor<64xf16>
    scf.yield %next : tensor<64xf16>
  }
  return
}

// -----

#m_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 55 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#chunk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>

// A maximum of -|m| past the view's 56 rows on both grid tiles: KTIR folds
// -|0| = -0 in at the masked points, so the wider reduction starts from
// max(-inf, -0) = -0.
// CHECK-LABEL: func.func @overhang_max
// CHECK-NOT: scf.for
// CHECK: %[[INIT:.*]] = arith.constant dense<-0.000000e+00> : tensor<64xf16>
// CHECK: linalg.reduce { arith.maximumf } ins(%{{.*}} : tensor<64x64xf16>) outs(%[[INIT]] : tensor<64xf16>)
func.func @overhang_max(%m: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %t = ktdp.get_compute_tile_id : index
  %col = arith.muli %t, %c64 : index
  %m_mem = ktdp.construct_memory_view %m, sizes: [56, 128], strides: [128, 1] {
      coordinate_set = #m_all, memory_space = #ktdp.memory_space<global>
  } : memref<56x128xf16>
  %start = arith.constant dense<0xFC00> : tensor<64xf16>
  %total = scf.for %k = %c0 to %c64 step %c16 iter_args(%running = %start) -> (tensor<64xf16>) {
    %at = ktdp.construct_access_tile %m_mem[%k, %col] {
        access_tile_set = #chunk, access_tile_order = #lex
    } : memref<56x128xf16> -> !ktdp.access_tile<16x64xindex>
    %part = ktdp.load %at : !ktdp.access_tile<16x64xindex> -> tensor<16x64xf16>
    %abs = math.absf %part : tensor<16x64xf16>
    %neg = arith.negf %abs : tensor<16x64xf16>
    %ninf = arith.constant dense<0xFC00> : tensor<64xf16>
    %mx = linalg.reduce { arith.maximumf } ins(%neg : tensor<16x64xf16>)
            outs(%ninf : tensor<64xf16>) dimensions = [0]
    %next = arith.maximumf %running, %mx : tensor<64xf16>
    scf.yield %next : tensor<64xf16>
  }
  return
}
