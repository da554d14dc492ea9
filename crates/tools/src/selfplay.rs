//! The self-play game file `datagen` appends to and `train` reads: training data, one
//! [`SelfPlayGame`] per record. (A game a person plays or analyses is a [`crate::game::Game`],
//! kept as text by [`crate::record`].)
//!
//! A header says what made the games (so a resumed run continues the same stream), then
//! one record per finished game, appended whole. All integers are little-endian.
//!
//! Header, 40 bytes: magic `HOSHIGMS` (8), version 1 (u32), rule code as in `INFO rule`
//! (u8), board side (u8), two zero bytes, nodes per move (u64), seed (u64), the playing
//! evaluation's id ([`hoshi::eval::Evaluator::id`], u32), CRC-32 of the 36 bytes before
//! (u32).
//!
//! Record: body length (u32), body, CRC-32 of the body (u32). Body: opening stone count
//! (u8) and the stones as `x, y` bytes, black first; searched move count (u16) and per
//! move `x, y` bytes and the mover's search score (i16, see [`Score`]); the winner (u8:
//! 0 none, a draw on a full board; 1 black; 2 white).
//!
//! A run killed mid-write leaves at most one torn record at the end: readers stop before
//! it and `datagen` cuts it off when it resumes, so every complete game stays readable.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use hoshi::board::{Color, Pos};
use hoshi::rules::Rule;

pub const MAGIC: [u8; 8] = *b"HOSHIGMS";
pub const VERSION: u32 = 1;
pub const HEADER_BYTES: usize = 40;
/// Scores at or beyond this magnitude are mates.
const MATE: i16 = 32_000;

/// What made the games of a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    pub rule: Rule,
    pub size: u8,
    pub nodes: u64,
    pub seed: u64,
    /// The evaluation both sides played with.
    pub weights: u32,
}

/// A search score from the mover's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// An evaluation (stored as i16, within +-31999).
    Eval(i32),
    /// The mover wins in this many plies (stored as `32767 - plies`).
    Win(u16),
    /// The mover loses in this many plies (stored as `-(32767 - plies)`).
    Loss(u16),
}

impl Score {
    fn encode(self) -> i16 {
        let mate = |n: u16| i16::MAX - (n.min((i16::MAX - MATE) as u16) as i16);
        match self {
            Score::Eval(v) => v.clamp(-i32::from(MATE) + 1, i32::from(MATE) - 1) as i16,
            Score::Win(n) => mate(n),
            Score::Loss(n) => -mate(n),
        }
    }

    fn decode(v: i16) -> Score {
        if v >= MATE {
            Score::Win((i16::MAX - v) as u16)
        } else if v <= -MATE {
            Score::Loss((i16::MAX + v) as u16)
        } else {
            Score::Eval(i32::from(v))
        }
    }
}

/// One self-play game: the opening, the searched moves with their scores, the result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelfPlayGame {
    /// Stones placed before the searches, black first.
    pub opening: Vec<Pos>,
    /// Every searched move with the mover's score.
    pub moves: Vec<(Pos, Score)>,
    /// `None`: a draw.
    pub winner: Option<Color>,
}

impl Header {
    #[must_use]
    pub fn to_bytes(&self) -> [u8; HEADER_BYTES] {
        let mut b = [0u8; HEADER_BYTES];
        b[..8].copy_from_slice(&MAGIC);
        b[8..12].copy_from_slice(&VERSION.to_le_bytes());
        b[12] = self.rule.code() as u8;
        b[13] = self.size;
        b[16..24].copy_from_slice(&self.nodes.to_le_bytes());
        b[24..32].copy_from_slice(&self.seed.to_le_bytes());
        b[32..36].copy_from_slice(&self.weights.to_le_bytes());
        let crc = crc32fast::hash(&b[..36]);
        b[36..].copy_from_slice(&crc.to_le_bytes());
        b
    }

    pub fn from_bytes(b: &[u8]) -> Result<Header, String> {
        if b.len() < HEADER_BYTES || b[..8] != MAGIC {
            return Err("not a Hoshi game file (bad magic)".into());
        }
        let u32_at = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let u64_at = |i: usize| u64::from_le_bytes(std::array::from_fn(|k| b[i + k]));
        if u32_at(8) != VERSION {
            return Err(format!(
                "game file version {} is not supported (this build reads {VERSION})",
                u32_at(8)
            ));
        }
        if crc32fast::hash(&b[..36]) != u32_at(36) {
            return Err("the game file's header is damaged (checksum mismatch)".into());
        }
        let rule = Rule::ALL
            .into_iter()
            .find(|r| r.code() == u32::from(b[12]))
            .ok_or_else(|| format!("no rule has code {}", b[12]))?;
        Ok(Header {
            rule,
            size: b[13],
            nodes: u64_at(16),
            seed: u64_at(24),
            weights: u32_at(32),
        })
    }
}

