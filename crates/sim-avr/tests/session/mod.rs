//! Playing a simulated AVR board: the player is the crate's own (`twenty48_sim_avr::session`);
//! the screens the sessions expect are here.

// Each test binary uses a part of it.
#![allow(dead_code)]

pub use twenty48_sim_avr::session::{plan, player};
pub mod screens;
