//! Logging to a file, and a panic hook that keeps stderr silent.
//!
//! Piskvork hands the engine a copy of its reply pipe as stderr, so in protocol mode any
//! byte on stderr is read as an answer. Logs therefore go to a file or nowhere, and a panic
//! is reported to the log only.

use std::fs::File;
use std::path::Path;

/// The environment variable holding the log filter (env_logger syntax).
pub const FILTER_ENV: &str = "HOSHI_LOG";

/// Sends log records to `path`, filtered by `HOSHI_LOG` (default `info`). Without a path
/// logging stays off. A file that cannot be created is reported as an error to the caller.
pub fn init(path: Option<&Path>) -> std::io::Result<()> {
    let Some(path) = path else {
        return Ok(());
    };
    let file = File::create(path)?;
    env_logger::Builder::new()
        .parse_filters(&std::env::var(FILTER_ENV).unwrap_or_else(|_| "info".to_string()))
        .target(env_logger::Target::Pipe(Box::new(file)))
        .format_timestamp_millis()
        .try_init()
        .map_err(std::io::Error::other)
}

/// Replaces the default panic hook (which prints to stderr) with one that only logs.
pub fn silence_panics() {
    std::panic::set_hook(Box::new(|info| {
        log::error!("panic: {info}");
        log::logger().flush();
    }));
}
