//! Frames to games: which game each start, move and end frame belongs to, and when a game
//! is closed. Always runs on the host.
//!
//! A game is closed by its end (or partial) frame, by another start of the same game, or as
//! soon as the stream shows it cannot go on: a device plays one live game at a time, and a
//! pull reply sends its stored games one after another, so a new start on a device closes
//! the game of the same kind (live, or stored in a reply) still open there. At most
//! [`MAX_OPEN_GAMES`] games are open at once (a stream naming many devices): past that the
//! oldest is closed. A game closed without its end frame is truncated, and reported so.

use std::collections::BTreeMap;

use twenty48_engine::{Direction, Rules};

use crate::event::{Damage, DamageKind, Event, StrayFrame};
use crate::game::{DeviceMove, GameEnd};
use crate::record::sealed::Start;
use crate::record::GameRecord;
use crate::reply::Replies;

/// The most games open at once, over all devices (each device has at most two: its live
/// game and the stored game a pull reply is sending).
pub const MAX_OPEN_GAMES: usize = 16;

/// Where a frame was: byte offset and length.
#[derive(Clone, Copy, Debug)]
pub(crate) struct At {
    pub(crate) offset: usize,
    pub(crate) len: usize,
}

/// A protocol v2 or v3 game still open.
#[derive(Debug)]
struct Open<G> {
    game: G,
    /// Started inside a pull reply (a stored game), not live.
    stored: bool,
}

/// The games being assembled.
#[derive(Debug)]
pub(crate) struct Assembly<G> {
    /// Protocol v1: the open game.
    open: Option<G>,
    /// Protocol v1: games started so far.
    pub(crate) games: u32,
    /// Protocol v2: the open games by (device, number).
    open2: BTreeMap<(u64, u32), Open<G>>,
    /// Protocol v2: the device last announced (hello, start or pull frames).
    dev: Option<u64>,
    /// The game the last frame named, for damage reports.
    last_game: Option<u32>,
    /// The devices' pull replies: which is under way, what arrived.
    replies: Replies,
}

impl<G: GameRecord> Assembly<G> {
    pub(crate) fn new() -> Assembly<G> {
        Assembly {
            open: None,
            games: 0,
            open2: BTreeMap::new(),
            dev: None,
            last_game: None,
            replies: Replies::default(),
        }
    }

    /// The device last announced.
    pub(crate) fn dev(&self) -> Option<u64> {
        self.dev
    }

    /// The game a damaged frame most likely fell in: the open v1 game, or the last named.
    pub(crate) fn current(&self) -> Option<u32> {
        self.open.as_ref().map(|g| g.number()).or(self.last_game)
    }

    /// The v1 game in progress, or the v2 game started last of those open.
    pub(crate) fn open_game(&self) -> Option<&G> {
        self.open.as_ref().or_else(|| {
            self.open2
                .values()
                .map(|o| &o.game)
                .max_by_key(|g| g.offset())
        })
    }

    /// How many games are open.
    pub(crate) fn open_count(&self) -> usize {
        self.open2.len() + usize::from(self.open.is_some())
    }

    /// An orphan: a frame of game `game` with no game open to take it.
    fn orphan(game: Option<u32>, at: At) -> Event<G> {
        Event::Damaged(Damage {
            offset: at.offset,
            len: at.len,
            game,
            kind: DamageKind::Orphan,
        })
    }

    /// Protocol v1: a start frame at `offset`; it closes the game open.
    pub(crate) fn start1(
        &mut self,
        rules: Rules,
        seed: u64,
        offset: usize,
        out: &mut Vec<Event<G>>,
    ) {
        if let Some(game) = self.open.take() {
            out.push(Event::GameClosed(Box::new(closed(game, None))));
        }
        self.games += 1;
        self.open = Some(G::start(Start {
            number: self.games,
            dev: None,
            start_check: None,
            rules,
            seed,
            offset,
            stored: false,
        }));
        out.push(Event::GameStarted {
            dev: None,
            number: self.games,
            rules,
            seed,
        });
    }

    /// Protocol v1: a move frame.
    pub(crate) fn move1(&mut self, mv: DeviceMove, at: At, out: &mut Vec<Event<G>>) {
        match self.open.as_mut() {
            Some(game) => {
                game.push(&mv);
                out.push(Event::Moved {
                    game: game.number(),
                    mv,
                });
            }
            None => out.push(Self::orphan(self.last_game, at)),
        }
    }

    /// Protocol v1: an end frame.
    pub(crate) fn end1(&mut self, end: GameEnd, at: At, out: &mut Vec<Event<G>>) {
        match self.open.take() {
            Some(game) => out.push(Event::GameClosed(Box::new(closed(game, Some(end))))),
            None => out.push(Self::orphan(self.last_game, at)),
        }
    }

    /// A hello of `dev`: the device (re)started or was asked; a reply of its is over.
    pub(crate) fn hello(&mut self, dev: u64, out: &mut Vec<Event<G>>) {
        self.dev = Some(dev);
        let mut replies = Vec::new();
        self.replies.hello(dev, &mut replies);
        out.extend(replies.into_iter().map(Event::Reply));
    }

    /// A pull reply of `dev` begins, announcing `games`.
    pub(crate) fn reply_begins(&mut self, dev: u64, games: u32, out: &mut Vec<Event<G>>) {
        self.dev = Some(dev);
        let mut replies = Vec::new();
        self.replies.begin(dev, games, &mut replies);
        out.extend(replies.into_iter().map(Event::Reply));
    }

