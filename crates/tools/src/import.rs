//! `pbrain-hoshi import`: games another engine played, as a game file `train` and
//! `features` read like `datagen`'s (issue 34: a stronger player's games and scores are
//! data; nothing of its code comes in).
//!
//! The input is what Rapfi's `selfplay --output-type txt` writes: one line per searched
//! position, `size,rule,stones,result,move(value)`, where `stones` is the position's moves
//! in order (`H8I9`: a column letter from `A`, a row number from 1), `result` the game's end
//! for the side to move (0 lost, 1 drawn, 2 won), `move` the move its search chose and
//! `value` that search's score for the side to move, in Rapfi's units (a mate is `30000 -
//! plies`, negated when lost). A game is a run of lines each extending the one before by
//! its move; its opening is the first line's stones.
//!
//! Rapfi's units are not ours, so the scores are rescaled, the mates kept as mates: the
//! import fits Rapfi's logistic scale `K_r` to the inputs (the K whose `sigmoid(value /
//! K_r)` best predicts the results, as `train` fits its own) unless `--rapfi-k` gives it,
//! and writes `value * k / K_r` (`--k`, the scale `train --k` reads scores with). So
//! `sigmoid(score / k)` in `train`'s target is Rapfi's calibrated win probability.
//!
//! Every game is replayed against its rule (`dataset::replay`) before it is written; an
//! impossible one is reported and left out. The output is written under a temporary name
//! and renamed when complete.

use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use clap::Args;

use hoshi::board::{Board, Color, Pos};
use hoshi::notation;
use hoshi::rules::{Rule, UnknownRule};

use super::dataset;
use super::matches::openings::{self, OpeningFormat};
use super::selfplay::{self, Header, Score, SelfPlayGame};
use super::train::fit_k;

/// Rapfi's mate score: a win in `n` plies is `MATE - n`.
const MATE: i32 = 30_000;
/// Scores at least this large are mates (Rapfi searches far fewer than 1000 plies).
const MATE_MIN: i32 = MATE - 1_000;
/// The weights id written in the header: no Hoshi evaluation played these games.
const FOREIGN: u32 = 0;

/// Options of `pbrain-hoshi import`.
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// Files of Rapfi's `selfplay --output-type txt`, all of one rule and board size.
    #[arg(value_name = "TXT", required = true)]
    pub inputs: Vec<PathBuf>,
    /// The game file to write.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// The nodes a move the games were searched with, recorded in the header.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub nodes: u64,
    /// The scale the scores are written in: `train --k` (evaluation units a logit).
    #[arg(long, value_name = "K", default_value_t = 517.3)]
    pub k: f64,
    /// Rapfi's units a logit; fitted to the inputs' values and results when absent.
    #[arg(long, value_name = "K")]
    pub rapfi_k: Option<f64>,
}

/// Why `import` failed.
#[derive(Debug)]
pub enum ImportError {
    Read(PathBuf, io::Error),
    /// A line that is not Rapfi's format: file, line number, what is wrong.
    Line(PathBuf, usize, String),
    /// The inputs mix rules or board sizes: a game file has one of each.
    Mixed(String),
    /// A scale that is not a positive number.
    Scale(f64),
    /// No complete game in the inputs.
    NoGames,
    Write(PathBuf, io::Error),
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportError::Read(p, e) => write!(f, "cannot read {}: {e}", p.display()),
            ImportError::Line(p, n, why) => write!(f, "{}:{n}: {why}", p.display()),
            ImportError::Mixed(what) => {
                write!(f, "the inputs mix {what}; import each to its own file")
            }
            ImportError::Scale(k) => write!(f, "a scale must be a positive number, not {k}"),
            ImportError::NoGames => f.write_str("the inputs hold no game"),
            ImportError::Write(p, e) => write!(f, "cannot write {}: {e}", p.display()),
        }
    }
}

impl std::error::Error for ImportError {}

/// One line: a searched position.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Line {
    size: u8,
    rule: Rule,
    stones: Vec<Pos>,
    /// For the side to move: 0 lost, 1 drawn, 2 won.
    result: u8,
    mv: Pos,
    value: i32,
}

/// A game as read, its scores still in Rapfi's units (the mates already as mates).
#[derive(Clone, Debug, PartialEq, Eq)]
struct RawGame {
    size: u8,
    rule: Rule,
    game: SelfPlayGame,
}

