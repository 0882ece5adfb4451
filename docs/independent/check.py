"""Check the independent implementation (t48.py) against the fixtures and the worked examples
of docs/rules.md and docs/format.md. Run from the repository root:

    python3 docs/independent/check.py

Prints one line per check and ends with "N passed, M failed"; exit status 0 only if M == 0.
"""
import csv
import os
import re
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import t48  # noqa: E402
from tally import check, finish, guarded  # noqa: E402


def letters(moves) -> str:
    return "".join(t48.LETTERS[d] for d in moves)


# --- docs/rules.md 5.1: pinned first raw outputs -----------------------------------------
PINNED = {
    0: [804192318, 3594542985, 3904396159, 2711947551, 3272508460, 998218446],
    1: [2699648719, 1638484553, 3990160702, 1266703218, 1705309202, 3428475886],
    42: [428845191, 1495741553, 379451179, 1227066020, 1694273782, 2119448095],
    18446744073709551615: [577849543, 3025045049, 2693900732, 999971585, 19066888, 2794726118],
}
for seed, want in PINNED.items():
    rng = t48.ChaCha8(seed)
    got = [rng.next_u32() for _ in want]
    check(f"rules 5.1 ChaCha8 seed {seed} first six outputs", got == want, f"{got}")

# --- docs/format.md CRC: check value --------------------------------------------------------
check("format CRC check value of '123456789' is 0xcbf43926", zlib.crc32(b"123456789") == 0xCBF43926)

# --- docs/rules.md section 3: slide examples ------------------------------------------------
def line_example(row, d):
    cells = row + [0] * 12                     # row 0 of a 4x4 board
    return t48.slide(cells, 4, d)[0][:4]


for row, d, want in (([1, 1, 1, 1], t48.LEFT, [2, 2, 0, 0]), ([2, 0, 1, 1], t48.LEFT, [2, 2, 0, 0]),
                     ([1, 1, 1, 0], t48.LEFT, [2, 1, 0, 0]), ([1, 1, 1, 0], t48.RIGHT, [0, 0, 1, 2])):
    got = line_example(row, d)
    check(f"rules 3 slide {row} {t48.DIR_NAMES[d]} -> {want}", got == want, f"{got}")


# --- docs/rules.md section 8: worked example ------------------------------------------------
def rules_example():
    g = t48.Game(t48.PRESETS["classic"], 1)
    check("rules 8 opening spawns: 2 on cell 10, 2 on cell 14",
          [(s.cell, s.exp) for s in g.spawns] == [(10, 1), (14, 1)], f"{g.spawns}")
    boards = {
        t48.LEFT: ([0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0], 0, 0xA1CAECA6495D7269, 5),
        t48.UP: ([2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0], 4, 0xB127A453D65C4BA9, 14),
        t48.RIGHT: ([0, 0, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1], 4, 0x096AD3232B231083, 14),
    }
    for d in (t48.LEFT, t48.UP, t48.RIGHT):
        cells, score, h, spawn_cell = boards[d]
        g.move(d)
        check(f"rules 8 after {t48.DIR_NAMES[d]}: spawn on cell {spawn_cell}, board, score {score}, hash {h:016x}",
              (g.spawns[-1].cell, g.spawns[-1].exp, g.cells, g.score, g.state_hash())
              == (spawn_cell, 1, cells, score, h),
              f"spawn {g.spawns[-1]}, cells {g.cells}, score {g.score}, hash {g.state_hash():016x}")
        if d == t48.LEFT:
            want = bytes.fromhex("04 00000000000100000100000001000000 0000000000000000 01000000")
            check("rules 8 hash bytes after move 1", g.hash_bytes() == want, g.hash_bytes().hex())


guarded("rules 8 worked example", rules_example)


# --- docs/format.md: the annotated hex dump -------------------------------------------------
def format_example():
    text = open("docs/format.md", encoding="utf-8").read()
    dump = text.split("<!-- example-hex-start -->")[1].split("<!-- example-hex-end -->")[0]
    want = bytearray()
    for line in dump.splitlines():
        m = re.match(r"^([0-9a-f]{4}): ([0-9a-f ]+?)\s*\|", line)
        if m:
            check(f"format example: offset 0x{m.group(1)} is where the dump says",
                  int(m.group(1), 16) == len(want), f"at {len(want):#x}")
            want += bytes.fromhex(m.group(2))
    moves = [t48.LEFT, t48.UP, t48.RIGHT, t48.DOWN, t48.LEFT, t48.UP]
    got = t48.record(t48.PRESETS["classic"], 1, moves, interval=4, complete=True)
    check("format example: writer output equals the hex dump (75 bytes)",
          got == bytes(want) and len(got) == 75, f"got {got.hex()} want {bytes(want).hex()}")
    log = t48.decode(bytes(want))
    g = t48.verify(log)
    check("format example: reader/verifier accepts it; score 12, max tile 4, checkpoint d3725a17, "
          "final hash 2bf32b11602036b5, CRC 8ef5221f",
          (g.score, g.max_exp(), log.checkpoints, g.state_hash(), zlib.crc32(bytes(want[:-4])))
          == (12, 2, [0xD3725A17], 0x2BF32B11602036B5, 0x8EF5221F))
    check("format example: length formula 60 + L + R + ceil(N/4) + 4C", len(want) == 60 + 2 + 7 + 2 + 4)


