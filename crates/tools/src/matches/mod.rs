//! `pbrain-hoshi match`: scripted matches between two pbrain engines, with ratings, and
//! tournaments of more ([`tournament`]: round robin or gauntlet, resumable, in shards that
//! `--merge` joins).
//!
//! Games run on `--concurrency` threads, each owning its own pair of engine processes.
//! Game `i` (from 0) gives the first engine black when `i` is even; with `--repeat` games
//! `2k` and `2k + 1` share an opening (colours swapped) and form a pentanomial pair. Faults
//! lose the game and are counted; the run always finishes. What an engine does that some
//! manager would refuse, but that c-gomoku-cli forgives, is a quirk ([`quirks`]): skipped,
//! warned about and reported per engine, never a fault. Progress and warnings go to
//! stderr, the summary to stdout.

pub mod adjudicate;
pub mod engine;
pub mod engines_file;
pub mod incidents;
pub mod openings;
pub mod pgn;
pub mod psq;
pub mod quirks;
pub mod rating;
pub mod referee;
pub mod report;
pub mod said;
pub mod schedule;
pub mod sgf;
pub mod standings;
pub mod stats;
pub mod tournament;

use std::fs::File;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::thread;
use std::time::Duration;

use clap::{Args, ValueEnum};

use hoshi::board::{Color, Pos};
use hoshi::rng::Rng;
use hoshi::rules::Rule;

use engine::{EngineSpec, split_command};
use incidents::Incidents;
use openings::{OpeningFormat, OpeningOrder};
use referee::{PlayedGame, Player, Settings};
use report::{EngineRow, GameRow, Record, RecordKind, Report, ReportFile, Results};
use schedule::{Format, GameId, Shard};
use stats::{EloEstimate, GameResult, Penta, Sprt, SprtState, SprtTrace, Wdl};

/// How long an engine gets to exit after `END` before it is killed (GomocupJudge: 0.5 s).
pub const END_GRACE: Duration = Duration::from_millis(500);

/// Options of `pbrain-hoshi match` (the random seed is the global `--seed`).
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// An engine command line, program and arguments, with shell-like quoting. Twice for a
    /// match; more for a tournament.
    #[arg(long = "engine", value_name = "CMD ARGS", required_unless_present_any = ["engines_file", "merge"])]
    pub engines: Vec<String>,
    /// A file of engines for a tournament: `[NAME]` sections, each with a
    /// `command = CMD ARGS` line and any `KEY = VALUE` options (listed before --engine's).
    #[arg(long = "engines", value_name = "FILE")]
    pub engines_file: Option<PathBuf>,
    /// Play a tournament (implied by more than two engines, --engines, --shard or
    /// --resume): round robin, every pair, or gauntlet, the first engine against the rest.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub tournament: Option<Format>,
    /// Play only the Kth of N disjoint slices of the tournament's games (from 1).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Continue the tournament recorded in --pgn: its games are skipped, a torn last one
    /// dropped and replayed.
    #[arg(long, requires = "pgn")]
    pub resume: bool,
    /// Print the standings of the games in these PGN files (shards of one tournament) and
    /// play nothing.
    #[arg(long, value_name = "PGN", num_args = 1.., conflicts_with_all = ["engines", "engines_file"])]
    pub merge: Vec<PathBuf>,
    /// With --merge: the files are separate runs of the same engines (a match continued on
    /// new openings, say), each numbered from 1; their games count as one run's, each
    /// file's colour-swapped pairs kept together.
    #[arg(long, requires = "merge")]
    pub pool: bool,
    /// The ratings' zero: `first` (the first engine, the default), `mean`, or an engine's
    /// name or number.
    #[arg(long, value_name = "WHO")]
    pub anchor: Option<String>,
    /// The engines' names, in the order of --engine (default: the command line).
    #[arg(long = "name", value_name = "NAME")]
    pub names: Vec<String>,
    /// Games per round.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub games: usize,
    /// Rounds: the match plays games x rounds games.
    #[arg(long, value_name = "R", default_value_t = 1)]
    pub rounds: usize,
    /// Play each opening twice, colours swapped (pairs for the pentanomial statistics).
    #[arg(long)]
    pub repeat: bool,
    /// Board side.
    #[arg(long, value_name = "N", default_value_t = 15)]
    pub size: u8,
    /// The rule: freestyle, standard, renju, caro or caro-exact, or its `INFO rule` code
    /// (0, 1, 4, 8, 9).
    #[arg(long, value_name = "RULE", default_value = "freestyle")]
    pub rule: Rule,
    /// Time control. `MATCH/TURN` in seconds, as c-gomoku-cli's `tc=`: the game clock per
    /// side (0: none) and the limit per move (`0/1`: 1 s a move; `120/5`). A plain integer
    /// is milliseconds a move (`5000`); `TURN/MATCHms` is milliseconds in the older order.
    #[arg(long, value_name = "MATCH/TURN", default_value = "5000")]
    pub tc: String,
    /// Extra ms an engine may take beyond its limit before it loses on time and is killed.
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    pub tolerance: u64,
    /// Resident-memory limit per engine in bytes, sent as `INFO max_memory` and enforced
    /// on Linux and Windows by sampling the engine's resident set (elsewhere only sent).
    #[arg(long, value_name = "BYTES")]
    pub max_memory: Option<u64>,
    /// A file of openings, one per line.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// How the openings are written.
    #[arg(long, value_enum, default_value_t = OpeningFormat::Offset)]
    pub openings_format: OpeningFormat,
    /// In which order the openings are played (random uses --seed).
    #[arg(long, value_enum, default_value_t = OpeningOrder::Sequential)]
    pub openings_order: OpeningOrder,
    /// Games played at the same time.
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub concurrency: usize,
    /// Append the games to this PGN file (for BayesElo or Ordo).
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Write each game as a Piskvork PSQ file into this directory.
    #[arg(long, value_name = "DIR")]
    pub psq: Option<PathBuf>,
    /// Append the games to this SGF file (`GM[4]`, each move's time in its comment, as
    /// c-gomoku-cli's -sgf writes them).
    #[arg(long, value_name = "FILE")]
    pub sgf: Option<PathBuf>,
    /// End a game as soon as the side to move has a win by continuous fours that Hoshi's
    /// VCF solver finds and the referee confirms move by move; recorded as adjudicated,
    /// with the proof.
    #[arg(long)]
    pub adjudicate: bool,
    /// Sequential probability ratio test on the first engine's logistic Elo; stops the match
    /// when it decides.
    #[arg(long, num_args = 4, value_names = ["ELO0", "ELO1", "ALPHA", "BETA"], allow_negative_numbers = true)]
    pub sprt: Option<Vec<f64>>,
    /// An engine option, sent to that engine (by name, or 1 or 2) as `INFO KEY VALUE`.
    #[arg(long = "option", value_name = "NAME=KEY=VALUE")]
    pub options: Vec<String>,
    /// Write the run as one HTML page (crosstable, ratings, SPRT, games), after every game.
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
}

