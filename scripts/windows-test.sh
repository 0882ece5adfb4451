#!/usr/bin/env bash
# `just windows-test`: the Windows build of the CLI and the crates it writes files with
# (x86_64-pc-windows-gnu, linked by Debian's mingw-w64), their tests run under Wine (Debian's
# wine64) as on a Windows machine: every CLI test that does not need a POSIX shell, FIFOs,
# /dev/zero, ulimit, pseudo-terminals or an emulator (those say so and are Unix only), and
# crates/cli/tests/windows.rs, the commands on Windows paths, CRLF and UTF-16 move lists,
# files held open by another program, `pull --capture` and a missing COM port; then
# `pull --port COM42` of that build, COM42 mapped by the prefix to the fake board's
# pseudo-terminal (crates/cli/tests/fakeboard.rs, a host test run with the build's path).
#
# The Wine prefix is target/wine (made on first use, about 20 s); Wine 8 lacks
# bcryptprimitives.dll, which Rust's std needs, so a stand-in (scripts/wine/) is built into
# it. Every Wine process is stopped when this script ends, however it ends.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
wine=/usr/lib/wine/wine64
for tool in "$wine" /usr/lib/wine/wineserver x86_64-w64-mingw32-gcc; do
    if ! command -v "$tool" >/dev/null; then
        echo "windows-test: $tool is missing: python3 scripts/setup.py install test" >&2
        exit 2
    fi
done
export WINEPREFIX=$root/target/wine WINEDEBUG=-all
# No Mono or Gecko install prompts while the prefix is made.
export WINEDLLOVERRIDES="mscoree=;mshtml="
trap '/usr/lib/wine/wineserver -k 2>/dev/null || true' EXIT
if [ ! -f "$WINEPREFIX/system.reg" ]; then
    echo "windows-test: making the Wine prefix $WINEPREFIX"
    "$wine" wineboot -i >/dev/null 2>&1 || true
    /usr/lib/wine/wineserver -w
fi
dll=$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll
if [ ! -f "$dll" ] || [ scripts/wine/bcryptprimitives.c -nt "$dll" ]; then
    x86_64-w64-mingw32-gcc -O2 -shared -o "$dll" \
        scripts/wine/bcryptprimitives.c scripts/wine/bcryptprimitives.def -ladvapi32
fi
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER=$wine
# insta finds the snapshots from here (it cannot run `cargo metadata` inside Wine).
export INSTA_WORKSPACE_ROOT=$root INSTA_UPDATE=no
cargo test --target x86_64-pc-windows-gnu \
    --no-fail-fast -p twenty48-cli -p twenty48-verify -p twenty48-movelog -p twenty48-tui --tests "$@"
T48_WINDOWS_EXE=$root/target/x86_64-pc-windows-gnu/debug/twenty48.exe \
    cargo test -p twenty48-cli --test fakeboard the_windows_build_pulls_from_a_com_port_under_wine \
    -- --ignored --exact
