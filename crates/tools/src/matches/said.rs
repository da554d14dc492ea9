//! What an engine's output line means to the runner.
//!
//! Managers differ in what they forgive: c-gomoku-cli skips every line that is no move
//! while it waits for one, Piskvork and liskvork fail the engine on it.
//! The runner sorts each line, read by the protocol's [`ReplyLine`] parser, into one of
//! the kinds below so that the referee can skip the harmless ones (`MESSAGE`, `DEBUG`),
//! note the odd ones as quirks (an `ERROR` or `UNKNOWN` nobody asked for, a `SUGGEST`, a
//! stray `OK`) and never take them for a move.

use hoshi_protocol::{BadReply, ReplyLine};

/// One line an engine printed, trimmed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Said<'a> {
    /// `MESSAGE …` or `DEBUG …`: shown or logged by managers, never an answer.
    Chatter,
    /// `ERROR …`.
    Error,
    /// `UNKNOWN …`.
    Unknown,
    /// `SUGGEST x,y` (Piskvork's human-opponent protocol; other managers ignore it).
    Suggest,
    /// `OK`.
    Ok,
    /// `x,y`.
    Move(i64, i64),
    /// Anything else (an ABOUT answer, or garbage where a move is due).
    Other(&'a str),
}

impl<'a> Said<'a> {
    /// Sorts a line. Keywords are matched case-insensitively, as Piskvork does; a
    /// `SUGGEST` is one whatever follows the word, since it is skipped anyway.
    #[must_use]
    pub fn of(line: &'a str) -> Said<'a> {
        let line = line.trim();
        match line.parse::<ReplyLine>() {
            Ok(
                ReplyLine::Message(_)
                | ReplyLine::Debug(_)
                | ReplyLine::Realtime(_)
                | ReplyLine::YixinSwap2Move { .. }
                | ReplyLine::YixinSwap2Choice { .. }
                | ReplyLine::YixinMaxThreads(_)
                | ReplyLine::YixinMaxHashSize(_)
                | ReplyLine::Analysis(_),
            ) => Said::Chatter,
            Ok(ReplyLine::Error(_)) => Said::Error,
            Ok(ReplyLine::Unknown(_)) => Said::Unknown,
            Ok(ReplyLine::Suggest(_)) => Said::Suggest,
            Err(BadReply::Arguments { word, .. }) if word == "SUGGEST" => Said::Suggest,
            Ok(ReplyLine::Ok) => Said::Ok,
            Ok(ReplyLine::Move(c)) => Said::Move(c.x, c.y),
            Ok(
                ReplyLine::Stones(_) | ReplyLine::Swap | ReplyLine::About(_) | ReplyLine::Forbid(_),
            )
            | Err(_) => Said::Other(line),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_sorted_as_managers_read_them() {
        assert_eq!(Said::of("7,8"), Said::Move(7, 8));
        assert_eq!(Said::of(" 7 , 8 \r"), Said::Move(7, 8));
        assert_eq!(Said::of("-1,3"), Said::Move(-1, 3));
        assert_eq!(Said::of("MESSAGE thinking"), Said::Chatter);
        assert_eq!(Said::of("debug x"), Said::Chatter);
        assert_eq!(Said::of("MESSAGE REALTIME BEST 7,7"), Said::Chatter);
        assert_eq!(Said::of("MESSAGES"), Said::Other("MESSAGES"));
        assert_eq!(Said::of("ERROR Unknown command: TIME_LEFT"), Said::Error);
        assert_eq!(Said::of("UNKNOWN"), Said::Unknown);
        assert_eq!(Said::of("SUGGEST 7,7"), Said::Suggest);
        assert_eq!(Said::of("suggest soon"), Said::Suggest);
        assert_eq!(Said::of("ok"), Said::Ok);
        assert_eq!(
            Said::of("OK - everything is good"),
            Said::Other("OK - everything is good")
        );
        assert_eq!(Said::of("7;8"), Said::Other("7;8"));
        assert_eq!(Said::of("7,8,1"), Said::Other("7,8,1"));
        assert_eq!(Said::of("7,7 8,8"), Said::Other("7,7 8,8"));
        assert_eq!(Said::of("SWAP"), Said::Other("SWAP"));
        assert_eq!(Said::of(r#"name="x""#), Said::Other(r#"name="x""#));
    }
}
