//! The Gomocup (Piskvork) protocol on stdin/stdout.
//!
//! Two threads: the reader ([`reader`]) turns stdin into typed [`command::Command`]s and
//! acts on the interrupts (END, STOP/YXSTOP, `INFO timeout_turn 0`) at once; the session
//! ([`session`]) applies the commands in order and is the only writer of stdout
//! ([`reply`]). The session runs on its own thread with a large stack, for deep searches.

pub mod command;
pub mod reader;
pub mod reply;
pub mod session;

use std::io;
use std::sync::Arc;
use std::sync::mpsc;
use std::thread;

use crate::eval::Evaluator;
use crate::levels::{Level, Strength};
use reader::{Ending, StopControl};
use session::Session;

/// Stack of the session thread: searches recurse, and Windows gives new threads 1 MiB.
/// Reserved, not committed, so it costs no memory until used.
const SESSION_STACK: usize = 64 * 1024 * 1024;

/// Start-up settings for a protocol session.
#[derive(Clone, Debug)]
pub struct Options {
    /// The level played until `INFO level` changes it.
    pub level: Level,
    /// Master's strength until `INFO strength` changes it.
    pub strength: Strength,
    /// Seed for the random generator, used afresh for every game; a fresh one per game
    /// when `None`.
    pub seed: Option<u64>,
    /// Master's evaluation until `INFO weights` changes it.
    pub evaluator: Evaluator,
}

/// Speaks the protocol on stdin/stdout until END or end of input. END leaves the process
/// at once, even mid-search, without another byte of output.
pub fn run(options: Options) {
    let stop = Arc::new(StopControl::default());
    let (tx, rx) = mpsc::channel();
    let session_stop = Arc::clone(&stop);
    let session = thread::Builder::new()
        .name("session".into())
        .stack_size(SESSION_STACK)
        .spawn(move || Session::new(options, session_stop, io::stdout()).serve(&rx));
    let session = match session {
        Ok(handle) => handle,
        Err(e) => {
            log::error!("cannot start the session thread: {e}");
            return;
        }
    };
    match reader::read(io::stdin().lock(), &tx, &stop) {
        Ending::End => {
            log::info!("END");
            log::logger().flush();
            std::process::exit(0);
        }
        Ending::Eof => {
            log::info!("end of input");
            // Answer what is queued at once: a manager closing our input wants us gone.
            stop.stop_through(u64::MAX);
            drop(tx);
            if session.join().is_err() {
                log::error!("the session thread panicked");
            }
        }
    }
}
