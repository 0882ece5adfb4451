#!/usr/bin/env bash
# Runs two commands at once: FIRST in the background (its output kept, printed when it
# ends), SECOND in the foreground; fails, naming it, if either fails. `just test` runs the
# Nano's emulator and the web page's tests this way: each spends most of its time on one
# core (rp2040js, Chromium's page), so together they take about as long as the longer.
# FIRST runs in a session of its own, stopped whole if this script is stopped.
set -uo pipefail
if [ $# -ne 2 ]; then
    echo "usage: scripts/together.sh FIRST SECOND (two shell commands)" >&2
    exit 2
fi
log=$(mktemp)
setsid bash -c "$1" >"$log" 2>&1 &
first=$!
stop() { kill -- "-$first" 2>/dev/null; rm -f "$log"; }
trap 'stop; exit 130' INT TERM
trap 'stop' EXIT
echo "== $1 (in the background; its output follows the end of: $2)"
bash -c "$2"
second_status=$?
wait "$first"
first_status=$?
echo "== $1"
cat "$log"
status=0
if [ "$first_status" -ne 0 ]; then
    echo "FAILED (exit $first_status): $1" >&2
    status=1
fi
if [ "$second_status" -ne 0 ]; then
    echo "FAILED (exit $second_status): $2" >&2
    status=1
fi
exit "$status"
