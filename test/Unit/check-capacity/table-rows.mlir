// Each instance's table row counts: the copy fits for row 0 (offset 0) and
// not for row 1, whose column puts its 2 KiB run past @spad's usable end;
// the error names the row. The twin with row 1 in range passes.
// RUN: not ktflow-opt %s -ktunit-check-capacity=arch=sample 2>&1 | FileCheck %s
// RUN: sed 's/253000/251904/' %s | ktflow-opt -ktunit-check-capacity=arch=sample | FileCheck %s --check-prefix=FITS
// CHECK: error: program @p touches bytes [253000, 255048) of @spad (table row 1), outside its usable 253952 bytes
// FITS: ktunit.program @p
ktunit.bundle @b device "sample" {
  ktunit.symbol @A : f16 [1024] 2048 bytes input
  ktunit.program @p unit "dma" instances [0, 1] table dense<[[0], [253000]]> : tensor<2x1xi64> {
    ktunit.copy #ktunit.addr<@spad + t0>, #ktunit.addr<sym @A> run 2048 dims [] [] []
  }
}
