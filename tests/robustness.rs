//! Thousands of random, malformed and valid inputs in one process, with a fixed seed.
//!
//! The engine must stay alive, keep stderr empty, and answer every request with exactly
//! one line of the right kind. To make "exactly one" exact, every generated item is
//! followed by an `ABOUT` fence: everything printed before the fence's ABOUT line is that
//! item's answer. The test keeps its own model of the game (size, stones, blocked cells)
//! so that it knows, for each item, whether the answer must be `OK`, a move on an empty
//! cell, `ERROR`, `UNKNOWN`, a `FORBID` list, the swap2 opening, or nothing at all.

mod common;

use std::collections::HashSet;
use std::time::Duration;

use common::{Engine, Form, Out};
use hoshi::rng::Rng;

const SEED: u64 = 0x5EED_2026;
const ITEMS: usize = 3000;
const ANSWER_TIMEOUT: Duration = Duration::from_secs(10);

/// Command words the engine knows; garbage must not start with one of them.
const KNOWN: &[&str] = &[
    "START",
    "RECTSTART",
    "RESTART",
    "INFO",
    "BEGIN",
    "TURN",
    "BOARD",
    "YXBOARD",
    "SWAP2BOARD",
    "TAKEBACK",
    "PLAY",
    "ABOUT",
    "END",
    "STOP",
    "YXSTOP",
    "YXSHOWFORBID",
    "YXHASHCLEAR",
    "YXBLOCK",
    "YXBLOCKUNDO",
    "YXQUERYDATABASEALL",
    "YXQUERYDATABASEALLT",
    "YXQUERYDATABASEONE",
    "YXQUERYDATABASETEXT",
];

/// What an item must be answered with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    Nothing,
    Ok,
    Error,
    Unknown,
    /// A move on an empty cell, which then holds our stone.
    Move,
    /// This exact move (PLAY echoes its square).
    Echo((i64, i64)),
    Forbid,
    /// Three stones (the swap2 opening), which become the position.
    Opening,
}

/// The test's view of the game.
#[derive(Default)]
struct Model {
    size: Option<(i64, i64)>,
    stones: HashSet<(i64, i64)>,
    blocked: HashSet<(i64, i64)>,
}

impl Model {
    fn cells(&self) -> Vec<(i64, i64)> {
        let Some((w, h)) = self.size else {
            return vec![];
        };
        (0..h).flat_map(|y| (0..w).map(move |x| (x, y))).collect()
    }

    fn empty(&self) -> Vec<(i64, i64)> {
        self.cells()
            .into_iter()
            .filter(|c| !self.stones.contains(c) && !self.blocked.contains(c))
            .collect()
    }

    fn reset(&mut self, size: (i64, i64)) {
        self.size = Some(size);
        self.stones.clear();
        self.blocked.clear();
    }
}

/// One generated input and its expected answer; `apply` updates the model once answered.
struct Item {
    text: String,
    bytes: Vec<u8>,
    expect: Expect,
    apply: Box<dyn FnOnce(&mut Model)>,
}

fn item(text: String, expect: Expect, apply: impl FnOnce(&mut Model) + 'static) -> Item {
    Item {
        bytes: text.clone().into_bytes(),
        text,
        expect,
        apply: Box::new(apply),
    }
}

fn pick<T: Copy>(rng: &mut Rng, xs: &[T]) -> T {
    xs[rng.below(xs.len())]
}

fn below(rng: &mut Rng, n: usize) -> i64 {
    i64::try_from(rng.below(n)).expect("small")
}

fn eol(rng: &mut Rng) -> &'static str {
    pick(rng, &["\n", "\r\n", "\r", "\r\n\r\n", "\n  \n"])
}

/// A command word in random letter case, padded with random blanks.
fn word(rng: &mut Rng, w: &str) -> String {
    let cased: String = w
        .chars()
        .map(|c| {
            if rng.below(3) == 0 {
                c.to_ascii_lowercase()
            } else {
                c
            }
        })
        .collect();
    format!("{}{cased}", pick(rng, &["", " ", "\t", "  "]))
}

fn coord(rng: &mut Rng, (x, y): (i64, i64)) -> String {
    let forms = [
        format!("{x},{y}"),
        format!("{x}, {y}"),
        format!("{x} ,{y}"),
        format!(" {x} , {y} "),
    ];
    forms[rng.below(forms.len())].clone()
}

