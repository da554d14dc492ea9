//! `pbrain-hoshi datagen`: self-play games for training the evaluation.
//!
//! Game `i` of a run is a function of the seed, `i`, the rule, board, node budget and the
//! evaluation alone: its opening comes from a generator seeded by `(seed, i)`, both sides
//! search with fresh tables and a fixed node budget, and nothing else is shared between
//! games. Workers play games in any order and the writer appends them in index order, so
//! the file is the same whatever `--threads` says. The file's header records what made it;
//! a run on an existing file checks it, drops a torn last record and goes on from the
//! games already there.
//!
//! Openings: two to five stones, alternately black and white, on empty cells within three
//! of the centre (black's legal under the rule), kept when a search of
//! [`OPENING_NODES`] nodes scores the side to move within [`BALANCE`] of level. The games
//! are played out to five or a full board (a draw); the mover's score is kept per move.

use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::thread;
use std::time::Instant;

use clap::Args;

use hoshi::board::{Board, Pos};
use hoshi::eval::Evaluator;
use hoshi::rng::Rng;
use hoshi::rules::{Rule, Verdict};
use hoshi::search::{Request, SearchResult, Searcher};
use hoshi::time::Limits;

use super::selfplay::{self, Header, Score, SelfPlayGame};

/// Nodes of the search that judges whether a random opening is balanced.
pub const OPENING_NODES: u64 = 3_000;
/// The largest score (for the side to move) a kept opening may have.
pub const BALANCE: i32 = 120;
/// Table size of each side's searcher.
const TT_BYTES: usize = 8 << 20;

/// Options of `pbrain-hoshi datagen` (the global --seed seeds it, --weights evaluates).
#[derive(Debug, Args)]
pub struct DatagenArgs {
    /// The rule: freestyle, standard, renju, caro, caro-exact, or its `INFO rule` code.
    #[arg(long, default_value = "freestyle")]
    pub rule: Rule,
    /// Board side.
    #[arg(long, value_name = "N", default_value_t = 15)]
    pub size: u8,
    /// Games the file should hold when the run ends (games already there count).
    #[arg(long, value_name = "N")]
    pub games: usize,
    #[command(flatten)]
    pub output: SearchedGames,
}

/// What every writer of searched games is told (`datagen`, `rescore`): the searches' budget,
/// the workers and the file.
#[derive(Debug, Args)]
pub struct SearchedGames {
    /// Nodes of every search.
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub nodes: u64,
    /// Games searched at the same time.
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub threads: usize,
    /// The game file, created or continued.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

/// Runs `datagen`: plays the missing games and appends them to the file.
pub fn run(args: &DatagenArgs, seed: u64, eval: &Evaluator) -> Result<(), String> {
    Board::new(i64::from(args.size), i64::from(args.size)).map_err(|e| e.to_string())?;
    let output = &args.output;
    let header = Header {
        rule: args.rule,
        size: args.size,
        nodes: output.nodes,
        seed,
        weights: eval.id(),
    };
    let done = output.open(&header)?.len();
    let Some(tally) = output.append(done, args.games, eval, |i, players| {
        play(&header, i, players)
    })?
    else {
        return Ok(());
    };
    eprintln!(
        "{}: {} games ({} new: black won {}, white won {}, drawn {})",
        output.out.display(),
        args.games,
        args.games - done,
        tally[0],
        tally[1],
        tally[2]
    );
    Ok(())
}

impl SearchedGames {
    /// Creates the file for games made as `header` says, or checks an existing one and cuts
    /// a torn tail; the games it holds.
    pub fn open(&self, header: &Header) -> Result<Vec<SelfPlayGame>, String> {
        if self.nodes == 0 {
            return Err("--nodes must be at least 1".into());
        }
        let path = &self.out;
        let len = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        if len == 0 {
            selfplay::create(path, header)
                .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
            return Ok(Vec::new());
        }
        let contents = selfplay::read(path)?;
        if contents.header != *header {
            return Err(format!(
                "{} was made with other settings ({:?}, not {header:?}); continue it with the \
                 options that made it (--weights and --seed included), or write another file",
                path.display(),
                contents.header
            ));
        }
        if contents.torn > 0 {
            eprintln!(
                "{}: dropping a torn last record ({} bytes)",
                path.display(),
                contents.torn
            );
            OpenOptions::new()
                .write(true)
                .open(path)
                .and_then(|f| f.set_len(contents.valid_len))
                .map_err(|e| format!("cannot truncate {}: {e}", path.display()))?;
        }
        if !contents.games.is_empty() {
            eprintln!(
                "{}: resuming after {} games",
                path.display(),
                contents.games.len()
            );
        }
        Ok(contents.games)
    }