/// A validated match: the engines, the settings and the games to play.
struct MatchPlan {
    specs: [EngineSpec; 2],
    settings: Settings,
    total: usize,
    repeat: bool,
    /// Openings in the order they are used (empty: every game starts on an empty board).
    openings: Vec<Vec<Pos>>,
    concurrency: usize,
    sprt: Option<Sprt>,
    seed: u64,
    /// Each game's identity, for the records.
    schedule: Vec<GameId>,
    /// The openings in words, for the report.
    openings_line: String,
}

/// What a match and a tournament share: the game settings and the ordered openings.
struct Common {
    settings: Settings,
    openings: Vec<Vec<Pos>>,
    /// The openings in words, for the report.
    openings_line: String,
    /// Games of each pairing: `--games` times `--rounds`.
    per_pairing: usize,
}

impl Common {
    fn new(args: &MatchArgs, seed: u64) -> Result<Common, String> {
        let rule = args.rule;
        if !(hoshi::board::MIN_SIDE..=hoshi::board::MAX_SIDE).contains(&args.size) {
            return Err(format!(
                "--size must be {} to {}",
                hoshi::board::MIN_SIDE,
                hoshi::board::MAX_SIDE
            ));
        }
        let (turn_ms, match_ms) = parse_tc(&args.tc)?;
        let mut openings = match &args.openings {
            Some(path) => openings::load(path, args.openings_format, args.size)?,
            None => Vec::new(),
        };
        if args.openings_order == OpeningOrder::Random {
            let mut rng = Rng::new(seed);
            for i in (1..openings.len()).rev() {
                openings.swap(i, rng.below(i + 1));
            }
        }
        let per_pairing = args
            .games
            .checked_mul(args.rounds)
            .ok_or("too many games")?;
        if per_pairing == 0 {
            return Err("--games and --rounds must be at least 1".to_owned());
        }
        Ok(Common {
            settings: Settings {
                size: args.size,
                rule,
                turn_ms,
                match_ms,
                tolerance: Duration::from_millis(args.tolerance),
                max_memory: args.max_memory,
                adjudicate: args.adjudicate,
            },
            openings_line: openings_line(args, openings.len()),
            openings,
            per_pairing,
        })
    }
}

