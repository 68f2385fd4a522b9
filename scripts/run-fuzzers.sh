#!/usr/bin/env bash
# Runs each libFuzzer target of a KTFLOW_FUZZ build for a fixed time.
#   scripts/run-fuzzers.sh [BUILD_DIR] [SECONDS] [TARGET...]
# Corpora grow in BUILD_DIR/fuzz-corpus/<target> (kept between runs) and are
# seeded from the shipped KTIR examples, generated kernels and arch/, and
# for the plan and device-code targets from what `ktflow compile` makes of
# those kernels on each shipped description (plans, bundles, text); crash
# inputs land in BUILD_DIR/fuzz-artifacts/<target>/ and the sanitizer
# reports (with stacks) in BUILD_DIR/fuzz-reports/<target>/. Exits non-zero when a
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
[ ${#targets[@]} -eq 0 ] && targets=(ktir-fuzzer arch-fuzzer plan-fuzzer kbin-fuzzer kasm-fuzzer)
ktir="$src/examples/ktir"
# Seeds are made with KTFLOW if set, else an uninstrumented build/ ktflow
# when there is one (many times faster than the instrumented one).
ktflow=${KTFLOW:-$src/build/bin/ktflow}
[ -x "$ktflow" ] || ktflow="$build/bin/ktflow"
# An instrumented ktflow making the seeds runs under the same options.
asan_options=${ASAN_OPTIONS:-detect_leaks=0:allow_user_poisoning=0}
export ASAN_OPTIONS=$asan_options

# The kernels the plan and device-code seeds are compiled from.
seed_kernels() {
  local dir=$1
  mkdir -p "$dir"
  cp "$src"/examples/*.mlir "$ktir"/*.mlir "$dir"/ 2>/dev/null
  for seed in $(seq 1 20); do
    "$ktflow" gen --random --seed "$seed" -o "$dir/gen-$seed.mlir"
  done
}

# Runs `ktflow compile KERNEL --arch A ARGS... OUTFLAG FILE` for every seed
# kernel and shipped description; keeps the non-empty outputs.
compile_seeds() {
  local dir=$1 ext=$2
  shift 2
  # Per target, so two runs side by side do not share it.
  local kernels="$dir.kernels"
  rm -rf "$kernels"
  seed_kernels "$kernels"
  for kernel in "$kernels"/*.mlir; do
    for arch in sample spyre deep; do
      local out="$dir/$(basename "$kernel" .mlir)-$arch.$ext"
      case $ext in
        json) "$ktflow" compile "$kernel" --arch "$arch" --dump-plan "$out" >/dev/null 2>&1 ;;
        kbin) "$ktflow" compile "$kernel" --arch "$arch" -o "$out" >/dev/null 2>&1 ;;
        kasm) "$ktflow" compile "$kernel" --arch "$arch" --emit=asm >"$out" 2>/dev/null ;;
      esac
      [ -s "$out" ] || rm -f "$out"
    done
  done
}

seeds_for() {
  local target=$1 dir=$2
  mkdir -p "$dir"
  case $target in
    ktir-fuzzer)
      cp "$ktir"/*.mlir "$ktir"/invalid/*.mlir "$dir"/ 2>/dev/null
      cp "$src"/examples/*.mlir "$dir"/ 2>/dev/null
      cp "$src"/test/KTDP/*.mlir "$dir"/ 2>/dev/null
      for seed in $(seq 1 20); do
        "$ktflow" gen --random --seed "$seed" -o "$dir/gen-$seed.mlir"
      done
      "$ktflow" gen --kernel rowmax --shape 5x7 --grid 2 -o "$dir/gen-rowmax.mlir" ;;
    arch-fuzzer)
      cp "$src"/arch/*.mlir "$dir"/
      cp "$src"/test/Arch/*.mlir "$dir"/ 2>/dev/null ;;
    plan-fuzzer)
      compile_seeds "$dir" json
      cp "$src"/test/Schedule/*.json "$src"/test/Schedule/Inputs/*.json "$dir"/ 2>/dev/null ;;
    kbin-fuzzer)
      compile_seeds "$dir" kbin
      for kasm in $(find "$src/test" -name '*.kasm'); do
        "$ktflow" asm "$kasm" -o "$dir/$(basename "$kasm" .kasm).kbin" >/dev/null 2>&1
      done ;;
    kasm-fuzzer)
      compile_seeds "$dir" kasm
      find "$src/test" -name '*.kasm' -exec cp {} "$dir"/ \; ;;
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
  # FUZZ_REUSE_SEEDS=1 keeps the seeds of an earlier run (making them
  # compiles every kernel for every description).
  if [ "${FUZZ_REUSE_SEEDS:-0}" != 1 ] || [ -z "$(ls -A "$seeds" 2>/dev/null)" ]; then
    rm -rf "$seeds"
    seeds_for "$target" "$seeds"
  fi
  dict=()
  [ -f "$src/fuzz/$target.dict" ] && dict=(-dict="$src/fuzz/$target.dict")
  log="$build/fuzz-$target.log"
  echo "run-fuzzers: $target for ${seconds}s (log: $log)"
  keep=()
  [ "${FUZZ_KEEP_GOING:-0}" = 1 ] && keep=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
  # Sanitizer reports go to files: in fork mode the log keeps only their
  # first line, and the stack is what a fix needs.
  reports="$build/fuzz-reports/$target"
  mkdir -p "$reports"
  ASAN_OPTIONS=$asan_options:log_path=$reports/asan \
  UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}:log_path=$reports/ubsan \
    "$bin" "${dict[@]}" "${keep[@]}" \
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
    ls "$reports" | head -5 | sed "s|^|  report: $reports/|"
  fi
done
exit $status
