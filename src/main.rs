//! `pbrain-hoshi`: the protocol by default, tools behind subcommands.

use std::process::ExitCode;

use clap::Parser;

use hoshi::bench;
use hoshi::eval::Evaluator;
use hoshi::levels::{Level, Strength};
use pbrain_hoshi::cli::{Cli, Playing, Tool, Weights};
use pbrain_hoshi::logging;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let protocol_mode = matches!(cli.tool, None | Some(Tool::Protocol { .. }));
    if let Err(e) = logging::init(cli.log_file.as_deref()) {
        if protocol_mode {
            // stderr belongs to the manager here: run without a log rather than speak.
        } else {
            eprintln!("pbrain-hoshi: cannot open the log file: {e}");
            return ExitCode::FAILURE;
        }
    }
    // A bad --weights is a bad command line: said at once, before any protocol.
    // Master plays with the built-in networks; the data tools' default is the tables.
    let evaluator = |weights: &Weights, builtin: fn() -> Evaluator| match weights.or(&cli.weights) {
        None => Ok(builtin()),
        Some(path) => Evaluator::load(&path).map_err(|e| {
            eprintln!("pbrain-hoshi: --weights {}: {e}", path.display());
            ExitCode::from(2)
        }),
    };
    let outer = Playing::default();
    let (playing, weights) = match &cli.tool {
        Some(Tool::Protocol { playing, weights }) => (playing, weights),
        _ => (&outer, &Weights::default()),
    };
    match &cli.tool {
        None | Some(Tool::Protocol { .. }) => {
            let playing = playing.or(&cli.playing);
            let evaluator = match evaluator(weights, Evaluator::builtin) {
                Ok(e) => e,
                Err(code) => return code,
            };
            logging::silence_panics();
            // `args_os`: a path that is not valid Unicode must not stop the engine.
            let exe = std::env::args_os().next().unwrap_or_default();
            let (exe_level, exe_strength) = Level::from_exe_name(&exe.to_string_lossy()).unzip();
            let level = playing.level.or(exe_level).unwrap_or(Level::DEFAULT);
            let strength = playing
                .chosen_strength()
                .or(exe_strength.flatten())
                .unwrap_or(Strength::FULL);
            pbrain_hoshi::run(pbrain_hoshi::Options {
                level,
                strength,
                seed: cli.seed,
                evaluator,
            });
            ExitCode::SUCCESS
        }
        Some(Tool::Match(args)) => tool_result("match", hoshi_tools::matches::run(args, cli.seed)),
        Some(Tool::Datagen { weights, args }) => {
            let evaluator = match evaluator(weights, Evaluator::default) {
                Ok(e) => e,
                Err(code) => return code,
            };
            let seed = cli.seed.unwrap_or(0);
            tool_result("datagen", hoshi_tools::datagen::run(args, seed, &evaluator))
        }
        Some(Tool::Train(args)) => tool_result(
            "train",
            hoshi_tools::train::run(args, cli.seed.unwrap_or(0)),
        ),
        Some(Tool::Features(args)) => tool_result(
            "features",
            hoshi_tools::features::run(args, cli.seed.unwrap_or(0)).map(|_| ()),
        ),
        Some(Tool::Import(args)) => tool_result("import", hoshi_tools::import::run(args)),
        Some(Tool::Rescore { weights, args }) => {
            let evaluator = match evaluator(weights, Evaluator::default) {
                Ok(e) => e,
                Err(code) => return code,
            };
            tool_result("rescore", hoshi_tools::rescore::run(args, &evaluator))
        }
        Some(Tool::Play { playing, args }) => {
            let playing = playing.or(&cli.playing);
            let opponent = hoshi_tools::play::Opponent {
                level: playing.level.unwrap_or(Level::DEFAULT),
                strength: playing.chosen_strength().unwrap_or(Strength::FULL),
                seed: cli.seed,
            };
            tool_result("play", hoshi_tools::play::run(args, opponent))
        }
        Some(Tool::Analyse { weights, args }) => {
            let evaluator = match evaluator(weights, Evaluator::builtin) {
                Ok(e) => e,
                Err(code) => return code,
            };
            tool_result("analyse", hoshi_tools::analyse::run(args, evaluator))
        }
        Some(Tool::Bench { depth }) => run_bench(*depth),
    }
}

/// A tool's exit: its error on stderr and status 2.
fn tool_result(tool: &str, result: Result<(), impl std::fmt::Display>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pbrain-hoshi {tool}: {e}");
            ExitCode::from(2)
        }
    }
}

/// `bench`: one line per position, then the total whose node count commit messages quote
/// (`Bench: N`): it changes only when the search does.
fn run_bench(depth: u32) -> ExitCode {
    let start = std::time::Instant::now();
    let mut total = 0u64;
    let outcome = bench::run(depth, &mut |o| {
        total += o.nodes;
        println!(
            "{:<10} nodes {:>10} best {:>5} time {:>6} ms",
            o.rule.to_string(),
            o.nodes,
            o.best.to_string(),
            o.elapsed.as_millis()
        );
    });
    if let Err(e) = outcome {
        eprintln!("pbrain-hoshi: bench position: {e}");
        return ExitCode::FAILURE;
    }
    let elapsed = start.elapsed();
    let nps = u128::from(total) * 1000 / elapsed.as_millis().max(1);
    println!(
        "depth {depth}: {total} nodes, {} ms, {nps} nodes/s",
        elapsed.as_millis()
    );
    ExitCode::SUCCESS
}
