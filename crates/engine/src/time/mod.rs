//! Time, in one place: what bounds one search ([`Limits`]) and how the managers' clock
//! settings become those bounds ([`TimeControl`]).

mod limits;
mod manager;

pub use limits::Limits;
pub use manager::*;
