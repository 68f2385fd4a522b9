// Negative twin: no vector unit of a device without f32 lanes can run f32; a unit lacking an
// op class the body needs. (A grid larger than the cores is not an error:
// it runs in rounds, see ../examples/supported-sample-deep.test.)
// RUN: not ktflow-opt %S/../compute-groups/cast.mlir %to_groups -ktsched-initial-pipeline=arch=%S/../Inputs/f16_only_arch.mlir 2>&1 | FileCheck %s --check-prefix=LANES
// RUN: not ktflow-opt %s %to_groups -ktsched-initial-pipeline 2>&1 | FileCheck %s --check-prefix=CLASS
// LANES: error: no compute unit of @f16only can run this group (@vec has no lanes for f32)
// CLASS: error: no compute unit of @noexp can run this group (@vec lacks op class 'exp')
module {
  ktarch.device @noexp clock_mhz = 500 {
    ktarch.memory @ddr {capacity = 1048576, alignment = 16, spaces = ["global"]}
    ktarch.group @core count = 1 {
      ktarch.memory @spad {capacity = 65536, alignment = 16, spaces = ["ct_local"]}
      ktarch.dma @dma {semaphores = 32, access = [#ktarch.access<memory = @ddr, min_size = 16, max_size = 4096, size_multiple = 16, alignment = 16>, #ktarch.access<memory = @spad, min_size = 16, max_size = 4096, size_multiple = 16, alignment = 16>]}
      ktarch.compute @vec {semaphores = 32, vector_registers = 32, lanes = {f16 = 8}, ops = {add = 1}, access = [#ktarch.access<memory = @spad, min_size = 16, max_size = 16, size_multiple = 16, alignment = 16>]}
      ktarch.link @ddr_to_dma : @ddr -> @dma {bandwidth = 16, latency = 10, granule = 16}
      ktarch.link @dma_to_spad : @dma -> @spad {bandwidth = 16, latency = 1, granule = 16}
      ktarch.link @spad_to_vec : @spad -> @vec {bandwidth = 16, latency = 1, granule = 16}
      ktarch.link @vec_to_spad : @vec -> @spad {bandwidth = 16, latency = 1, granule = 16}
      ktarch.link @spad_to_dma : @spad -> @dma {bandwidth = 16, latency = 1, granule = 16}
      ktarch.link @dma_to_ddr : @dma -> @ddr {bandwidth = 16, latency = 10, granule = 16}
    }
  }
  func.func @exp_only(%x: index, %y: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %xm = ktdp.construct_memory_view %x, sizes: [16], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
    %ym = ktdp.construct_memory_view %y, sizes: [16], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
    %xt = ktdp.construct_access_tile %xm[%c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<16xf16> -> !ktdp.access_tile<16xindex>
    %yt = ktdp.construct_access_tile %ym[%c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<16xf16> -> !ktdp.access_tile<16xindex>
    %xv = ktdp.load %xt : !ktdp.access_tile<16xindex> -> tensor<16xf16>
    %e = math.exp %xv : tensor<16xf16>
    ktdp.store %e, %yt : tensor<16xf16>, !ktdp.access_tile<16xindex>
    return
  }
}