/// `openings: 26 from renju26.txt (offset, sequential), each played twice, colours
/// swapped`.
fn openings_line(args: &MatchArgs, count: usize) -> String {
    let Some(path) = &args.openings else {
        return "openings: none, every game starts on an empty board".to_owned();
    };
    let name = |value: Option<clap::builder::PossibleValue>| {
        value.map_or(String::new(), |v| v.get_name().to_owned())
    };
    format!(
        "openings: {count} from {} ({}, {}){}",
        path.display(),
        name(args.openings_format.to_possible_value()),
        name(args.openings_order.to_possible_value()),
        if args.repeat {
            ", each played twice, colours swapped"
        } else {
            ""
        }
    )
}

fn parse_sprt(args: &MatchArgs) -> Result<Option<Sprt>, String> {
    match args.sprt.as_deref() {
        Some(&[e0, e1, alpha, beta]) => Ok(Some(Sprt::new(e0, e1, alpha, beta)?)),
        Some(_) => Err("--sprt takes ELO0 ELO1 ALPHA BETA".to_owned()),
        None => Ok(None),
    }
}

/// The engines of `--engines` then of `--engine`, named and given their `--option`s.
fn engine_specs(args: &MatchArgs) -> Result<Vec<EngineSpec>, String> {
    let mut specs = match &args.engines_file {
        Some(path) => engines_file::load(path)?,
        None => Vec::new(),
    };
    if args.names.len() > args.engines.len() {
        return Err(format!(
            "{} --name for {} --engine",
            args.names.len(),
            args.engines.len()
        ));
    }
    for (k, command) in args.engines.iter().enumerate() {
        let argv = split_command(command)?;
        let given = args.names.get(k);
        let mut name = given.cloned().unwrap_or_else(|| default_name(&argv));
        if specs.iter().any(|s| s.name == name) {
            if given.is_some() {
                return Err(format!("two engines are named {name:?}"));
            }
            // A default name repeats when one program plays itself: number the copies.
            let base = name.clone();
            let mut copy = 2;
            while specs.iter().any(|s| s.name == name) {
                name = format!("{base} #{copy}");
                copy += 1;
            }
        }
        specs.push(EngineSpec {
            name,
            argv,
            options: Vec::new(),
        });
    }
    if specs.len() < 2 {
        return Err(format!(
            "a match needs at least two engines: give --engine at least twice, or \
             --engines FILE (got {})",
            specs.len()
        ));
    }
    for option in &args.options {
        let parts: Vec<&str> = option.splitn(3, '=').collect();
        let &[who, key, value] = parts.as_slice() else {
            return Err(format!("--option {option:?} is not NAME=KEY=VALUE"));
        };
        let i = specs
            .iter()
            .position(|s| s.name == who)
            .or_else(|| {
                who.parse::<usize>()
                    .ok()
                    .filter(|&k| (1..=specs.len()).contains(&k))
                    .map(|k| k - 1)
            })
            .ok_or_else(|| {
                format!("--option {option:?}: no engine is named or numbered {who:?}")
            })?;
        specs[i].options.push((key.to_owned(), value.to_owned()));
    }
    Ok(specs)
}

/// Whether `args` ask for a tournament rather than the two-engine match.
fn is_tournament(args: &MatchArgs, engines: usize) -> bool {
    engines != 2
        || args.engines_file.is_some()
        || args.tournament.is_some()
        || args.shard.is_some()
        || args.resume
}

impl MatchPlan {
    fn new(args: &MatchArgs, specs: Vec<EngineSpec>, seed: u64) -> Result<MatchPlan, String> {
        let specs = <[EngineSpec; 2]>::try_from(specs)
            .map_err(|e| format!("a match needs exactly two engines (got {})", e.len()))?;
        if args.anchor.is_some() {
            return Err("--anchor sets the zero of a tournament's rating list: add \
                        --tournament round-robin to rate two engines that way"
                .to_owned());
        }
        let common = Common::new(args, seed)?;
        let sprt = parse_sprt(args)?;
        let total = common.per_pairing;
        let schedule = schedule::build(
            2,
            Format::RoundRobin,
            args.games,
            args.rounds,
            args.repeat,
            common.openings.len(),
        );
        Ok(MatchPlan {
            specs,
            settings: common.settings,
            total,
            repeat: args.repeat,
            openings: common.openings,
            concurrency: args.concurrency.clamp(1, total),
            sprt,
            seed,
            schedule,
            openings_line: common.openings_line,
        })
    }

    fn names(&self) -> [&str; 2] {
        self.specs.each_ref().map(|s| s.name.as_str())
    }

