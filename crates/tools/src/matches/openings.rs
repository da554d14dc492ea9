//! Opening files: one opening per line, in the two formats c-gomoku-cli reads.
//!
//! * offset (Gomocup/Piskvork): `x1,y1, x2,y2, …`, moves in play order, each an offset from
//!   the centre `(size/2, size/2)`; `x` is the column, `y` the row growing downwards.
//! * pos (Yixin/Rapfi): concatenated `<letter><number>` moves, `a` = column 0 and `1` = row 0
//!   ([`hoshi::notation`]).
//!
//! Blank lines are skipped (c-gomoku-cli would read one as an empty-board opening).

use std::path::Path;

use clap::ValueEnum;

use hoshi::board::{Board, Color, Pos};
use hoshi::notation;

/// How an opening line is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OpeningFormat {
    Offset,
    Pos,
}

/// The order in which the openings are used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OpeningOrder {
    Sequential,
    Random,
}

/// Reads every opening of a file, checked against a `size` x `size` board.
pub fn load(path: &Path, format: OpeningFormat, size: u8) -> Result<Vec<Vec<Pos>>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read the openings file {}: {e}", path.display()))?;
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let opening = parse_line(line, format, size)
            .map_err(|e| format!("{} line {}: {e}", path.display(), i + 1))?;
        openings.push(opening);
    }
    if openings.is_empty() {
        return Err(format!("{} holds no opening", path.display()));
    }
    Ok(openings)
}

/// One opening, as absolute cells in play order (black first).
pub fn parse_line(line: &str, format: OpeningFormat, size: u8) -> Result<Vec<Pos>, String> {
    let coords = match format {
        OpeningFormat::Offset => parse_offsets(line, size)?,
        OpeningFormat::Pos => notation::parse_sequence(line).map_err(|e| e.to_string())?,
    };
    let mut board = Board::new(i64::from(size), i64::from(size)).map_err(|e| e.to_string())?;
    let mut moves = Vec::with_capacity(coords.len());
    for (x, y) in coords {
        let p = board.checked_pos(x, y).map_err(|e| e.to_string())?;
        let color = if moves.len() % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        board.place(p, color).map_err(|e| e.to_string())?;
        moves.push(p);
    }
    Ok(moves)
}

fn parse_offsets(line: &str, size: u8) -> Result<Vec<(i64, i64)>, String> {
    let numbers = line
        .split(',')
        .map(|t| {
            t.trim()
                .parse::<i64>()
                .map_err(|_| format!("{t:?} is not a number"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if numbers.len() % 2 != 0 {
        return Err("an offset opening needs x,y pairs".to_owned());
    }
    let c = i64::from(size / 2);
    Ok(numbers.chunks(2).map(|xy| (xy[0] + c, xy[1] + c)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_opening_in_either_format_decodes_to_the_same_stones() {
        // `0,0, 1,0, 1,3` on 15x15 (offsets from the centre) and `h8i8i11` are both
        // 7,7 / 8,7 / 8,10.
        let want = vec![Pos::new(7, 7), Pos::new(8, 7), Pos::new(8, 10)];
        assert_eq!(
            parse_line("0,0, 1,0, 1,3", OpeningFormat::Offset, 15).unwrap(),
            want
        );
        assert_eq!(parse_line("h8i8i11", OpeningFormat::Pos, 15).unwrap(), want);
        assert_eq!(
            parse_line("H8I8I11\r", OpeningFormat::Pos, 15).unwrap(),
            want
        );
    }

    #[test]
    fn bad_openings_are_refused_with_a_reason() {
        // Offset -8 leaves a 15x15 board (the README's negative check on line 41).
        assert!(parse_line("0,0, -8,0", OpeningFormat::Offset, 15).is_err());
        assert!(parse_line("0,0, 1", OpeningFormat::Offset, 15).is_err());
        assert!(parse_line("0,0, 0,0", OpeningFormat::Offset, 15).is_err());
        assert!(parse_line("h8 i8", OpeningFormat::Pos, 15).is_err());
        assert!(parse_line("h0", OpeningFormat::Pos, 15).is_err());
        assert!(parse_line("8h", OpeningFormat::Pos, 15).is_err());
    }
}
