// Memory-space rules of spec §4.1, in both spellings.
// RUN: ktflow-opt %s -split-input-file -verify-diagnostics

#box = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
func.func @f(%a: index) {
  // expected-error @+1 {{spyre memory space: core is only allowed with LX or L0, got 'HBM, core = 1'}}
  %0 = ktdp.construct_memory_view %a, sizes: [16], strides: [1] {coordinate_set = #box, memory_space = #ktdp.spyre_memory_space<HBM, core = 1>} : memref<16xf16>
  return
}

// -----

#box = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
func.func @f(%a: index) {
  // expected-error @+1 {{spyre memory space: core is only allowed with LX or L0, got 'unspecified, core = 0'}}
  %0 = ktdp.construct_memory_view %a, sizes: [16], strides: [1] {coordinate_set = #box, memory_space = #ktdp.spyre_memory_space<unspecified, core = 0>} : memref<16xf16>
  return
}

// -----

#box = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
func.func @f(%a: index) {
  // expected-error @+1 {{spyre memory space: core must be >= 0, got -1}}
  %0 = ktdp.construct_memory_view %a, sizes: [16], strides: [1] {coordinate_set = #box, memory_space = #ktdp.spyre_memory_space<LX, core = -1>} : memref<16xf16>
  return
}

// -----

#box = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
func.func @f(%a: index) {
  // expected-error @+1 {{memory space: ct_id is only allowed with ct_local, got 'global, ct_id = 2'}}
  %0 = ktdp.construct_memory_view %a, sizes: [16], strides: [1] {coordinate_set = #box, memory_space = #ktdp.memory_space<global, ct_id = 2>} : memref<16xf16>
  return
}

// -----

#box = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
func.func @f(%a: index) {
  // expected-error @+1 {{memory space: ct_id must be >= 0, got -4}}
  %0 = ktdp.construct_memory_view %a, sizes: [16], strides: [1] {coordinate_set = #box, memory_space = #ktdp.memory_space<ct_local, ct_id = -4>} : memref<16xf16>
  return
}

// -----

#box = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
func.func @f(%a: index) {
  // expected-error @+1 {{memory space must be global, ct_local or unspecified, got 'HBM'}}
  %0 = ktdp.construct_memory_view %a, sizes: [16], strides: [1] {coordinate_set = #box, memory_space = #ktdp.memory_space<HBM>} : memref<16xf16>
  return
}

// -----

#box = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
func.func @f(%a: index) {
  // expected-error @+1 {{spyre memory space must be HBM, LX, L0 or unspecified, got 'global'}}
  %0 = ktdp.construct_memory_view %a, sizes: [16], strides: [1] {coordinate_set = #box, memory_space = #ktdp.spyre_memory_space<global>} : memref<16xf16>
  return
}

// -----

#box = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
func.func @f(%a: index) {
  // expected-error @+1 {{expected 'ct_id'}}
  %0 = ktdp.construct_memory_view %a, sizes: [16], strides: [1] {coordinate_set = #box, memory_space = #ktdp.memory_space<ct_local, core = 1>} : memref<16xf16>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{unknown ktdp attribute '#ktdp.memspace'}}
  %0 = arith.constant {tag = #ktdp.memspace<global>} 0 : index
  return
}

// -----

// ct_id must name a tile of the enclosing grid ([2, 2] has 4 tiles).
#box = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
func.func @f(%a: index) attributes {grid = [2, 2]} {
  // expected-error @+1 {{memory space ct_id = 4 is not less than the number of tiles (4) of the enclosing grid}}
  %0 = ktdp.construct_memory_view %a, sizes: [16], strides: [1] {coordinate_set = #box, memory_space = #ktdp.spyre_memory_space<LX, core = 4>} : memref<16xf16>
  return
}

// -----

// The memref's memory-space slot must agree with memory_space (spec §3.5).
#box = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
func.func @f(%a: index) {
  // expected-error @+1 {{result memref memory space #ktdp.memory_space<ct_local> disagrees with memory_space #ktdp.memory_space<global>}}
  %0 = ktdp.construct_memory_view %a, sizes: [16], strides: [1] {coordinate_set = #box, memory_space = #ktdp.memory_space<global>} : memref<16xf16, #ktdp.memory_space<ct_local>>
  return
}
