//! The engine's integration tests, as modules of one test binary: a rebuild of the engine
//! then links one executable instead of six, which halves the cost of each mutant in
//! `just mutants` (cargo-mutants rebuilds the tests for every mutant). With `autotests =
//! false` in Cargo.toml, every file in tests/ must be listed here.

mod determinism_sources;
mod exhaustive_rows;
mod fast_vs_reference;
mod promises;
mod rules_statements;
mod value_stability;
