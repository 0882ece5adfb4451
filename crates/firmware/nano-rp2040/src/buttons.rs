//! The four buttons: debounced, a move on release, and the one table that maps them to
//! directions.

use embedded_hal::digital::InputPin;
use rp2040_hal::gpio::{DynPinId, FunctionSioInput, Pin, PullUp};
use twenty48_firmware_app::engine::Direction;

/// The direction of each button, in pin order D4, D5, D6, D7 (as the sketch wired them:
/// up, down, left, right). The panel is mounted rotated 180 degrees and drawn flipped to
/// match; if your buttons sit differently, this table is the one place to change.
pub const BUTTON_DIRECTIONS: [Direction; 4] = [
    Direction::Up,    // D4
    Direction::Down,  // D5
    Direction::Left,  // D6
    Direction::Right, // D7
];

/// Milliseconds a button must read the same before its new state counts.
pub const DEBOUNCE_MS: u8 = 20;

type ButtonPin = Pin<DynPinId, FunctionSioInput, PullUp>;

/// The buttons (to ground, with pull-ups: low = pressed), sampled once a millisecond.
pub struct Buttons {
    pins: [ButtonPin; 4],
    /// The debounced state: pressed or not.
    pressed: [bool; 4],
    /// Milliseconds the raw reading has differed from the debounced state.
    changing: [u8; 4],
}

impl Buttons {
    /// The buttons on D4, D5, D6, D7, in that order.
    pub fn new(pins: [ButtonPin; 4]) -> Buttons {
        Buttons {
            pins,
            pressed: [false; 4],
            changing: [0; 4],
        }
    }

    /// Samples every button (call once a millisecond); returns the direction of a button
    /// whose release has just been confirmed.
    pub fn sample(&mut self) -> Option<Direction> {
        let mut released = None;
        for (i, pin) in self.pins.iter_mut().enumerate() {
            let raw = pin.is_low().unwrap_or(false);
            if raw == self.pressed[i] {
                self.changing[i] = 0;
                continue;
            }
            self.changing[i] += 1;
            if self.changing[i] >= DEBOUNCE_MS {
                self.changing[i] = 0;
                self.pressed[i] = raw;
                if !raw && released.is_none() {
                    released = Some(BUTTON_DIRECTIONS[i]);
                }
            }
        }
        released
    }
}
