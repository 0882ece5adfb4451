//! The fake board's frames: protocol v2 and v3 frames (and v1's start) encoded as the
//! firmware sends them (defmt, rzCOBS, a 0x00 separator), each with a valid check unless
//! made otherwise, so that tests can send any stream a board with a bug, a damaged cable or
//! a hostile device could. The frames v2 and v3 share have the same texts; `t48 moves`
//! needs the v3 firmware's ELF, `t48 partial` (v2's) the v2 one's, and the v1 start the v1
//! one's.
//!
//! Used by devicelog's tests, the fake board (`board`) the CLI's tests drive
//! `twenty48 pull --port` with, and the fuzz target of the pull conversation (fuzz/). The
//! frames' indices come from the firmware ELF's defmt table, so they are the firmware's own.

use std::collections::BTreeMap;

use defmt_decoder::Table;
use defmt_parser::Fragment;
use twenty48_deviceproto::{check, StartFields};
use twenty48_engine::{Direction, Game, Rules, Status};

/// The format strings of protocol v2, as the host reads their shape (`{}` for each value).
pub const HELLO: &str = "t48 hello v={} dev={} next={} stored={} unpulled={} crc={}";
/// A game's start.
pub const START: &str = "t48 start v={} dev={} game={} seed={} size={} four={}/{} opening={} twos={} win={} ends={} scoring={} crc={}";
/// A move.
pub const MOVE: &str = "t48 move game={} seq={} dir={} score={} hash={} crc={}";
/// A game's end.
pub const END: &str = "t48 end game={} result={} score={} moves={} hash={} start={} crc={}";
/// A stored game that was interrupted (protocol v2).
pub const PARTIAL: &str = "t48 partial game={} moves={} score={} hash={} start={} crc={}";
/// A stored game's moves, 2 bits each (protocol v3).
pub const MOVES: &str = "t48 moves game={} first={} count={} dirs={} crc={}";
/// A game's start in protocol v1 (no identity, no check).
pub const START1: &str =
    "t48 start v={} seed={} size={} four={}/{} opening={} twos={} win={} ends={} scoring={}";
/// Frames the device dropped.
pub const LOST: &str = "t48 lost game={} move={} frames={} crc={}";
/// A pull reply begins.
pub const BEGIN: &str = "t48 pull begin dev={} games={} crc={}";
/// A pull reply ends.
pub const DONE: &str = "t48 pull done dev={} sent={} crc={}";
/// A game acknowledged.
pub const ACKED: &str = "t48 acked game={} crc={}";
/// A request refused.
pub const ERROR: &str = "t48 error code={} game={} crc={}";

/// rzCOBS, encoded (the inverse of devicelog's decoder, which reads from the end): groups
/// of 7 bytes with a bit per zero, runs of 7-133 non-zero bytes ended by a zero, runs of
/// 134 non-zero bytes. Never a 0x00 byte in the result.
pub fn rzcobs(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() + data.len() / 7 + 2);
    let (mut n, mut mask, mut payload) = (0u32, 0u8, Vec::new());
    for &b in data {
        if n < 7 {
            if b == 0 {
                mask |= 1 << n;
            } else {
                payload.push(b);
            }
            n += 1;
            if n == 7 && mask != 0 {
                out.append(&mut payload);
                out.push(mask);
                (n, mask) = (0, 0);
            }
        } else if b == 0 {
            out.append(&mut payload);
            out.push(0x80 | (n - 7) as u8);
            n = 0;
        } else {
            payload.push(b);
            n += 1;
            if n == 134 {
                out.append(&mut payload);
                out.push(0xff);
                n = 0;
            }
        }
    }
    if n > 0 && n < 7 {
        // Zeros as padding at the end (the host accepts up to 6).
        mask |= (0x7f << n) & 0x7f;
        out.append(&mut payload);
        out.push(mask);
    } else if n >= 7 {
        // A run needs its closing zero: one zero of padding.
        out.append(&mut payload);
        out.push(0x80 | (n - 7) as u8);
    }
    out
}

/// The frames of one firmware, by their format strings' indices in its defmt table.
pub struct Frames {
    index: BTreeMap<String, u16>,
    /// The device id frames are sent as.
    pub dev: u64,
}

impl Frames {
    /// The frames of the firmware in `elf`, as device `dev`. A frame the firmware does not
    /// have panics when it is made.
    pub fn new(elf: &[u8], dev: u64) -> Frames {
        let table = Table::parse(elf)
            .expect("a firmware ELF")
            .expect("a defmt table");
        let mut index = BTreeMap::new();
        for i in table.indices() {
            let mut probe = (i as u16).to_le_bytes().to_vec();
            probe.extend_from_slice(&[0; 64]);
            let Ok((frame, _)) = table.decode(&probe) else {
                continue;
            };
            let mut shape = String::new();
            for fragment in frame.fragments() {
                match fragment {
                    Fragment::Literal(text) => shape.push_str(&text),
                    Fragment::Parameter(_) => shape.push_str("{}"),
                }
            }
            index.insert(shape, i as u16);
        }
        assert!(
            index.keys().any(|shape| shape.starts_with("t48 ")),
            "the firmware has no t48 frame"
        );
        Frames { index, dev }
    }

