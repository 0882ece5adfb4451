"""Independent twenty48 engine and .t48 reader/writer, written from docs/rules.md and
docs/format.md alone (no Rust source was read). Python 3.11, standard library only.

Section references: "R n" is docs/rules.md section n, "F <name>" is a section of
docs/format.md.
"""
from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass, field

# ---------------------------------------------------------------------------
# R2 Directions
UP, RIGHT, DOWN, LEFT = 0, 1, 2, 3
DIR_NAMES = ("up", "right", "down", "left")
LETTERS = "URDL"  # fixtures/expected.csv letter for each code

# R4 / F Layout: scoring codes, opening kinds, status codes
SCORE_VALUES, SCORE_MERGES = 0, 1
NORMAL, TWO = 0, 1
PLAYING, WON, OVER = 0, 1, 2
STATUS_NAMES = ("playing", "won", "over")


# ---------------------------------------------------------------------------
# R4 Rules
@dataclass(frozen=True)
class Rules:
    size: int = 4
    four_p: int = 1
    four_q: int = 10
    opening: tuple = (NORMAL, NORMAL)
    win: int | None = 11          # winning exponent, None = no win
    win_ends: bool = False
    scoring: int = SCORE_VALUES

    def check(self) -> None:
        """The constraints of R1/R4 (and F 'Reading' step 6, 'rule set playable')."""
        n = self.size
        if not 2 <= n <= 8:
            raise ValueError("size must be 2..8")
        if not (self.four_q >= 1 and 0 <= self.four_p <= self.four_q):
            raise ValueError("four chance p/q needs q >= 1 and p <= q")
        if not 1 <= len(self.opening) <= min(8, n * n):
            raise ValueError("opening must have 1..8 spawns, at most N*N")
        if self.win is not None and not 2 <= self.win <= n * n + 1:
            raise ValueError("win exponent must be 2..N*N+1")


PRESETS = {
    "classic": Rules(4, 1, 10, (NORMAL, NORMAL), 11, False, SCORE_VALUES),
    "arduino": Rules(4, 3, 10, (NORMAL, TWO), 11, True, SCORE_VALUES),
    "console": Rules(4, 1, 10, (TWO, NORMAL), None, False, SCORE_VALUES),
}


def parse_rules(text: str) -> Rules:
    """fixtures/README.md grammar: a preset name or
    size=N;four=P/Q;opening=KIND+KIND;win=TILE-ends|TILE-plays-on|none;scoring=values|merges
    (TILE is a tile value such as 2048, not an exponent)."""
    if text in PRESETS:
        return PRESETS[text]
    f = dict(part.split("=", 1) for part in text.split(";"))
    p, q = (int(x) for x in f["four"].split("/"))
    opening = tuple({"normal": NORMAL, "two": TWO}[k] for k in f["opening"].split("+"))
    if f["win"] == "none":
        win, ends = None, False
    else:
        tile, how = f["win"].split("-", 1)
        win, ends = int(tile).bit_length() - 1, {"ends": True, "plays-on": False}[how]
        assert 1 << win == int(tile)
    scoring = {"values": SCORE_VALUES, "merges": SCORE_MERGES}[f["scoring"]]
    return Rules(int(f["size"]), p, q, opening, win, ends, scoring)


# ---------------------------------------------------------------------------
# R5.1 The generator: ChaCha8, 64-bit counter in words 12-13, stream 0 in 14-15
M32 = 0xFFFFFFFF


def _rotl(x: int, n: int) -> int:
    return ((x << n) | (x >> (32 - n))) & M32


def _quarter(s: list, a: int, b: int, c: int, d: int) -> None:
    s[a] = (s[a] + s[b]) & M32; s[d] = _rotl(s[d] ^ s[a], 16)
    s[c] = (s[c] + s[d]) & M32; s[b] = _rotl(s[b] ^ s[c], 12)
    s[a] = (s[a] + s[b]) & M32; s[d] = _rotl(s[d] ^ s[a], 8)
    s[c] = (s[c] + s[d]) & M32; s[b] = _rotl(s[b] ^ s[c], 7)


