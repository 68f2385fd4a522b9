#!/usr/bin/env bash
# Writes the benchmark suite of issue 7 into bench/kernels/ (gitignored;
# generated at bench time):
#   kernels  add mul fma relu bcast-row bcast-col bcast-scalar rowsum rowmax
#   sizes    64 KiB, 256 KiB, 1 MiB, 4 MiB, 16 MiB, 64 MiB per input tensor
#   grids    1, 8, 32 (a grid larger than the rows is skipped)
#   types    f16 for every kernel, f32 for add, fma, bcast-row and rowsum
# Rows are 1024 elements wide; the row count gives the size. Besides the
# .mlir files it writes kernels/index.tsv (file, kind, dtype, shape, grid,
# bytes per input) for the bench driver; choosing the grids that fit a
# description is the driver's job (a grid of 32 needs 32 cores).
#   bench/generate.sh [KTFLOW] [OUT_DIR]
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
ktflow=${1:-${KTFLOW:-$here/../build/bin/ktflow}}
out=${2:-$here/kernels}
cols=1024

[ -x "$ktflow" ] || { echo "bench/generate.sh: no ktflow at $ktflow (build first)" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out"
index="$out/index.tsv"
printf 'file\tkind\tdtype\tshape\tgrid\tbytes\n' >"$index"

count=0
for dtype in f16 f32; do
  if [ "$dtype" = f16 ]; then
    esize=2
    kinds="add mul fma relu bcast-row bcast-col bcast-scalar rowsum rowmax"
  else
    esize=4
    kinds="add fma bcast-row rowsum"
  fi
  for kib in 64 256 1024 4096 16384 65536; do
    bytes=$((kib * 1024))
    rows=$((bytes / (cols * esize)))
    for grid in 1 8 32; do
      [ "$grid" -le "$rows" ] || continue
      for kind in $kinds; do
        file="${kind}_${dtype}_${rows}x${cols}_g${grid}.mlir"
        "$ktflow" gen --kernel "$kind" --shape "${rows}x${cols}" --dtype "$dtype" \
          --grid "$grid" -o "$out/$file"
        printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$file" "$kind" "$dtype" "${rows}x${cols}" \
          "$grid" "$bytes" >>"$index"
        count=$((count + 1))
      done
    done
  done
done
echo "bench/generate.sh: wrote $count kernels to $out"
