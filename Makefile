# The two commands of the README: `make demo` and `make test`.
BUILD ?= build
JOBS ?= $(shell nproc)

.PHONY: deps configure build test demo bench clean test-asan fuzz-deps fuzz-build fuzz

deps:
	./scripts/install-deps.sh

$(BUILD)/build.ninja: | deps
	cmake -G Ninja -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release

configure: $(BUILD)/build.ninja

build: deps configure
	ninja -C $(BUILD) -j $(JOBS)

test: build
	ninja -C $(BUILD) check

# The demo: a fused multiply-add over four 8 MiB f16 buffers (4096x1024) on
# spyre's 32 cores, compiled, simulated and checked against the interpreter.
DEMO_KERNEL ?= examples/demo_fma_4096x1024_f16.mlir
demo: build
	./$(BUILD)/bin/ktflow run $(DEMO_KERNEL) --arch spyre

# The benchmark suite (not part of `make test`): every kernel on spyre and
# sample, inputs up to BENCH_MAX_BYTES; tables in build/bench.{csv,json}.
BENCH_MAX_BYTES ?= 64M
bench: build
	./$(BUILD)/bin/ktflow bench --arch spyre --arch sample --max-bytes $(BENCH_MAX_BYTES) \
	  --csv $(BUILD)/bench.csv --json $(BUILD)/bench.json

# The test suite under AddressSanitizer + UndefinedBehaviorSanitizer
# (KTFLOW_SANITIZE) in its own build directory.
ASAN_BUILD ?= build-asan
test-asan: deps fuzz-deps
	cmake -G Ninja -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Release -DKTFLOW_SANITIZE=ON
	ninja -C $(ASAN_BUILD) -j $(JOBS)
	ASAN_OPTIONS=$${ASAN_OPTIONS:-detect_leaks=0:allow_user_poisoning=0} UBSAN_OPTIONS=$${UBSAN_OPTIONS:-print_stacktrace=1} \
	  ninja -C $(ASAN_BUILD) check

# libFuzzer targets (fuzz/), each run for FUZZ_SECONDS; see docs/testing.md.
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
fuzz-deps:
	./scripts/install-fuzz-deps.sh

fuzz-build: deps fuzz-deps
	cmake -G Ninja -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=Release -DKTFLOW_FUZZ=ON
	ninja -C $(FUZZ_BUILD) -j $(JOBS) fuzzers ktflow

fuzz: fuzz-build
	./scripts/run-fuzzers.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

clean:
	rm -rf $(BUILD)
