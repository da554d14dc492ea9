//! The stdin thread: bytes to lines to typed commands, and the interrupts.
//!
//! It never waits for the engine, so `END`, `STOP`/`YXSTOP` and `INFO timeout_turn 0` act
//! while a search runs. Lines end at `\n`, `\r` or both; bytes are decoded lossily (an
//! `INFO folder` path may be in any code page); blank lines are skipped. A block command
//! is always read up to its `DONE`, whatever its fate, so that its body is never taken for
//! commands. Every other command is numbered and queued for the session, never dropped.

use std::io::{self, BufRead};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::Sender;
use std::time::Instant;

use super::command::{self, Command, Info, ParseError};

/// Longest line kept; the rest of a longer line is dropped (Piskvork does the same).
const MAX_LINE: usize = 64 * 1024;

/// A command on its way to the session.
#[derive(Debug)]
pub struct Message {
    /// Position in the input, from 1; interrupts refer to it.
    pub seq: u64,
    /// When the reader finished reading it: the manager's clock is already running.
    pub received: Instant,
    pub command: Result<Command, ParseError>,
}

/// The stop flag a search watches, and up to which queued command it applies.
///
/// An interrupt means "answer everything already sent, now". Raising a bare flag would
/// either miss a search that has not started yet or abort the next one; instead the
/// reader records the last command number it had sent (`through`), and the session arms
/// the flag for command `seq` as `seq <= through`.
#[derive(Debug, Default)]
pub struct StopControl {
    flag: AtomicBool,
    through: AtomicU64,
}

impl StopControl {
    /// Interrupts every command numbered up to `seq`, including a search under way.
    pub fn stop_through(&self, seq: u64) {
        self.through.fetch_max(seq, Ordering::SeqCst);
        self.flag.store(true, Ordering::SeqCst);
    }

    /// The flag for the search of command `seq`, raised already if an interrupt covers it.
    pub fn arm(&self, seq: u64) -> &AtomicBool {
        // Lower first, then look: an interrupt landing in between raises it again.
        self.flag.store(false, Ordering::SeqCst);
        if self.through.load(Ordering::SeqCst) >= seq {
            self.flag.store(true, Ordering::SeqCst);
        }
        &self.flag
    }
}

/// Why reading stopped.
#[derive(Debug, PartialEq, Eq)]
pub enum Ending {
    /// `END`: leave at once.
    End,
    /// End of input (or a read error, or the session gone): leave once the queue is done.
    Eof,
}

/// Reads commands from `input` and queues them on `tx` until END or end of input.
pub fn read<R: BufRead>(mut input: R, tx: &Sender<Message>, stop: &StopControl) -> Ending {
    let mut seq = 0;
    loop {
        let Some(line) = next_line(&mut input) else {
            return Ending::Eof;
        };
        log::debug!("< {line}");
        let word = command::command_word(&line);
        let parsed = if command::has_body(&word) {
            match read_body(&mut input) {
                Body::Done(body) => Command::parse_block(&line, &body),
                Body::End => return Ending::End,
                Body::Eof => Err(ParseError::NoDone { command: word }),
            }
        } else {
            line.parse::<Command>()
        };
        match &parsed {
            Ok(Command::End) => return Ending::End,
            Ok(Command::Stop) => {
                stop.stop_through(seq);
                continue;
            }
            Ok(Command::Info(Info::TimeoutTurn(0))) => stop.stop_through(seq),
            _ => {}
        }
        seq += 1;
        let message = Message {
            seq,
            received: Instant::now(),
            command: parsed,
        };
        if tx.send(message).is_err() {
            log::error!("the session thread is gone; leaving");
            return Ending::Eof;
        }
    }
}

enum Body {
    Done(Vec<String>),
    End,
    Eof,
}

/// The lines of a block up to `DONE`. An `END` inside a block is obeyed: managers send END
/// to a brain whatever state they think it is in.
fn read_body<R: BufRead>(input: &mut R) -> Body {
    let mut body = Vec::new();
    loop {
        let Some(line) = next_line(input) else {
            return Body::Eof;
        };
        log::trace!("< {line}");
        if command::is_done(&line) {
            return Body::Done(body);
        }
        if command::command_word(&line) == "END" {
            return Body::End;
        }
        body.push(line);
    }
}

/// The next non-blank line, trimmed, or `None` at end of input. A read error counts as the
/// end: there is no one to report it to.
fn next_line<R: BufRead>(input: &mut R) -> Option<String> {
    let mut buf = Vec::new();
    loop {
        match read_raw_line(input, &mut buf) {
            Ok(true) => {
                let line = String::from_utf8_lossy(&buf).trim().to_string();
                if !line.is_empty() {
                    return Some(line);
                }
            }
            Ok(false) => return None,
            Err(e) => {
                log::error!("cannot read the input: {e}");
                return None;
            }
        }
    }
}

