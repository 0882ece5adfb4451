#!/usr/bin/env bash
# The firmware workspace's `cargo run` runner (.cargo/config.toml): runs on the host and picks
# what to do from the ELF's name.
#   twenty48-qemu          plays the input on stdin under QEMU (lm3s6965evb), its game store in
#                          the emulated flash file target/twenty48-qemu-flash.bin (kept across runs)
#   twenty48-nano-rp2040   writes the board's UF2 beside the ELF with the uf2 tool of the root
#                          workspace, checks it, and copies it to a mounted RPI-RP2 drive
set -euo pipefail
elf=$1
shift
case "$(basename "$elf")" in
twenty48-qemu)
    exec qemu-system-arm -M lm3s6965evb -display none -monitor none \
        -semihosting-config enable=on,target=native,arg=twenty48-qemu,arg=flash=target/twenty48-qemu-flash.bin \
        -serial stdio -kernel "$elf" "$@"
    ;;
twenty48-nano-rp2040)
    root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
    elf=$(cd "$(dirname "$elf")" && pwd)/$(basename "$elf")
    # From the root, so the firmware's .cargo/config.toml (thumbv6m target, ARM linker flags)
    # does not apply to the host tool.
    cd "$root"
    exec env -u CARGO_BUILD_TARGET -u RUSTFLAGS -u CARGO_TARGET_DIR \
        cargo run -q --release --manifest-path "$root/crates/uf2/Cargo.toml" -- "$elf" --deploy
    ;;
*)
    echo "run.sh: no runner for $elf (a twenty48-qemu or twenty48-nano-rp2040 ELF)" >&2
    exit 2
    ;;
esac