    /// A frame of `shape` with `values` (little-endian, as defmt sends them), encoded and
    /// ended by its separator.
    pub fn raw(&self, shape: &str, values: &[u8]) -> Vec<u8> {
        let index = self
            .index
            .get(shape)
            .unwrap_or_else(|| panic!("the firmware has no frame {shape}"));
        let mut data = index.to_le_bytes().to_vec();
        data.extend_from_slice(values);
        let mut out = rzcobs(&data);
        out.push(0);
        out
    }

    /// `t48 hello`.
    pub fn hello(&self, next: u32, stored: u32, unpulled: u32) -> Vec<u8> {
        let v = twenty48_deviceproto::PROTOCOL_VERSION;
        let crc = check::hello(v, self.dev, next, stored, unpulled);
        let mut b = vec![v];
        b.extend(self.dev.to_le_bytes());
        for x in [next, stored, unpulled, crc] {
            b.extend(x.to_le_bytes());
        }
        self.raw(HELLO, &b)
    }

    /// `t48 start` of game `game`; returns the frame and its check (the start digest).
    pub fn start(&self, game: u32, rules: &Rules, seed: u64) -> (Vec<u8>, u32) {
        let s = StartFields::new(self.dev, game, rules, seed);
        let crc = check::start(&s);
        let mut b = vec![s.version];
        b.extend(s.dev.to_le_bytes());
        b.extend(s.game.to_le_bytes());
        b.extend(s.seed.to_le_bytes());
        b.push(s.size);
        b.extend(s.four_numerator.to_le_bytes());
        b.extend(s.four_denominator.to_le_bytes());
        b.extend([s.opening, s.twos, s.win, s.ends as u8, s.scoring]);
        b.extend(crc.to_le_bytes());
        (self.raw(START, &b), crc)
    }

    /// `t48 move`.
    pub fn moved(&self, game: u32, seq: u32, dir: u8, score: u64, hash: u64) -> Vec<u8> {
        let crc = check::moved(game, seq, dir, score, hash);
        let mut b = game.to_le_bytes().to_vec();
        b.extend(seq.to_le_bytes());
        b.push(dir);
        b.extend(score.to_le_bytes());
        b.extend(hash.to_le_bytes());
        b.extend(crc.to_le_bytes());
        self.raw(MOVE, &b)
    }

    /// `t48 end`; returns the frame and its check (what `{ack N C}` names).
    pub fn end(
        &self,
        game: u32,
        result: u8,
        score: u64,
        moves: u32,
        hash: u64,
        start: u32,
    ) -> (Vec<u8>, u32) {
        let crc = check::end(game, result, score, moves, hash, start);
        let mut b = game.to_le_bytes().to_vec();
        b.push(result);
        b.extend(score.to_le_bytes());
        b.extend(moves.to_le_bytes());
        b.extend(hash.to_le_bytes());
        b.extend(start.to_le_bytes());
        b.extend(crc.to_le_bytes());
        (self.raw(END, &b), crc)
    }

    /// `t48 partial`; returns the frame and its check.
    pub fn partial(
        &self,
        game: u32,
        moves: u32,
        score: u64,
        hash: u64,
        start: u32,
    ) -> (Vec<u8>, u32) {
        let crc = check::partial(game, moves, score, hash, start);
        let mut b = game.to_le_bytes().to_vec();
        b.extend(moves.to_le_bytes());
        b.extend(score.to_le_bytes());
        b.extend(hash.to_le_bytes());
        b.extend(start.to_le_bytes());
        b.extend(crc.to_le_bytes());
        (self.raw(PARTIAL, &b), crc)
    }

    /// `t48 moves` (protocol v3): `count` moves of game `game` after its first `first`,
    /// packed in `dirs` 2 bits each.
    pub fn moves(&self, game: u32, first: u32, count: u16, dirs: &[u8]) -> Vec<u8> {
        let mut b = game.to_le_bytes().to_vec();
        b.extend(first.to_le_bytes());
        b.extend(count.to_le_bytes());
        b.extend((dirs.len() as u32).to_le_bytes());
        b.extend(dirs);
        b.extend(check::moves(game, first, count, dirs).to_le_bytes());
        self.raw(MOVES, &b)
    }

    /// A protocol v1 start frame (no identity, no check).
    pub fn start1(&self, rules: &Rules, seed: u64) -> Vec<u8> {
        let s = StartFields::new(0, 0, rules, seed);
        let mut b = vec![1];
        b.extend(seed.to_le_bytes());
        b.push(s.size);
        b.extend(s.four_numerator.to_le_bytes());
        b.extend(s.four_denominator.to_le_bytes());
        b.extend([s.opening, s.twos, s.win, s.ends as u8, s.scoring]);
        self.raw(START1, &b)
    }

    /// `t48 lost`.
    pub fn lost(&self, game: u32, at_move: u32, frames: u32) -> Vec<u8> {
        let mut b = Vec::new();
        for x in [game, at_move, frames, check::lost(game, at_move, frames)] {
            b.extend(x.to_le_bytes());
        }
        self.raw(LOST, &b)
    }

