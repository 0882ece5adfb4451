//! Playing a simulated AVR board as a person and a host would: shared by the simavr tests
//! of this crate and crates/cli/tests/avr_sim.rs (which includes it by path).

// Each test binary uses a part of it.
#![allow(dead_code)]

pub mod plan;
pub mod player;
pub mod screens;
