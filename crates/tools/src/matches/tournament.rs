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
use super::schedule::{self, Format, GameId, Shard};
use super::standings::{Outcome, Standings};
use super::stats::{GameResult, Sprt};
use super::{Common, END_GRACE, MatchArgs, Records, append, parse_sprt};

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

/// Runs a tournament of `specs` as `args` say.
pub fn run(args: &MatchArgs, specs: Vec<EngineSpec>, seed: u64) -> Result<(), String> {
    let plan = Plan::new(args, specs, seed)?;
    let n = plan.specs.len();
    let mut outcomes: Vec<Outcome> = Vec::new();
    if args.resume
        && let Some(path) = &args.pgn
    {
        outcomes = resume(&plan, path)?;
    }
    let done: BTreeSet<usize> = outcomes.iter().map(|o| o.id.number).collect();
    let todo: Vec<GameId> = plan
        .schedule
        .iter()
        .filter(|g| plan.in_shard(g) && !done.contains(&g.number))
        .copied()
        .collect();
    let in_shard = plan.schedule.iter().filter(|g| plan.in_shard(g)).count();
    if !done.is_empty() {
        eprintln!(
            "resuming: {} of {in_shard} games are in {}, {} to play",
            done.len(),
            args.pgn
                .as_deref()
                .map_or(String::new(), |p| p.display().to_string()),
            todo.len()
        );
    }
    let mut records = Records::open(args)?;
    // What this session saw beyond the results (resumed games are not replayed).
    let mut seen = Incidents::new(n);
    let terminal = std::io::stderr().is_terminal();
    let next = AtomicUsize::new(0);
    let (tx, rx) = channel::<(GameId, PlayedGame)>();
    let mut io_error = None;
    let concurrency = plan.concurrency.clamp(1, todo.len().max(1));
    let abouts = thread::scope(|scope| {
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
                        if tx.send((*id, game)).is_err() {
                            break;
                        }
                    }
                    players
                        .into_iter()
                        .map(|mut p| {
                            p.quit(END_GRACE);
                            (p.about, p.sightings)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        drop(tx);
        let mut played = 0;
        for (id, game) in rx {
            played += 1;
            let [black, white] = id.colours();
            let colours = id.colours();
            let engine_of = |c: Color| colours[usize::from(c == Color::White)];
            seen.record(&game, id.number, engine_of, &plan.specs);
            outcomes.push(Outcome {
                id,
                result: result_of(&id, game.winner),
            });
            let names = [&plan.specs[black].name, &plan.specs[white].name];
            if let Err(e) = write_records(&plan, &mut records, &id, names, &game) {
                io_error.get_or_insert(e);
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
        let mut abouts: Vec<Option<String>> = vec![None; n];
        for w in workers {
            if let Ok(found) = w.join() {
                for (k, (about, sightings)) in found.into_iter().enumerate() {
                    abouts[k] = abouts[k].take().or(about);
                    sightings.iter().for_each(|s| seen.quirks[k].add(s));
                }
            }
        }
        abouts
    });
    print!(
        "{}",
        summary(&plan, &outcomes, in_shard, done.len(), &seen, &abouts)
    );
    io_error.map_or(Ok(()), Err)
}

/// Reads the games of the PGN being resumed, cuts off a torn last game and checks every
/// game against the schedule.
fn resume(plan: &Plan, path: &Path) -> Result<Vec<Outcome>, String> {
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
    let mut outcomes = Vec::new();
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
        outcomes.push(Outcome {
            id: game.id,
            result: result_of(&game.id, game.winner),
        });
    }
    Ok(outcomes)
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
    [black, white]: [&String; 2],
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

fn summary(
    plan: &Plan,
    outcomes: &[Outcome],
    in_shard: usize,
    resumed: usize,
    seen: &Incidents,
    abouts: &[Option<String>],
) -> String {
    let mut out = String::new();
    let mut line = |l: String| {
        out.push_str(&l);
        out.push('\n');
    };
    line(format!(
        "{}; {}",
        plan.title(),
        plan.played_line(outcomes.len(), in_shard, resumed)
    ));
    line(format!("  {}", plan.settings.conditions(plan.seed)));
    for (k, (spec, about)) in plan.specs.iter().zip(abouts).enumerate() {
        let about = about.as_deref().unwrap_or("(no ABOUT answer)");
        line(format!(
            "  {} {}: {}  [{about}]",
            k + 1,
            spec.name,
            spec.argv.join(" ")
        ));
    }
    out.push_str(&Standings::new(&plan.names(), outcomes, plan.anchor, plan.sprt).to_string());
    for l in seen.lines(&plan.specs, "Endings (this run)") {
        out.push_str(&l);
        out.push('\n');
    }
    out
}

/// `--merge`: the standings of the games in `args.merge`, as one run of them prints them.
pub fn merge(args: &MatchArgs) -> Result<(), String> {
    let mut names: Vec<Option<String>> = Vec::new();
    let mut outcomes: Vec<Outcome> = Vec::new();
    // Where each game number was found, to name both files of a duplicate.
    let mut found: Vec<(usize, &Path)> = Vec::new();
    for path in &args.merge {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let read = pgn::read(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        if read.complete_len < text.len() {
            eprintln!(
                "warning: {}: a game cut short at the end is left out",
                path.display()
            );
        }
        for game in read.games {
            if let Some((_, other)) = found.iter().find(|(n, _)| *n == game.id.number) {
                return Err(format!(
                    "game {} is in both {} and {}: merge the shards of one tournament, \
                     each once",
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
            outcomes.push(Outcome {
                id: game.id,
                result: result_of(&game.id, game.winner),
            });
        }
    }
    let names: Vec<String> = names
        .into_iter()
        .enumerate()
        .map(|(k, n)| n.unwrap_or_else(|| format!("engine {}", k + 1)))
        .collect();
    let anchor = parse_anchor(args.anchor.as_deref(), &names)?;
    let sprt = parse_sprt(args)?;
    print!("{}", Standings::new(&names, &outcomes, anchor, sprt));
    Ok(())
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