/// Random bytes with no line break: printable ASCII, UTF-8, invalid bytes, controls.
fn garbage(rng: &mut Rng) -> Vec<u8> {
    let len = if rng.below(50) == 0 {
        70_000
    } else {
        1 + rng.below(40)
    };
    let mut v = Vec::with_capacity(len);
    while v.len() < len {
        match rng.below(10) {
            0 => v.extend("é漢".as_bytes()),
            1 => v.push(0x80 + u8::try_from(rng.below(128)).unwrap_or(0)),
            2 => v.push(pick(rng, &[0u8, 1, 7, 9, 11, 12, 27, 127])),
            _ => v.push(b' ' + u8::try_from(rng.below(95)).unwrap_or(0)),
        }
    }
    v
}

/// What the engine makes of a garbage line: blank, or an unknown word, or `None` when it
/// happens to start with a known command word (then it is not used).
fn garbage_expect(bytes: &[u8]) -> Option<Expect> {
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(64 * 1024)]).to_string();
    let line = text.trim();
    if line.is_empty() {
        return Some(Expect::Nothing);
    }
    let first = line
        .split(char::is_whitespace)
        .next()
        .unwrap_or_default()
        .to_ascii_uppercase();
    (!KNOWN.contains(&first.as_str())).then_some(Expect::Unknown)
}

/// Inputs that are malformed whatever the state: always one ERROR.
fn malformed(rng: &mut Rng) -> String {
    let e = eol(rng);
    let bad_body = pick(
        rng,
        &[
            "1,1,9",
            "a,b,c",
            "1;1;1",
            "1,1",
            "1,1,1,1",
            "99999999999999999999,1,1",
        ],
    );
    let options = [
        format!(
            "{}{e}",
            pick(
                rng,
                &["TURN a,b", "TURN 5", "TURN 1,2,3", "TURN", "turn 1;2"]
            )
        ),
        format!(
            "{}{e}",
            pick(
                rng,
                &["START x", "START 4", "START -5", "START 33", "START"]
            )
        ),
        format!(
            "{}{e}",
            pick(rng, &["RECTSTART 3,3", "RECTSTART 10", "RECTSTART 40,10"])
        ),
        format!(
            "{}{e}",
            pick(rng, &["TAKEBACK ,", "TAKEBACK 1", "PLAY 1;2", "PLAY x,1"])
        ),
        format!(
            "{}{e}",
            pick(rng, &["BEGIN 1", "RESTART x", "ABOUT x", "YXSHOWFORBID 1"])
        ),
        format!("BOARD{e}{bad_body}{e}DONE{e}"),
        format!("SWAP2BOARD{e}1,1{e}DONE{e}"),
        format!("BOARD 3{e}DONE{e}"),
    ];
    options[rng.below(options.len())].clone()
}

