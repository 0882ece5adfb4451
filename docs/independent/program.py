"""Check what the twenty48 program prints against the independent implementation (t48.py)
and docs/json.md, written from the docs alone: every fixture game's `replay --json` (JSON
Lines: the head, every state, the verdict), `replay --json --final` and the win line of
`replay --final`, and `inspect --json`; the broken fixtures' verdicts; a version-2 file
without hints. Run from the repository root with the program's path:

    python3 docs/independent/program.py target/debug/twenty48

Prints one line per check and ends with "N passed, M failed"; exit status 0 only if M == 0.
"""
import json
import os
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import t48  # noqa: E402
from tally import check, finish, guarded  # noqa: E402

PROGRAM = sys.argv[1]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([PROGRAM, *args], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "NO_COLOR": "1"})


def tile(e: int) -> int:
    """json.md: tiles are values (2048), never exponents; 0 is an empty cell."""
    return 1 << e if e else 0


def rules_json(r: t48.Rules) -> dict:
    """json.md "Common parts": rules."""
    return {
        "preset": next((name for name, p in t48.PRESETS.items() if p == r), None),
        "size": r.size,
        "four_chance": [r.four_p, r.four_q],
        "opening": [("normal", "two")[k] for k in r.opening],
        "win": None if r.win is None else {
            "tile": 1 << r.win if r.win < 64 else None,
            "exponent": r.win,
            "ends_game": r.win_ends,
        },
        "scoring": ("values", "merges")[r.scoring],
    }


def state_json(g: t48.Game, direction, spawns, reached: bool) -> dict:
    """json.md "Common parts": state, plus replay's reached_win."""
    n = g.rules.size
    return {
        "move": g.moves,
        "direction": None if direction is None else t48.DIR_NAMES[direction],
        "gained": g.last[0],
        "merges": g.last[1],
        "spawns": [{"row": s.cell // n + 1, "col": s.cell % n + 1, "value": tile(s.exp)}
                   for s in spawns],
        "score": g.score,
        "hash": f"{g.state_hash():016x}",
        "status": t48.STATUS_NAMES[g.status],
        "max_tile": tile(g.max_exp()),
        "board": [[tile(e) for e in g.cells[r * n:(r + 1) * n]] for r in range(n)],
        "reached_win": reached,
    }


def states(log: t48.Log):
    """Every state of the replay (json.md: move 0 is the opening), as far as it plays."""
    g = t48.Game(log.rules, log.seed)
    yield state_json(g, None, g.spawns, g.win_reached)
    for d in log.moves:
        if g.status != t48.PLAYING:
            return
        before = g.win_reached
        if not g.move(d):
            return
        yield state_json(g, d, g.spawns[-1:], g.win_reached and not before)


def jsonl(text: str) -> list:
    """json.md: replay --json is JSON Lines, one object a line."""
    return [json.loads(line) for line in text.splitlines()]


def replay_game(path: str, log: t48.Log, ok: bool) -> None:
    name = os.path.basename(path)
    out = run("replay", "--json", path)
    lines = jsonl(out.stdout)
    head = {"schema_version": 2, "file": path, "rules": rules_json(log.rules), "seed": log.seed,
            "complete": log.complete, "moves": len(log.moves)}
    check(f"replay --json {name}: the head line", lines[0] == head, f"{lines[0]}")
    want = list(states(log))
    got = lines[1:-1]
    diff = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), None)
    check(f"replay --json {name}: {len(want)} states, each as json.md says",
          diff is None and (len(got) == len(want) if ok else len(got) <= len(want)),
          f"{len(got)} states; first difference at line {diff}: {got[diff] if diff is not None else ''}"
          f" against {want[diff] if diff is not None else ''}")
    verdict = lines[-1]
    check(f"replay --json {name}: the verdict line says {'ok' if ok else 'not ok'}",
          list(verdict) == ["verdict"] and verdict["verdict"]["ok"] == ok
          and (verdict["verdict"]["problem"] is None) == ok, f"{verdict}")
    check(f"replay --json {name}: exit status {0 if ok else 1}", out.returncode == (0 if ok else 1))
    if not ok:
        return
    reached = any(s["reached_win"] for s in want)
    final = jsonl(run("replay", "--json", "--final", path).stdout)
    check(f"replay --json --final {name}: the head, the last state (reached_win: reached at all), "
          "the verdict", final == [head, {**want[-1], "reached_win": reached}, verdict], f"{final[1]}")
    text = run("replay", "--final", path).stdout
    line = f"the win is reached: a {tile(log.rules.win or 0)} tile\n"
    check(f"replay --final {name}: says the win is reached (a {tile(log.rules.win or 0)} tile) "
          f"exactly when it was", (line in text) == reached, text)


def inspect_file(path: str, data: bytes, log: t48.Log) -> None:
    """json.md: inspect --json, the claims as the file states them."""
    want = {
        "schema_version": 1, "file": path, "bytes": len(data), "format_version": log.version,
        "rules": rules_json(log.rules), "seed": log.seed, "rng": "chacha8",
        "moves": len(log.moves), "moves_bytes": (len(log.moves) + 3) // 4,
        "checkpoint_interval": log.interval, "checkpoints": len(log.checkpoints),
        "complete": log.complete, "hints": log.hinted,
        "claims": {"moves": len(log.moves), "score": log.score, "max_tile": tile(log.max_exp),
                   "hash": f"{log.final_hash:016x}", "status": t48.STATUS_NAMES[log.status]},
    }
    got = json.loads(run("inspect", "--json", path).stdout)
    check(f"inspect --json {os.path.basename(path)}: every field as the file states it",
          got == want, f"{got} against {want}")


for name in sorted(os.listdir("fixtures/games")):
    path = f"fixtures/games/{name}"

    def game(path=path):
        data = open(path, "rb").read()
        log = t48.decode(data)
        replay_game(path, log, True)
        inspect_file(path, data, log)
    guarded(f"game {name}", game)

for name in ("illegal-move.t48", "false-claim.t48", "wrong-checkpoint.t48"):
    path = f"fixtures/broken/{name}"
    guarded(f"broken {name}", lambda path=path: replay_game(path, t48.decode(open(path, "rb").read()), False))


def version_2_without_hints():
    """format.md Version 2: a reader reports the version the file states."""
    data = bytearray(open("fixtures/games/classic-moves.t48", "rb").read())
    data[4] = 2
    data[-4:] = zlib.crc32(bytes(data[:-4])).to_bytes(4, "little")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "v2.t48")
        open(path, "wb").write(data)
        inspect_file(path, bytes(data), t48.decode(bytes(data)))


guarded("version 2 without hints", version_2_without_hints)


def win_at_the_opening():
    """rules.md 6, Start: a win tile placed by the opening (w = 2) is reached at move 0."""
    with tempfile.TemporaryDirectory() as tmp:
        for how in ("--win-ends", "--win-plays-on"):
            path = os.path.join(tmp, f"{how.strip('-')}.t48")
            made = run("record", "--four-chance", "1/1", "--win", "4", how, "--seed", "1",
                       "--moves", "LURD", "-o", path)
            check(f"record {how}: a game whose opening makes the winning 4", made.returncode == 0,
                  made.stderr)
            data = open(path, "rb").read()
            replay_game(path, t48.decode(data), True)


guarded("a win at the opening", win_at_the_opening)
finish()
