//! An EEPROM's one-byte operations, the interface the stores here use.

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