class ChaCha8:
    def __init__(self, seed: int):
        key = seed.to_bytes(8, "little") + bytes(24)          # seed LE, then 24 zero bytes
        self.state = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574,
                      *struct.unpack("<8I", key), 0, 0, 0, 0]
        self.buf: list = []
        self.pos = 0

    def _block(self) -> list:
        x = list(self.state)
        for _ in range(4):                                    # 4 double rounds = 8 rounds
            _quarter(x, 0, 4, 8, 12); _quarter(x, 1, 5, 9, 13)
            _quarter(x, 2, 6, 10, 14); _quarter(x, 3, 7, 11, 15)
            _quarter(x, 0, 5, 10, 15); _quarter(x, 1, 6, 11, 12)
            _quarter(x, 2, 7, 8, 13); _quarter(x, 3, 4, 9, 14)
        out = [(a + b) & M32 for a, b in zip(x, self.state)]
        ctr = (self.state[12] | self.state[13] << 32) + 1     # 64-bit block counter
        self.state[12], self.state[13] = ctr & M32, (ctr >> 32) & M32
        return out

    def next_u32(self) -> int:
        """One 'draw': the next raw 32-bit output."""
        if self.pos == len(self.buf):
            self.buf, self.pos = self._block(), 0
        self.pos += 1
        return self.buf[self.pos - 1]


# ---------------------------------------------------------------------------
# R3 A slide
_LINES: dict = {}


def lines(n: int, d: int) -> list:
    """Cell indices of each line, read from the wall that d points at (R1 row-major cells)."""
    if (n, d) not in _LINES:
        fwd, back = list(range(n)), list(range(n - 1, -1, -1))
        _LINES[n, d] = [
            [r * n + k for r in fwd] if d == UP else      # column k, row 0 first
            [k * n + c for c in back] if d == RIGHT else  # row k, column N-1 first
            [r * n + k for r in back] if d == DOWN else   # column k, row N-1 first
            [k * n + c for c in fwd]                      # row k, column 0 first
            for k in range(n)
        ]
    return _LINES[n, d]


def slide(cells: list, n: int, d: int):
    """Returns (new cells, list of exponents made by merges, moved?)."""
    new = list(cells)
    made = []
    for line in lines(n, d):
        out, merged = [], []
        for e in (cells[i] for i in line if cells[i]):
            if out and out[-1] == e and not merged[-1]:
                out[-1] = e + 1; merged[-1] = True; made.append(e + 1)
            else:
                out.append(e); merged.append(False)
        out += [0] * (n - len(out))
        for i, e in zip(line, out):
            new[i] = e
    return new, made, new != cells


# ---------------------------------------------------------------------------
# R5.2 One spawn, R6 Playing a game, R7 State hash
class IllegalMove(Exception):
    pass


@dataclass
class Spawn:
    cell: int
    exp: int


class Game:
    def __init__(self, rules: Rules, seed: int):
        rules.check()
        self.rules, self.seed = rules, seed
        n = rules.size
        self.cells = [0] * (n * n)
        self.score = 0
        self.moves = 0
        self.rng = ChaCha8(seed)
        self.win_reached = False     # R6 step 3 (set at most once)
        self.spawns: list = []       # every spawn so far (for the worked example)
        self.last = (0, 0)           # the last move's (gained, merges); none at the opening
        for kind in rules.opening:   # R6 Start
            self._spawn(kind)
        # R6 Start: a win tile placed by the opening (only when w = 2) is reached at move 0
        self.win_reached = rules.win is not None and self.max_exp() >= rules.win
        self._status_check()

    def _spawn(self, kind: int) -> None:
        """R5.2: exactly two draws, cell first, then value."""
        empty = [i for i, e in enumerate(self.cells) if e == 0]
        r1 = self.rng.next_u32()
        cell = empty[(r1 * len(empty)) >> 32]
        r2 = self.rng.next_u32()
        four = kind == NORMAL and (r2 * self.rules.four_q) >> 32 < self.rules.four_p
        self.cells[cell] = 2 if four else 1
        self.spawns.append(Spawn(cell, self.cells[cell]))

    def max_exp(self) -> int:
        return max(self.cells)

    def can_move(self) -> bool:
        n, c = self.rules.size, self.cells
        if 0 in c:
            return True
        return any(c[i] == c[i + 1] for r in range(n) for i in range(r * n, r * n + n - 1)) or \
            any(c[i] == c[i + n] for i in range(n * n - n))

    def _status_check(self) -> None:
        w = self.rules.win
        if w is not None and self.rules.win_ends and self.max_exp() >= w:
            self.status = WON
        elif not self.can_move():
            self.status = OVER
        else:
            self.status = PLAYING

    def move(self, d: int) -> bool:
        """R6 'A move'. Returns False for a no-op press (nothing changes)."""
        if self.status != PLAYING:
            raise IllegalMove("the game has ended")
        new, made, moved = slide(self.cells, self.rules.size, d)
        if not moved:
            return False
        self.cells = new
        gained = len(made) if self.rules.scoring == SCORE_MERGES else sum(1 << e for e in made)
        self.last = (gained, len(made))   # docs/json.md "state": gained, merges
        self.score += gained
        self.moves += 1
        self._spawn(NORMAL)
        w = self.rules.win
        if w is not None and not self.win_reached and self.max_exp() >= w:
            self.win_reached = True
        self._status_check()
        return True

    def hash_bytes(self) -> bytes:
        """R7: N, cells, score u64 LE, move count u32 LE."""
        return bytes([self.rules.size, *self.cells]) + struct.pack("<QI", self.score, self.moves)

    def state_hash(self) -> int:
        return fnv1a64(self.hash_bytes())


