//! Hoshi: a Gomoku and Renju engine for the Gomocup (Piskvork) protocol.
//!
//! The tree follows one owner per concern: [`board`] holds stones, [`rules`] judges them,
//! [`pattern`] keeps the incremental line patterns the [`search`] and [`eval`] read,
//! [`levels`] chooses moves within [`limits`] (budgeted by [`timeman`]), and [`protocol`]
//! turns manager text into typed commands, applies them to a session and writes the
//! replies. Nothing below `protocol` knows a protocol word. [`bench`] and [`tools`] serve
//! people: the fixed-depth bench and the match runner.

pub mod bench;
pub mod board;
pub mod cli;
pub mod eval;
pub mod levels;
pub mod limits;
pub mod logging;
pub mod notation;
pub mod opening;
pub mod pattern;
pub mod protocol;
pub mod rng;
pub mod rules;
pub mod search;
pub mod timeman;
pub mod tools;
