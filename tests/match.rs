//! Real (short) matches run by `pbrain-hoshi match` between real processes: the
//! well-behaved and the faulty modes of `pbrain-faulty`, and two Hoshi levels.
//!
//! `tests/data/renju26_offset.txt` is the 26 standard renju openings (offset format: Black
//! at the centre, White's direct or indirect reply, Black's third stone);
//! `openings-9x9.pos.txt` is three short openings written for these tests.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use hoshi::board::{Color, Pos};
use hoshi::rules::Rule;
use hoshi_tools::matches::openings::{self, OpeningFormat};
use hoshi_tools::matches::{adjudicate, psq, referee};

// Beside this file rather than in tests/, where Cargo would build it as a test of its own.
#[path = "match/report.rs"]
mod report;

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
        "--name steady --name random --games 6 --repeat --size 9 --tc 20/0.5 \
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
    if hoshi_tools::matches::engine::MEMORY_MEASURED {
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
    let cases: [(&str, &[&str], &str); 6] = [
        ("", &["--engine", FAULTY], "at least twice"),
        (
            "--tc fast",
            &["--engine", FAULTY, "--engine", FAULTY],
            "MATCH/TURN",
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
        (
            "--tc 500/20000",
            &["--engine", FAULTY, "--engine", FAULTY],
            "500/20000ms",
        ),
        (
            "--rule gomoku",
            &["--engine", FAULTY, "--engine", FAULTY],
            "gomoku",
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

/// The habits of real engines (Rapfi's and PentaZen's start-up MESSAGE, Rapfi's stray ERROR,
/// AIWine's and pela's loose ABOUT lines, ...), all in one scripted engine, and a
/// second one with the rest: no fault, every habit reported, and the games recorded.
#[test]
fn real_engine_quirks_are_forgiven_and_reported() {
    let dir = scratch("quirks");
    let sgf = dir.join("games.sgf");
    let quirky = format!(
        "{FAULTY} --quirk startup-message --quirk about-no-name --quirk ok-chatter \
         --quirk stray-error --quirk refuse-start --quirk suggest --quirk board-adds --quirk cr"
    );
    let loose = format!("{FAULTY} --random --seed 3 --quirk about-loose --ignore-end");
    let (ok, out, err) = run_match(
        "--name quirky --name loose --games 4 --repeat --size 9 --tc 300 --tolerance 300 \
         --openings-format pos --seed 1",
        &[
            "--engine",
            &quirky,
            "--engine",
            &loose,
            "--openings",
            data("openings-9x9.pos.txt").to_str().unwrap(),
            "--sgf",
            sgf.to_str().unwrap(),
        ],
    );
    assert!(ok, "{out}{err}");
    assert!(out.contains("4 of 4 games played"), "{out}");
    assert!(
        out.contains("Faults of quirky: none") && out.contains("Faults of loose: none"),
        "{out}"
    );
    let quirks = |name: &str| {
        out.lines()
            .find_map(|l| l.strip_prefix(&format!("Quirks of {name}: ")))
            .unwrap_or_else(|| panic!("no quirks line for {name}: {out}"))
            .to_owned()
    };
    let (q, l) = (quirks("quirky"), quirks("loose"));
    for want in [
        "MESSAGE/DEBUG before the ABOUT answer x1 (first: \"MESSAGE pbrain-faulty is ready\")",
        "ABOUT without name= x1",
        "MESSAGE/DEBUG before OK x4",
        "START refused, sent again x1 (first: \"ERROR Unknown command: 9\")",
        "unsolicited ERROR, ignored x",
        "unsolicited UNKNOWN, ignored x",
        "SUGGEST, ignored x",
        "lines end in CR x1",
    ] {
        assert!(q.contains(want), "{want:?} missing from {q}");
    }
    assert!(!q.contains("strict"), "{q}");
    assert!(
        l.contains("ABOUT not in the strict") && l.contains("still running after END, killed x1"),
        "{l}"
    );
    // The stray lines are warned about once per kind, not once per line.
    let warnings = err.lines().filter(|l| l.starts_with("warning:")).count();
    assert_eq!(warnings, 4, "{err}");
    // SGF records as c-gomoku-cli writes them: one per game, every move timed.
    let text = std::fs::read_to_string(&sgf).unwrap();
    let games = sgf_games(&text);
    assert_eq!(games.len(), 4);
    for (k, g) in games.iter().enumerate() {
        assert!(
            g.root.starts_with(&format!("(;FF[4]GM[4]GN[{}]", k + 1)),
            "{}",
            g.root
        );
        assert!(g.root.contains("RU[0]SZ[9]"), "{}", g.root);
        assert!(g.moves[0].1 == "opening move", "{:?}", g.moves);
        assert!(
            g.moves.iter().skip(3).all(|(_, c)| c.ends_with("ms")),
            "{:?}",
            g.moves
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// One SGF game: the root node's text and each move with its comment.
struct SgfGame {
    root: String,
    moves: Vec<(Pos, String)>,
}

impl SgfGame {
    fn prop(&self, name: &str) -> Option<&str> {
        let start = self.root.find(&format!("{name}["))? + name.len() + 1;
        let end = self.root[start..].find(']')? + start;
        Some(&self.root[start..end])
    }
}

/// Reads the games of an SGF file written by the runner (no escapes in the values read).
fn sgf_games(text: &str) -> Vec<SgfGame> {
    let letter = |c: u8| c - b'a';
    text.split("\n\n")
        .filter(|g| !g.trim().is_empty())
        .map(|g| {
            let (root, rest) = g.split_once('\n').unwrap();
            let moves = rest
                .split(';')
                .filter(|m| !m.trim().is_empty())
                .map(|m| {
                    let m = m.trim().trim_end_matches(')');
                    let b = m.as_bytes();
                    assert!(b[0] == b'B' || b[0] == b'W', "{m}");
                    let pos = Pos::new(letter(b[2]), letter(b[3]));
                    let comment = m[5..].strip_prefix("C[").unwrap().trim_end();
                    (pos, comment.trim_end_matches(']').to_owned())
                })
                .collect();
            SgfGame {
                root: root.to_owned(),
                moves,
            }
        })
        .collect()
}

#[test]
fn adjudication_ends_games_by_a_proof_that_replays() {
    let dir = scratch("adjudicate");
    let (sgf, pgn, psq_dir) = (dir.join("g.sgf"), dir.join("g.pgn"), dir.join("psq"));
    let (ok, out, err) = run_match(
        "--name steady --name random --games 6 --repeat --size 9 --tc 300 \
         --openings-format pos --adjudicate --seed 2",
        &[
            "--engine",
            FAULTY,
            "--engine",
            &format!("{FAULTY} --random --seed 11"),
            "--openings",
            data("openings-9x9.pos.txt").to_str().unwrap(),
            "--sgf",
            sgf.to_str().unwrap(),
            "--pgn",
            pgn.to_str().unwrap(),
            "--psq",
            psq_dir.to_str().unwrap(),
        ],
    );
    assert!(ok, "{out}{err}");
    let adjudicated: usize = out
        .split("adjudicated ")
        .nth(1)
        .and_then(|t| t.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!(
        adjudicated > 0 && out.contains("; adjudication by proof"),
        "{out}"
    );
    let sgf_games = sgf_games(&std::fs::read_to_string(&sgf).unwrap());
    let pgn_games = parse_pgn(&std::fs::read_to_string(&pgn).unwrap());
    let mut seen = 0;
    for (k, (s, p)) in sgf_games.iter().zip(&pgn_games).enumerate() {
        let record = psq::parse(
            &std::fs::read_to_string(psq_dir.join(format!("game-{:04}.psq", k + 1))).unwrap(),
        )
        .unwrap();
        let moves: Vec<Pos> = s.moves.iter().map(|(p, _)| *p).collect();
        assert_eq!(record.moves, moves, "game {}", k + 1);
        let Some(proof) = s.prop("GC") else {
            continue;
        };
        seen += 1;
        // Every record says so.
        assert!(s.prop("TE").unwrap().ends_with("win by adjudication"));
        assert_eq!(p.tag("Termination"), "adjudication");
        assert_eq!(record.trailer.last().map(String::as_str), Some("2"));
        // The game stopped short of a five, with the winner to move, and the proof holds.
        let (_, ending) = referee::replay(9, Rule::Freestyle, &moves).unwrap();
        assert_eq!(ending, None);
        let mut board = hoshi::board::Board::new(9, 9).unwrap();
        for &m in &moves {
            board.place(m, board.to_move()).unwrap();
        }
        let winner = board.to_move();
        let want = if winner == Color::Black { "B+1" } else { "W+1" };
        assert_eq!(s.prop("RE"), Some(want));
        let line: Vec<Pos> = proof
            .strip_prefix("adjudicated: ")
            .unwrap()
            .split(' ')
            .map(|c| Pos::new(c.as_bytes()[0] - b'a', c.as_bytes()[1] - b'a'))
            .collect();
        assert_eq!(
            adjudicate::confirm(&board, Rule::Freestyle, winner, &line),
            Some(line)
        );
    }
    assert_eq!(seen, adjudicated);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Three engines that play the same moves in the same position whatever they played
/// before, so a game's result does not depend on which run or process plays it.
fn deterministic_trio() -> Vec<String> {
    vec![
        "--engine".to_owned(),
        FAULTY.to_owned(),
        "--engine".to_owned(),
        format!("{HOSHI} --level normal"),
        "--engine".to_owned(),
        format!("{HOSHI} --level hard"),
    ]
}

const TRIO: &str = "--name steady --name normal --name hard --games 2 --rounds 2 --repeat \
                    --size 9 --rule freestyle --tc 0/0.5 --openings-format pos --seed 1";

fn trio_args<'a>(extra: &'a [String], openings_file: &'a str) -> Vec<&'a str> {
    let mut args: Vec<&str> = extra.iter().map(String::as_str).collect();
    args.extend(["--openings", openings_file]);
    args
}

/// The standings block of a run's summary: from the crosstable to the line before
/// "Endings".
fn standings_of(out: &str) -> String {
    let start = out.find("Crosstable").expect("a crosstable");
    let end = out.find("Endings").expect("an endings line");
    out[start..end].to_owned()
}

#[test]
fn a_round_robin_of_three_rates_every_engine() {
    let openings_file = data("openings-9x9.pos.txt");
    let engines = deterministic_trio();
    let (ok, out, err) = run_match(
        &format!("{TRIO} --concurrency 2 --anchor normal"),
        &trio_args(&engines, openings_file.to_str().unwrap()),
    );
    assert!(ok, "{out}{err}");
    assert!(
        out.starts_with("Tournament: round robin of 3 engines; 12 of 12 games played\n"),
        "{out}"
    );
    assert!(out.contains("normal = 0; 95% intervals"), "{out}");
    let rating = |name: &str| {
        out.lines()
            .skip_while(|l| !l.starts_with("  rank"))
            .find(|l| l.split_whitespace().nth(1) == Some(name))
            .unwrap_or_else(|| panic!("{name}: {out}"))
            .split_whitespace()
            .nth(2)
            .unwrap()
            .to_owned()
    };
    // The pattern-score level beats the tiny engine every time; the rest are finite.
    assert_eq!(rating("steady"), "-inf", "{out}");
    assert!(
        rating("normal") == "+0.0" && rating("hard").parse::<f64>().is_ok(),
        "{out}"
    );
    // Each engine plays 8 games; the crosstable's rows add up.
    let rows: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("Crosstable"))
        .skip(2)
        .take(3)
        .collect();
    for row in rows {
        assert!(
            row.contains("/4") && row.split_whitespace().nth(6) == Some("8"),
            "{row}"
        );
    }
    for name in ["steady", "normal", "hard"] {
        assert!(out.contains(&format!("Faults of {name}: none")), "{out}");
    }

    // A gauntlet anchored on the mean: the first engine meets each other one.
    let (ok, out, err) = run_match(
        &format!("{TRIO} --tournament gauntlet --anchor mean"),
        &trio_args(&engines, openings_file.to_str().unwrap()),
    );
    assert!(ok, "{out}{err}");
    assert!(
        out.contains("gauntlet of 3 engines; 8 of 8 games played"),
        "{out}"
    );
    assert!(
        out.contains("the mean of the rated engines = 0") || out.contains("inf"),
        "{out}"
    );
}

#[test]
fn three_shards_merge_to_what_one_run_prints() {
    let dir = scratch("shards");
    let openings_file = data("openings-9x9.pos.txt");
    let engines = deterministic_trio();
    let whole = dir.join("whole.pgn");
    let (ok, out, err) = run_match(
        &format!("{TRIO} --concurrency 2 --pgn {}", whole.display()),
        &trio_args(&engines, openings_file.to_str().unwrap()),
    );
    assert!(ok, "{out}{err}");
    let one_run = standings_of(&out);
    let mut shard_files = Vec::new();
    let mut played = 0;
    for k in 1..=3 {
        let file = dir.join(format!("shard{k}.pgn"));
        let (ok, out, err) = run_match(
            &format!("{TRIO} --shard {k}/3 --pgn {}", file.display()),
            &trio_args(&engines, openings_file.to_str().unwrap()),
        );
        assert!(ok, "{out}{err}");
        assert!(out.contains(&format!("(shard {k}/3 of 12 games)")), "{out}");
        played += parse_pgn(&std::fs::read_to_string(&file).unwrap()).len();
        shard_files.push(file.to_str().unwrap().to_owned());
    }
    assert_eq!(played, 12);
    let mut merge_args: Vec<&str> = vec!["--merge"];
    merge_args.extend(shard_files.iter().map(String::as_str));
    let (ok, merged, err) = run_match("", &merge_args);
    assert!(ok, "{merged}{err}");
    assert_eq!(merged, one_run);
    let (ok, merged_whole, err) = run_match("--merge", &[whole.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert_eq!(merged_whole, one_run);

    // A game given twice is refused, naming both files.
    let (ok, _, err) = run_match("--merge", &[&shard_files[0], whole.to_str().unwrap()]);
    assert!(!ok && err.contains("is in both"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_two_engine_match_merges_with_its_sprt_verdict() {
    let dir = scratch("merge-two");
    let pgn = dir.join("games.pgn");
    let (ok, out, err) = run_match(
        &format!(
            "--name steady --name normal --games 4 --repeat --size 9 --tc 0/0.5 --seed 3 \
             --openings-format pos --sprt 0 100 0.05 0.05 --pgn {}",
            pgn.display()
        ),
        &[
            "--engine",
            FAULTY,
            "--engine",
            &format!("{HOSHI} --level normal"),
            "--openings",
            data("openings-9x9.pos.txt").to_str().unwrap(),
        ],
    );
    assert!(ok, "{out}{err}");
    let (ok, merged, err) = run_match("--sprt 0 100 0.05 0.05 --merge", &[pgn.to_str().unwrap()]);
    assert!(ok, "{merged}{err}");
    // The match's own SPRT line and pentanomial count, from the records alone.
    let sprt = out.lines().find(|l| l.starts_with("SPRT")).unwrap();
    let penta = out.lines().find(|l| l.starts_with("Pentanomial")).unwrap();
    assert!(
        merged.contains(sprt) && merged.contains(penta),
        "{out}\n{merged}"
    );

    // Pooled as two runs, the same games count twice under new numbers: every pentanomial
    // count doubles. Merged as shards, the second copy is refused. (Whole files only: the
    // even offset that keeps a run's unfinished last pair apart is not exercised here.)
    let file = pgn.to_str().unwrap();
    let (ok, pooled, err) = run_match("--sprt 0 100 0.05 0.05 --pool --merge", &[file, file]);
    assert!(ok, "{pooled}{err}");
    let counts = |text: &str| -> Vec<u32> {
        let line = text.lines().find(|l| l.starts_with("Pentanomial")).unwrap();
        let list = line.split(": [").nth(1).unwrap().split(']').next().unwrap();
        list.split(", ").map(|n| n.parse().unwrap()).collect()
    };
    let doubled: Vec<u32> = counts(&out).iter().map(|n| 2 * n).collect();
    assert_eq!(counts(&pooled), doubled, "{pooled}");
    let (ok, _, err) = run_match("--merge", &[file, file]);
    assert!(!ok && err.contains("is in both"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_interrupted_tournament_resumes_without_replaying_or_losing_a_game() {
    let dir = scratch("resume");
    let pgn = dir.join("games.pgn");
    let openings_file = data("openings-9x9.pos.txt");
    // Each game waits 150 ms on the slow engine's first move, so the run can be caught
    // in the middle.
    let engines = vec![
        "--engine".to_owned(),
        FAULTY.to_owned(),
        "--engine".to_owned(),
        format!("{FAULTY} --fault late --at 1 --late-ms 150"),
        "--engine".to_owned(),
        format!("{HOSHI} --level normal"),
    ];
    let plain = format!(
        "--name a --name b --name c --games 2 --rounds 2 --repeat --size 9 --tc 0/1 \
         --openings-format pos --pgn {}",
        pgn.display()
    );
    let args: Vec<String> = plain
        .split_whitespace()
        .map(str::to_owned)
        .chain(
            trio_args(&engines, openings_file.to_str().unwrap())
                .iter()
                .map(|s| (*s).to_owned()),
        )
        .collect();
    let mut child = Command::new(HOSHI)
        .arg("match")
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        let done = std::fs::read_to_string(&pgn).map_or(0, |t| parse_pgn(&t).len());
        if done >= 3 {
            break;
        }
        assert!(start.elapsed() < WATCHDOG, "no games recorded");
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before it was cut"
        );
        thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    // As if the kill had come in the middle of writing a game.
    let mut text = std::fs::read_to_string(&pgn).unwrap();
    let before = parse_pgn(&text).len();
    assert!(before < 12, "{before}");
    text.push_str("[Event \"Hoshi match\"]\n[Site \"?\"]\n[Da");
    std::fs::write(&pgn, &text).unwrap();

    let (ok, out, err) = run_match(
        &format!("{plain} --resume"),
        &trio_args(&engines, openings_file.to_str().unwrap()),
    );
    assert!(ok, "{out}{err}");
    assert!(err.contains("dropping a game cut short"), "{err}");
    let played_now = err.lines().filter(|l| l.starts_with('[')).count();
    assert_eq!(before + played_now, 12, "{err}");
    assert!(
        out.contains(&format!("12 of 12 games played, {before} of them resumed")),
        "{out}"
    );
    let mut numbers: Vec<usize> = parse_pgn(&std::fs::read_to_string(&pgn).unwrap())
        .iter()
        .map(|g| g.tag("Round").parse().unwrap())
        .collect();
    numbers.sort_unstable();
    assert_eq!(numbers, (1..=12).collect::<Vec<_>>());

    // Resuming a finished run plays nothing; another schedule is refused.
    let (ok, out, err) = run_match(
        &format!("{plain} --resume"),
        &trio_args(&engines, openings_file.to_str().unwrap()),
    );
    assert!(
        ok && out.contains("12 of 12 games played, 12 of them resumed"),
        "{out}{err}"
    );
    let (ok, _, err) = run_match(
        &format!("{plain} --resume --tournament gauntlet"),
        &trio_args(&engines, openings_file.to_str().unwrap()),
    );
    assert!(!ok && err.contains("resume with the command line"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_file_names_the_engines_and_a_bad_line_is_reported() {
    let dir = scratch("engines-file");
    let file = dir.join("engines.ini");
    std::fs::write(
        &file,
        format!(
            "# two engines\n[first]\ncommand = {FAULTY}\n\n[second]\n\
             command = {FAULTY} --fault late --at 1 --late-ms 1\nstrength = 50\n"
        ),
    )
    .unwrap();
    let (ok, out, err) = run_match(
        "--games 2 --size 9 --tc 0/1",
        &["--engines", file.to_str().unwrap()],
    );
    assert!(ok, "{out}{err}");
    assert!(
        out.starts_with("Tournament: round robin of 2 engines; 2 of 2 games played\n"),
        "{out}"
    );
    assert!(
        out.contains("\n  1 first: ") && out.contains("\n  2 second: "),
        "{out}"
    );
    std::fs::write(&file, "[x]\ncommand = a\nfoo\n").unwrap();
    let (ok, _, err) = run_match("", &["--engines", file.to_str().unwrap()]);
    assert!(
        !ok && err.contains("engines.ini:3: \"foo\" is neither"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
