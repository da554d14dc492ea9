//! Runs every transcript in `protocol-tests/` against the real `pbrain-hoshi`, each pass of
//! each transcript as its own test named `FILE::crlf` or `FILE::lf` (libtest-mimic, so
//! they run in parallel and `cargo test --test protocol t29` runs only those).
//!
//! A transcript is a plain-text conversation, one directive a line:
//!
//! | line | meaning |
//! |---|---|
//! | `# text` | comment |
//! | `> text` | send `text` and the line ending (escapes: `\s` space, `\t`, `\r`, `\n`, `\\`) |
//! | `>> text` | send `text` as is (after escapes), no line ending added |
//! | `< pattern` | the next answer line matches `pattern` (alternatives separated by ` \|\| `) |
//! | `@eol crlf\|lf\|cr` | line ending for `>` (by default CRLF in a first run, LF in a second) |
//! | `@args a b` | command-line arguments (default: `--level hard`, the quick classic level; a bare `@args` runs the engine's default level) |
//! | `@sleep ms` | wait before going on |
//! | `@within ms` | the next answer arrives within `ms` of the last send |
//! | `@quiet ms` | nothing is printed for `ms` |
//! | `@end [allow pattern]` | send END: exit code 0 within 500 ms, nothing printed after END; lines printed before END must match `pattern` when given, else none may be left |
//! | `@eof` | close stdin: exit code 0 within 500 ms, after answering exactly the requests still unanswered (the default ending) |
//! | `@serial` | run while no other transcript runs: its timings (`@within`, an exit with work still pending) must not share the cores with another engine |
//! | `@skip-analysis` | from here on, `INFO` analysis lines that no `< INFO ...` pattern asks for are skipped as `MESSAGE` lines are |
//!
//! Patterns are literal text with placeholders: `{n}` a number, `{any}` any text, `{text}`
//! non-empty text, `{a|b}` one of the literals, `{move}` a move (also `{move except 6,8
//! 7,7}` and `{move=m}`, which names the move for a later `{$m}` in a send or a pattern).
//! In a send, `{free x,y}` is the first empty cell from `(x, y)` on in row-major order.
//!
//! Beyond the patterns, every line must be of an allowed form (`common::form`), a
//! `MESSAGE`/`DEBUG` line may only come right before a move, an `INFO` analysis line
//! (`INFO show_detail` bit 2) too, and each must be matched by a pattern that begins with
//! `INFO ` unless `@skip-analysis` said otherwise, stderr stays empty, and every
//! move must be on the board and on an empty cell: the runner keeps a model of the board
//! from what was sent and answered.

mod common;

use std::collections::{HashMap, HashSet, VecDeque};
use std::fmt::Write as _;
use std::path::Path;
use std::sync::RwLock;
use std::time::{Duration, Instant};

use common::{Engine, Form, Out};
use libtest_mimic::{Arguments, Failed, Trial};

/// Arguments when a transcript gives none: the classic hard level answers at once whatever
/// the clock, which keeps the run short whatever the engine's default level becomes.
const DEFAULT_ARGS: &[&str] = &["--level", "hard"];

/// How long an expected answer may take when no `@within` says otherwise.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(10);
/// END and end of input must end the process within this (protocol.md T29/T30).
const EXIT_WITHIN: Duration = Duration::from_millis(500);

/// Transcripts run in parallel holding it shared; an `@serial` one holds it alone.
static CORES: RwLock<()> = RwLock::new(());

fn main() {
    let args = Arguments::from_args();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol-tests");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("protocol-tests/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    let found = files.len();
    let mut trials = vec![
        Trial::test("transcripts_are_found", move || {
            if found >= 30 {
                Ok(())
            } else {
                Err(format!("only {found} transcripts in protocol-tests/").into())
            }
        }),
        Trial::test("patterns_match_as_documented", || {
            patterns_match_as_documented();
            Ok(())
        }),
        Trial::test("forms_accept_the_allowed_lines_only", || {
            forms_accept_the_allowed_lines_only();
            Ok(())
        }),
    ];
    for file in files {
        let name = file.file_stem().unwrap_or_default().to_string_lossy();
        let text = std::fs::read_to_string(&file).expect("transcript");
        // As Piskvork sends (CRLF), and as c-gomoku-cli and Yixin-Board do (LF); the LF
        // pass skips the silence checks, which the CRLF one makes.
        let serial = text.lines().any(|l| l.trim() == "@serial");
        for (pass, suffix) in [(Pass::Crlf, "crlf"), (Pass::Lf, "lf")] {
            let text = text.clone();
            trials.push(Trial::test(format!("{name}::{suffix}"), move || {
                // A failed transcript poisons nothing: the guard protects no data.
                let _cores = if serial {
                    Err(CORES.write().unwrap_or_else(|e| e.into_inner()))
                } else {
                    Ok(CORES.read().unwrap_or_else(|e| e.into_inner()))
                };
                run(&text, pass).map_err(Failed::from)
            }));
        }
    }
    libtest_mimic::run(&args, trials).exit();
}

