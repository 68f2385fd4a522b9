// After sync insertion every semaphore must end at zero, so programs of
// consecutive groups can be concatenated: a signal nobody waits for is
// reported with the semaphore and the instance. The twin that waits for it
// passes.
// RUN: not ktflow-opt %s -ktunit-check-deadlock=arch=sample 2>&1 | FileCheck %s
// RUN: sed 's|// WAIT||' %s | ktflow-opt -ktunit-check-deadlock=arch=sample | FileCheck %s --check-prefix=ZERO
// CHECK: error: semaphore 5 of @ld[core=0,subcore=1] ends at 1, not 0
// ZERO: ktunit.program @q
ktunit.bundle @b device "sample" {
  ktunit.program @p unit "dma" instances [0] {
    ktunit.signal #ktunit.node<@ld[1]>, sem 5
  }
  ktunit.program @q unit "ld" instances [1] {
    // WAIT ktunit.wait sem 5, 1
  }
}
