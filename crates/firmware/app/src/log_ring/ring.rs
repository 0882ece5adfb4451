//! The RAM ring the defmt frames wait in until the board's link takes them.

use core::cell::RefCell;
use core::sync::atomic::{AtomicBool, Ordering};

use critical_section::{CriticalSection, Mutex, RestoreState};

use crate::Board;

/// Bytes of RAM set aside for encoded log frames waiting to be sent.
#[cfg(not(target_arch = "avr"))]
pub const LOG_CAPACITY: usize = 4096;
/// Bytes of RAM set aside for encoded log frames waiting to be sent: on AVR (8 KB of RAM, a
/// blocking USART) room for a few frames; half of it holds the largest frame (a full `t48
/// moves` frame of a pull reply, about 97 bytes).
#[cfg(target_arch = "avr")]
pub const LOG_CAPACITY: usize = 256;

/// The ring's positions; the bytes are in [`BUF`] (zero-initialised, so in `.bss`, not
/// copied from flash).
struct Ring {
    /// Next byte to write (counts up, wraps modulo 2^32).
    head: u32,
    /// End of the last complete frame: bytes before it may be sent.
    committed: u32,
    /// Next byte to send.
    tail: u32,
    /// The frame being written did not fit.
    overflow: bool,
    /// Frames dropped because the ring was full.
    dropped: u32,
}

impl Ring {
    /// An empty ring holding one frame separator (a zero byte): whatever the receiver picked
    /// up before (line noise, half a frame) ends there instead of swallowing the first frame.
    const fn new() -> Ring {
        Ring {
            head: 1,
            committed: 1,
            tail: 0,
            overflow: false,
            dropped: 0,
        }
    }

    fn push(&mut self, buf: &mut [u8; LOG_CAPACITY], bytes: &[u8]) {
        for &b in bytes {
            if self.head.wrapping_sub(self.tail) as usize >= LOG_CAPACITY {
                self.overflow = true;
                return;
            }
            buf[self.head as usize % LOG_CAPACITY] = b;
            self.head = self.head.wrapping_add(1);
        }
    }

    fn end_frame(&mut self) {
        if self.overflow {
            self.head = self.committed;
            self.overflow = false;
            self.dropped = self.dropped.wrapping_add(1);
        } else {
            self.committed = self.head;
        }
    }

    /// The next run of committed bytes (up to the end of the buffer).
    fn pending(&self) -> (usize, usize) {
        let len = self.committed.wrapping_sub(self.tail) as usize;
        let start = self.tail as usize % LOG_CAPACITY;
        (start, len.min(LOG_CAPACITY - start))
    }
}

static RING: Mutex<RefCell<Ring>> = Mutex::new(RefCell::new(Ring::new()));
static BUF: Mutex<RefCell<[u8; LOG_CAPACITY]>> = Mutex::new(RefCell::new([0; LOG_CAPACITY]));
static ENCODER: Mutex<RefCell<defmt::Encoder>> = Mutex::new(RefCell::new(defmt::Encoder::new()));
static TAKEN: AtomicBool = AtomicBool::new(false);
static RESTORE: Mutex<RefCell<Option<RestoreState>>> = Mutex::new(RefCell::new(None));

/// The encoder and a writer of encoded bytes into the ring.
fn with_logger<R>(f: impl FnOnce(&mut defmt::Encoder, &mut dyn FnMut(&[u8])) -> R) -> R {
    // SAFETY: only called between `acquire` and `release`, which hold a critical section
    // (on AVR, where they do not, no interrupt touches the ring: see `RingLogger`).
    let cs = unsafe { CriticalSection::new() };
    let mut ring = RING.borrow_ref_mut(cs);
    let mut buf = BUF.borrow_ref_mut(cs);
    let mut encoder = ENCODER.borrow_ref_mut(cs);
    f(&mut encoder, &mut |bytes| ring.push(&mut buf, bytes))
}

#[defmt::global_logger]
struct RingLogger;

