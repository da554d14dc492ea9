//! What the engine says, and the one place that writes it to stdout.
//!
//! Every reply is a single answer line, optionally preceded by one `MESSAGE` line (only
//! before a move, where every manager skips it). Lines end in `\n` only (liskvork rejects a
//! `\r`) and are flushed one by one, since managers wait for each answer. Free text is
//! flattened onto one line, so no reply can ever turn into two answers.

use std::io::Write;

use super::session::SessionError;
use crate::board::Pos;

/// One answer to one request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    Ok,
    /// A refused request: `ERROR` and the error's message.
    Error(SessionError),
    Unknown(String),
    /// A move, with the level's report shown as a `MESSAGE` line before it.
    Move {
        pos: Pos,
        message: Option<String>,
    },
    /// Several stones on one line (the swap2 opening).
    Stones(Vec<Pos>),
    /// The `ABOUT` line.
    About,
    /// `YXSHOWFORBID`: black's forbidden points.
    Forbid(Vec<Pos>),
}

impl Reply {
    /// The lines of this reply, in order, without line terminators.
    #[must_use]
    pub fn lines(&self) -> Vec<String> {
        match self {
            Reply::Ok => vec!["OK".into()],
            Reply::Error(e) => vec![format!("ERROR {}", some_text(&e.to_string()))],
            Reply::Unknown(text) => vec![format!("UNKNOWN {}", some_text(text))],
            Reply::Move { pos, message } => {
                let mut lines: Vec<String> = message
                    .iter()
                    .map(|m| one_line(m))
                    .filter(|m| !m.is_empty())
                    .map(|m| format!("MESSAGE {m}"))
                    .collect();
                lines.push(pos.to_string());
                lines
            }
            Reply::Stones(stones) => {
                let text: Vec<String> = stones.iter().map(Pos::to_string).collect();
                vec![text.join(" ")]
            }
            Reply::About => vec![format!(
                "name=\"Hoshi\", version=\"{}\", author=\"Hoshi developers\"",
                env!("CARGO_PKG_VERSION")
            )],
            Reply::Forbid(points) => {
                let list: String = points
                    .iter()
                    .map(|p| format!("{:02}{:02}", p.x, p.y))
                    .collect();
                vec![format!("FORBID {list}.")]
            }
        }
    }
}

/// `text` with control characters (line breaks included) turned into spaces, trimmed.
fn one_line(text: &str) -> String {
    let flat: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    flat.trim().to_string()
}

/// Like [`one_line`], but never empty: managers need text after `ERROR `.
fn some_text(text: &str) -> String {
    let flat = one_line(text);
    if flat.is_empty() { "-".into() } else { flat }
}

/// Writes replies, one flushed line at a time.
pub struct Replies<W: Write> {
    out: W,
}

impl<W: Write> Replies<W> {
    pub fn new(out: W) -> Replies<W> {
        Replies { out }
    }

    /// Writes every line of `reply`. A failed write (the manager closed the pipe) is only
    /// logged: nobody is left to tell, and the engine leaves at end of input anyway.
    pub fn send(&mut self, reply: &Reply) {
        for line in reply.lines() {
            log::debug!("> {line}");
            if let Err(e) = writeln!(self.out, "{line}").and_then(|()| self.out.flush()) {
                log::warn!("cannot write a reply: {e}");
            }
        }
    }

    /// What was written, for tests.
    #[cfg(test)]
    pub fn output(&self) -> &W {
        &self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::command::Command;

    #[test]
    fn replies_are_single_lines_of_the_allowed_forms() {
        let p = Pos::new(9, 12);
        assert_eq!(Reply::Ok.lines(), ["OK"]);
        assert_eq!(
            Reply::Error(SessionError::NoGame).lines(),
            ["ERROR no game started: send START first"]
        );
        // Quoted input cannot break the line.
        let e = "TURN a\r\nb".parse::<Command>().unwrap_err();
        assert_eq!(
            Reply::Error(SessionError::Parse(e)).lines(),
            ["ERROR TURN expects numbers separated by commas (e.g. TURN 7,7), got 'a  b'"]
        );
        assert_eq!(Reply::Unknown(String::new()).lines(), ["UNKNOWN -"]);
        assert_eq!(
            Reply::Move {
                pos: p,
                message: None
            }
            .lines(),
            ["9,12"]
        );
        assert_eq!(
            Reply::Move {
                pos: p,
                message: Some("depth 3\n".into())
            }
            .lines(),
            ["MESSAGE depth 3", "9,12"]
        );
        // An empty report would be a bare `MESSAGE`, which Piskvork takes for the answer.
        assert_eq!(
            Reply::Move {
                pos: p,
                message: Some(" ".into())
            }
            .lines(),
            ["9,12"]
        );
        assert_eq!(
            Reply::Stones(vec![Pos::new(7, 7), Pos::new(8, 6)]).lines(),
            ["7,7 8,6"]
        );
    }

    #[test]
    fn forbid_lists_two_digit_pairs_and_ends_with_a_dot() {
        let list = Reply::Forbid(vec![Pos::new(9, 12), Pos::new(10, 11)]);
        assert_eq!(list.lines(), ["FORBID 09121011."]);
        assert_eq!(Reply::Forbid(vec![]).lines(), ["FORBID ."]);
    }

    #[test]
    fn about_names_the_engine_and_its_version() {
        let line = &Reply::About.lines()[0];
        assert!(line.starts_with("name=\"Hoshi\", version=\""), "{line}");
        assert!(line.contains(env!("CARGO_PKG_VERSION")));
    }

    #[test]
    fn the_writer_ends_lines_with_lf_only() {
        let mut w = Replies::new(Vec::new());
        w.send(&Reply::Move {
            pos: Pos::new(1, 2),
            message: Some("hi".into()),
        });
        w.send(&Reply::Ok);
        assert_eq!(w.output(), b"MESSAGE hi\n1,2\nOK\n");
    }
}
