//! The weakened master's blind spots: the last stones it fails to notice.
//!
//! A weak human rarely plays a random move in a quiet position; what loses their games is
//! a threat not seen: the opponent's open three answered elsewhere, their own four-three
//! chance passed by, because the stone that made it went unnoticed. So below full strength
//! master may overlook each of the two newest stones, the opponent's last move and its own,
//! independently with the strength's miss rate, and choose its move on the board without
//! them. Everything the search and the pick do stays the same on that view; the answer is
//! checked on the real board by the caller.
//!
//! The floor comes first: when either side has a five point on the real board, nothing is
//! overlooked, so a weak master still completes its own five and still blocks the
//! opponent's (an open four is a five point too: it is answered at one end, then lost).

use crate::board::{Board, Color, Pos};
use crate::rng::Rng;
use crate::rules::Rule;

/// The board as a weakened master sees it, `None` when it sees every stone: each of the
/// newest stone of either colour is overlooked with probability `miss` (in thousandths).
/// Draws exactly two numbers from `rng` whenever a stone could be overlooked, so one
/// seed gives one game.
pub fn glance(board: &Board, rule: Rule, me: Color, miss: u32, rng: &mut Rng) -> Option<Board> {
    if miss == 0 || has_five_point(board, rule) {
        return None;
    }
    let newest = |color: Color| {
        let history = board.history().iter().rev();
        history.copied().find(|&(_, c)| c == color).map(|(p, _)| p)
    };
    let overlooked: Vec<Pos> = [newest(me.opponent()), newest(me)]
        .into_iter()
        .filter(|_| rng.below(1000) < miss as usize)
        .flatten()
        .collect();
    if overlooked.is_empty() {
        return None;
    }
    let mut view = board.clone();
    for p in overlooked {
        // The cell holds the stone history names: the removal cannot fail.
        view.remove(p).ok()?;
    }
    Some(view)
}

/// Whether either colour can make five on `board` with its next stone.
fn has_five_point(board: &Board, rule: Rule) -> bool {
    board.empty_cells().any(|p| {
        [Color::Black, Color::White]
            .into_iter()
            .any(|c| rule.is_win(board, p, c))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::levels::testkit::at;

    /// Black's open three on row 7 made by its last stone (7, 7); white's last stone (9, 9).
    fn open_three() -> Board {
        let mut b = Board::new(15, 15).unwrap();
        for (p, c) in [
            ((5, 7), Color::Black),
            ((0, 0), Color::White),
            ((6, 7), Color::Black),
            ((9, 9), Color::White),
            ((7, 7), Color::Black),
        ] {
            b.place(at(p.0, p.1), c).unwrap();
        }
        b
    }

    #[test]
    fn nothing_is_overlooked_at_a_zero_rate() {
        let mut rng = Rng::new(1);
        assert_eq!(
            glance(&open_three(), Rule::Freestyle, Color::White, 0, &mut rng),
            None
        );
    }

    #[test]
    fn the_newest_stones_are_overlooked_at_about_the_rate() {
        let board = open_three();
        let mut rng = Rng::new(7);
        let (mut theirs, mut mine, trials) = (0, 0, 2000);
        for _ in 0..trials {
            let Some(view) = glance(&board, Rule::Freestyle, Color::White, 300, &mut rng) else {
                continue;
            };
            // Only the two newest stones ever go, and the rest of the board is untouched.
            let gone = board.history().len() - view.history().len();
            assert!((1..=2).contains(&gone), "{gone}");
            theirs += usize::from(view.is_empty_at(at(7, 7)));
            mine += usize::from(view.is_empty_at(at(9, 9)));
            for p in [at(5, 7), at(6, 7), at(0, 0)] {
                assert!(!view.is_empty_at(p));
            }
        }
        // 30 % each, with a wide margin (the standard deviation is about 20 games).
        for n in [theirs, mine] {
            assert!((500..700).contains(&n), "{theirs} {mine}");
        }
    }

    #[test]
    fn a_five_point_on_the_board_is_never_overlooked() {
        // Black's four on row 7 (the last stone made it): white must see it, and so must black.
        let mut board = open_three();
        board.place(at(1, 1), Color::White).unwrap();
        board.place(at(8, 7), Color::Black).unwrap();
        let mut rng = Rng::new(3);
        for me in [Color::White, Color::Black] {
            for _ in 0..50 {
                assert_eq!(glance(&board, Rule::Freestyle, me, 1000, &mut rng), None);
            }
        }
    }
}
