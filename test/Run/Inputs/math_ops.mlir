// Every lane-wise math op of the scheduler's table in one elementwise
// group, over a 1-D grid of 2 tiles of 256 elements: the end-to-end tests
// (test/Run/math.test) compile it for each description, simulate it and
// compare every output with the interpreter bit for bit. The tests make
// an f32 twin with `sed s/f16/f32/g`.
//
// Arguments: base addresses of 512-element f16 vectors; x, y inputs (the
// interpreter's seeded random contents), the rest outputs. p = |x| + 0.5
// keeps log, sqrt, rsqrt and pow's base positive.
//   sq  = sqrt(|x| + 0.5)
//   rs  = rsqrt(|x| + 0.5)
//   lg  = log(|x| + 0.5)
//   th  = tanh(x)
//   ef  = erf(x)
//   pw  = pow(|x| + 0.5, y)
//   fm  = fma(x, y, |x| + 0.5), one rounding
//   dv  = y / (|x| + 0.5)
//   ex  = exp(y)
//   mx  = x < y ? x : y (cmpf olt, select)
//   ne  = x != |x| + 0.5 ? y : |x| + 0.5 (cmpf une, select)

#whole = affine_set<(d0) : (d0 >= 0, -d0 + 511 >= 0)>
#slice = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#in_order = affine_map<(d0) -> (d0)>