    /// Makes games `done..total` with `game(index, [black's searcher, white's])` on the
    /// workers, each with its own two searchers evaluating with `eval`, and appends them in
    /// index order, so the file does not depend on the threads. The games' tally: black's
    /// wins, white's, draws; `None` (said on stderr) when the file holds `total` already.
    pub fn append(
        &self,
        done: usize,
        total: usize,
        eval: &Evaluator,
        game: impl Fn(usize, &mut [Searcher; 2]) -> SelfPlayGame + Sync,
    ) -> Result<Option<[usize; 3]>, String> {
        let (path, threads) = (&self.out, self.threads);
        if done >= total {
            eprintln!("{}: {done} games already, nothing to do", path.display());
            return Ok(None);
        }
        let mut file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot append to {}: {e}", path.display()))?;
        let next = AtomicUsize::new(done);
        let failed = AtomicBool::new(false);
        let (tx, rx) = channel::<(usize, SelfPlayGame)>();
        let progress = ProgressMeter::new(done, total);
        let mut tally = [0usize; 3];
        let result = thread::scope(|s| {
            for _ in 0..threads.clamp(1, total - done) {
                let tx = tx.clone();
                let (next, failed, game) = (&next, &failed, &game);
                s.spawn(move || {
                    let mut players = [Searcher::new(TT_BYTES), Searcher::new(TT_BYTES)];
                    for p in &mut players {
                        p.set_evaluator(eval.clone());
                    }
                    while !failed.load(Ordering::Relaxed) {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= total {
                            break;
                        }
                        if tx.send((i, game(i, &mut players))).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(tx);
            // Games arrive in any order and leave in index order.
            let mut pending = BTreeMap::new();
            let mut written = done;
            for (i, game) in rx {
                pending.insert(i, game);
                while let Some(game) = pending.remove(&written) {
                    if let Err(e) = file.write_all(&game.to_bytes()) {
                        failed.store(true, Ordering::Relaxed);
                        return Err(format!("cannot write {}: {e}", path.display()));
                    }
                    tally[game.winner.map_or(2, |c| c as usize)] += 1;
                    written += 1;
                    progress.set(written);
                }
            }
            Ok(())
        });
        progress.finish();
        result?;
        file.sync_data()
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(Some(tally))
    }
}

/// The generator of game `index` of the run seeded `seed`.
fn game_rng(seed: u64, index: usize) -> Rng {
    let mut mix = Rng::new(seed ^ (index as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93));
    Rng::new(mix.next_u64())
}

pub(crate) fn search(player: &mut Searcher, board: &Board, rule: Rule, nodes: u64) -> SearchResult {
    let limits = Limits {
        max_nodes: Some(nodes),
        ..Limits::default()
    };
    player.search(Request::new(board, rule, board.to_move(), limits))
}

pub(crate) fn score_of(r: &SearchResult) -> Score {
    match r.mate_in() {
        Some(n) if n > 0 => Score::Win(u16::try_from(n).unwrap_or(u16::MAX)),
        Some(n) => Score::Loss(u16::try_from(-n).unwrap_or(u16::MAX)),
        None => Score::Eval(r.score),
    }
}

/// A random balanced opening for game `index`.
fn opening(header: &Header, rng: &mut Rng, judge: &mut Searcher) -> Board {
    let side = i64::from(header.size);
    loop {
        let mut board = Board::new(side, side).expect("checked by run");
        let c = board.center();
        let near: Vec<Pos> = board.cells().filter(|p| p.chebyshev(c) <= 3).collect();
        let stones = 2 + rng.below(4);
        let mut ok = true;
        for _ in 0..stones {
            let color = board.to_move();
            let free: Vec<Pos> = near
                .iter()
                .copied()
                .filter(|&p| {
                    header.rule.is_legal(&board, p, color)
                        && header.rule.judge(&board, p, color) == Verdict::Continue
                })
                .collect();
            if free.is_empty() {
                ok = false;
                break;
            }
            let _ = board.place(free[rng.below(free.len())], color);
        }
        if !ok {
            continue;
        }
        judge.clear();
        let r = search(judge, &board, header.rule, OPENING_NODES);
        if r.mate_in().is_none() && r.score.abs() <= BALANCE {
            return board;
        }
    }
}

/// Plays game `index` of the run: `players[0]` has black.
fn play(header: &Header, index: usize, players: &mut [Searcher; 2]) -> SelfPlayGame {
    let mut rng = game_rng(header.seed, index);
    let mut board = opening(header, &mut rng, &mut players[0]);
    for p in players.iter_mut() {
        p.clear();
    }
    let mut game = SelfPlayGame {
        opening: board.history().iter().map(|&(p, _)| p).collect(),
        moves: Vec::new(),
        winner: None,
    };
    while !board.is_full() {
        let me = board.to_move();
        let r = search(&mut players[me as usize], &board, header.rule, header.nodes);
        game.moves.push((r.best, score_of(&r)));
        match header.rule.judge(&board, r.best, me) {
            Verdict::Win => {
                game.winner = Some(me);
                break;
            }
            Verdict::Foul(_) => {
                game.winner = Some(me.opponent());
                break;
            }
            Verdict::Continue => {
                // The search answers an empty cell.
                let _ = board.place(r.best, me);
            }
        }
    }
    game
}

/// Games done, games/s and ETA on stderr: one line rewritten in place on a terminal (at most
/// five times a second), a line per percent elsewhere (logs).
///
/// Written by hand rather than with indicatif: its styles key a std `HashMap` by `RandomState`,
/// which makes the Windows .exe import `bcryptprimitives.dll`, and Wine 8.0, on which Linux
/// users run Piskvork, has no such DLL, so the engine would not start there at all.
struct ProgressMeter {
    terminal: bool,
    start: Instant,
    shown: std::cell::Cell<Instant>,
    first: usize,
    total: usize,
}

impl ProgressMeter {
    fn new(done: usize, total: usize) -> ProgressMeter {
        let start = Instant::now();
        ProgressMeter {
            terminal: std::io::stderr().is_terminal(),
            start,
            shown: std::cell::Cell::new(start),
            first: done,
            total,
        }
    }

    fn set(&self, done: usize) {
        let now = Instant::now();
        let due = if self.terminal {
            now.duration_since(self.shown.get()).as_millis() >= 200 || done == self.total
        } else {
            done.is_multiple_of((self.total / 100).max(1)) || done == self.total
        };
        if !due {
            return;
        }
        self.shown.set(now);
        let secs = now.duration_since(self.start).as_secs_f64().max(1e-3);
        let rate = (done - self.first) as f64 / secs;
        let eta = (self.total - done) as f64 / rate.max(1e-9);
        let line = format!(
            "{done}/{} games  {rate:.2} games/s  ETA {eta:.0} s",
            self.total
        );
        if self.terminal {
            // Erase to the end of the line: the new text may be shorter than the old.
            eprint!("\r{line}\x1b[K");
        } else {
            eprintln!("{line}");
        }
    }

    fn finish(&self) {
        if self.terminal {
            eprintln!();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(out: PathBuf, games: usize, threads: usize) -> DatagenArgs {
        DatagenArgs {
            rule: Rule::Renju,
            size: 9,
            games,
            output: SearchedGames {
                nodes: 300,
                threads,
                out,
            },
        }
    }

    /// Rules are read as `play` and `analyse` read them: by name in any case, or by code.
    #[test]
    fn rules_parse_by_name_and_code() {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            args: DatagenArgs,
        }
        let rule = |s: &str| {
            <Cli as clap::Parser>::try_parse_from([
                "datagen", "--games", "1", "--out", "x", "--rule", s,
            ])
            .map(|c| c.args.rule)
        };
        assert_eq!(rule("renju").ok(), Some(Rule::Renju));
        assert_eq!(rule("Caro-Exact").ok(), Some(Rule::CaroExact));
        assert_eq!(rule("1").ok(), Some(Rule::Standard));
        assert!(rule("go").is_err());
        let default =
            <Cli as clap::Parser>::try_parse_from(["datagen", "--games", "1", "--out", "x"]);
        assert_eq!(default.ok().map(|c| c.args.rule), Some(Rule::Freestyle));
    }

    /// Same seed, same file, on one thread or two and across a resume after a torn write.
    #[test]
    fn the_file_depends_on_the_seed_alone_and_resumes_after_a_torn_tail() {
        let dir = std::env::temp_dir().join(format!("hoshi-datagen-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let eval = Evaluator::handset();
        let (one, two) = (dir.join("one.games"), dir.join("two.games"));
        run(&args(one.clone(), 4, 1), 7, &eval).unwrap();
        run(&args(two.clone(), 2, 2), 7, &eval).unwrap();
        // Tear the second file's last record, as a kill mid-write would.
        let len = std::fs::metadata(&two).unwrap().len();
        let f = OpenOptions::new().write(true).open(&two).unwrap();
        f.set_len(len - 3).unwrap();
        drop(f);
        assert_eq!(selfplay::read(&two).unwrap().games.len(), 1);
        run(&args(two.clone(), 4, 2), 7, &eval).unwrap();
        let (a, b) = (std::fs::read(&one).unwrap(), std::fs::read(&two).unwrap());
        assert_eq!(
            a, b,
            "the same games whatever the threads and interruptions"
        );
        let c = selfplay::read(&one).unwrap();
        assert_eq!((c.games.len(), c.torn), (4, 0));
        for g in &c.games {
            assert!((2..=5).contains(&g.opening.len()));
            assert!(!g.moves.is_empty());
        }
        // Another seed is another stream, and the header refuses to mix them; so are other
        // tables (their ids differ: each names its tables).
        assert!(run(&args(one.clone(), 5, 1), 8, &eval).is_err());
        assert!(run(&args(one.clone(), 5, 1), 7, &Evaluator::default()).is_err());
        let other = dir.join("other.games");
        run(&args(other.clone(), 4, 1), 8, &eval).unwrap();
        assert_ne!(std::fs::read(&other).unwrap(), a);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
