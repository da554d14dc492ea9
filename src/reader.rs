//! The stdin thread: bytes to lines to typed commands, and the interrupts.
//!
//! It never waits for the engine, so `END`, `STOP`/`YXSTOP` and `INFO timeout_turn 0` act
//! while a search runs. Lines end at `\n`, `\r` or both; bytes are decoded lossily (an
//! `INFO folder` path may be in any code page); blank lines are skipped. A block command
//! is always read up to its `DONE`, whatever its fate, so that its body is never taken for
//! commands. Every other command is numbered and queued for the session, never dropped.
//!
//! `END` answers what came with it: input arrives in bursts (what the writer had sent by
//! the time it was read, see `Bursts`), and the commands of END's burst are all answered,
//! searches cut short, before the process leaves, so `printf 'START 15\nBEGIN\nEND\n'`
//! gets `OK` and a move. A command from an earlier burst that is being answered when END
//! arrives is abandoned instead: that is END during a search, which managers send when
//! they no longer want the answer.

use std::io::{self, BufRead, Read};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::Sender;
use std::time::Instant;

use hoshi_protocol::{Command, Info, ParseError};

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
    /// Once END is read: the number of the first command of END's burst (0 before).
    end_burst: AtomicU64,
}

impl StopControl {
    /// Interrupts every command numbered up to `seq`, including a search under way.
    pub fn stop_through(&self, seq: u64) {
        self.through.fetch_max(seq, Ordering::SeqCst);
        self.flag.store(true, Ordering::SeqCst);
    }

    /// END was read, in the burst whose first command is numbered `first_seq`: every
    /// command is interrupted.
    pub fn end(&self, first_seq: u64) {
        self.end_burst.store(first_seq.max(1), Ordering::SeqCst);
        self.stop_through(u64::MAX);
    }

    /// Whether END has been read.
    pub fn ended(&self) -> bool {
        self.end_burst.load(Ordering::SeqCst) != 0
    }

    /// Whether the answer to command `seq`, which was started before END was read
    /// (`ended()` was false then), is abandoned: END came in a later burst.
    pub fn abandons(&self, seq: u64) -> bool {
        let first = self.end_burst.load(Ordering::SeqCst);
        first != 0 && seq < first
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
pub enum InputEnd {
    /// `END`: leave at once.
    End,
    /// End of input (or a read error, or the session gone): leave once the queue is done.
    Eof,
}

/// Reads commands from `input` and queues them on `tx` until END or end of input.
pub fn read<R: Read>(input: R, tx: &Sender<Message>, stop: &StopControl) -> InputEnd {
    let mut input = Bursts::new(input);
    let mut seq = 0;
    // The burst being read, and the number its first command gets.
    let (mut burst, mut burst_first) = (0, 1);
    loop {
        let Some(line) = next_line(&mut input) else {
            return InputEnd::Eof;
        };
        if input.burst != burst {
            (burst, burst_first) = (input.burst, seq + 1);
        }
        log::debug!("< {line}");
        let word = hoshi_protocol::command_word(&line);
        let parsed = if hoshi_protocol::has_body(&word) {
            match read_body(&mut input) {
                Body::Done(body) => Command::parse_block(&line, &body),
                Body::End => {
                    // The block is dropped; END's burst may have begun inside it.
                    let first = if input.burst == burst {
                        burst_first
                    } else {
                        seq + 1
                    };
                    stop.end(first);
                    return InputEnd::End;
                }
                Body::Eof => Err(ParseError::NoDone { command: word }),
            }
        } else {
            line.parse::<Command>()
        };
        match &parsed {
            Ok(Command::End) => {
                stop.end(burst_first);
                return InputEnd::End;
            }
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
            return InputEnd::Eof;
        }
    }
}

/// The input, buffered, counting bursts. A burst is what the writer had sent by the time
/// it was read: a read that fills the whole buffer leaves the burst open (more was
/// waiting), a shorter one ends it, so the next read starts a new burst. This needs no
/// clock: a script written at once is one burst (up to the pipe's capacity), a command
/// the manager sends later is another.
struct Bursts<R> {
    inner: R,
    buf: Box<[u8]>,
    pos: usize,
    len: usize,
    /// The burst the buffered bytes belong to, from 1.
    burst: u64,
    /// Whether the last read filled the buffer.
    open: bool,
}

/// The input buffer: larger than a manager's longest burst (a 32x32 BOARD is ~10 KB).
const INPUT_BUFFER: usize = 64 * 1024;

impl<R: Read> Bursts<R> {
    fn new(inner: R) -> Bursts<R> {
        Bursts {
            inner,
            buf: vec![0; INPUT_BUFFER].into_boxed_slice(),
            pos: 0,
            len: 0,
            burst: 0,
            open: false,
        }
    }
}

impl<R: Read> Read for Bursts<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = self.fill_buf()?.read(out)?;
        self.consume(n);
        Ok(n)
    }
}

