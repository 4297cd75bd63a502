# Builds the engine to the path given as EXE (default: strata), as OpenBench's worker asks
# (`make -j EXE=<name>`, run in the repository's root; `.exe` is added on Windows).
# `cargo build --release` is the usual way to build; this file is for tools that run make.

EXE ?= strata
ifeq ($(OS),Windows_NT)
	OUT := $(EXE).exe
else
	OUT := $(EXE)
endif

.PHONY: all clean
all:
	cargo rustc --release --bin strata -- --emit link=$(abspath $(OUT))

clean:
	cargo clean
