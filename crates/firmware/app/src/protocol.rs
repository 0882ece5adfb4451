//! The log protocol, version 3: the defmt frames that carry every game and every answer to
//! the host (docs/firmware.md).
//!
//! Every frame is at `info` level, a fixed format string the host recognises by its literal
//! text, every field a plain integer or bool with no display hint, and the last field `crc=`:
//! the check value `twenty48_deviceproto::check` computes from the other fields (the host
//! recomputes it with the same function). [`Log`] sends them and notices when the RAM ring
//! dropped one, which it reports with a lost frame as soon as there is room again.

use twenty48_deviceproto::{check, StartFields, PROTOCOL_VERSION};
use twenty48_devicestore::Ending;
use twenty48_engine::{Direction, Game};

use crate::log_ring::{dropped_frames, free_bytes};

/// The version of this protocol, sent in hello and game-start frames.
pub const LOG_FORMAT_VERSION: u8 = PROTOCOL_VERSION;

/// Room a lost frame needs in the ring (it encodes to about 22 bytes).
const LOST_ROOM: usize = 32;

/// Frames dropped from the ring, not yet reported.
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
        match self.ending {
            Some(e) => check::end(
                self.game,
                e.result,
                e.claims.score,
                self.moves,
                e.claims.hash,
                self.start,
            ),
            None => check::interrupted(self.game, self.moves, self.start),
        }
    }
}

/// The sender of protocol frames: knows the device id and the frames the ring dropped.
#[derive(Debug)]
pub struct Log {
    dev: u64,
    lost: Option<Lost>,
}

impl Log {
    /// A log for device `dev`.
    pub const fn new(dev: u64) -> Log {
        Log { dev, lost: None }
    }

    /// The device id.
    pub fn dev(&self) -> u64 {
        self.dev
    }

    /// Whether dropped frames wait to be reported.
    pub fn has_lost(&self) -> bool {
        self.lost.is_some()
    }

    /// Sends one frame of game `game` at move `at_move` (0 for none), after reporting earlier
    /// drops if there is room; notes when the ring drops this one.
    fn frame(&mut self, game: u32, at_move: u32, emit: impl FnOnce()) {
        self.report_lost();
        let before = dropped_frames();
        emit();
        if dropped_frames() != before && self.lost.is_none() {
            self.lost = Some(Lost {
                game,
                at_move,
                base: before,
            });
        }
    }

    /// Sends `t48 lost` for frames the ring dropped, if any and if it fits now.
    pub fn report_lost(&mut self) {
        let Some(lost) = self.lost else { return };
        if free_bytes() < LOST_ROOM {
            return;
        }
        let frames = dropped_frames().wrapping_sub(lost.base);
        defmt::info!(
            "t48 lost game={=u32} move={=u32} frames={=u32} crc={=u32}",
            lost.game,
            lost.at_move,
            frames,
            check::lost(lost.game, lost.at_move, frames)
        );
        self.lost = None;
    }

    /// `t48 hello`: `next` the next new game's number, `stored` games in the store,
    /// `unpulled` those not acknowledged.
    pub fn hello(&mut self, next: u32, stored: u32, unpulled: u32) {
        let (v, dev) = (LOG_FORMAT_VERSION, self.dev);
        self.frame(0, 0, || {
            defmt::info!(
                "t48 hello v={=u8} dev={=u64} next={=u32} stored={=u32} unpulled={=u32} crc={=u32}",
                v,
                dev,
                next,
                stored,
                unpulled,
                check::hello(v, dev, next, stored, unpulled)
            )
        });
    }

    /// `t48 start`: the game's number, seed and full rules. Returns the frame's check (the
    /// game's start digest, carried by its end or partial frame).
    pub fn start(&mut self, s: &StartFields) -> u32 {
        let crc = check::start(s);
        self.frame(s.game, 0, || {
            defmt::info!(
                "t48 start v={=u8} dev={=u64} game={=u32} seed={=u64} size={=u8} four={=u32}/{=u32} opening={=u8} twos={=u8} win={=u8} ends={=bool} scoring={=u8} crc={=u32}",
                s.version,
                s.dev,
                s.game,
                s.seed,
                s.size,
                s.four_numerator,
                s.four_denominator,
                s.opening,
                s.twos,
                s.win,
                s.ends,
                s.scoring,
                crc
            )
        });
        crc
    }

