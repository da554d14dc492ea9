//! `INFO` settings: the text after `INFO` to a typed [`Info`] and back.
//!
//! Keys are case-insensitive and print in lower case; the value is the rest of the line.

use std::fmt;
use std::path::PathBuf;

use hoshi::levels::strength::BadStrength;
use hoshi::levels::{Level, Strength, UnknownLevel};
use hoshi::rules::Rule;

use crate::text::{shown, split_word};

/// An `INFO` line. INFO is never answered, so even a bad value is a value here (`Ignored`),
/// to be logged rather than replied to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Info {
    /// Milliseconds per move; 0 means answer at once, negative means no limit.
    TimeoutTurn(i64),
    /// Milliseconds per game; 0 means no limit.
    TimeoutMatch(i64),
    /// Milliseconds left in the game; may be negative; 2147483647 means no limit.
    TimeLeft(i64),
    /// Bytes of memory; 0 means no limit.
    MaxMemory(u64),
    Rule(Rule),
    Level(Level),
    /// `INFO strength 0..100` (Rapfi's key): master's strength.
    Strength(Strength),
    /// `INFO elo N`: master at the strength whose rating is nearest to `N` (Elo at 1 s a
    /// move, pela = 0; see [`Strength::for_elo`]). Out-of-range numbers saturate.
    Elo(i32),
    /// Deepest iteration; `None` (a value of 0 or less) lifts the bound.
    MaxDepth(Option<u32>),
    /// Most nodes per search; `None` (a value of 0 or less, Yixin-Board's -1) lifts it.
    MaxNode(Option<u64>),
    /// `INFO weights FILE`: evaluate with this weights file (the rest of the line).
    Weights(PathBuf),
    /// `INFO thread_num n`: search threads (at least one; the search caps them).
    Threads(usize),
    /// `INFO hash_size n` (Yixin-Board): the table's size in KiB, as Rapfi reads it; 0
    /// gives back the size `max_memory` allows.
    HashSize(u64),
    /// `INFO show_detail n` (Yixin-Board, 0 to 3): bit 1 asks for the realtime
    /// `MESSAGE REALTIME` lines during a search, bit 2 for Rapfi's `INFO` analysis block
    /// after each of its depths ([`crate::Analysis`]).
    ShowDetail {
        realtime: bool,
        analysis: bool,
    },
    /// A key with its value as text: one accepted without effect (`game_type`, `folder`,
    /// `caution_factor`, unknown keys...), or, sent by a manager, a setting passed on as
    /// the user gave it (printed as is, key case included). `caution_factor` sets Rapfi's
    /// candidate range; Hoshi's move generation has its own, so it changes nothing.
    Accepted {
        key: String,
        value: String,
    },
    /// A known key with a value that makes no sense; the setting is left unchanged.
    Ignored {
        key: String,
        reason: BadValue,
    },
}

/// Why an `INFO` value was ignored (logged, never answered).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadValue {
    /// Not a whole number (the text, cut short).
    NotANumber(String),
    NegativeMemory(i64),
    NoSuchRule(i64),
    Level(UnknownLevel),
    Strength(BadStrength),
    /// `INFO weights` with no file named.
    NoWeightsFile,
    /// A number outside the key's range (the range, as text).
    OutOfRange {
        got: i64,
        range: &'static str,
    },
}

impl fmt::Display for BadValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadValue::NotANumber(got) => write!(f, "expected a whole number, got '{got}'"),
            BadValue::NegativeMemory(n) => write!(f, "memory cannot be negative ({n})"),
            BadValue::NoSuchRule(n) => write!(f, "no rule has code {n}"),
            BadValue::Level(e) => e.fmt(f),
            BadValue::Strength(e) => e.fmt(f),
            BadValue::NoWeightsFile => write!(f, "expected a weights file"),
            BadValue::OutOfRange { got, range } => write!(f, "{got} is not in {range}"),
        }
    }
}

