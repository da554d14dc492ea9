//! Why a request was refused: what `ERROR` answers.
//!
//! Its own module because both the session, which refuses, and the replies, which say
//! why, need it: neither has to import the other for it.

use std::fmt;

use hoshi::board::{BoardError, Pos};
use hoshi_protocol::ParseError;

/// Why a request was refused. The session is unchanged after any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionError {
    /// The line was no well-formed command.
    Parse(ParseError),
    /// A game command before any `START`.
    NoGame,
    /// A size, square or stone the board refuses.
    Board(BoardError),
    /// `BEGIN` on a board with stones.
    BeginOnStones,
    /// `TURN` on the last empty square: nothing left for our reply.
    TurnFillsBoard(Pos),
    /// A `BOARD` that asks for a move and leaves no empty square.
    BoardLeavesNoSquare,
    /// A move asked for on a full board.
    BoardFull,
    /// `SWAP2BOARD` with a stone count of no swap2 step.
    Swap2Stones(usize),
    /// `YXSWAP2STEP2`/`3` on a board without the 3 or 5 stones of that step.
    YixinSwap2Stones { step: u8, wanted: usize, got: usize },
    /// A balancing request on a board with no candidate for the stones it asks for.
    NothingToBalance { stones: usize },
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionError::Parse(e) => e.fmt(f),
            SessionError::NoGame => f.write_str("no game started: send START first"),
            SessionError::Board(e) => e.fmt(f),
            SessionError::BeginOnStones => {
                f.write_str("BEGIN needs an empty board; send BOARD for a position")
            }
            SessionError::TurnFillsBoard(p) => {
                write!(f, "TURN {p} fills the board: no square is left for a reply")
            }
            SessionError::BoardLeavesNoSquare => {
                f.write_str("BOARD leaves no empty square to play")
            }
            SessionError::BoardFull => f.write_str("the board is full: there is no move to make"),
            SessionError::Swap2Stones(n) => {
                write!(f, "SWAP2BOARD needs 0, 3 or 5 stones, got {n}")
            }
            SessionError::YixinSwap2Stones { step, wanted, got } => write!(
                f,
                "YXSWAP2STEP{step} needs {wanted} stones on the board (set by YXBOARD), got {got}"
            ),
            SessionError::NothingToBalance { stones } => {
                write!(f, "no candidate move to place {stones} balancing stone(s)")
            }
        }
    }
}

impl std::error::Error for SessionError {}

impl From<BoardError> for SessionError {
    fn from(e: BoardError) -> SessionError {
        SessionError::Board(e)
    }
}
