// Registers are allocated against the description's count: three values
// live at once on a unit with two registers is an error at the op that
// needs the third, naming the unit.
// RUN: not ktflow-opt %s -ktunit-allocate-registers 2>&1 | FileCheck %s
// CHECK: too-many-registers.mlir:[[# @LINE + 24]]:5: error: program @p needs more than 2 vector registers live at once here, but @tiny gives unit 'vec' 2
#ddr_rule = #ktarch.access<memory = @ddr, min_size = 16, max_size = 256, size_multiple = 16, alignment = 16>
#spad_rule = #ktarch.access<memory = @spad, min_size = 16, max_size = 256, size_multiple = 16, alignment = 16>
ktarch.device @tiny clock_mhz = 1000 {
  ktarch.memory @ddr {capacity = 1024, alignment = 16, spaces = ["global"]}
  ktarch.group @core count = 1 {
    ktarch.memory @spad {capacity = 256, alignment = 16, spaces = ["ct_local"]}
    ktarch.dma @dma {semaphores = 4, access = [#ddr_rule, #spad_rule]}
    ktarch.compute @vec {semaphores = 1, vector_registers = 2, lanes = {f32 = 4}, ops = {add = 1}, access = [#spad_rule]}
    ktarch.link @ddr_to_dma : @ddr -> @dma {bandwidth = 16, latency = 10, granule = 16}
    ktarch.link @dma_to_spad : @dma -> @spad {bandwidth = 16, latency = 1, granule = 16}
    ktarch.link @spad_to_dma : @spad -> @dma {bandwidth = 16, latency = 1, granule = 16}
    ktarch.link @dma_to_ddr : @dma -> @ddr {bandwidth = 16, latency = 10, granule = 16}
    ktarch.link @spad_to_vec : @spad -> @vec {bandwidth = 16, latency = 1, granule = 16}
    ktarch.link @vec_to_spad : @vec -> @spad {bandwidth = 16, latency = 1, granule = 16}
  }
}
ktunit.bundle @b device "tiny" {
  ktunit.program @p unit "vec" {
    %a = ktunit.vreg : !ktunit.vreg<4xf32>
    %b = ktunit.vreg : !ktunit.vreg<4xf32>
    %c = ktunit.vreg : !ktunit.vreg<4xf32>
    ktunit.vload #ktunit.addr<@spad> -> %a : !ktunit.vreg<4xf32>
    ktunit.vload #ktunit.addr<@spad + 16> -> %b : !ktunit.vreg<4xf32>
    ktunit.vload #ktunit.addr<@spad + 32> -> %c : !ktunit.vreg<4xf32>
    ktunit.add %a, %b, %c : !ktunit.vreg<4xf32>
    ktunit.vstore #ktunit.addr<@spad>, %a : !ktunit.vreg<4xf32>
  }
}
