//! Yixin-Board's realtime display through the real binary (issue 11): with
//! `INFO show_detail` asking for it, a search writes `MESSAGE REALTIME` lines before its
//! answer, the last `BEST` naming the move answered; without it, none. (Transcripts check
//! answers and skip `MESSAGE` lines, so they cannot tell.) Bit 2's analysis block comes
//! with them, its last line naming the move too (t31 checks its shape).

mod common;

use std::time::Duration;

use common::{Engine, Out};

/// Every line up to and including the next answer that is neither a `MESSAGE` line nor an
/// `INFO` analysis line.
fn through_answer(engine: &mut Engine) -> Vec<String> {
    let mut lines = Vec::new();
    loop {
        match engine.recv(common::slack(Duration::from_secs(60))) {
            Some(Out::Line(_, line)) => {
                let done = !line.starts_with("MESSAGE ") && !line.starts_with("INFO ");
                lines.push(line);
                if done {
                    return lines;
                }
            }
            other => panic!("expected a line, got {other:?} after {lines:?}"),
        }
    }
}

/// The lines of master's nine-ply search of a two-stone position, `show_detail` as given.
fn search(show_detail: u8) -> Vec<String> {
    let mut engine = Engine::spawn(&["--level", "master"]);
    let script = format!(
        "info show_detail {show_detail}\nSTART 15\nINFO max_depth 9\nBOARD\n7,7,2\n8,8,1\nDONE\n"
    );
    engine.send_raw(script.as_bytes());
    assert_eq!(through_answer(&mut engine), ["OK"]);
    let lines = through_answer(&mut engine);
    engine.close_stdin();
    assert!(
        engine
            .wait_exit(common::slack(Duration::from_secs(5)))
            .is_some_and(|s| s.success())
    );
    assert_eq!(engine.stderr(), "");
    lines
}

#[test]
fn realtime_lines_come_before_the_move_when_asked_for_only() {
    let lines = search(3);
    let answer = lines.last().unwrap();
    assert!(common::parse_move(answer).is_some(), "{lines:?}");
    let realtime: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("MESSAGE REALTIME "))
        .collect();
    // Depths 8 and 9: a REFRESH, then BEST, for each.
    assert!(realtime.len() >= 4, "{lines:?}");
    assert_eq!(realtime[0], "MESSAGE REALTIME REFRESH");
    assert_eq!(
        realtime.last().unwrap().as_str(),
        format!("MESSAGE REALTIME BEST {answer}"),
        "{lines:?}"
    );
    assert!(
        realtime
            .iter()
            .all(|l| l.as_str() == "MESSAGE REALTIME REFRESH"
                || ["BEST ", "LOST "].iter().any(|k| l
                    .strip_prefix("MESSAGE REALTIME ")
                    .and_then(|r| r.strip_prefix(k))
                    .and_then(common::parse_move)
                    .is_some())),
        "{lines:?}"
    );
    let best_lines: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("INFO BESTLINE "))
        .collect();
    assert!(!best_lines.is_empty(), "{lines:?}");
    assert!(
        best_lines
            .last()
            .unwrap()
            .starts_with(&format!("INFO BESTLINE {answer}")),
        "{lines:?}"
    );
    let quiet = search(0);
    assert!(
        quiet
            .iter()
            .all(|l| !l.starts_with("MESSAGE REALTIME") && !l.starts_with("INFO ")),
        "{quiet:?}"
    );
    assert_eq!(quiet.last(), lines.last(), "the display changes nothing");
}
