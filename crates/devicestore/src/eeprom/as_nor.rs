//! NOR flash over an EEPROM's one-byte operations.

use embedded_storage::nor_flash::{ErrorType, NorFlash, ReadNorFlash};

use super::chip::Eeprom;
use crate::nor::NorError;

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
