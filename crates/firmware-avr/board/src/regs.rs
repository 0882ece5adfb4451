//! Raw I/O registers by data-memory address. Every register used here sits at the same
//! address on the ATmega2560 and the ATmega328P.

use core::ptr::{read_volatile, write_volatile};

/// A register's address in data memory.
#[derive(Clone, Copy, Debug)]
pub struct Reg(pub u16);

impl Reg {
    /// Reads the register.
    #[inline(always)]
    pub fn read(self) -> u8 {
        // SAFETY: an I/O register address of the chip, read as a byte.
        unsafe { read_volatile(self.0 as *const u8) }
    }

    /// Writes the register.
    #[inline(always)]
    pub fn write(self, value: u8) {
        // SAFETY: an I/O register address of the chip, written as a byte.
        unsafe { write_volatile(self.0 as *mut u8, value) }
    }

    /// Sets the bits of `mask`.
    #[inline(always)]
    pub fn set(self, mask: u8) {
        self.write(self.read() | mask);
    }

    /// Clears the bits of `mask`.
    #[inline(always)]
    pub fn clear(self, mask: u8) {
        self.write(self.read() & !mask);
    }
}

/// A pin: its port's PINx register (DDRx and PORTx follow it) and its bit.
#[derive(Clone, Copy, Debug)]
pub struct Pin {
    /// The port's PINx address.
    pub port: u16,
    /// The bit in the port.
    pub bit: u8,
}

impl Pin {
    const fn mask(self) -> u8 {
        1 << self.bit
    }

    /// An input with the internal pull-up.
    pub fn input_pull_up(self) {
        Reg(self.port + 1).clear(self.mask());
        Reg(self.port + 2).set(self.mask());
    }

    /// An output, driven `high` first.
    pub fn output(self, high: bool) {
        self.set(high);
        Reg(self.port + 1).set(self.mask());
    }

    /// Drives the output.
    pub fn set(self, high: bool) {
        if high {
            Reg(self.port + 2).set(self.mask());
        } else {
            Reg(self.port + 2).clear(self.mask());
        }
    }

    /// Whether the pin reads low.
    pub fn is_low(self) -> bool {
        Reg(self.port).read() & self.mask() == 0
    }
}

/// PINB (port B).
pub const PORT_B: u16 = 0x23;
/// PIND (port D).
pub const PORT_D: u16 = 0x29;
/// PINE (port E, ATmega2560).
pub const PORT_E: u16 = 0x2C;
/// PING (port G, ATmega2560).
pub const PORT_G: u16 = 0x32;
/// PINH (port H, ATmega2560).
pub const PORT_H: u16 = 0x100;
