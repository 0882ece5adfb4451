//! One sector: its header and the records after it, read in order.

use embedded_storage::nor_flash::NorFlash;

use crate::chunk::{read_segment, Segment, CHUNK_LEN};
use crate::record::{
    ContRecord, EndRecord, GameRecord, Header, CONT, CONT_LEN, END, END_LEN, END_LEN_1, GAME,
    GAME_LEN, HEADER_LEN,
};

/// Bytes in a sector of `F`: its `ERASE_SIZE` (a power of two from 128 to 65536, checked by
/// [`Store::open`](crate::Store::open)).
pub(crate) const fn sector_size<F: NorFlash>() -> u32 {
    F::ERASE_SIZE as u32
}

/// The flash address of sector `index`.
pub(crate) fn base<F: NorFlash>(index: u32) -> u32 {
    index * sector_size::<F>()
}

/// Reads sector `index`'s header.
pub(crate) fn read_header<F: NorFlash>(flash: &mut F, index: u32) -> Result<Header, F::Error> {
    let mut b = [0u8; HEADER_LEN as usize];
    flash.read(base::<F>(index), &mut b)?;
    Ok(Header::decode(&b))
}

/// Whether every byte of sector `index` from offset `from` on is 0xFF.
pub(crate) fn erased_from<F: NorFlash>(
    flash: &mut F,
    index: u32,
    from: u32,
) -> Result<bool, F::Error> {
    let mut buf = [0u8; 64];
    let mut at = from;
    let size = sector_size::<F>();
    while at < size {
        let n = (size - at).min(buf.len() as u32) as usize;
        flash.read(base::<F>(index) + at, &mut buf[..n])?;
        if buf[..n].iter().any(|&b| b != 0xFF) {
            return Ok(false);
        }
        at += n as u32;
    }
    Ok(true)
}

/// A record read from a sector, with its offset.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Item {
    /// A GAME record and its segment.
    Game {
        offset: u32,
        record: GameRecord,
        segment: Segment,
    },
    /// A CONT record and its segment.
    Cont {
        record: ContRecord,
        segment: Segment,
    },
    /// An END record.
    End { record: EndRecord },
}

/// What the visitor of a sector's records says next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flow {
    /// Read the next record.
    Next,
    /// Treat this record as invalid: the rest of the sector is ignored.
    Invalid,
    /// Stop reading (the caller has what it wanted).
    Stop,
}

/// Why reading a sector's records ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// A 0xFF where a record type was expected: the end of the data.
    Clean,
    /// The sector's end.
    Full,
    /// An invalid record (unknown type, bad crc, does not fit, or refused by the visitor).
    Invalid,
    /// The visitor stopped.
    Stopped,
}

/// How reading a sector's records ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Walk {
    /// Why.
    pub stop: Stop,
    /// The offset where it stopped (for `Clean`: where the next record would go).
    pub at: u32,
    /// Whether the last record read was an END (or no record was read).
    pub last_end: bool,
}

/// Reads sector `index`'s records (of `layout`, as its header says) from offset 16 in order,
/// calling `visit` for each, until the end of the data, the sector's end, an invalid record,
/// or the visitor stops. One copy for every caller (`visit` a trait object, never inlined):
/// code size on the 8-bit boards.
#[inline(never)]
pub(crate) fn walk<F: NorFlash>(
    flash: &mut F,
    index: u32,
    layout: u8,
    visit: &mut dyn FnMut(Item) -> Flow,
) -> Result<Walk, F::Error> {
    let end_len = if layout == 1 { END_LEN_1 } else { END_LEN };
    let base = base::<F>(index);
    let size = sector_size::<F>();
    let mut at = HEADER_LEN;
    let mut last_end = true;
    let done = |stop, at, last_end| Ok(Walk { stop, at, last_end });
    loop {
        if at >= size {
            return done(Stop::Full, at, last_end);
        }
        let mut kind = [0u8];
        flash.read(base + at, &mut kind)?;
        let (item, next) = match kind[0] {
            0xFF => return done(Stop::Clean, at, last_end),
            GAME if at + GAME_LEN + CHUNK_LEN <= size => {
                let mut b = [0u8; GAME_LEN as usize];
                flash.read(base + at, &mut b)?;
                let Some(record) = GameRecord::decode(&b) else {
                    return done(Stop::Invalid, at, last_end);
                };
                let segment = read_segment(flash, base, at + GAME_LEN)?;
                let item = Item::Game {
                    offset: at,
                    record,
                    segment,
                };
                (item, segment.end)
            }
            CONT if at + CONT_LEN + CHUNK_LEN <= size => {
                let mut b = [0u8; CONT_LEN as usize];
                flash.read(base + at, &mut b)?;
                let Some(record) = ContRecord::decode(&b) else {
                    return done(Stop::Invalid, at, last_end);
                };
                let segment = read_segment(flash, base, at + CONT_LEN)?;
                (Item::Cont { record, segment }, segment.end)
            }
            END if at + end_len <= size => {
                let mut b = [0u8; END_LEN as usize];
                flash.read(base + at, &mut b[..end_len as usize])?;
                let Some(record) = EndRecord::decode(&b[..end_len as usize], layout) else {
                    return done(Stop::Invalid, at, last_end);
                };
                (Item::End { record }, at + end_len)
            }
            _ => return done(Stop::Invalid, at, last_end),
        };
        match visit(item) {
            Flow::Next => {}
            Flow::Invalid => return done(Stop::Invalid, at, last_end),
            Flow::Stop => return done(Stop::Stopped, at, last_end),
        }
        last_end = matches!(item, Item::End { .. });
        at = next;
    }
}
