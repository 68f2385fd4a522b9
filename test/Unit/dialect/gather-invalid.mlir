// Negative twin of insert-sync/fence.mlir: a gather needs an outermost
// dimension to gather along and i32 or i64 indices.
// RUN: ktflow-opt %s -split-input-file -verify-diagnostics
ktunit.bundle @b device "sample" {
  ktunit.symbol @T : f16 [64, 32] 4096 bytes input
  ktunit.program @dma unit "dma" {
    // expected-error @+1 {{needs an outermost (gathered) dimension}}
    ktunit.gather #ktunit.addr<@spad + 128>, #ktunit.addr<sym @T> run 64 dims [] [] [] index #ktunit.addr<@spad> type i32 bound 64
  }
}

// -----

ktunit.bundle @b device "sample" {
  ktunit.symbol @T : f16 [64, 32] 4096 bytes input
  ktunit.program @dma unit "dma" {
    // expected-error @+1 {{reads indices of 'i16'; only i32 and i64 are gathered by}}
    ktunit.gather #ktunit.addr<@spad + 128>, #ktunit.addr<sym @T> run 64 dims [8] [64] [64] index #ktunit.addr<@spad> type i16 bound 64
  }
}
