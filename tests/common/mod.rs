//! Shared by the protocol and robustness tests: the engine as a child process, and the
//! forms a reply line may take (protocol.md §10 and T30).

#![allow(dead_code)] // Each test binary uses its own part of this module.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// What the engine printed: one line (without its `\n`), or a violation of the framing.
#[derive(Debug)]
pub enum Out {
    Line(Instant, String),
    /// A `\r` in a line, or a last line without `\n`.
    Bad(String),
}

/// A running `pbrain-hoshi`.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Out>,
    stderr: Arc<Mutex<Vec<u8>>>,
    /// When the last bytes were sent.
    pub last_send: Instant,
}

impl Engine {
    pub fn spawn(args: &[&str]) -> Engine {
        let mut child = engine_command()
            .args(args)
            .env_remove("HOSHI_LOG_FILE")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("cannot start pbrain-hoshi");
        let stdout = child.stdout.take().expect("stdout");
        let mut stderr_pipe = child.stderr.take().expect("stderr");
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let mut buf = Vec::new();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                let now = Instant::now();
                let text = String::from_utf8_lossy(&buf).to_string();
                let out = match text.strip_suffix('\n') {
                    Some(line) if !line.contains('\r') => Out::Line(now, line.to_string()),
                    _ => Out::Bad(format!("badly ended line {text:?}")),
                };
                if tx.send(out).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&stderr);
        thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = stderr_pipe.read_to_end(&mut buf);
            sink.lock().expect("stderr lock").extend(buf);
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
            stderr,
            last_send: Instant::now(),
        }
    }

    /// Sends raw bytes.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin already closed");
        stdin.write_all(bytes).expect("engine stdin closed");
        stdin.flush().expect("flush");
        self.last_send = Instant::now();
    }

    /// The next output line, or `None` if nothing came within `timeout` (or output ended).
    pub fn recv(&mut self, timeout: Duration) -> Option<Out> {
        self.lines.recv_timeout(timeout).ok()
    }

    pub fn close_stdin(&mut self) {
        self.stdin = None;
        self.last_send = Instant::now();
    }

    /// Waits up to `timeout` for the process to exit.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let end = Instant::now() + timeout;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            if Instant::now() >= end {
                return None;
            }
            thread::sleep(Duration::from_millis(2));
        }
    }

    /// Everything still printed after the process ended (it must have exited).
    pub fn rest(&mut self) -> Vec<Out> {
        let mut v = Vec::new();
        while let Some(out) = self.recv(Duration::from_millis(500)) {
            v.push(out);
        }
        v
    }

    /// Everything written to stderr (the process must have exited).
    pub fn stderr(&mut self) -> String {
        // The stderr thread finishes when the pipe closes, shortly after exit.
        let end = Instant::now() + Duration::from_secs(2);
        loop {
            let text = String::from_utf8_lossy(&self.stderr.lock().expect("lock")).to_string();
            if !text.is_empty() || Instant::now() >= end || Arc::strong_count(&self.stderr) == 1 {
                return text;
            }
            thread::sleep(Duration::from_millis(5));
        }
    }
}

/// `limit` stretched by `HOSHI_TEST_SLACK` (a whole factor, default 1): how long the harness
/// waits for an answer or an exit, for a run by hand on a slow or loaded machine. Neither
/// the native run nor the Windows step sets it: the contract's own limits hold.
pub fn slack(limit: Duration) -> Duration {
    let factor = match std::env::var("HOSHI_TEST_SLACK") {
        Ok(s) => s.parse::<std::num::NonZeroU32>().unwrap_or_else(|_| {
            panic!("HOSHI_TEST_SLACK={s:?}: give a whole factor of 1 or more, e.g. 4")
        }),
        Err(_) => std::num::NonZeroU32::MIN,
    };
    limit * factor.get()
}