    /// `Match: a vs b`.
    fn title(&self) -> String {
        let [a, b] = self.names();
        format!("Match: {a} vs {b}")
    }

    /// `52 of 52 games played; standard 15x15; …`.
    fn played_line(&self, played: usize) -> String {
        format!(
            "{played} of {} games played; {}",
            self.total,
            self.settings.conditions(self.seed)
        )
    }

    /// The names of the players with black and with white in game `i`.
    fn players(&self, i: usize) -> [&str; 2] {
        let [a, b] = self.names();
        if self.game(i).0 { [a, b] } else { [b, a] }
    }

    /// Whether the first engine has black in game `i`, and the game's opening.
    fn game(&self, i: usize) -> (bool, &[Pos]) {
        let slot = if self.repeat { i / 2 } else { i };
        let opening = match self.openings.len() {
            0 => &[][..],
            n => self.openings.get(slot % n).map_or(&[][..], Vec::as_slice),
        };
        (i.is_multiple_of(2), opening)
    }
}

/// The program's file name and the arguments: `pbrain-hoshi --level easy`.
fn default_name(argv: &[String]) -> String {
    let mut words = argv.iter();
    let program = words.next().map_or("", |p| {
        std::path::Path::new(p)
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or(p)
    });
    std::iter::once(program)
        .chain(words.map(String::as_str))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `--tc`: `(ms a move, ms a game)`, a game time of 0 being none.
///
/// A value with a `/` is c-gomoku-cli's `MATCH/TURN` in seconds (decimals allowed), unless
/// it ends in `ms`: then it is the older `TURN/MATCH` in milliseconds. A bare integer is
/// milliseconds a move (both forms agree that it is the move's time). A move time above a
/// game time is refused rather than guessed at: it is most likely the older order.
fn parse_tc(tc: &str) -> Result<(u64, Option<u64>), String> {
    let forms = "write MATCH/TURN in seconds (0/1: 1 s a move; 120/5), an integer of \
                 milliseconds a move (5000), or TURN/MATCHms (500/20000ms)";
    let bad = || format!("--tc {tc:?} is no time control: {forms}");
    let ms_int = |s: &str| s.trim().parse::<u64>().map_err(|_| bad());
    let (turn, game) = if let Some(old) = tc.trim().strip_suffix("ms") {
        match old.split_once('/') {
            Some((t, g)) => (ms_int(t)?, ms_int(g)?),
            None => (ms_int(old)?, 0),
        }
    } else if let Some((m, t)) = tc.split_once('/') {
        let secs = |s: &str| {
            s.trim()
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x >= 0.0 && *x * 1000.0 < u64::MAX as f64)
                .map(|x| (x * 1000.0).round() as u64)
                .ok_or_else(bad)
        };
        let (game, turn) = (secs(m)?, secs(t)?);
        if game > 0 && turn > game {
            return Err(format!(
                "--tc {tc:?}: a move would get more time than the whole game; c-gomoku-cli's \
                 form is MATCH/TURN in seconds (e.g. 20/0.5), and the older TURN/MATCH in \
                 milliseconds needs its suffix (500/20000ms)"
            ));
        }
        (turn, game)
    } else {
        (ms_int(tc)?, 0)
    };
    Ok((turn, (game > 0).then_some(game)))
}

impl MatchScore {
    /// `Score of a vs b: +46 =0 -6  (0.885)`.
    #[must_use]
    pub fn score_line(&self, [a, b]: [&str; 2]) -> String {
        let fraction = self
            .total
            .score()
            .map_or("-".to_owned(), |x| format!("{x:.3}"));
        format!("Score of {a} vs {b}: {}  ({fraction})", self.total)
    }

    /// `Elo difference: +353.8 (95% interval +238.4 to +612.7)`.
    #[must_use]
    pub fn elo_line(&self) -> String {
        match self.elo {
            Some(e) if e.elo.is_infinite() => format!(
                "Elo difference: {} (one side scored every point: no interval)",
                fmt_elo(e.elo)
            ),
            Some(e) => format!(
                "Elo difference: {} (95% interval {} to {})",
                fmt_elo(e.elo),
                fmt_elo(e.low),
                fmt_elo(e.high)
            ),
            None => "Elo difference: no games".to_owned(),
        }
    }

    /// `LOS: 100.0 %`, once a game is decisive.
    #[must_use]
    pub fn los_line(&self) -> Option<String> {
        self.los.map(|los| format!("LOS: {:.1} %", 100.0 * los))
    }
}

