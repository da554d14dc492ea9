//! Tools behind subcommands (not protocol mode): they may write to stdout and stderr.
//!
//! [`matches`] plays and rates engines; [`datagen`] writes self-play [`games`] that
//! [`train`] fits the evaluation to.

pub mod datagen;
pub mod games;
pub mod matches;
pub mod train;