def fnv1a64(data: bytes) -> int:
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def replay(rules: Rules, seed: int, moves) -> Game:
    """Play a list of direction codes; no-op presses are skipped (as by the recorder)."""
    g = Game(rules, seed)
    for d in moves:
        g.move(d)
    return g


# ---------------------------------------------------------------------------
# F Layout: the .t48 move log
MAGIC = b"T48\x1a"
RNG_NAME = b"chacha8"


@dataclass
class Log:
    rules: Rules
    seed: int
    interval: int                 # K
    moves: list                   # direction codes
    score: int                    # claims (F Layout, H+8 .. H+25)
    max_exp: int
    final_hash: int
    status: int
    complete: bool
    checkpoints: list = field(default_factory=list)   # low 32 bits, C = N // K
    hinted: bool = False          # F Version 2: bit 1 of the flags byte
    version: int = 1              # F Layout byte 4: the version the file states (1 or 2)


class LogError(Exception):
    """kind is one of: magic, version, truncated, crc, trailing, field (F Reading 1-6),
    illegal-move, game-ended, checkpoint, false-claim (verifier)."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


def pack_moves(moves: list) -> bytes:
    """F Moves: move i in byte i//4, bits 2*(i%4) and 2*(i%4)+1."""
    out = bytearray((len(moves) + 3) // 4)
    for i, d in enumerate(moves):
        out[i // 4] |= d << (2 * (i % 4))
    return bytes(out)


def encode(log: Log) -> bytes:
    """Write every byte of F Layout from a Log (claims taken as given)."""
    r = log.rules
    b = bytearray(MAGIC)
    version = 2 if log.hinted else 1   # F Version 2: the oldest version that holds the log
    b += struct.pack("<HBIIB", version, r.size, r.four_p, r.four_q, len(r.opening))
    b += bytes(r.opening)
    win_present = r.win is not None
    b += struct.pack("<BBBBQ", int(win_present), r.win or 0, int(win_present and r.win_ends),
                     r.scoring, log.seed)
    b += bytes([len(RNG_NAME)]) + RNG_NAME
    b += struct.pack("<IIQBQBB", log.interval, len(log.moves), log.score, log.max_exp,
                     log.final_hash, log.status, int(log.complete) | int(log.hinted) << 1)
    b += pack_moves(log.moves)
    b += b"".join(struct.pack("<I", c) for c in log.checkpoints)
    b += struct.pack("<I", zlib.crc32(b))                    # F CRC
    return bytes(b)


def record(rules: Rules, seed: int, moves: list, interval: int = 256, complete: bool = True,
           hinted: bool = False) -> bytes:
    """The writer: replay (rules, seed, moves), fill in checkpoints and claims, encode."""
    g = Game(rules, seed)
    cps = []
    for i, d in enumerate(moves, 1):
        if not g.move(d):
            raise IllegalMove(f"move {i} ({DIR_NAMES[d]}) does not change the board")
        if interval and i % interval == 0:
            cps.append(g.state_hash() & M32)
    return encode(Log(rules, seed, interval, list(moves), g.score, g.max_exp(), g.state_hash(),
                      g.status, complete, cps, hinted))


def decode(data: bytes) -> Log:
    """F 'Reading: checks and errors', in the order given there."""
    # 1. Magic (a short prefix of the magic is a truncated file)
    if data[:4] != MAGIC[:len(data[:4])]:
        raise LogError("magic", "not a twenty48 move log")
    if len(data) < 6:   # the doc only covers < 4 bytes; the reference names both fields
        raise LogError("truncated", f"the file is truncated: the magic and format version at byte 0: 6 bytes needed, only {len(data)} left")
    # 2. Version
    (version,) = struct.unpack_from("<H", data, 4)
    if version not in (1, 2):
        if version == 0:
            raise LogError("version", "format version 0 does not exist; the version is at byte 4")
        raise LogError("version", f"format version {version} is newer than this build understands (2); the version is at byte 4")

    # 3. Structure: each field must fit before it is read
    pos = 6

    def take(n: int, what: str) -> bytes:
        nonlocal pos
        if len(data) - pos < n:
            raise LogError("truncated", f"the file is truncated: the {what} at byte {pos}: {n} {'byte' if n == 1 else 'bytes'} needed, only {len(data) - pos} left")
        pos += n
        return data[pos - n:pos]

    size, p, q, L = struct.unpack("<BIIB", take(10, "rule header"))
    opening = take(L, "opening spawn kinds")
    win_present, win_exp, win_ends, scoring, seed, R = struct.unpack("<BBBBQB", take(13, "rules and seed"))
    name = take(R, "RNG name")
    hdr_off = pos
    K, N, score, max_exp, fhash, status, complete = struct.unpack("<IIQBQBB", take(27, "claims"))
    C = N // K if K else 0
    moves_off = pos
    # (take() compares each length with the bytes left before slicing, so a huge N in a
    # short file is reported as truncated without allocating anything)
    packed = take((N + 3) // 4, "packed moves")
    cps = list(struct.unpack(f"<{C}I", take(4 * C, "checkpoints")))
    crc_off = pos
    (stored,) = struct.unpack("<I", take(4, "CRC-32"))
    # 4. CRC
    computed = zlib.crc32(data[:crc_off])
    if stored != computed:
        raise LogError("crc", f"CRC-32 mismatch: the file stores 0x{stored:08x} at byte {crc_off} but bytes 0 to {crc_off - 1} give 0x{computed:08x}")
    # 5. Trailing bytes
    if pos != len(data):
        raise LogError("trailing", f"{len(data) - pos} trailing bytes after the CRC at byte {pos}")
    # 6. Field values, in the order the doc lists them (the rule-set check comes after
    #    scoring, so this is not strictly file order; the reference does the same)
    def bad(off: int, msg: str):
        raise LogError("field", f"{msg} at byte {off}")
    if not 1 <= L <= 8:
        bad(15, f"opening length {L} is not 1 to 8")
    for i, k in enumerate(opening):
        if k > 1:
            bad(16 + i, f"opening spawn kind {k} is not 0 or 1")
    o = 16 + L
    if win_present > 1:
        bad(o, "win present is not a flag")
    if win_present == 0 and (win_exp or win_ends):
        bad(o + 1, "win exponent and win ends game must be 0 without a win")
    if win_ends > 1:
        bad(o + 2, "win ends game is not a flag")
    if scoring > 1:
        bad(o + 3, f"scoring {scoring} is not 0 or 1")
    rules = Rules(size, p, q, tuple(opening), win_exp if win_present else None, bool(win_ends), scoring)
    try:
        rules.check()
    except ValueError as e:
        bad(6, f"the rule set is not playable: {e}")
    if name != RNG_NAME:
        bad(o + 13, f"unknown RNG {name!r}")
    if status > 2:
        bad(hdr_off + 25, f"status {status} is not 0-2")
    hinted = False
    if version == 1 and complete > 1:
        bad(hdr_off + 26, "complete is not a flag")
    if version == 2:   # F Version 2: bit 0 complete, bit 1 hints shown, bits 2-7 zero
        if complete > 3:
            bad(hdr_off + 26, f"flags byte {complete} sets bits other than 0 and 1")
        complete, hinted = complete & 1, bool(complete & 2)
    if N % 4 and packed[-1] >> (2 * (N % 4)):
        slot = N + 1 + next(j for j in range(4 - N % 4) if (packed[-1] >> (2 * (N % 4 + j))) & 3)
        bad(moves_off + len(packed) - 1, f"move slot {slot} is past the end but not 0")
    moves = [(packed[i // 4] >> (2 * (i % 4))) & 3 for i in range(N)]
    return Log(rules, seed, K, moves, score, max_exp, fhash, status, bool(complete), cps, hinted,
               version)


def verify(log: Log) -> Game:
    """F Layout: replay, check each checkpoint as it passes move i*K, compare the claims."""
    g = Game(log.rules, log.seed)
    for i, d in enumerate(log.moves, 1):
        if g.status != PLAYING:
            raise LogError("game-ended", f"move {i} comes after the game ended ({STATUS_NAMES[g.status]})")
        if not g.move(d):
            raise LogError("illegal-move", f"move {i} ({DIR_NAMES[d]}) does not change the board, so the log is invalid at move {i}")
        if log.interval and i % log.interval == 0:
            want, got = log.checkpoints[i // log.interval - 1], g.state_hash() & M32
            if want != got:
                raise LogError("checkpoint", f"the checkpoint after move {i} is {want:08x}, but the replay gives {got:08x}")
    for what, claimed, actual in (("score", log.score, g.score),
                                  ("max exponent", log.max_exp, g.max_exp()),
                                  ("final hash", log.final_hash, g.state_hash()),
                                  ("status", log.status, g.status)):
        if claimed != actual:
            fmt = (lambda v: f"{v:016x}") if what == "final hash" else str
            raise LogError("false-claim", f"the log claims {what} {fmt(claimed)}, but the replay gives {fmt(actual)}")
    return g
