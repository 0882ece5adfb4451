//! The defmt global logger of a board whose link blocks (the Arduino Uno, feature
//! `direct-log`): each encoded byte goes out at once through `twenty48_log_write`, so nothing
//! waits in RAM and no frame is ever dropped.
//!
//! Interrupts stay on while a frame is sent (a full `t48 moves` frame takes about 8 ms at
//! 115,200 baud), so the host's bytes keep arriving in the board's receive ring; the handler
//! of an interrupt must never log.

use core::cell::UnsafeCell;
use core::sync::atomic::{AtomicBool, Ordering};

use crate::Board;

/// No bytes wait: there is always room for a frame.
pub const LOG_CAPACITY: usize = usize::MAX / 2;

extern "Rust" {
    /// Sends bytes on the board's link, returning once they are out (the board crate defines
    /// it: `#[no_mangle] fn twenty48_log_write(bytes: &[u8])`).
    fn twenty48_log_write(bytes: &[u8]);
}

/// The frame encoder, used by one frame at a time (see `acquire`).
struct Encoder(UnsafeCell<defmt::Encoder>);

// SAFETY: only the logger touches it, between `acquire` and `release`, which refuse to be
// entered twice; no interrupt handler logs.
unsafe impl Sync for Encoder {}

static ENCODER: Encoder = Encoder(UnsafeCell::new(defmt::Encoder::new()));
static TAKEN: AtomicBool = AtomicBool::new(false);

fn send(bytes: &[u8]) {
    // SAFETY: the board crate defines it (see the declaration).
    unsafe { twenty48_log_write(bytes) }
}

fn encoder() -> &'static mut defmt::Encoder {
    // SAFETY: only called between `acquire` and `release` (one frame at a time).
    unsafe { &mut *ENCODER.0.get() }
}

#[defmt::global_logger]
struct DirectLogger;

// SAFETY: `acquire` refuses to be entered twice until `release`, so the encoder is used by one
// frame at a time; no interrupt handler logs.
unsafe impl defmt::Logger for DirectLogger {
    fn acquire() {
        // No interrupt handler logs: only a panic inside a frame comes back here.
        if TAKEN.load(Ordering::Relaxed) {
            panic!("defmt logger taken reentrantly");
        }
        TAKEN.store(true, Ordering::Relaxed);
        encoder().start_frame(send);
    }

    unsafe fn flush() {}

    unsafe fn release() {
        encoder().end_frame(send);
        TAKEN.store(false, Ordering::Relaxed);
    }

    unsafe fn write(bytes: &[u8]) {
        encoder().write(bytes, send);
    }
}

/// Nothing waits to be sent: returns 0.
pub fn drain<B: Board + ?Sized>(_board: &mut B) -> usize {
    0
}

/// Bytes waiting: none.
pub fn pending_bytes() -> usize {
    0
}

/// Frames dropped: none ever.
pub fn dropped_frames() -> u32 {
    0
}

/// Room for frames: always.
pub fn free_bytes() -> usize {
    LOG_CAPACITY
}

/// Sends one frame whose bytes (after the encoder's framing) are `parts` in order.
pub fn frame(parts: &[&[u8]]) {
    <DirectLogger as defmt::Logger>::acquire();
    for part in parts {
        // SAFETY: between `acquire` and `release`.
        unsafe { <DirectLogger as defmt::Logger>::write(part) };
    }
    // SAFETY: `acquire` was called above.
    unsafe { <DirectLogger as defmt::Logger>::release() };
}
