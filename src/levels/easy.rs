//! The easy level: `levels.md`'s priority chain. It wins when it can, blocks a win or an
//! open three, and otherwise plays a random candidate; it never builds an attack.

use crate::board::{Board, Color, Dir, Pos};
use crate::levels::classic::Classic;
use crate::rng::Rng;

/// The move, or `None` when the engine has no candidate. Every step scans the engine's own
/// candidates in row-major order: a block is a stone of the engine, so it must be legal
/// for it.
pub fn choose(board: &Board, game: &Classic<'_>, rng: &mut Rng) -> Option<Pos> {
    let moves = game.candidates(board, game.me);
    let first = |test: &dyn Fn(Pos) -> bool| moves.iter().copied().find(|&c| test(c));
    first(&|c| game.wins(board, c, game.me))
        .or_else(|| first(&|c| game.wins(board, c, game.opp())))
        .or_else(|| first(&|c| makes_open_four(board, c, game.opp())))
        .or_else(|| {
            // `below` needs a non-empty range; with no candidate the caller falls back.
            (!moves.is_empty())
                .then(|| rng.below(moves.len()))
                .and_then(|i| moves.get(i).copied())
        })
}

/// Whether a stone of `colour` on `c` makes, in some direction, a run of exactly 4 with
/// both ends open (an open three completed to an open four). Whether the cell is forbidden
/// for `colour` does not matter here.
fn makes_open_four(board: &Board, c: Pos, colour: Color) -> bool {
    Dir::ALL.iter().any(|&dir| {
        let run = board.run_through(c, colour, dir);
        run.len == 4 && run.open_ends() == 2
    })
}
