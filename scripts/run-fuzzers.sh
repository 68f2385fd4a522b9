#!/usr/bin/env bash
# Runs each libFuzzer target of a KTFLOW_FUZZ build for a fixed time.
#   scripts/run-fuzzers.sh [BUILD_DIR] [SECONDS] [TARGET...]
# Corpora grow in BUILD_DIR/fuzz-corpus/<target> (kept between runs) and are
# seeded from the shipped KTIR examples, generated kernels and arch/; crash
# inputs land in BUILD_DIR/fuzz-artifacts/<target>/. Exits non-zero when a
# target found a crash, a leak or a timeout. FUZZ_KEEP_GOING=1 keeps fuzzing
# after a finding (libFuzzer's fork mode), to collect several per run.
# User poisoning is off by default: Debian's libLLVM is not instrumented, and
# its allocator and the instrumented build's copies of the same inline code
# disagree about poisoned slabs (false use-after-poison in MLIR's parser).
set -uo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build-fuzz}
seconds=${2:-60}
shift 2 2>/dev/null || shift $#
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(ktir-fuzzer arch-fuzzer)
shared="$src/../shared"

seeds_for() {
  local target=$1 dir=$2
  mkdir -p "$dir"
  case $target in
    ktir-fuzzer)
      cp "$shared"/ktir-examples/*.mlir "$shared"/ktir-examples/invalid/*.mlir "$dir"/ 2>/dev/null
      cp "$src"/examples/*.mlir "$dir"/ 2>/dev/null
      cp "$src"/test/KTDP/*.mlir "$dir"/ 2>/dev/null
      for seed in $(seq 1 20); do
        "$build"/bin/ktflow gen --random --seed "$seed" -o "$dir/gen-$seed.mlir"
      done
      "$build"/bin/ktflow gen --kernel rowmax --shape 5x7 --grid 2 -o "$dir/gen-rowmax.mlir" ;;
    arch-fuzzer)
      cp "$src"/arch/*.mlir "$dir"/
      cp "$src"/test/Arch/*.mlir "$dir"/ 2>/dev/null ;;
  esac
}

status=0
for target in "${targets[@]}"; do
  bin="$build/fuzz/$target"
  [ -x "$bin" ] || { echo "run-fuzzers: $bin missing (build with -DKTFLOW_FUZZ=ON)" >&2; exit 2; }
  corpus="$build/fuzz-corpus/$target"
  seeds="$build/fuzz-seeds/$target"
  artifacts="$build/fuzz-artifacts/$target"
  mkdir -p "$corpus" "$artifacts"
  rm -rf "$seeds"
  seeds_for "$target" "$seeds"
  dict=()
  [ -f "$src/fuzz/$target.dict" ] && dict=(-dict="$src/fuzz/$target.dict")
  log="$build/fuzz-$target.log"
  echo "run-fuzzers: $target for ${seconds}s (log: $log)"
  keep=()
  [ "${FUZZ_KEEP_GOING:-0}" = 1 ] && keep=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allow_user_poisoning=0} "$bin" "${dict[@]}" "${keep[@]}" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" "$corpus" "$seeds" >"$log" 2>&1
  rc=$?
  runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
  # Fork mode reports progress as "#RUNS: cov: ..." lines instead.
  [ -z "$runs" ] && runs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#')
  echo "run-fuzzers: $target: exit $rc, ${runs:-?} executions, corpus $(ls "$corpus" | wc -l) files"
  if [ $rc -ne 0 ]; then
    status=1
    grep -E 'ERROR|SUMMARY|Test unit written' "$log" | head -5
  fi
done
exit $status
