#!/usr/bin/env bash
set -euo pipefail
# Peak memory of `verify` on a log of 4,294,967,292 moves (1 GiB) and of `replay --json` on a
# long 8x8 game: `just bench-memory`.
cd "$(dirname "$0")/.."
twenty48=target/release/twenty48
cargo build -q --release -p twenty48-cli
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$twenty48" record --seed 1 --bot greedy --max-moves 5 -o "$dir/head.t48" >/dev/null
python3 - "$dir/head.t48" "$dir/big.t48" <<'EOF'
import struct, sys, zlib
src = open(sys.argv[1], "rb").read()
h = 29 + src[15] + src[28 + src[15]]
n = 2**32 - 4
head = src[:h] + struct.pack("<IIQBQBB", 0, n, 0, 0, 0, 0, 1)
crc = zlib.crc32(head)
chunk = bytes([0b11_01_11_01]) * (1 << 20)
with open(sys.argv[2], "wb") as out:
    out.write(head)
    for left in range(n // 4, 0, -len(chunk)):
        part = chunk[: min(left, len(chunk))]
        crc = zlib.crc32(part, crc)
        out.write(part)
    out.write(struct.pack("<I", crc))
EOF
peak() { /usr/bin/time -f "%M" "$@" 2>&1 >/dev/null | tail -n 1; }
echo "verify, $(stat -c %s "$dir/big.t48") bytes: peak RSS $(peak "$twenty48" verify "$dir/big.t48") KiB"
"$twenty48" record --seed 1 --bot greedy --size 8 --max-moves 138904 -o "$dir/long.t48" >/dev/null
echo "replay --json, 138904 moves: peak RSS $(peak "$twenty48" replay "$dir/long.t48" --json) KiB"
