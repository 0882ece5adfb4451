#!/usr/bin/env bash
# `just fresh-ci [BRANCH]`: the set-up proved from nothing. Clones BRANCH (default main) of
# this repository into a temporary folder and runs `bash .ci/run` there as CI does, but with
# empty tool homes: a new RUSTUP_HOME and CARGO_HOME (rustup itself set up in them as
# rustup-init does, with no toolchain), a Python environment of its own (so pip installs
# `just` anew), empty npm and pip caches, and no node_modules or target/ (a fresh clone has
# none). Every toolchain, crate, npm package and PyPI package is then fetched as on a machine
# that has never seen the project; only Debian's packages stay as they are. Prints the time
# of the set-up and of the whole run, and removes the folder (T48_FRESH_KEEP=1 keeps it).
set -euo pipefail
branch=${1:-main}
top=$(git rev-parse --show-toplevel)
rustup_bin=$(command -v rustup) || { echo "error: fresh-ci needs rustup on PATH (it copies it as rustup-init)" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/twenty48-fresh-ci.XXXXXX")
if [ "${T48_FRESH_KEEP:-0}" = 1 ]; then
    echo "fresh-ci: keeping $tmp"
else
    trap 'rm -rf "$tmp"' EXIT
fi
echo "fresh-ci: cloning $branch of $top into $tmp/repo"
git clone -q --no-local --branch "$branch" "$top" "$tmp/repo"
mkdir -p "$tmp/rustup" "$tmp/cargo" "$tmp/npm-cache" "$tmp/pip-cache"
export RUSTUP_HOME="$tmp/rustup" CARGO_HOME="$tmp/cargo"
cp "$(readlink -f "$rustup_bin")" "$tmp/rustup-init"
"$tmp/rustup-init" -y -q --no-modify-path --default-toolchain none >/dev/null
python3 -m venv "$tmp/python"
export PATH="$CARGO_HOME/bin:$tmp/python/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
export npm_config_cache="$tmp/npm-cache" PIP_CACHE_DIR="$tmp/pip-cache"
unset CARGO_TARGET_DIR RUSTUP_TOOLCHAIN VIRTUAL_ENV PYENV_VERSION
command -v just >/dev/null && { echo "error: fresh-ci: 'just' is still on PATH at $(command -v just)" >&2; exit 1; }
cd "$tmp/repo"
start=$(date +%s)
status=0
bash .ci/run 2>&1 | tee "$tmp/ci.log" || status=$?
end=$(date +%s)
setup=$(grep -m1 '^setup: [0-9]* s$' "$tmp/ci.log" | sed 's/^setup: \([0-9]*\) s$/\1/' || true)
echo "fresh-ci: bash .ci/run exited $status after $((end - start)) s (its set-up, downloads and installs: ${setup:-?} s)"
echo "fresh-ci: tool homes used: rustup $(du -sh "$RUSTUP_HOME" | cut -f1), cargo $(du -sh "$CARGO_HOME" | cut -f1), target $(du -sh target 2>/dev/null | cut -f1)"
exit "$status"