module {
  func.func @math_ops(%x: index, %y: index, %sq: index, %rs: index, %lg: index, %th: index, %ef: index, %pw: index, %fm: index, %dv: index, %ex: index, %mx: index, %ne: index) attributes {grid = [2]} {
    %t = ktdp.get_compute_tile_id : index
    %c256 = arith.constant 256 : index
    %first = arith.muli %t, %c256 : index
    %half = arith.constant dense<0.5> : tensor<256xf16>

    %x_mem = ktdp.construct_memory_view %x, sizes: [512], strides: [1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<512xf16>
    %x_at = ktdp.construct_access_tile %x_mem[%first] {
        access_tile_set = #slice, access_tile_order = #in_order
    } : memref<512xf16> -> !ktdp.access_tile<256xindex>

    %y_mem = ktdp.construct_memory_view %y, sizes: [512], strides: [1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<512xf16>
    %y_at = ktdp.construct_access_tile %y_mem[%first] {
        access_tile_set = #slice, access_tile_order = #in_order
    } : memref<512xf16> -> !ktdp.access_tile<256xindex>

    %xt = ktdp.load %x_at : !ktdp.access_tile<256xindex> -> tensor<256xf16>
    %yt = ktdp.load %y_at : !ktdp.access_tile<256xindex> -> tensor<256xf16>
    %ax = math.absf %xt : tensor<256xf16>
    %p = arith.addf %ax, %half : tensor<256xf16>

    %r_sq = math.sqrt %p : tensor<256xf16>

    %sq_mem = ktdp.construct_memory_view %sq, sizes: [512], strides: [1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<512xf16>
    %sq_at = ktdp.construct_access_tile %sq_mem[%first] {
        access_tile_set = #slice, access_tile_order = #in_order
    } : memref<512xf16> -> !ktdp.access_tile<256xindex>

    ktdp.store %r_sq, %sq_at : tensor<256xf16>, !ktdp.access_tile<256xindex>

    %r_rs = math.rsqrt %p : tensor<256xf16>

    %rs_mem = ktdp.construct_memory_view %rs, sizes: [512], strides: [1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<512xf16>
    %rs_at = ktdp.construct_access_tile %rs_mem[%first] {
        access_tile_set = #slice, access_tile_order = #in_order
    } : memref<512xf16> -> !ktdp.access_tile<256xindex>

    ktdp.store %r_rs, %rs_at : tensor<256xf16>, !ktdp.access_tile<256xindex>

    %r_lg = math.log %p : tensor<256xf16>

    %lg_mem = ktdp.construct_memory_view %lg, sizes: [512], strides: [1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<512xf16>
    %lg_at = ktdp.construct_access_tile %lg_mem[%first] {
        access_tile_set = #slice, access_tile_order = #in_order
    } : memref<512xf16> -> !ktdp.access_tile<256xindex>

    ktdp.store %r_lg, %lg_at : tensor<256xf16>, !ktdp.access_tile<256xindex>

    %r_th = math.tanh %xt : tensor<256xf16>

    %th_mem = ktdp.construct_memory_view %th, sizes: [512], strides: [1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<512xf16>
    %th_at = ktdp.construct_access_tile %th_mem[%first] {
        access_tile_set = #slice, access_tile_order = #in_order
    } : memref<512xf16> -> !ktdp.access_tile<256xindex>

    ktdp.store %r_th, %th_at : tensor<256xf16>, !ktdp.access_tile<256xindex>

    %r_ef = math.erf %xt : tensor<256xf16>

    %ef_mem = ktdp.construct_memory_view %ef, sizes: [512], strides: [1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<512xf16>
    %ef_at = ktdp.construct_access_tile %ef_mem[%first] {
        access_tile_set = #slice, access_tile_order = #in_order
    } : memref<512xf16> -> !ktdp.access_tile<256xindex>

    ktdp.store %r_ef, %ef_at : tensor<256xf16>, !ktdp.access_tile<256xindex>

    %r_pw = math.powf %p, %yt : tensor<256xf16>

    %pw_mem = ktdp.construct_memory_view %pw, sizes: [512], strides: [1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<512xf16>
    %pw_at = ktdp.construct_access_tile %pw_mem[%first] {
        access_tile_set = #slice, access_tile_order = #in_order
    } : memref<512xf16> -> !ktdp.access_tile<256xindex>

    ktdp.store %r_pw, %pw_at : tensor<256xf16>, !ktdp.access_tile<256xindex>

    %r_fm = math.fma %xt, %yt, %p : tensor<256xf16>

    %fm_mem = ktdp.construct_memory_view %fm, sizes: [512], strides: [1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<512xf16>
    %fm_at = ktdp.construct_access_tile %fm_mem[%first] {
        access_tile_set = #slice, access_tile_order = #in_order
    } : memref<512xf16> -> !ktdp.access_tile<256xindex>

    ktdp.store %r_fm, %fm_at : tensor<256xf16>, !ktdp.access_tile<256xindex>

    %r_dv = arith.divf %yt, %p : tensor<256xf16>

    %dv_mem = ktdp.construct_memory_view %dv, sizes: [512], strides: [1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<512xf16>
    %dv_at = ktdp.construct_access_tile %dv_mem[%first] {
        access_tile_set = #slice, access_tile_order = #in_order
    } : memref<512xf16> -> !ktdp.access_tile<256xindex>

    ktdp.store %r_dv, %dv_at : tensor<256xf16>, !ktdp.access_tile<256xindex>

    %r_ex = math.exp %yt : tensor<256xf16>

    %ex_mem = ktdp.construct_memory_view %ex, sizes: [512], strides: [1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<512xf16>
    %ex_at = ktdp.construct_access_tile %ex_mem[%first] {
        access_tile_set = #slice, access_tile_order = #in_order
    } : memref<512xf16> -> !ktdp.access_tile<256xindex>

    ktdp.store %r_ex, %ex_at : tensor<256xf16>, !ktdp.access_tile<256xindex>

    %m_mx = arith.cmpf olt, %xt, %yt : tensor<256xf16>
    %r_mx = arith.select %m_mx, %xt, %yt : tensor<256xi1>, tensor<256xf16>

    %mx_mem = ktdp.construct_memory_view %mx, sizes: [512], strides: [1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<512xf16>
    %mx_at = ktdp.construct_access_tile %mx_mem[%first] {
        access_tile_set = #slice, access_tile_order = #in_order
    } : memref<512xf16> -> !ktdp.access_tile<256xindex>

    ktdp.store %r_mx, %mx_at : tensor<256xf16>, !ktdp.access_tile<256xindex>

    %m_ne = arith.cmpf une, %xt, %p : tensor<256xf16>
    %r_ne = arith.select %m_ne, %yt, %p : tensor<256xi1>, tensor<256xf16>

    %ne_mem = ktdp.construct_memory_view %ne, sizes: [512], strides: [1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<512xf16>
    %ne_at = ktdp.construct_access_tile %ne_mem[%first] {
        access_tile_set = #slice, access_tile_order = #in_order
    } : memref<512xf16> -> !ktdp.access_tile<256xindex>

    ktdp.store %r_ne, %ne_at : tensor<256xf16>, !ktdp.access_tile<256xindex>

    return
  }
}
