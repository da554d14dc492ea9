//! The swap2 opening, judged by the search ([`hoshi::judge`]): `SWAP2BOARD`, and Yixin's
//! dialogue for the same steps (`YXSWAP2STEP1`..`3`), which asks on the board `YXBOARD`
//! set and is answered on `MESSAGE SWAP2` lines.

use std::io::Write;

use super::place_alternately;
use crate::error::SessionError;
use crate::reply::Reply;
use crate::state::empty_cell;
use crate::thinking::Pending;
use hoshi::board::{Board, Color, Pos};
use hoshi::judge::{Judge, Swap2};
use hoshi_protocol::Coord;

/// `SWAP2BOARD`: with no stones, place the opening three; with three, take black (`SWAP`),
/// stay with white and play its stone, or place two more; with five, take black or stay
/// with white. The level bounds how deep it judges. The stones listed replace the board,
/// and our colour is known only once we chose one.
pub fn board<W: Write>(
    request: &mut Pending<'_, W>,
    coords: &[Coord],
) -> Result<Reply, SessionError> {
    if !matches!(coords.len(), 0 | 3 | 5) {
        return Err(SessionError::Swap2Stones(coords.len()));
    }
    let like = &request.game.board;
    let mut board = Board::new(like.width().into(), like.height().into())?;
    for (c, color) in coords
        .iter()
        .zip([Color::Black, Color::White].into_iter().cycle())
    {
        let p = empty_cell(&board, *c)?;
        board.place(p, color)?;
    }
    let mut thinking = request.think();
    let t = &mut thinking;
    t.limits = t
        .settings
        .level
        .judging_limits(t.settings.strength, t.limits);
    let mut judge = Judge {
        searcher: &mut *t.searcher,
        rule: t.settings.rule,
        limits: t.limits,
        stop: t.stop,
    };
    let (reply, me) = if coords.is_empty() {
        let opening = judge
            .opening_three(&board, &mut t.game.rng)
            .unwrap_or_else(|| fallback_opening(&board));
        place_alternately(&mut board, &opening, Color::Black)?;
        (Reply::Stones(opening.to_vec()), None)
    } else {
        let decision = if coords.len() == 3 {
            judge.after_three(&board)
        } else {
            judge.after_five(&board)
        };
        log::info!("swap2 after {} stones: {decision:?}", coords.len());
        match decision {
            Swap2::TakeBlack => (Reply::Swap, Some(Color::Black)),
            Swap2::Stay(p) => {
                board.place(p, Color::White)?;
                let reply = Reply::Move {
                    pos: p,
                    notice: t.notice.take(),
                    report: None,
                };
                (reply, Some(Color::White))
            }
            Swap2::AddTwo(w, b) => {
                place_alternately(&mut board, &[w, b], Color::White)?;
                (Reply::Stones(vec![w, b]), None)
            }
        }
    };
    t.game.board = board;
    t.game.me = me;
    thinking.done();
    Ok(reply)
}

/// Yixin's swap2 dialogue: step 1 places the opening three on an empty board; step 2, on
/// the three stones `YXBOARD` set, takes black (`SWAP1 YES`), stays with white (`SWAP1
/// NO`: Yixin-Board then asks for white's stone with `BOARD`) or places two more; step 3,
/// on five, chooses the colour (`SWAP2 YES` is black). The same judgement as
/// [`board`]'s; a board with another stone count is refused.
pub fn yixin_step<W: Write>(mut request: Pending<'_, W>, step: u8) -> Result<Reply, SessionError> {
    let stones: Vec<Coord> = if step == 1 {
        Vec::new()
    } else {
        request
            .game
            .board
            .history()
            .iter()
            .map(|(p, _)| Coord {
                x: p.x.into(),
                y: p.y.into(),
            })
            .collect()
    };
    let wanted = if step == 2 { 3 } else { 5 };
    if step != 1 && stones.len() != wanted {
        return Err(SessionError::YixinSwap2Stones {
            step,
            wanted,
            got: stones.len(),
        });
    }
    Ok(match board(&mut request, &stones)? {
        Reply::Stones(placed) => Reply::YixinSwap2Stones {
            first: stones.len() + 1,
            stones: placed,
        },
        Reply::Move { pos, .. } => {
            // Yixin-Board asks for white's stone itself, with BOARD.
            request.game.board.remove(pos)?;
            Reply::YixinSwap2Choice {
                stones: stones.len(),
                take_black: false,
            }
        }
        Reply::Swap => Reply::YixinSwap2Choice {
            stones: stones.len(),
            take_black: true,
        },
        other => other,
    })
}

