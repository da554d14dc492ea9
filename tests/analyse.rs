//! `pbrain-hoshi analyse` on positions whose best move is known by construction: a forced
//! win by fours with a single first move, and a forced block of a four. Text and JSON.

use std::io::Write;
use std::process::{Command, Stdio};

use hoshi::board::{Board, Color};
use hoshi::notation;
use hoshi::rules::Rule;
use hoshi_tools::game::Outcome;
use hoshi_tools::record;

/// Black f8 g8 h8 against white's e8, and black i6 i7 (white's other stones in the
/// corners). i8 is a four (f8-i8, five point j8) and a three (i6-i8) at once; after the
/// forced j8, i9 or i5 makes a straight four. Black's only other four, j8, is answered at
/// i8, which also kills the column: i8 is the only first move of a win by fours.
const FOUR_THREE: &str = "f8e8g8a1h8o1i6a15i7o15";

/// White f10 g10 h10 i10 against black's e10: j10 is white's five point, black has no
/// five, so j10 is black's only move that does not lose at once.
const FOUR_TO_BLOCK: &str = "e10f10a1g10o1h10a15i10";

fn analyse(args: &[&str], stdin: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-hoshi"))
        .arg("analyse")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cannot start pbrain-hoshi analyse");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {stderr}");
    assert_eq!(stderr, "", "{args:?}");
    String::from_utf8(out.stdout).unwrap()
}

fn json(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let text = analyse(&all, "");
    assert_eq!(text.lines().count(), 1, "{text}");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

fn names(value: &serde_json::Value) -> Vec<String> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

/// Plays `pv` after `position` and returns how the game ended.
fn play_out(position: &str, rule: Rule, pv: &[String]) -> Option<Outcome> {
    let mut game = record::parse(position, Board::new(15, 15).unwrap(), rule).unwrap();
    for name in pv {
        let p = notation::parse_point(name, game.board()).unwrap();
        assert!(game.outcome().is_none(), "the line goes on after the end");
        assert!(
            game.rule().is_legal(game.board(), p, game.to_move()),
            "{name} in {pv:?}"
        );
        game.play(p).unwrap();
    }
    game.outcome().cloned()
}

#[test]
fn the_forced_win_is_found_and_its_line_wins() {
    for rule in ["freestyle", "standard", "renju"] {
        let v = json(&[FOUR_THREE, "--rule", rule, "--nodes", "200000"]);
        assert_eq!(v["to_move"], "black");
        assert_eq!(v["best"], "i8", "{rule}: {v}");
        let pv = names(&v["pv"]);
        assert_eq!(pv[0], "i8", "{rule}: {v}");
        // Mate counts plies: i8, j8, the straight four, a block, the five.
        assert_eq!(v["mate"], 5, "{rule}: {v}");
        let end = play_out(FOUR_THREE, rule.parse().unwrap(), &pv);
        assert_eq!(end.and_then(|o| o.winner()), Some(Color::Black), "{pv:?}");
        assert_eq!(names(&v["lines"][0]["pv"]), pv);
    }
}

#[test]
fn the_forced_block_is_found_in_text_and_json() {
    let v = json(&[FOUR_TO_BLOCK, "--nodes", "100000", "--multipv", "3"]);
    assert_eq!(v["best"], "j10", "{v}");
    assert_eq!(names(&v["pv"])[0], "j10");
    for line in v["lines"].as_array().unwrap() {
        // Every other move loses to j10 at once, so none may rank above the block.
        assert_eq!(line["move"], "j10", "{v}");
    }
    let text = analyse(
        &[
            FOUR_TO_BLOCK,
            "--depth",
            "4",
            "--multipv",
            "1",
            "--color",
            "never",
        ],
        "",
    );
    assert!(text.contains("\nbest move j10\n"), "{text}");
    assert!(text.contains("\npv j10"), "{text}");
    assert!(
        text.contains("\n10 . . . . X O O O(O). . . . . . 10\n"),
        "{text}"
    );
    assert!(text.contains("black to move: "), "{text}");
}

#[test]
fn positions_come_from_stdin_files_and_psq_and_a_finished_game_is_not_searched() {
    // The same position as a pos line on stdin and as a PSQ file.
    let from_stdin = json(&["-", "--nodes", "200000"]);
    assert_eq!(from_stdin["moves"].as_array().unwrap().len(), 0);
    let v = {
        let text = analyse(&["--json", "--nodes", "200000"], FOUR_THREE);
        serde_json::from_str::<serde_json::Value>(&text).unwrap()
    };
    assert_eq!(v["best"], "i8");
    let game = record::parse(FOUR_THREE, Board::new(15, 15).unwrap(), Rule::Freestyle).unwrap();
    let psq = std::env::temp_dir().join(format!("hoshi-analyse-{}.psq", std::process::id()));
    let mut text = Vec::new();
    record::write(&mut text, record::Format::Psq, &game, ["a", "b"]).unwrap();
    std::fs::write(&psq, text).unwrap();
    let from_file = json(&[psq.to_str().unwrap(), "--nodes", "200000"]);
    assert_eq!(from_file["moves"], v["moves"]);
    assert_eq!(from_file["best"], "i8");

    // Black's five on row 1: over, so no search.
    let over = json(&["a1a2b1b2c1c2d1d2e1"]);
    assert_eq!(over["winner"], "black");
    assert!(over["best"].is_null() && over["pv"].as_array().unwrap().is_empty());
    let text = analyse(&["a1a2b1b2c1c2d1d2e1", "--color", "never"], "");
    assert!(
        text.contains("The game is over: black wins with a1b1c1d1e1."),
        "{text}"
    );
    assert!(text.contains("\n 1 x x x x(x). . ."), "{text}");
}

#[test]
fn unreadable_positions_fail_with_a_reason_on_stderr() {
    for (args, why) in [
        (vec!["h8h8"], "move 2 (h8): the point is already taken"),
        (vec!["h8z1"], "z1 is off the 15x15 board"),
        (vec!["/no/such.psq"], "cannot read /no/such.psq"),
        (vec!["h8", "--size", "40"], "unsupported board size 40x40"),
        (vec!["h8", "--rule", "go"], "unknown rule 'go'"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_pbrain-hoshi"))
            .arg("analyse")
            .args(&args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(why), "{args:?}: {err}");
    }
}