/// Everything counted so far, from the first engine's side unless said otherwise.
struct Tally {
    /// `[engine][colour]` from that engine's side.
    by_colour: [[Wdl; 2]; 2],
    total: Wdl,
    /// Endings, and each engine's faults and quirks.
    incidents: Incidents,
    /// The first game of each pair, waiting for the second.
    pair_first: Vec<Option<GameResult>>,
    penta: Penta,
    played: usize,
    /// The SPRT's LLR after each game, in the order they finished (the order it stops in).
    sprt: Option<SprtTrace>,
    /// Each engine's first answer to `ABOUT`.
    abouts: [Option<String>; 2],
}

/// The match's score, from the first engine's side unless said otherwise: what the
/// progress line and the summary print and the report draws, computed once a game.
#[derive(Clone, Debug)]
pub struct MatchScore {
    pub total: Wdl,
    /// `[engine][colour]`: each engine's results as black and as white, from its side.
    pub by_colour: [[Wdl; 2]; 2],
    /// The Elo difference with its 95 % interval, once a game is played.
    pub elo: Option<EloEstimate>,
    /// The likelihood of superiority, once a game is decisive.
    pub los: Option<f64>,
    /// The pentanomial counts, with `--repeat`.
    pub penta: Option<Penta>,
}

impl Tally {
    fn record(&mut self, plan: &MatchPlan, i: usize, game: &PlayedGame) {
        let (a_black, _) = plan.game(i);
        let a_colour = if a_black { Color::Black } else { Color::White };
        let result = match game.winner {
            None => GameResult::Draw,
            Some(c) if c == a_colour => GameResult::Win,
            Some(_) => GameResult::Loss,
        };
        self.played += 1;
        self.total.add(result);
        let colour_index = |c: Color| usize::from(c == Color::White);
        self.by_colour[0][colour_index(a_colour)].add(result);
        self.by_colour[1][colour_index(a_colour.opponent())].add(result.flipped());
        let engine_of = |c: Color| usize::from((c == Color::Black) != a_black);
        self.incidents.record(game, i + 1, engine_of, &plan.specs);
        if plan.repeat {
            let pair = i / 2;
            if self.pair_first.len() <= pair {
                self.pair_first.resize(pair + 1, None);
            }
            match self.pair_first[pair].take() {
                Some(other) => self.penta.add(other, result),
                None => self.pair_first[pair] = Some(result),
            }
        }
        if let Some(trace) = &mut self.sprt {
            trace.push(self.total, plan.repeat.then_some(self.penta));
        }
    }

    fn score(&self, plan: &MatchPlan) -> MatchScore {
        MatchScore {
            total: self.total,
            by_colour: self.by_colour,
            elo: stats::elo(self.total),
            los: stats::los(self.total),
            penta: plan.repeat.then_some(self.penta),
        }
    }

    fn progress(&self, plan: &MatchPlan, score: &MatchScore) -> String {
        let mut line = format!("[{}/{}] {}", self.played, plan.total, self.total);
        if let Some(e) = score.elo.filter(|e| e.elo.is_finite()) {
            line.push_str(&format!(
                "  Elo {} [{}, {}]",
                fmt_elo(e.elo),
                fmt_elo(e.low),
                fmt_elo(e.high)
            ));
        }
        if let Some(trace) = &self.sprt {
            line.push_str(&format!("  LLR {:.2}", trace.last()));
        }
        let faults: Vec<u32> = self
            .incidents
            .faults
            .iter()
            .map(|f| f.iter().sum())
            .collect();
        line.push_str(&format!("  faults {}/{}", faults[0], faults[1]));
        line
    }
}

fn fmt_elo(e: f64) -> String {
    if e.is_infinite() {
        if e > 0.0 {
            "+inf".to_owned()
        } else {
            "-inf".to_owned()
        }
    } else {
        // Adding 0.0 turns -0.0 into 0.0.
        format!("{:+.1}", e + 0.0)
    }
}

