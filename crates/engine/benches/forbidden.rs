//! Forbidden-point checks per second over the renju positions of the test data: every
//! empty cell of every position in tests/data/renju-forbidden.jsonl, checked for black.
//!
//! A plain timing loop rather than criterion: the figure wanted is one throughput number,
//! and criterion's dependency tree is slow to build on the project's small machines.
//! Run with `cargo bench --bench forbidden`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use hoshi::board::{Board, Color, Pos};
use hoshi::rules::renju::{self, Grid};
use serde_json::Value;

const POSITIONS: &str = include_str!("../../../tests/data/renju-forbidden.jsonl");

fn positions() -> Vec<Board> {
    POSITIONS
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let rec: Value = serde_json::from_str(l).expect("a JSON record");
            let size = rec["size"].as_i64().expect("size");
            let mut b = Board::new(size, size).expect("board");
            for (key, c) in [("black", Color::Black), ("white", Color::White)] {
                for s in rec[key].as_array().expect("stones") {
                    let n = |i: usize| s[i].as_u64().expect("coordinate") as u8;
                    b.place(Pos::new(n(0), n(1)), c).expect("empty cell");
                }
            }
            b
        })
        .collect()
}

/// Runs `pass` (which returns how many checks it made) until `budget` has passed, and
/// returns checks per second.
fn rate(budget: Duration, mut pass: impl FnMut() -> usize) -> f64 {
    let start = Instant::now();
    let mut checks = 0;
    while start.elapsed() < budget {
        checks += pass();
    }
    checks as f64 / start.elapsed().as_secs_f64()
}

fn main() {
    let boards = positions();
    let cells: Vec<(usize, Vec<Pos>)> = boards
        .iter()
        .enumerate()
        .map(|(i, b)| (i, b.empty_cells().collect()))
        .collect();
    let total: usize = cells.iter().map(|(_, c)| c.len()).sum();
    let budget = Duration::from_secs(3);

    let grid = rate(budget, || {
        for (i, empties) in &cells {
            let mut g = Grid::new(&boards[*i]);
            for &p in empties {
                black_box(g.foul(black_box(p)));
            }
        }
        total
    });
    let api = rate(budget, || {
        for (i, empties) in &cells {
            for &p in empties {
                black_box(renju::foul(&boards[*i], black_box(p)));
            }
        }
        total
    });
    println!(
        "{} positions, {total} empty cells: {grid:.0} checks/s on a kept Grid, \
         {api:.0} checks/s through renju::foul (reads the board; copies it only near stones)",
        boards.len()
    );
}
