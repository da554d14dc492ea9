//! PGN records that BayesElo and Ordo read: the seven-tag roster, a `Termination` tag and
//! the result, with no moves (as c-gomoku-cli's "dummy PGN"; the moves go to PSQ files).
//!
//! PGN's `White` is the side that moves first, which in gomoku plays the black stones:
//! that way BayesElo's first-move advantage (its `White` advantage) means what it should.

use std::io::{self, Write};
use std::time::{SystemTime, UNIX_EPOCH};

use hoshi::board::Color;

use super::engine::FaultKind;
use super::referee::{PlayedGame, Termination};

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
fn termination(ending: &Termination) -> &'static str {
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
    number: usize,
    first: &str,
    second: &str,
    game: &PlayedGame,
) -> io::Result<()> {
    let quote = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
    let result = result_token(game.winner);
    writeln!(w, "[Event \"Hoshi match\"]")?;
    writeln!(w, "[Site \"?\"]")?;
    writeln!(w, "[Date \"{}\"]", today())?;
    writeln!(w, "[Round \"{number}\"]")?;
    writeln!(w, "[White \"{}\"]", quote(first))?;
    writeln!(w, "[Black \"{}\"]", quote(second))?;
    writeln!(w, "[Result \"{result}\"]")?;
    writeln!(w, "[Termination \"{}\"]", termination(&game.ending))?;
    writeln!(w, "[PlyCount \"{}\"]", game.moves.len())?;
    writeln!(w)?;
    writeln!(w, "{result}")?;
    writeln!(w)
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
        write_game(&mut out, 3, "a \"b\"", "c", &game).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("[White \"a \\\"b\\\"\"]\n[Black \"c\"]\n[Result \"0-1\"]\n"));
        assert!(text.ends_with("\n\n0-1\n\n"), "{text}");
    }
}
