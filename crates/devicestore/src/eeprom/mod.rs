//! A byte-writable EEPROM (an AVR's): the [`Eeprom`] interface, NOR flash over it ([`AsNor`],
//! for the [`Store`](crate::Store), the device id and the game counter), an emulation with
//! power cuts for tests ([`MemEeprom`]), and the game store of a 1 KB EEPROM
//! ([`EepromStore`], the Arduino Uno's).
//!
//! An EEPROM byte is changed by one operation of its own: an erase (the byte becomes 0xFF)
//! or a program (bits go from 1 to 0 where the data has 0: new = old AND data). An AVR does
//! either in 1.8 ms (its EEPM modes "erase only" and "write only"). A power cut during an
//! operation leaves that byte torn: some of the bits the operation was changing changed, the
//! others not, never a bit moved the other way. The stores here only ever ask for those two
//! operations, so a torn byte is always one of the in-between values the NOR rules allow.

mod block;
mod mem;
mod store;

use embedded_storage::nor_flash::{ErrorType, NorFlash, ReadNorFlash};

use crate::nor::NorError;

pub use mem::MemEeprom;
pub use store::EepromStore;

/// A byte-writable EEPROM of up to 64 KB. Every call is on one byte; erase and program are
/// one operation each (what a power cut tears).
pub trait Eeprom {
    /// Bytes of EEPROM.
    fn capacity(&self) -> u16;
    /// The byte at `at` (`at < capacity()`).
    fn read(&mut self, at: u16) -> u8;
    /// Sets the byte at `at` to 0xFF.
    fn erase(&mut self, at: u16);
    /// Clears the bits of the byte at `at` that `value` clears (new = old AND value).
    fn program(&mut self, at: u16, value: u8);
}

impl<E: Eeprom + ?Sized> Eeprom for &mut E {
    fn capacity(&self) -> u16 {
        (**self).capacity()
    }
    fn read(&mut self, at: u16) -> u8 {
        (**self).read(at)
    }
    fn erase(&mut self, at: u16) {
        (**self).erase(at)
    }
    fn program(&mut self, at: u16, value: u8) {
        (**self).program(at, value)
    }
}

/// The EEPROM `E` presented as NOR flash with `SECTOR`-byte sectors: an erase erases each
/// byte of its sectors that is not 0xFF yet, a write programs each byte it changes (the
/// EEPROM wears per operation, so bytes that already hold the value are left alone). A byte
/// torn by a power cut therefore has only some of the bits the operation was changing
/// changed, as on NOR flash.
#[derive(Debug)]
pub struct AsNor<E, const SECTOR: usize>(pub E);

impl<E: Eeprom, const SECTOR: usize> AsNor<E, SECTOR> {
    /// `offset..offset + len` as EEPROM addresses, if within the EEPROM.
    fn range(&self, offset: u32, len: usize) -> Result<core::ops::Range<u16>, NorError> {
        let len = len as u32;
        match offset.checked_add(len) {
            Some(end) if end <= u32::from(self.0.capacity()) => Ok(offset as u16..end as u16),
            _ => Err(NorError::OutOfBounds { offset, len }),
        }
    }
}

impl<E, const SECTOR: usize> ErrorType for AsNor<E, SECTOR> {
    type Error = NorError;
}

impl<E: Eeprom, const SECTOR: usize> ReadNorFlash for AsNor<E, SECTOR> {
    const READ_SIZE: usize = 1;

    fn read(&mut self, offset: u32, bytes: &mut [u8]) -> Result<(), NorError> {
        let range = self.range(offset, bytes.len())?;
        for (at, b) in range.zip(bytes) {
            *b = self.0.read(at);
        }
        Ok(())
    }

    fn capacity(&self) -> usize {
        self.0.capacity() as usize
    }
}

impl<E: Eeprom, const SECTOR: usize> NorFlash for AsNor<E, SECTOR> {
    const WRITE_SIZE: usize = 1;
    const ERASE_SIZE: usize = SECTOR;

    fn erase(&mut self, from: u32, to: u32) -> Result<(), NorError> {
        let sector = SECTOR as u32;
        if from > to || from % sector != 0 || to % sector != 0 {
            return Err(NorError::NotAligned { from, to });
        }
        for at in self.range(from, (to - from) as usize)? {
            if self.0.read(at) != 0xFF {
                self.0.erase(at);
            }
        }
        Ok(())
    }

    fn write(&mut self, offset: u32, bytes: &[u8]) -> Result<(), NorError> {
        for (at, &b) in self.range(offset, bytes.len())?.zip(bytes) {
            let old = self.0.read(at);
            if old & b != old {
                self.0.program(at, b);
            }
        }
        Ok(())
    }
}
