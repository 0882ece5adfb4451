//! The ring of sectors read oldest first: games put together from their GAME, CONT and END
//! records across sectors.
//!
//! Sectors are opened in ring order (physical index + 1, wrapping), so from the sector after
//! the head (the highest seq) round to the head is oldest first. A CONT or END continues the
//! game before it only across sectors whose seqs follow each other.

use embedded_storage::nor_flash::NorFlash;
use twenty48_engine::Direction;

use crate::chunk::{read_directions, read_segment};
use crate::game::{Closing, GameEntry, Location};
use crate::record::{ContRecord, GameRecord, Header, CONT_LEN, GAME_LEN, HEADER_LEN};
use crate::sector::{base, read_header, walk, Flow, Item, Walk};

/// What a scan saw, besides the games.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Summary {
    /// The last sector in use read: (index, how its records ended).
    pub last: Option<(u32, Walk)>,
    /// The largest game number in any valid record, plus one (0 when none).
    pub next_number: u32,
}

/// Reads `count` sectors from physical index `first` on (wrapping at `sectors`) and calls
/// `emit` with each game with a GAME record, in order, when it closes. `emit` returns `true`
/// to stop. `in_progress`: the number of the game being written, if any.
#[inline(always)]
pub(crate) fn scan<F: NorFlash>(
    flash: &mut F,
    sectors: u32,
    first: u32,
    count: u32,
    in_progress: Option<u32>,
    emit: &mut dyn FnMut(&GameEntry) -> bool,
) -> Result<Summary, F::Error> {
    let span = Span {
        sectors,
        first,
        count,
        in_progress,
    };
    scan_span(flash, &span, emit)
}

/// The sectors a scan reads, and the game being written.
#[derive(Clone, Copy)]
struct Span {
    sectors: u32,
    first: u32,
    count: u32,
    in_progress: Option<u32>,
}

/// [`scan`], with its arguments in a [`Span`]. One copy for every caller (`emit` a trait
/// object, never inlined: code size on the 8-bit boards), and few enough argument bytes to
/// travel in registers (the ATmega2560's LLVM misreads arguments passed on the stack).
#[inline(never)]
fn scan_span<F: NorFlash>(
    flash: &mut F,
    span: &Span,
    emit: &mut dyn FnMut(&GameEntry) -> bool,
) -> Result<Summary, F::Error> {
    let Span {
        sectors,
        first,
        count,
        in_progress,
    } = *span;
    let mut summary = Summary::default();
    let mut open: Option<GameEntry> = None;
    let mut stopped = false;
    // Closes the open game without an END; true when `emit` says stop.
    let close = |open: &mut Option<GameEntry>, emit: &mut dyn FnMut(&GameEntry) -> bool| {
        open.take().is_some_and(|mut g| {
            g.closing = if Some(g.number) == in_progress {
                Closing::InProgress
            } else {
                Closing::Interrupted
            };
            emit(&g)
        })
    };
    let mut prev_seq: Option<u32> = None;
    for i in 0..count {
        let index = (first + i) % sectors;
        let Header::InUse { seq, layout, .. } = read_header(flash, index)? else {
            prev_seq = None;
            continue;
        };
        if prev_seq.map(|p| p.wrapping_add(1)) != Some(seq) && close(&mut open, emit) {
            return Ok(summary);
        }
        prev_seq = Some(seq);
        let mut first_record = true;
        let w = walk(flash, index, layout, &mut |item| {
            let number = match item {
                Item::Game { record, .. } => record.number,
                Item::Cont { record, .. } => record.number,
                Item::End { record } => record.number,
            };
            summary.next_number = summary.next_number.max(number.saturating_add(1));
            let at_start = core::mem::replace(&mut first_record, false);
            match item {
                Item::Game {
                    offset,
                    record,
                    segment,
                } => {
                    if close(&mut open, emit) {
                        stopped = true;
                        return Flow::Stop;
                    }
                    open = Some(GameEntry {
                        number: record.number,
                        start: record.start,
                        moves: segment.moves,
                        closing: Closing::Interrupted,
                        acked: record.acked,
                        loc: Location {
                            sector: index,
                            seq,
                            offset,
                        },
                    });
                }
                Item::Cont { record, segment } => match &mut open {
                    Some(g)
                        if at_start
                            && g.number == record.number
                            && g.moves == record.first_move =>
                    {
                        g.moves = g.moves.saturating_add(segment.moves);
                    }
                    // The game's earlier part is gone: skip its chunks.
                    _ => {
                        if close(&mut open, emit) {
                            stopped = true;
                            return Flow::Stop;
                        }
                    }
                },
                Item::End { record } => match &mut open {
                    Some(g) if g.number == record.number => {
                        if g.moves != record.moves {
                            return Flow::Invalid;
                        }
                        g.closing = Closing::Ended {
                            result: record.result,
                            claims: record.claims,
                        };
                        let g = open.take();
                        if g.is_some_and(|g| emit(&g)) {
                            stopped = true;
                            return Flow::Stop;
                        }
                    }
                    // An END whose game is gone (or never seen): nothing to close.
                    _ => {
                        if close(&mut open, emit) {
                            stopped = true;
                            return Flow::Stop;
                        }
                    }
                },
            }
            Flow::Next
        })?;
        if stopped {
            return Ok(summary);
        }
        summary.last = Some((index, w));
        if w.stop == crate::sector::Stop::Invalid {
            // Nothing after an invalid record continues a game.
            prev_seq = None;
        }
    }
    close(&mut open, emit);
    Ok(summary)
}

