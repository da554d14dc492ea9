//! Rapfi's analysis lines: the `INFO KEY value` block an engine writes, when the manager
//! set bit 2 of `INFO show_detail`, after each completed depth of its search (one block per
//! line of a multi-PV search) and once for a move found without a search:
//!
//! ```text
//! INFO PV 0
//! INFO NUMPV 1
//! INFO DEPTH 9
//! INFO SELDEPTH 14
//! INFO NODES 52311
//! INFO TOTALNODES 60212
//! INFO TOTALTIME 131
//! INFO SPEED 459633
//! INFO EVAL 31
//! INFO WINRATE 0.514984
//! INFO BESTLINE 7,7 8,8 6,8
//! INFO PV DONE
//! ```
//!
//! Rapfi's developers' SPRT worker reads `EVAL` (it ends a game on the mover's `-M<n>`),
//! Yixin-Board the whole block for its analysis display. Keys print in upper case, as
//! Rapfi writes them, and parse in any case.

use std::fmt;
use std::str::FromStr;

use crate::coord::Coord;
use crate::text::split_word;

/// One line of the analysis block, by its key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Analysis {
    /// `INFO PV n`: the block of the line ranked `n`, counted from 0, begins.
    Pv(usize),
    /// `INFO NUMPV n`: lines searched at this depth.
    NumPv(usize),
    /// `INFO DEPTH n`: the depth completed.
    Depth(u32),
    /// `INFO SELDEPTH n`: the deepest ply the line's root move reached.
    SelDepth(u32),
    /// `INFO NODES n`: nodes searched below the line's root move.
    Nodes(u64),
    /// `INFO TOTALNODES n`: nodes searched in all.
    TotalNodes(u64),
    /// `INFO TOTALTIME ms`: time since the search began.
    TotalTime(u64),
    /// `INFO SPEED n`: nodes per second.
    Speed(u64),
    /// `INFO EVAL v`: the line's value for the side to move.
    Eval(Eval),
    /// `INFO WINRATE p`: the side to move's win probability.
    WinRate(WinRate),
    /// `INFO BESTLINE x,y x,y ...`: the line's moves.
    BestLine(Vec<Coord>),
    /// `INFO PV DONE`: the block ends.
    PvDone,
}

/// A value as Rapfi writes it: a score, or a win or loss in a number of plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// A plain score, in the engine's units.
    Score(i32),
    /// `+M<n>`: the side to move makes five `n` plies from now.
    Win(u32),
    /// `-M<n>`: the opponent makes five `n` plies from now.
    Loss(u32),
}

impl fmt::Display for Eval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Eval::Score(v) => write!(f, "{v}"),
            Eval::Win(n) => write!(f, "+M{n}"),
            Eval::Loss(n) => write!(f, "-M{n}"),
        }
    }
}

impl FromStr for Eval {
    type Err = ();

    fn from_str(s: &str) -> Result<Eval, ()> {
        let plies = |n: &str| n.parse::<u32>().map_err(|_| ());
        if let Some(n) = s.strip_prefix("+M").or_else(|| s.strip_prefix("+m")) {
            plies(n).map(Eval::Win)
        } else if let Some(n) = s.strip_prefix("-M").or_else(|| s.strip_prefix("-m")) {
            plies(n).map(Eval::Loss)
        } else {
            s.parse().map(Eval::Score).map_err(|_| ())
        }
    }
}

/// A win probability, 0 to 1, written as C++'s default stream writes a double (`%g`: six
/// significant digits, no trailing zeros), as Rapfi writes it. Two are equal when they are
/// written the same: the line carries no more.
#[derive(Clone, Copy, Debug)]
pub struct WinRate(f64);

impl WinRate {
    /// `p`, kept within 0 to 1 (a NaN is an even game).
    #[must_use]
    pub fn new(p: f64) -> WinRate {
        WinRate(if p.is_nan() { 0.5 } else { p.clamp(0.0, 1.0) })
    }

    #[must_use]
    pub fn get(self) -> f64 {
        self.0
    }
}

impl PartialEq for WinRate {
    fn eq(&self, other: &WinRate) -> bool {
        self.to_string() == other.to_string()
    }
}

impl Eq for WinRate {}

impl fmt::Display for WinRate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&general(self.0))
    }
}

/// `v` as C's `%g` writes it: six significant digits, in fixed notation when the decimal
/// exponent is from -4 to 5 and in scientific notation (`1e-05`) otherwise, with trailing
/// zeros (and a trailing point) removed.
fn general(v: f64) -> String {
    const PRECISION: i32 = 6;
    if v == 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    // The exponent after rounding to the precision, as %g decides by it.
    let sci = format!("{:.*e}", (PRECISION - 1) as usize, v);
    let (mantissa, exponent) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    if (-4..PRECISION).contains(&exponent) {
        let decimals = usize::try_from(PRECISION - 1 - exponent).unwrap_or(0);
        trim_zeros(&format!("{v:.decimals$}")).to_string()
    } else {
        let sign = if exponent < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", trim_zeros(mantissa), exponent.abs())
    }
}

/// A decimal number without the zeros that end its fraction, nor a point left alone.
fn trim_zeros(number: &str) -> &str {
    if number.contains('.') {
        number.trim_end_matches('0').trim_end_matches('.')
    } else {
        number
    }
}

