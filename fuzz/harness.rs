//! The checks the fuzz targets run on one input, shared with `tests/fuzz_corpus.rs`, which
//! replays the committed corpus on the stable toolchain. Each panics when a property fails.

use std::cell::RefCell;
use std::io::{self, Cursor, Write};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::mpsc;
use std::time::Instant;

use hoshi::board::Board;
use hoshi::levels::{Level, Strength};
use hoshi_protocol::{Command, ParseError};
use pbrain_hoshi::Options;
use pbrain_hoshi::reader::{self, Message, StopControl};
use pbrain_hoshi::session::Session;

/// The longest `ERROR` text a command may cause: input is quoted cut short, so a huge line
/// cannot make a huge reply.
const MAX_ERROR: usize = 400;

/// The input's lines, lossily decoded: the first is the command line, the rest its body.
fn lines(data: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(data)
        .split(['\n', '\r'])
        .map(str::to_string)
        .collect()
}

/// The command parser: any line, any body, never a panic, and errors stay short.
pub fn command(data: &[u8]) {
    let lines = lines(data);
    let (head, body) = lines.split_first().expect("split yields a line");
    for parsed in [head.parse::<Command>(), Command::parse_block(head, body)] {
        if let Err(e) = parsed {
            let text = e.to_string();
            assert!(!text.is_empty() && text.len() <= MAX_ERROR, "{text:?}");
        }
    }
}

/// The line reader: any bytes become numbered messages, and reading ends.
pub fn reader(data: &[u8]) {
    let (tx, rx) = mpsc::channel();
    let stop = StopControl::default();
    reader::read(Cursor::new(data), &tx, &stop);
    drop(tx);
    let seqs: Vec<u64> = rx.iter().map(|m| m.seq).collect();
    assert!(
        seqs.iter().zip(1..).all(|(&s, n)| s == n),
        "messages numbered 1, 2, ...: {seqs:?}"
    );
}

/// Output shared with the session, read back after each request.
#[derive(Clone, Default)]
struct Sink(Rc<RefCell<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

thread_local! {
    /// One session for every input (each starts a new game): a fresh one would allocate
    /// and clear the search's table each time.
    static SESSION: RefCell<Option<(Session<Sink>, Sink, u64)>> = const { RefCell::new(None) };
}

/// Sends one command to the shared session and returns what it wrote.
fn send(command: Result<Command, ParseError>) -> String {
    SESSION.with_borrow_mut(|cell| {
        let (session, sink, seq) = cell.get_or_insert_with(|| {
            let sink = Sink::default();
            let options = Options {
                level: Level::Easy,
                strength: Strength::FULL,
                seed: Some(1),
                evaluator: Default::default(),
            };
            let stop = Arc::new(StopControl::default());
            (Session::new(options, stop, sink.clone()), sink, 0)
        });
        *seq += 1;
        sink.0.borrow_mut().clear();
        session.handle(Message {
            seq: *seq,
            received: Instant::now(),
            command,
        });
        String::from_utf8(sink.0.borrow().clone()).expect("replies are UTF-8")
    })
}

/// A `BOARD` body through the parser and the session: the first two bytes pick the board
/// side (5..=32) and the rule, the rest are the body's lines. The answer is exactly one
/// line: `ERROR ...`, or a move on a cell the body left empty.
pub fn board(data: &[u8]) {
    let [side, rule, body @ ..] = data else {
        return;
    };
    let side = 5 + i64::from(*side % 28);
    let rule = [0, 1, 4, 8, 9][usize::from(*rule % 5)];
    // A small table (1 MiB), so that each new game clears little.
    assert_eq!(send(format!("INFO max_memory {}", 49 << 20).parse()), "");
    assert_eq!(send(format!("INFO rule {rule}").parse()), "");
    assert_eq!(send(format!("START {side}").parse()), "OK\n");
    let body = lines(body);
    let parsed = Command::parse_block("BOARD", &body);
    let stones = match &parsed {
        Ok(Command::Board { stones, .. }) => Some(stones.clone()),
        _ => None,
    };
    let out = send(parsed);
    let answer: Vec<&str> = out.lines().filter(|l| !l.starts_with("MESSAGE ")).collect();
    assert_eq!(answer.len(), 1, "one answer line: {out:?}");
    let line = answer[0];
    if line.starts_with("ERROR ") {
        return;
    }
    let stones = stones.unwrap_or_else(|| panic!("a move for a bad body: {line}"));
    let (x, y) = line
        .split_once(',')
        .and_then(|(x, y)| Some((x.parse::<i64>().ok()?, y.parse::<i64>().ok()?)))
        .unwrap_or_else(|| panic!("not a move: {line:?}"));
    let board = Board::new(side, side).expect("a valid side");
    assert!(
        board.pos(x, y).is_some(),
        "{x},{y} off the {side}x{side} board"
    );
    assert!(
        stones.iter().all(|(c, _)| (c.x, c.y) != (x, y)),
        "{x},{y} is taken"
    );
}
