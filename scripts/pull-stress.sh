#!/usr/bin/env bash
set -euo pipefail
# Time and peak memory of `pull` on million-frame hostile captures, endless bytes and a
# port: `just pull-stress` (docs/firmware.md prints its figures).
cd "$(dirname "$0")/.."
twenty48=target/release/twenty48
cargo build -q --release -p twenty48-cli
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
T48_STRESS_DIR="$dir" cargo test -q --release -p twenty48-devicelog --test hostile -- --ignored write_stress_captures >/dev/null
elf=crates/devicelog/tests/data/v2/twenty48-qemu.elf
timed() { /usr/bin/time -o "$dir/time" -f "%e s, peak RSS %M KiB" "$@" >/dev/null 2>&1 || true; tail -n 1 "$dir/time"; }
for c in starts conflicts huge-numbers; do
    echo "pull, $c ($(stat -c %s "$dir/$c.bin") bytes, 1,000,000 frames): $(timed "$twenty48" pull --elf $elf --capture "$dir/$c.bin" -o "$dir/out-$c")"
done
v3=crates/devicelog/tests/data/v3/twenty48-qemu.elf
echo "pull, stored-moves ($(stat -c %s "$dir/stored-moves.bin") bytes, 250,000 frames, v3): $(timed "$twenty48" pull --elf $v3 --capture "$dir/stored-moves.bin" -o "$dir/out-stored")"
endless=$(head -c 1073741824 /dev/zero | tr '\0' '\377' | timed "$twenty48" pull --elf $elf --capture - -o "$dir/out-endless")
echo "pull, 1 GiB of 0xFF without a separator (standard input): $endless"
cargo test -q --release -p twenty48-cli --test fakeboard -- --ignored --nocapture port_stress 2>&1 | grep '^pull --port'