/// Runs the match or tournament described by `args` (or merges PGN files); `seed` is the
/// global `--seed`.
pub fn run(args: &MatchArgs, seed: Option<u64>) -> Result<(), String> {
    if !args.merge.is_empty() {
        return tournament::merge(args);
    }
    let specs = engine_specs(args)?;
    let seed = seed.unwrap_or_else(Rng::fresh_seed);
    if is_tournament(args, specs.len()) {
        return tournament::run(args, specs, seed);
    }
    let plan = MatchPlan::new(args, specs, seed)?;
    if plan.settings.max_memory.is_some() && !engine::MEMORY_MEASURED {
        eprintln!(
            "warning: --max-memory is only sent to the engines here, not enforced \
             (it is on Linux and Windows)"
        );
    }
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = channel::<(usize, PlayedGame, [Option<String>; 2])>();
    let terminal = std::io::stderr().is_terminal();
    let mut tally = Tally {
        by_colour: Default::default(),
        total: Wdl::default(),
        incidents: Incidents::new(2),
        pair_first: Vec::new(),
        penta: Penta::default(),
        played: 0,
        sprt: plan.sprt.map(SprtTrace::new),
        abouts: [None, None],
    };
    let mut page = Page::open(args)?;
    if let Some(page) = &page {
        page.file.write(&match_report(
            &plan,
            &tally,
            &tally.score(&plan),
            page,
            false,
        ))?;
    }
    let mut records = Records::open(args)?;
    let mut io_error = None;
    thread::scope(|scope| {
        let workers: Vec<_> = (0..plan.concurrency)
            .map(|_| {
                let tx = tx.clone();
                let (plan, next, stop) = (&plan, &next, &stop);
                scope.spawn(move || {
                    let mut players = plan.specs.clone().map(Player::new);
                    while !stop.load(Ordering::Relaxed) {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= plan.total {
                            break;
                        }
                        let (a_black, opening) = plan.game(i);
                        let [a, b] = &mut players;
                        let seats = if a_black { [a, b] } else { [b, a] };
                        let game = referee::play(seats, &plan.settings, opening);
                        let abouts = players.each_ref().map(|p| p.about.clone());
                        if tx.send((i, game, abouts)).is_err() {
                            break;
                        }
                    }
                    for p in &mut players {
                        p.quit(END_GRACE);
                    }
                    players.map(|p| p.sightings)
                })
            })
            .collect();
        drop(tx);
        for (i, game, abouts) in rx {
            warn(&plan, i, &game, &tally, terminal);
            tally.record(&plan, i, &game);
            for (known, about) in tally.abouts.iter_mut().zip(abouts) {
                *known = known.take().or(about);
            }
            if let Err(e) = write_records(&plan, args, &mut records, i, &game) {
                io_error.get_or_insert(e);
            }
            let score = tally.score(&plan);
            if let Some(page) = &mut page {
                page.add(plan.schedule[i].number, plan.players(i), &game);
                if let Err(e) = page
                    .file
                    .write(&match_report(&plan, &tally, &score, page, false))
                {
                    io_error.get_or_insert(e);
                }
            }
            let line = tally.progress(&plan, &score);
            if terminal {
                eprint!("\r{line}   ");
            } else {
                eprintln!("{line}");
            }
            if tally
                .sprt
                .as_ref()
                .is_some_and(|t| t.state() != SprtState::Continue)
            {
                stop.store(true, Ordering::Relaxed);
            }
        }
        if terminal {
            eprintln!();
        }
        for w in workers {
            if let Ok(found) = w.join() {
                tally.incidents.add_quirks(found);
            }
        }
    });
    let score = tally.score(&plan);
    print!("{}", summary(&plan, &tally, &score));
    if let Some(page) = &page
        && let Err(e) = page
            .file
            .write(&match_report(&plan, &tally, &score, page, true))
    {
        io_error.get_or_insert(e);
    }
    io_error.map_or(Ok(()), Err)
}

/// The summary's heading of the endings, faults and quirks.
const ENDINGS: &str = "Endings";

/// The report's view of the match after the games in `tally`.
fn match_report<'a>(
    plan: &'a MatchPlan,
    tally: &'a Tally,
    score: &'a MatchScore,
    page: &'a Page,
    finished: bool,
) -> Report<'a> {
    Report {
        title: plan.title(),
        facts: vec![plan.played_line(tally.played), plan.openings_line.clone()],
        finished,
        engines: plan
            .specs
            .iter()
            .zip(&tally.abouts)
            .map(|(spec, about)| EngineRow {
                name: &spec.name,
                argv: &spec.argv,
                about: about.as_deref(),
            })
            .collect(),
        results: Results::Match {
            score,
            sprt: tally.sprt.as_ref(),
        },
        incidents: tally.incidents.lines(&plan.specs, ENDINGS),
        records: &page.records,
        games: &page.games,
    }
}

