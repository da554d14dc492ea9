//! Games as text, for `play` and `analyse`: Piskvork's PSQ files and the pos notation.
//!
//! A text is read as PSQ when it starts with Piskvork's `Piskvorky WxH` header (the file
//! then names its board), otherwise as one line of points in [`hoshi::notation`] such as
//! `h8i9j10`, on the board the caller names; spaces between the points are allowed there.
//! Moves alternate from black in both.

use std::fmt;
use std::io::{self, Read, Write};
use std::path::Path;

use crate::game::{Game, ReplayError};
use crate::matches::psq;
use hoshi::board::{Board, BoardError, Pos};
use hoshi::notation::{self, NotationError};
use hoshi::rules::Rule;

/// How a game is written to a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Piskvork's PSQ: a header, then `x,y,ms` lines from 1.
    Psq,
    /// One line of points, such as `h8i9j10`.
    Pos,
}

impl Format {
    /// PSQ for a name ending in `.psq` (any case), the pos line otherwise.
    #[must_use]
    pub fn for_path(path: &Path) -> Format {
        match path.extension() {
            Some(ext) if ext.eq_ignore_ascii_case("psq") => Format::Psq,
            _ => Format::Pos,
        }
    }
}

/// Why a text or file is not a game.
#[derive(Debug)]
pub enum RecordError {
    Io {
        source: String,
        error: io::Error,
    },
    Psq(String),
    Notation(NotationError),
    /// A pos text with more than one non-empty line.
    Lines(usize),
    Board(BoardError),
    Replay(ReplayError),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Io { source, error } => write!(f, "cannot read {source}: {error}"),
            RecordError::Psq(e) => write!(f, "not a PSQ file: {e}"),
            RecordError::Notation(e) => e.fmt(f),
            RecordError::Lines(n) => write!(
                f,
                "expected a PSQ file or one line of points such as h8i9j10, found {n} lines"
            ),
            RecordError::Board(e) => e.fmt(f),
            RecordError::Replay(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for RecordError {}

/// The game a text describes: PSQ on its own board, or a pos line on `board` (empty).
pub fn parse(text: &str, board: Board, rule: Rule) -> Result<Game, RecordError> {
    let text = text.trim_start_matches('\u{feff}');
    let (board, moves) = if text.trim_start().starts_with("Piskvorky") {
        let g = psq::parse(text).map_err(RecordError::Psq)?;
        let board = Board::new(g.width.into(), g.height.into()).map_err(RecordError::Board)?;
        (board, g.moves)
    } else {
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        if lines.len() > 1 {
            return Err(RecordError::Lines(lines.len()));
        }
        let joined: String = lines
            .concat()
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        let points = notation::parse_sequence(&joined).map_err(RecordError::Notation)?;
        let moves = points
            .into_iter()
            .map(|(x, y)| {
                board.pos(x, y).ok_or_else(|| {
                    // Named as the file names it, so the user can find it.
                    let point = board_name(x, y);
                    RecordError::Notation(NotationError::OffBoard {
                        point,
                        width: board.width(),
                        height: board.height(),
                    })
                })
            })
            .collect::<Result<Vec<Pos>, RecordError>>()?;
        (board, moves)
    };
    Game::replay(board, rule, &moves).map_err(RecordError::Replay)
}

/// The name of a point that may lie off every board.
fn board_name(x: i64, y: i64) -> String {
    match (u8::try_from(x), u8::try_from(y)) {
        (Ok(x), Ok(y)) => notation::name(Pos::new(x, y)),
        _ => format!("{x},{y}"),
    }
}

/// Reads the game in a file, or on stdin for `-`.
pub fn load(source: &str, board: Board, rule: Rule) -> Result<Game, RecordError> {
    let io_error = |error| RecordError::Io {
        source: source.to_string(),
        error,
    };
    let text = if source == "-" {
        let mut text = String::new();
        io::stdin().read_to_string(&mut text).map_err(io_error)?;
        text
    } else {
        std::fs::read_to_string(source).map_err(io_error)?
    };
    parse(&text, board, rule)
}

/// Writes `game`'s moves in `format`; PSQ records `names` as the black and white players.
pub fn write(w: &mut impl Write, format: Format, game: &Game, names: [&str; 2]) -> io::Result<()> {
    let board = game.board();
    let moves = board.history().iter().map(|&(p, _)| p);
    match format {
        Format::Psq => {
            psq::write_moves(w, board.width(), board.height(), moves.map(|p| (p, 0)))?;
            for name in names {
                writeln!(w, "{name}")?;
            }
            Ok(())
        }
        Format::Pos => writeln!(w, "{}", notation::sequence(moves)),
    }
}

/// Saves `game` to `path`, in the format its name asks for.
pub fn save(path: &Path, game: &Game, names: [&str; 2]) -> io::Result<Format> {
    let format = Format::for_path(path);
    let mut text = Vec::new();
    write(&mut text, format, game, names)?;
    std::fs::write(path, text)?;
    Ok(format)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board15() -> Board {
        Board::new(15, 15).unwrap()
    }

    #[test]
    fn pos_and_psq_texts_give_the_same_game_and_write_back() {
        let pos = parse(" h8 i9\nj10\n", board15(), Rule::Freestyle);
        assert!(matches!(pos, Err(RecordError::Lines(2))));
        let pos = parse(" h8 i9 j10\n", board15(), Rule::Freestyle).unwrap();
        let psq_text = "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n10,10,0\nYou\nHoshi\n";
        let from_psq = parse(psq_text, Board::new(20, 20).unwrap(), Rule::Freestyle).unwrap();
        assert_eq!(pos.board(), from_psq.board());
        let mut out = Vec::new();
        write(&mut out, Format::Psq, &pos, ["You", "Hoshi"]).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), psq_text);
        let mut out = Vec::new();
        write(&mut out, Format::Pos, &from_psq, ["", ""]).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "h8i9j10\n");
    }

    #[test]
    fn bad_texts_say_what_is_wrong() {
        let err = |text: &str| parse(text, board15(), Rule::Renju).unwrap_err().to_string();
        assert_eq!(
            err("h8p1"),
            "p1 is off the 15x15 board (columns a to o, rows 1 to 15)"
        );
        assert_eq!(err("h8h8"), "move 2 (h8): the point is already taken");
        assert!(err("h8 i9 ?").contains("goes wrong at \"?\""));
        assert!(err("Piskvorky 15x15, 1:1, 0\n16,1,0\n").starts_with("not a PSQ file"));
        assert!(err("Piskvorky 40x40, 1:1, 0\n").contains("unsupported board size"));
    }

    #[test]
    fn the_format_follows_the_file_name() {
        assert_eq!(Format::for_path(Path::new("a/game.PSQ")), Format::Psq);
        assert_eq!(Format::for_path(Path::new("game.txt")), Format::Pos);
        assert_eq!(Format::for_path(Path::new("game")), Format::Pos);
    }
}
