# The two commands of the README: `make demo` and `make test`.
BUILD ?= build
JOBS ?= $(shell nproc)

.PHONY: deps configure build test demo bench clean

deps:
	./scripts/install-deps.sh

$(BUILD)/build.ninja: | deps
	cmake -G Ninja -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release

configure: $(BUILD)/build.ninja

build: deps configure
	ninja -C $(BUILD) -j $(JOBS)

test: build
	ninja -C $(BUILD) check

demo: build
	./$(BUILD)/bin/ktflow run examples/vector_arith.mlir --arch spyre

clean:
	rm -rf $(BUILD)
