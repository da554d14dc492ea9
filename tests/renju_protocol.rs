//! `YXSHOWFORBID` through the real binary, on every position of
//! `tests/data/renju-forbidden.jsonl` (quintet, mintaka) set up with `YXBOARD`: a complete
//! forbidden map must come back exactly, in the protocol's `FORBID xxyy….` form, and every
//! single-point check must be listed exactly when the data call it forbidden.

mod common;

use std::fmt::Write as _;
use std::time::Duration;

use common::{Engine, Out};
use serde_json::Value;

const FORBIDDEN: &str = include_str!("data/renju-forbidden.jsonl");

fn points(v: &Value) -> Vec<(u64, u64)> {
    v.as_array()
        .expect("a list of points")
        .iter()
        .map(|p| (p[0].as_u64().expect("x"), p[1].as_u64().expect("y")))
        .collect()
}

/// The `YXBOARD` block for a position: black stones first, with the field that makes the
/// engine read them as black whatever the counts (see `position` in the session: equal
/// counts or an unusual difference make the first listed own stone black; when white has
/// one more, the stone to move is white's, so black is the opponent).
fn yxboard(black: &[(u64, u64)], white: &[(u64, u64)]) -> String {
    let (b, w) = if white.len() == black.len() + 1 {
        (2, 1)
    } else {
        (1, 2)
    };
    let mut s = String::from("YXBOARD\n");
    for &(x, y) in black {
        let _ = writeln!(s, "{x},{y},{b}");
    }
    for &(x, y) in white {
        let _ = writeln!(s, "{x},{y},{w}");
    }
    s.push_str("DONE\n");
    s
}

#[test]
fn yxshowforbid_agrees_with_every_forbidden_map_and_point_check() {
    let mut engine = Engine::spawn(&["--level", "hard"]);
    engine.send_raw(b"START 15\nINFO rule 4\n");
    assert!(
        matches!(engine.recv(common::slack(Duration::from_secs(5))), Some(Out::Line(_, l)) if l == "OK"),
        "START 15 must answer OK"
    );
    let (mut maps, mut point_checks) = (0, 0);
    let mut failures = String::new();
    for line in FORBIDDEN.lines().filter(|l| !l.trim().is_empty()) {
        let case: Value = serde_json::from_str(line).expect("a JSON record");
        let (black, white) = (points(&case["black"]), points(&case["white"]));
        engine.send_raw(format!("RESTART\n{}YXSHOWFORBID\n", yxboard(&black, &white)).as_bytes());
        let replies: Vec<String> = (0..2)
            .map(
                |_| match engine.recv(common::slack(Duration::from_secs(5))) {
                    Some(Out::Line(_, l)) => l,
                    other => panic!("no reply for {}: {other:?}", case["id"]),
                },
            )
            .collect();
        let id = &case["id"];
        if replies[0] != "OK" {
            let _ = writeln!(failures, "{id}: RESTART answered {:?}", replies[0]);
            continue;
        }
        let answer = &replies[1];
        if case["complete"] == Value::Bool(true) {
            // Row-major, as the answer lists them.
            let mut expected: Vec<(u64, u64)> = points(&case["forbidden"]);
            expected.sort_by_key(|&(x, y)| (y, x));
            let mut want = String::from("FORBID ");
            for (x, y) in expected {
                let _ = write!(want, "{x:02}{y:02}");
            }
            want.push('.');
            if *answer != want {
                let _ = writeln!(failures, "{id}: got {answer}, want {want}");
            }
            maps += 1;
        }
        let listed = |x: u64, y: u64| {
            answer
                .strip_prefix("FORBID ")
                .and_then(|l| l.strip_suffix('.'))
                .is_some_and(|cells| {
                    cells
                        .as_bytes()
                        .chunks(4)
                        .any(|c| c == format!("{x:02}{y:02}").as_bytes())
                })
        };
        for check in case["checks"].as_array().into_iter().flatten() {
            let (x, y) = (check[0].as_u64().expect("x"), check[1].as_u64().expect("y"));
            if listed(x, y) == check[2].is_null() {
                let _ = writeln!(failures, "{id}: {x},{y} should be {} in {answer}", check[2]);
            }
            point_checks += 1;
        }
    }
    engine.send_raw(b"END\n");
    assert!(
        engine
            .wait_exit(common::slack(Duration::from_secs(2)))
            .is_some(),
        "no exit after END"
    );
    assert_eq!(engine.stderr(), "", "stderr must stay silent");
    assert!(
        maps >= 17 && point_checks >= 20,
        "only {maps} maps and {point_checks} checks"
    );
    assert!(failures.is_empty(), "{failures}");
}
