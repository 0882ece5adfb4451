//! The stable replay of the fuzz targets of every decoder of outside input (`fuzz/`, fuzzed
//! with cargo-fuzz by `just fuzz`): `tests/corpus.rs` runs every seed, corpus file and
//! regression of each target through its entry point, and thousands of deterministic
//! mutations of them, in `just test`. This crate has no code of its own: it puts that
//! replay in the workspace, so that it is built with the workspace's crates and features.
//!
//! ```
//! // Any bytes, through any target's entry point: an error at most, never a panic.
//! for target in twenty48_fuzz::TARGETS {
//!     twenty48_fuzz::run(target, b"\x00\xff not a game");
//! }
//! ```
