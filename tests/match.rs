//! Real (short) matches run by `pbrain-hoshi match` between real processes: the
//! well-behaved and the faulty modes of `pbrain-faulty`, and two Hoshi levels.
//!
//! `tests/data/renju26_offset.txt` is the 26 standard renju openings (offset format),
//! transcribed from shared/data/openings/renju26_offset.txt; `openings-9x9.pos.txt` is three
//! short openings written for these tests.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use hoshi::board::{Color, Pos};
use hoshi::rules::Rule;
use hoshi::tools::matches::openings::{self, OpeningFormat};
use hoshi::tools::matches::{psq, referee};

const HOSHI: &str = env!("CARGO_BIN_EXE_pbrain-hoshi");
const FAULTY: &str = env!("CARGO_BIN_EXE_pbrain-faulty");
/// A run that is still going after this is hung: the watchdog kills it and the test fails.
const WATCHDOG: Duration = Duration::from_secs(30);

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hoshi-match-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `pbrain-hoshi match` with the whitespace-separated `plain` options and the `more`
/// arguments (values that hold spaces), killing it if it outlives the watchdog.
fn run_match(plain: &str, more: &[&str]) -> (bool, String, String) {
    let args: Vec<&str> = plain
        .split_whitespace()
        .chain(more.iter().copied())
        .collect();
    let mut child = Command::new(HOSHI)
        .arg("match")
        .args(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > WATCHDOG {
            child.kill().unwrap();
            panic!("the match did not finish within {WATCHDOG:?}: {args:?}");
        }
        thread::sleep(Duration::from_millis(20));
    }
    let Output {
        status,
        stdout,
        stderr,
    } = child.wait_with_output().unwrap();
    let (out, err) = (
        String::from_utf8(stdout).unwrap(),
        String::from_utf8(stderr).unwrap(),
    );
    (status.success(), out, err)
}

/// One PGN game: its tags in order and the result token ending the movetext.
struct PgnGame {
    tags: Vec<(String, String)>,
    result: String,
}

impl PgnGame {
    fn tag(&self, name: &str) -> &str {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
            .unwrap()
    }
}

/// Parses the PGN strictly enough for BayesElo's reader: every game is a block of
/// `[Name "value"]` lines, a blank line, and a movetext ending with the result token.
fn parse_pgn(text: &str) -> Vec<PgnGame> {
    let mut games = Vec::new();
    let mut blocks = text.split("\n\n").filter(|b| !b.trim().is_empty());
    while let Some(header) = blocks.next() {
        let tags: Vec<(String, String)> = header
            .lines()
            .map(|l| {
                let inner = l
                    .strip_prefix('[')
                    .and_then(|l| l.strip_suffix("\"]"))
                    .unwrap();
                let (name, value) = inner.split_once(" \"").unwrap();
                assert!(
                    name.chars().all(|c| c.is_ascii_alphanumeric()),
                    "tag {name:?}"
                );
                (name.to_owned(), value.to_owned())
            })
            .collect();
        let movetext = blocks.next().expect("a movetext after the tags");
        games.push(PgnGame {
            tags,
            result: movetext.trim().to_owned(),
        });
    }
    games
}

