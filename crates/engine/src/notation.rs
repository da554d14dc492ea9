//! The notation people type and read: `h8` for a point, `h8i9j10` for a sequence.
//!
//! It is the "pos" notation of Yixin, Rapfi, c-gomoku-cli and the Gomocup rule tester, with
//! the protocol's origin: the letter is the column from the left (`a` is x = 0), the number
//! the row from the **top** (`1` is y = 0), so `h8` is the protocol's `7,7`, the centre of
//! 15x15. Renju books and playok number rows from the bottom instead; a game copied from
//! one reads here mirrored top to bottom, which is the same game by symmetry.
//!
//! Columns past `z` (boards wider than 26) continue as spreadsheets do: `aa`, `ab`, … A
//! sequence needs no separators, since every point is letters followed by digits.
//! [`parse_point`] also takes the protocol's `x,y` (from 0), for people who think in it.

use std::fmt;

use crate::board::{Board, Pos};

/// Why a text is not a point or a sequence of points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// Not of the form `h8` or `7,7`.
    BadPoint(String),
    /// Not a sequence such as `h8i9j10`; `rest` is where reading stopped.
    BadSequence { text: String, rest: String },
    /// A well-formed point outside the board.
    OffBoard {
        point: String,
        width: u8,
        height: u8,
    },
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::BadPoint(text) => write!(
                f,
                "{text:?} is not a point: write a column letter and a row number from 1, such \
                 as h8, or x,y from 0, such as 7,7"
            ),
            NotationError::BadSequence { text, rest } => write!(
                f,
                "{text:?} is not a sequence of points such as h8i9j10 (a column letter and a \
                 row number from 1 each, nothing between them): it goes wrong at {rest:?}"
            ),
            NotationError::OffBoard {
                point,
                width,
                height,
            } => write!(
                f,
                "{point} is off the {width}x{height} board (columns a to {}, rows 1 to {height})",
                column_name(width - 1)
            ),
        }
    }
}

impl std::error::Error for NotationError {}

/// The name of column `x`: `a` to `z`, then `aa`, `ab`, …
#[must_use]
pub fn column_name(x: u8) -> String {
    let letter = |i: u8| char::from(b'a' + i);
    if x < 26 {
        letter(x).to_string()
    } else {
        format!("{}{}", letter(x / 26 - 1), letter(x % 26))
    }
}

/// A point's name, such as `h8`.
#[must_use]
pub fn name(p: Pos) -> String {
    format!("{}{}", column_name(p.x), u32::from(p.y) + 1)
}

/// Points written one after another, such as `h8i9j10`.
#[must_use]
pub fn sequence(points: impl IntoIterator<Item = Pos>) -> String {
    points.into_iter().map(name).collect()
}

/// The points of a sequence such as `h8i9j10`, as unchecked protocol coordinates, so that
/// the caller can report a point off its board as such. Nothing but letters and digits
/// is allowed (c-gomoku-cli refuses anything else too); surrounding whitespace is trimmed.
pub fn parse_sequence(text: &str) -> Result<Vec<(i64, i64)>, NotationError> {
    let text = text.trim();
    let mut points = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let syntax = || NotationError::BadSequence {
            text: text.to_string(),
            rest: rest.to_string(),
        };
        let letters = rest.len()
            - rest
                .trim_start_matches(|c: char| c.is_ascii_alphabetic())
                .len();
        let after = &rest[letters..];
        let digits = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if letters == 0 || digits == 0 {
            return Err(syntax());
        }
        let x = column_index(&rest[..letters]).ok_or_else(syntax)?;
        let row: i64 = after[..digits].parse().map_err(|_| syntax())?;
        if row == 0 {
            return Err(syntax());
        }
        points.push((x, row - 1));
        rest = &after[digits..];
    }
    Ok(points)
}

