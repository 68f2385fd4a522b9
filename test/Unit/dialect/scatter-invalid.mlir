// Negative twin of the scatter in insert-sync/fence.mlir's form: a scatter
// needs an outermost dimension to scatter along and i32 or i64 indices.
// RUN: ktflow-opt %s -split-input-file -verify-diagnostics
ktunit.bundle @b device "sample" {
  ktunit.symbol @T : f16 [64, 32] 4096 bytes output
  ktunit.program @dma unit "dma" {
    // expected-error @+1 {{needs an outermost (scattered) dimension}}
    ktunit.scatter #ktunit.addr<sym @T>, #ktunit.addr<@spad + 128> run 64 dims [] [] [] index #ktunit.addr<@spad> type i32 bound 64
  }
}

// -----

ktunit.bundle @b device "sample" {
  ktunit.symbol @T : f16 [64, 32] 4096 bytes output
  ktunit.program @dma unit "dma" {
    // expected-error @+1 {{reads indices of 'i16'; only i32 and i64 are scattered by}}
    ktunit.scatter #ktunit.addr<sym @T>, #ktunit.addr<@spad + 128> run 64 dims [8] [64] [64] index #ktunit.addr<@spad> type i16 bound 64
  }
}
