#!/usr/bin/env bash
# The AVR boards' shipped images: builds the Mega 2560, Mega 1280 and Uno ELFs (the pinned
# nightly of rust-toolchain.toml) and writes each one's .hex to OUT_DIR, the files users
# flash. `just firmware` runs it into target/firmware, and so do the simavr tests
# (crates/sim-avr), which run exactly these files.
set -euo pipefail
out=${1:?usage: images.sh OUT_DIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$(dirname "$0")"
# From a cargo test the toolchain and flags of the host workspace are in the environment;
# this workspace has its own.
unset RUSTUP_TOOLCHAIN RUSTC RUSTDOC CARGO RUSTFLAGS CARGO_ENCODED_RUSTFLAGS CARGO_BUILD_TARGET CARGO_TARGET_DIR
cargo mega && cargo mega1280 && cargo uno
hex() {
    avr-objcopy -O ihex -R .eeprom "$1" "$out/.$2.$$"
    mv "$out/.$2.$$" "$out/$2"
}
hex target/avr-atmega2560/release/twenty48-mega2560.elf twenty48-mega2560.hex
hex target/avr-atmega1280/release/twenty48-mega1280.elf twenty48-mega1280.hex
hex target/avr-atmega328p/release/twenty48-uno.elf twenty48-uno.hex
