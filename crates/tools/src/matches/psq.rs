//! Piskvork's PSQ game records, one file per game, as Piskvork's `savePsq` writes them:
//!
//! ```text
//! Piskvorky 15x15, 11:11, 0
//! 8,8,0          <- x,y,ms: 1-based coordinates, time taken (0 for opening stones)
//! …
//! first-player name
//! second-player name
//! 0              <- 0: the game ended on the board; Hoshi's convention: 1 by a fault,
//! ```                  2 adjudicated by proof

use std::io::{self, Write};

use hoshi::board::Pos;

use super::referee::{Move, Termination};

/// The file of game `number` (from 1) in the `--psq` folder: `game-0012.psq`.
#[must_use]
pub fn file_name(number: usize) -> String {
    format!("game-{number:04}.psq")
}

/// Writes a game.
pub fn write(
    w: &mut impl Write,
    size: u8,
    moves: &[Move],
    first: &str,
    second: &str,
    ending: &Termination,
) -> io::Result<()> {
    write_moves(w, size, size, moves.iter().map(|m| (m.pos, m.ms)))?;
    writeln!(w, "{first}")?;
    writeln!(w, "{second}")?;
    let code = match ending {
        Termination::Five | Termination::Foul(_) | Termination::FullBoard => 0,
        Termination::Fault(_) => 1,
        Termination::Adjudicated(_) => 2,
    };
    writeln!(w, "{code}")
}

/// Writes what every PSQ file starts with: the header of a `width` x `height` board and the
/// moves in order, each with the milliseconds it took. The caller writes the lines after.
pub fn write_moves(
    w: &mut impl Write,
    width: u8,
    height: u8,
    moves: impl IntoIterator<Item = (Pos, u64)>,
) -> io::Result<()> {
    writeln!(w, "Piskvorky {width}x{height}, 11:11, 0")?;
    for (pos, ms) in moves {
        writeln!(w, "{},{},{ms}", u32::from(pos.x) + 1, u32::from(pos.y) + 1)?;
    }
    Ok(())
}

/// A PSQ file read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PsqGame {
    pub width: u8,
    pub height: u8,
    pub moves: Vec<Pos>,
    /// The lines after the moves (names, end code), trimmed.
    pub trailer: Vec<String>,
}

/// Reads a PSQ file (Piskvork's header, `x,y,ms` lines, then free lines).
pub fn parse(text: &str) -> Result<PsqGame, String> {
    let mut lines = text.lines().map(str::trim);
    let header = lines.next().unwrap_or("");
    let size = header
        .strip_prefix("Piskvorky ")
        .and_then(|rest| rest.split(',').next())
        .ok_or_else(|| format!("not a PSQ header: {header:?}"))?;
    let (w, h) = size
        .split_once('x')
        .ok_or_else(|| format!("bad board size {size:?}"))?;
    let side = |s: &str| {
        s.trim()
            .parse::<u8>()
            .map_err(|_| format!("bad board size {size:?}"))
    };
    let (width, height) = (side(w)?, side(h)?);
    let mut moves = Vec::new();
    let mut trailer = Vec::new();
    for line in lines {
        let fields: Option<Vec<u32>> = line.split(',').map(|t| t.trim().parse().ok()).collect();
        match fields.as_deref() {
            Some(&[x, y, _]) if trailer.is_empty() => {
                let x = u8::try_from(x).ok().filter(|&v| (1..=width).contains(&v));
                let y = u8::try_from(y).ok().filter(|&v| (1..=height).contains(&v));
                match (x, y) {
                    (Some(x), Some(y)) => moves.push(Pos::new(x - 1, y - 1)),
                    _ => return Err(format!("move {line:?} is off the board")),
                }
            }
            _ => trailer.push(line.to_owned()),
        }
    }
    Ok(PsqGame {
        width,
        height,
        moves,
        trailer,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::engine::{Fault, FaultKind};

    #[test]
    fn the_gomocup_sample_parses() {
        // Head and tail of a Gomocup tournament record.
        let text = "Piskvorky 20x20, 7:7, 0\n10,10,456\n11,12,4500\n10,13,60\npisq7.exe\nrenjusolver.ZIP\n0\n";
        let g = parse(text).unwrap();
        assert_eq!((g.width, g.height), (20, 20));
        assert_eq!(g.moves, [Pos::new(9, 9), Pos::new(10, 11), Pos::new(9, 12)]);
        assert_eq!(g.trailer, ["pisq7.exe", "renjusolver.ZIP", "0"]);
    }

    #[test]
    fn a_written_game_reads_back() {
        let moves = [
            Move {
                pos: Pos::new(0, 0),
                ms: 0,
            },
            Move {
                pos: Pos::new(14, 7),
                ms: 12,
            },
        ];
        let fault = Termination::Fault(Fault::new(FaultKind::Crash, "gone"));
        for (ending, code) in [
            (Termination::Five, "0"),
            (fault, "1"),
            (Termination::Adjudicated(vec![Pos::new(1, 1)]), "2"),
        ] {
            let mut out = Vec::new();
            write(&mut out, 15, &moves, "A", "B", &ending).unwrap();
            let g = parse(&String::from_utf8(out).unwrap()).unwrap();
            assert_eq!(g.moves, [Pos::new(0, 0), Pos::new(14, 7)]);
            assert_eq!(g.trailer, ["A", "B", code]);
        }
        assert!(parse("Piskvorky 15x15, 0:0, 0\n16,1,0\n").is_err());
        assert!(parse("Gomoku\n").is_err());
    }
}