/// One line. The stones and the move are the "pos" notation of the match openings (`H8I9`:
/// a column letter, a row number from 1), read by the same code; the rule is its name.
fn parse_line(text: &str) -> Result<Line, String> {
    let fields: Vec<&str> = text.trim_end().split(',').collect();
    let [size, rule, stones, result, mv] = fields[..] else {
        return Err(format!(
            "expected 5 comma-separated fields, found {}",
            fields.len()
        ));
    };
    let side: i64 = size
        .parse()
        .map_err(|_| format!("board size {size:?} is not a number"))?;
    let board = Board::new(side, side).map_err(|e| e.to_string())?;
    let result: u8 = result
        .parse()
        .ok()
        .filter(|r| *r <= 2)
        .ok_or_else(|| format!("result {result:?} is not 0, 1 or 2"))?;
    let (mv, value) = mv
        .strip_suffix(')')
        .and_then(|m| m.split_once('('))
        .ok_or_else(|| format!("expected MOVE(VALUE), found {mv:?}"))?;
    let value: i32 = value
        .parse()
        .ok()
        .filter(|v: &i32| v.abs() <= MATE)
        .ok_or_else(|| format!("value {value:?} is not a score within +-{MATE}"))?;
    Ok(Line {
        size: board.width(),
        rule: rule.parse().map_err(|e: UnknownRule| e.to_string())?,
        stones: openings::parse_line(stones, OpeningFormat::Pos, board.width())?,
        result,
        mv: notation::parse_point(mv, &board).map_err(|e| e.to_string())?,
        value,
    })
}

/// The side to move after `stones` stones: black moves first.
fn to_move(stones: usize) -> Color {
    if stones.is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    }
}

/// The winner of a game whose position with `stones` has `result` for its side to move.
fn winner(stones: usize, result: u8) -> Option<Color> {
    let to_move = to_move(stones);
    match result {
        2 => Some(to_move),
        0 => Some(to_move.opponent()),
        _ => None,
    }
}

/// Reads the games of one file, in order.
fn read_games(path: &Path) -> Result<Vec<RawGame>, ImportError> {
    let file = File::open(path).map_err(|e| ImportError::Read(path.to_path_buf(), e))?;
    let mut games: Vec<RawGame> = Vec::new();
    // The stones after the last line's move, to tell a continuation from a new game.
    let mut next: Vec<Pos> = Vec::new();
    for (n, text) in BufReader::new(file).lines().enumerate() {
        let text = text.map_err(|e| ImportError::Read(path.to_path_buf(), e))?;
        if text.trim().is_empty() {
            continue;
        }
        let line =
            parse_line(&text).map_err(|why| ImportError::Line(path.to_path_buf(), n + 1, why))?;
        let winner = winner(line.stones.len(), line.result);
        match games.last_mut() {
            Some(g) if line.stones == next && g.size == line.size && g.rule == line.rule => {
                if winner != g.game.winner {
                    return Err(ImportError::Line(
                        path.to_path_buf(),
                        n + 1,
                        "the result disagrees with the game's earlier lines".into(),
                    ));
                }
                g.game.moves.push((line.mv, score(line.value)));
            }
            _ => games.push(RawGame {
                size: line.size,
                rule: line.rule,
                game: SelfPlayGame {
                    opening: line.stones.clone(),
                    moves: vec![(line.mv, score(line.value))],
                    winner,
                },
            }),
        }
        next = line.stones;
        next.push(line.mv);
    }
    Ok(games)
}

/// A Rapfi value as a score, still in Rapfi's units unless a mate.
fn score(value: i32) -> Score {
    let plies = |v: i32| (MATE - v.abs()) as u16;
    if value >= MATE_MIN {
        Score::Win(plies(value))
    } else if value <= -MATE_MIN {
        Score::Loss(plies(value))
    } else {
        Score::Eval(value)
    }
}

/// A score in `scale` times its units.
fn rescaled(score: Score, scale: f64) -> Score {
    match score {
        Score::Eval(v) => Score::Eval((f64::from(v) * scale).round() as i32),
        mate => mate,
    }
}

/// Rapfi's units a logit: the K that best predicts each non-mate value's game result.
fn fit_rapfi_k(games: &[RawGame]) -> f64 {
    let (mut values, mut results) = (Vec::new(), Vec::new());
    for g in games {
        for (n, &(_, s)) in g.game.moves.iter().enumerate() {
            if let Score::Eval(v) = s {
                values.push(f64::from(v));
                results.push(dataset::result_for(
                    &g.game,
                    to_move(g.game.opening.len() + n),
                ));
            }
        }
    }
    fit_k(&values, &results)
}

