//! `pbrain-hoshi bench`: a fixed search over fixed positions, for speed and determinism.
//!
//! The positions are Rapfi's benchmark set (`benchSet` in its `command/benchmark.cpp`),
//! in protocol coordinates, black first. Each is searched to a fixed depth with one
//! thread, a fixed table cleared before each position, and no clock, with the evaluation
//! master plays with ([`Evaluator::builtin`]), so the node counts
//! are the same on every run and every machine; only the time differs.

use std::time::{Duration, Instant};

use crate::board::{Board, BoardError, Color, Pos};
use crate::eval::Evaluator;
use crate::rules::Rule;
use crate::search::{Request, Searcher};
use crate::time::Limits;

/// The depth `bench` searches when none is given (Rapfi's 19 takes minutes here).
pub const DEFAULT_DEPTH: u32 = 7;
/// The table size of every bench search.
const TT_BYTES: usize = 16 << 20;

/// One benchmark position.
pub struct Position {
    pub rule: Rule,
    pub size: u8,
    /// Moves in order, black first, as `(x, y)`.
    pub moves: &'static [(u8, u8)],
}

/// Rapfi's ten benchmark positions.
pub const POSITIONS: [Position; 10] = [
    Position {
        rule: Rule::Freestyle,
        size: 15,
        moves: &[(7, 7), (6, 6), (5, 5), (6, 7), (6, 8)],
    },
    Position {
        rule: Rule::Freestyle,
        size: 15,
        moves: &[(7, 1), (7, 4), (7, 3), (5, 5)],
    },
    Position {
        rule: Rule::Freestyle,
        size: 20,
        moves: &[(4, 1), (5, 1), (7, 2), (6, 2), (6, 5), (7, 4), (5, 8)],
    },
    Position {
        rule: Rule::Freestyle,
        size: 20,
        moves: &[
            (5, 4),
            (4, 2),
            (1, 6),
            (7, 4),
            (6, 2),
            (6, 3),
            (8, 5),
            (4, 3),
            (7, 3),
            (3, 3),
            (5, 1),
            (8, 4),
            (5, 3),
            (5, 5),
            (4, 4),
            (3, 5),
            (3, 6),
            (4, 6),
            (5, 7),
        ],
    },
    Position {
        rule: Rule::Standard,
        size: 15,
        moves: &[(7, 7), (7, 6), (9, 5), (8, 6), (5, 6)],
    },
    Position {
        rule: Rule::Standard,
        size: 15,
        moves: &[(5, 5), (8, 8), (7, 7)],
    },
    Position {
        rule: Rule::Standard,
        size: 15,
        moves: &[(1, 2), (10, 9), (6, 1), (5, 5)],
    },
    Position {
        rule: Rule::Renju,
        size: 15,
        moves: &[(7, 7), (8, 8), (9, 9), (8, 7), (8, 6), (6, 8)],
    },
    Position {
        rule: Rule::Renju,
        size: 15,
        moves: &[
            (7, 7),
            (7, 8),
            (9, 8),
            (9, 7),
            (5, 7),
            (8, 6),
            (6, 6),
            (8, 8),
            (7, 5),
            (4, 8),
            (5, 5),
            (10, 6),
            (11, 5),
            (8, 9),
            (8, 5),
            (5, 8),
            (6, 8),
            (6, 10),
            (7, 9),
            (8, 10),
            (8, 7),
        ],
    },
    Position {
        rule: Rule::Renju,
        size: 15,
        moves: &[
            (7, 7),
            (7, 8),
            (7, 5),
            (8, 9),
            (8, 5),
            (8, 8),
            (6, 8),
            (6, 7),
            (9, 10),
            (8, 6),
        ],
    },
];

/// What the bench measured on one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Measurement {
    pub rule: Rule,
    pub nodes: u64,
    pub best: Pos,
    pub elapsed: Duration,
}

/// Builds the board of a benchmark position.
pub fn board_of(position: &Position) -> Result<Board, BoardError> {
    let side = i64::from(position.size);
    let mut board = Board::new(side, side)?;
    for (k, &(x, y)) in position.moves.iter().enumerate() {
        let color = if k % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let p = board.checked_pos(i64::from(x), i64::from(y))?;
        board.place(p, color)?;
    }
    Ok(board)
}

/// Searches every position to `depth`, reporting each as it finishes.
pub fn run(
    depth: u32,
    report: &mut dyn FnMut(&Measurement),
) -> Result<Vec<Measurement>, BoardError> {
    let mut searcher = Searcher::new(TT_BYTES);
    searcher.set_evaluator(Evaluator::builtin());
    let limits = Limits {
        max_depth: Some(depth),
        ..Limits::default()
    };
    let mut measured = Vec::new();
    for position in &POSITIONS {
        let board = board_of(position)?;
        searcher.clear();
        let start = Instant::now();
        let request = Request::new(&board, position.rule, board.to_move(), limits);
        let result = searcher.search(request);
        let measurement = Measurement {
            rule: position.rule,
            nodes: result.nodes,
            best: result.best,
            elapsed: start.elapsed(),
        };
        report(&measurement);
        measured.push(measurement);
    }
    Ok(measured)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bench signature as a check: the total `pbrain-hoshi bench` prints (the sum of
    /// `run(DEFAULT_DEPTH)`'s nodes) must be the count kept in `bench.expected` at the
    /// repository's root. Release only: the debug build checks the pattern board on
    /// every move, which makes this search take minutes.
    #[test]
    #[cfg_attr(
        debug_assertions,
        ignore = "minutes in a debug build; make test runs it in release"
    )]
    fn bench_gives_the_node_count_in_bench_expected() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../bench.expected");
        let text = std::fs::read_to_string(path).expect("bench.expected at the root");
        let expected: u64 = text
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("bench.expected must hold one number, got {text:?}"));
        let measured = run(DEFAULT_DEPTH, &mut |_| {}).expect("the bench positions");
        let total: u64 = measured.iter().map(|o| o.nodes).sum();
        assert!(
            total == expected,
            "pbrain-hoshi bench now gives {total} nodes; bench.expected says {expected}.\n\
             If this change is meant to alter search or evaluation, write {total} into \
             bench.expected and end the commit message with `Bench: {total}`. If it is a \
             refactor, it must keep {expected}: find what changed the search."
        );
    }

    #[test]
    fn a_shallow_bench_gives_the_same_counts_twice_and_legal_moves() {
        let first = run(2, &mut |_| {}).unwrap();
        let second = run(2, &mut |_| {}).unwrap();
        let counts = |o: &[Measurement]| o.iter().map(|x| (x.nodes, x.best)).collect::<Vec<_>>();
        assert_eq!(counts(&first), counts(&second));
        for (o, position) in first.iter().zip(&POSITIONS) {
            assert!(o.nodes > 0);
            assert!(
                board_of(position).unwrap().is_empty_at(o.best),
                "{:?}",
                o.best
            );
        }
    }
}
