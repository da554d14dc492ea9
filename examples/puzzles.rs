//! Measures the master level on a file of won renju puzzles (the JSON-lines format of the
//! project's shared `vcf-puzzles.jsonl`: `black`, `white`, `to_move`, `vcf_moves`).
//!
//! `cargo run --release --example puzzles -- FILE [MS_PER_PUZZLE]`
//!
//! Each puzzle is searched once with a fresh table and a wall-clock limit (default
//! 1000 ms). A move counts as solved when it keeps the forced win: it makes five, or a
//! four the defender cannot stop (two five points, or a block that is forbidden for a
//! black defender), or a four whose only block leaves the attacker a VCF, checked by
//! Hoshi's VCF solver with a large budget. Prints the rate, the time distribution and
//! every miss.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use hoshi::board::{Board, Color, Pos};
use hoshi::pattern::PatternBoard;
use hoshi::rules::Rule;
use hoshi::search::vcf::Vcf;
use hoshi::search::{Request, Searcher};
use hoshi::time::Limits;
use serde_json::Value;

const RULE: Rule = Rule::Renju;

fn stones(v: &Value) -> Vec<Pos> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|p| Some(Pos::new(p[0].as_u64()? as u8, p[1].as_u64()? as u8)))
                .collect()
        })
        .unwrap_or_default()
}

/// Cells where `color` would win at once (a five, by the rule; five beats foul).
fn five_points(board: &Board, color: Color) -> Vec<Pos> {
    board
        .empty_cells()
        .filter(|&p| RULE.is_win(board, p, color))
        .collect()
}

/// Whether `mv` by `att` keeps a forced win by continuous fours.
fn keeps_the_win(board: &Board, att: Color, mv: Pos, max_moves: u8) -> bool {
    if RULE.foul(board, mv, att).is_some() {
        return false;
    }
    if RULE.is_win(board, mv, att) {
        return true;
    }
    let mut b = board.clone();
    if b.place(mv, att).is_err() || !five_points(&b, att.opponent()).is_empty() {
        return false;
    }
    let threats = five_points(&b, att);
    match threats.as_slice() {
        [] => false,
        [block] => {
            if RULE.foul(&b, *block, att.opponent()).is_some() {
                return true;
            }
            let _ = b.place(*block, att.opponent());
            let mut pb = PatternBoard::new(&b, RULE);
            Vcf::new()
                .solve(&mut pb, att, max_moves, 5_000_000, &mut || false)
                .is_some()
        }
        _ => true,
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: puzzles FILE [MS_PER_PUZZLE]");
        std::process::exit(2);
    };
    let ms: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        eprintln!("cannot read {path}: {e}");
        std::process::exit(2);
    });
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::new(64 << 20);
    let (mut solved, mut total) = (0, 0);
    let mut times: Vec<Duration> = Vec::new();
    let mut misses = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let Ok(p) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let mut board = Board::new(15, 15).expect("15x15");
        for (color, key) in [(Color::Black, "black"), (Color::White, "white")] {
            for pos in stones(&p[key]) {
                board.place(pos, color).expect("a valid puzzle");
            }
        }
        let me = if p["to_move"] == "white" {
            Color::White
        } else {
            Color::Black
        };
        let max_moves = p["vcf_moves"].as_u64().map_or(30, |n| n.min(60) as u8 + 2);
        searcher.clear();
        let start = Instant::now();
        let limits = Limits {
            soft_deadline: Some(start + Duration::from_millis(ms / 2)),
            deadline: Some(start + Duration::from_millis(ms)),
            ..Limits::default()
        };
        let r = searcher.search(Request::new(&board, RULE, me, limits).stop(&stop));
        let took = start.elapsed();
        times.push(took);
        total += 1;
        if keeps_the_win(&board, me, r.best, max_moves) {
            solved += 1;
        } else {
            let pv: Vec<String> = r.pv.iter().map(ToString::to_string).collect();
            misses.push(format!(
                "{} -> {} (depth {} score {} nodes {} pv {})",
                p["id"],
                r.best,
                r.depth,
                r.score,
                r.nodes,
                pv.join(" ")
            ));
        }
    }
    times.sort();
    let pct = |q: f64| times[((times.len() - 1) as f64 * q) as usize].as_millis();
    println!(
        "{path}: solved {solved}/{total} ({:.1} %) at {ms} ms per puzzle",
        100.0 * f64::from(solved) / f64::from(total.max(1))
    );
    if !times.is_empty() {
        println!(
            "time per puzzle: median {} ms, 90th percentile {} ms, max {} ms",
            pct(0.5),
            pct(0.9),
            pct(1.0)
        );
    }
    for m in &misses {
        println!("miss: {m}");
    }
}