/// The engine under test: the command in `HOSHI_ENGINE`, split at spaces (e.g.
/// `/usr/lib/wine/wine64 cmd /c Z:\abs\bin\pbrain-hoshi.exe`, to test the Windows build
/// under Wine), or else the `pbrain-hoshi` this crate built.
fn engine_command() -> Command {
    let custom = std::env::var("HOSHI_ENGINE").unwrap_or_default();
    let mut words = custom.split_whitespace();
    match words.next() {
        Some(program) => {
            let mut command = Command::new(program);
            command.args(words);
            command
        }
        None => Command::new(env!("CARGO_BIN_EXE_pbrain-hoshi")),
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The kinds of line an engine may print.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Form {
    Ok,
    Error,
    Unknown,
    /// `MESSAGE text` or `DEBUG text`: only right before a move.
    Note,
    /// One to three `x,y` separated by single spaces.
    Moves(Vec<(i64, i64)>),
    Swap,
    About,
    Forbid,
    /// `MESSAGE INFO MAX_THREAD_NUM n` or `MESSAGE INFO MAX_HASH_SIZE n`: the two lines
    /// that answer `YXSHOWINFO`, the one reply made of `MESSAGE` lines.
    GuiLimit,
    /// `INFO KEY value`: a line of Rapfi's analysis block (`INFO show_detail` bit 2), only
    /// before a move.
    Analysis,
}

/// The form of `line`, or `None` if no allowed form fits.
pub fn form(line: &str) -> Option<Form> {
    let text_after = |prefix: &str| {
        line.strip_prefix(prefix)
            .is_some_and(|t| !t.trim().is_empty())
    };
    if line == "OK" {
        Some(Form::Ok)
    } else if line == "SWAP" {
        Some(Form::Swap)
    } else if text_after("ERROR ") {
        Some(Form::Error)
    } else if line == "UNKNOWN" || line.starts_with("UNKNOWN ") {
        Some(Form::Unknown)
    } else if [
        "MESSAGE INFO MAX_THREAD_NUM ",
        "MESSAGE INFO MAX_HASH_SIZE ",
    ]
    .iter()
    .any(|p| {
        line.strip_prefix(p)
            .is_some_and(|n| n.parse::<u32>().is_ok())
    }) {
        Some(Form::GuiLimit)
    } else if text_after("MESSAGE ") || text_after("DEBUG ") {
        Some(Form::Note)
    } else if let Some(rest) = line.strip_prefix("INFO ") {
        is_analysis(rest).then_some(Form::Analysis)
    } else if let Some(list) = line.strip_prefix("FORBID ") {
        let digits = list.strip_suffix('.')?;
        (digits.len() % 4 == 0 && digits.bytes().all(|b| b.is_ascii_digit()))
            .then_some(Form::Forbid)
    } else if line.starts_with("name=\"") {
        is_about(line).then_some(Form::About)
    } else {
        let moves: Option<Vec<(i64, i64)>> = line.split(' ').map(parse_move).collect();
        moves
            .filter(|m| (1..=3).contains(&m.len()))
            .map(Form::Moves)
    }
}

/// The text after `INFO ` of an analysis line, as Rapfi writes it: an upper-case key and
/// its value (a count, `DONE` after `PV`, a score or `+M<n>`/`-M<n>`, a probability from 0
/// to 1, moves separated by single spaces).
fn is_analysis(text: &str) -> bool {
    let Some((key, value)) = text.split_once(' ') else {
        return false;
    };
    let count = |v: &str| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit());
    match key {
        "PV" => value == "DONE" || count(value),
        "NUMPV" | "DEPTH" | "SELDEPTH" | "NODES" | "TOTALNODES" | "TOTALTIME" | "SPEED" => {
            count(value)
        }
        "EVAL" => {
            let mate = ["+M", "-M"]
                .iter()
                .any(|p| value.strip_prefix(p).is_some_and(count));
            mate || count(value.strip_prefix('-').unwrap_or(value))
        }
        "WINRATE" => {
            value
                .bytes()
                .all(|b| b.is_ascii_digit() || b".e-+".contains(&b))
                && value.parse::<f64>().is_ok_and(|p| (0.0..=1.0).contains(&p))
        }
        "BESTLINE" => value.split(' ').all(|m| parse_move(m).is_some()),
        _ => false,
    }
}

/// `x,y` with plain decimal numbers (no sign, no spaces, no leading zeros).
pub fn parse_move(s: &str) -> Option<(i64, i64)> {
    let (x, y) = s.split_once(',')?;
    let num = |t: &str| {
        let ok = !t.is_empty()
            && t.len() <= 3
            && t.bytes().all(|b| b.is_ascii_digit())
            && (t == "0" || !t.starts_with('0'));
        ok.then(|| t.parse().ok()).flatten()
    };
    Some((num(x)?, num(y)?))
}

/// `key="value"` pairs separated by `, `, the first being `name`, with a `version`.
fn is_about(line: &str) -> bool {
    let mut keys = Vec::new();
    let mut rest = line;
    loop {
        let Some((key, after)) = rest.split_once("=\"") else {
            return false;
        };
        let Some((_, after)) = after.split_once('"') else {
            return false;
        };
        if key.is_empty() || !key.bytes().all(|b| b.is_ascii_lowercase()) {
            return false;
        }
        keys.push(key.to_string());
        if after.is_empty() {
            break;
        }
        let Some(next) = after.strip_prefix(", ") else {
            return false;
        };
        rest = next;
    }
    keys.first().is_some_and(|k| k == "name") && keys.iter().any(|k| k == "version")
}
