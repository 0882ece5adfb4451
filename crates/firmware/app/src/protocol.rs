//! The log protocol, version 3: the defmt frames that carry every game and every answer to
//! the host (docs/firmware.md).
//!
//! Every frame is at `info` level, a fixed format string the host recognises by its literal
//! text, every field a plain integer or bool with no display hint, and the last field `crc=`:
//! the check value `twenty48_deviceproto::check` computes from the other fields (the host
//! recomputes it with the same function). [`Log`] sends them (each built as bytes by
//! [`crate::frame`]) and notices when the RAM ring dropped one, which it reports with a lost
//! frame as soon as there is room again.

use twenty48_deviceproto::{StartFields, PROTOCOL_VERSION};
use twenty48_devicestore::{Ending, GameStart};
use twenty48_engine::{Direction, Game};

#[cfg(not(feature = "direct-log"))]
use crate::frame::Out;
use crate::frame::{self, index, values, Values};

/// The version of this protocol, sent in hello and game-start frames.
pub const LOG_FORMAT_VERSION: u8 = PROTOCOL_VERSION;

values!(
    /// `t48 hello`.
    HelloValues {
        v: u8,
        dev: u64,
        next: u32,
        stored: u32,
        unpulled: u32
    }
);
values!(
    /// `t48 move`.
    MoveValues {
        game: u32,
        seq: u32,
        dir: u8,
        score: u64,
        hash: u64
    }
);
values!(
    /// `t48 moves`, but its directions (the slice's length, then the bytes after these).
    MovesValues {
        game: u32,
        first: u32,
        count: u16,
        len: u32
    }
);
values!(
    /// `t48 end`.
    EndValues {
        game: u32,
        result: u8,
        score: u64,
        moves: u32,
        hash: u64,
        start: u32
    }
);
values!(
    /// `t48 partial` (version 3).
    PartialValues {
        game: u32,
        moves: u32,
        start: u32
    }
);
values!(
    /// `t48 lost`, `t48 full`, `t48 acked`, `t48 error`: a game number and up to two more.
    GameValues {
        game: u32,
        at: u32,
        frames: u32
    }
);
values!(
    /// `t48 pull begin`, `t48 pull done`.
    PullValues {
        dev: u64,
        games: u32
    }
);
values!(
    /// `t48 error`.
    ErrorValues {
        code: u8,
        game: u32
    }
);

// SAFETY: `StartFields` is `#[repr(C, packed)]`, its fields integers and a bool (one byte,
// 0 or 1, as the frame sends it), in the frame's order.
unsafe impl Values for StartFields {}

/// The check of a start frame: the game's start digest, which its end or partial frame
/// carries.
pub(crate) fn start_check(s: &StartFields) -> u32 {
    frame::check(b'S', s.bytes(), &[])
}

/// Frames dropped from the ring, not yet reported.
#[cfg(not(feature = "direct-log"))]
#[derive(Clone, Copy, Debug)]
struct Lost {
    /// The game of the first dropped frame (0: none).
    game: u32,
    /// Its move (0: a start or non-move frame).
    at_move: u32,
    /// The ring's drop count before the first of them.
    base: u32,
}

/// How a game closes, as an end frame (`ending` set) or a partial frame (pull replies only:
/// a stored game that was interrupted, or whose END record kept no score and hash).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Close {
    /// The game number.
    pub game: u32,
    /// Moves in the game.
    pub moves: u32,
    /// The check of the game's start frame.
    pub start: u32,
    /// `Some`: an end frame, with the result (1 won, 2 over, 0 abandoned) and the device's
    /// final score and state hash; `None`: a partial frame.
    pub ending: Option<Ending>,
}

impl Close {
    /// The frame's `crc=` (what the host names in `{ack N C}`).
    pub fn check(&self) -> u32 {
        self.with_values(|_, tag, values| frame::check(tag, values, &[]))
    }

    /// Calls `f` with the frame's format index, tag and values.
    fn with_values<R>(&self, f: impl FnOnce(u16, u8, &[u8]) -> R) -> R {
        match self.ending {
            Some(e) => {
                let v = EndValues {
                    game: self.game,
                    result: e.result,
                    score: e.claims.score,
                    moves: self.moves,
                    hash: e.claims.hash,
                    start: self.start,
                };
                let index = index!("t48-end", "t48 end game={=u32} result={=u8} score={=u64} moves={=u32} hash={=u64} start={=u32} crc={=u32}");
                f(index, b'E', v.bytes())
            }
            None => {
                let v = PartialValues {
                    game: self.game,
                    moves: self.moves,
                    start: self.start,
                };
                let index = index!(
                    "t48-partial",
                    "t48 partial game={=u32} moves={=u32} start={=u32} crc={=u32}"
                );
                f(index, b'Q', v.bytes())
            }
        }
    }
}