/// Runs `import`.
pub fn run(args: &ImportArgs) -> Result<(), ImportError> {
    for k in [Some(args.k), args.rapfi_k].into_iter().flatten() {
        if !(k.is_finite() && k > 0.0) {
            return Err(ImportError::Scale(k));
        }
    }
    let mut games = Vec::new();
    for path in &args.inputs {
        games.extend(read_games(path)?);
    }
    let first = games.first().ok_or(ImportError::NoGames)?;
    let (rule, size) = (first.rule, first.size);
    if let Some(g) = games.iter().find(|g| g.rule != rule) {
        return Err(ImportError::Mixed(format!(
            "rules ({rule}, then {})",
            g.rule
        )));
    }
    if let Some(g) = games.iter().find(|g| g.size != size) {
        return Err(ImportError::Mixed(format!(
            "board sizes ({size}, then {})",
            g.size
        )));
    }
    let rapfi_k = args.rapfi_k.unwrap_or_else(|| fit_rapfi_k(&games));
    let scale = args.k / rapfi_k;
    println!("Rapfi's K {rapfi_k:.1}: scores written as value * {scale:.3}");

    let header = Header {
        rule,
        size,
        nodes: args.nodes,
        seed: 0,
        weights: FOREIGN,
    };
    let partial = super::partial_path(&args.out);
    let write_error = |e| ImportError::Write(args.out.clone(), e);
    let written = write(&partial, &header, &games, scale).and_then(|n| {
        std::fs::rename(&partial, &args.out)?;
        Ok(n)
    });
    match written {
        Ok(n) => {
            println!(
                "wrote {}: {n} {rule} {size}x{size} games ({} impossible, left out)",
                args.out.display(),
                games.len() - n
            );
            Ok(())
        }
        Err(e) => {
            // Best effort: the error says what went wrong; a leftover would only confuse.
            let _ = std::fs::remove_file(&partial);
            Err(write_error(e))
        }
    }
}