/// How a transcript is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pass {
    /// CRLF line endings by default, every check.
    Crlf,
    /// LF line endings by default, no `@quiet` waits.
    Lf,
}

/// One step of a transcript.
#[derive(Debug)]
enum Step {
    Send(String),
    Expect(String),
    Sleep(u64),
    Within(u64),
    Quiet(u64),
    End(Option<String>),
    Eof,
    SkipAnalysis,
}

fn parse(text: &str, pass: Pass) -> Result<(Vec<String>, Vec<Step>), String> {
    let mut args: Option<Vec<String>> = None;
    let mut steps = Vec::new();
    let mut eol = if pass == Pass::Crlf { "\r\n" } else { "\n" };
    for (i, line) in text.lines().enumerate() {
        let err = |m: &str| format!("line {}: {m}: {line:?}", i + 1);
        let ms = |s: &str| s.trim().parse::<u64>().map_err(|_| err("bad milliseconds"));
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        } else if let Some(t) = line.strip_prefix(">> ") {
            steps.push(Step::Send(unescape(t)));
        } else if let Some(t) = line
            .strip_prefix("> ")
            .or_else(|| (line == ">").then_some(""))
        {
            steps.push(Step::Send(unescape(t) + eol));
        } else if let Some(p) = line.strip_prefix("< ") {
            steps.push(Step::Expect(p.to_string()));
        } else if let Some(e) = line.strip_prefix("@eol ") {
            eol = match e.trim() {
                "crlf" => "\r\n",
                "lf" => "\n",
                "cr" => "\r",
                _ => return Err(err("unknown line ending")),
            };
        } else if let Some(a) = line.strip_prefix("@args") {
            args = Some(a.split_whitespace().map(str::to_string).collect());
        } else if let Some(v) = line.strip_prefix("@sleep ") {
            steps.push(Step::Sleep(ms(v)?));
        } else if let Some(v) = line.strip_prefix("@within ") {
            steps.push(Step::Within(ms(v)?));
        } else if let Some(v) = line.strip_prefix("@quiet ") {
            if pass == Pass::Crlf {
                steps.push(Step::Quiet(ms(v)?));
            }
        } else if line == "@end" {
            steps.push(Step::End(None));
        } else if let Some(p) = line.strip_prefix("@end allow ") {
            steps.push(Step::End(Some(p.to_string())));
        } else if line == "@eof" {
            steps.push(Step::Eof);
        } else if line == "@skip-analysis" {
            steps.push(Step::SkipAnalysis);
        } else if line == "@serial" {
            // Read by `main`, which schedules the transcript.
        } else {
            return Err(err("unknown directive"));
        }
    }
    if !matches!(steps.last(), Some(Step::End(_) | Step::Eof)) {
        steps.push(Step::Eof);
    }
    let args = args.unwrap_or_else(|| DEFAULT_ARGS.iter().map(|a| (*a).to_string()).collect());
    Ok((args, steps))
}

fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('s') => out.push(' '),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('n') => out.push('\n'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

/// Runs a transcript; `Err` describes the first failure.
fn run(text: &str, pass: Pass) -> Result<(), String> {
    let (args, steps) = parse(text, pass)?;
    let arg_refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut engine = Engine::spawn(&arg_refs);
    let mut model = Model::default();
    let mut within: Option<Duration> = None;
    let mut vars: HashMap<String, (i64, i64)> = HashMap::new();
    let mut pending_body: Option<(String, Vec<String>)> = None;
    let mut skip_analysis = false;
    // An analysis line was matched: the next answer must be a move.
    let mut analysis_pending = false;
    for step in steps {
        match step {
            Step::Send(text) => {
                let text = substitute(&text, &model, &vars)?;
                engine.send_raw(text.as_bytes());
                // The model reads what was sent line by line, blocks included.
                for piece in text.split(['\n', '\r']) {
                    model.sent(piece, &mut pending_body);
                }
            }
            Step::Expect(pattern) => {
                let pattern = vars.iter().fold(pattern, |p, (name, (x, y))| {
                    p.replace(&format!("{{${name}}}"), &format!("{x},{y}"))
                });
                let timeout = within.take().map_or(common::slack(ANSWER_TIMEOUT), |d| {
                    (engine.last_send + d).saturating_duration_since(Instant::now())
                });
                let wanted = Analysis {
                    expected: pattern.starts_with("INFO "),
                    skipped: skip_analysis,
                };
                let line = answer(&mut engine, timeout, wanted)?;
                match common::form(&line) {
                    Some(Form::Analysis) => analysis_pending = true,
                    form => {
                        if analysis_pending && !matches!(form, Some(Form::Moves(_))) {
                            return Err(format!("INFO analysis before a non-move answer `{line}`"));
                        }
                        analysis_pending = false;
                        model.answered(&line)?;
                    }
                }
                let captures = matches_any(&pattern, &line)
                    .ok_or_else(|| format!("expected `{pattern}`, got `{line}`"))?;
                vars.extend(captures);
            }
            Step::SkipAnalysis => skip_analysis = true,
            Step::Sleep(ms) => std::thread::sleep(Duration::from_millis(ms)),
            Step::Within(ms) => within = Some(Duration::from_millis(ms)),
            Step::Quiet(ms) => {
                if let Some(out) = engine.recv(Duration::from_millis(ms)) {
                    return Err(format!("expected silence, got {out:?}"));
                }
            }
            Step::End(allow) => {
                let sent = Instant::now();
                engine.send_raw(b"END\r\n");
                exit_promptly(&mut engine)?;
                for out in engine.rest() {
                    match out {
                        Out::Line(at, line) if at >= sent => {
                            return Err(format!("output after END: `{line}`"));
                        }
                        // Before END: a move the transcript allows, and its notes.
                        Out::Line(_, line)
                            if allow.is_some()
                                && matches!(
                                    common::form(&line),
                                    Some(Form::Note | Form::Analysis)
                                ) => {}
                        Out::Line(_, line)
                            if allow
                                .as_ref()
                                .is_some_and(|p| matches_any(p, &line).is_some()) => {}
                        other => return Err(format!("unexpected output {other:?}")),
                    }
                }
                return silent_stderr(&mut engine);
            }
            Step::Eof => {
                // Requests still unanswered get their answers, then the engine leaves; a
                // block cut short by the end of input is one of them.
                if pending_body.take().is_some() {
                    model.effects.push_back(Effect::Nothing);
                }
                engine.close_stdin();
                exit_promptly(&mut engine)?;
                for out in engine.rest() {
                    let Out::Line(_, line) = out else {
                        return Err(format!("{out:?}"));
                    };
                    match common::form(&line) {
                        Some(Form::Note | Form::Analysis) => {}
                        Some(_) => model.answered(&line)?,
                        None => return Err(format!("line of no allowed form: `{line}`")),
                    }
                }
                if !model.effects.is_empty() {
                    return Err(format!(
                        "{} request(s) unanswered at end of input",
                        model.effects.len()
                    ));
                }
                return silent_stderr(&mut engine);
            }
        }
    }
    Err("transcript has no ending".into())
}

/// What [`answer`] does with `INFO` analysis lines.
#[derive(Clone, Copy)]
struct Analysis {
    /// The pattern is one: the next analysis line is the answer.
    expected: bool,
    /// Skip them as `MESSAGE` lines (`@skip-analysis`); else one is an error.
    skipped: bool,
}

/// The next answer line (or analysis line, when one is expected), with any
/// `MESSAGE`/`DEBUG` lines before it, which are allowed only before a move.
fn answer(engine: &mut Engine, timeout: Duration, analysis: Analysis) -> Result<String, String> {
    let deadline = Instant::now() + timeout;
    let mut notes = 0;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match engine.recv(left) {
            None => return Err(format!("no answer within {timeout:?}")),
            Some(Out::Bad(e)) => return Err(e),
            Some(Out::Line(_, line)) => match common::form(&line) {
                None => return Err(format!("line of no allowed form: `{line}`")),
                Some(Form::Note) => notes += 1,
                Some(Form::Analysis) if analysis.expected => return Ok(line),
                Some(Form::Analysis) if analysis.skipped => notes += 1,
                Some(Form::Analysis) => {
                    return Err(format!("analysis line `{line}` that no pattern asks for"));
                }
                Some(form) => {
                    if notes > 0 && !matches!(form, Form::Moves(_)) {
                        return Err(format!("MESSAGE/DEBUG before a non-move answer `{line}`"));
                    }
                    return Ok(line);
                }
            },
        }
    }
}