impl fmt::Display for Analysis {
    /// The text after `INFO `.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Analysis::Pv(n) => write!(f, "PV {n}"),
            Analysis::NumPv(n) => write!(f, "NUMPV {n}"),
            Analysis::Depth(n) => write!(f, "DEPTH {n}"),
            Analysis::SelDepth(n) => write!(f, "SELDEPTH {n}"),
            Analysis::Nodes(n) => write!(f, "NODES {n}"),
            Analysis::TotalNodes(n) => write!(f, "TOTALNODES {n}"),
            Analysis::TotalTime(ms) => write!(f, "TOTALTIME {ms}"),
            Analysis::Speed(n) => write!(f, "SPEED {n}"),
            Analysis::Eval(v) => write!(f, "EVAL {v}"),
            Analysis::WinRate(p) => write!(f, "WINRATE {p}"),
            Analysis::BestLine(moves) => {
                f.write_str("BESTLINE ")?;
                moves.iter().enumerate().try_for_each(|(i, c)| {
                    let space = if i > 0 { " " } else { "" };
                    write!(f, "{space}{c}")
                })
            }
            Analysis::PvDone => f.write_str("PV DONE"),
        }
    }
}

impl Analysis {
    /// Reads the text after `INFO`; `None` when it is no analysis line.
    pub(crate) fn parse(text: &str) -> Option<Analysis> {
        let (key, value) = split_word(text);
        let number = || value.parse::<u64>().ok();
        let small = || value.parse::<u32>().ok();
        Some(match key.to_ascii_uppercase().as_str() {
            "PV" if value.eq_ignore_ascii_case("DONE") => Analysis::PvDone,
            "PV" => Analysis::Pv(value.parse().ok()?),
            "NUMPV" => Analysis::NumPv(value.parse().ok()?),
            "DEPTH" => Analysis::Depth(small()?),
            "SELDEPTH" => Analysis::SelDepth(small()?),
            "NODES" => Analysis::Nodes(number()?),
            "TOTALNODES" => Analysis::TotalNodes(number()?),
            "TOTALTIME" => Analysis::TotalTime(number()?),
            "SPEED" => Analysis::Speed(number()?),
            "EVAL" => Analysis::Eval(value.parse().ok()?),
            "WINRATE" => {
                let p: f64 = value.parse().ok()?;
                Analysis::WinRate((0.0..=1.0).contains(&p).then(|| WinRate::new(p))?)
            }
            "BESTLINE" => Analysis::BestLine(
                value
                    .split_whitespace()
                    .map(|m| {
                        let (x, y) = m.split_once(',')?;
                        Some(Coord {
                            x: x.parse().ok()?,
                            y: y.parse().ok()?,
                        })
                    })
                    .collect::<Option<_>>()?,
            ),
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn win_rates_print_as_cpp_streams_print_doubles() {
        let text = |p: f64| WinRate::new(p).to_string();
        assert_eq!(text(0.5), "0.5");
        assert_eq!(text(1.0), "1");
        assert_eq!(text(0.0), "0");
        assert_eq!(text(1.0 / (1.0 + (-1.0f64).exp())), "0.731059");
        assert_eq!(text(0.25), "0.25");
        assert_eq!(text(0.1), "0.1");
        // Six significant digits, rounded, then no trailing zeros.
        assert_eq!(text(0.999_999_7), "1");
        assert_eq!(text(0.123_456_49), "0.123456");
        assert_eq!(text(0.000_123_456_7), "0.000123457");
        // Below 1e-4, scientific notation with a two-digit exponent.
        assert_eq!(text(0.000_012_345_67), "1.23457e-05");
        assert_eq!(text(1e-300), "1e-300");
        // Out of range is clamped.
        assert_eq!(text(1.5), "1");
        assert_eq!(text(-0.2), "0");
    }

    #[test]
    fn evals_are_scores_or_mates_in_plies() {
        assert_eq!(Eval::Score(-35).to_string(), "-35");
        assert_eq!(Eval::Win(3).to_string(), "+M3");
        assert_eq!(Eval::Loss(4).to_string(), "-M4");
        assert_eq!("+M3".parse(), Ok(Eval::Win(3)));
        assert_eq!("-m4".parse(), Ok(Eval::Loss(4)));
        assert_eq!("12".parse(), Ok(Eval::Score(12)));
        assert!("M3".parse::<Eval>().is_err() && "+M".parse::<Eval>().is_err());
    }

    #[test]
    fn only_known_keys_with_fitting_values_are_analysis() {
        assert_eq!(Analysis::parse("pv done"), Some(Analysis::PvDone));
        assert_eq!(Analysis::parse("PV 2"), Some(Analysis::Pv(2)));
        assert_eq!(
            Analysis::parse("BESTLINE"),
            Some(Analysis::BestLine(vec![]))
        );
        assert_eq!(
            Analysis::parse("WINRATE 1e-05").map(|a| a.to_string()),
            Some("WINRATE 1e-05".into())
        );
        for text in [
            "PV x",
            "DEPTH -1",
            "WINRATE 1.5",
            "WINRATE nan",
            "BESTLINE 7,7 8",
            "EVAL M3",
            "MAX_THREAD_NUM 4",
            "",
        ] {
            assert_eq!(Analysis::parse(text), None, "{text}");
        }
    }
}