impl<R: Read> BufRead for Bursts<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos >= self.len {
            let n = self.inner.read(&mut self.buf)?;
            if !self.open {
                self.burst += 1;
            }
            self.open = n == self.buf.len();
            (self.pos, self.len) = (0, n);
        }
        Ok(&self.buf[self.pos..self.len])
    }

    fn consume(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.len);
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
        if hoshi_protocol::is_done(&line) {
            return Body::Done(body);
        }
        if hoshi_protocol::command_word(&line) == "END" {
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
    use hoshi_protocol::Coord;

    fn run(input: &[u8]) -> (InputEnd, Vec<Message>, StopControl) {
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
        assert_eq!((ending, msgs.len()), (InputEnd::End, 1));
        let (ending, msgs, _) = run(b"BOARD\n1,1,1\nend\n");
        assert_eq!((ending, msgs.len()), (InputEnd::End, 0));
        let (ending, msgs, _) = run(b"BOARD\n1,1,1\n");
        assert_eq!(ending, InputEnd::Eof);
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

    /// Input that arrives in the given reads, as from a pipe written several times.
    struct Chunks(std::collections::VecDeque<Vec<u8>>);

    impl Read for Chunks {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let Some(mut chunk) = self.0.pop_front() else {
                return Ok(0);
            };
            let n = chunk.len().min(out.len());
            out[..n].copy_from_slice(&chunk[..n]);
            if n < chunk.len() {
                self.0.push_front(chunk.split_off(n));
            }
            Ok(n)
        }
    }

    fn run_chunks(chunks: &[&[u8]]) -> (InputEnd, Vec<Message>, StopControl) {
        let (tx, rx) = mpsc::channel();
        let stop = StopControl::default();
        let input = Chunks(chunks.iter().map(|c| c.to_vec()).collect());
        let ending = read(input, &tx, &stop);
        drop(tx);
        (ending, rx.iter().collect(), stop)
    }

    #[test]
    fn end_keeps_the_answers_of_its_own_burst_and_abandons_earlier_ones() {
        // One write: nothing is abandoned, everything is interrupted.
        let (ending, msgs, stop) = run_chunks(&[b"START 15\nBEGIN\nEND\nABOUT\n"]);
        assert_eq!((ending, msgs.len()), (InputEnd::End, 2));
        assert!(stop.ended() && !stop.abandons(1) && !stop.abandons(2));
        assert!(stop.arm(2).load(Ordering::SeqCst));
        // END written later: what came before it is abandoned if under way, what came
        // with it is not.
        let (_, msgs, stop) = run_chunks(&[b"START 15\nBEGIN\n", b"ABOUT\nEND\n"]);
        assert_eq!(msgs.len(), 3);
        assert!(stop.abandons(2) && !stop.abandons(3));
        // A line split across two reads belongs to the later one.
        let (_, _, stop) = run_chunks(&[b"START 15\nBEG", b"IN\nEND\n"]);
        assert!(stop.abandons(1) && !stop.abandons(2));
        // END inside a block of a later burst: everything before is earlier.
        let (_, msgs, stop) = run_chunks(&[b"START 15\nBEGIN\n", b"BOARD\n1,1,1\nEND\n"]);
        assert_eq!(msgs.len(), 2);
        assert!(stop.abandons(2));
        // A read that fills the whole buffer leaves its burst open.
        let mut big = b"ABOUT\n".repeat(INPUT_BUFFER / 6);
        big.resize(INPUT_BUFFER, b'\n');
        let (_, msgs, stop) = run_chunks(&[&big, b"BEGIN\nEND\n"]);
        assert!(!stop.abandons(1) && !stop.abandons(msgs.len() as u64));
        // No END, no abandon.
        let (ending, _, stop) = run_chunks(&[b"START 15\n", b"BEGIN\n"]);
        assert_eq!(ending, InputEnd::Eof);
        assert!(!stop.ended() && !stop.abandons(1));
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
