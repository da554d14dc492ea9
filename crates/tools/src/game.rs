//! A game refereed move by move, for the tools people use (`play`, `analyse`): the board,
//! the rule, and how the game ended, judged as the Gomocup referee judges it.
//!
//! Unlike the match referee, it keeps the last stone on the board (a winning or fouling
//! one too, so a picture shows it) and can take moves back.

use std::fmt;

use hoshi::board::{Board, Cell, Color, Pos};
use hoshi::notation;
use hoshi::rules::{Foul, Rule, Verdict, renju};

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// `winner` made a winning line; `line` is its stones, in board order.
    Five { winner: Color, line: Vec<Pos> },
    /// Black played the forbidden point `at` (renju) and lost.
    Foul { at: Pos, foul: Foul },
    /// The board filled up with no winner.
    Draw,
}

impl Outcome {
    /// The winner, if any.
    #[must_use]
    pub fn winner(&self) -> Option<Color> {
        match self {
            Outcome::Five { winner, .. } => Some(*winner),
            Outcome::Foul { .. } => Some(Color::White),
            Outcome::Draw => None,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Five { winner, line } => write!(
                f,
                "{} wins with {}",
                color_name(*winner),
                notation::sequence(line.iter().copied())
            ),
            Outcome::Foul { at, foul } => write!(
                f,
                "white wins: black's {} is forbidden ({})",
                notation::name(*at),
                foul_name(*foul)
            ),
            Outcome::Draw => f.write_str("draw: the board is full"),
        }
    }
}

/// "black" or "white".
#[must_use]
pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// A foul in words.
#[must_use]
pub fn foul_name(foul: Foul) -> &'static str {
    match foul {
        Foul::Overline => "overline",
        Foul::DoubleFour => "double four",
        Foul::DoubleThree => "double three",
    }
}

/// Why a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The game has ended.
    Over,
    /// The point holds a stone (or is blocked).
    Occupied(Pos),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Over => f.write_str("the game is over"),
            MoveError::Occupied(p) => write!(f, "{} is already taken", notation::name(*p)),
        }
    }
}

impl std::error::Error for MoveError {}

/// Why a sequence of moves is not a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// The move's number, from 1.
    pub number: usize,
    pub pos: Pos,
    pub error: MoveError,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move {} ({}): ", self.number, notation::name(self.pos))?;
        match self.error {
            MoveError::Over => f.write_str("the game was already over"),
            MoveError::Occupied(_) => f.write_str("the point is already taken"),
        }
    }
}

impl std::error::Error for ReplayError {}

/// The board, the rule and, once the game has ended, how.
#[derive(Clone, Debug)]
pub struct Game {
    board: Board,
    rule: Rule,
    outcome: Option<Outcome>,
}

impl Game {
    /// A game on an empty `board`.
    #[must_use]
    pub fn new(board: Board, rule: Rule) -> Game {
        Game {
            board,
            rule,
            outcome: None,
        }
    }

    /// The game after `moves`, black first, each judged in turn: a move after the end is
    /// an error, the last move may end it.
    pub fn replay(board: Board, rule: Rule, moves: &[Pos]) -> Result<Game, ReplayError> {
        let mut game = Game::new(board, rule);
        for (i, &pos) in moves.iter().enumerate() {
            game.play(pos).map_err(|error| ReplayError {
                number: i + 1,
                pos,
                error,
            })?;
        }
        Ok(game)
    }

    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    #[must_use]
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// How the game ended, or `None` while it goes on.
    #[must_use]
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// Whose turn it is (from the stone counts: black first).
    #[must_use]
    pub fn to_move(&self) -> Color {
        self.board.to_move()
    }

    /// Plays `pos` for the side to move and judges it. A forbidden point is played, and
    /// loses, as the referee has it: callers that would rather refuse it check
    /// [`Game::foul`] first.
    pub fn play(&mut self, pos: Pos) -> Result<Option<&Outcome>, MoveError> {
        if self.outcome.is_some() {
            return Err(MoveError::Over);
        }
        if !self.board.is_empty_at(pos) {
            return Err(MoveError::Occupied(pos));
        }
        let color = self.to_move();
        let verdict = self.rule.judge(&self.board, pos, color);
        self.board
            .place(pos, color)
            .map_err(|_| MoveError::Occupied(pos))?;
        self.outcome = match verdict {
            Verdict::Win => Some(Outcome::Five {
                winner: color,
                line: self.five_through(pos, color),
            }),
            Verdict::Foul(foul) => Some(Outcome::Foul { at: pos, foul }),
            Verdict::Continue => self.board.is_full().then_some(Outcome::Draw),
        };
        Ok(self.outcome.as_ref())
    }

    /// The foul the side to move would commit on the empty point `pos`, if any.
    #[must_use]
    pub fn foul(&self, pos: Pos) -> Option<Foul> {
        self.rule.foul(&self.board, pos, self.to_move())
    }

    /// Takes back the last stone, and with it the end of the game.
    pub fn undo(&mut self) -> Option<(Pos, Color)> {
        let last = self.board.undo()?;
        self.outcome = None;
        Some(last)
    }

