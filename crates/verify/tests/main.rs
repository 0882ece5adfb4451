//! The verifier's integration tests, as modules of one test binary: a rebuild of the crate
//! then links one executable instead of two (cargo-mutants rebuilds them for every mutant).
//! memory.rs counts every allocation of its process, so it stays a binary of its own. With
//! `autotests = false` in Cargo.toml, every other file in tests/ must be listed here.

mod fixtures;
mod listing;
mod stepwise;
mod verify;
