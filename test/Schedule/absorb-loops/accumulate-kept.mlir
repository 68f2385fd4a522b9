// Negative twin of accumulate.mlir: loops whose union is not one block are
// left for the input check to diagnose — chunks 32 rows apart that are 16
// long (gaps), a max folded into a sum, a trip count that differs
// between grid tiles, and blocks past the view's end whose masked points
// fold in a value the init cannot take (KTIR loads them as zeros, the
// lowering folds valid elements only): exp(0) = 1 into a sum, and a
// maximum whose union passes the view's end on one grid tile only.
// RUN: ktflow-opt %s -split-input-file -ktsched-absorb-loops | FileCheck %s

#m_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#chunk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @gaps
// CHECK: scf.for {{.*}} iter_args
// CHECK-NOT: ktsched.absorbed_loop
func.func @gaps(%m: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %m_mem = ktdp.construct_memory_view %m, sizes: [64, 128], strides: [128, 1] {
      coordinate_set = #m_all, memory_space = #ktdp.memory_space<global>
  } : memref<64x128xf16>
  %start = arith.constant dense<0.0> : tensor<64xf16>
  %total = scf.for %k = %c0 to %c64 step %c32 iter_args(%running = %start) -> (tensor<64xf16>) {
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

#m_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#chunk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @mixed_combiners
// CHECK: scf.for {{.*}} iter_args
func.func @mixed_combiners(%m: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %m_mem = ktdp.construct_memory_view %m, sizes: [64, 128], strides: [128, 1] {
      coordinate_set = #m_all, memory_space = #ktdp.memory_space<global>
  } : memref<64x128xf16>
  %start = arith.constant dense<0.0> : tensor<64xf16>
  %total = scf.for %k = %c0 to %c64 step %c16 iter_args(%running = %start) -> (tensor<64xf16>) {
    %at = ktdp.construct_access_tile %m_mem[%k, %c0] {
        access_tile_set = #chunk, access_tile_order = #lex
    } : memref<64x128xf16> -> !ktdp.access_tile<16x64xindex>
    %part = ktdp.load %at : !ktdp.access_tile<16x64xindex> -> tensor<16x64xf16>
    %zero = arith.constant dense<0.0> : tensor<64xf16>
    %sum = linalg.reduce { arith.addf } ins(%part : tensor<16x64xf16>)
             outs(%zero : tensor<64xf16>) dimensions = [0]
    %next = arith.maximumf %running, %sum : tensor<64xf16>
    scf.yield %next : tensor<64xf16>
  }
  return
}

// -----

#m_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#chunk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @uneven_trips
// CHECK: scf.for {{.*}} iter_args
func.func @uneven_trips(%m: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %t = ktdp.get_compute_tile_id : index
  %off = arith.muli %t, %c16 : index
  %ub = arith.addi %off, %c32 : index
  %m_mem = ktdp.construct_memory_view %m, sizes: [64, 128], strides: [128, 1] {
      coordinate_set = #m_all, memory_space = #ktdp.memory_space<global>
  } : memref<64x128xf16>
  %start = arith.constant dense<0.0> : tensor<64xf16>
  %total = scf.for %k = %c0 to %ub step %c16 iter_args(%running = %start) -> (tensor<64xf16>) {
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

#m_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#chunk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @overhang_exp
// CHECK: scf.for {{.*}} iter_args
// CHECK-NOT: ktsched.absorbed_loop
func.func @overhang_exp(%m: index) attributes {grid = [2]} {
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
    %e = math.exp %part : tensor<16x64xf16>
    %zero = arith.constant dense<0.0> : tensor<64xf16>
    %sum = linalg.reduce { arith.addf } ins(%e : tensor<16x64xf16>)
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

// Tile t takes rows [32t, 32t + 32): tile 0 lies inside the 56 rows, tile
// 1 reaches row 63.
// CHECK-LABEL: func.func @overhang_on_one_tile
// CHECK: scf.for {{.*}} iter_args
// CHECK-NOT: ktsched.absorbed_loop
func.func @overhang_on_one_tile(%m: index) attributes {grid = [2]} {
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %t = ktdp.get_compute_tile_id : index
  %first = arith.muli %t, %c32 : index
  %last = arith.addi %first, %c32 : index
  %m_mem = ktdp.construct_memory_view %m, sizes: [56, 128], strides: [128, 1] {
      coordinate_set = #m_all, memory_space = #ktdp.memory_space<global>
  } : memref<56x128xf16>
  %start = arith.constant dense<0xFC00> : tensor<64xf16>
  %total = scf.for %k = %first to %last step %c16 iter_args(%running = %start) -> (tensor<64xf16>) {
    %c0 = arith.constant 0 : index
    %at = ktdp.construct_access_tile %m_mem[%k, %c0] {
        access_tile_set = #chunk, access_tile_order = #lex
    } : memref<56x128xf16> -> !ktdp.access_tile<16x64xindex>
    %part = ktdp.load %at : !ktdp.access_tile<16x64xindex> -> tensor<16x64xf16>
    %neg = arith.negf %part : tensor<16x64xf16>
    %ninf = arith.constant dense<0xFC00> : tensor<64xf16>
    %mx = linalg.reduce { arith.maximumf } ins(%neg : tensor<16x64xf16>)
             outs(%ninf : tensor<64xf16>) dimensions = [0]
    %next = arith.maximumf %running, %mx : tensor<64xf16>
    scf.yield %next : tensor<64xf16>
  }
  return
}
