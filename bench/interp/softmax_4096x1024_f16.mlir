// Benchmark: row softmax of a 4096x1024 f16 matrix on a 32-tile grid; tile t
// handles rows [128*t, 128*t + 128) in 8-row blocks (max, subtract, exp,
// sum, divide, as in ktir-examples/08_row_softmax.mlir).
//   ktflow interp bench/interp/softmax_4096x1024_f16.mlir --quiet

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4095 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#band = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>

func.func @softmax(%logits: index, %probs: index) attributes {grid = [32]} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  %t = ktdp.get_compute_tile_id : index
  %first = arith.muli %t, %c128 : index
  %last = arith.addi %first, %c128 : index
  %in_mem = ktdp.construct_memory_view %logits, sizes: [4096, 1024], strides: [1024, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global>
  } : memref<4096x1024xf16>
  %out_mem = ktdp.construct_memory_view %probs, sizes: [4096, 1024], strides: [1024, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global>
  } : memref<4096x1024xf16>
  %ninf = arith.constant 0xFC00 : f16
  %zero = arith.constant 0.0 : f16
  scf.for %r = %first to %last step %c8 {
    %in_at = ktdp.construct_access_tile %in_mem[%r, %c0] {
        access_tile_set = #band, access_tile_order = #lex
    } : memref<4096x1024xf16> -> !ktdp.access_tile<8x1024xindex>
    %z = ktdp.load %in_at : !ktdp.access_tile<8x1024xindex> -> tensor<8x1024xf16>
    %mx_e = tensor.empty() : tensor<8xf16>
    %mx_0 = linalg.fill ins(%ninf : f16) outs(%mx_e : tensor<8xf16>) -> tensor<8xf16>
    %mx = linalg.reduce { arith.maximumf }
            ins(%z : tensor<8x1024xf16>) outs(%mx_0 : tensor<8xf16>) dimensions = [1]
    %mx_w_e = tensor.empty() : tensor<8x1024xf16>
    %mx_w = linalg.broadcast ins(%mx : tensor<8xf16>)
                             outs(%mx_w_e : tensor<8x1024xf16>) dimensions = [1]
    %shifted = arith.subf %z, %mx_w : tensor<8x1024xf16>
    %num = math.exp %shifted : tensor<8x1024xf16>
    %den_e = tensor.empty() : tensor<8xf16>
    %den_0 = linalg.fill ins(%zero : f16) outs(%den_e : tensor<8xf16>) -> tensor<8xf16>
    %den = linalg.reduce { arith.addf }
             ins(%num : tensor<8x1024xf16>) outs(%den_0 : tensor<8xf16>) dimensions = [1]
    %den_w_e = tensor.empty() : tensor<8x1024xf16>
    %den_w = linalg.broadcast ins(%den : tensor<8xf16>)
                              outs(%den_w_e : tensor<8x1024xf16>) dimensions = [1]
    %p = arith.divf %num, %den_w : tensor<8x1024xf16>
    %out_at = ktdp.construct_access_tile %out_mem[%r, %c0] {
        access_tile_set = #band, access_tile_order = #lex
    } : memref<4096x1024xf16> -> !ktdp.access_tile<8x1024xindex>
    ktdp.store %p, %out_at : tensor<8x1024xf16>, !ktdp.access_tile<8x1024xindex>
  }
  return
}