/// Reads up to the next `\n` or `\r` (consumed, not kept) into `buf`. `Ok(false)` at end
/// of input with nothing read.
fn read_raw_line<R: BufRead>(input: &mut R, buf: &mut Vec<u8>) -> io::Result<bool> {
    buf.clear();
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(!buf.is_empty());
        }
        let end = chunk.iter().position(|&b| b == b'\n' || b == b'\r');
        let take = end.unwrap_or(chunk.len());
        let room = MAX_LINE.saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..take.min(room)]);
        match end {
            Some(i) => {
                input.consume(i + 1);
                return Ok(true);
            }
            None => {
                let n = chunk.len();
                input.consume(n);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;
    use std::sync::mpsc;

    use super::*;
    use crate::protocol::command::Coord;

    fn run(input: &[u8]) -> (Ending, Vec<Message>, StopControl) {
        let (tx, rx) = mpsc::channel();
        let stop = StopControl::default();
        let ending = read(Cursor::new(input.to_vec()), &tx, &stop);
        drop(tx);
        (ending, rx.iter().collect(), stop)
    }

    fn commands(input: &[u8]) -> Vec<Result<Command, ParseError>> {
        run(input).1.into_iter().map(|m| m.command).collect()
    }

    #[test]
    fn crlf_lf_and_lone_cr_all_end_lines_and_blank_lines_vanish() {
        let got = commands(b"START 20\r\n\r\n   \nBEGIN\rTURN 1,2\nABOUT");
        assert_eq!(
            got,
            [
                Ok(Command::Start {
                    width: 20,
                    height: 20
                }),
                Ok(Command::Begin),
                Ok(Command::Turn(Coord { x: 1, y: 2 })),
                Ok(Command::About),
            ]
        );
    }

    #[test]
    fn invalid_utf8_is_decoded_lossily() {
        let got = commands(b"INFO folder C:\\\xe9t\xe9\r\n");
        let Ok(Command::Info(Info::Accepted { key, value })) = &got[0] else {
            panic!("{got:?}")
        };
        assert_eq!(key, "folder");
        assert!(
            value.starts_with("C:\\") && value.contains('\u{fffd}'),
            "{value}"
        );
    }

    #[test]
    fn block_bodies_are_consumed_to_done_even_when_bad() {
        let got = commands(b"BOARD\n5,5,7\nTURN 3,3\ndone\nBEGIN\n");
        assert!(got[0].is_err(), "{got:?}");
        assert_eq!(got[1], Ok(Command::Begin));
        assert_eq!(got.len(), 2);
        // Unsupported block commands swallow their body too.
        let got = commands(b"YXBLOCK\n1,1\nDONE\n");
        assert_eq!(got, [Ok(Command::Unknown("YXBLOCK".into()))]);
    }

    #[test]
    fn end_stops_reading_even_inside_a_block_and_eof_inside_one_is_an_error() {
        let (ending, msgs, _) = run(b"START 15\nEND\nBEGIN\n");
        assert_eq!((ending, msgs.len()), (Ending::End, 1));
        let (ending, msgs, _) = run(b"BOARD\n1,1,1\nend\n");
        assert_eq!((ending, msgs.len()), (Ending::End, 0));
        let (ending, msgs, _) = run(b"BOARD\n1,1,1\n");
        assert_eq!(ending, Ending::Eof);
        assert!(msgs[0].command.is_err());
    }

    #[test]
    fn stop_covers_what_was_sent_before_it_and_nothing_after() {
        let (_, msgs, stop) = run(b"START 15\nBEGIN\nYXSTOP\nTURN 1,1\n");
        // STOP itself is not queued: three messages, numbered from 1.
        assert_eq!(msgs.iter().map(|m| m.seq).collect::<Vec<_>>(), [1, 2, 3]);
        assert!(stop.arm(2).load(Ordering::SeqCst));
        assert!(!stop.arm(3).load(Ordering::SeqCst));
    }

    #[test]
    fn timeout_turn_zero_interrupts_and_is_still_queued() {
        let (_, msgs, stop) = run(b"START 15\nBEGIN\nINFO timeout_turn 0\nTURN 1,1\n");
        assert_eq!(msgs.len(), 4);
        assert_eq!(msgs[2].command, Ok(Command::Info(Info::TimeoutTurn(0))));
        assert!(stop.arm(2).load(Ordering::SeqCst));
        assert!(!stop.arm(4).load(Ordering::SeqCst));
        // Other INFO values interrupt nothing.
        let (_, _, calm) = run(b"START 15\nBEGIN\nINFO timeout_turn 10\n");
        assert!(!calm.arm(2).load(Ordering::SeqCst));
    }

    #[test]
    fn very_long_lines_are_cut_not_fatal() {
        let mut input = b"TURN 1,1".to_vec();
        input.extend(std::iter::repeat_n(b'9', 3 * MAX_LINE));
        input.extend(b"\nABOUT\n");
        let got = commands(&input);
        assert!(got[0].is_err());
        assert_eq!(got[1], Ok(Command::About));
    }
}