// SAFETY: `acquire` takes a critical section that `release` gives back; in between no other
// code (no interrupt) can log, so the ring and the encoder are used by one frame at a time.
// On AVR no interrupt handler logs or touches the ring (the only one, USART0's receive,
// fills its own ring), so there the frame is encoded with interrupts on: `TAKEN` alone
// keeps frames apart, and the receive interrupt keeps taking the host's bytes (a frame
// encoded with interrupts off took up to 3,249 cycles on a Mega, over the two bytes' time,
// 2,778, the USART holds at 115,200 baud: simavr counted bytes a real link would lose).
unsafe impl defmt::Logger for RingLogger {
    fn acquire() {
        // SAFETY: released in `release`, in the same order.
        #[cfg(not(target_arch = "avr"))]
        let restore = unsafe { critical_section::acquire() };
        if TAKEN.load(Ordering::Relaxed) {
            panic!("defmt logger taken reentrantly");
        }
        TAKEN.store(true, Ordering::Relaxed);
        #[cfg(not(target_arch = "avr"))]
        {
            // SAFETY: we hold the critical section.
            let cs = unsafe { CriticalSection::new() };
            *RESTORE.borrow_ref_mut(cs) = Some(restore);
        }
        with_logger(|encoder, push| encoder.start_frame(push));
    }

    unsafe fn flush() {}

    unsafe fn release() {
        with_logger(|encoder, push| encoder.end_frame(push));
        // SAFETY: we still hold the critical section taken in `acquire` (on AVR: no
        // interrupt touches the ring, see `RingLogger`).
        let cs = unsafe { CriticalSection::new() };
        RING.borrow_ref_mut(cs).end_frame();
        TAKEN.store(false, Ordering::Relaxed);
        // SAFETY: we hold the critical section taken in `acquire`.
        let cs = unsafe { CriticalSection::new() };
        let restore = RESTORE.borrow_ref_mut(cs).take();
        if let Some(restore) = restore {
            // SAFETY: the state comes from the matching `acquire`.
            unsafe { critical_section::release(restore) };
        }
    }

    unsafe fn write(bytes: &[u8]) {
        with_logger(|encoder, push| encoder.write(bytes, push));
    }
}

/// Sends every complete frame waiting in the ring to the board, as far as the board takes
/// them; returns the number of bytes still waiting.
pub fn drain<B: Board + ?Sized>(board: &mut B) -> usize {
    let mut chunk = [0u8; 64];
    loop {
        let n = critical_section::with(|cs| {
            let (start, len) = RING.borrow_ref(cs).pending();
            let n = len.min(chunk.len());
            chunk[..n].copy_from_slice(&BUF.borrow_ref(cs)[start..start + n]);
            n
        });
        if n == 0 {
            return 0;
        }
        let taken = board.write_log(&chunk[..n]).min(n);
        critical_section::with(|cs| {
            let mut ring = RING.borrow_ref_mut(cs);
            ring.tail = ring.tail.wrapping_add(taken as u32);
        });
        if taken < n {
            return pending_bytes();
        }
    }
}

/// Bytes of complete frames waiting to be sent.
pub fn pending_bytes() -> usize {
    critical_section::with(|cs| {
        let ring = RING.borrow_ref(cs);
        ring.committed.wrapping_sub(ring.tail) as usize
    })
}

/// Frames dropped since reset because the ring was full.
pub fn dropped_frames() -> u32 {
    critical_section::with(|cs| RING.borrow_ref(cs).dropped)
}

/// Bytes free in the ring for new frames.
pub fn free_bytes() -> usize {
    critical_section::with(|cs| {
        let ring = RING.borrow_ref(cs);
        LOG_CAPACITY - ring.head.wrapping_sub(ring.tail) as usize
    })
}

/// Sends one frame whose bytes (after the encoder's framing) are `parts` in order.
pub fn frame(parts: &[&[u8]]) {
    <RingLogger as defmt::Logger>::acquire();
    for part in parts {
        // SAFETY: between `acquire` and `release`.
        unsafe { <RingLogger as defmt::Logger>::write(part) };
    }
    // SAFETY: `acquire` was called above.
    unsafe { <RingLogger as defmt::Logger>::release() };
}
