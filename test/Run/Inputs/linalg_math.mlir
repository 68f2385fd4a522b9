// The linalg named forms of the math ops (linalg.sqrt, rsqrt, log, tanh,
// erf, powf) in one elementwise group over a 2-D tile: test/Run/math.test
// compiles, simulates and compares them with the interpreter bit for bit.
// p = |x| + 0.5 keeps sqrt, rsqrt, log and powf's base positive.

#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#in_order = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @linalg_math(%x: index, %y: index, %sq: index, %rs: index, %lg: index, %th: index, %ef: index, %pw: index) attributes {grid = [2]} {
    %t = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %row = arith.muli %t, %c8 : index
    %half = arith.constant dense<0.5> : tensor<8x64xf16>
    %x_mem = ktdp.construct_memory_view %x, sizes: [16, 64], strides: [64, 1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<16x64xf16>
    %x_at = ktdp.construct_access_tile %x_mem[%row, %c0] {
        access_tile_set = #block, access_tile_order = #in_order
    } : memref<16x64xf16> -> !ktdp.access_tile<8x64xindex>
    %y_mem = ktdp.construct_memory_view %y, sizes: [16, 64], strides: [64, 1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<16x64xf16>
    %y_at = ktdp.construct_access_tile %y_mem[%row, %c0] {
        access_tile_set = #block, access_tile_order = #in_order
    } : memref<16x64xf16> -> !ktdp.access_tile<8x64xindex>
    %xt = ktdp.load %x_at : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf16>
    %yt = ktdp.load %y_at : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf16>
    %e0 = tensor.empty() : tensor<8x64xf16>
    %ax = linalg.abs ins(%xt : tensor<8x64xf16>) outs(%e0 : tensor<8x64xf16>) -> tensor<8x64xf16>
    %p = arith.addf %ax, %half : tensor<8x64xf16>
    %e_sq = tensor.empty() : tensor<8x64xf16>
    %r_sq = linalg.sqrt ins(%p : tensor<8x64xf16>) outs(%e_sq : tensor<8x64xf16>) -> tensor<8x64xf16>
    %sq_mem = ktdp.construct_memory_view %sq, sizes: [16, 64], strides: [64, 1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<16x64xf16>
    %sq_at = ktdp.construct_access_tile %sq_mem[%row, %c0] {
        access_tile_set = #block, access_tile_order = #in_order
    } : memref<16x64xf16> -> !ktdp.access_tile<8x64xindex>
    ktdp.store %r_sq, %sq_at : tensor<8x64xf16>, !ktdp.access_tile<8x64xindex>
    %e_rs = tensor.empty() : tensor<8x64xf16>
    %r_rs = linalg.rsqrt ins(%p : tensor<8x64xf16>) outs(%e_rs : tensor<8x64xf16>) -> tensor<8x64xf16>
    %rs_mem = ktdp.construct_memory_view %rs, sizes: [16, 64], strides: [64, 1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<16x64xf16>
    %rs_at = ktdp.construct_access_tile %rs_mem[%row, %c0] {
        access_tile_set = #block, access_tile_order = #in_order
    } : memref<16x64xf16> -> !ktdp.access_tile<8x64xindex>
    ktdp.store %r_rs, %rs_at : tensor<8x64xf16>, !ktdp.access_tile<8x64xindex>
    %e_lg = tensor.empty() : tensor<8x64xf16>
    %r_lg = linalg.log ins(%p : tensor<8x64xf16>) outs(%e_lg : tensor<8x64xf16>) -> tensor<8x64xf16>
    %lg_mem = ktdp.construct_memory_view %lg, sizes: [16, 64], strides: [64, 1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<16x64xf16>
    %lg_at = ktdp.construct_access_tile %lg_mem[%row, %c0] {
        access_tile_set = #block, access_tile_order = #in_order
    } : memref<16x64xf16> -> !ktdp.access_tile<8x64xindex>
    ktdp.store %r_lg, %lg_at : tensor<8x64xf16>, !ktdp.access_tile<8x64xindex>
    %e_th = tensor.empty() : tensor<8x64xf16>
    %r_th = linalg.tanh ins(%xt : tensor<8x64xf16>) outs(%e_th : tensor<8x64xf16>) -> tensor<8x64xf16>
    %th_mem = ktdp.construct_memory_view %th, sizes: [16, 64], strides: [64, 1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<16x64xf16>
    %th_at = ktdp.construct_access_tile %th_mem[%row, %c0] {
        access_tile_set = #block, access_tile_order = #in_order
    } : memref<16x64xf16> -> !ktdp.access_tile<8x64xindex>
    ktdp.store %r_th, %th_at : tensor<8x64xf16>, !ktdp.access_tile<8x64xindex>
    %e_ef = tensor.empty() : tensor<8x64xf16>
    %r_ef = linalg.erf ins(%xt : tensor<8x64xf16>) outs(%e_ef : tensor<8x64xf16>) -> tensor<8x64xf16>
    %ef_mem = ktdp.construct_memory_view %ef, sizes: [16, 64], strides: [64, 1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<16x64xf16>
    %ef_at = ktdp.construct_access_tile %ef_mem[%row, %c0] {
        access_tile_set = #block, access_tile_order = #in_order
    } : memref<16x64xf16> -> !ktdp.access_tile<8x64xindex>
    ktdp.store %r_ef, %ef_at : tensor<8x64xf16>, !ktdp.access_tile<8x64xindex>
    %e_pw = tensor.empty() : tensor<8x64xf16>
    %r_pw = linalg.powf ins(%p, %yt : tensor<8x64xf16>, tensor<8x64xf16>) outs(%e_pw : tensor<8x64xf16>) -> tensor<8x64xf16>
    %pw_mem = ktdp.construct_memory_view %pw, sizes: [16, 64], strides: [64, 1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<16x64xf16>
    %pw_at = ktdp.construct_access_tile %pw_mem[%row, %c0] {
        access_tile_set = #block, access_tile_order = #in_order
    } : memref<16x64xf16> -> !ktdp.access_tile<8x64xindex>
    ktdp.store %r_pw, %pw_at : tensor<8x64xf16>, !ktdp.access_tile<8x64xindex>
    return
  }
}
