//! One engine process: spawned with piped stdin/stdout, read by its own thread that hands
//! lines over a channel, so every wait has a deadline and a silent engine can be killed.
//!
//! Invariant: an [`Engine`] value owns a live or dying child; dropping it kills and reaps
//! the child, so no path leaves an engine running behind the runner.

use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread;
use std::time::{Duration, Instant};

use hoshi_protocol::Command as ProtocolCommand;

/// The longest line read in one piece (Piskvork's buffer is 8000 bytes).
const MAX_LINE: u64 = 64 * 1024;

/// How often the resident memory is sampled while an engine is on move.
const MEMORY_SAMPLE: Duration = Duration::from_millis(20);

/// What an engine is and how to start it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name shown in the summary and the records.
    pub name: String,
    /// Program and arguments.
    pub argv: Vec<String>,
    /// `(KEY, VALUE)` pairs sent as `INFO KEY VALUE` before each game.
    pub options: Vec<(String, String)>,
}

/// The kinds of fault that lose a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FaultKind {
    /// The process could not start, exited, or closed its output.
    Crash,
    /// No answer by the turn limit plus the tolerance (the engine is killed then).
    Timeout,
    /// A move outside the board or on an occupied cell.
    Illegal,
    /// A line that is no move where a move is due, and no move by the deadline; or START
    /// refused twice.
    Malformed,
    /// Resident memory above `--max-memory`.
    Memory,
}

impl FaultKind {
    pub const ALL: [FaultKind; 5] = [
        FaultKind::Crash,
        FaultKind::Timeout,
        FaultKind::Illegal,
        FaultKind::Malformed,
        FaultKind::Memory,
    ];

    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Crash => "crash",
            FaultKind::Timeout => "timeout",
            FaultKind::Illegal => "illegal move",
            FaultKind::Malformed => "malformed line",
            FaultKind::Memory => "memory",
        }
    }
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A fault with what exactly happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub kind: FaultKind,
    pub detail: String,
}

impl Fault {
    #[must_use]
    pub fn new(kind: FaultKind, detail: impl Into<String>) -> Fault {
        Fault {
            kind,
            detail: detail.into(),
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind, self.detail)
    }
}

/// A running engine.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    max_memory: Option<u64>,
    /// Whether a line ended in `\r`.
    cr: bool,
}

impl Engine {
    /// Starts the engine. Its stderr is discarded: the runner's terminal is for the runner.
    pub fn spawn(spec: &EngineSpec, max_memory: Option<u64>) -> Result<Engine, Fault> {
        let (program, args) = spec
            .argv
            .split_first()
            .ok_or_else(|| Fault::new(FaultKind::Crash, "empty engine command"))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Fault::new(FaultKind::Crash, format!("cannot start {program}: {e}")))?;
        let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
            (Some(i), Some(o)) => (i, o),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(Fault::new(FaultKind::Crash, "no pipes to the engine"));
            }
        };
        let (tx, lines) = channel();
        // The thread ends when the engine's stdout closes (exit or kill); a closed channel
        // is how the waiting side learns of it.
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                // A line without end must not exhaust the runner's memory: cut it into
                // pieces, none of which is a valid answer.
                match (&mut reader).take(MAX_LINE).read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        // Kept with its `\r`, if any: `recv` notes it.
                        let line = String::from_utf8_lossy(&buf);
                        if tx.send(line.trim_end_matches('\n').to_owned()).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(Engine {
            child,
            stdin,
            lines,
            max_memory,
            cr: false,
        })
    }

    /// Writes one command, its lines LF-terminated (like c-gomoku-cli on POSIX).
    pub fn send(&mut self, command: &ProtocolCommand) -> Result<(), Fault> {
        writeln!(self.stdin, "{command}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| self.crashed(&format!("cannot write to the engine: {e}")))
    }

    /// The next non-empty line, trimmed, by `deadline`. A fault is final: the caller drops
    /// the engine (which kills it).
    pub fn recv(&mut self, deadline: Instant) -> Result<String, Fault> {
        loop {
            self.check_memory()?;
            let now = Instant::now();
            if now >= deadline {
                return Err(Fault::new(FaultKind::Timeout, "no answer by the deadline"));
            }
            let wait = (deadline - now).min(if self.max_memory.is_some() {
                MEMORY_SAMPLE
            } else {
                deadline - now
            });
            match self.lines.recv_timeout(wait) {
                Ok(line) if line.trim().is_empty() => {}
                Ok(line) => {
                    self.cr |= line.ends_with('\r');
                    return Ok(line.trim().to_owned());
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.crashed("the engine closed its output"));
                }
            }
        }
    }

    /// Samples the resident memory against the limit (where it can be measured, see
    /// [`resident_bytes`]).
    pub fn check_memory(&mut self) -> Result<(), Fault> {
        let Some(limit) = self.max_memory else {
            return Ok(());
        };
        match resident_bytes(&self.child) {
            Some(rss) if rss > limit => Err(Fault::new(
                FaultKind::Memory,
                format!("resident memory {rss} bytes exceeds the limit of {limit}"),
            )),
            _ => Ok(()),
        }
    }

    /// Whether any line so far ended in `\r`.
    #[must_use]
    pub fn ends_lines_with_cr(&self) -> bool {
        self.cr
    }

    /// Sends `END`, waits up to `grace` for the engine to exit, then kills it. Whether it
    /// left by itself in time.
    pub fn quit(mut self, grace: Duration) -> bool {
        if self.send(&ProtocolCommand::End).is_ok() {
            let deadline = Instant::now() + grace;
            while Instant::now() < deadline {
                if matches!(self.child.try_wait(), Ok(Some(_))) {
                    return true;
                }
                thread::sleep(Duration::from_millis(10));
            }
        }
        // Drop kills what is left.
        matches!(self.child.try_wait(), Ok(Some(_)))
    }

    fn crashed(&mut self, what: &str) -> Fault {
        // Give a dying process a moment so its exit status can be reported.
        thread::sleep(Duration::from_millis(20));
        let status = match self.child.try_wait() {
            Ok(Some(status)) => format!(" ({status})"),
            _ => String::new(),
        };
        Fault::new(FaultKind::Crash, format!("{what}{status}"))
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if !matches!(self.child.try_wait(), Ok(Some(_))) {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// Whether [`resident_bytes`] can measure an engine on this system; elsewhere
/// `--max-memory` is only announced (`INFO max_memory`), not enforced.
pub const MEMORY_MEASURED: bool = cfg!(any(target_os = "linux", windows));

/// The resident set size of an engine process: `VmRSS` of `/proc/PID/status` on Linux,
/// the working set of `GetProcessMemoryInfo` on Windows (the same quantity: its pages in
/// RAM now; Piskvork compares the peak working set after each move, which sampling every
/// 20 ms while the engine thinks comes close to). `None` elsewhere, or when the process is
/// gone.
#[cfg(target_os = "linux")]
#[must_use]
pub fn resident_bytes(child: &Child) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).ok()?;
    parse_vm_rss(&status)
}

