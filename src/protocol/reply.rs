//! What the engine says, and the one place that writes it to stdout.
//!
//! Every reply is a single answer line, optionally preceded by one `MESSAGE` line (only
//! before a move, where every manager skips it): the level's [`Report`], written here.
//! Lines end in `\n` only (liskvork rejects a `\r`) and are flushed one by one, since
//! managers wait for each answer. Free text is flattened onto one line, so no reply can
//! ever turn into two answers.

use std::fmt::Write as _;
use std::io::Write;

use super::session::SessionError;
use crate::board::Pos;
use crate::levels::Report;

/// One answer to one request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    Ok,
    /// A refused request: `ERROR` and the error's message.
    Error(SessionError),
    Unknown(String),
    /// A move, with a notice for the user (a setting that failed) and the level's report
    /// shown on one `MESSAGE` line before it.
    Move {
        pos: Pos,
        notice: Option<String>,
        report: Option<Report>,
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
            Reply::Move {
                pos,
                notice,
                report,
            } => {
                let parts: Vec<String> = notice
                    .iter()
                    .cloned()
                    .chain(report.iter().map(report_text))
                    .collect();
                let mut lines = Vec::new();
                if !parts.is_empty() {
                    lines.push(format!("MESSAGE {}", one_line(&parts.join("; "))));
                }
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

/// The text of a report on its `MESSAGE` line: `[strength S] depth D eval E nodes N speed
/// Kk/s time Tms pv MOVES [pick P]`, the evaluation as `+M<n>`/`-M<n>` for a win/loss in n
/// plies.
fn report_text(report: &Report) -> String {
    let r = &report.search;
    let mut text = String::new();
    if let Some(strength) = report.strength {
        let _ = write!(text, "strength {strength} ");
    }
    let eval = match r.mate_in() {
        Some(n) if n > 0 => format!("+M{n}"),
        Some(n) => format!("-M{}", -n),
        None => r.score.to_string(),
    };
    let _ = write!(
        text,
        "depth {} eval {eval} nodes {} speed {}k/s time {}ms pv",
        r.depth,
        r.nodes,
        r.speed() / 1000,
        r.elapsed.as_millis()
    );
    for p in &r.pv {
        let _ = write!(text, " {p}");
    }
    if let Some(pick) = report.pick {
        let _ = write!(text, " pick {pick}");
    }
    text
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
    use std::time::Duration;

    use super::*;
    use crate::levels::Strength;
    use crate::protocol::command::Command;
    use crate::search::SearchResult;
    use crate::search::alphabeta::WIN;

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
                notice: None,
                report: None
            }
            .lines(),
            ["9,12"]
        );
        assert_eq!(
            Reply::Stones(vec![Pos::new(7, 7), Pos::new(8, 6)]).lines(),
            ["7,7 8,6"]
        );
    }

    fn report(score: i32, strength: Option<Strength>, pick: Option<Pos>) -> Report {
        Report {
            search: SearchResult {
                best: Pos::new(7, 7),
                score,
                depth: 5,
                nodes: 123_456,
                pv: vec![Pos::new(7, 7), Pos::new(8, 8)],
                elapsed: Duration::from_millis(250),
                lines: Vec::new(),
            },
            strength,
            pick,
        }
    }

    #[test]
    fn a_move_is_preceded_by_its_report_on_one_message_line() {
        let at = |report| {
            Reply::Move {
                pos: Pos::new(7, 7),
                notice: None,
                report: Some(report),
            }
            .lines()
        };
        assert_eq!(
            at(report(-35, None, None)),
            [
                "MESSAGE depth 5 eval -35 nodes 123456 speed 493k/s time 250ms pv 7,7 8,8",
                "7,7"
            ]
        );
        let graded = at(report(0, Strength::new(40), Some(Pos::new(6, 6))));
        assert_eq!(
            graded[0],
            "MESSAGE strength 40 depth 5 eval 0 nodes 123456 speed 493k/s time 250ms pv 7,7 \
             8,8 pick 6,6"
        );
        // Mates count plies: won in 3, lost in 4.
        assert!(at(report(WIN - 3, None, None))[0].contains(" eval +M3 "));
        assert!(at(report(4 - WIN, None, None))[0].contains(" eval -M4 "));
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
            notice: None,
            report: None,
        });
        w.send(&Reply::Ok);
        assert_eq!(w.output(), b"1,2\nOK\n");
    }
}
