//! The NOR flash rules, as plain functions any flash emulation can share (the host tests'
//! [`MemFlash`](crate::MemFlash) and the QEMU board's file-backed flash).
//!
//! - Erase works on whole sectors at aligned addresses and sets every byte to 0xFF. A sector
//!   is [`SECTOR_SIZE`] (4096) bytes on the RP2040's serial NOR and the QEMU board; the store
//!   takes any power of two from [`MIN_SECTOR_SIZE`] to [`MAX_SECTOR_SIZE`] (an AVR's EEPROM
//!   presented as NOR flash has 128- or 256-byte "sectors"). [`Geometry`] has the sizes.
//! - A program operation stays within one page ([`PAGE_SIZE`], 256 bytes, or the sector when
//!   that is smaller) and only clears bits: new = old AND data. A program that would need a 0
//!   bit to become 1 is rejected (the store never asks for one).
//! - Each sector erase and each page program is one operation (what a power cut interrupts).
//!   [`Tear`] says how a cut operation is left: [`tear_program`], [`tear_erase`].

use core::fmt;
use core::ops::Range;

use embedded_storage::nor_flash::{NorFlashError, NorFlashErrorKind};

/// Bytes in an erase sector of the RP2040's serial NOR and the QEMU board's flash (the
/// default of [`MemFlash`](crate::MemFlash)).
pub const SECTOR_SIZE: u32 = 4096;
/// The smallest sector the store works on (a sector header and a GAME record with its first
/// chunk, 72 bytes, must fit).
pub const MIN_SECTOR_SIZE: u32 = 128;
/// The largest sector the store works on.
pub const MAX_SECTOR_SIZE: u32 = 65536;
/// Bytes in a program page (W25Q / AT25 serial NOR): one program never crosses a page boundary.
/// A flash with smaller sectors has pages of a sector.
pub const PAGE_SIZE: u32 = 256;

/// The sizes of a NOR flash's erase sector and program page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Bytes in an erase sector (a power of two).
    pub sector: u32,
    /// Bytes in a program page: [`PAGE_SIZE`], or the sector when that is smaller.
    pub page: u32,
}

impl Geometry {
    /// 4096-byte sectors and 256-byte pages: the RP2040's flash and the QEMU board's.
    pub const DEFAULT: Geometry = Geometry::new(SECTOR_SIZE);

    /// Sectors of `sector` bytes (a power of two) and pages of [`PAGE_SIZE`] or, when the
    /// sector is smaller, of a sector.
    pub const fn new(sector: u32) -> Geometry {
        let page = if sector < PAGE_SIZE {
            sector
        } else {
            PAGE_SIZE
        };
        Geometry { sector, page }
    }

    /// Checks an erase of `from..to` on a flash of `capacity` bytes: both ends on sector
    /// boundaries, within the flash. Returns the byte range.
    pub fn check_erase(
        &self,
        from: u32,
        to: u32,
        capacity: usize,
    ) -> Result<Range<usize>, NorError> {
        if from > to || from % self.sector != 0 || to % self.sector != 0 {
            return Err(NorError::NotAligned { from, to });
        }
        check_range(from, (to - from) as usize, capacity)
    }

    /// Checks a program of `len` bytes at `offset` on a flash of `capacity` bytes: within the
    /// flash and within one page. Returns the byte range.
    pub fn check_program(
        &self,
        offset: u32,
        len: usize,
        capacity: usize,
    ) -> Result<Range<usize>, NorError> {
        let range = check_range(offset, len, capacity)?;
        if len > 0 && offset / self.page != (offset + len as u32 - 1) / self.page {
            return Err(NorError::CrossesPage {
                offset,
                len: len as u32,
            });
        }
        Ok(range)
    }

    /// Splits a write of `len` bytes at `offset` into page programs: yields each piece as
    /// `(flash offset, range within the data)`.
    pub fn page_pieces(
        &self,
        offset: u32,
        len: usize,
    ) -> impl Iterator<Item = (u32, Range<usize>)> {
        let page = self.page;
        let mut done = 0usize;
        core::iter::from_fn(move || {
            if done >= len {
                return None;
            }
            let at = offset + done as u32;
            let room = (page - at % page) as usize;
            let n = room.min(len - done);
            let piece = (at, done..done + n);
            done += n;
            Some(piece)
        })
    }
}