impl BadValue {
    /// The value as the line gave it (cut short where the reason quotes it so), which
    /// parses back to the same reason under the same key.
    #[must_use]
    pub fn value(&self) -> String {
        match self {
            BadValue::NotANumber(text) => text.clone(),
            BadValue::NegativeMemory(n) | BadValue::NoSuchRule(n) => n.to_string(),
            BadValue::Level(UnknownLevel(text)) => text.clone(),
            BadValue::Strength(BadStrength(text)) => text.clone(),
            BadValue::NoWeightsFile => String::new(),
            BadValue::OutOfRange { got, .. } => got.to_string(),
        }
    }
}
impl Info {
    /// Parses the text after `INFO`: a key, then the value as the rest of the line.
    pub(crate) fn parse(args: &str) -> Info {
        let (key, value) = split_word(args);
        let key = key.to_ascii_lowercase();
        let ignored = |reason: BadValue| Info::Ignored {
            key: key.clone(),
            reason,
        };
        let int = || {
            value
                .parse::<i64>()
                .map_err(|_| ignored(BadValue::NotANumber(shown(value))))
        };
        let parsed = match key.as_str() {
            "timeout_turn" => int().map(Info::TimeoutTurn),
            "timeout_match" => int().map(Info::TimeoutMatch),
            "time_left" => int().map(Info::TimeLeft),
            "max_memory" => int().and_then(|n| {
                u64::try_from(n)
                    .map(Info::MaxMemory)
                    .map_err(|_| ignored(BadValue::NegativeMemory(n)))
            }),
            "rule" => int().and_then(|n| {
                Rule::from_code(n)
                    .map(Info::Rule)
                    .ok_or_else(|| ignored(BadValue::NoSuchRule(n)))
            }),
            "level" => value
                .parse()
                .map(Info::Level)
                .map_err(|e| ignored(BadValue::Level(e))),
            "strength" => value
                .parse()
                .map(Info::Strength)
                .map_err(|e| ignored(BadValue::Strength(e))),
            "elo" => int().map(|n| {
                Info::Elo(i32::try_from(n).unwrap_or(if n < 0 { i32::MIN } else { i32::MAX }))
            }),
            // Out-of-range bounds saturate: a depth beyond u32 is no bound in practice.
            "max_depth" => {
                int().map(|n| Info::MaxDepth((n > 0).then(|| u32::try_from(n).unwrap_or(u32::MAX))))
            }
            "max_node" => {
                int().map(|n| Info::MaxNode((n > 0).then(|| u64::try_from(n).unwrap_or(u64::MAX))))
            }
            "thread_num" => int().map(|n| Info::Threads(usize::try_from(n.max(1)).unwrap_or(1))),
            "hash_size" => int().and_then(|n| {
                u64::try_from(n)
                    .map(Info::HashSize)
                    .map_err(|_| ignored(BadValue::NegativeMemory(n)))
            }),
            "show_detail" => int().and_then(|n| match n {
                0..=3 => Ok(Info::ShowDetail {
                    realtime: n & 1 != 0,
                    analysis: n & 2 != 0,
                }),
                _ => Err(ignored(BadValue::OutOfRange {
                    got: n,
                    range: "0..=3",
                })),
            }),
            "weights" if !value.is_empty() => Ok(Info::Weights(PathBuf::from(value))),
            "weights" => Err(ignored(BadValue::NoWeightsFile)),
            _ => Ok(Info::Accepted {
                key: key.clone(),
                value: value.to_string(),
            }),
        };
        parsed.unwrap_or_else(|e| e)
    }
}

impl fmt::Display for Info {
    /// `key value`, the text after `INFO`. A bound that is lifted prints as 0, a key
    /// without a value with a trailing space (as `INFO KEY VALUE` reads with no value).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Info::TimeoutTurn(ms) => write!(f, "timeout_turn {ms}"),
            Info::TimeoutMatch(ms) => write!(f, "timeout_match {ms}"),
            Info::TimeLeft(ms) => write!(f, "time_left {ms}"),
            Info::MaxMemory(bytes) => write!(f, "max_memory {bytes}"),
            Info::Rule(rule) => write!(f, "rule {}", rule.code()),
            Info::Level(level) => write!(f, "level {level}"),
            Info::Strength(strength) => write!(f, "strength {strength}"),
            Info::Elo(elo) => write!(f, "elo {elo}"),
            Info::MaxDepth(depth) => write!(f, "max_depth {}", depth.unwrap_or(0)),
            Info::MaxNode(nodes) => write!(f, "max_node {}", nodes.unwrap_or(0)),
            Info::Weights(path) => write!(f, "weights {}", path.display()),
            Info::Threads(n) => write!(f, "thread_num {n}"),
            Info::HashSize(kib) => write!(f, "hash_size {kib}"),
            Info::ShowDetail { realtime, analysis } => write!(
                f,
                "show_detail {}",
                u8::from(*realtime) | u8::from(*analysis) << 1
            ),
            Info::Accepted { key, value } => write!(f, "{key} {value}"),
            Info::Ignored { key, reason } => write!(f, "{key} {}", reason.value()),
        }
    }
}
