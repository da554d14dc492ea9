//! Tournaments of two engines or more: round robin or gauntlet ([`schedule`]), each game's
//! identity in its PGN tags, so that `--resume` continues a run from its PGN, `--shard K/N`
//! plays a slice of the schedule and `--merge` joins the slices' PGNs.
//!
//! The standings ([`Standings`]) are a function of the games alone, printed in schedule
//! order, so one run, a resumed run and the merge of its shards print the same block.
//! With `--resume`, the games in the PGN are checked against the schedule the command line
//! gives: a game that does not fit (another tournament, other engines) is an error rather
//! than a silent mix. An interrupted write leaves a torn last game; it is cut off the file
//! and played again.

use std::collections::BTreeSet;
use std::fs::File;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::thread;

use hoshi::board::{Color, Pos};

use super::engine::EngineSpec;
use super::incidents::Incidents;
use super::pgn::{self, ReadGame};
use super::rating::Anchor;
use super::referee::{self, PlayedGame, Player, Settings};
use super::report::{EngineRow, GameRow, Record, RecordKind, Report, ReportFile, Results};
use super::schedule::{self, Format, GameId, Shard};
use super::standings::{Outcome, Standings};
use super::stats::{GameResult, Sprt};
use super::{Common, END_GRACE, MatchArgs, Page, Records, append, parse_sprt};

/// A validated tournament.
struct Plan {
    specs: Vec<EngineSpec>,
    settings: Settings,
    format: Format,
    /// The whole schedule, whatever the shard.
    schedule: Vec<GameId>,
    openings: Vec<Vec<Pos>>,
    shard: Option<Shard>,
    concurrency: usize,
    anchor: Anchor,
    sprt: Option<Sprt>,
    seed: u64,
    /// The openings in words, for the report.
    openings_line: String,
}

impl Plan {
    fn new(args: &MatchArgs, specs: Vec<EngineSpec>, seed: u64) -> Result<Plan, String> {
        let common = Common::new(args, seed)?;
        let format = args.tournament.unwrap_or(Format::RoundRobin);
        if args.repeat && specs.len() > 2 && !args.games.is_multiple_of(2) {
            return Err(format!(
                "--repeat plays each opening twice within a round: give an even --games \
                 (got {}) with more than two engines",
                args.games
            ));
        }
        let sprt = parse_sprt(args)?;
        if sprt.is_some() && specs.len() != 2 {
            return Err("--sprt needs exactly two engines".to_owned());
        }
        let names: Vec<String> = specs.iter().map(|s| s.name.clone()).collect();
        let anchor = parse_anchor(args.anchor.as_deref(), &names)?;
        let schedule = schedule::build(
            specs.len(),
            format,
            args.games,
            args.rounds,
            args.repeat,
            common.openings.len(),
        );
        Ok(Plan {
            specs,
            settings: common.settings,
            format,
            schedule,
            openings: common.openings,
            shard: args.shard,
            concurrency: args.concurrency.max(1),
            anchor,
            sprt,
            seed,
            openings_line: common.openings_line,
        })
    }

    /// `Tournament: round robin of 3 engines`.
    fn title(&self) -> String {
        let format = match self.format {
            Format::RoundRobin => "round robin",
            Format::Gauntlet => "gauntlet",
        };
        format!("Tournament: {format} of {} engines", self.specs.len())
    }

    /// `12 of 12 games played`, with the shard and the games resumed.
    fn played_line(&self, played: usize, in_shard: usize, resumed: usize) -> String {
        let slice = match self.shard {
            Some(shard) => format!(" (shard {shard} of {} games)", self.schedule.len()),
            None => String::new(),
        };
        let resumed = if resumed > 0 {
            format!(", {resumed} of them resumed")
        } else {
            String::new()
        };
        format!("{played} of {in_shard} games played{slice}{resumed}")
    }

    fn names(&self) -> Vec<String> {
        self.specs.iter().map(|s| s.name.clone()).collect()
    }

    /// The standings after `outcomes`.
    fn standings(&self, outcomes: &[Outcome]) -> Standings {
        Standings::new(&self.names(), outcomes, self.anchor, self.sprt)
    }

