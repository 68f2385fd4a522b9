// The abstract execution has a step budget (max-steps): a skeleton that
// needs more steps is reported rather than run for ever. The default
// budget runs the same program to completion.
// RUN: not ktflow-opt %s -ktunit-check-deadlock="arch=sample max-steps=100" 2>&1 | FileCheck %s
// RUN: ktflow-opt %s -ktunit-check-deadlock=arch=sample | FileCheck %s --check-prefix=DEFAULT
// CHECK: error: the synchronisation skeleton did not finish within 100 steps (option max-steps)
// DEFAULT: ktunit.program @p
ktunit.bundle @b device "sample" {
  ktunit.program @p unit "ld" instances [0] {
    ktunit.loop 1000 {
      ktunit.credit sem 0, 1
      ktunit.wait sem 0, 1
    }
  }
}