/// The opening three stones (black, white, black) around the centre, when the judged
/// opening finds no cell: a quiet shape whose offsets stay inside even a 5x5 board.
fn fallback_opening(board: &Board) -> [Pos; 3] {
    let c = board.center();
    [c, Pos::new(c.x + 1, c.y - 1), Pos::new(c.x - 1, c.y + 2)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::thinking::fixture::Parts;

    fn c(x: i64, y: i64) -> Coord {
        Coord { x, y }
    }

    #[test]
    fn swap2board_answers_each_step_with_the_judged_choice() {
        let mut parts = Parts::with_stones(&[]);
        let reply = board(&mut parts.request(1), &[]);
        let Ok(Reply::Stones(opening)) = reply else {
            panic!("{reply:?}")
        };
        assert_eq!(opening.len(), 3);
        let placed: Vec<Pos> = parts.game.board.history().iter().map(|m| m.0).collect();
        assert_eq!(placed, opening);
        // Black's two stones side by side in the centre, white's in a corner: take black.
        let mut parts = Parts::with_stones(&[]);
        let reply = board(&mut parts.request(1), &[c(7, 7), c(0, 14), c(8, 7)]);
        assert_eq!(reply, Ok(Reply::Swap));
        assert_eq!(parts.game.me, Some(Color::Black));
        assert_eq!(parts.game.board.history().len(), 3);
        // Black's stones in corners, white's in the centre: stay and play white's stone.
        let mut parts = Parts::with_stones(&[]);
        let reply = board(&mut parts.request(1), &[c(0, 0), c(7, 7), c(14, 14)]);
        let Ok(Reply::Move { pos, .. }) = reply else {
            panic!("{reply:?}")
        };
        assert_eq!(parts.game.me, Some(Color::White));
        assert_eq!(parts.game.board.last_move(), Some((pos, Color::White)));
        // After five: black's open three, take black.
        let mut parts = Parts::with_stones(&[]);
        let five = [c(7, 7), c(0, 14), c(8, 7), c(14, 0), c(9, 7)];
        assert_eq!(board(&mut parts.request(1), &five), Ok(Reply::Swap));
        // A stone count of no step is refused and changes nothing.
        let reply = board(&mut parts.request(2), &[c(7, 7), c(8, 7)]);
        assert_eq!(reply, Err(SessionError::Swap2Stones(2)));
        assert_eq!(parts.game.board.history().len(), 5);
    }

    #[test]
    fn yixins_steps_judge_the_board_yxboard_set() {
        let mut parts = Parts::with_stones(&[]);
        let reply = yixin_step(parts.request(1), 1);
        let Ok(Reply::YixinSwap2Stones { first: 1, stones }) = reply else {
            panic!("{reply:?}")
        };
        let placed: Vec<Pos> = parts.game.board.history().iter().map(|m| m.0).collect();
        assert_eq!((placed.len(), placed), (3, stones));
        // Three stones, black clearly ahead: take black. The board stays as it was.
        let mut parts = Parts::with_stones(&[(7, 7), (0, 14), (8, 7)]);
        let reply = yixin_step(parts.request(1), 2);
        let take_black = Reply::YixinSwap2Choice {
            stones: 3,
            take_black: true,
        };
        assert_eq!(reply, Ok(take_black));
        assert_eq!(parts.game.board.history().len(), 3);
        // White ahead: stay, and wait for BOARD to ask for white's stone.
        let mut parts = Parts::with_stones(&[(0, 0), (7, 7), (14, 14)]);
        let reply = yixin_step(parts.request(1), 2);
        let stay = Reply::YixinSwap2Choice {
            stones: 3,
            take_black: false,
        };
        assert_eq!(reply, Ok(stay));
        assert_eq!(parts.game.board.history().len(), 3);
        // Five stones, black's open three: choose black.
        let mut parts = Parts::with_stones(&[(7, 7), (0, 14), (8, 7), (14, 0), (9, 7)]);
        let reply = yixin_step(parts.request(1), 3);
        let take_black = Reply::YixinSwap2Choice {
            stones: 5,
            take_black: true,
        };
        assert_eq!(reply, Ok(take_black));
        // Another stone count is refused.
        let mut parts = Parts::with_stones(&[(7, 7), (0, 14)]);
        let wrong = SessionError::YixinSwap2Stones {
            step: 3,
            wanted: 5,
            got: 2,
        };
        assert_eq!(yixin_step(parts.request(1), 3), Err(wrong));
    }
}