impl SelfPlayGame {
    /// The record's bytes: length, body, checksum.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut body = Vec::with_capacity(4 + 2 * self.opening.len() + 4 * self.moves.len());
        body.push(self.opening.len() as u8);
        for p in &self.opening {
            body.extend_from_slice(&[p.x, p.y]);
        }
        body.extend_from_slice(&(self.moves.len() as u16).to_le_bytes());
        for (p, s) in &self.moves {
            body.extend_from_slice(&[p.x, p.y]);
            body.extend_from_slice(&s.encode().to_le_bytes());
        }
        body.push(match self.winner {
            None => 0,
            Some(Color::Black) => 1,
            Some(Color::White) => 2,
        });
        let mut out = Vec::with_capacity(body.len() + 8);
        out.extend_from_slice(&(body.len() as u32).to_le_bytes());
        out.extend_from_slice(&body);
        out.extend_from_slice(&crc32fast::hash(&body).to_le_bytes());
        out
    }

    /// Parses one record's body (its checksum already checked).
    fn from_body(b: &[u8]) -> Option<SelfPlayGame> {
        let (&n_open, rest) = b.split_first()?;
        let (open, rest) = rest.split_at_checked(2 * usize::from(n_open))?;
        let opening = open.chunks(2).map(|c| Pos::new(c[0], c[1])).collect();
        let (n, rest) = rest.split_at_checked(2)?;
        let n = usize::from(u16::from_le_bytes([n[0], n[1]]));
        let (moves, rest) = rest.split_at_checked(4 * n)?;
        let moves = moves
            .chunks(4)
            .map(|c| {
                let score = Score::decode(i16::from_le_bytes([c[2], c[3]]));
                (Pos::new(c[0], c[1]), score)
            })
            .collect();
        let winner = match rest {
            [0] => None,
            [1] => Some(Color::Black),
            [2] => Some(Color::White),
            _ => return None,
        };
        Some(SelfPlayGame {
            opening,
            moves,
            winner,
        })
    }
}

/// A game file's readable content.
#[derive(Debug)]
pub struct Contents {
    pub header: Header,
    pub games: Vec<SelfPlayGame>,
    /// Bytes up to the end of the last whole record.
    pub valid_len: u64,
    /// Bytes after it: a record torn by an interrupted write (or damage), to be dropped.
    pub torn: u64,
}

/// Reads a game file: the header and every whole record up to the first torn or damaged one.
pub fn read(path: &Path) -> Result<Contents, String> {
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

fn parse(bytes: &[u8]) -> Result<Contents, String> {
    let header = Header::from_bytes(bytes)?;
    let mut at = HEADER_BYTES;
    let mut games = Vec::new();
    loop {
        let record = bytes.get(at..at + 4).and_then(|len| {
            let len = u32::from_le_bytes([len[0], len[1], len[2], len[3]]) as usize;
            let body = bytes.get(at + 4..at + 4 + len)?;
            let crc = bytes.get(at + 4 + len..at + 8 + len)?;
            (crc32fast::hash(body).to_le_bytes() == crc)
                .then(|| SelfPlayGame::from_body(body))
                .flatten()
                .map(|g| (g, 8 + len))
        });
        match record {
            Some((g, n)) => {
                games.push(g);
                at += n;
            }
            None => break,
        }
    }
    Ok(Contents {
        header,
        games,
        valid_len: at as u64,
        torn: (bytes.len() - at) as u64,
    })
}

/// Writes a new file's header.
pub fn create(path: &Path, header: &Header) -> io::Result<File> {
    use std::io::Write;
    let mut f = File::create(path)?;
    f.write_all(&header.to_bytes())?;
    f.sync_data()?;
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(n: u8) -> SelfPlayGame {
        SelfPlayGame {
            opening: vec![Pos::new(7, 7), Pos::new(8, n)],
            moves: vec![
                (Pos::new(1, 2), Score::Eval(-31_999)),
                (Pos::new(3, 4), Score::Eval(57)),
                (Pos::new(5, 6), Score::Win(3)),
                (Pos::new(14, 14), Score::Loss(0)),
            ],
            winner: [None, Some(Color::Black), Some(Color::White)][usize::from(n % 3)],
        }
    }

    fn file(games: &[SelfPlayGame]) -> Vec<u8> {
        let header = Header {
            rule: Rule::Renju,
            size: 15,
            nodes: 12_345,
            seed: u64::MAX - 1,
            weights: 0xDEAD_BEEF,
        };
        let mut bytes = header.to_bytes().to_vec();
        for g in games {
            bytes.extend(g.to_bytes());
        }
        bytes
    }

    #[test]
    fn games_round_trip_and_scores_keep_their_kind() {
        let games: Vec<_> = (0..5).map(game).collect();
        let c = parse(&file(&games)).unwrap();
        assert_eq!(c.games, games);
        assert_eq!(c.header.rule, Rule::Renju);
        assert_eq!((c.header.nodes, c.header.seed), (12_345, u64::MAX - 1));
        assert_eq!(c.torn, 0);
        for s in [
            Score::Eval(0),
            Score::Win(0),
            Score::Win(700),
            Score::Loss(99),
        ] {
            assert_eq!(Score::decode(s.encode()), s);
        }
        assert_eq!(
            Score::decode(Score::Eval(99_999).encode()),
            Score::Eval(31_999)
        );
    }

    #[test]
    fn a_torn_or_damaged_tail_is_left_out_and_bad_headers_are_refused() {
        let games: Vec<_> = (0..3).map(game).collect();
        let whole = file(&games);
        let two = file(&games[..2]).len();
        for cut in two..whole.len() {
            let c = parse(&whole[..cut]).unwrap();
            assert_eq!(c.games.len(), 2, "cut at {cut}");
            assert_eq!((c.valid_len, c.torn), (two as u64, (cut - two) as u64));
        }
        let mut damaged = whole.clone();
        damaged[two + 6] ^= 0x40;
        assert_eq!(parse(&damaged).unwrap().games.len(), 2);
        assert!(parse(b"HOSHIEVL").is_err());
        let mut header = whole.clone();
        header[20] ^= 1;
        assert!(parse(&header).unwrap_err().contains("damaged"));
        assert!(parse(&whole[..20]).is_err());
    }
}
