//! `pbrain-hoshi match`: matches between two pbrain engines, with ratings.

pub mod stats;
