//! How deep the stack went: the RAM between the static data and the stack is painted at
//! start, and what is left of the paint at the end tells the deepest the stack reached.

use core::ptr::{addr_of_mut, read_volatile, write_volatile};
use core::sync::atomic::{AtomicU16, Ordering};

use crate::regs::Reg;

extern "C" {
    /// The end of the static data (avr-libc's linker scripts).
    static mut __heap_start: u8;
}

const SPL: Reg = Reg(0x5D);
const SPH: Reg = Reg(0x5E);
const PAINT: u8 = 0xA5;
/// Bytes below the stack pointer left unpainted (the painting function's own frame).
const MARGIN: u16 = 64;

/// The stack pointer when the paint was laid.
static TOP: AtomicU16 = AtomicU16::new(0);

fn heap_start() -> u16 {
    addr_of_mut!(__heap_start) as u16
}

/// Paints the free RAM, from the end of the static data to just below the stack. Call once,
/// first thing.
#[inline(never)]
pub fn paint() {
    let sp = u16::from_le_bytes([SPL.read(), SPH.read()]);
    TOP.store(sp, Ordering::Relaxed);
    for at in heap_start()..sp.saturating_sub(MARGIN) {
        // SAFETY: free RAM between the static data and the stack, not in use yet.
        unsafe { write_volatile(at as *mut u8, PAINT) };
    }
}

/// The most bytes the stack has held since [`paint`], and the bytes there were for it (from
/// the end of the static data to the stack's top). Equal: the stack reached the static data.
pub fn peak() -> (u16, u16) {
    let top = TOP.load(Ordering::Relaxed);
    let mut at = heap_start();
    // SAFETY: reads RAM between the static data and the stack's top.
    while at < top && unsafe { read_volatile(at as *const u8) } == PAINT {
        at += 1;
    }
    (top - at, top - heap_start())
}
