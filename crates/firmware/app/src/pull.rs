//! Answers to the host's requests: pull (stored games sent as stored: start, `t48 moves`
//! frames of 2 bits a move, and end or partial frames; the host replays them) and ack.
//!
//! A request only reads the store, except `{ack N C}`, which marks a game pulled after
//! checking `C` against the game as stored: nothing the host sends can change a stored game.
//! The device replays nothing: the end frame's score and hash are the ones its engine
//! computed when the game ended (kept in the END record), so the check of an ack is
//! computed from the store alone.

use twenty48_deviceproto::{ErrorCode, Request, MOVES_PER_FRAME};
use twenty48_devicestore::{Closing, Ending, GameEntry, GameStore, StoreError};
use twenty48_engine::packed;

use crate::board::Board;
use crate::log_ring::{drain, free_bytes, pending_bytes, LOG_CAPACITY};
use crate::protocol::{Close, Log};

/// How many link waits (about a millisecond each) without a byte taken before a pull stops
/// waiting for the host and lets frames drop (reported by a lost frame).
const LINK_PATIENCE: u32 = 2000;

/// What a reply to a request works with.
struct Device<'a, B, S> {
    board: &'a mut B,
    store: &'a mut S,
    log: &'a mut Log,
}

/// Answers one store request (`{hello}` is the game loop's).
#[inline(never)]
pub(crate) fn answer<B: Board, S: GameStore>(
    board: &mut B,
    store: &mut S,
    log: &mut Log,
    request: Request,
) {
    let device = &mut Device { board, store, log };
    match request {
        Request::Pull { all } => pull(device, all),
        Request::Ack { game, check } => ack(device, game, check),
        _ => device.log.error(ErrorCode::Unknown as u8, 0),
    }
}

/// The pace of a pull reply: frames wait for the host to read, unless it stopped reading.
struct Pace {
    /// The link took bytes lately; once it has not for [`LINK_PATIENCE`] waits, the rest of
    /// the reply goes out without waiting (the ring drops what does not fit, and says so).
    alive: bool,
}

impl Pace {
    /// Waits until the ring is at most half full, or the link stops taking bytes.
    fn make_room<B: Board>(&mut self, board: &mut B, log: &mut Log) {
        let mut idle = 0;
        loop {
            let before = pending_bytes();
            drain(board);
            log.report_lost();
            if free_bytes() >= LOG_CAPACITY / 2 || !self.alive {
                return;
            }
            if pending_bytes() < before {
                idle = 0;
            } else {
                idle += 1;
                if idle > LINK_PATIENCE {
                    self.alive = false;
                    return;
                }
            }
            if !board.wait_link() {
                self.alive = false;
                return;
            }
        }
    }
}

/// `{pull}` / `{pull all}`: pull begin, every stored game (oldest first, not the game in
/// progress; with `all` the acknowledged ones too), pull done.
#[inline(never)]
fn pull<B: Board, S: GameStore>(device: &mut Device<'_, B, S>, all: bool) {
    let games = match device.store.counts() {
        Ok(c) if all => c.stored,
        Ok(c) => c.unpulled,
        Err(_) => return device.log.error(ErrorCode::Store as u8, 0),
    };
    let mut pace = Pace { alive: true };
    pace.make_room(device.board, device.log);
    device.log.pull_begin(games);
    let mut sent = 0u32;
    let mut after: Option<GameEntry> = None;
    loop {
        let entry = match device.store.game_after(after.as_ref()) {
            Ok(Some(entry)) => entry,
            Ok(None) => break,
            Err(_) => {
                device.log.error(ErrorCode::Store as u8, 0);
                break;
            }
        };
        after = Some(entry);
        if entry.closing == Closing::InProgress || (entry.acked && !all) {
            continue;
        }
        match send_game(device, &entry, &mut pace) {
            Ok(()) => sent += 1,
            Err(_) => device.log.error(ErrorCode::Store as u8, entry.number),
        }
    }
    pace.make_room(device.board, device.log);
    device.log.pull_done(sent);
}

/// Bytes of a full `t48 moves` frame's directions.
const DIR_BYTES: usize = MOVES_PER_FRAME as usize / 4;

/// One stored game: its start frame, its moves as stored (2 bits each, [`MOVES_PER_FRAME`]
/// a frame), its end or partial frame.
#[inline(never)]
fn send_game<B: Board, S: GameStore>(
    device: &mut Device<'_, B, S>,
    entry: &GameEntry,
    pace: &mut Pace,
) -> Result<(), ()> {
    let Device {
        board, store, log, ..
    } = device;
    let (board, store): (&mut B, &mut S) = (board, store);
    pace.make_room(board, log);
    let start = log.start(&log.start_values(entry.number, &entry.start));
    let number = entry.number;
    let mut dirs = [0u8; DIR_BYTES];
    let (mut first, mut n) = (0u32, 0u32);
    store
        .read_moves(entry, |dir| {
            packed::put(&mut dirs, n as usize, dir);
            n += 1;
            if n == MOVES_PER_FRAME {
                pace.make_room(board, log);
                log.moves(number, first, n as u16, &dirs);
                dirs = [0; DIR_BYTES];
                first += n;
                n = 0;
            }
        })
        .map_err(drop)?;
    if n > 0 {
        pace.make_room(board, log);
        log.moves(number, first, n as u16, &dirs[..n.div_ceil(4) as usize]);
    }
    pace.make_room(board, log);
    log.close(&closing(entry, start));
    Ok(())
}

/// The closing frame of a stored game whose start frame's check is `start`: an end frame
/// when its END record kept the device's score and hash, else a partial frame (an
/// interrupted game, or one stored by the first store layout).
fn closing(entry: &GameEntry, start: u32) -> Close {
    let ending = match entry.closing {
        Closing::Ended {
            result,
            claims: Some(claims),
        } => Some(Ending { result, claims }),
        _ => None,
    };
    Close {
        game: entry.number,
        moves: entry.moves,
        start,
        ending,
    }
}

/// `{ack N C}`: marks game `N` pulled if `C` is the check of its closing frame (computed
/// from the store).
#[inline(never)]
fn ack<B: Board, S: GameStore>(device: &mut Device<'_, B, S>, number: u32, claimed: u32) {
    let entry = match device.store.find_game(number) {
        Ok(Some(entry)) if entry.closing != Closing::InProgress => entry,
        Ok(_) => return device.log.error(ErrorCode::NoGame as u8, number),
        Err(_) => return device.log.error(ErrorCode::Store as u8, number),
    };
    let start = crate::protocol::start_check(&device.log.start_values(entry.number, &entry.start));
    if closing(&entry, start).check() != claimed {
        return device.log.error(ErrorCode::CheckMismatch as u8, number);
    }
    match device.store.ack(&entry) {
        Ok(()) => device.log.acked(number),
        Err(StoreError::UnknownGame { .. }) => device.log.error(ErrorCode::NoGame as u8, number),
        Err(_) => device.log.error(ErrorCode::Store as u8, number),
    }
}