#[test]
fn a_clean_match_writes_pgn_and_psq_records_that_agree() {
    let dir = scratch("clean");
    let pgn = dir.join("games.pgn");
    let psq_dir = dir.join("psq");
    let openings_file = data("openings-9x9.pos.txt");
    let (ok, out, err) = run_match(
        "--name steady --name random --games 6 --repeat --size 9 --tc 500/20000 \
         --tolerance 500 --openings-format pos --seed 1",
        &[
            "--engine",
            FAULTY,
            "--engine",
            &format!("{FAULTY} --random --seed 7"),
            "--openings",
            openings_file.to_str().unwrap(),
            "--pgn",
            pgn.to_str().unwrap(),
            "--psq",
            psq_dir.to_str().unwrap(),
        ],
    );
    assert!(ok, "{out}{err}");
    assert!(out.contains("6 of 6 games played"), "{out}");
    assert!(
        out.contains("Faults of steady: none") && out.contains("Faults of random: none"),
        "{out}"
    );
    assert!(out.contains("(3 pairs)"), "{out}");
    let progress = err.lines().filter(|l| l.starts_with('[')).count();
    assert_eq!(progress, 6, "one progress line per game: {err}");

    let games = parse_pgn(&std::fs::read_to_string(&pgn).unwrap());
    assert_eq!(games.len(), 6);
    let roster = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];
    let openings = openings::load(&openings_file, OpeningFormat::Pos, 9).unwrap();
    for g in &games {
        let names: Vec<&str> = g.tags.iter().map(|(k, _)| k.as_str()).take(7).collect();
        assert_eq!(names, roster);
        let date = g.tag("Date");
        assert!(
            date.len() == 10 && date.chars().filter(|&c| c == '.').count() == 2,
            "{date}"
        );
        assert!(
            ["1-0", "0-1", "1/2-1/2"].contains(&g.result.as_str()),
            "{}",
            g.result
        );
        assert_eq!(g.tag("Result"), g.result);
        let round: usize = g.tag("Round").parse().unwrap();
        // Rounds 2k+1 and 2k+2 share opening k; "steady" moves first in odd rounds.
        assert_eq!(
            g.tag("White"),
            if round % 2 == 1 { "steady" } else { "random" }
        );

        let text = std::fs::read_to_string(psq_dir.join(format!("game-{round:04}.psq"))).unwrap();
        let record = psq::parse(&text).unwrap();
        assert_eq!((record.width, record.height), (9, 9));
        assert_eq!(record.trailer, [g.tag("White"), g.tag("Black"), "0"]);
        let opening: &[Pos] = &openings[(round - 1) / 2];
        assert_eq!(&record.moves[..opening.len()], opening);
        // The PSQ replays, under the referee, to the result the PGN recorded.
        let (winner, ending) = referee::replay(9, Rule::Freestyle, &record.moves).unwrap();
        assert!(ending.is_some(), "game {round} replays as unfinished");
        let token = match winner {
            Some(Color::Black) => "1-0",
            Some(Color::White) => "0-1",
            None => "1/2-1/2",
        };
        assert_eq!(token, g.result, "game {round}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_fault_is_caught_scored_and_reported() {
    let mut cases = vec![
        ("crash", "crash"),
        ("hang", "timeout"),
        ("occupied", "illegal move"),
        ("garbage", "malformed line"),
        ("late", "timeout"),
    ];
    if cfg!(target_os = "linux") {
        cases.push(("memory", "memory"));
    }
    let runs: Vec<_> = cases
        .into_iter()
        .map(|(fault, kind)| {
            thread::spawn(move || {
                let dir = scratch(fault);
                let pgn = dir.join("games.pgn");
                let bad = format!("{FAULTY} --fault {fault} --at 2 --late-ms 2000 --memory-mb 64");
                let (ok, out, err) = run_match(
                    "--name good --name bad --games 2 --size 9 --tc 100 --tolerance 300 \
                     --max-memory 40000000",
                    &[
                        "--engine",
                        FAULTY,
                        "--engine",
                        &bad,
                        "--psq",
                        dir.to_str().unwrap(),
                        "--pgn",
                        pgn.to_str().unwrap(),
                    ],
                );
                assert!(ok, "{fault}: {out}{err}");
                assert!(
                    out.contains("Score of good vs bad: +2 =0 -0"),
                    "{fault}: {out}"
                );
                assert!(out.contains("Faults of good: none"), "{fault}: {out}");
                assert!(
                    out.contains(&format!("Faults of bad: {kind} 2\n")),
                    "{fault}: {out}"
                );
                assert!(out.contains("fault 2"), "{fault}: {out}");
                // A faulted game's record says so, and replays as unfinished.
                for round in 1..=2 {
                    let psq_file = dir.join(format!("game-{round:04}.psq"));
                    let record = psq::parse(&std::fs::read_to_string(psq_file).unwrap()).unwrap();
                    assert_eq!(
                        record.trailer.last().map(String::as_str),
                        Some("1"),
                        "{fault}"
                    );
                    let (winner, _) = referee::replay(9, Rule::Freestyle, &record.moves).unwrap();
                    assert_eq!(winner, None, "{fault}");
                }
                let games = parse_pgn(&std::fs::read_to_string(&pgn).unwrap());
                // "good" moves first (1-0 is its win) in round 1 and second in round 2.
                let results: Vec<&str> = games.iter().map(|g| g.result.as_str()).collect();
                assert_eq!(results, ["1-0", "0-1"], "{fault}");
                if kind == "timeout" {
                    assert!(games.iter().all(|g| g.tag("Termination") == "time forfeit"));
                }
                let _ = std::fs::remove_dir_all(&dir);
            })
        })
        .collect();
    for run in runs {
        if let Err(panic) = run.join() {
            std::panic::resume_unwind(panic);
        }
    }
}

#[test]
fn a_silent_engine_is_killed_in_the_last_game_and_a_deaf_one_after_end() {
    // The fault strikes in the last (only) game; the other engine ignores END.
    let (ok, out, err) = run_match(
        "--name deaf --name silent --games 1 --size 9 --tc 100 --tolerance 100",
        &[
            "--engine",
            &format!("{FAULTY} --ignore-end"),
            "--engine",
            &format!("{FAULTY} --fault hang"),
        ],
    );
    assert!(ok, "{out}{err}");
    assert!(out.contains("Faults of silent: timeout 1"), "{out}");
}

#[test]
fn sprt_stops_a_one_sided_match_early() {
    let (ok, out, err) = run_match(
        "--name steady --name random --games 60 --repeat --size 9 --tc 500 \
         --sprt 0 100 0.05 0.05 --seed 2",
        &[
            "--engine",
            FAULTY,
            "--engine",
            &format!("{FAULTY} --random --seed 3"),
            "--openings",
            data("renju26_offset.txt").to_str().unwrap(),
        ],
    );
    assert!(ok, "{out}{err}");
    assert!(out.contains("H1 accepted"), "{out}");
    assert!(!out.contains("60 of 60 games played"), "{out}");
}

#[test]
fn concurrent_games_are_all_played_and_recorded_once() {
    let dir = scratch("concurrent");
    let pgn = dir.join("games.pgn");
    let (ok, out, err) = run_match(
        "--games 3 --rounds 2 --concurrency 2 --size 15 --rule 1 --tc 500 \
         --openings-order random --seed 9 --option 2=strength=50",
        &[
            "--engine",
            FAULTY,
            "--engine",
            &format!("{FAULTY} --random --seed 5"),
            "--openings",
            data("renju26_offset.txt").to_str().unwrap(),
            "--pgn",
            pgn.to_str().unwrap(),
        ],
    );
    assert!(ok, "{out}{err}");
    assert!(
        out.contains("6 of 6 games played") && out.contains("standard 15x15"),
        "{out}"
    );
    let mut rounds: Vec<usize> = parse_pgn(&std::fs::read_to_string(&pgn).unwrap())
        .iter()
        .map(|g| g.tag("Round").parse().unwrap())
        .collect();
    rounds.sort_unstable();
    assert_eq!(rounds, [1, 2, 3, 4, 5, 6]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_command_lines_are_refused_with_a_reason() {
    let cases: [(&str, &[&str], &str); 4] = [
        ("", &["--engine", FAULTY], "exactly twice"),
        (
            "--tc fast",
            &["--engine", FAULTY, "--engine", FAULTY],
            "TURN_MS",
        ),
        (
            "--option x=y",
            &["--engine", FAULTY, "--engine", FAULTY],
            "NAME=KEY=VALUE",
        ),
        (
            "",
            &["--engine", FAULTY, "--engine", "'unclosed"],
            "unclosed",
        ),
    ];
    for (plain, more, reason) in cases {
        let (ok, out, err) = run_match(plain, more);
        assert!(!ok && err.contains(reason), "{plain} {more:?}: {out}{err}");
    }
}

#[test]
fn two_hoshi_levels_play_a_match() {
    let (ok, out, err) = run_match(
        "--name easy --name normal --games 2 --size 15 --tc 300 --seed 4",
        &[
            "--engine",
            &format!("{HOSHI} --level easy"),
            "--engine",
            &format!("{HOSHI} --level normal"),
        ],
    );
    assert!(ok, "{out}{err}");
    assert!(out.contains("2 of 2 games played"), "{out}");
    assert!(
        out.contains("Faults of easy: none") && out.contains("Faults of normal: none"),
        "{out}"
    );
}
