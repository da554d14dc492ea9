//! The bench signature as a check: `pbrain-hoshi bench` must print the node count kept in
//! `bench.expected` at the repository's root.
//!
//! The bench searches fixed positions to a fixed depth with one thread and no clock, so
//! its total is the same on every run and machine and changes only when search or
//! evaluation behaviour does. A commit that changes it on purpose writes the new count
//! into `bench.expected` and ends its message with `Bench: N`; a refactor keeps it.
//!
//! Release builds only: the debug pass verifies the incremental pattern board on every
//! move, which makes the default-depth bench take minutes there.

#![cfg(not(debug_assertions))]

use std::path::Path;
use std::process::Command;

#[test]
fn bench_prints_the_node_count_in_bench_expected() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("bench.expected");
    let text = std::fs::read_to_string(&path).expect("bench.expected at the repository root");
    let expected: u64 = text
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("bench.expected must hold one number, got {text:?}"));
    let output = Command::new(env!("CARGO_BIN_EXE_pbrain-hoshi"))
        .arg("bench")
        .output()
        .expect("cannot run pbrain-hoshi bench");
    assert!(
        output.status.success(),
        "pbrain-hoshi bench failed: {output:?}"
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    // The last line: `depth D: N nodes, T ms, S nodes/s`.
    let total = stdout
        .lines()
        .last()
        .and_then(|line| line.split_once(": "))
        .and_then(|(_, rest)| rest.split_once(" nodes"))
        .and_then(|(n, _)| n.parse::<u64>().ok())
        .unwrap_or_else(|| panic!("no total in the bench output:\n{stdout}"));
    assert!(
        total == expected,
        "pbrain-hoshi bench now prints {total} nodes; bench.expected says {expected}.\n\
         If this change is meant to alter search or evaluation, write {total} into \
         bench.expected and end the commit message with `Bench: {total}`. If it is a \
         refactor, it must keep {expected}: find what changed the search.\n{stdout}"
    );
}
