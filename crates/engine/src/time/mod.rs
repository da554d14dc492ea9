//! Time, in one place: what bounds one search ([`Limits`]), how the managers' clock
//! settings become those bounds ([`TimeControl`]), and when the search stops deepening
//! within them ([`Clock`]).

mod clock;
mod limits;
mod manager;

pub use clock::Clock;
pub use limits::Limits;
pub use manager::*;
