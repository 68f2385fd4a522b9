// The input check takes no description (no arch option): it reads only
// the KTIR and the one supported-op table, the same on every description;
// ../examples/unsupported.test shows `ktflow compile --arch` rejecting the
// same constructs on sample, spyre and deep.
// The input check accepts kernels inside the coverage: a fused chain, a
// loop without iter_args with row/column broadcasts, f32 reductions over
// either dimension. It changes nothing.
// RUN: ktflow-opt %S/../Inputs/relu_rows.mlir -ktsched-check-input | FileCheck %s --check-prefix=RELU
// RUN: ktflow-opt %S/../Inputs/odd_rows_loop.mlir -ktsched-check-input | FileCheck %s --check-prefix=LOOP
// RUN: ktflow-opt %S/../Inputs/reduce_f32.mlir -ktsched-check-input | FileCheck %s --check-prefix=REDUCE
// An epilogue of element-wise ops with constants after a reduction (a
// scale and a cast) passes; its negative twin is @epilogue_with_unreduced
// in unsupported.mlir.
// RUN: ktflow-opt %S/../../Run/Inputs/row_mean_epilogue.mlir -ktsched-check-input | FileCheck %s --check-prefix=EPILOGUE
// EPILOGUE: linalg.reduce
// EPILOGUE: arith.mulf
// EPILOGUE: arith.truncf
// RELU: func.func @relu_rows
// RELU: arith.maximumf
// LOOP: func.func @odd_rows_loop
// LOOP: scf.for
// REDUCE: func.func @reduce_f32
// REDUCE: linalg.reduce
// Launch values: i64, i32, index and f32 scalar arguments pass once bound
// (their uses folded by ktsched-specialize; unsupported.mlir has the
// unbound twin, named in the diagnostic).
// RUN: ktflow-opt %S/../../Run/Inputs/launch_scaled_rows.mlir '-ktsched-specialize=args=arg2=24,arg3=128,arg4=4,arg5=0.5' -ktsched-check-input | FileCheck %s --check-prefix=LAUNCH
// LAUNCH: func.func @scaled_rows(%arg0: index, %arg1: index, %arg2: i64, %arg3: i32, %arg4: index, %arg5: f32)
// LAUNCH: scf.for %{{.*}} = %{{.*}} to %c24 step %c4

// Integer data: i32 loads, muli/addi/subi/maxsi, a signed cmpi feeding
// select, and the conversions sitofp, fptosi, trunci, extsi pass the check
// (the unsigned compare's twin is @unsigned_compare in unsupported.mlir).
// RUN: ktflow-opt %S/../../Run/Inputs/int_elementwise.mlir -ktsched-check-input | FileCheck %s --check-prefix=INT
// RUN: ktflow-opt %S/../../Run/Inputs/int_float_casts.mlir -ktsched-check-input | FileCheck %s --check-prefix=CASTS
// INT: memref<64x64xi32>
// INT: arith.maxsi
// INT: arith.cmpi slt
// CASTS: arith.sitofp
// CASTS: arith.fptosi
// CASTS: arith.trunci
// CASTS: arith.extsi

// Every lane-wise math op of the table (sqrt, rsqrt, log, tanh, erf, powf,
// fma, divf, exp, cmpf feeding select) passes the check.
// RUN: ktflow-opt %S/../../Run/Inputs/math_ops.mlir -ktsched-check-input | FileCheck %s --check-prefix=MATH
// MATH: math.sqrt
// MATH: math.rsqrt
// MATH: math.log
// MATH: math.tanh
// MATH: math.erf
// MATH: math.powf
// MATH: math.fma
// MATH: arith.cmpf olt
// MATH: arith.select
// Groups of phases: a reduction's per-row result read back along its rows,
// by linalg.broadcast along the reduced dimension (softmax, example 08) or
// by tensor.extract, scalar arithmetic and tensor.splat (layernorm, example
// 09). Their negative twins are @broadcast_across_rows and
// @epilogue_with_unreduced in unsupported.mlir.
// RUN: ktflow-opt %examples/ktir/08_row_softmax.mlir -ktsched-check-input | FileCheck %s --check-prefix=SOFTMAX
// RUN: ktflow-opt %examples/ktir/09_layernorm_rows.mlir -ktsched-check-input | FileCheck %s --check-prefix=LAYERNORM
// SOFTMAX: linalg.broadcast
// SOFTMAX: arith.subf
// LAYERNORM: tensor.extract
// LAYERNORM: tensor.splat
// Gathered rows feeding element-wise compute (an embedding row scaled and
// added to a direct load) pass; their negative twin is
// @gather_stored_and_computed in unsupported.mlir.
// RUN: ktflow-opt %S/../../Run/Inputs/gather_rows_scale_add_32x256_f16.mlir -ktsched-check-input | FileCheck %s --check-prefix=GATHERED
// GATHERED: ktdp.construct_indirect_access_tile
// GATHERED: linalg.mul
// Computed rows scattered through an indirect tile pass; the negative twin
// is @scatter_loaded_and_computed in unsupported.mlir.
// RUN: ktflow-opt %S/../../Run/Inputs/scatter_rows_scaled_32x256_f16.mlir -ktsched-check-input | FileCheck %s --check-prefix=SCATTERED
// SCATTERED: linalg.add
// SCATTERED: ktdp.store