/// The sender of protocol frames: knows the device id and the frames the ring dropped.
#[derive(Debug)]
pub struct Log {
    dev: u64,
    #[cfg(not(feature = "direct-log"))]
    lost: Option<Lost>,
}

impl Log {
    /// A log for device `dev`.
    pub const fn new(dev: u64) -> Log {
        Log {
            dev,
            #[cfg(not(feature = "direct-log"))]
            lost: None,
        }
    }

    /// The device id.
    pub fn dev(&self) -> u64 {
        self.dev
    }

    /// Whether dropped frames wait to be reported.
    pub fn has_lost(&self) -> bool {
        #[cfg(not(feature = "direct-log"))]
        return self.lost.is_some();
        #[cfg(feature = "direct-log")]
        return false;
    }

    /// The values of the start frame of game `number` of this device, begun as `start`
    /// (never inlined: live play and the pull reply share it; its arguments fit AVR's
    /// argument registers).
    #[inline(never)]
    pub(crate) fn start_values(&self, number: u32, start: &GameStart) -> StartFields {
        StartFields::new(self.dev, number, &start.rules, start.seed)
    }

    /// Sends a frame of game `game` at move `at_move` (0 for none): the format string
    /// `index`, `tag`, `values` then `tail`; returns its check. Reports earlier drops first
    /// if there is room, and notes when the ring drops this one.
    ///
    /// Inlined where the ring is (the Megas): more than the 18 bytes of argument registers,
    /// which the ATmega2560 would read one byte off the stack (docs/firmware.md); the work
    /// is [`Log::send`]'s, its parts by reference.
    #[cfg_attr(not(feature = "direct-log"), inline(always))]
    fn frame(
        &mut self,
        game: u32,
        at_move: u32,
        (index, tag): (u16, u8),
        values: &[u8],
        tail: &[u8],
    ) -> u32 {
        #[cfg(feature = "direct-log")]
        {
            let _ = (game, at_move);
            frame::send(index, tag, values, tail)
        }
        #[cfg(not(feature = "direct-log"))]
        self.send(game, at_move, &Out::new((index, tag), values, tail))
    }

    /// [`Log::frame`]'s work with the ring: reports earlier drops, sends `out`, and notes
    /// when the ring drops it.
    #[cfg(not(feature = "direct-log"))]
    #[inline(never)]
    fn send(&mut self, game: u32, at_move: u32, out: &Out) -> u32 {
        self.report_lost();
        let before = crate::log_ring::dropped_frames();
        let crc = frame::send(out.index, out.tag, out.values, out.tail);
        if crate::log_ring::dropped_frames() != before && self.lost.is_none() {
            self.lost = Some(Lost {
                game,
                at_move,
                base: before,
            });
        }
        crc
    }

    /// Sends `t48 lost` for frames the ring dropped, if any and if it fits now (with the
    /// `direct-log` feature no frame is ever dropped).
    pub fn report_lost(&mut self) {
        #[cfg(not(feature = "direct-log"))]
        {
            /// Room a lost frame needs in the ring (it encodes to about 22 bytes).
            const LOST_ROOM: usize = 32;
            let Some(lost) = self.lost else { return };
            if crate::log_ring::free_bytes() < LOST_ROOM {
                return;
            }
            let v = GameValues {
                game: lost.game,
                at: lost.at_move,
                frames: crate::log_ring::dropped_frames().wrapping_sub(lost.base),
            };
            let index = index!(
                "t48-lost",
                "t48 lost game={=u32} move={=u32} frames={=u32} crc={=u32}"
            );
            frame::send(index, b'L', v.bytes(), &[]);
            self.lost = None;
        }
    }

    /// `t48 hello`: `next` the next new game's number, `stored` games in the store,
    /// `unpulled` those not acknowledged.
    pub fn hello(&mut self, next: u32, stored: u32, unpulled: u32) {
        let v = HelloValues {
            v: LOG_FORMAT_VERSION,
            dev: self.dev,
            next,
            stored,
            unpulled,
        };
        let index = index!(
            "t48-hello",
            "t48 hello v={=u8} dev={=u64} next={=u32} stored={=u32} unpulled={=u32} crc={=u32}"
        );
        self.frame(0, 0, (index, b'H'), v.bytes(), &[]);
    }

