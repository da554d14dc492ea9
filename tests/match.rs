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