    fn opening(&self, id: &GameId) -> &[Pos] {
        id.opening
            .and_then(|o| self.openings.get(o))
            .map_or(&[][..], Vec::as_slice)
    }

    fn in_shard(&self, id: &GameId) -> bool {
        self.shard.is_none_or(|s| s.holds(id))
    }
}

/// `--anchor`: absent or `first` is the first engine, `mean` the mean, else a name or a
/// number from 1.
fn parse_anchor(anchor: Option<&str>, names: &[String]) -> Result<Anchor, String> {
    match anchor {
        None | Some("first") => Ok(Anchor::Engine(0)),
        Some("mean") => Ok(Anchor::Mean),
        Some(who) => names
            .iter()
            .position(|n| n == who)
            .or_else(|| {
                who.parse::<usize>()
                    .ok()
                    .filter(|&k| (1..=names.len()).contains(&k))
                    .map(|k| k - 1)
            })
            .map(Anchor::Engine)
            .ok_or_else(|| {
                format!("--anchor {who:?} is not first, mean, nor an engine's name or number")
            }),
    }
}

/// The game's result for the pairing's first engine.
fn result_of(id: &GameId, winner: Option<Color>) -> GameResult {
    let first = if id.first_black() {
        Color::Black
    } else {
        Color::White
    };
    match winner {
        None => GameResult::Draw,
        Some(c) if c == first => GameResult::Win,
        Some(_) => GameResult::Loss,
    }
}

/// What a run knows so far: every result, resumed ones included, and what the games played
/// in this session showed besides (resumed games are not replayed).
struct Progress {
    outcomes: Vec<Outcome>,
    /// Games of the schedule (of the shard) in all.
    in_shard: usize,
    /// Games taken from the PGN being resumed.
    resumed: usize,
    incidents: Incidents,
    /// Each engine's first answer to `ABOUT`.
    abouts: Vec<Option<String>>,
}