/// A broken NOR rule, or a simulated power cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NorError {
    /// The range does not lie within the flash.
    OutOfBounds {
        /// The first byte asked for.
        offset: u32,
        /// How many bytes were asked for.
        len: u32,
    },
    /// An erase range that does not start and end on sector boundaries.
    NotAligned {
        /// The start of the range.
        from: u32,
        /// The end of the range (exclusive).
        to: u32,
    },
    /// A program that crosses a page boundary.
    CrossesPage {
        /// The first byte of the program.
        offset: u32,
        /// Its length.
        len: u32,
    },
    /// A program that would turn a 0 bit back into 1 (only an erase can).
    SetsBit {
        /// The flash address of the byte.
        offset: u32,
        /// The byte in flash.
        old: u8,
        /// The byte the program asked for.
        data: u8,
    },
    /// The power was cut (simulated): this operation and every later one fail.
    PowerCut,
}

impl fmt::Display for NorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            NorError::OutOfBounds { offset, len } => {
                write!(f, "{len} bytes at {offset:#x} lie outside the flash")
            }
            NorError::NotAligned { from, to } => write!(
                f,
                "erase of {from:#x}..{to:#x} is not aligned to the flash's sectors"
            ),
            NorError::CrossesPage { offset, len } => write!(
                f,
                "program of {len} bytes at {offset:#x} crosses a page boundary"
            ),
            NorError::SetsBit { offset, old, data } => write!(
                f,
                "program at {offset:#x} would set a 0 bit to 1 (flash {old:#04x}, data {data:#04x})"
            ),
            NorError::PowerCut => f.write_str("the power was cut"),
        }
    }
}

impl NorFlashError for NorError {
    fn kind(&self) -> NorFlashErrorKind {
        match self {
            NorError::OutOfBounds { .. } => NorFlashErrorKind::OutOfBounds,
            NorError::NotAligned { .. } | NorError::CrossesPage { .. } => {
                NorFlashErrorKind::NotAligned
            }
            _ => NorFlashErrorKind::Other,
        }
    }
}

/// The byte range `offset..offset + len` if it lies within a flash of `capacity` bytes.
pub fn check_range(offset: u32, len: usize, capacity: usize) -> Result<Range<usize>, NorError> {
    let start = offset as usize;
    match start.checked_add(len) {
        Some(end) if end <= capacity => Ok(start..end),
        _ => Err(NorError::OutOfBounds {
            offset,
            len: len as u32,
        }),
    }
}

/// Checks an erase of `from..to` on a flash of 4096-byte sectors ([`Geometry::check_erase`]).
pub fn check_erase(from: u32, to: u32, capacity: usize) -> Result<Range<usize>, NorError> {
    Geometry::DEFAULT.check_erase(from, to, capacity)
}

/// Checks a program of `len` bytes at `offset` on a flash of 256-byte pages
/// ([`Geometry::check_program`]).
pub fn check_program(offset: u32, len: usize, capacity: usize) -> Result<Range<usize>, NorError> {
    Geometry::DEFAULT.check_program(offset, len, capacity)
}

/// Programs `data` over `old` (the flash bytes at `offset`): new = old AND data. Rejects the
/// whole program, changing nothing, if any byte of `data` has a 1 where `old` has a 0.
///
/// # Panics
///
/// When `old` and `data` differ in length.
pub fn apply_program(offset: u32, old: &mut [u8], data: &[u8]) -> Result<(), NorError> {
    assert_eq!(
        old.len(),
        data.len(),
        "program: flash and data lengths differ"
    );
    if let Some(i) = old.iter().zip(data).position(|(&o, &d)| d & !o != 0) {
        return Err(NorError::SetsBit {
            offset: offset + i as u32,
            old: old[i],
            data: data[i],
        });
    }
    for (o, &d) in old.iter_mut().zip(data) {
        *o &= d;
    }
    Ok(())
}

/// Erases: every byte 0xFF.
pub fn apply_erase(bytes: &mut [u8]) {
    bytes.fill(0xFF);
}

/// How a power cut leaves the operation it interrupts: the first [`at`](Tear::at) bytes done,
/// byte `at` partly (only those of the bits it should change that are in
/// [`mask`](Tear::mask)), the rest not done.
///
/// [`MemFlash`](crate::MemFlash) and the QEMU board's file-backed flash draw their tears with
/// [`Tear::new`], so a power cut at the same operation with the same seed tears alike in both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tear {
    /// Bytes done: 0 to the operation's length less 1.
    pub at: usize,
    /// Which of the bits byte `at` should change are changed.
    pub mask: u8,
}