/// The next item, from the current state.
fn generate(rng: &mut Rng, m: &Model) -> Item {
    let e = eol(rng);
    let started = m.size.is_some();
    let empty = m.empty();
    match rng.below(20) {
        0 | 1 => loop {
            let mut bytes = garbage(rng);
            if let Some(expect) = garbage_expect(&bytes) {
                let text = format!("<{} garbage bytes>", bytes.len());
                bytes.extend(e.as_bytes());
                return Item {
                    text,
                    bytes,
                    expect,
                    apply: Box::new(|_| {}),
                };
            }
        },
        2 => item(malformed(rng), Expect::Error, |_| {}),
        3 => {
            let (key, value) = pick(
                rng,
                &[
                    ("timeout_turn", "50"),
                    ("time_left", "-5"),
                    ("time_left", "2147483647"),
                    ("rule", "1"),
                    ("rule", "4"),
                    ("rule", "0"),
                    ("rule", "9"),
                    ("rule", "zz"),
                    ("level", "hard"),
                    ("level", "easy"),
                    ("level", "godlike"),
                    ("max_depth", "2"),
                    ("max_node", "-1"),
                    ("time_left", "-9223372036854775808"),
                    ("timeout_match", "99999999999999999999"),
                    ("folder", "C:\\a b\\c"),
                    ("whatever", "1 2 3"),
                    ("", ""),
                ],
            );
            item(
                format!("{} {key} {value}{e}", word(rng, "INFO")),
                Expect::Nothing,
                |_| {},
            )
        }
        4 => {
            let n = pick(rng, &[5, 5, 6]) + below(rng, 10);
            item(
                format!("{} {n}{e}", word(rng, "START")),
                Expect::Ok,
                move |m| m.reset((n, n)),
            )
        }
        5 => {
            let (w, h) = (5 + below(rng, 28), 5 + below(rng, 5));
            let text = format!("{} {}{e}", word(rng, "RECTSTART"), coord(rng, (w, h)));
            item(text, Expect::Ok, move |m| m.reset((w, h)))
        }
        6 => {
            let size = m.size;
            let expect = if started { Expect::Ok } else { Expect::Error };
            item(format!("{}{e}", word(rng, "RESTART")), expect, move |m| {
                if let Some(s) = size {
                    m.reset(s);
                }
            })
        }
        7 => {
            let ok = started && m.stones.is_empty() && !empty.is_empty();
            item(
                format!("{}{e}", word(rng, "BEGIN")),
                if ok { Expect::Move } else { Expect::Error },
                |_| {},
            )
        }
        8..=11 => {
            // TURN: mostly on an empty cell, sometimes occupied or off the board.
            let target = match (rng.below(6), m.size) {
                (0, Some((w, _))) => pick(rng, &[(w, 0), (0, -1), (-1, -1), (w + 7, 2)]),
                (1, _) if !m.stones.is_empty() => *m.stones.iter().min().unwrap_or(&(0, 0)),
                _ if !empty.is_empty() => pick(rng, &empty),
                _ => (0, 0),
            };
            let ok = started && empty.contains(&target) && empty.len() >= 2;
            let text = format!("{} {}{e}", word(rng, "TURN"), coord(rng, target));
            if ok {
                item(text, Expect::Move, move |m| {
                    m.stones.insert(target);
                })
            } else {
                item(text, Expect::Error, |_| {})
            }
        }
        12 => {
            // BOARD (or YXBOARD) with distinct cells, own, opponent's and blocked.
            let setup = rng.below(3) == 0;
            let mut cells: Vec<(i64, i64)> = Vec::new();
            let all = m.cells();
            // Now and then a nearly (or wholly) full board, to reach the game's end.
            let n = match rng.below(4) {
                0 => all.len().saturating_sub(rng.below(3)),
                _ => rng.below(all.len().min(12) + 1),
            };
            while cells.len() < n && !all.is_empty() {
                let c = pick(rng, &all);
                if !cells.contains(&c) {
                    cells.push(c);
                }
            }
            let fields: Vec<u8> = cells.iter().map(|_| pick(rng, &[1, 2, 1, 2, 3])).collect();
            let mut text = format!("{}{e}", word(rng, if setup { "YXBOARD" } else { "BOARD" }));
            for (c, f) in cells.iter().zip(&fields) {
                text.push_str(&format!("{},{f}{e}", coord(rng, *c)));
            }
            text.push_str(&format!("{}{e}", pick(rng, &["DONE", "done", " Done "])));
            let total = all.len();
            let ok = started && (setup || cells.len() < total);
            let expect = match (ok, setup) {
                (false, _) => Expect::Error,
                (true, true) => Expect::Nothing,
                (true, false) => Expect::Move,
            };
            item(text, expect, move |m| {
                if ok {
                    m.stones.clear();
                    m.blocked.clear();
                    for (c, f) in cells.into_iter().zip(fields) {
                        if f == 3 {
                            m.blocked.insert(c)
                        } else {
                            m.stones.insert(c)
                        };
                    }
                }
            })
        }
        13 => {
            let stone = m.stones.iter().min().copied();
            let target = match stone {
                Some(s) if rng.below(3) > 0 => s,
                _ => empty.first().copied().unwrap_or((0, 0)),
            };
            let ok = started && m.stones.contains(&target);
            let text = format!("{} {}{e}", word(rng, "TAKEBACK"), coord(rng, target));
            item(
                text,
                if ok { Expect::Ok } else { Expect::Error },
                move |m| {
                    if ok {
                        m.stones.remove(&target);
                    }
                },
            )
        }
        14 => {
            let target = if empty.is_empty() {
                (0, 0)
            } else {
                pick(rng, &empty)
            };
            let ok = started && empty.contains(&target);
            let text = format!("{} {}{e}", word(rng, "PLAY"), coord(rng, target));
            item(
                text,
                if ok {
                    Expect::Echo(target)
                } else {
                    Expect::Error
                },
                |_| {},
            )
        }
        15 => {
            let expect = if started {
                Expect::Forbid
            } else {
                Expect::Error
            };
            item(format!("{}{e}", word(rng, "YXSHOWFORBID")), expect, |_| {})
        }
        16 => {
            let expect = if started {
                Expect::Opening
            } else {
                Expect::Error
            };
            item(
                format!("{}{e}DONE{e}", word(rng, "SWAP2BOARD")),
                expect,
                |_| {},
            )
        }
        17 => {
            let w = pick(rng, &["YXSTOP", "STOP", "YXHASHCLEAR", "", "   ", "\t"]);
            item(format!("{w}{e}"), Expect::Nothing, |_| {})
        }
        _ => {
            let w = pick(rng, &["YXBLOCK", "YXQUERYDATABASEALL"]);
            item(
                format!("{}{e}1,1{e}DONE{e}", word(rng, w)),
                Expect::Unknown,
                |_| {},
            )
        }
    }
}