/// Writes the games that replay under their rule; returns how many.
fn write(path: &Path, header: &Header, games: &[RawGame], scale: f64) -> io::Result<usize> {
    let mut out = BufWriter::new(selfplay::create(path, header)?);
    let mut written = 0;
    for (n, g) in games.iter().enumerate() {
        let game = SelfPlayGame {
            moves: g
                .game
                .moves
                .iter()
                .map(|&(p, s)| (p, rescaled(s, scale)))
                .collect(),
            ..g.game.clone()
        };
        match dataset::replay(header.rule, header.size, &game, |_, _, _, _| {}) {
            Ok(()) => {
                out.write_all(&game.to_bytes())?;
                written += 1;
            }
            Err(why) => eprintln!("game {}: {why}; left out", n + 1),
        }
    }
    out.flush()?;
    out.get_ref().sync_all()?;
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two games in Rapfi's format (made by hand: the values need only be plausible).
    const TEXT: &str = "\
15,Freestyle,H8I9,0,J10(-40)
15,Freestyle,H8I9J10,2,G7(35)
15,Freestyle,H8I9J10G7,0,K11(-29996)
15,Freestyle,H8I9J10G7K11,2,F6(29997)
15,Freestyle,A1,2,B2(10)
15,Freestyle,A1B2,0,C3(-12)
";

    fn write_text(dir: &Path, name: &str, text: &str) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("hoshi-import-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn lines_group_into_games_with_the_winner_from_the_side_to_move() {
        let dir = temp_dir("group");
        let games = read_games(&write_text(&dir, "a.txt", TEXT)).unwrap();
        assert_eq!(games.len(), 2);
        let p = |x, y| Pos::new(x, y);
        let [a, b] = [&games[0].game, &games[1].game];
        assert_eq!(a.opening, vec![p(7, 7), p(8, 8)]);
        let e = Score::Eval;
        assert_eq!(
            a.moves,
            vec![
                (p(9, 9), e(-40)),
                (p(6, 6), e(35)),
                (p(10, 10), Score::Loss(4)),
                (p(5, 5), Score::Win(3))
            ]
        );
        // Black to move after two stones, lost: white won.
        assert_eq!(a.winner, Some(Color::White));
        assert_eq!(b.opening, vec![p(0, 0)]);
        // White to move after one stone, won.
        assert_eq!(b.winner, Some(Color::White));
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn values_are_rescaled_and_mates_kept_as_mates() {
        assert_eq!(rescaled(score(-40), 2.5), Score::Eval(-100));
        assert_eq!(rescaled(score(29997), 2.5), Score::Win(3));
        assert_eq!(rescaled(score(-29996), 2.5), Score::Loss(4));
    }

    /// The written file reads back as the games, with the scores at `k / rapfi_k`, and
    /// `train`'s replay accepts every game.
    #[test]
    fn the_import_reads_back_as_a_game_file() {
        let dir = temp_dir("file");
        let args = ImportArgs {
            inputs: vec![write_text(&dir, "a.txt", TEXT)],
            out: dir.join("a.games"),
            nodes: 20000,
            k: 500.0,
            rapfi_k: Some(100.0),
        };
        run(&args).unwrap();
        let contents = selfplay::read(&args.out).unwrap();
        assert_eq!(contents.header.rule, Rule::Freestyle);
        assert_eq!((contents.header.size, contents.header.nodes), (15, 20000));
        assert_eq!(contents.games.len(), 2);
        let scores: Vec<Score> = contents.games[0].moves.iter().map(|m| m.1).collect();
        assert_eq!(
            scores,
            vec![
                Score::Eval(-200),
                Score::Eval(175),
                Score::Loss(4),
                Score::Win(3)
            ]
        );
        for g in &contents.games {
            dataset::replay(Rule::Freestyle, 15, g, |_, _, _, _| {}).unwrap();
        }
        std::fs::remove_dir_all(dir).unwrap();
    }

    /// A game with a move on an occupied cell is left out; the others are written.
    #[test]
    fn an_impossible_game_is_left_out() {
        let dir = temp_dir("bad");
        let text = format!("{TEXT}15,Freestyle,C3,0,C3(5)\n");
        let args = ImportArgs {
            inputs: vec![write_text(&dir, "a.txt", &text)],
            out: dir.join("a.games"),
            nodes: 0,
            k: 500.0,
            rapfi_k: Some(100.0),
        };
        run(&args).unwrap();
        assert_eq!(selfplay::read(&args.out).unwrap().games.len(), 2);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn bad_lines_and_mixed_inputs_are_refused_with_the_reason() {
        for (line, why) in [
            ("15,Freestyle,H8,0", "5 comma-separated"),
            ("15,Gomoku,H8,0,I9(3)", "unknown rule"),
            ("15,Freestyle,H8,3,I9(3)", "result"),
            ("15,Freestyle,H8,0,I9", "MOVE(VALUE)"),
            ("15,Freestyle,H8,0,P9(3)", "off the 15x15 board"),
            ("15,Freestyle,P9,0,I9(3)", "outside the board"),
            ("15,Freestyle,H8H8,0,I9(3)", "already occupied"),
            ("15,Freestyle,H0,0,I9(3)", "row number from 1"),
            ("15,Freestyle,8H,0,I9(3)", "column letter"),
            ("40,Freestyle,H8,0,I9(3)", "board size"),
            ("15,Freestyle,H8,0,I9(30001)", "within"),
        ] {
            let e = parse_line(line).unwrap_err();
            assert!(e.contains(why), "{line}: {e}");
        }
        let dir = temp_dir("mixed");
        let a = write_text(&dir, "a.txt", TEXT);
        let b = write_text(&dir, "b.txt", "15,Renju,H8,0,I9(3)\n");
        let args = ImportArgs {
            inputs: vec![a.clone(), b],
            out: dir.join("a.games"),
            nodes: 0,
            k: 500.0,
            rapfi_k: None,
        };
        let e = run(&args).unwrap_err().to_string();
        assert!(e.contains("mix rules"), "{e}");
        assert!(!args.out.exists());
        // A result that flips within a game is not Rapfi's output.
        let c = write_text(
            &dir,
            "c.txt",
            "15,Freestyle,H8,0,I9(3)\n15,Freestyle,H8I9,0,J9(3)\n",
        );
        let e = read_games(&c).unwrap_err().to_string();
        assert!(e.contains("c.txt:2") && e.contains("disagrees"), "{e}");
        let args = ImportArgs {
            inputs: vec![a],
            out: dir.join("a.games"),
            nodes: 0,
            k: -1.0,
            rapfi_k: None,
        };
        assert!(run(&args).unwrap_err().to_string().contains("positive"));
        std::fs::remove_dir_all(dir).unwrap();
    }
}
