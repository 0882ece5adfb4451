//! Push buttons for a game: debounced from periodic pin samples, each confirmed release put in
//! a small queue. `no_std`, no heap, no dependencies. Runs on the target (in a timer
//! interrupt, once a millisecond) and on the host (tests driven by pin traces).
//!
//! The firmware samples the pins from a timer interrupt and calls [`Buttons::sample`]; the
//! main loop takes releases with [`Buttons::pop`] when it is ready, so a redraw of the screen
//! (tens of milliseconds) or a flash write delays a move but never loses one. A move happens
//! on release: holding a button does nothing until it is let go, and never repeats.
//!
//! ```
//! use twenty48_buttons::Buttons;
//!
//! let mut buttons = Buttons::<4>::new();
//! // Button 2 pressed (bit 2 set) for 30 ms, with a bounce, then released for 30 ms.
//! for ms in 0..60 {
//!     let pressed = ms < 30 && ms != 3;
//!     buttons.sample(if pressed { 0b0100 } else { 0 });
//! }
//! assert_eq!(buttons.pop(), Some(2));
//! assert_eq!(buttons.pop(), None);
//! ```
#![no_std]
#![deny(missing_docs)]

/// Samples a pin must read the same before its new state counts (at one sample a
/// millisecond: 10 ms, longer than a push button's bounce, shorter than the quickest tap).
pub const DEBOUNCE_SAMPLES: u8 = 10;

/// Releases the queue holds before it drops new ones.
pub const QUEUE_LEN: usize = 16;

/// `N` buttons (at most 8): their debounced states and the queue of confirmed releases.
#[derive(Clone, Debug)]
pub struct Buttons<const N: usize> {
    /// Debounced state, bit i = button i pressed.
    pressed: u8,
    /// Samples each button's raw reading has differed from its debounced state.
    changing: [u8; N],
    queue: [u8; QUEUE_LEN],
    head: usize,
    len: usize,
    dropped: u32,
}

impl<const N: usize> Default for Buttons<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> Buttons<N> {
    /// All released, the queue empty.
    ///
    /// # Panics
    ///
    /// At compile time of the caller's use, if `N` is more than 8.
    pub const fn new() -> Buttons<N> {
        assert!(N <= 8, "at most 8 buttons");
        Buttons {
            pressed: 0,
            changing: [0; N],
            queue: [0; QUEUE_LEN],
            head: 0,
            len: 0,
            dropped: 0,
        }
    }

    /// Takes one sample of every pin: bit `i` of `raw` set = button `i` reads pressed.
    /// A button whose new state has held for [`DEBOUNCE_SAMPLES`] samples changes state; a
    /// confirmed release goes into the queue (buttons released in the same sample, in
    /// button order).
    pub fn sample(&mut self, raw: u8) {
        for i in 0..N {
            let bit = 1u8 << i;
            if (raw ^ self.pressed) & bit == 0 {
                self.changing[i] = 0;
                continue;
            }
            self.changing[i] += 1;
            if self.changing[i] >= DEBOUNCE_SAMPLES {
                self.changing[i] = 0;
                self.pressed ^= bit;
                if self.pressed & bit == 0 {
                    self.push(i as u8);
                }
            }
        }
    }

    fn push(&mut self, button: u8) {
        if self.len == QUEUE_LEN {
            // The oldest presses are the player's intent; newer ones wait their turn or go.
            self.dropped = self.dropped.wrapping_add(1);
            return;
        }
        self.queue[(self.head + self.len) % QUEUE_LEN] = button;
        self.len += 1;
    }

    /// The oldest release not yet taken: the button's number.
    pub fn pop(&mut self) -> Option<u8> {
        if self.len == 0 {
            return None;
        }
        let b = self.queue[self.head];
        self.head = (self.head + 1) % QUEUE_LEN;
        self.len -= 1;
        Some(b)
    }

    /// Releases waiting in the queue.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no release waits.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Drops every queued release (a result screen ignores presses), counting them in
    /// [`Buttons::dropped`]: no press goes uncounted.
    pub fn clear(&mut self) {
        self.dropped = self.dropped.wrapping_add(self.len as u32);
        self.len = 0;
    }

    /// The debounced state: bit `i` set = button `i` is held down.
    pub fn held(&self) -> u8 {
        self.pressed
    }

    /// Releases never taken: dropped because the queue was full, or by [`Buttons::clear`].
    pub fn dropped(&self) -> u32 {
        self.dropped
    }
}
