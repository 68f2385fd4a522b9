// Row softmax (as example 08) that also stores each row's maximum: a group
// of phases storing a per-row result beside its rows (the negative twin of
// example 08 in test/Run/examples-*.test; phases.test).
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#band = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
#col8 = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#lin = affine_map<(d0) -> (d0)>

module {
  func.func @softmax_and_max(%logits: index, %probs: index, %maxes: index) attributes {grid = [4]} {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %t = ktdp.get_compute_tile_id : index
    %r0 = arith.muli %t, %c8 : index

    %in_mem = ktdp.construct_memory_view %logits, sizes: [32, 128], strides: [128, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>
    } : memref<32x128xf16>
    %in_at = ktdp.construct_access_tile %in_mem[%r0, %c0] {
        access_tile_set = #band, access_tile_order = #lex
    } : memref<32x128xf16> -> !ktdp.access_tile<8x128xindex>
    %z = ktdp.load %in_at : !ktdp.access_tile<8x128xindex> -> tensor<8x128xf16>

    // Row maximum.
    %ninf = arith.constant 0xFC00 : f16
    %mx_e = tensor.empty() : tensor<8xf16>
    %mx_0 = linalg.fill ins(%ninf : f16) outs(%mx_e : tensor<8xf16>) -> tensor<8xf16>
    %mx = linalg.reduce { arith.maximumf }
            ins(%z : tensor<8x128xf16>) outs(%mx_0 : tensor<8xf16>) dimensions = [1]
    %mx_w_e = tensor.empty() : tensor<8x128xf16>
    %mx_w = linalg.broadcast ins(%mx : tensor<8xf16>)
                             outs(%mx_w_e : tensor<8x128xf16>) dimensions = [1]

    // Shift and exponentiate.
    %shifted = arith.subf %z, %mx_w : tensor<8x128xf16>
    %num = math.exp %shifted : tensor<8x128xf16>

    // Row sum of the exponentials.
    %zero = arith.constant 0.0 : f16
    %den_e = tensor.empty() : tensor<8xf16>
    %den_0 = linalg.fill ins(%zero : f16) outs(%den_e : tensor<8xf16>) -> tensor<8xf16>
    %den = linalg.reduce { arith.addf }
             ins(%num : tensor<8x128xf16>) outs(%den_0 : tensor<8xf16>) dimensions = [1]
    %den_w_e = tensor.empty() : tensor<8x128xf16>
    %den_w = linalg.broadcast ins(%den : tensor<8xf16>)
                              outs(%den_w_e : tensor<8x128xf16>) dimensions = [1]

    %p = arith.divf %num, %den_w : tensor<8x128xf16>

    %out_mem = ktdp.construct_memory_view %probs, sizes: [32, 128], strides: [128, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>
    } : memref<32x128xf16>
    %out_at = ktdp.construct_access_tile %out_mem[%r0, %c0] {
        access_tile_set = #band, access_tile_order = #lex
    } : memref<32x128xf16> -> !ktdp.access_tile<8x128xindex>
    %mx_mem = ktdp.construct_memory_view %maxes, sizes: [32], strides: [1] {
        coordinate_set = #col, memory_space = #ktdp.memory_space<global>
    } : memref<32xf16>
    %mx_at = ktdp.construct_access_tile %mx_mem[%r0] {
        access_tile_set = #col8, access_tile_order = #lin
    } : memref<32xf16> -> !ktdp.access_tile<8xindex>
    ktdp.store %mx, %mx_at : tensor<8xf16>, !ktdp.access_tile<8xindex>
    ktdp.store %p, %out_at : tensor<8x128xf16>, !ktdp.access_tile<8x128xindex>
    return
  }
}
