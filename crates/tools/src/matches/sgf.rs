//! SGF game records (`FF[4]`, `GM[4]` = gomoku), laid out as c-gomoku-cli's `-sgf` writes them,
//! so that the tools reading its files read ours:
//!
//! ```text
//! (;FF[4]GM[4]GN[1]EV[black x white]DT[2026.05.01 12:00:00]RO[1.1]RU[0]SZ[15]PB[black]PW[white]RE[B+1]TE[Black win by five connection]
//! ;B[hh]C[opening move];W[ih]C[opening move]
//! ;B[ii]C[182ms];W[jj]C[199ms]…           <- eight played moves a line, each with its time
//! )
//! ```
//!
//! Coordinates are `x` then `y` as letters from `a`; `RE` is `B+1`, `W+1` or `0`; `TE`
//! uses c-gomoku-cli's wording. Two departures: `DT` is UTC (c-gomoku-cli uses local time),
//! and a game adjudicated by proof carries the proof in the root's `GC` (game comment).

use std::io::{self, Write};

use hoshi::board::{Color, Pos};
use hoshi::rules::Foul;

use super::engine::FaultKind;
use super::pgn::utc_now;
use super::referee::{PlayedGame, Termination};

/// Played moves per line, as c-gomoku-cli writes them.
const MOVES_PER_LINE: usize = 8;

/// What the record says about the players and the game besides its moves.
pub struct Header<'a> {
    /// The game's number in the match, from 1.
    pub number: usize,
    /// The round and the game's number in it, from 1.
    pub round: usize,
    pub game_in_round: usize,
    pub black: &'a str,
    pub white: &'a str,
    /// `INFO rule` code.
    pub rule: u32,
    pub size: u8,
}

/// Writes one game.
pub fn write_game(w: &mut impl Write, h: &Header, game: &PlayedGame) -> io::Result<()> {
    let (date, time) = utc_now();
    let result = match game.winner {
        Some(Color::Black) => "B+1",
        Some(Color::White) => "W+1",
        None => "0",
    };
    write!(
        w,
        "(;FF[4]GM[4]GN[{}]EV[{} x {}]DT[{date} {time}]RO[{}.{}]RU[{}]SZ[{}]PB[{}]PW[{}]RE[{result}]TE[{}]",
        h.number,
        text(h.black),
        text(h.white),
        h.round,
        h.game_in_round,
        h.rule,
        h.size,
        text(h.black),
        text(h.white),
        termination(game)
    )?;
    if let Termination::Adjudicated(proof) = &game.ending {
        write!(w, "GC[adjudicated: {}]", proof_text(proof))?;
    }
    writeln!(w)?;
    let mut on_line = 0;
    for (i, m) in game.moves.iter().enumerate() {
        let opening = i < game.opening;
        if i == game.opening && i > 0 {
            writeln!(w)?;
        }
        if !opening && on_line == MOVES_PER_LINE {
            writeln!(w)?;
            on_line = 0;
        }
        let colour = if i % 2 == 0 { 'B' } else { 'W' };
        write!(w, ";{colour}[{}]", coord(m.pos))?;
        if opening {
            write!(w, "C[opening move]")?;
        } else {
            write!(w, "C[{}ms]", m.ms)?;
            on_line += 1;
        }
    }
    writeln!(w, ")")?;
    writeln!(w)
}

/// SGF's point: column then row, each a letter from `a`.
fn coord(p: Pos) -> String {
    [p.x, p.y].iter().map(|&c| char::from(b'a' + c)).collect()
}

/// A proof line as SGF points joined by spaces.
fn proof_text(proof: &[Pos]) -> String {
    proof
        .iter()
        .map(|&p| coord(p))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A property value: `]` and `\` escaped.
fn text(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

/// c-gomoku-cli's `TE` wording for the ending.
fn termination(game: &PlayedGame) -> String {
    let winner = match game.winner {
        Some(Color::Black) => "Black",
        Some(Color::White) => "White",
        None => return "Draw by fullfilled board".to_owned(),
    };
    let how = match &game.ending {
        Termination::Five => "five connection",
        Termination::Foul(f) => {
            let what = match f {
                Foul::DoubleThree => "double three",
                Foul::DoubleFour => "double four",
                Foul::Overline => "overline",
            };
            return format!("Black play forbidden move - {what}");
        }
        Termination::FullBoard => return "Draw by fullfilled board".to_owned(),
        Termination::Adjudicated(_) => "adjudication",
        Termination::Fault(f) => match f.kind {
            FaultKind::Timeout => "time forfeit",
            FaultKind::Crash => "opponent crash",
            FaultKind::Illegal => "opponent illegal move",
            FaultKind::Malformed => "opponent malformed output",
            FaultKind::Memory => "opponent memory overuse",
        },
    };
    format!("{winner} win by {how}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::referee::Move;

    #[test]
    fn a_game_is_laid_out_as_c_gomoku_cli_writes_it() {
        let mut moves: Vec<Move> = [(7, 7), (8, 7)]
            .iter()
            .map(|&(x, y)| Move {
                pos: Pos::new(x, y),
                ms: 0,
            })
            .collect();
        for k in 0..9u8 {
            moves.push(Move {
                pos: Pos::new(k, 0),
                ms: 100 + u64::from(k),
            });
        }
        let game = PlayedGame {
            moves,
            opening: 2,
            winner: Some(Color::Black),
            ending: Termination::Five,
            sightings: Vec::new(),
        };
        let header = Header {
            number: 3,
            round: 1,
            game_in_round: 3,
            black: "a]b",
            white: "c",
            rule: 0,
            size: 15,
        };
        let mut out = Vec::new();
        write_game(&mut out, &header, &game).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines[0].starts_with("(;FF[4]GM[4]GN[3]EV[a\\]b x c]DT["),
            "{text}"
        );
        assert!(
            lines[0].ends_with(
                "RO[1.3]RU[0]SZ[15]PB[a\\]b]PW[c]RE[B+1]TE[Black win by five connection]"
            ),
            "{text}"
        );
        assert_eq!(lines[1], ";B[hh]C[opening move];W[ih]C[opening move]");
        assert_eq!(
            lines[2],
            ";B[aa]C[100ms];W[ba]C[101ms];B[ca]C[102ms];W[da]C[103ms];B[ea]C[104ms];W[fa]C[105ms];B[ga]C[106ms];W[ha]C[107ms]"
        );
        assert_eq!(lines[3], ";B[ia]C[108ms])");
        assert!(text.ends_with(")\n\n"));
    }

    #[test]
    fn adjudicated_games_carry_their_proof() {
        let game = PlayedGame {
            moves: vec![Move {
                pos: Pos::new(7, 7),
                ms: 5,
            }],
            opening: 0,
            winner: Some(Color::White),
            ending: Termination::Adjudicated(vec![Pos::new(1, 2), Pos::new(3, 4)]),
            sightings: Vec::new(),
        };
        let header = Header {
            number: 1,
            round: 1,
            game_in_round: 1,
            black: "a",
            white: "b",
            rule: 4,
            size: 15,
        };
        let mut out = Vec::new();
        write_game(&mut out, &header, &game).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains(
                "RE[W+1]TE[White win by adjudication]GC[adjudicated: bc de]\n;B[hh]C[5ms])"
            ),
            "{text}"
        );
    }
}
