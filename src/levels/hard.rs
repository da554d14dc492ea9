//! The hard level: `levels.md`'s depth-limited minimax with alpha-beta. The engine's move,
//! the opponent's reply and the engine's reply are searched, then the board is evaluated:
//! at most 12 x 8 x 8 = 768 leaves.

use std::cmp::Reverse;

use crate::board::{Board, Color, Pos};
use crate::levels::classic::{Classic, WIN};

/// Root moves searched.
const ROOT_WIDTH: usize = 12;
/// Moves searched at every inner node.
const INNER_WIDTH: usize = 8;
/// Plies below the root move.
const DEPTH: u32 = 2;
/// Beyond every score.
const INF: i64 = i64::MAX;

/// The move, or `None` when the engine has no candidate.
pub fn choose(board: &mut Board, game: &Classic<'_>) -> Option<Pos> {
    search(board, game).map(|o| o.pos)
}

/// What a search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub pos: Pos,
    /// The chosen move's value (`WIN` for a win at once).
    pub value: i64,
    /// Boards evaluated.
    pub leaves: usize,
}

/// The root of the tree; `None` when the engine has no candidate.
pub fn search(board: &mut Board, game: &Classic<'_>) -> Option<Outcome> {
    let mut tree = Tree { game, leaves: 0 };
    let moves = tree.sorted(board, game.me, ROOT_WIDTH);
    let mut best = Outcome {
        pos: *moves.first()?,
        value: -INF,
        leaves: 0,
    };
    let mut alpha = -INF;
    for c in moves {
        if game.wins(board, c, game.me) {
            return Some(Outcome {
                pos: c,
                value: WIN,
                leaves: tree.leaves,
            });
        }
        let Some(v) = with_stone(board, c, game.me, |b| {
            tree.minimax(b, DEPTH, alpha, INF, false)
        }) else {
            continue;
        };
        // Strict improvement: among equal values the earlier sorted move stays.
        if v > best.value {
            best = Outcome {
                pos: c,
                value: v,
                leaves: 0,
            };
        }
        alpha = alpha.max(v);
    }
    best.leaves = tree.leaves;
    Some(best)
}

struct Tree<'g, 'a> {
    game: &'g Classic<'a>,
    leaves: usize,
}

impl Tree<'_, '_> {
    /// The first `width` of `side`'s candidates by candidate total, highest first, always
    /// from the engine's point of view; the sort is stable, so ties stay row-major.
    fn sorted(&self, board: &Board, side: Color, width: usize) -> Vec<Pos> {
        let mut scored: Vec<(i64, Pos)> = self
            .game
            .candidates(board, side)
            .into_iter()
            .map(|c| (self.game.total(board, c), c))
            .collect();
        scored.sort_by_key(|&(total, _)| Reverse(total));
        scored.into_iter().take(width).map(|(_, c)| c).collect()
    }

    fn leaf(&mut self, board: &Board) -> i64 {
        self.leaves += 1;
        self.game.eval(board)
    }

    fn minimax(
        &mut self,
        board: &mut Board,
        depth: u32,
        mut alpha: i64,
        mut beta: i64,
        maximizing: bool,
    ) -> i64 {
        if depth == 0 {
            return self.leaf(board);
        }
        let side = if maximizing {
            self.game.me
        } else {
            self.game.opp()
        };
        let moves = self.sorted(board, side, INNER_WIDTH);
        if moves.is_empty() {
            return self.leaf(board);
        }
        let mut best = if maximizing { -INF } else { INF };
        for c in moves {
            if self.game.wins(board, c, side) {
                return if maximizing { WIN } else { -WIN };
            }
            let Some(v) = with_stone(board, c, side, |b| {
                self.minimax(b, depth - 1, alpha, beta, !maximizing)
            }) else {
                continue;
            };
            if maximizing {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if beta <= alpha {
                break;
            }
        }
        best
    }
}

/// Runs `f` with a stone of `colour` on `p`, then takes it back. `None` only if `p` was
/// not empty, which candidates never are.
fn with_stone<T>(
    board: &mut Board,
    p: Pos,
    colour: Color,
    f: impl FnOnce(&mut Board) -> T,
) -> Option<T> {
    board.place(p, colour).ok()?;
    let out = f(board);
    board.undo();
    Some(out)
}
