//! `pbrain-hoshi`, the program: the Gomocup (Piskvork) protocol on stdin/stdout, and the
//! command line that reaches the tools.
//!
//! Two threads: the reader ([`reader`]) turns stdin into typed commands
//! ([`hoshi_protocol`]) and acts on the interrupts (END, STOP/YXSTOP, `INFO timeout_turn
//! 0`) at once; the session ([`session`]) applies the commands in order and is the only
//! writer of stdout ([`reply`]). The session runs on its own thread with a large stack, for
//! deep searches. The engine itself is the `hoshi` crate; the tools are `hoshi-tools`.
//!
//! The session plays the game; the dialogues beside it (swap2, balancing, Yixin-Board's
//! analysis and questions) live in `dialogue`. Both work on the same parts (`state`: the
//! settings and the game in progress) through one prologue for every request that thinks
//! (`thinking`). Why a request is refused ([`error`]) sits below both the session and the
//! replies. Imports go one way only: no two of these modules import each other.

pub mod cli;
mod dialogue;
pub mod error;
pub mod logging;
pub mod reader;
pub mod reply;
pub mod session;
mod state;
mod thinking;

pub use session::Options;

use std::io;
use std::sync::Arc;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::Duration;

use reader::{InputEnd, StopControl};
use session::Session;

/// Stack of the session thread: searches recurse, and Windows gives new threads 1 MiB.
/// Reserved, not committed, so it costs no memory until used.
const SESSION_STACK: usize = 64 * 1024 * 1024;

/// How long the process may take, after reading END, to answer what came with it. Managers
/// allow an engine about half a second to leave (GomocupJudge 0.5 s, Piskvork 0.7 s).
const END_GRACE: Duration = Duration::from_millis(400);

/// Speaks the protocol on stdin/stdout until END or end of input. Either way the commands
/// still queued are answered at once (searches cut short) and the process leaves; after
/// END it leaves within `END_GRACE` whatever is left, and a search END interrupted is
/// not answered (see [`reader`]).
pub fn run(options: Options) {
    let stop = Arc::new(StopControl::default());
    let (tx, rx) = mpsc::channel();
    // Dropped when the session thread ends: its receiver then learns that it is done.
    let (done_tx, done_rx) = mpsc::channel::<()>();
    let session_stop = Arc::clone(&stop);
    let session = thread::Builder::new()
        .name("session".into())
        .stack_size(SESSION_STACK)
        .spawn(move || {
            let _done = done_tx;
            Session::new(options, session_stop, io::stdout()).serve(&rx);
        });
    let session = match session {
        Ok(handle) => handle,
        Err(e) => {
            log::error!("cannot start the session thread: {e}");
            return;
        }
    };
    let ending = reader::read(io::stdin().lock(), &tx, &stop);
    // Answer what is queued at once: a manager closing our input or sending END wants us
    // gone.
    stop.stop_through(u64::MAX);
    drop(tx);
    match ending {
        InputEnd::End => {
            log::info!("END");
            if done_rx.recv_timeout(END_GRACE) == Err(RecvTimeoutError::Timeout) {
                log::warn!("still answering {END_GRACE:?} after END; leaving");
            }
            log::logger().flush();
            std::process::exit(0);
        }
        InputEnd::Eof => {
            log::info!("end of input");
            if session.join().is_err() {
                log::error!("the session thread panicked");
            }
        }
    }
}
