//! Building the AVR firmware from a host test (shared by crates/devicelog/tests/avr.rs and
//! crates/cli/tests/device.rs, which includes this file by path).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The AVR workspace, crates/firmware-avr.
pub fn avr_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../firmware-avr")
}

/// Runs `cargo ALIAS` in the AVR workspace with its own toolchain (rust-toolchain.toml): the
/// environment cargo gave the test (its rustc, its toolchain) is removed. Panics, saying
/// what is needed, when it does not build.
pub fn build_avr(alias: &str) {
    let dir = avr_dir();
    let status = Command::new("cargo")
        .arg(alias)
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .env_remove("RUSTUP_TOOLCHAIN")
        .env_remove("RUSTC")
        .env_remove("RUSTDOC")
        .env_remove("CARGO")
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("CARGO_BUILD_TARGET")
        .status()
        .expect("cargo (rustup's) runs");
    assert!(
        status.success(),
        "`cargo {alias}` did not build: it needs the nightly of \
         crates/firmware-avr/rust-toolchain.toml with rust-src and gcc-avr, avr-libc"
    );
}