    /// `t48 pull begin`.
    pub fn begin(&self, games: u32) -> Vec<u8> {
        let mut b = self.dev.to_le_bytes().to_vec();
        b.extend(games.to_le_bytes());
        b.extend(check::pull_begin(self.dev, games).to_le_bytes());
        self.raw(BEGIN, &b)
    }

    /// `t48 pull done`.
    pub fn done(&self, sent: u32) -> Vec<u8> {
        let mut b = self.dev.to_le_bytes().to_vec();
        b.extend(sent.to_le_bytes());
        b.extend(check::pull_done(self.dev, sent).to_le_bytes());
        self.raw(DONE, &b)
    }

    /// `t48 acked`.
    pub fn acked(&self, game: u32) -> Vec<u8> {
        let mut b = game.to_le_bytes().to_vec();
        b.extend(check::acked(game).to_le_bytes());
        self.raw(ACKED, &b)
    }

    /// `t48 error`.
    pub fn error(&self, code: u8, game: u32) -> Vec<u8> {
        let mut b = vec![code];
        b.extend(game.to_le_bytes());
        b.extend(check::error(code, game).to_le_bytes());
        self.raw(ERROR, &b)
    }

    /// Game `number` played with `moves` (those that do not move the board are skipped),
    /// every frame with the host's own scores and hashes: its start, its moves, then an end
    /// frame (`partial` false) or a partial frame. Returns the bytes and the closing frame's
    /// check.
    pub fn game(
        &self,
        number: u32,
        rules: &Rules,
        seed: u64,
        moves: &[Direction],
        partial: bool,
    ) -> (Vec<u8>, u32) {
        let (mut out, start) = self.start(number, rules, seed);
        let mut game = Game::new(*rules, seed).expect("playable rules");
        for &dir in moves {
            if game.status() != Status::Playing {
                break;
            }
            match game.play(dir) {
                Ok(o) if o.moved => {}
                _ => continue,
            }
            out.extend(self.moved(
                number,
                game.move_count(),
                dir.code(),
                game.score(),
                game.state_hash(),
            ));
        }
        let (close, check) = if partial {
            self.partial(
                number,
                game.move_count(),
                game.score(),
                game.state_hash(),
                start,
            )
        } else {
            self.end_of(number, &game, start)
        };
        out.extend(close);
        (out, check)
    }

    /// A whole pull reply after its hello: `count` classic games (seeds `seed + n`,
    /// [`cycle`]`(moves)` each), and the check of each game's closing frame by its number
    /// (what a board answers the acknowledgements with).
    pub fn whole_reply(
        &self,
        count: u32,
        seed: u64,
        moves: usize,
    ) -> (Vec<u8>, BTreeMap<u32, u32>) {
        let mut reply = self.hello(count + 1, count, count);
        reply.extend(self.begin(count));
        let mut checks = BTreeMap::new();
        for game in 1..=count {
            let (bytes, check) = self.game(
                game,
                &Rules::CLASSIC,
                seed + u64::from(game),
                &cycle(moves),
                false,
            );
            reply.extend(bytes);
            checks.insert(game, check);
        }
        reply.extend(self.done(count));
        (reply, checks)
    }
}

impl Frames {
    /// The end frame of game `number`, played as `game`, whose start's check is `start`.
    fn end_of(&self, number: u32, game: &Game, start: u32) -> (Vec<u8>, u32) {
        let result = match game.status() {
            Status::Won => 1,
            Status::Over => 2,
            _ => 0,
        };
        self.end(
            number,
            result,
            game.score(),
            game.move_count(),
            game.state_hash(),
            start,
        )
    }

    /// Game `number` under `rules` from `seed` as a protocol v3 pull reply sends it from the
    /// store: its start, its moves (those that move the board) in `t48 moves` frames of 256,
    /// then its end frame.
    pub fn stored(
        &self,
        number: u32,
        (rules, seed): (&Rules, u64),
        moves: &[Direction],
    ) -> Vec<u8> {
        let (mut out, start) = self.start(number, rules, seed);
        let mut game = Game::new(*rules, seed).expect("playable rules");
        let mut played = Vec::new();
        for &dir in moves {
            if game.status() == Status::Playing && game.play(dir).is_ok_and(|o| o.moved) {
                played.push(dir);
            }
        }
        for (i, chunk) in played.chunks(256).enumerate() {
            let mut dirs = vec![0u8; chunk.len().div_ceil(4)];
            for (j, d) in chunk.iter().enumerate() {
                dirs[j / 4] |= d.code() << (2 * (j % 4));
            }
            out.extend(self.moves(number, 256 * i as u32, chunk.len() as u16, &dirs));
        }
        out.extend(self.end_of(number, &game, start).0);
        out
    }
}

/// `n` moves cycling left, down, right, up: a long game under most seeds.
pub fn cycle(n: usize) -> Vec<Direction> {
    use Direction::*;
    [Left, Down, Right, Up]
        .into_iter()
        .cycle()
        .take(n)
        .collect()
}