guarded("format example", format_example)


# --- docs/format.md "Version 2": a reader reads both, and reports what the file states ------
def version_2_without_hints():
    one = t48.record(t48.PRESETS["classic"], 42, [t48.LEFT, t48.UP, t48.RIGHT, t48.DOWN])
    check("format Version 2: a log without hints is written as version 1", one[4] == 1, f"{one[4]}")
    two = bytearray(one)
    two[4] = 2
    two[-4:] = zlib.crc32(bytes(two[:-4])).to_bytes(4, "little")
    log = t48.decode(bytes(two))
    check("format Version 2: a version-2 file without hints reads as version 2, complete, no hints",
          (log.version, log.complete, log.hinted) == (2, True, False),
          f"{(log.version, log.complete, log.hinted)}")
    check("format Version 2: it verifies, and a writer writes it back as version 1",
          t48.verify(log) is not None and t48.encode(log) == one)


guarded("format version 2 without hints", version_2_without_hints)

# --- fixtures/expected.csv: replay from the row alone ---------------------------------------
with open("fixtures/expected.csv", newline="") as f:
    rows = list(csv.DictReader(f))
for row in rows:
    def replay_row(row=row):
        rules = t48.parse_rules(row["rules"])
        moves = ["URDL".index(c) for c in row["moves"]]
        g = t48.Game(rules, int(row["seed"]))
        for i, d in enumerate(moves, 1):
            if not g.move(d):
                raise t48.IllegalMove(f"move {i} does not change the board")
        check(f"csv {row['file']}: replay gives hash {row['final_hash']}, score {row['score']}",
              (f"{g.state_hash():016x}", g.score) == (row["final_hash"], int(row["score"])),
              f"got {g.state_hash():016x}, {g.score}")
    guarded(f"csv {row['file']}", replay_row)

# --- fixtures/games/*.t48: read, compare with the CSV, verify, re-encode --------------------
by_file = {r["file"]: r for r in rows}
games = sorted(os.listdir("fixtures/games"))
check("every game file has a CSV row and vice versa",
      set(games) == set(by_file), f"{set(games) ^ set(by_file)}")
for name in games:
    def game(name=name):
        data = open(f"fixtures/games/{name}", "rb").read()
        log = t48.decode(data)
        row = by_file[name]
        check(f"game {name}: rules, seed and moves equal the CSV row",
              (log.rules, log.seed, letters(log.moves)) ==
              (t48.parse_rules(row["rules"]), int(row["seed"]), row["moves"]),
              f"{log.rules} seed {log.seed}")
        g = t48.verify(log)   # raises on a bad checkpoint or claim
        check(f"game {name}: {len(log.moves)} moves, {len(log.checkpoints)} checkpoints and claims "
              f"(score {log.score}, {t48.STATUS_NAMES[log.status]}) verify", True)
        again = t48.record(log.rules, log.seed, log.moves, log.interval, log.complete, log.hinted)
        check(f"game {name}: writer reproduces the {len(data)} bytes exactly", again == data,
              f"first difference at byte {next((i for i, (a, b) in enumerate(zip(again, data)) if a != b), min(len(again), len(data)))}")
    guarded(f"game {name}", game)

# --- fixtures/broken/*.t48: must be rejected with the right kind ----------------------------
KINDS = [("CRC-32 mismatch", "crc"), ("truncated", "truncated"), ("format version", "version"),
         ("not a twenty48 move log", "magic"), ("does not change the board", "illegal-move"),
         ("claims", "false-claim"), ("checkpoint", "checkpoint")]
with open("fixtures/broken/expected-errors.csv", newline="") as f:
    broken = list(csv.DictReader(f))
for row in broken:
    # Two phrases contain an unquoted comma, so csv splits them into extra columns
    # (DictReader puts those under the key None): join them back.
    row["phrase"] = ",".join([row["phrase"], *row.pop(None, [])])
check("every broken file is listed in expected-errors.csv",
      sorted(r["file"] for r in broken) == sorted(x for x in os.listdir("fixtures/broken") if x.endswith(".t48")))
for row in broken:
    def broken_file(row=row):
        want = next(k for phrase, k in KINDS if phrase in row["phrase"])
        data = open(f"fixtures/broken/{row['file']}", "rb").read()
        try:
            t48.verify(t48.decode(data))
            check(f"broken {row['file']}: rejected ({want})", False, "accepted")
        except t48.LogError as e:
            check(f"broken {row['file']}: rejected as {want}", e.kind == want, f"got {e.kind}: {e}")
            check(f"broken {row['file']}: message contains '{row['phrase']}'", row["phrase"] in str(e), str(e))
    guarded(f"broken {row['file']}", broken_file)

finish()
