//! Playing a simulated AVR board as a person and a host would: a plan of presses for a game
//! ([`plan`]) and a [`player`](player::Player) that presses the buttons, reads the log and
//! the screens, and checks every game against the host's replay. Used by this crate's tests,
//! its `measure` example and the CLI's test of `twenty48 pull` against the boards.

pub mod pace;
pub mod plan;
pub mod player;
