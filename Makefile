# Hoshi: build, test and lint. `make help` lists the targets.
CARGO ?= cargo
# Cargo's output folder, wherever CARGO_TARGET_DIR puts it.
BIN := $(or $(CARGO_TARGET_DIR),target)/release/pbrain-hoshi
LEVEL_COPIES := $(addprefix bin/pbrain-hoshi-,easy normal hard)

.PHONY: all build test protocol-test bench lint clean help

all: build ## Release build, plus bin/pbrain-hoshi and one renamed copy per classic level

build:
	$(CARGO) build --release
	mkdir -p bin
	cp $(BIN) bin/pbrain-hoshi
	for copy in $(LEVEL_COPIES); do cp $(BIN) $$copy; done

test: ## Every test: unit, data, protocol transcripts, robustness (release build)
	$(CARGO) test --release

protocol-test: ## Only the protocol transcripts, against the real binary
	$(CARGO) test --release --test protocol

bench: ## Fixed-depth search of the bench positions: node count (for commit messages) and speed
	$(CARGO) run --release -- bench

lint: ## Formatting and clippy, warnings as errors
	$(CARGO) fmt --check
	$(CARGO) clippy --all-targets -- -D warnings

clean:
	$(CARGO) clean
	rm -rf bin

help:
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'
