#!/usr/bin/env bash
# Re-makes the protocol v3 fixture (tests/v3.rs reads it; tests/v2/session.rs says what each
# capture holds): builds the QEMU firmware, keeps its ELF with the debug info stripped (the
# defmt table stays), and runs each script under QEMU, writing what came out of UART0:
#   session.txt -> session.bin   on a fresh 8-sector flash
#   restart.txt -> restart.bin   the same flash, booted again
#   stall.txt   -> stall.bin     on another fresh flash
#   ended.txt, ended-early.txt   each on a fresh flash of its own
# The scripts are made by the tests' plans (tests/v2/session.rs, `script`, with VERSION 3);
# the test fails when the committed scripts differ from them (write them first: run
# `cargo test -p twenty48-devicelog --test v3` and copy each `right:` script it prints, or
# keep the ones here when only the firmware changed). tests/data/v2 was made the same way
# by the protocol v2 firmware (commit 223de24); it is kept as it is, never re-made. After a firmware change that alters a frame,
# re-run this and review the snapshots (`cargo insta review`).
# Needs qemu-system-arm, llvm-objcopy and the thumbv6m-none-eabi target. Usage:
#   bash crates/devicelog/tests/data/v2/make.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../../.." && pwd)
(cd "$root/crates/firmware" &&
    env -u RUSTFLAGS -u CARGO_TARGET_DIR cargo build -q --release -p twenty48-firmware-qemu)
llvm-objcopy --strip-debug "$root/crates/firmware/target/thumbv6m-none-eabi/release/twenty48-qemu" \
    "$here/twenty48-qemu.elf"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
run() { # NAME FLASH: runs NAME.txt on the flash file FLASH (created if missing).
    timeout 120 qemu-system-arm -M lm3s6965evb -display none -monitor none \
        -semihosting-config "enable=on,target=native,arg=twenty48-qemu,arg=flash=$2,arg=sectors=8" \
        -serial stdio -kernel "$here/twenty48-qemu.elf" <"$here/$1.txt" >"$here/$1.bin" 2>/dev/null
}
run session "$scratch/device.flash"
run restart "$scratch/device.flash"
run stall "$scratch/stalled.flash"
run ended "$scratch/ended.flash"
run ended-early "$scratch/ended-early.flash"
ls -l "$here"