    /// `t48 start`: the game's number, seed and full rules. Returns the frame's check (the
    /// game's start digest, carried by its end or partial frame).
    pub(crate) fn start(&mut self, s: &StartFields) -> u32 {
        let index = index!("t48-start", "t48 start v={=u8} dev={=u64} game={=u32} seed={=u64} size={=u8} four={=u32}/{=u32} opening={=u8} twos={=u8} win={=u8} ends={=bool} scoring={=u8} crc={=u32}");
        let game = s.game;
        self.frame(game, 0, (index, b'S'), s.bytes(), &[])
    }

    /// `t48 move`: the last move of game `game` (its `seq`: 1, 2, ...), towards `dir`, and
    /// the score and state hash of `after`, the game after that move and its spawn.
    ///
    /// Few and small arguments on purpose: on the ATmega2560 this LLVM reads arguments
    /// passed on the stack one byte off (docs/firmware.md), so no function the AVR firmware
    /// calls takes more than the 18 bytes of argument registers.
    pub fn moved(&mut self, game: u32, dir: Direction, after: &Game) {
        let v = MoveValues {
            game,
            seq: after.move_count(),
            dir: dir.code(),
            score: after.score(),
            hash: after.state_hash(),
        };
        let index = index!(
            "t48-move",
            "t48 move game={=u32} seq={=u32} dir={=u8} score={=u64} hash={=u64} crc={=u32}"
        );
        self.frame(game, v.seq, (index, b'M'), v.bytes(), &[]);
    }

    /// `t48 moves`: `count` moves of stored game `game` after its first `first`, 2 bits each
    /// in `dirs` (move `first + 1 + i` in byte `i / 4` at bit `(i % 4) * 2`).
    pub fn moves(&mut self, game: u32, first: u32, count: u16, dirs: &[u8]) {
        let v = MovesValues {
            game,
            first,
            count,
            len: dirs.len() as u32,
        };
        let index = index!(
            "t48-moves",
            "t48 moves game={=u32} first={=u32} count={=u16} dirs={=[u8]} crc={=u32}"
        );
        self.frame(game, first + 1, (index, b'V'), v.bytes(), dirs);
    }

    /// `t48 end` or `t48 partial`.
    pub fn close(&mut self, c: &Close) {
        c.with_values(|index, tag, values| self.frame(c.game, 0, (index, tag), values, &[]));
    }

    /// `t48 full`: game `game` is not stored from move `at_move` on (0: not at all).
    pub fn full(&mut self, game: u32, at_move: u32) {
        let index = index!("t48-full", "t48 full game={=u32} move={=u32} crc={=u32}");
        self.game_frame((index, b'F'), game, at_move, 8);
    }

    /// `t48 pull begin`: a pull reply of `games` games follows.
    pub fn pull_begin(&mut self, games: u32) {
        let index = index!(
            "t48-pull-begin",
            "t48 pull begin dev={=u64} games={=u32} crc={=u32}"
        );
        self.pull_frame((index, b'B'), games);
    }

    /// `t48 pull done`: `sent` games were sent.
    pub fn pull_done(&mut self, sent: u32) {
        let index = index!(
            "t48-pull-done",
            "t48 pull done dev={=u64} sent={=u32} crc={=u32}"
        );
        self.pull_frame((index, b'D'), sent);
    }

    /// `t48 acked`: game `game` is marked pulled.
    pub fn acked(&mut self, game: u32) {
        let index = index!("t48-acked", "t48 acked game={=u32} crc={=u32}");
        self.game_frame((index, b'A'), game, 0, 4);
    }

    /// `t48 error`: a bad request (`code`, see `twenty48_deviceproto::ErrorCode`) naming
    /// game `game` (0: none).
    pub fn error(&mut self, code: u8, game: u32) {
        let v = ErrorValues { code, game };
        let index = index!("t48-error", "t48 error code={=u8} game={=u32} crc={=u32}");
        self.frame(game, 0, (index, b'X'), v.bytes(), &[]);
    }

    /// A frame of a game number and a `u32` after it: the first `len` bytes of the two.
    #[inline(never)]
    fn game_frame(&mut self, kind: (u16, u8), game: u32, at: u32, len: usize) {
        let v = GameValues {
            game,
            at,
            frames: 0,
        };
        self.frame(game, 0, kind, &v.bytes()[..len], &[]);
    }

    /// A pull begin or done frame: the device id and a count.
    #[inline(never)]
    fn pull_frame(&mut self, kind: (u16, u8), games: u32) {
        let v = PullValues {
            dev: self.dev,
            games,
        };
        self.frame(0, 0, kind, v.bytes(), &[]);
    }
}
