//! UART0 of the lm3s6965evb: a PL011 at 0x4000_C000, used by polling.

use core::ptr::{read_volatile, write_volatile};

const BASE: usize = 0x4000_C000;
const DR: *mut u32 = BASE as *mut u32;
const FR: *const u32 = (BASE + 0x18) as *const u32;
const FR_RXFE: u32 = 1 << 4;
const FR_TXFF: u32 = 1 << 5;

/// The one UART0.
pub struct Uart0(());

impl Uart0 {
    /// The UART (QEMU needs no set-up for it).
    pub fn take() -> Uart0 {
        Uart0(())
    }

    /// Waits for a byte and returns it.
    pub fn read_byte(&mut self) -> u8 {
        // SAFETY: PL011 registers at their fixed addresses on this machine.
        unsafe {
            while read_volatile(FR) & FR_RXFE != 0 {}
            read_volatile(DR) as u8
        }
    }

    /// Sends a byte, waiting while the transmit FIFO is full.
    pub fn write_byte(&mut self, byte: u8) {
        // SAFETY: as above.
        unsafe {
            while read_volatile(FR) & FR_TXFF != 0 {}
            write_volatile(DR, byte as u32);
        }
    }
}
