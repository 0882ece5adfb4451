# twenty48 tasks. `just test` is what CI runs (.ci/run); `just --list` shows every recipe.

set shell := ["bash", "-euo", "pipefail", "-c"]

# The CLI, built once in release mode for the recipes that play games.
twenty48 := "target/release/twenty48"

# List the recipes.
default:
    @just --list

# Install what the tests need: the thumb targets, and QEMU for the firmware tests.
setup:
    rustup target add thumbv6m-none-eabi thumbv7m-none-eabi >/dev/null
    rustup component add rustfmt clippy >/dev/null 2>&1 || true
    @if ! command -v qemu-system-arm >/dev/null; then \
        if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
            apt-get update -qq && apt-get install -y -qq qemu-system-arm >/dev/null; \
        else \
            echo "error: qemu-system-arm is missing; install it (Debian: sudo apt-get install qemu-system-arm)" >&2; exit 1; \
        fi; \
    fi

# Record a game with the greedy bot and replay it: the main job, end to end.
record seed="2048" file="game.t48":
    cargo build -q --release -p twenty48-cli
    {{twenty48}} record --seed {{seed}} --bot greedy --force -o {{file}}
    {{twenty48}} replay {{file}} --final
    {{twenty48}} verify {{file}}

# Replay a recorded game, board by board.
replay file="game.t48" *flags="":
    cargo build -q --release -p twenty48-cli
    {{twenty48}} replay {{file}} {{flags}}

# Every check: formatting, clippy (host and firmware), the engine's no_std build for thumbv6m,
# all tests (unit, property, snapshots, fixtures, the firmware under QEMU), and the
# independent Python implementation of docs/ against the fixtures.
test: setup setup-avr
    cargo fmt --all -- --check
    cargo fmt --manifest-path crates/firmware/Cargo.toml --all -- --check
    cargo clippy --workspace --all-targets -- -D warnings
    cd crates/firmware && cargo clippy --release -- -D warnings
    cargo build -p twenty48-engine --no-default-features --target thumbv6m-none-eabi
    cargo build -p twenty48-engine --no-default-features --features defmt --target thumbv6m-none-eabi
    cargo build -p twenty48-engine --no-default-features --features alloc --target thumbv6m-none-eabi
    python3 docs/independent/check.py
    INSTA_UPDATE=no cargo test --workspace
    cargo test -q --manifest-path fuzz/Cargo.toml
    cargo test -q -p twenty48-engine --features compact-rng
    cd crates/firmware-avr && cargo fmt --all -- --check && cargo mega-clippy -- -D warnings && cargo mega && cargo mega1280

# The firmware end to end (its test also runs in `just test`): clippy on the firmware
# workspace, then build both boards for thumbv6m, play scripted games under QEMU, pull them
# and verify every game on the host. Fails, never skips, without qemu-system-arm.
firmware-test: setup
    cd crates/firmware && cargo clippy --release -- -D warnings
    INSTA_UPDATE=no cargo test -p twenty48-devicelog --test firmware

# What the AVR boards need: gcc-avr, avr-libc, binutils-avr, qemu-system-avr (apt, as root on
# Debian), and the nightly pinned in crates/firmware-avr/rust-toolchain.toml with rust-src.
setup-avr:
    @if ! command -v avr-gcc >/dev/null || ! command -v qemu-system-avr >/dev/null || ! command -v avr-objcopy >/dev/null; then \
        if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
            apt-get update -qq && apt-get install -y -qq gcc-avr avr-libc binutils-avr qemu-system-misc >/dev/null; \
        else \
            echo "error: avr-gcc, avr-objcopy or qemu-system-avr is missing; install them (Debian: sudo apt-get install gcc-avr avr-libc binutils-avr qemu-system-misc)" >&2; exit 1; \
        fi; \
    fi
    cd crates/firmware-avr && rustup show active-toolchain >/dev/null && rustup component add rust-src >/dev/null

# The AVR firmware end to end (its test also runs in `just test`): the Megas built with the
# pinned nightly, a scripted session under qemu-system-avr -M mega (ATmega1280), every game
# replayed on the host, damaged captures. The Mega 2560's own run is `-- --ignored` (it fails
# while LLVM misreads stack arguments on 3-byte-PC chips). Fails, never skips, without the
# AVR tools.
firmware-avr-test: setup-avr
    cd crates/firmware-avr && cargo mega-clippy -- -D warnings
    cargo test -q -p twenty48-engine --features compact-rng
    INSTA_UPDATE=no cargo test -p twenty48-devicelog --test avr