/// After END or end of input: exit status 0 within [`EXIT_WITHIN`].
fn exit_promptly(engine: &mut Engine) -> Result<(), String> {
    let within = common::slack(EXIT_WITHIN);
    match engine.wait_exit(within) {
        None => Err(format!(
            "still running {within:?} after the end of the conversation"
        )),
        Some(status) if !status.success() => Err(format!("exit status {status}")),
        Some(_) => Ok(()),
    }
}

fn silent_stderr(engine: &mut Engine) -> Result<(), String> {
    let stderr = engine.stderr();
    if stderr.is_empty() {
        Ok(())
    } else {
        Err(format!("stderr is not empty: {stderr:?}"))
    }
}

/// Replaces `{$name}` and `{free x,y}` in a send.
fn substitute(
    text: &str,
    model: &Model,
    vars: &HashMap<String, (i64, i64)>,
) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let close = rest[open..].find('}').ok_or("unclosed { in a send")? + open;
        let inner = &rest[open + 1..close];
        if let Some(name) = inner.strip_prefix('$') {
            let (x, y) = vars
                .get(name)
                .ok_or_else(|| format!("no move named {name}"))?;
            let _ = write!(out, "{x},{y}");
        } else if let Some(at) = inner.strip_prefix("free ") {
            let from = common::parse_move(at.trim()).ok_or("bad {free x,y}")?;
            let (x, y) = model.free_from(from).ok_or("no free cell")?;
            let _ = write!(out, "{x},{y}");
        } else {
            return Err(format!("unknown placeholder {{{inner}}} in a send"));
        }
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// What the runner knows of the game: the board size and the occupied cells, updated from
/// the commands sent when their answers show they were accepted.
#[derive(Default)]
struct Model {
    size: Option<(i64, i64)>,
    stones: HashSet<(i64, i64)>,
    /// One entry per sent request that gets an answer, oldest first.
    effects: VecDeque<Effect>,
}

#[derive(Debug)]
enum Effect {
    /// START/RECTSTART/RESTART: on `OK`, a new empty board.
    NewBoard(Option<(i64, i64)>),
    /// TAKEBACK: on `OK`, the cell is freed.
    Remove((i64, i64)),
    /// TURN: on a move, the opponent's stone is there first.
    Add((i64, i64)),
    /// BOARD/SWAP2BOARD: on a move, these are the stones.
    Replace(Vec<(i64, i64)>),
    /// Any other request.
    Nothing,
}

impl Model {
    /// Notes a line sent; block bodies are gathered in `body` until DONE.
    fn sent(&mut self, line: &str, body: &mut Option<(String, Vec<String>)>) {
        let line = line.trim();
        if line.is_empty() {
            return;
        }
        let upper = line.to_ascii_uppercase();
        if let Some((word, lines)) = body {
            if upper == "DONE" {
                let cells: Vec<(i64, i64)> = lines.iter().filter_map(|l| coords(l)).collect();
                if word == "YXBOARD" {
                    // No answer, unless the block is bad.
                    match self.valid_body(lines) {
                        Some(cells) => self.stones = cells,
                        None => self.effects.push_back(Effect::Nothing),
                    }
                } else if word == "BOARD" || word == "SWAP2BOARD" {
                    self.effects.push_back(Effect::Replace(cells));
                } else {
                    self.effects.push_back(Effect::Nothing);
                }
                *body = None;
            } else {
                lines.push(line.to_string());
            }
            return;
        }
        let (word, args) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let word = word.to_ascii_uppercase();
        let args = args.trim();
        let effect = match word.as_str() {
            "INFO" | "YXSTOP" | "STOP" | "YXHASHCLEAR" | "END" => return,
            // Answered by two lines.
            "YXSHOWINFO" => {
                self.effects.push_back(Effect::Nothing);
                Effect::Nothing
            }
            "BOARD" | "YXBOARD" | "SWAP2BOARD" | "YXBLOCK" | "YXBLOCKUNDO" => {
                *body = Some((word, Vec::new()));
                return;
            }
            "START" => Effect::NewBoard(args.parse().ok().map(|n| (n, n))),
            "RECTSTART" => Effect::NewBoard(coords(args)),
            "RESTART" => Effect::NewBoard(self.size),
            "TAKEBACK" => coords(args).map_or(Effect::Nothing, Effect::Remove),
            "TURN" => coords(args).map_or(Effect::Nothing, Effect::Add),
            _ => Effect::Nothing,
        };
        self.effects.push_back(effect);
    }

