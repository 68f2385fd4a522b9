#!/usr/bin/env bash
# gen-bench-and-check.sh DIR SHAPE GRID: generates every benchmark kind in
# f16 and f32 and verifies it in-process as `ktflow check` does; prints "KIND TYPE ok|FAILED" per kernel.
dir=$1 shape=$2 grid=$3
mkdir -p "$dir"
for k in add mul fma relu bcast-row bcast-col bcast-scalar rowsum rowmax colsum rowloop softmax layernorm rmsnorm rope swiglu; do
  for t in f16 f32; do
    if ktflow gen --kernel "$k" --shape "$shape" --dtype "$t" --grid "$grid" --verify \
         -o "$dir/$k-$t.mlir"; then
      echo "$k $t ok"
    else
      echo "$k $t FAILED"
    fi
  done
done
