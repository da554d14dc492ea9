//! Hoshi: a Gomoku and Renju engine for the Gomocup (Piskvork) protocol.
//!
//! The tree follows one owner per concern: [`board`] holds stones, [`rules`] judges them,
//! [`levels`] chooses moves within [`limits`], and [`protocol`] turns manager text into
//! typed commands, applies them to a session and writes the replies. Nothing below
//! `protocol` knows a protocol word.

pub mod bench;
pub mod board;
pub mod cli;
pub mod eval;
pub mod levels;
pub mod limits;
pub mod logging;
pub mod pattern;
pub mod protocol;
pub mod rng;
pub mod rules;
pub mod search;