impl Tear {
    /// The tear of operation number `op` (the operation counter after counting it), `len`
    /// bytes long (a program's length, or the sector for an erase), for a caller's `seed`:
    /// SplitMix64's output function over `seed ^ op << 32` gives `at` (its value modulo `len`)
    /// and `mask` (its bits 32 to 39).
    pub fn new(seed: u64, op: u32, len: usize) -> Tear {
        let r = mix(seed ^ u64::from(op) << 32);
        Tear {
            at: if len == 0 {
                0
            } else {
                (r % len as u64) as usize
            },
            mask: (r >> 32) as u8,
        }
    }

    /// Byte `at` of a torn program over `old` of `data`: some of the bits it should clear
    /// (those of `old` AND NOT `data`) cleared.
    pub fn program_byte(&self, old: u8, data: u8) -> u8 {
        old & !(old & !data & self.mask)
    }

    /// Byte `at` of a torn erase of `old`: some of its bits set.
    pub fn erase_byte(&self, old: u8) -> u8 {
        old | self.mask
    }
}

/// The power of an emulated memory ([`MemFlash`](crate::MemFlash), and the EEPROM module's
/// `MemEeprom`): counts its operations and cuts the power during the chosen one.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Power {
    /// Operations so far (the torn one counts).
    pub ops: u32,
    cut: Option<(u32, u64)>,
    /// The power is off.
    pub dead: bool,
}

impl Power {
    /// Cuts the power during the `k`-th operation from now (`k` >= 1).
    pub fn cut_at(&mut self, k: u32, seed: u64) {
        self.cut = Some((self.ops + k.max(1), seed));
    }

    /// Counts an operation on `len` bytes: `None` when the power is off, else the tear
    /// when the power goes off during this one.
    pub fn operation(&mut self, len: usize) -> Option<Option<Tear>> {
        if self.dead {
            return None;
        }
        self.ops += 1;
        Some(match self.cut {
            Some((k, seed)) if k == self.ops => {
                self.dead = true;
                Some(Tear::new(seed, self.ops, len))
            }
            _ => None,
        })
    }
}

/// SplitMix64's output function: spreads a seed over all bits.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Programs `data` over `old` (the flash bytes at the program's address) as a power cut
/// `tear`s it: the first `tear.at` bytes become old AND data, byte `tear.at` is
/// [`Tear::program_byte`], the rest stay. It checks no rule: check the program first
/// ([`apply_program`] on a copy).
///
/// # Panics
///
/// When `old` and `data` differ in length.
pub fn tear_program(old: &mut [u8], data: &[u8], tear: Tear) {
    assert_eq!(old.len(), data.len(), "tear: flash and data lengths differ");
    let j = tear.at.min(old.len());
    for (o, &d) in old[..j].iter_mut().zip(data) {
        *o &= d;
    }
    if let (Some(o), Some(&d)) = (old.get_mut(j), data.get(j)) {
        *o = tear.program_byte(*o, d);
    }
}

/// Erases `bytes` (a sector) as a power cut `tear`s it: the first `tear.at` bytes 0xFF, byte
/// `tear.at` [`Tear::erase_byte`], the rest as they were.
pub fn tear_erase(bytes: &mut [u8], tear: Tear) {
    let j = tear.at.min(bytes.len());
    apply_erase(&mut bytes[..j]);
    if let Some(b) = bytes.get_mut(j) {
        *b = tear.erase_byte(*b);
    }
}

/// Splits a write of `len` bytes at `offset` into 256-byte page programs
/// ([`Geometry::page_pieces`]).
pub fn page_pieces(offset: u32, len: usize) -> impl Iterator<Item = (u32, Range<usize>)> {
    Geometry::DEFAULT.page_pieces(offset, len)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_split_at_pages() {
        let mut it = page_pieces(250, 20);
        assert_eq!(it.next(), Some((250, 0..6)));
        assert_eq!(it.next(), Some((256, 6..20)));
        assert_eq!(it.next(), None);
        assert_eq!(page_pieces(0, 256).count(), 1);
        assert_eq!(page_pieces(0, 0).count(), 0);
        // Pages of a 128-byte sector.
        let small = Geometry::new(128);
        assert_eq!(small.page, 128);
        let mut it = small.page_pieces(120, 20);
        assert_eq!(it.next(), Some((120, 0..8)));
        assert_eq!(it.next(), Some((128, 8..20)));
        assert_eq!(it.next(), None);
        assert!(small.check_program(127, 2, 1024).is_err());
        assert!(small.check_erase(128, 384, 1024).is_ok());
        assert!(small.check_erase(64, 128, 1024).is_err());
    }
}
