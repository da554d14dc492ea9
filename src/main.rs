//! `pbrain-hoshi`: the protocol by default, tools behind subcommands.

use std::process::ExitCode;

use clap::Parser;

use hoshi::cli::{Cli, Command};
use hoshi::levels::Level;
use hoshi::{logging, protocol};

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
            let exe = std::env::args().next().unwrap_or_default();
            let level = cli
                .level
                .or_else(|| Level::from_exe_name(&exe))
                .unwrap_or(Level::DEFAULT);
            protocol::run(protocol::Options {
                level,
                seed: cli.seed,
            });
            ExitCode::SUCCESS
        }
    }
}