/// Why reading a game's moves failed.
pub(crate) enum ReadError<E> {
    Flash(E),
    Corrupt,
}

impl<E> From<E> for ReadError<E> {
    fn from(e: E) -> Self {
        ReadError::Flash(e)
    }
}

/// Calls `f` with each of the `entry.moves` stored moves of `entry`, following its CONT
/// segments through the next sectors in ring order.
pub(crate) fn read_moves<F: NorFlash>(
    flash: &mut F,
    sectors: u32,
    entry: &GameEntry,
    mut f: impl FnMut(Direction),
) -> Result<(), ReadError<F::Error>> {
    let Location {
        mut sector,
        mut seq,
        offset,
    } = entry.loc;
    match read_header(flash, sector)? {
        Header::InUse { seq: s, .. } if s == seq => {}
        _ => return Err(ReadError::Corrupt),
    }
    let mut b = [0u8; GAME_LEN as usize];
    flash.read(base::<F>(sector) + offset, &mut b)?;
    match GameRecord::decode(&b) {
        Some(r) if r.number == entry.number && r.start == entry.start => {}
        _ => return Err(ReadError::Corrupt),
    }
    let mut start = offset + GAME_LEN;
    let mut done = 0u32;
    for _ in 0..sectors {
        let segment = read_segment(flash, base::<F>(sector), start)?;
        let n = segment.moves.min(entry.moves - done);
        read_directions(flash, base::<F>(sector) + start, n, &mut f)?;
        done += n;
        if done == entry.moves {
            return Ok(());
        }
        sector = (sector + 1) % sectors;
        seq = seq.wrapping_add(1);
        match read_header(flash, sector)? {
            Header::InUse { seq: s, .. } if s == seq => {}
            _ => return Err(ReadError::Corrupt),
        }
        let mut c = [0u8; CONT_LEN as usize];
        flash.read(base::<F>(sector) + HEADER_LEN, &mut c)?;
        match ContRecord::decode(&c) {
            Some(r) if r.number == entry.number && r.first_move == done => {}
            _ => return Err(ReadError::Corrupt),
        }
        start = HEADER_LEN + CONT_LEN;
    }
    Err(ReadError::Corrupt)
}
