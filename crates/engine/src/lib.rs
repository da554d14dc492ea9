//! Hoshi's engine: a Gomoku and Renju player that knows no protocol word.
//!
//! One owner per concern: [`board`] holds stones, [`rules`] judges them, [`pattern`] keeps
//! the incremental line patterns that [`search`] and [`eval`] read, and [`levels`] choose
//! moves within the bounds [`time`] sets. [`judge`] judges swap2 and balanced
//! openings, [`notation`] reads and writes coordinates, and [`bench`](mod@bench) is the fixed-depth
//! search whose node count signs every change of behaviour.

pub mod bench;
pub mod board;
pub mod eval;
pub mod judge;
pub mod levels;
pub mod notation;
pub mod pattern;
pub mod rng;
pub mod rules;
pub mod search;
pub mod time;
