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

.PHONY: all build demo test debug-test protocol-test bench fuzz lint windows windows-test gomocup clean help

all: build ## Release build, plus bin/pbrain-hoshi and one renamed copy per level in LEVELS

build:
	$(CARGO) build --release
	mkdir -p bin
	cp $(BIN) bin/pbrain-hoshi
	for level in $(LEVELS); do cp $(BIN) bin/pbrain-hoshi-$$level; done

# Four games from balanced openings, colours swapped, at 100 ms a move: a minute's proof that
# the engine, its levels and the match runner work on this machine.
demo: build ## Release build, then full master plays the classic hard level: 4 games, 100 ms a move
	bin/pbrain-hoshi match --engine bin/pbrain-hoshi --engine bin/pbrain-hoshi-hard \
		--name master --name hard --games 4 --repeat --size 15 --tc 0/0.1 --seed 1 \
		--openings data/openings/rapfi_opengen_freestyle15.txt --openings-format pos

test: ## Every test in release (unit, data, transcripts, robustness, bench count), then debug-test
	$(CARGO) test --release
	$(MAKE) debug-test

# Left out of the debug pass for time alone (they run in release): the level tests that
# run master's search over many positions (a minute and more in a debug build, where every
# move is checked against a recomputation; the search tests run the same make/undo paths
# checked, on every rule), the shallow bench twice over, and the exhaustive pattern-table
# tests (10 million lookups, no incremental state).
DEBUG_SLOW := levels::strength::tests::every_strength_answers_a_legal_empty_cell \
	levels::strength::tests::a_low_strength_stops_at_its_depth_cap \
	levels::strength::tests::the_pick_is_repeatable_by_seed_varied_by_seeds_and_among_the_best_few \
	levels::tests::every_level_answers_a_legal_empty_cell_and_leaves_the_board_alone \
	bench::tests::a_shallow_bench_gives_the_same_counts_twice_and_legal_moves \
	table_agrees_with_the_rules_on_every_key

debug-test: ## The unit tests in a debug build: debug_assert!s on, the pattern board self-checked on every move
	$(CARGO) test --lib -- $(addprefix --skip ,$(DEBUG_SLOW))

protocol-test: ## Only the protocol transcripts, against the real binary, one test each
	$(CARGO) test --release --test protocol

bench: ## Fixed-depth search of the bench positions: node count (for commit messages) and speed
	$(CARGO) run --release -- bench

FUZZ_SECONDS ?= 60
FUZZ_TARGETS := command reader board

# New inputs go to fuzz/target/corpus/TARGET (ignored), the committed corpus stays as is.
fuzz: ## Each fuzz target for FUZZ_SECONDS, seeded by its committed corpus (nightly and cargo-fuzz)
	cd fuzz && for t in $(FUZZ_TARGETS); do \
		mkdir -p target/corpus/$$t && \
		$(CARGO) +nightly fuzz run $$t target/corpus/$$t corpus/$$t -- \
			-max_total_time=$(FUZZ_SECONDS) || exit 1; \
	done

lint: ## Formatting, clippy and the docs' links, warnings as errors
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --workspace --no-deps

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