/// Reads the answer to one item up to the fence; checks count, form and placement.
fn check(engine: &mut Engine, model: &mut Model, it: Item) -> Result<(), String> {
    let mut answers = Vec::new();
    let mut notes_pending = false;
    loop {
        let line = match engine.recv(common::slack(ANSWER_TIMEOUT)) {
            None => return Err("no answer (engine dead or stuck)".into()),
            Some(Out::Bad(e)) => return Err(e),
            Some(Out::Line(_, line)) => line,
        };
        let form =
            common::form(&line).ok_or_else(|| format!("line of no allowed form: `{line}`"))?;
        match form {
            Form::About => break,
            Form::Note => notes_pending = true,
            _ => {
                if notes_pending && !matches!(form, Form::Moves(_)) {
                    return Err(format!("MESSAGE before `{line}`"));
                }
                notes_pending = false;
                answers.push((form, line));
            }
        }
    }
    if notes_pending {
        return Err("MESSAGE with no move after it".into());
    }
    let want = it.expect;
    let got = match (want, answers.as_slice()) {
        (Expect::Nothing, []) => {
            (it.apply)(model);
            return Ok(());
        }
        (_, [one]) => one,
        (_, many) => {
            return Err(format!(
                "expected {want:?}, got {} lines: {many:?}",
                many.len()
            ));
        }
    };
    let fits = match (want, &got.0) {
        (Expect::Ok, Form::Ok)
        | (Expect::Error, Form::Error)
        | (Expect::Unknown, Form::Unknown) => true,
        (Expect::Forbid, Form::Forbid) => true,
        (Expect::Echo(c), Form::Moves(v)) => v.as_slice() == [c],
        (Expect::Move, Form::Moves(v)) => v.len() == 1,
        (Expect::Opening, Form::Moves(v)) => v.len() == 3,
        _ => false,
    };
    if !fits {
        return Err(format!("expected {want:?}, got `{}`", got.1));
    }
    (it.apply)(model);
    if let Form::Moves(moves) = &got.0 {
        if want == Expect::Opening {
            model.stones.clear();
            model.blocked.clear();
        }
        for &mv in moves {
            if !model.empty().contains(&mv) {
                return Err(format!("move {},{} is not on an empty cell", mv.0, mv.1));
            }
            model.stones.insert(mv);
        }
    }
    Ok(())
}

#[test]
fn random_and_malformed_input_gets_exactly_one_answer_per_request() {
    let mut engine = Engine::spawn(&["--level", "easy", "--seed", "3"]);
    let mut rng = Rng::new(SEED);
    let mut model = Model::default();
    let mut log: Vec<String> = Vec::new();
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for i in 0..ITEMS {
        let it = generate(&mut rng, &model);
        let kind = format!("{:?}", it.expect);
        *seen
            .entry(kind.split('(').next().unwrap_or_default().to_string())
            .or_default() += 1;
        log.push(it.text.escape_debug().to_string());
        engine.send_raw(&it.bytes);
        engine.send_raw(b"ABOUT\n");
        if let Err(e) = check(&mut engine, &mut model, it) {
            let recent = log
                .iter()
                .rev()
                .take(5)
                .rev()
                .cloned()
                .collect::<Vec<_>>()
                .join("\n  ");
            panic!("item {i}: {e}\nlast items sent:\n  {recent}");
        }
    }
    // The mix must really exercise games, not only errors.
    println!("answers expected: {seen:?}");
    for (kind, at_least) in [
        ("Move", 300),
        ("Ok", 200),
        ("Error", 300),
        ("Unknown", 100),
        ("Nothing", 300),
        ("Echo", 50),
        ("Forbid", 50),
        ("Opening", 50),
    ] {
        let n = seen.get(kind).copied().unwrap_or(0);
        assert!(n >= at_least, "only {n} items expecting {kind}: {seen:?}");
    }
    engine.close_stdin();
    let status = engine
        .wait_exit(common::slack(Duration::from_secs(2)))
        .expect("engine did not exit at end of input");
    assert!(status.success(), "exit status {status}");
    let rest = engine.rest();
    assert!(rest.is_empty(), "output after the last answer: {rest:?}");
    assert_eq!(engine.stderr(), "", "stderr must stay empty");
}
