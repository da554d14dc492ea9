//! What a run saw besides the results: how its games ended, and each engine's faults and
//! quirks. The two-engine match and the tournament count and print them alike.

use hoshi::board::Color;

use super::engine::{EngineSpec, FaultKind};
use super::quirks::{QuirkCounts, Sighting};
use super::referee::{PlayedGame, Termination};

/// The endings, faults and quirks of the games recorded so far.
#[derive(Clone, Debug)]
pub struct Incidents {
    /// Five, foul, full board, fault, adjudicated.
    pub endings: [u32; 5],
    /// Per engine, its faults by kind (in [`FaultKind::ALL`]'s order).
    pub faults: Vec<[u32; FaultKind::ALL.len()]>,
    /// One line per fault: the game, the engine and what it did.
    pub fault_log: Vec<String>,
    /// Per engine, its quirks.
    pub quirks: Vec<QuirkCounts>,
}

impl Incidents {
    /// Nothing seen yet, of `engines` engines.
    #[must_use]
    pub fn new(engines: usize) -> Incidents {
        Incidents {
            endings: [0; 5],
            faults: vec![[0; FaultKind::ALL.len()]; engines],
            fault_log: Vec::new(),
            quirks: vec![QuirkCounts::default(); engines],
        }
    }

    /// Counts game `number` (from 1), whose colours `engine_of` maps to engine indices
    /// into `specs`.
    pub fn record(
        &mut self,
        game: &PlayedGame,
        number: usize,
        engine_of: impl Fn(Color) -> usize,
        specs: &[EngineSpec],
    ) {
        self.endings[match game.ending {
            Termination::Five => 0,
            Termination::Foul(_) => 1,
            Termination::FullBoard => 2,
            Termination::Fault(_) => 3,
            Termination::Adjudicated(_) => 4,
        }] += 1;
        for (color, sighting) in &game.sightings {
            self.quirks[engine_of(*color)].add(sighting);
        }
        if let (Termination::Fault(f), Some(winner)) = (&game.ending, game.winner) {
            let loser = engine_of(winner.opponent());
            if let Some(k) = FaultKind::ALL.iter().position(|&k| k == f.kind) {
                self.faults[loser][k] += 1;
            }
            self.fault_log
                .push(format!("game {number}: {}: {f}", specs[loser].name));
        }
    }

    /// Adds the quirks the engines showed outside any game (at their start and end), as a
    /// worker hands them back: each engine's sightings, in the run's engine order.
    pub fn add_quirks(&mut self, per_engine: impl IntoIterator<Item = Vec<Sighting>>) {
        for (quirks, sightings) in self.quirks.iter_mut().zip(per_engine) {
            sightings.iter().for_each(|s| quirks.add(s));
        }
    }

    /// The summary's lines: `{endings}: five …`, then each engine's faults (and the fault
    /// log) and quirks.
    #[must_use]
    pub fn lines(&self, specs: &[EngineSpec], endings: &str) -> Vec<String> {
        let [five, foul, full, fault, adjudicated] = self.endings;
        let mut out = vec![format!(
            "{endings}: five {five}, foul {foul}, full board {full}, fault {fault}, \
             adjudicated {adjudicated}"
        )];
        for (spec, counts) in specs.iter().zip(&self.faults) {
            let kinds: Vec<String> = FaultKind::ALL
                .iter()
                .zip(counts)
                .filter(|&(_, &n)| n > 0)
                .map(|(k, n)| format!("{k} {n}"))
                .collect();
            let kinds = if kinds.is_empty() {
                "none".to_owned()
            } else {
                kinds.join(", ")
            };
            out.push(format!("Faults of {}: {kinds}", spec.name));
        }
        out.extend(self.fault_log.iter().map(|entry| format!("  {entry}")));
        for (spec, quirks) in specs.iter().zip(&self.quirks) {
            out.push(format!("Quirks of {}: {quirks}", spec.name));
        }
        out
    }
}