/// Runs a tournament of `specs` as `args` say.
pub fn run(args: &MatchArgs, specs: Vec<EngineSpec>, seed: u64) -> Result<(), String> {
    let plan = Plan::new(args, specs, seed)?;
    let n = plan.specs.len();
    let resumed = match (&args.pgn, args.resume) {
        (Some(path), true) => resume(&plan, path)?,
        _ => Vec::new(),
    };
    let done: BTreeSet<usize> = resumed.iter().map(|g| g.id.number).collect();
    let todo: Vec<GameId> = plan
        .schedule
        .iter()
        .filter(|g| plan.in_shard(g) && !done.contains(&g.number))
        .copied()
        .collect();
    let mut progress = Progress {
        outcomes: resumed.iter().map(outcome).collect(),
        in_shard: plan.schedule.iter().filter(|g| plan.in_shard(g)).count(),
        resumed: done.len(),
        incidents: Incidents::new(n),
        abouts: vec![None; n],
    };
    if !done.is_empty() {
        eprintln!(
            "resuming: {} of {} games are in {}, {} to play",
            done.len(),
            progress.in_shard,
            args.pgn
                .as_deref()
                .map_or(String::new(), |p| p.display().to_string()),
            todo.len()
        );
    }
    let mut page = Page::open(args)?;
    if let Some(page) = &mut page {
        resumed.iter().for_each(|g| page.add_resumed(g));
        write_page(&plan, &progress, page, false)?;
    }
    let mut records = Records::open(args)?;
    let terminal = std::io::stderr().is_terminal();
    let next = AtomicUsize::new(0);
    let (tx, rx) = channel::<(GameId, PlayedGame, [Option<String>; 2])>();
    let mut io_error = None;
    let concurrency = plan.concurrency.clamp(1, todo.len().max(1));
    thread::scope(|scope| {
        let workers: Vec<_> = (0..concurrency)
            .map(|_| {
                let tx = tx.clone();
                let (plan, next, todo) = (&plan, &next, &todo);
                scope.spawn(move || {
                    let mut players: Vec<Player> =
                        plan.specs.iter().cloned().map(Player::new).collect();
                    while let Some(id) = todo.get(next.fetch_add(1, Ordering::Relaxed)) {
                        let Ok(seats) = players.get_disjoint_mut(id.colours()) else {
                            break;
                        };
                        let game = referee::play(seats, &plan.settings, plan.opening(id));
                        let abouts = id.colours().map(|k| players[k].about.clone());
                        if tx.send((*id, game, abouts)).is_err() {
                            break;
                        }
                    }
                    players
                        .into_iter()
                        .map(|mut p| {
                            p.quit(END_GRACE);
                            p.sightings
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        drop(tx);
        let mut played = 0;
        for (id, game, abouts) in rx {
            played += 1;
            let colours = id.colours();
            let engine_of = |c: Color| colours[usize::from(c == Color::White)];
            progress
                .incidents
                .record(&game, id.number, engine_of, &plan.specs);
            progress.outcomes.push(Outcome {
                id,
                result: result_of(&id, game.winner),
            });
            for (k, about) in colours.into_iter().zip(abouts) {
                progress.abouts[k] = progress.abouts[k].take().or(about);
            }
            let names = colours.map(|k| plan.specs[k].name.as_str());
            if let Err(e) = write_records(&plan, &mut records, &id, names, &game) {
                io_error.get_or_insert(e);
            }
            if let Some(page) = &mut page {
                page.add(id.number, names, &game);
                if let Err(e) = write_page(&plan, &progress, page, false) {
                    io_error.get_or_insert(e);
                }
            }
            let line = format!(
                "[{played}/{}] game {}: {} vs {}: {}",
                todo.len(),
                id.number,
                names[0],
                names[1],
                pgn::result_token(game.winner)
            );
            if terminal {
                eprint!("\r{line}   ");
            } else {
                eprintln!("{line}");
            }
        }
        if terminal && played > 0 {
            eprintln!();
        }
        for w in workers {
            if let Ok(found) = w.join() {
                progress.incidents.add_quirks(found);
            }
        }
    });
    let standings = plan.standings(&progress.outcomes);
    print!("{}", summary(&plan, &progress, &standings));
    if let Some(page) = &page
        && let Err(e) = page
            .file
            .write(&report_of(&plan, &progress, &standings, page, true))
    {
        io_error.get_or_insert(e);
    }
    io_error.map_or(Ok(()), Err)
}

/// A resumed or merged game's outcome.
fn outcome(game: &ReadGame) -> Outcome {
    Outcome {
        id: game.id,
        result: result_of(&game.id, game.winner),
    }
}

/// Writes the page of the tournament so far.
fn write_page(plan: &Plan, progress: &Progress, page: &Page, finished: bool) -> Result<(), String> {
    let standings = plan.standings(&progress.outcomes);
    page.file
        .write(&report_of(plan, progress, &standings, page, finished))
}

/// The report's view of the tournament, whose `standings` are those of `progress`.
fn report_of<'a>(
    plan: &'a Plan,
    progress: &'a Progress,
    standings: &'a Standings,
    page: &'a Page,
    finished: bool,
) -> Report<'a> {
    Report {
        title: plan.title(),
        facts: vec![
            plan.played_line(progress.outcomes.len(), progress.in_shard, progress.resumed),
            plan.settings.conditions(plan.seed),
            plan.openings_line.clone(),
        ],
        finished,
        engines: plan
            .specs
            .iter()
            .zip(&progress.abouts)
            .map(|(spec, about)| EngineRow {
                name: &spec.name,
                argv: &spec.argv,
                about: about.as_deref(),
            })
            .collect(),
        results: Results::Standings(standings),
        incidents: progress.incidents.lines(&plan.specs, ENDINGS),
        records: &page.records,
        games: &page.games,
    }
}

/// Reads the games of the PGN being resumed, cuts off a torn last game and checks every
/// game against the schedule.
fn resume(plan: &Plan, path: &Path) -> Result<Vec<ReadGame>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let read = pgn::read(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    if read.complete_len < text.len() {
        eprintln!(
            "resuming: dropping a game cut short at the end of {}",
            path.display()
        );
        File::options()
            .write(true)
            .open(path)
            .and_then(|f| f.set_len(read.complete_len as u64))
            .map_err(|e| format!("cannot cut the torn game off {}: {e}", path.display()))?;
    }
    // A game cut after its result line lacks the blank line that parts it from the next.
    let kept = &text[..read.complete_len];
    if !kept.is_empty() && !kept.ends_with("\n\n") {
        let mut w = append(path)?;
        w.write_all(b"\n")
            .and_then(|()| w.flush())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let mut numbers = BTreeSet::new();
    for game in &read.games {
        check_fits(plan, game).map_err(|e| format!("{}: {e}", path.display()))?;
        if !numbers.insert(game.id.number) {
            return Err(format!(
                "{}: game {} is recorded twice",
                path.display(),
                game.id.number
            ));
        }
    }
    Ok(read.games)
}

/// Whether a recorded game is the game the schedule has under its number.
fn check_fits(plan: &Plan, game: &ReadGame) -> Result<(), String> {
    let number = game.id.number;
    let hint = "resume with the command line (engines, --games, --rounds, --repeat, \
                --openings, --tournament, --shard) that wrote it";
    let Some(expected) = plan.schedule.get(number - 1) else {
        return Err(format!(
            "game {number} is beyond this schedule's {} games: {hint}",
            plan.schedule.len()
        ));
    };
    if *expected != game.id {
        return Err(format!(
            "game {number} was recorded as another game than the schedule's: {hint}"
        ));
    }
    let [black, white] = expected.colours();
    let names = [&plan.specs[black].name, &plan.specs[white].name];
    if game.names[0] != *names[0] || game.names[1] != *names[1] {
        return Err(format!(
            "game {number} is {} vs {}, the schedule has {} vs {}: {hint}",
            game.names[0], game.names[1], names[0], names[1]
        ));
    }
    if !plan.in_shard(expected) {
        return Err(format!("game {number} is not in this shard: {hint}"));
    }
    Ok(())
}

fn write_records(
    plan: &Plan,
    records: &mut Records,
    id: &GameId,
    [black, white]: [&str; 2],
    game: &PlayedGame,
) -> Result<(), String> {
    let first_of_round = plan
        .schedule
        .iter()
        .find(|g| g.round == id.round)
        .map_or(id.number, |g| g.number);
    let place = [id.round, id.number - first_of_round + 1];
    records.write(id, place, [black, white], &plan.settings, game)
}

/// The summary's heading of the endings, faults and quirks: resumed games are not counted.
const ENDINGS: &str = "Endings (this run)";

fn summary(plan: &Plan, progress: &Progress, standings: &Standings) -> String {
    let mut out = String::new();
    let mut line = |l: String| {
        out.push_str(&l);
        out.push('\n');
    };
    line(format!(
        "{}; {}",
        plan.title(),
        plan.played_line(progress.outcomes.len(), progress.in_shard, progress.resumed)
    ));
    line(format!("  {}", plan.settings.conditions(plan.seed)));
    for (k, (spec, about)) in plan.specs.iter().zip(&progress.abouts).enumerate() {
        let about = about.as_deref().unwrap_or("(no ABOUT answer)");
        line(format!(
            "  {} {}: {}  [{about}]",
            k + 1,
            spec.name,
            spec.argv.join(" ")
        ));
    }
    out.push_str(&standings.to_string());
    for l in progress.incidents.lines(&plan.specs, ENDINGS) {
        out.push_str(&l);
        out.push('\n');
    }
    out
}

/// `--merge`: the standings of the games in `args.merge`, as one run of them prints them.
/// With `--pool` each file is a run of its own, numbered from 1: its games are renumbered
/// after the files before it, by an even count, so that each file's pairs stay pairs and
/// keep their colours.
pub fn merge(args: &MatchArgs) -> Result<(), String> {
    let inputs: Vec<Record> = args
        .merge
        .iter()
        .map(|path| Record {
            kind: RecordKind::Pgn,
            path: path.clone(),
        })
        .collect();
    let page = args
        .report
        .as_deref()
        .map(|path| ReportFile::new(path, &inputs))
        .transpose()?;
    let mut games: Vec<GameRow> = Vec::new();
    let mut names: Vec<Option<String>> = Vec::new();
    let mut outcomes: Vec<Outcome> = Vec::new();
    // Where each game number was found, to name both files of a duplicate.
    let mut found: Vec<(usize, &Path)> = Vec::new();
    // What `--pool` adds to the next file's game numbers and pairing games.
    let (mut number_base, mut pairing_base) = (0, 0);
    for (path, input) in args.merge.iter().zip(&inputs) {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let read = pgn::read(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        if read.complete_len < text.len() {
            eprintln!(
                "warning: {}: a game cut short at the end is left out",
                path.display()
            );
        }
        let (mut last_number, mut last_pairing_game) = (number_base, pairing_base);
        for mut game in read.games {
            let in_file = game.id.number;
            if args.pool {
                game.id.number += number_base;
                game.id.pairing_game += pairing_base;
                last_number = last_number.max(game.id.number);
                last_pairing_game = last_pairing_game.max(game.id.pairing_game);
            }
            if let Some((_, other)) = found.iter().find(|(n, _)| *n == game.id.number) {
                return Err(format!(
                    "game {} is in both {} and {}: merge the shards of one tournament, \
                     each once (--pool joins separate runs)",
                    game.id.number,
                    other.display(),
                    path.display()
                ));
            }
            found.push((game.id.number, path));
            for (engine, name) in game.id.colours().into_iter().zip(&game.names) {
                if names.len() <= engine {
                    names.resize(engine + 1, None);
                }
                match &names[engine] {
                    Some(known) if known != name => {
                        return Err(format!(
                            "{}: game {} names engine {} {name:?}, another game {known:?}",
                            path.display(),
                            game.id.number,
                            engine + 1
                        ));
                    }
                    Some(_) => {}
                    None => names[engine] = Some(name.clone()),
                }
            }
            outcomes.push(outcome(&game));
            if page.is_some() {
                games.push(GameRow::read(&game, vec![input.of_game(in_file)]));
            }
        }
        number_base = last_number;
        pairing_base = last_pairing_game.next_multiple_of(2);
    }
    let names: Vec<String> = names
        .into_iter()
        .enumerate()
        .map(|(k, n)| n.unwrap_or_else(|| format!("engine {}", k + 1)))
        .collect();
    let anchor = parse_anchor(args.anchor.as_deref(), &names)?;
    let sprt = parse_sprt(args)?;
    let standings = Standings::new(&names, &outcomes, anchor, sprt);
    print!("{standings}");
    let Some(page) = page else {
        return Ok(());
    };
    let files: Vec<String> = args.merge.iter().map(|p| p.display().to_string()).collect();
    page.write(&Report {
        title: format!("Merged standings of {} engines", names.len()),
        facts: vec![format!(
            "{} games from {} PGN files: {}",
            outcomes.len(),
            files.len(),
            files.join(", ")
        )],
        finished: true,
        engines: names
            .iter()
            .map(|name| EngineRow {
                name,
                argv: &[],
                about: None,
            })
            .collect(),
        results: Results::Standings(&standings),
        incidents: Vec::new(),
        records: &inputs,
        games: &games,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_are_named_numbered_or_the_mean() {
        let names = ["a", "b"].map(String::from);
        assert_eq!(parse_anchor(None, &names), Ok(Anchor::Engine(0)));
        assert_eq!(parse_anchor(Some("b"), &names), Ok(Anchor::Engine(1)));
        assert_eq!(parse_anchor(Some("2"), &names), Ok(Anchor::Engine(1)));
        assert_eq!(parse_anchor(Some("mean"), &names), Ok(Anchor::Mean));
        assert!(parse_anchor(Some("3"), &names).is_err());
    }

    #[test]
    fn results_are_seen_from_the_pairings_first_engine() {
        let s = schedule::build(2, Format::RoundRobin, 2, 1, false, 0);
        assert_eq!(result_of(&s[0], Some(Color::Black)), GameResult::Win);
        assert_eq!(result_of(&s[1], Some(Color::Black)), GameResult::Loss);
        assert_eq!(result_of(&s[1], None), GameResult::Draw);
    }
}