/// Column letters (any case) as an index; `None` past three letters, far beyond any board.
fn column_index(letters: &str) -> Option<i64> {
    if letters.len() > 3 {
        return None;
    }
    // Bijective base 26: a = 1 … z = 26, aa = 27, less one for the 0-based index.
    let value = letters.bytes().fold(0i64, |v, b| {
        v * 26 + i64::from(b.to_ascii_lowercase() - b'a') + 1
    });
    Some(value - 1)
}

/// One point on `board`, written `h8` (this module's notation) or `7,7` (protocol `x,y`).
pub fn parse_point(text: &str, board: &Board) -> Result<Pos, NotationError> {
    let text = text.trim();
    let (x, y, point) = match text.split_once(',') {
        Some((x, y)) => {
            let num = |s: &str| {
                s.trim()
                    .parse::<i64>()
                    .map_err(|_| NotationError::BadPoint(text.to_string()))
            };
            (num(x)?, num(y)?, text.to_string())
        }
        None => match parse_sequence(text).as_deref() {
            Ok(&[(x, y)]) => (x, y, text.to_ascii_lowercase()),
            _ => return Err(NotationError::BadPoint(text.to_string())),
        },
    };
    board.pos(x, y).ok_or(NotationError::OffBoard {
        point,
        width: board.width(),
        height: board.height(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_count_columns_from_the_left_and_rows_from_the_top() {
        assert_eq!(name(Pos::new(7, 7)), "h8");
        assert_eq!(name(Pos::new(0, 0)), "a1");
        assert_eq!(name(Pos::new(14, 0)), "o1");
        assert_eq!(name(Pos::new(0, 14)), "a15");
        assert_eq!(name(Pos::new(25, 3)), "z4");
        assert_eq!(name(Pos::new(26, 31)), "aa32");
        assert_eq!(name(Pos::new(31, 0)), "af1");
    }

    #[test]
    fn every_name_on_the_largest_board_reads_back() {
        let board = Board::new(32, 32).unwrap();
        for p in board.cells() {
            assert_eq!(parse_point(&name(p), &board), Ok(p));
            assert_eq!(parse_point(&p.to_string(), &board), Ok(p));
        }
        let all: Vec<Pos> = board.cells().collect();
        let back = parse_sequence(&sequence(all.iter().copied())).unwrap();
        assert!(
            back.iter()
                .zip(&all)
                .all(|(&(x, y), p)| (x, y) == (p.x.into(), p.y.into()))
        );
    }

    #[test]
    fn sequences_match_the_opening_files_examples() {
        // The opening files' own example: `h8i8i11` is 7,7 / 8,7 / 8,10.
        assert_eq!(
            parse_sequence("H8i8I11\r\n"),
            Ok(vec![(7, 7), (8, 7), (8, 10)])
        );
        assert_eq!(parse_sequence(""), Ok(vec![]));
        for bad in ["h8 i8", "h0", "8h", "h", "h8,", "ab-1", "abcd1"] {
            assert!(parse_sequence(bad).is_err(), "{bad}");
        }
        assert_eq!(
            parse_sequence("h8i9 j10").unwrap_err(),
            NotationError::BadSequence {
                text: "h8i9 j10".into(),
                rest: " j10".into()
            }
        );
    }

    #[test]
    fn points_off_the_board_or_malformed_are_refused_with_the_board_named() {
        let board = Board::new(15, 15).unwrap();
        assert_eq!(parse_point(" 7, 7 ", &board), Ok(Pos::new(7, 7)));
        let off = parse_point("P8", &board).unwrap_err();
        assert_eq!(
            off.to_string(),
            "p8 is off the 15x15 board (columns a to o, rows 1 to 15)"
        );
        assert!(matches!(
            parse_point("15,0", &board),
            Err(NotationError::OffBoard { .. })
        ));
        assert!(matches!(
            parse_point("-1,3", &board),
            Err(NotationError::OffBoard { .. })
        ));
        for bad in ["", "h8i9", "seven,7", "h", "8"] {
            assert!(
                matches!(parse_point(bad, &board), Err(NotationError::BadPoint(_))),
                "{bad}"
            );
        }
    }
}
