//! The chip's EEPROM presented as NOR flash for the game store: erase sets a whole sector to
//! 0xFF, program clears bits only (new = old AND data).
//!
//! The EEPROM is driven the way NOR flash behaves, power cuts included: erase uses the
//! EEPROM's erase-only mode (bits go to 1) and program its write-only mode (bits go to 0),
//! so a byte torn by a power cut has only some of the bits the operation was changing
//! changed, never a bit moved the other way. Bytes that already hold the value are not
//! written (the EEPROM wears per write).
//!
//! QEMU's AVR machines have no EEPROM (its registers read 0, writes are dropped). There the
//! store lives in a RAM buffer with the same rules, lost at reset: see [`present`].

use embedded_storage::nor_flash::{
    ErrorType, NorFlash, NorFlashError, NorFlashErrorKind, ReadNorFlash,
};

use crate::regs::Reg;

const EECR: Reg = Reg(0x3F);
const EEDR: Reg = Reg(0x40);
const EEARL: Reg = Reg(0x41);
const EEARH: Reg = Reg(0x42);

/// EECR bits.
const EERE: u8 = 1 << 0;
const EEPE: u8 = 1 << 1;
const EEMPE: u8 = 1 << 2;
/// EEPM1:0 = 01: erase only; 10: write only.
const EEPM_ERASE: u8 = 0b01 << 4;
const EEPM_WRITE: u8 = 0b10 << 4;

/// Whether the chip has a working EEPROM: its address register keeps what is written to it
/// (on QEMU it reads 0). Writes no EEPROM cell.
pub fn present() -> bool {
    wait_idle();
    let before = EEARL.read();
    EEARL.write(0x5A);
    let kept = EEARL.read() == 0x5A;
    EEARL.write(0xA5);
    let kept = kept && EEARL.read() == 0xA5;
    EEARL.write(before);
    kept
}

fn wait_idle() {
    while EECR.read() & EEPE != 0 {}
}

fn set_address(at: u16) {
    let [lo, hi] = at.to_le_bytes();
    EEARH.write(hi);
    EEARL.write(lo);
}

fn eeprom_read(at: u16) -> u8 {
    wait_idle();
    set_address(at);
    EECR.set(EERE);
    EEDR.read()
}

/// One EEPROM operation (`mode` erase only or write only) on the byte at `at`.
fn eeprom_write(at: u16, value: u8, mode: u8) {
    wait_idle();
    critical_section::with(|_| {
        set_address(at);
        EEDR.write(value);
        EECR.write(mode | EEMPE);
        // Within four cycles of EEMPE, as the data sheet requires.
        EECR.write(mode | EEMPE | EEPE);
    });
}

/// Where the bytes are.
#[derive(Debug)]
enum Memory {
    Eeprom,
    /// A RAM buffer of the flash's size (QEMU), owned by the caller for the flash's life.
    Ram(*mut u8),
}

/// An out-of-range or unaligned operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlashError {
    /// Past the end of the memory.
    OutOfBounds,
    /// An erase not on sector boundaries.
    NotAligned,
}

impl NorFlashError for FlashError {
    fn kind(&self) -> NorFlashErrorKind {
        match self {
            FlashError::OutOfBounds => NorFlashErrorKind::OutOfBounds,
            FlashError::NotAligned => NorFlashErrorKind::NotAligned,
        }
    }
}

/// EEPROM (or its RAM stand-in) as NOR flash with `SECTOR`-byte sectors.
#[derive(Debug)]
pub struct EepromFlash<const SECTOR: usize> {
    memory: Memory,
    len: u16,
}

impl<const SECTOR: usize> EepromFlash<SECTOR> {
    /// The first `len` bytes of the chip's EEPROM.
    pub fn eeprom(len: u16) -> Self {
        EepromFlash {
            memory: Memory::Eeprom,
            len,
        }
    }

    /// A RAM stand-in over `buf` (as erased: all 0xFF), for machines without EEPROM.
    pub fn ram(buf: &mut [u8]) -> Self {
        buf.fill(0xFF);
        EepromFlash {
            memory: Memory::Ram(buf.as_mut_ptr()),
            len: buf.len() as u16,
        }
    }

    fn get(&self, at: u16) -> u8 {
        match self.memory {
            Memory::Eeprom => eeprom_read(at),
            // SAFETY: `at < len`, the buffer's length, checked by every caller.
            Memory::Ram(p) => unsafe { *p.add(at as usize) },
        }
    }

    /// Changes the byte at `at` to `value` by an erase (`erase`) or a program.
    fn put(&mut self, at: u16, value: u8, erase: bool) {
        match self.memory {
            Memory::Eeprom => eeprom_write(at, value, if erase { EEPM_ERASE } else { EEPM_WRITE }),
            // SAFETY: as in `get`.
            Memory::Ram(p) => unsafe { *p.add(at as usize) = value },
        }
    }

    fn check(&self, offset: u32, len: usize) -> Result<u16, FlashError> {
        match offset.checked_add(len as u32) {
            Some(end) if end <= self.len as u32 => Ok(offset as u16),
            _ => Err(FlashError::OutOfBounds),
        }
    }
}

impl<const SECTOR: usize> ErrorType for EepromFlash<SECTOR> {
    type Error = FlashError;
}

impl<const SECTOR: usize> ReadNorFlash for EepromFlash<SECTOR> {
    const READ_SIZE: usize = 1;

    fn read(&mut self, offset: u32, bytes: &mut [u8]) -> Result<(), FlashError> {
        let start = self.check(offset, bytes.len())?;
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = self.get(start + i as u16);
        }
        Ok(())
    }

    fn capacity(&self) -> usize {
        self.len as usize
    }
}

impl<const SECTOR: usize> NorFlash for EepromFlash<SECTOR> {
    const WRITE_SIZE: usize = 1;
    const ERASE_SIZE: usize = SECTOR;

    fn erase(&mut self, from: u32, to: u32) -> Result<(), FlashError> {
        if from > to || !from.is_multiple_of(SECTOR as u32) || !to.is_multiple_of(SECTOR as u32) {
            return Err(FlashError::NotAligned);
        }
        let start = self.check(from, (to - from) as usize)?;
        for at in start..start + (to - from) as u16 {
            if self.get(at) != 0xFF {
                self.put(at, 0xFF, true);
            }
        }
        Ok(())
    }

    fn write(&mut self, offset: u32, bytes: &[u8]) -> Result<(), FlashError> {
        let start = self.check(offset, bytes.len())?;
        for (i, &b) in bytes.iter().enumerate() {
            let at = start + i as u16;
            let old = self.get(at);
            if old & b != old {
                self.put(at, old & b, false);
            }
        }
        Ok(())
    }
}
