//! The chip's EEPROM, a byte at a time, for the game stores: devicestore's
//! [`Eeprom`] (erase a byte to 0xFF, program clears bits only: new = old AND data), which
//! its `AsNor` presents as NOR flash (the Megas' store, the device id, the Uno's game
//! counter) and its `EepromStore` (the Uno's store) uses as it is.
//!
//! Erase uses the EEPROM's erase-only mode (bits go to 1) and program its write-only mode
//! (bits go to 0), so a byte torn by a power cut has only some of the bits the operation was
//! changing changed, never a bit moved the other way.
//!
//! QEMU's AVR machines have no EEPROM (its registers read 0, writes are dropped). There the
//! Megas' store lives in a RAM buffer with the same rules, lost at reset: see [`present`].

use twenty48_firmware_app::devicestore::eeprom::Eeprom;

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
    /// A RAM buffer (QEMU), owned by the caller for the memory's life.
    Ram(*mut u8),
}

/// The chip's EEPROM, or its RAM stand-in under QEMU.
#[derive(Debug)]
pub struct EepromBytes {
    memory: Memory,
    len: u16,
}

impl EepromBytes {
    /// The first `len` bytes of the chip's EEPROM.
    pub fn eeprom(len: u16) -> Self {
        EepromBytes {
            memory: Memory::Eeprom,
            len,
        }
    }

    /// A RAM stand-in over `buf` (as erased: all 0xFF), for machines without EEPROM.
    pub fn ram(buf: &mut [u8]) -> Self {
        buf.fill(0xFF);
        EepromBytes {
            memory: Memory::Ram(buf.as_mut_ptr()),
            len: buf.len() as u16,
        }
    }

    /// Changes the byte at `at` to `value` by an erase (`erase`) or a program.
    fn put(&mut self, at: u16, value: u8, erase: bool) {
        match self.memory {
            Memory::Eeprom => eeprom_write(at, value, if erase { EEPM_ERASE } else { EEPM_WRITE }),
            // SAFETY: `at < len`, the buffer's length, as `Eeprom` requires of callers.
            Memory::Ram(p) => unsafe {
                let b = p.add(at as usize);
                *b = if erase { 0xFF } else { *b & value };
            },
        }
    }
}

impl Eeprom for EepromBytes {
    fn capacity(&self) -> u16 {
        self.len
    }

    fn read(&mut self, at: u16) -> u8 {
        match self.memory {
            Memory::Eeprom => eeprom_read(at),
            // SAFETY: `at < len`, the buffer's length, as `Eeprom` requires of callers.
            Memory::Ram(p) => unsafe { *p.add(at as usize) },
        }
    }

    fn erase(&mut self, at: u16) {
        self.put(at, 0xFF, true);
    }

    fn program(&mut self, at: u16, value: u8) {
        self.put(at, value, false);
    }
}

/// Only the chip's EEPROM (the Uno, which has no QEMU path): the same operations, with no
/// RAM stand-in to tell apart.
#[derive(Debug)]
pub struct ChipEeprom {
    /// Bytes of EEPROM.
    pub len: u16,
}

impl Eeprom for ChipEeprom {
    fn capacity(&self) -> u16 {
        self.len
    }

    fn read(&mut self, at: u16) -> u8 {
        eeprom_read(at)
    }

    fn erase(&mut self, at: u16) {
        eeprom_write(at, 0xFF, EEPM_ERASE);
    }

    fn program(&mut self, at: u16, value: u8) {
        eeprom_write(at, value, EEPM_WRITE);
    }
}
