//! Replays the committed fuzz corpus (`fuzz/corpus/TARGET/`) through the fuzz targets'
//! own checks (`fuzz/harness.rs`), on the stable toolchain: inputs the fuzzers found
//! interesting, and the crashes they found once fixed, stay tested in CI.

#[path = "../fuzz/harness.rs"]
mod harness;

use std::path::Path;

/// Runs `check` on every file of the corpus of `target`.
fn replay(target: &str, check: fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    assert!(
        files.len() >= 5,
        "only {} inputs in {}",
        files.len(),
        dir.display()
    );
    for file in files {
        let data = std::fs::read(&file).expect("corpus file");
        let outcome = std::panic::catch_unwind(|| check(&data));
        assert!(outcome.is_ok(), "{} fails its check", file.display());
    }
}

#[test]
fn the_command_corpus_parses_without_a_fault() {
    replay("command", harness::command);
}

#[test]
fn the_reader_corpus_reads_without_a_fault() {
    replay("reader", harness::reader);
}

#[test]
fn the_board_corpus_gets_one_answer_each() {
    replay("board", harness::board);
}
