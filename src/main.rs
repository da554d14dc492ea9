//! `pbrain-hoshi`: the protocol by default, tools behind subcommands.

use std::process::ExitCode;

use clap::Parser;

use hoshi::cli::{Cli, Command};
use hoshi::levels::{Level, Strength};
use hoshi::{bench, logging, protocol};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let protocol_mode = matches!(cli.command, None | Some(Command::Protocol));
    if let Err(e) = logging::init(cli.log_file.as_deref()) {
        if protocol_mode {
            // stderr belongs to the manager here: run without a log rather than speak.
        } else {
            eprintln!("pbrain-hoshi: cannot open the log file: {e}");
            return ExitCode::FAILURE;
        }
    }
    match cli.command {
        None | Some(Command::Protocol) => {
            logging::silence_panics();
            // `args_os`: a path that is not valid Unicode must not stop the engine.
            let exe = std::env::args_os().next().unwrap_or_default();
            let (exe_level, exe_strength) = Level::from_exe_name(&exe.to_string_lossy()).unzip();
            let level = cli.level.or(exe_level).unwrap_or(Level::DEFAULT);
            let strength = cli
                .strength
                .or(exe_strength.flatten())
                .unwrap_or(Strength::FULL);
            protocol::run(protocol::Options {
                level,
                strength,
                seed: cli.seed,
            });
            ExitCode::SUCCESS
        }
        Some(Command::Match(args)) => match hoshi::tools::matches::run(&args, cli.seed) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("pbrain-hoshi match: {e}");
                ExitCode::from(2)
            }
        },
        Some(Command::Bench { depth }) => run_bench(depth),
    }
}

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
