// Rows loaded through an indirect access tile and fed to compute become a
// gathered tensor: the table's argument, offset and strides, its outermost
// dimension over the index tensor's positions (gather_index, the table's
// rows as gather_bound), read by the compute group's load at the tile's
// corner along the indices.
// RUN: ktflow-opt %S/../../Run/Inputs/gather_rows_scale_add_32x256_f16.mlir %to_groups | FileCheck %s
// CHECK: ktsched.tensor @gathered0 {arg = 0 : i64, element_type = f16, gather_bound = 64 : i64, gather_index = @arg1, lower_corner = array<i64: 0, 0>, offset = 0 : i64, shape = array<i64: 32, 256>, strides = array<i64: 256, 1>}
// CHECK: ktsched.group
// CHECK: ktsched.load @gathered0
// Computed rows stored through an indirect tile: the group's store names
// the gathered tensor of the table it scatters into.
// RUN: ktflow-opt %S/../../Run/Inputs/scatter_rows_scaled_32x256_f16.mlir %to_groups | FileCheck %s --check-prefix=SCATTER
// SCATTER: ktsched.tensor @gathered0 {arg = 2 : i64, element_type = f16, gather_bound = 64 : i64, gather_index = @arg1
// SCATTER: ktsched.store %{{.*}} to @gathered0
// Negative twin: a gather stored directly (example 16) stays a
// ktsched.gather of its own, with no gathered tensor.
// RUN: ktflow-opt %examples/ktir/16_indirect_row_gather.mlir %to_groups | FileCheck %s --check-prefix=STORED
// STORED-NOT: gather_index
// STORED: ktsched.gather
// Negative twin of the scatter-add's in-place update: rows gathered from a
// table and stored into it directly at the same coordinates are other
// rows, diagnosed as an overlapping in-place update.
// RUN: not ktflow-opt %S/../Inputs/gather_store_direct_same_table.mlir %to_groups 2>&1 | FileCheck %s --check-prefix=OTHER
// OTHER: error: group writes kernel argument 2 at other coordinates than it reads it
