//! Engine quirks: what an engine does that some manager would refuse or that could be
//! taken for an answer, noted and counted instead of faulting the engine.
//!
//! Real engines have them: Rapfi and PentaZen print a `MESSAGE` at start-up, before their
//! ABOUT answer; pela's ABOUT has no `name=`; Rapfi, reading input while it still
//! finishes a search, now and then answers a command it dropped with `ERROR Unknown
//! command: TIME_LEFT`. c-gomoku-cli skips all of these, so the runner
//! does too, and reports them per engine at the end of the match.

use std::collections::BTreeMap;
use std::fmt;

/// A kind of quirk.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Quirk {
    /// `MESSAGE`/`DEBUG` before the ABOUT answer (liskvork forfeits the engine).
    ChatterBeforeAbout,
    /// No ABOUT answer: silence, `ERROR` or `UNKNOWN`.
    NoAbout,
    /// An ABOUT answer without `name=`.
    AboutWithoutName,
    /// An ABOUT answer that is not exactly `key="value"` pairs joined by `", "`.
    LooseAbout,
    /// `MESSAGE`/`DEBUG` before `OK` (liskvork and pygomo fail START).
    ChatterBeforeOk,
    /// `ERROR` (or `UNKNOWN`) to `START`, which was then sent once more.
    StartRefused,
    /// An `ERROR` line nobody asked for, skipped.
    StrayError,
    /// An `UNKNOWN` line nobody asked for, skipped.
    StrayUnknown,
    /// A `SUGGEST` line (Piskvork's human-game protocol), skipped.
    StraySuggest,
    /// Any other line that is no answer (a late ABOUT answer, a second `OK`, garbage),
    /// skipped.
    StrayLine,
    /// Output lines ending in `\r` (liskvork then cannot read the moves).
    CrLineEnds,
    /// Still running [`END_GRACE`](super::END_GRACE) after `END`: killed.
    SlowExit,
}

impl Quirk {
    /// What the quirk is, for the report.
    #[must_use]
    pub fn describe(self) -> &'static str {
        match self {
            Quirk::ChatterBeforeAbout => "MESSAGE/DEBUG before the ABOUT answer",
            Quirk::NoAbout => "no ABOUT answer",
            Quirk::AboutWithoutName => "ABOUT without name=",
            Quirk::LooseAbout => "ABOUT not in the strict key=\"value\", ... form",
            Quirk::ChatterBeforeOk => "MESSAGE/DEBUG before OK",
            Quirk::StartRefused => "START refused, sent again",
            Quirk::StrayError => "unsolicited ERROR, ignored",
            Quirk::StrayUnknown => "unsolicited UNKNOWN, ignored",
            Quirk::StraySuggest => "SUGGEST, ignored",
            Quirk::StrayLine => "a line that answers nothing, ignored",
            Quirk::CrLineEnds => "lines end in CR",
            Quirk::SlowExit => "still running after END, killed",
        }
    }

    /// Whether each occurrence is worth a warning as it happens (lines the engine may not
    /// mean, as opposed to habits it shows at every start).
    #[must_use]
    pub fn warns(self) -> bool {
        matches!(
            self,
            Quirk::StartRefused
                | Quirk::StrayError
                | Quirk::StrayUnknown
                | Quirk::StraySuggest
                | Quirk::StrayLine
        )
    }
}

/// One occurrence of a quirk, with the line (or fact) that showed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sighting {
    pub quirk: Quirk,
    pub detail: String,
}

impl Sighting {
    #[must_use]
    pub fn new(quirk: Quirk, detail: impl Into<String>) -> Sighting {
        Sighting {
            quirk,
            detail: detail.into(),
        }
    }
}

/// One engine's quirks over a match: how often each kind was seen, and the first time.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct QuirkCounts {
    seen: BTreeMap<Quirk, (u32, String)>,
}

impl QuirkCounts {
    pub fn add(&mut self, s: &Sighting) {
        self.seen
            .entry(s.quirk)
            .or_insert_with(|| (0, s.detail.clone()))
            .0 += 1;
    }

    /// How often `quirk` was seen.
    #[must_use]
    pub fn count(&self, quirk: Quirk) -> u32 {
        self.seen.get(&quirk).map_or(0, |(n, _)| *n)
    }
}

impl fmt::Display for QuirkCounts {
    /// `none`, or each kind as `what xN (first: detail)`, joined by `; `.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.seen.is_empty() {
            return f.write_str("none");
        }
        for (i, (quirk, (n, first))) in self.seen.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{} x{n} (first: {first})", quirk.describe())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_keep_the_first_detail_and_print_in_a_fixed_order() {
        let mut q = QuirkCounts::default();
        assert_eq!(q.to_string(), "none");
        q.add(&Sighting::new(Quirk::StrayError, "\"ERROR a\""));
        q.add(&Sighting::new(Quirk::ChatterBeforeAbout, "\"MESSAGE hi\""));
        q.add(&Sighting::new(Quirk::StrayError, "\"ERROR b\""));
        assert_eq!(q.count(Quirk::StrayError), 2);
        assert_eq!(
            q.to_string(),
            "MESSAGE/DEBUG before the ABOUT answer x1 (first: \"MESSAGE hi\"); \
             unsolicited ERROR, ignored x2 (first: \"ERROR a\")"
        );
    }
}