    /// `t48 move`: the last move of game `game` (its `seq`: 1, 2, ...), towards `dir`, and
    /// the score and state hash of `after`, the game after that move and its spawn.
    ///
    /// Few and small arguments on purpose: on the ATmega2560 this LLVM reads arguments
    /// passed on the stack one byte off (docs/firmware.md), so no function the AVR firmware
    /// calls takes more than the 18 bytes of argument registers.
    pub fn moved(&mut self, game: u32, dir: Direction, after: &Game) {
        let (seq, score, hash) = (after.move_count(), after.score(), after.state_hash());
        let d = dir.code();
        self.frame(game, seq, || {
            defmt::info!(
                "t48 move game={=u32} seq={=u32} dir={=u8} score={=u64} hash={=u64} crc={=u32}",
                game,
                seq,
                d,
                score,
                hash,
                check::moved(game, seq, d, score, hash)
            )
        });
    }

    /// `t48 moves`: `count` moves of stored game `game` after its first `first`, 2 bits each
    /// in `dirs` (move `first + 1 + i` in byte `i / 4` at bit `(i % 4) * 2`).
    pub fn moves(&mut self, game: u32, first: u32, count: u16, dirs: &[u8]) {
        self.frame(game, first + 1, || {
            defmt::info!(
                "t48 moves game={=u32} first={=u32} count={=u16} dirs={=[u8]} crc={=u32}",
                game,
                first,
                count,
                dirs,
                check::moves(game, first, count, dirs)
            )
        });
    }

    /// `t48 end` or `t48 partial`.
    pub fn close(&mut self, c: &Close) {
        let crc = c.check();
        self.frame(c.game, 0, || match c.ending {
            Some(e) => defmt::info!(
                "t48 end game={=u32} result={=u8} score={=u64} moves={=u32} hash={=u64} start={=u32} crc={=u32}",
                c.game,
                e.result,
                e.claims.score,
                c.moves,
                e.claims.hash,
                c.start,
                crc
            ),
            None => defmt::info!(
                "t48 partial game={=u32} moves={=u32} start={=u32} crc={=u32}",
                c.game,
                c.moves,
                c.start,
                crc
            ),
        });
    }

    /// `t48 full`: game `game` is not stored from move `at_move` on (0: not at all).
    pub fn full(&mut self, game: u32, at_move: u32) {
        self.frame(game, 0, || {
            defmt::info!(
                "t48 full game={=u32} move={=u32} crc={=u32}",
                game,
                at_move,
                check::full(game, at_move)
            )
        });
    }

    /// `t48 pull begin`: a pull reply of `games` games follows.
    pub fn pull_begin(&mut self, games: u32) {
        let dev = self.dev;
        self.frame(0, 0, || {
            defmt::info!(
                "t48 pull begin dev={=u64} games={=u32} crc={=u32}",
                dev,
                games,
                check::pull_begin(dev, games)
            )
        });
    }

    /// `t48 pull done`: `sent` games were sent.
    pub fn pull_done(&mut self, sent: u32) {
        let dev = self.dev;
        self.frame(0, 0, || {
            defmt::info!(
                "t48 pull done dev={=u64} sent={=u32} crc={=u32}",
                dev,
                sent,
                check::pull_done(dev, sent)
            )
        });
    }

    /// `t48 acked`: game `game` is marked pulled.
    pub fn acked(&mut self, game: u32) {
        self.frame(game, 0, || {
            defmt::info!("t48 acked game={=u32} crc={=u32}", game, check::acked(game))
        });
    }

    /// `t48 error`: a bad request (`code`, see `twenty48_deviceproto::ErrorCode`) naming
    /// game `game` (0: none).
    pub fn error(&mut self, code: u8, game: u32) {
        self.frame(game, 0, || {
            defmt::info!(
                "t48 error code={=u8} game={=u32} crc={=u32}",
                code,
                game,
                check::error(code, game)
            )
        });
    }
}
