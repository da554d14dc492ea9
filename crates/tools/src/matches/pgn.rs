//! PGN records that BayesElo and Ordo read: the seven-tag roster, a `Termination` tag and
//! the result, with no moves (as c-gomoku-cli's "dummy PGN"; the moves go to PSQ files).
//! Tags after those record the game's identity in the schedule ([`GameId`]: `Cycle`, the
//! round; `Pairing`, the engines from 1; `PairingGame`; `Opening`, from 1 or `-`; `Repeat`),
//! which [`read`] gives back to resume a run or merge shards.
//!
//! PGN's `White` is the side that moves first, which in gomoku plays the black stones:
//! that way BayesElo's first-move advantage (its `White` advantage) means what it should.

use std::io::{self, Write};
use std::time::{SystemTime, UNIX_EPOCH};

use hoshi::board::Color;

use super::engine::FaultKind;
use super::referee::{PlayedGame, Termination};
use super::schedule::GameId;

/// The PGN result token for a game's winner (`None`: a draw).
#[must_use]
pub fn result_token(winner: Option<Color>) -> &'static str {
    match winner {
        Some(Color::Black) => "1-0",
        Some(Color::White) => "0-1",
        None => "1/2-1/2",
    }
}

/// The standard `Termination` value for an ending.
#[must_use]
pub fn termination(ending: &Termination) -> &'static str {
    match ending {
        Termination::Five | Termination::FullBoard => "normal",
        Termination::Foul(_) => "rules infraction",
        Termination::Adjudicated(_) => "adjudication",
        Termination::Fault(f) => match f.kind {
            FaultKind::Timeout => "time forfeit",
            FaultKind::Crash => "abandoned",
            FaultKind::Illegal | FaultKind::Malformed | FaultKind::Memory => "rules infraction",
        },
    }
}

/// Writes one game; `first` and `second` are the names of the black and white players.
pub fn write_game(
    w: &mut impl Write,
    id: &GameId,
    first: &str,
    second: &str,
    game: &PlayedGame,
) -> io::Result<()> {
    let quote = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
    let result = result_token(game.winner);
    writeln!(w, "[Event \"Hoshi match\"]")?;
    writeln!(w, "[Site \"?\"]")?;
    writeln!(w, "[Date \"{}\"]", today())?;
    writeln!(w, "[Round \"{}\"]", id.number)?;
    writeln!(w, "[White \"{}\"]", quote(first))?;
    writeln!(w, "[Black \"{}\"]", quote(second))?;
    writeln!(w, "[Result \"{result}\"]")?;
    writeln!(w, "[Termination \"{}\"]", termination(&game.ending))?;
    writeln!(w, "[PlyCount \"{}\"]", game.moves.len())?;
    writeln!(w, "[Cycle \"{}\"]", id.round)?;
    writeln!(
        w,
        "[Pairing \"{}-{}\"]",
        id.pairing[0] + 1,
        id.pairing[1] + 1
    )?;
    writeln!(w, "[PairingGame \"{}\"]", id.pairing_game)?;
    match id.opening {
        Some(o) => writeln!(w, "[Opening \"{}\"]", o + 1)?,
        None => writeln!(w, "[Opening \"-\"]")?,
    }
    writeln!(w, "[Repeat \"{}\"]", u8::from(id.repeat))?;
    writeln!(w)?;
    writeln!(w, "{result}")?;
    writeln!(w)
}

/// A game read back from a PGN that the runner wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadGame {
    pub id: GameId,
    /// The names of the players with black and with white.
    pub names: [String; 2],
    pub winner: Option<Color>,
    /// The `Termination` tag, if the game has one.
    pub termination: Option<String>,
}

/// A PGN's complete games, and the length of the text they take: whatever follows is a
/// game torn by an interrupted run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadPgn {
    pub games: Vec<ReadGame>,
    pub complete_len: usize,
}

/// Reads the games of a PGN written by the runner. A game cut short at the end of the text
/// is left out; anything else out of place is an error naming its line.
pub fn read(text: &str) -> Result<ReadPgn, String> {
    let mut games = Vec::new();
    let mut complete_len = 0;
    let mut offset = 0;
    // The tags of the game being read, its first line, and whether its tags are over.
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut start = 0;
    let mut in_movetext = false;
    for (index, raw) in text.split_inclusive('\n').enumerate() {
        let number = index + 1;
        offset += raw.len();
        let Some(line) = raw.strip_suffix('\n') else {
            // A last line without its newline was cut off mid-write.
            break;
        };
        let line = line.trim_end_matches('\r').trim();
        if line.is_empty() {
            if tags.is_empty() {
                complete_len = offset;
            } else {
                in_movetext = true;
            }
            continue;
        }
        if !in_movetext {
            let tag = line
                .strip_prefix('[')
                .and_then(|l| l.strip_suffix("\"]"))
                .and_then(|l| l.split_once(" \""))
                .ok_or_else(|| format!("line {number}: {line:?} is not a [Tag \"value\"] line"))?;
            if tags.is_empty() {
                start = number;
            }
            tags.push((tag.0.to_owned(), unquote(tag.1)));
            continue;
        }
        let winner = match line {
            "1-0" => Some(Color::Black),
            "0-1" => Some(Color::White),
            "1/2-1/2" => None,
            _ => return Err(format!("line {number}: {line:?} is not a game result")),
        };
        games.push(game_from_tags(&tags, winner, start)?);
        complete_len = offset;
        tags.clear();
        in_movetext = false;
    }
    Ok(ReadPgn {
        games,
        complete_len,
    })
}