#[cfg(windows)]
#[must_use]
pub fn resident_bytes(child: &Child) -> Option<u64> {
    use std::os::windows::io::AsRawHandle;
    use windows_sys::Win32::System::ProcessStatus::{
        K32GetProcessMemoryInfo, PROCESS_MEMORY_COUNTERS,
    };
    let mut counters = PROCESS_MEMORY_COUNTERS {
        cb: u32::try_from(size_of::<PROCESS_MEMORY_COUNTERS>()).ok()?,
        ..PROCESS_MEMORY_COUNTERS::default()
    };
    // SAFETY: the handle is the child's own, open as long as `child` is (CreateProcess
    // grants it every access right), and `counters` is writable and `cb` bytes long.
    let ok = unsafe { K32GetProcessMemoryInfo(child.as_raw_handle(), &mut counters, counters.cb) };
    if ok == 0 {
        return None;
    }
    u64::try_from(counters.WorkingSetSize).ok()
}

#[cfg(not(any(target_os = "linux", windows)))]
#[must_use]
pub fn resident_bytes(_child: &Child) -> Option<u64> {
    None
}

#[cfg(any(target_os = "linux", test))]
fn parse_vm_rss(status: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let mut words = line.split_whitespace().skip(1);
    let value: u64 = words.next()?.parse().ok()?;
    let unit = match words.next() {
        Some("kB") => 1024,
        Some("mB") => 1024 * 1024,
        _ => 1,
    };
    value.checked_mul(unit)
}

/// Splits a command line the way a POSIX shell would for simple cases: whitespace separates
/// words, `'…'` is literal, `"…"` allows `\"` and `\\`. A backslash elsewhere is kept as is,
/// so Windows paths need no escaping.
pub fn split_command(s: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(format!("unclosed ' in {s:?}")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') if matches!(chars.peek(), Some('"' | '\\')) => {
                            word.extend(chars.next());
                        }
                        Some(c) => word.push(c),
                        None => return Err(format!("unclosed \" in {s:?}")),
                    }
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err("empty engine command".to_owned());
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_split_like_a_shell() {
        assert_eq!(
            split_command("pbrain-x --level easy").unwrap(),
            ["pbrain-x", "--level", "easy"]
        );
        assert_eq!(
            split_command(r#"  "/opt/my engine/pbrain-y" 'a b' c"d e"f "q\"x\\" "#).unwrap(),
            ["/opt/my engine/pbrain-y", "a b", "cd ef", "q\"x\\"]
        );
        assert_eq!(
            split_command(r"C:\engines\pbrain-z.exe ''").unwrap(),
            [r"C:\engines\pbrain-z.exe", ""]
        );
        assert!(split_command("a 'b").is_err());
        assert!(split_command("a \"b").is_err());
        assert!(split_command("   ").is_err());
    }

    #[test]
    fn vm_rss_is_read_in_bytes() {
        let status = "Name:\tx\nVmPeak:\t  9000 kB\nVmRSS:\t    1234 kB\nThreads:\t1\n";
        assert_eq!(parse_vm_rss(status), Some(1234 * 1024));
        assert_eq!(parse_vm_rss("Name:\tx\n"), None);
    }

    #[test]
    fn a_missing_program_is_a_crash_fault() {
        let spec = EngineSpec {
            name: "none".into(),
            argv: vec!["/nonexistent/pbrain-none".into()],
            options: Vec::new(),
        };
        let err = Engine::spawn(&spec, None).err().map(|f| f.kind);
        assert_eq!(err, Some(FaultKind::Crash));
    }
}
