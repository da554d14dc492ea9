//! The requests beside the game: managers' dialogues that judge, analyse or ask about a
//! position rather than play on in it. The session routes them here; each works on the
//! session's parts through a [`Pending`](crate::thinking::Pending), and none imports the
//! session.
//!
//! - [`swap2`]: `SWAP2BOARD` and Yixin's `YXSWAP2STEP1`..`3`, the same judgement.
//! - [`balance`]: `YXBALANCEONE` and `YXBALANCETWO`.
//! - [`yixin`]: Yixin-Board's other requests: `YXNBEST`, `YXSHOWFORBID`, `YXSHOWINFO`.

pub mod balance;
pub mod swap2;
pub mod yixin;

use hoshi::board::{Board, BoardError, Color, Pos};

/// Places `stones` in turn, the first for `first`.
fn place_alternately(board: &mut Board, stones: &[Pos], first: Color) -> Result<(), BoardError> {
    for (&p, color) in stones
        .iter()
        .zip([first, first.opponent()].into_iter().cycle())
    {
        board.place(p, color)?;
    }
    Ok(())
}
