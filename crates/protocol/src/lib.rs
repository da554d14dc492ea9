//! The Gomocup (Piskvork) protocol's vocabulary, parsed and printed: the commands a
//! manager sends ([`Command`], with its `INFO` settings, [`Info`]) and the lines an engine
//! answers ([`ReplyLine`]). The engine's program, the match runner and the test engine
//! all speak through these types, so every protocol text is written in one place.
//!
//! Parsing is lenient where managers and engines differ (case, spaces around commas) and
//! printing gives the one canonical form, so that a printed value parses back to itself.
//! Everything that can be wrong with a line's shape is found here; whether a well-formed
//! command fits the game (a square on the board, an empty cell, a game started) is the
//! session's business.

mod analysis;
mod command;
mod coord;
mod error;
mod info;
mod reply;
mod text;

pub use analysis::{Analysis, Eval, WinRate};
pub use command::{Command, Field, MAX_NBEST, command_word, has_body, is_done};
pub use coord::Coord;
pub use error::ParseError;
pub use info::{BadValue, Info};
pub use reply::{About, BadReply, Realtime, ReplyLine};

/// For the round-trip tests: that the examples cover every variant of a type.
#[cfg(test)]
mod coverage {
    /// Fails unless `variant` (a variant's number, below `count`) meets every number among
    /// `examples`: written with an exhaustive `match`, it makes a new variant fail to
    /// compile, and this makes it fail until it has an example.
    pub fn assert_every_variant<T>(examples: &[T], variant: impl Fn(&T) -> usize, count: usize) {
        let mut seen: Vec<usize> = examples.iter().map(variant).collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(
            seen,
            (0..count).collect::<Vec<_>>(),
            "a variant has no example"
        );
    }
}