/// Logs each quirk of a game that is worth a warning, and shows the first of each kind
/// per engine on stderr (the summary counts them all). `tally` does not hold the game yet.
fn warn(plan: &MatchPlan, i: usize, game: &PlayedGame, tally: &Tally, terminal: bool) {
    let (a_black, _) = plan.game(i);
    let mut shown = tally.incidents.quirks.clone();
    for (color, s) in game.sightings.iter().filter(|(_, s)| s.quirk.warns()) {
        let engine = usize::from((*color == Color::Black) != a_black);
        let text = format!(
            "game {}: {}: {}: {}",
            i + 1,
            plan.specs[engine].name,
            s.quirk.describe(),
            s.detail
        );
        log::warn!("{text}");
        if shown[engine].count(s.quirk) == 0 {
            let prefix = if terminal { "\r" } else { "" };
            eprintln!("{prefix}warning: {text} (the summary counts any more)");
        }
        shown[engine].add(s);
    }
}

/// The record files that collect every game.
struct Records {
    pgn: Option<BufWriter<File>>,
    sgf: Option<BufWriter<File>>,
    /// The folder of the per-game PSQ files.
    psq: Option<PathBuf>,
}

impl Records {
    /// Opens the records `args` ask for: the PGN and SGF files for appending, the PSQ
    /// folder created.
    fn open(args: &MatchArgs) -> Result<Records, String> {
        if let Some(dir) = &args.psq {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        Ok(Records {
            pgn: args.pgn.as_deref().map(append).transpose()?,
            sgf: args.sgf.as_deref().map(append).transpose()?,
            psq: args.psq.clone(),
        })
    }

    /// Writes game `id`, the `game_in_round`-th of its `round`, to every record, each
    /// flushed at once so that an interrupted run keeps what it played.
    fn write(
        &mut self,
        id: &GameId,
        [round, game_in_round]: [usize; 2],
        [black, white]: [&str; 2],
        settings: &Settings,
        game: &PlayedGame,
    ) -> Result<(), String> {
        if let Some(w) = self.pgn.as_mut() {
            pgn::write_game(w, id, black, white, game)
                .and_then(|()| w.flush())
                .map_err(|e| format!("cannot write the PGN: {e}"))?;
        }
        if let Some(w) = self.sgf.as_mut() {
            let header = sgf::Header {
                number: id.number,
                round,
                game_in_round,
                black,
                white,
                rule: settings.rule.code(),
                size: settings.size,
            };
            sgf::write_game(w, &header, game)
                .and_then(|()| w.flush())
                .map_err(|e| format!("cannot write the SGF: {e}"))?;
        }
        if let Some(dir) = &self.psq {
            let path = dir.join(psq::file_name(id.number));
            File::create(&path)
                .and_then(|f| {
                    let mut w = BufWriter::new(f);
                    psq::write(
                        &mut w,
                        settings.size,
                        &game.moves,
                        black,
                        white,
                        &game.ending,
                    )?;
                    w.flush()
                })
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
        Ok(())
    }
}

/// The `--report` page of a run, and the games it lists.
struct Page {
    file: ReportFile,
    /// The record files the games link to.
    records: Vec<Record>,
    games: Vec<GameRow>,
}

impl Page {
    /// The page `args` ask for, linking the records they ask for.
    fn open(args: &MatchArgs) -> Result<Option<Page>, String> {
        let Some(path) = &args.report else {
            return Ok(None);
        };
        let records: Vec<Record> = [
            (RecordKind::Pgn, &args.pgn),
            (RecordKind::Sgf, &args.sgf),
            (RecordKind::Psq, &args.psq),
        ]
        .into_iter()
        .filter_map(|(kind, path)| path.clone().map(|path| Record { kind, path }))
        .collect();
        Ok(Some(Page {
            file: ReportFile::new(path, &records)?,
            records,
            games: Vec::new(),
        }))
    }

    /// Lists game `number`, played in this run by `players` (black, white).
    fn add(&mut self, number: usize, players: [&str; 2], game: &PlayedGame) {
        self.games
            .push(GameRow::played(number, players, game, &self.records));
    }

    /// Lists a game of the PGN being resumed, linked to that PGN and to its PSQ file if
    /// the earlier run wrote one (whether the SGF holds it is not known).
    fn add_resumed(&mut self, game: &pgn::ReadGame) {
        let links = self
            .records
            .iter()
            .map(|r| r.of_game(game.id.number))
            .filter(|link| match link.kind {
                RecordKind::Pgn => true,
                RecordKind::Psq => link.path.is_file(),
                RecordKind::Sgf => false,
            })
            .collect();
        self.games.push(GameRow::read(game, links));
    }
}

/// Opens a record file for appending.
fn append(path: &Path) -> Result<BufWriter<File>, String> {
    File::options()
        .create(true)
        .append(true)
        .open(path)
        .map(BufWriter::new)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))
}

fn write_records(
    plan: &MatchPlan,
    args: &MatchArgs,
    records: &mut Records,
    i: usize,
    game: &PlayedGame,
) -> Result<(), String> {
    let place = [i / args.games + 1, i % args.games + 1];
    records.write(
        &plan.schedule[i],
        place,
        plan.players(i),
        &plan.settings,
        game,
    )
}

