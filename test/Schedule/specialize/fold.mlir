// ktsched-specialize substitutes the bound launch values and folds the
// scalar arithmetic that depends on them, so subscripts, loop bounds and
// view shapes are affine in the grid coordinates and the loop variable, or
// constants; tensor arithmetic keeps its form. The values are recorded on
// the kernel. Negative twin: fold-invalid.mlir.
// RUN: ktflow-opt %s '-ktsched-specialize=args=n=2000,block=256,rows=24,arg6=0.5' | FileCheck %s
// Unbound, nothing depending on the arguments folds (but granularity does).
// RUN: ktflow-opt %s -ktsched-specialize | FileCheck %s --check-prefix=UNBOUND

#first_n = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>
#rows_by_64 = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#block = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#lex1 = affine_map<(d0) -> (d0)>
#lex2 = affine_map<(d0, d1) -> (d0, d1)>

// CHECK: #[[FIRST_N:.*]] = affine_set<(d0) : (d0 >= 0, -d0 + 1999 >= 0)>
// CHECK: #[[ROWS:.*]] = affine_set<(d0, d1) : (d0 >= 0, -d0 + 23 >= 0, d1 >= 0, -d1 + 63 >= 0)>
// CHECK-LABEL: func.func @frontend
// CHECK-SAME: ktsched.launch_values = [{arg = 3 : i64, name = "n", value = 2000 : i32}, {arg = 4 : i64, name = "block", value = 256 : index}, {arg = 5 : i64, name = "rows", value = 24 : index}, {arg = 6 : i64, name = "scale", value = 5.000000e-01 : f16}]
// CHECK: %[[PID:.*]] = ktdp.get_compute_tile_id
// The view sized by n is static, its coordinate_set bound.
// CHECK: ktdp.construct_memory_view %arg0, sizes: [2000], strides: [1]
// CHECK-SAME: coordinate_set = #[[FIRST_N]]
// CHECK-SAME: memref<2000xf16>
// The clamp min(pid * 256, n - 256) does not fold (it differs between
// tiles), but its constant operand did.
// CHECK: %[[START:.*]] = arith.muli %[[PID]], %c256
// CHECK: arith.minsi %[[START]], %c1744
// The row view sized by the runtime argument is static too.
// CHECK: ktdp.construct_memory_view %arg1, sizes: [24, 64], strides: [64, 1]
// CHECK-SAME: coordinate_set = #[[ROWS]]
// CHECK-SAME: memref<24x64xf16>
// rows / granularity, ceil(rows / 5), rows % 5, select(cmp) and the casts
// fold to constants: the loop runs to 6 in steps of 4 (ceil(24/5) = 5 >
// 24 % 5 = 4, so the select takes 4).
// The scale computation (0.5 * 0.5) is a constant splat.
// CHECK: %[[SCALE:.*]] = arith.constant 2.500000e-01 : f16
// CHECK: tensor.splat %[[SCALE]]
// CHECK: scf.for %{{.*}} = %[[PID]] to %c6 step %c4
// The tensor arithmetic is as written.
// CHECK: arith.mulf %{{.*}}, %{{.*}} : tensor<4x64xf16>

// UNBOUND-LABEL: func.func @frontend
// UNBOUND-NOT: launch_values
// UNBOUND: arith.index_cast %arg3
// UNBOUND: sizes: [%{{.*}}], strides: [1]
// UNBOUND: ktdp.runtime_arg_extract value
// UNBOUND-NOT: runtime_arg_extract granularity
// UNBOUND: arith.divui %{{.*}}, %c4
// Arguments carry their source names as `ktflow` attaches them (NameLocs).
func.func @frontend(%x: index loc("x"), %y: index loc("y"), %z: index loc("z"),
                    %n: i32 loc("n"), %block: index loc("block"),
                    %rows: !ktdp.runtime_arg<index, granularity=4, upperbound=256> loc("rows"),
                    %scale: f16 loc("scale")) attributes {grid = [8]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %pid = ktdp.get_compute_tile_id : index
  %len = arith.index_cast %n : i32 to index
  %x_mem = ktdp.construct_memory_view %x, sizes: [%len], strides: [1] {
      coordinate_set = #first_n, memory_space = #ktdp.memory_space<global>} : memref<?xf16>
  %start = arith.muli %pid, %block : index
  %last = arith.subi %len, %block : index
  %clamped = arith.minsi %start, %last : index
  %x_at = ktdp.construct_access_tile %x_mem[%clamped] {
      access_tile_set = #block, access_tile_order = #lex1} : memref<?xf16> -> !ktdp.access_tile<256xindex>
  %m = ktdp.runtime_arg_extract value from %rows
         : !ktdp.runtime_arg<index, granularity=4, upperbound=256> -> index
  %gran = ktdp.runtime_arg_extract granularity from %rows
         : !ktdp.runtime_arg<index, granularity=4, upperbound=256> -> index
  %y_mem = ktdp.construct_memory_view %y, sizes: [%m, 64], strides: [64, 1] {
      coordinate_set = #rows_by_64, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %nblocks = arith.divui %m, %gran : index
  %ceil = arith.ceildivsi %m, %c5 : index
  %rem = arith.remsi %m, %c5 : index
  %big = arith.cmpi sgt, %ceil, %rem : index
  %step = arith.select %big, %rem, %c1 : index
  %scaled = arith.mulf %scale, %scale : f16
  %s = tensor.splat %scaled : tensor<4x64xf16>
  scf.for %b = %pid to %nblocks step %step {
    %r0 = arith.muli %b, %gran : index
    %at = ktdp.construct_access_tile %y_mem[%r0, %c0] {
        access_tile_set = #tile, access_tile_order = #lex2} : memref<?x64xf16> -> !ktdp.access_tile<4x64xindex>
    %v = ktdp.load %at : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
    %w = arith.mulf %v, %s : tensor<4x64xf16>
    ktdp.store %w, %at : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  }
  return
}