# Build both boards (release, thumbv6m) and write the Nano RP2040 Connect's UF2 (checked
# block by block) to target/firmware/; prints the UF2 to copy onto the board's RPI-RP2 drive
# and the QEMU ELF. `cargo run --release` in crates/firmware/nano-rp2040 also flashes it.
firmware: setup
    cd crates/firmware && cargo build -q --release
    mkdir -p target/firmware
    cargo run -q --release -p twenty48-uf2 -- crates/firmware/target/thumbv6m-none-eabi/release/twenty48-nano-rp2040 target/firmware/twenty48-nano-rp2040.uf2
    @echo "UF2 (Nano RP2040 Connect): $(pwd)/target/firmware/twenty48-nano-rp2040.uf2"
    @echo "ELF (QEMU lm3s6965evb):    $(pwd)/crates/firmware/target/thumbv6m-none-eabi/release/twenty48-qemu"
    just setup-avr
    cd crates/firmware-avr && cargo mega && cargo mega1280
    avr-objcopy -O ihex -R .eeprom crates/firmware-avr/target/avr-atmega2560/release/twenty48-mega2560.elf target/firmware/twenty48-mega2560.hex
    avr-objcopy -O ihex -R .eeprom crates/firmware-avr/target/avr-atmega1280/release/twenty48-mega1280.elf target/firmware/twenty48-mega1280.hex
    @echo "HEX (Arduino Mega 2560):   $(pwd)/target/firmware/twenty48-mega2560.hex (see docs/firmware.md: not yet correct)"
    @echo "HEX (Arduino Mega 1280):   $(pwd)/target/firmware/twenty48-mega1280.hex"

# Criterion benchmarks of the engine (raw slides, fast against reference; 1000-move replays),
# then the same workloads as figures against the targets (best and median of many runs),
# then `verify` (in-process and the release binary) against play_all on a corpus of greedy
# games the benchmark records (T48_CORPUS_GAMES, default 2000), then the expectimax search
# (positions evaluated per second at depths 2-4).
bench:
    cargo bench -p twenty48-engine --bench engine
    cargo bench -p twenty48-engine --bench figures
    cargo build -q --release -p twenty48-cli
    cargo bench -p twenty48-verify --bench corpus
    cargo bench -p twenty48-bot --bench search

# The expectimax bot's evaluation (issue 14): classic games on seeds 1-20 at `depth`, two at a
# time under nice; prints each game, the share of games reaching each tile, the median score
# and moves/s. Takes long (a 16384 game is 10,000+ moves): tens of minutes on a laptop. The
# games are kept in target/bot-eval/ (the files `record --bot expectimax` writes).
bot-eval depth="4" first="1" last="20" threads="2":
    mkdir -p target/bot-eval
    cargo build -q --release -p twenty48-bot --example bot_eval
    nice -n 10 target/release/examples/bot_eval {{depth}} {{first}} {{last}} {{threads}} target/bot-eval

# Fuzz every decoder of outside input (fuzz/: move logs, journals, device captures, the
# best-score file, move files, device requests) with cargo-fuzz on nightly, each target for
# `seconds`; seeds from fuzz/seeds and fixtures/, what it finds kept in fuzz/corpus and
# fuzz/artifacts. `just test` replays them all on stable (fuzz/tests/corpus.rs).
fuzz seconds="120":
    command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz
    cargo +nightly fuzz build -O
    for t in movelog_decode journal_recover device_capture best_scores move_file request_parse; do \
        mkdir -p fuzz/corpus/$t; \
        extra=""; \
        case $t in \
            movelog_decode) extra="fixtures/games fixtures/broken";; \
            device_capture) extra="crates/devicelog/tests/data/v1";; \
        esac; \
        echo "== $t ({{seconds}} s)"; \
        if [ -d fuzz/seeds/$t ]; then extra="fuzz/seeds/$t $extra"; fi; \
        cargo +nightly fuzz run -O $t fuzz/corpus/$t $extra -- \
            -max_total_time={{seconds}} -max_len=65536 -print_final_stats=1 2>&1 \
            | grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ *DONE)|SUMMARY|panicked" || true; \
        test ! -d fuzz/artifacts/$t || test -z "$(ls -A fuzz/artifacts/$t)" || { echo "$t found a crash: fuzz/artifacts/$t"; exit 1; }; \
    done

# Review and accept changed snapshots (installs cargo-insta if missing).
review:
    command -v cargo-insta >/dev/null || cargo install cargo-insta --locked
    cargo insta review --workspace

# Regenerate the fixture corpus (see fixtures/README.md).
fixtures:
    bash fixtures/make.sh