fn summary(plan: &MatchPlan, t: &Tally, score: &MatchScore) -> String {
    let mut out = String::new();
    let mut line = |l: String| {
        out.push_str(&l);
        out.push('\n');
    };
    line(plan.title());
    line(format!("  {}", plan.played_line(t.played)));
    for (spec, about) in plan.specs.iter().zip(&t.abouts) {
        let about = about.as_deref().unwrap_or("(no ABOUT answer)");
        line(format!(
            "  {}: {}  [{about}]",
            spec.name,
            spec.argv.join(" ")
        ));
    }
    line(score.score_line(plan.names()));
    for (spec, wdl) in plan.specs.iter().zip(&score.by_colour) {
        line(format!(
            "  {}: as black {}, as white {}",
            spec.name, wdl[0], wdl[1]
        ));
    }
    line(score.elo_line());
    if let Some(los) = score.los_line() {
        line(los);
    }
    if let Some(penta) = score.penta {
        line(penta.line());
    }
    if let Some(trace) = &t.sprt {
        line(trace.report());
    }
    t.incidents
        .lines(&plan.specs, ENDINGS)
        .into_iter()
        .for_each(&mut line);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_parse() {
        assert_eq!(parse_tc("1000"), Ok((1000, None)));
        assert_eq!(parse_tc("0/1"), Ok((1000, None)));
        assert_eq!(parse_tc("120/5"), Ok((5000, Some(120_000))));
        assert_eq!(parse_tc("20/0.5"), Ok((500, Some(20_000))));
        assert_eq!(parse_tc("1000/60000ms"), Ok((1000, Some(60000))));
        assert_eq!(parse_tc("1000/0ms"), Ok((1000, None)));
        assert_eq!(parse_tc("250ms"), Ok((250, None)));
        let ambiguous = parse_tc("1000/60000").unwrap_err();
        assert!(
            ambiguous.contains("1000/60000\"") && ambiguous.contains("ms"),
            "{ambiguous}"
        );
        for bad in ["1s", "1.5", "1000/", "/1", "-1/1", "x/1ms", "nan/1"] {
            assert!(parse_tc(bad).is_err(), "{bad}");
        }
    }

    #[derive(clap::Parser)]
    struct Wrapper {
        #[command(flatten)]
        args: MatchArgs,
    }

    fn plan(line: &str) -> Result<MatchPlan, String> {
        use clap::Parser;
        let argv = std::iter::once("match").chain(line.split_whitespace());
        let w = Wrapper::try_parse_from(argv).map_err(|e| e.to_string())?;
        MatchPlan::new(&w.args, engine_specs(&w.args)?, 5)
    }

    #[test]
    fn options_reach_the_engine_they_name() {
        let p = plan(
            "--engine a --engine b --name x --option x=hash=64 --option 2=t=1 --option b=k=v=w",
        )
        .unwrap();
        assert_eq!(p.specs[0].options, [("hash".to_owned(), "64".to_owned())]);
        assert_eq!(
            p.specs[1].options,
            [
                ("t".to_owned(), "1".to_owned()),
                ("k".to_owned(), "v=w".to_owned())
            ]
        );
        assert!(plan("--engine a --engine b --option c=k=v").is_err());
    }

    #[test]
    fn equal_default_names_are_told_apart_but_equal_given_names_are_refused() {
        let p = plan("--engine e --engine e").unwrap();
        assert_eq!(
            [p.specs[0].name.as_str(), p.specs[1].name.as_str()],
            ["e", "e #2"]
        );
        assert!(plan("--engine e --engine f --name n --name n").is_err());
    }

    #[test]
    fn repeat_pairs_games_on_one_opening_with_colours_swapped() {
        let mut p = plan("--engine a --engine b --repeat --games 4").unwrap();
        p.openings = vec![vec![Pos::new(7, 7)], vec![Pos::new(1, 1)]];
        let first = |i: usize| p.game(i).1.first().copied();
        assert_eq!([p.game(0).0, p.game(1).0, p.game(2).0], [true, false, true]);
        assert_eq!(first(0), first(1));
        assert_ne!(first(1), first(2));
        assert_eq!(first(4), first(0));
    }

    #[test]
    fn default_names_drop_the_directory() {
        let argv: Vec<String> = ["/x/y/pbrain-a.exe", "--level", "easy"]
            .map(String::from)
            .to_vec();
        assert_eq!(default_name(&argv), "pbrain-a --level easy");
    }
}
