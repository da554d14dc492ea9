//! The Gomocup protocol: placeholder until the protocol layer lands.

use crate::levels::Level;

/// Start-up settings for a protocol session.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// The level played until `INFO level` changes it.
    pub level: Level,
    /// Seed for the random generator; a fresh one per game when `None`.
    pub seed: Option<u64>,
}

/// Speaks the protocol on stdin/stdout until END or end of input.
pub fn run(_options: Options) {}
