//! The command line: with no subcommand Hoshi speaks the protocol, as managers expect.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use hoshi::levels::{Level, Strength};

/// Hoshi, a Gomoku and Renju engine for the Gomocup (Piskvork) protocol.
///
/// Run with no arguments it speaks the protocol on stdin/stdout, which is how Piskvork,
/// the Gomocup judge, c-gomoku-cli and liskvork start it. A copy named
/// `pbrain-hoshi-easy`, `-normal`, `-hard` or `-master` plays that level by default, and
/// `pbrain-hoshi-master50` (any strength 0 to 100 after `master`) master at that strength.
#[derive(Debug, Parser)]
#[command(name = "pbrain-hoshi", version, about, long_about)]
pub struct Cli {
    #[command(flatten)]
    pub playing: Playing,

    #[command(flatten)]
    pub weights: Weights,

    /// Seed for the random choices (the easy level, master below full strength); a fresh
    /// seed per game when absent.
    /// For `match`: the seed of the random opening order.
    #[arg(long, global = true, value_name = "N")]
    pub seed: Option<u64>,

    /// Write the log to this file (stdout and stderr stay clean). Filter with HOSHI_LOG
    /// (e.g. `debug`, `pbrain_hoshi=trace`), default `info`.
    #[arg(long, global = true, value_name = "PATH", env = "HOSHI_LOG_FILE")]
    pub log_file: Option<PathBuf>,

    #[command(subcommand)]
    pub tool: Option<Tool>,
}

/// How Hoshi plays: given before any subcommand for the protocol mode, or to `protocol`
/// and `play` (the subcommand's value wins).
#[derive(Debug, Default, Args)]
pub struct Playing {
    /// Playing level: easy, normal, hard (the three classic levels) or master (full
    /// strength; the default, unless the executable's name says otherwise).
    /// `INFO level NAME` changes it through the protocol.
    #[arg(long, value_name = "NAME")]
    pub level: Option<Level>,

    /// Master's strength, 0 (weakest) to 100 (full, the default): blind spots, a node
    /// budget and a bounded random pick among the best few moves, graded between hard
    /// and full master. `INFO strength N` changes it through the protocol.
    #[arg(long, value_name = "0-100")]
    pub strength: Option<Strength>,

    /// Master at the strength whose rating is nearest to ELO: Elo at 1 s a move,
    /// freestyle 15x15, pela (Piskvork's brain) = 0, from strength 0's rating to full
    /// master's (README: "Strength"). `INFO elo N` does the same through the protocol.
    #[arg(long, value_name = "ELO", conflicts_with = "strength", allow_negative_numbers = true, value_parser = parse_elo)]
    pub elo: Option<Strength>,
}

/// `--elo`'s value: a whole number, the nearest strength.
fn parse_elo(text: &str) -> Result<Strength, String> {
    text.trim()
        .parse()
        .map(Strength::for_elo)
        .map_err(|_| format!("'{text}' is not a whole number of Elo"))
}

impl Playing {
    /// These values, any missing one taken from `outer` (the options before the
    /// subcommand).
    #[must_use]
    pub fn or(&self, outer: &Playing) -> Playing {
        Playing {
            level: self.level.or(outer.level),
            strength: self.strength.or(outer.strength),
            elo: self.elo.or(outer.elo),
        }
    }

    /// Master's strength as `--strength` or `--elo` chose it (they exclude each other).
    #[must_use]
    pub fn chosen_strength(&self) -> Option<Strength> {
        self.strength.or(self.elo)
    }
}

/// The evaluation's weights: before any subcommand, or to `protocol`, `datagen`, `rescore` and
/// `analyse` (the subcommand's value wins).
#[derive(Debug, Default, Args)]
pub struct Weights {
    /// Evaluate with this weights file (written by `train`: its tables alone), or add this
    /// network file (written by `nn/train.py`) to the built-in tables for its rule, instead
    /// of the built-in evaluation: the built-in tables, with the built-in freestyle and
    /// renju networks (15x15 boards) for the protocol and `analyse`, without them for
    /// `datagen` and `rescore`. The built-in tables alone: `--weights
    /// crates/engine/src/eval/default.weights`. `INFO weights FILE` changes it through the
    /// protocol.
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
}

impl Weights {
    /// This file, or `outer`'s.
    #[must_use]
    pub fn or(&self, outer: &Weights) -> Option<PathBuf> {
        self.weights.clone().or_else(|| outer.weights.clone())
    }
}

/// What to run instead of the protocol: the subcommands, each a tool of `hoshi-tools` or
/// the bench.
#[derive(Debug, Subcommand)]
pub enum Tool {
    /// Speak the Gomocup protocol on stdin/stdout (the default).
    Protocol {
        #[command(flatten)]
        playing: Playing,
        #[command(flatten)]
        weights: Weights,
    },
    /// Play a match between two pbrain engines, or a tournament of more, and rate them (the
    /// global --seed orders random openings).
    Match(Box<hoshi_tools::matches::MatchArgs>),
    /// Self-play games for training the evaluation, appended to a game file (the global
    /// --seed seeds them, --weights plays them).
    Datagen {
        #[command(flatten)]
        weights: Weights,
        #[command(flatten)]
        args: Box<hoshi_tools::datagen::DatagenArgs>,
    },
    /// Fit the evaluation's tables to self-play games and write a weights file.
    Train(Box<hoshi_tools::train::TrainArgs>),
    /// Export the positions `train` fits, with the engine's pattern codes, labels and the
    /// tables' own values, for the network trainer in nn/ (docs/network.md).
    Features(Box<hoshi_tools::features::FeaturesArgs>),
    /// Convert another engine's self-play games (Rapfi's `selfplay --output-type txt`) into
    /// a game file `train` and `features` read.
    Import(Box<hoshi_tools::import::ImportArgs>),
    /// Search a game file's positions again at a node budget (--weights evaluates): the
    /// same games with this search's scores.
    Rescore {
        #[command(flatten)]
        weights: Weights,
        #[command(flatten)]
        args: Box<hoshi_tools::rescore::RescoreArgs>,
    },
    /// Play against Hoshi in the terminal (--level, --strength and the global --seed choose
    /// its play).
    Play {
        #[command(flatten)]
        playing: Playing,
        #[command(flatten)]
        args: Box<hoshi_tools::play::PlayArgs>,
    },
    /// Analyse a position: the evaluation, the principal variation, the best moves.
    #[command(alias = "analyze")]
    Analyse {
        #[command(flatten)]
        weights: Weights,
        #[command(flatten)]
        args: Box<hoshi_tools::analyse::AnalyseArgs>,
    },
    /// Search fixed positions to a fixed depth with the built-in evaluation and print nodes,
    /// time and speed.
    Bench {
        /// Depth of every search.
        #[arg(long, default_value_t = hoshi::bench::DEFAULT_DEPTH)]
        depth: u32,
    },
}