    /// Checks an answer line against the model and updates it.
    fn answered(&mut self, line: &str) -> Result<(), String> {
        let effect = self
            .effects
            .pop_front()
            .ok_or_else(|| format!("answer `{line}` to no request"))?;
        match (common::form(line), effect) {
            (Some(Form::Ok), Effect::NewBoard(size)) => {
                self.size = size;
                self.stones.clear();
            }
            (Some(Form::Ok), Effect::Remove(cell)) => {
                self.stones.remove(&cell);
            }
            (Some(Form::Moves(moves)), effect) => {
                match effect {
                    Effect::Add(cell) => {
                        self.stones.insert(cell);
                    }
                    Effect::Replace(cells) => self.stones = cells.into_iter().collect(),
                    _ => {}
                }
                let (w, h) = self.size.ok_or("a move before any board")?;
                for m in moves {
                    if !(0..w).contains(&m.0) || !(0..h).contains(&m.1) {
                        return Err(format!("move {},{} is off the {w}x{h} board", m.0, m.1));
                    }
                    if !self.stones.insert(m) {
                        return Err(format!("move {},{} is on an occupied cell", m.0, m.1));
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The cells of a `BOARD`-style body if every line is `x,y,f` (f in 1..=3) on a
    /// distinct cell of the board.
    fn valid_body(&self, lines: &[String]) -> Option<HashSet<(i64, i64)>> {
        let (w, h) = self.size?;
        let mut cells = HashSet::new();
        for line in lines {
            let parts: Vec<i64> = line
                .split(',')
                .map(|t| t.trim().parse().ok())
                .collect::<Option<_>>()?;
            let [x, y, f] = parts[..] else { return None };
            let fits = (0..w).contains(&x) && (0..h).contains(&y) && (1..=3).contains(&f);
            if !fits || !cells.insert((x, y)) {
                return None;
            }
        }
        Some(cells)
    }

    fn free_from(&self, from: (i64, i64)) -> Option<(i64, i64)> {
        let (w, h) = self.size?;
        let start = from.1 * w + from.0;
        (start..w * h)
            .chain(0..start)
            .map(|i| (i % w, i / w))
            .find(|c| !self.stones.contains(c))
    }
}

/// The first two numbers of `x,y[,f]`, if they parse.
fn coords(s: &str) -> Option<(i64, i64)> {
    let mut it = s.split(',').map(|t| t.trim().parse::<i64>());
    match (it.next(), it.next()) {
        (Some(Ok(x)), Some(Ok(y))) => Some((x, y)),
        _ => None,
    }
}

/// Matches `line` against `pattern`'s ` || ` alternatives; the captures of the first that
/// matches.
fn matches_any(pattern: &str, line: &str) -> Option<Vec<(String, (i64, i64))>> {
    pattern.split(" || ").find_map(|p| {
        let tokens = tokenize(p)?;
        let mut caps = Vec::new();
        matches(&tokens, line, &mut caps).then_some(caps)
    })
}

#[derive(Debug)]
enum Token {
    Lit(String),
    Num,
    Any {
        nonempty: bool,
    },
    OneOf(Vec<String>),
    Move {
        except: Vec<(i64, i64)>,
        name: Option<String>,
    },
}

fn tokenize(p: &str) -> Option<Vec<Token>> {
    let mut tokens = Vec::new();
    let mut rest = p;
    while let Some(open) = rest.find('{') {
        if open > 0 {
            tokens.push(Token::Lit(rest[..open].to_string()));
        }
        let close = rest[open..].find('}')? + open;
        let inner = &rest[open + 1..close];
        tokens.push(match inner {
            "n" => Token::Num,
            "any" => Token::Any { nonempty: false },
            "text" => Token::Any { nonempty: true },
            "move" => Token::Move {
                except: vec![],
                name: None,
            },
            _ if inner.starts_with("move except ") => Token::Move {
                except: inner["move except ".len()..]
                    .split_whitespace()
                    .filter_map(common::parse_move)
                    .collect(),
                name: None,
            },
            _ if inner.starts_with("move=") => Token::Move {
                except: vec![],
                name: Some(inner[5..].to_string()),
            },
            _ => Token::OneOf(inner.split('|').map(str::to_string).collect()),
        });
        rest = &rest[close + 1..];
    }
    if !rest.is_empty() {
        tokens.push(Token::Lit(rest.to_string()));
    }
    Some(tokens)
}

/// Backtracking match of the whole of `s`.
fn matches(tokens: &[Token], s: &str, caps: &mut Vec<(String, (i64, i64))>) -> bool {
    let Some((first, rest)) = tokens.split_first() else {
        return s.is_empty();
    };
    let digits = |t: &str| t.bytes().take_while(u8::is_ascii_digit).count();
    match first {
        Token::Lit(l) => s
            .strip_prefix(l.as_str())
            .is_some_and(|r| matches(rest, r, caps)),
        Token::OneOf(options) => options.iter().any(|o| {
            s.strip_prefix(o.as_str())
                .is_some_and(|r| matches(rest, r, caps))
        }),
        Token::Num => {
            let n = digits(s);
            n > 0 && matches(rest, &s[n..], caps)
        }
        Token::Any { nonempty } => {
            let min = usize::from(*nonempty);
            (min..=s.len())
                .filter(|&i| s.is_char_boundary(i))
                .any(|i| matches(rest, &s[i..], caps))
        }
        Token::Move { except, name } => {
            let x = digits(s);
            let after_x = &s[x..];
            let Some(after_comma) = after_x.strip_prefix(',') else {
                return false;
            };
            let y = digits(after_comma);
            let len = x + 1 + y;
            let Some(m) = common::parse_move(&s[..len]) else {
                return false;
            };
            if except.contains(&m) {
                return false;
            }
            let mark = caps.len();
            if let Some(name) = name {
                caps.push((name.clone(), m));
            }
            let ok = matches(rest, &s[len..], caps);
            if !ok {
                caps.truncate(mark);
            }
            ok
        }
    }
}

fn patterns_match_as_documented() {
    assert!(matches_any("{move}", "7,7").is_some());
    assert!(matches_any("{move}", "7,7 ").is_none());
    assert!(matches_any("{move} {move} {move}", "7,7 8,6 6,9").is_some());
    assert!(matches_any("{move except 6,8}", "6,8").is_none());
    assert!(matches_any("SWAP || {move}", "SWAP").is_some());
    assert!(matches_any("{6,7|11,7}", "11,7").is_some());
    assert!(matches_any("ERROR {text}", "ERROR ").is_none());
    assert!(matches_any("FORBID {any}0707{any}", "FORBID 0707.").is_some());
    let caps = matches_any("{move=m}", "3,4").unwrap();
    assert_eq!(caps, [("m".to_string(), (3, 4))]);
}

fn forms_accept_the_allowed_lines_only() {
    use common::form;
    assert_eq!(form("OK"), Some(Form::Ok));
    assert_eq!(form("7,7 8,8"), Some(Form::Moves(vec![(7, 7), (8, 8)])));
    assert_eq!(form("FORBID 09121011."), Some(Form::Forbid));
    assert_eq!(form("FORBID ."), Some(Form::Forbid));
    assert_eq!(form("MESSAGE INFO MAX_HASH_SIZE 22"), Some(Form::GuiLimit));
    assert_eq!(form("MESSAGE INFO MAX_HASH_SIZE x"), Some(Form::Note));
    assert_eq!(form("MESSAGE REALTIME BEST 7,7"), Some(Form::Note));
    for analysis in [
        "INFO PV 0",
        "INFO PV DONE",
        "INFO TOTALNODES 123456",
        "INFO EVAL -35",
        "INFO EVAL +M3",
        "INFO EVAL -M0",
        "INFO WINRATE 0.731059",
        "INFO WINRATE 1",
        "INFO WINRATE 1.23457e-05",
        "INFO BESTLINE 7,7 8,8",
    ] {
        assert_eq!(form(analysis), Some(Form::Analysis), "{analysis:?}");
    }
    assert_eq!(
        form("name=\"Hoshi\", version=\"0.1.0\", author=\"x y\""),
        Some(Form::About)
    );
    for bad in [
        "OK ",
        "ok",
        "MESSAGE",
        "MESSAGE  ",
        "ERROR",
        "7,7 ",
        "07,7",
        "-1,2",
        "7, 7",
        "FORBID 123.",
        "name=\"x\"",
        "INFO PV",
        "INFO pv 0",
        "INFO EVAL M3",
        "INFO WINRATE 1.5",
        "INFO BESTLINE 7,7  8,8",
        "INFO show_detail 2",
    ] {
        assert_eq!(form(bad), None, "{bad:?}");
    }
}
