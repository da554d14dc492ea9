# Hoshi: build, test and lint. `make help` lists the targets.
CARGO ?= cargo
# Cargo's output folder, wherever CARGO_TARGET_DIR puts it.
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)
BIN := $(TARGET_DIR)/release/pbrain-hoshi
# The renamed copies Piskvork users pick a level by (Piskvork passes no arguments).
LEVELS := easy normal hard master25 master50 master75
# The Windows build comes from another compiler, so it gets its own cargo output folder.
WINDOWS_TARGET_DIR ?= $(TARGET_DIR)/windows
WINDOWS := WINDOWS_TARGET_DIR=$(WINDOWS_TARGET_DIR) LEVELS="$(LEVELS)" JOBS=$(or $(JOBS),2) \
	CARGO=$(CARGO) scripts/windows.sh

.PHONY: all build test protocol-test bench lint windows windows-test gomocup clean help

all: build ## Release build, plus bin/pbrain-hoshi and one renamed copy per level in LEVELS

build:
	$(CARGO) build --release
	mkdir -p bin
	cp $(BIN) bin/pbrain-hoshi
	for level in $(LEVELS); do cp $(BIN) bin/pbrain-hoshi-$$level; done

test: ## Every test: unit, data, protocol transcripts, robustness (release build)
	$(CARGO) test --release

protocol-test: ## Only the protocol transcripts, against the real binary
	$(CARGO) test --release --test protocol

bench: ## Fixed-depth search of the bench positions: node count (for commit messages) and speed
	$(CARGO) run --release -- bench

lint: ## Formatting and clippy, warnings as errors
	$(CARGO) fmt --check
	$(CARGO) clippy --all-targets -- -D warnings

windows: ## bin/pbrain-hoshi.exe and its level copies, cross-built (installs its tools from apt)
	$(WINDOWS) deps
	$(WINDOWS) build

windows-test: windows ## The .exe under Wine: protocol transcripts, robustness, bench, memory
	$(WINDOWS) deps test
	$(WINDOWS) test

gomocup: windows ## dist/pbrain-hoshi.zip: the .exe, a readme and the licence, for Gomocup
	$(WINDOWS) gomocup

clean:
	$(CARGO) clean
	rm -rf bin dist

help:
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'