    /// Black's forbidden points while the game goes on (renju only), in row-major order.
    #[must_use]
    pub fn forbidden_points(&self) -> Vec<Pos> {
        if self.rule != Rule::Renju || self.outcome.is_some() {
            return Vec::new();
        }
        renju::forbidden_points(&self.board)
            .into_iter()
            .map(|(p, _)| p)
            .collect()
    }

    /// The stones of the winning line through `pos`, just placed by `color`.
    fn five_through(&self, pos: Pos, color: Color) -> Vec<Pos> {
        // `pos` holds the stone now, so judge it as the stone it is.
        let Some(dir) = self.rule.winning_dir(&self.board, pos, color) else {
            return vec![pos];
        };
        let own = |p: &Pos| self.board.get(*p) == Cell::Stone(color);
        let back = (1..)
            .map_while(|k| self.board.step(pos, dir, -k).filter(own))
            .count();
        (0..)
            .map_while(|k| self.board.step(pos, dir, k - back as i32).filter(own))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: u8, y: u8) -> Pos {
        Pos::new(x, y)
    }

    fn empty(rule: Rule) -> Game {
        Game::new(Board::new(15, 15).unwrap(), rule)
    }

    #[test]
    fn a_five_ends_the_game_and_names_its_stones() {
        // Black on row 7 from the right end back, white on row 8: black's fifth wins.
        let mut moves = Vec::new();
        for i in 0..5u8 {
            moves.push(p(10 - i, 7));
            moves.push(p(10 - i, 8));
        }
        moves.pop();
        let game = Game::replay(Board::new(15, 15).unwrap(), Rule::Standard, &moves).unwrap();
        let line: Vec<Pos> = (6..=10).map(|x| p(x, 7)).collect();
        assert_eq!(
            game.outcome(),
            Some(&Outcome::Five {
                winner: Color::Black,
                line
            })
        );
        assert_eq!(
            game.outcome().unwrap().to_string(),
            "black wins with g8h8i8j8k8"
        );
        let mut more = moves.clone();
        more.push(p(0, 0));
        let err = Game::replay(Board::new(15, 15).unwrap(), Rule::Standard, &more).unwrap_err();
        assert_eq!((err.number, err.error), (10, MoveError::Over));
    }

    #[test]
    fn undo_reopens_a_finished_game_and_occupied_points_are_refused() {
        let mut game = empty(Rule::Freestyle);
        for x in 0..4 {
            game.play(p(x, 0)).unwrap();
            game.play(p(x, 1)).unwrap();
        }
        assert_eq!(game.play(p(0, 0)), Err(MoveError::Occupied(p(0, 0))));
        assert!(game.play(p(4, 0)).unwrap().is_some());
        assert_eq!(game.play(p(9, 9)), Err(MoveError::Over));
        assert_eq!(game.undo(), Some((p(4, 0), Color::Black)));
        assert_eq!(game.outcome(), None);
        assert_eq!(game.to_move(), Color::Black);
    }

    #[test]
    fn a_renju_foul_loses_and_forbidden_points_are_listed_for_black() {
        // The Gomocup rule tester's renju case: g9 (6,8) is a double three for black.
        let moves = [
            p(7, 7),
            p(7, 8),
            p(8, 6),
            p(8, 8),
            p(7, 9),
            p(8, 5),
            p(8, 10),
            p(8, 11),
        ];
        let mut game = Game::replay(Board::new(15, 15).unwrap(), Rule::Renju, &moves).unwrap();
        assert!(game.forbidden_points().contains(&p(6, 8)));
        assert_eq!(game.foul(p(6, 8)), Some(Foul::DoubleThree));
        let outcome = game.play(p(6, 8)).unwrap().cloned();
        assert_eq!(
            outcome,
            Some(Outcome::Foul {
                at: p(6, 8),
                foul: Foul::DoubleThree
            })
        );
        assert_eq!(outcome.unwrap().winner(), Some(Color::White));
        assert!(game.forbidden_points().is_empty());
        // Freestyle has no forbidden points.
        let free = Game::replay(Board::new(15, 15).unwrap(), Rule::Freestyle, &moves).unwrap();
        assert!(free.forbidden_points().is_empty() && free.foul(p(6, 8)).is_none());
    }

    #[test]
    fn a_full_board_is_a_draw() {
        // No row, column or diagonal of five is of one colour; black's 13 stones and
        // white's 12 are played alternately.
        let picture = ["XXOOX", "OOXXO", "XXOOX", "OOXXO", "XXOOX"];
        let cells = |c: u8| -> Vec<Pos> {
            (0..5u8)
                .flat_map(|y| (0..5u8).map(move |x| p(x, y)))
                .filter(|q| picture[usize::from(q.y)].as_bytes()[usize::from(q.x)] == c)
                .collect()
        };
        let (black, white) = (cells(b'X'), cells(b'O'));
        let order: Vec<Pos> = black
            .iter()
            .zip(white.iter().map(Some).chain([None]))
            .flat_map(|(&b, w)| std::iter::once(b).chain(w.copied()))
            .collect();
        let mut game = Game::new(Board::new(5, 5).unwrap(), Rule::Freestyle);
        let (last, before) = order.split_last().unwrap();
        for &q in before {
            assert_eq!(game.play(q).unwrap(), None, "{q}");
        }
        assert_eq!(game.play(*last).unwrap(), Some(&Outcome::Draw));
        assert_eq!(game.outcome(), Some(&Outcome::Draw));
    }
}
