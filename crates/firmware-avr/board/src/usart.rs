//! USART0: the defmt log out, test scripts and host requests in. 115,200 baud, 8N1, at the
//! boards' 16 MHz (double speed, UBRR 16: the rate Arduino's own core uses, 2.1 % fast).
//!
//! Received bytes are taken by the receive-complete interrupt ([`on_receive`], which each
//! chip's `main.rs` installs as its USART0 RX handler) into a 64-byte ring, so that bytes
//! arriving while the application is busy (a move, a store write, a screen) wait there, not
//! in the USART's 2-byte buffer. When the ring is full the handler stops taking bytes (the
//! interrupt is turned off until [`try_read`] makes room): the next ones wait in the USART,
//! which under QEMU holds the sender back, and on a real link loses what overflows it.

use core::cell::UnsafeCell;
use core::sync::atomic::{AtomicU8, Ordering};

use crate::regs::Reg;

const UCSR0A: Reg = Reg(0xC0);
const UCSR0B: Reg = Reg(0xC1);
const UCSR0C: Reg = Reg(0xC2);
const UBRR0L: Reg = Reg(0xC4);
const UBRR0H: Reg = Reg(0xC5);
const UDR0: Reg = Reg(0xC6);

/// UCSR0A: a received byte waits in the USART.
const RXC0: u8 = 1 << 7;

/// UCSR0B: the receive-complete interrupt.
const RXCIE0: u8 = 1 << 7;

/// The baud rate.
pub const BAUD: u32 = 115_200;

/// Bytes the receive ring holds (a power of two: the indices wrap at 256).
pub const RX_RING: usize = 64;

/// The receive ring: the handler writes at `head`, the application reads at `tail`; each
/// index is written by one side only, and a byte is stored before `head` passes it.
struct Ring {
    bytes: UnsafeCell<[u8; RX_RING]>,
    head: AtomicU8,
    tail: AtomicU8,
}

// SAFETY: one writer per index and per slot at a time (see `Ring`); single core.
unsafe impl Sync for Ring {}

static RX: Ring = Ring {
    bytes: UnsafeCell::new([0; RX_RING]),
    head: AtomicU8::new(0),
    tail: AtomicU8::new(0),
};

/// Sets the rate and turns the receiver (with its interrupt) and the transmitter on. The
/// chip's interrupts must be enabled for bytes to arrive.
pub fn init() {
    UBRR0H.write(0);
    UBRR0L.write(16);
    UCSR0A.write(1 << 1); // U2X0
    UCSR0C.write(0b0000_0110); // 8 data bits, no parity, 1 stop bit
    UCSR0B.write(RXCIE0 | (1 << 4) | (1 << 3)); // RXCIE0, RXEN0, TXEN0
}

/// The USART0 receive-complete interrupt's work: the byte into the ring, or, with the ring
/// full, the interrupt off (the byte stays in the USART).
pub fn on_receive() {
    let head = RX.head.load(Ordering::Relaxed);
    let tail = RX.tail.load(Ordering::Relaxed);
    if usize::from(head.wrapping_sub(tail)) >= RX_RING {
        UCSR0B.clear(RXCIE0);
        return;
    }
    let byte = UDR0.read();
    // SAFETY: slot `head` is the handler's until `head` moves past it.
    unsafe { (*RX.bytes.get())[usize::from(head) % RX_RING] = byte };
    RX.head.store(head.wrapping_add(1), Ordering::Release);
}

/// Takes a byte the receive interrupt has left in the USART into the ring (as the interrupt
/// would), if one waits there and the ring has room. For QEMU: its AVR CPU takes a pending
/// interrupt only where it checks for one (the start of a translated block, while it is
/// told to look), and the check can fall while interrupts are briefly off (the ring's
/// atomics turn them off); the interrupt then waits until something else makes the CPU look
/// again (sometimes seconds), while the application spins on an empty ring. Under load,
/// requests trickled in a byte a second and went unanswered. Called now and then from the
/// emulated board's idle loop; on a chip the interrupt is never left pending.
pub fn take_pending() {
    critical_section::with(|_| {
        if UCSR0A.read() & RXC0 != 0 {
            on_receive();
        }
    });
}

/// Whether a received byte waits in the ring.
pub fn waiting() -> bool {
    RX.head.load(Ordering::Acquire) != RX.tail.load(Ordering::Relaxed)
}

/// A received byte, if one waits.
pub fn try_read() -> Option<u8> {
    let tail = RX.tail.load(Ordering::Relaxed);
    if RX.head.load(Ordering::Acquire) == tail {
        return None;
    }
    // SAFETY: slot `tail` was filled before `head` moved past it; the handler does not
    // write it again until `tail` moves on.
    let byte = unsafe { (*RX.bytes.get())[usize::from(tail) % RX_RING] };
    RX.tail.store(tail.wrapping_add(1), Ordering::Release);
    // Room again: the handler may take bytes (it turns itself off when the ring is full).
    critical_section::with(|_| UCSR0B.set(RXCIE0));
    Some(byte)
}

/// Sends a byte (waits for room).
pub fn write(byte: u8) {
    while UCSR0A.read() & (1 << 5) == 0 {}
    UDR0.write(byte);
}