fn unquote(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            out.extend(chars.next());
        } else {
            out.push(c);
        }
    }
    out
}

fn game_from_tags(
    tags: &[(String, String)],
    winner: Option<Color>,
    line: usize,
) -> Result<ReadGame, String> {
    let tag = |name: &str| {
        tags.iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
            .ok_or_else(|| {
                format!(
                    "line {line}: the game has no {name} tag (only the PGN files that \
                     pbrain-hoshi match writes can be resumed or merged)"
                )
            })
    };
    let number = |name: &str| -> Result<usize, String> {
        let value = tag(name)?;
        value
            .parse::<usize>()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("line {line}: tag {name} {value:?} is not a number from 1"))
    };
    let pairing = tag("Pairing")?;
    let bad_pairing = || format!("line {line}: tag Pairing {pairing:?} is not A-B (from 1)");
    let (a, b) = pairing.split_once('-').ok_or_else(bad_pairing)?;
    let parse = |s: &str| s.parse::<usize>().ok().filter(|&n| n > 0).map(|n| n - 1);
    let (Some(a), Some(b)) = (parse(a), parse(b)) else {
        return Err(bad_pairing());
    };
    if a == b {
        return Err(bad_pairing());
    }
    let opening = match tag("Opening")? {
        "-" => None,
        _ => Some(number("Opening")? - 1),
    };
    let repeat = match tag("Repeat")? {
        "0" => false,
        "1" => true,
        other => return Err(format!("line {line}: tag Repeat {other:?} is not 0 or 1")),
    };
    let result = tag("Result")?;
    if result != result_token(winner) {
        return Err(format!(
            "line {line}: the Result tag {result:?} disagrees with the game's result"
        ));
    }
    Ok(ReadGame {
        id: GameId {
            number: number("Round")?,
            round: number("Cycle")?,
            pairing: [a, b],
            pairing_game: number("PairingGame")?,
            opening,
            repeat,
        },
        names: [tag("White")?.to_owned(), tag("Black")?.to_owned()],
        winner,
        termination: tag("Termination").ok().map(str::to_owned),
    })
}

/// Today's UTC date as PGN writes it (`YYYY.MM.DD`).
fn today() -> String {
    utc_now().0
}

/// The UTC date and time now, as `YYYY.MM.DD` and `HH:MM:SS` (PGN's and c-gomoku-cli's
/// SGF layout).
pub(super) fn utc_now() -> (String, String) {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days(i64::try_from(secs / 86_400).unwrap_or(0));
    let s = secs % 86_400;
    (
        format!("{y:04}.{m:02}.{d:02}"),
        format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60),
    )
}

/// Proleptic Gregorian date of a day count since 1970-01-01 (H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_convert_from_day_counts() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        // 2000-03-01 is day 11017 (30 years incl. 7 leap days = 10957, + Jan 31 + Feb 29).
        assert_eq!(civil_from_days(11_017), (2000, 3, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }

    #[test]
    fn a_game_is_written_with_tags_and_its_result() {
        let game = PlayedGame {
            moves: Vec::new(),
            opening: 0,
            winner: Some(Color::White),
            ending: Termination::FullBoard,
            sightings: Vec::new(),
        };
        let mut out = Vec::new();
        write_game(&mut out, &id(), "a \"b\"", "c", &game).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("[White \"a \\\"b\\\"\"]\n[Black \"c\"]\n[Result \"0-1\"]\n"));
        assert!(text.ends_with("\n\n0-1\n\n"), "{text}");
    }

    fn id() -> GameId {
        GameId {
            number: 3,
            round: 2,
            pairing: [0, 2],
            pairing_game: 2,
            opening: Some(4),
            repeat: true,
        }
    }

    #[test]
    fn games_read_back_with_their_identity_and_a_torn_one_is_dropped() {
        let game = PlayedGame {
            moves: Vec::new(),
            opening: 0,
            winner: None,
            ending: Termination::FullBoard,
            sightings: Vec::new(),
        };
        let mut out = Vec::new();
        write_game(&mut out, &id(), "x \\ y", "z", &game).unwrap();
        let whole = out.len();
        write_game(&mut out, &id(), "x", "z", &game).unwrap();
        let text = String::from_utf8(out).unwrap();
        let read_all = read(&text).unwrap();
        assert_eq!(read_all.games.len(), 2);
        assert_eq!(read_all.complete_len, text.len());
        let g = &read_all.games[0];
        assert_eq!(g.id, id());
        assert_eq!(g.names, ["x \\ y".to_owned(), "z".to_owned()]);
        assert_eq!(g.winner, None);
        assert_eq!(g.termination.as_deref(), Some("normal"));
        for cut in [whole + 5, text.len() - 3] {
            let torn = read(&text[..cut]).unwrap();
            assert_eq!(torn.games.len(), 1, "{cut}");
            assert_eq!(torn.complete_len, whole, "{cut}");
        }
        let err = read("[Event \"x\"]\n\n1-0\n\n").unwrap_err();
        assert!(
            err.contains("line 1") && err.contains("no Pairing tag"),
            "{err}"
        );
        assert!(read("junk\n").unwrap_err().contains("line 1"));
    }
}
