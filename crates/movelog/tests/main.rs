//! The move log's integration tests, as modules of one test binary: a rebuild of the crate
//! then links one executable instead of five, which halves the cost of each mutant in
//! `just mutants`. allocation.rs counts every allocation of its process, so it stays a
//! binary of its own. With `autotests = false` in Cargo.toml, every other file in tests/
//! must be listed here.

mod common;
mod golden;
mod hostile;
mod roundtrip;
mod rules_offsets;
mod size;
