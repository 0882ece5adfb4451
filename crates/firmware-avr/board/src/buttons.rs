//! The four buttons: debounced, a move on release, and the one table that maps them to
//! directions.

use twenty48_firmware_app::engine::Direction;

use crate::regs::Pin;

/// The direction of each button, in pin order D4, D5, D6, D7 (as the sketch wired them:
/// up, down, left, right). The panel is mounted rotated 180 degrees; if your buttons sit
/// differently, this table is the one place to change.
pub const BUTTON_DIRECTIONS: [Direction; 4] = [
    Direction::Up,    // D4
    Direction::Down,  // D5
    Direction::Left,  // D6
    Direction::Right, // D7
];

/// Milliseconds a button must read the same before its new state counts.
pub const DEBOUNCE_MS: u8 = 20;

/// The buttons (to ground, with pull-ups: low = pressed), sampled once a millisecond.
#[derive(Debug)]
pub struct Buttons {
    pins: [Pin; 4],
    /// The debounced state, a bit a button: pressed.
    pressed: u8,
    /// Milliseconds the raw reading has differed from the debounced state.
    changing: [u8; 4],
}

impl Buttons {
    /// The buttons on D4, D5, D6, D7, in that order; turns their pull-ups on.
    pub fn new(pins: [Pin; 4]) -> Buttons {
        for pin in pins {
            pin.input_pull_up();
        }
        Buttons {
            pins,
            pressed: 0,
            changing: [0; 4],
        }
    }

    /// Samples every button (call once a millisecond); returns the direction of a button
    /// whose release has just been confirmed.
    pub fn sample(&mut self) -> Option<Direction> {
        let mut released = None;
        for (i, pin) in self.pins.iter().enumerate() {
            let bit = 1 << i;
            let raw = pin.is_low();
            if raw == (self.pressed & bit != 0) {
                self.changing[i] = 0;
                continue;
            }
            self.changing[i] += 1;
            if self.changing[i] >= DEBOUNCE_MS {
                self.changing[i] = 0;
                self.pressed ^= bit;
                if !raw && released.is_none() {
                    released = Some(BUTTON_DIRECTIONS[i]);
                }
            }
        }
        released
    }
}
