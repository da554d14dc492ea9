//! Scripted input through the real binary (issue 11): what comes with END is answered,
//! a search END interrupts is not, and the process leaves within 500 ms of END either way.
//! (Transcripts cannot express an abandoned answer; `protocol-tests/scripted-*.txt` hold
//! the one-write scripts.)

mod common;

use std::time::{Duration, Instant};

use common::{Engine, Out};

/// Managers allow half a second after END (protocol.md T29/T30).
const EXIT_WITHIN: Duration = Duration::from_millis(500);

/// A 60 s search on a 20x20 board with four stones.
const LONG_SEARCH: &[u8] =
    b"INFO timeout_turn 60000\nSTART 20\nBOARD\n10,10,1\n10,11,2\n11,11,1\n9,10,2\nDONE\n";

fn line(out: Option<Out>) -> String {
    match out {
        Some(Out::Line(_, l)) => l,
        other => panic!("expected a line, got {other:?}"),
    }
}

/// Sends `END` with `before` in the same write, and returns every line printed after it
/// once the engine has exited, which it must within [`EXIT_WITHIN`].
fn end_with(engine: &mut Engine, before: &[u8]) -> Vec<String> {
    let mut bytes = before.to_vec();
    bytes.extend_from_slice(b"END\n");
    let sent = Instant::now();
    engine.send_raw(&bytes);
    let status = engine.wait_exit(common::slack(EXIT_WITHIN));
    assert!(
        status.is_some_and(|s| s.success()),
        "{status:?} after {:?}",
        sent.elapsed()
    );
    let lines = engine
        .rest()
        .into_iter()
        .map(|o| match o {
            Out::Line(_, l) => l,
            Out::Bad(e) => panic!("{e}"),
        })
        .collect();
    assert_eq!(engine.stderr(), "");
    lines
}

#[test]
fn end_in_the_same_write_answers_everything_before_it() {
    // The default (strongest) level, so that the searches are real and cut short.
    let mut engine = Engine::spawn(&[]);
    // Up before the timed write: the 500 ms run from END, not from the start of a process
    // (which under Wine's `cmd /c`, as the Windows step runs it, can take longer).
    engine.send_raw(b"ABOUT\n");
    let about = line(engine.recv(common::slack(Duration::from_secs(10))));
    assert!(about.starts_with("name=\"Hoshi\""), "{about}");
    let lines = end_with(&mut engine, LONG_SEARCH);
    assert_eq!(lines.first().map(String::as_str), Some("OK"), "{lines:?}");
    let last = lines.last().unwrap();
    assert!(common::parse_move(last).is_some(), "{lines:?}");
}

#[test]
fn end_during_a_search_abandons_it_but_answers_what_came_with_end() {
    let mut engine = Engine::spawn(&[]);
    engine.send_raw(LONG_SEARCH);
    assert_eq!(
        line(engine.recv(common::slack(Duration::from_secs(10)))),
        "OK"
    );
    std::thread::sleep(Duration::from_millis(300));
    let lines = end_with(&mut engine, b"ABOUT\n");
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with("name=\"Hoshi\""), "{lines:?}");
}
