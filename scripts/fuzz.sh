#!/usr/bin/env bash
set -euo pipefail
# Fuzzes every decoder of outside input for SECONDS each on the pinned nightly (cargo-fuzz):
# `just fuzz [SECONDS]`. Stops at the first target that finds a crash.
cd "$(dirname "$0")/.."
seconds=${1:-120}
nightly=$(sed -n 's/^channel = "\(.*\)"$/\1/p' crates/firmware-avr/rust-toolchain.toml)
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz
cargo +"$nightly" fuzz build -O
for t in movelog_decode journal_recover device_capture best_scores move_file request_parse pull_conversation; do
    mkdir -p "fuzz/corpus/$t"
    extra=""
    case $t in
        movelog_decode) extra="fixtures/games fixtures/broken" ;;
        device_capture) extra="crates/devicelog/tests/data/v1 crates/devicelog/tests/data/v2" ;;
    esac
    echo "== $t ($seconds s)"
    if [ -d "fuzz/seeds/$t" ]; then extra="fuzz/seeds/$t $extra"; fi
    # shellcheck disable=SC2086 # $extra is a list of folders
    cargo +"$nightly" fuzz run -O "$t" "fuzz/corpus/$t" $extra -- \
        -max_total_time="$seconds" -max_len=65536 -print_final_stats=1 2>&1 \
        | grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ *DONE)|SUMMARY|panicked" || true
    if [ -d "fuzz/artifacts/$t" ] && [ -n "$(ls -A "fuzz/artifacts/$t")" ]; then
        echo "$t found a crash: fuzz/artifacts/$t"
        exit 1
    fi
done
