//! `pbrain-hoshi match`: matches between two pbrain engines, with ratings.

pub mod engine;
pub mod openings;
pub mod referee;
pub mod stats;