    /// A pull reply of `dev` is done, the device having sent `sent` games.
    pub(crate) fn reply_done(&mut self, dev: u64, sent: u32, out: &mut Vec<Event<G>>) {
        self.dev = Some(dev);
        let mut replies = Vec::new();
        self.replies.done(dev, sent, &mut replies);
        out.extend(replies.into_iter().map(Event::Reply));
    }

    /// Protocol v2: the start frame of game `number` of `dev`.
    pub(crate) fn start2(&mut self, start: Start, out: &mut Vec<Event<G>>) {
        let dev = start.dev.unwrap_or(0);
        let number = start.number;
        self.dev = Some(dev);
        self.last_game = Some(number);
        let stored = self.replies.of(dev);
        // The same game again (a live game cut short, now from the store), and the game of
        // the same kind still open on the device: neither can go on.
        let ended: Vec<(u64, u32)> = self
            .open2
            .iter()
            .filter(|(&(d, n), o)| d == dev && (n == number || o.stored == stored))
            .map(|(&k, _)| k)
            .collect();
        self.close_all(ended, out);
        while self.open2.len() >= MAX_OPEN_GAMES {
            let Some(oldest) = self
                .open2
                .iter()
                .min_by_key(|(_, o)| o.game.offset())
                .map(|(&k, _)| k)
            else {
                break;
            };
            self.close_all(vec![oldest], out);
        }
        self.open2.insert(
            (dev, number),
            Open {
                game: G::start(Start { stored, ..start }),
                stored,
            },
        );
        out.push(Event::GameStarted {
            dev: Some(dev),
            number,
            rules: start.rules,
            seed: start.seed,
        });
    }

    /// Closes the open games `keys` (truncated), oldest first.
    fn close_all(&mut self, keys: Vec<(u64, u32)>, out: &mut Vec<Event<G>>) {
        let mut games: Vec<G> = keys
            .iter()
            .filter_map(|k| self.open2.remove(k))
            .map(|o| o.game)
            .collect();
        games.sort_by_key(|g| g.offset());
        out.extend(
            games
                .into_iter()
                .map(|g| Event::GameClosed(Box::new(closed(g, None)))),
        );
    }

    /// Protocol v2 and v3: the open game `game` of the device last announced, for a frame
    /// `at` of it (an orphan when none is open, and what it held as a stray frame).
    fn open_of(
        &mut self,
        game: u32,
        at: At,
        stray: impl FnOnce() -> StrayFrame,
        out: &mut Vec<Event<G>>,
    ) -> Option<&mut G> {
        self.last_game = Some(game);
        let key = (self.dev.unwrap_or(0), game);
        if !self.open2.contains_key(&key) {
            self.stray(game, at, stray(), out);
        }
        self.open2.get_mut(&key).map(|o| &mut o.game)
    }

    /// A frame of game `game` with none open: an orphan, and (with a device known) what it
    /// held.
    fn stray(&self, game: u32, at: At, frame: StrayFrame, out: &mut Vec<Event<G>>) {
        if let Some(dev) = self.dev {
            out.push(Event::Stray { dev, game, frame });
        }
        out.push(Self::orphan(Some(game), at));
    }

    /// Protocol v2 and v3: a move frame of game `game`.
    pub(crate) fn moved2(&mut self, game: u32, mv: DeviceMove, at: At, out: &mut Vec<Event<G>>) {
        if let Some(open) = self.open_of(game, at, || StrayFrame::Move(mv), out) {
            open.push(&mv);
            out.push(Event::Moved { game, mv });
        }
    }

    /// Protocol v3: a `t48 moves` frame of game `game`: its moves after the first `first`.
    pub(crate) fn stored_moves(
        &mut self,
        game: u32,
        first: u32,
        dirs: &[Direction],
        at: At,
        out: &mut Vec<Event<G>>,
    ) {
        let stray = || StrayFrame::Moves {
            first,
            dirs: dirs.to_vec(),
        };
        if let Some(open) = self.open_of(game, at, stray, out) {
            // Numbered with saturation: past move 4,294,967,295 the numbers repeat, out of
            // sequence, so the game's check finds a gap (a `RangeFrom` would overflow).
            for (i, &dir) in dirs.iter().enumerate() {
                open.push(&DeviceMove {
                    seq: first.saturating_add(1).saturating_add(i as u32),
                    dir,
                    score: None,
                    hash: None,
                });
            }
            out.push(Event::StoredMoves {
                game,
                first,
                count: dirs.len() as u32,
            });
        }
    }

    /// Protocol v2: the end or partial frame of game `game`.
    pub(crate) fn end2(&mut self, game: u32, end: GameEnd, at: At, out: &mut Vec<Event<G>>) {
        self.last_game = Some(game);
        let key = (self.dev.unwrap_or(0), game);
        match self.open2.remove(&key) {
            Some(open) => {
                self.replies.closed(key.0);
                out.push(Event::GameClosed(Box::new(closed(open.game, Some(end)))))
            }
            None => self.stray(game, at, StrayFrame::End(end), out),
        }
    }

    /// The capture ended: every open game is closed (truncated), in the order they started.
    pub(crate) fn finish(&mut self, out: &mut Vec<Event<G>>) {
        if let Some(game) = self.open.take() {
            out.push(Event::GameClosed(Box::new(closed(game, None))));
        }
        let keys = self.open2.keys().copied().collect();
        self.close_all(keys, out);
        let mut replies = Vec::new();
        self.replies.finish(&mut replies);
        out.extend(replies.into_iter().map(Event::Reply));
    }
}

/// `game`, closed with `end`.
fn closed<G: GameRecord>(mut game: G, end: Option<GameEnd>) -> G {
    game.close(end);
    game
}
