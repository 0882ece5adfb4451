//! The four buttons: sampled once a millisecond by Timer0's compare interrupt into the
//! debounce and the queue of releases of `twenty48-buttons` (the Nano's, tested on the host
//! with pin traces), so that a press made while the board draws its screen, writes its
//! store or sends its log waits in the queue instead of being missed; and the one table that
//! maps buttons to directions.
//!
//! Timer0 runs in CTC mode at clk/64 with OCR0A = 249: 16 MHz / 64 / 250 = 1 kHz. Each
//! chip's `main.rs` installs [`on_tick`] as its TIMER0_COMPA handler. The queue holds 16
//! releases; one that finds it full, and those a pause clears, are counted ([`dropped`]) and
//! the board logs the count.

use core::cell::UnsafeCell;

use twenty48_buttons::Buttons;
use twenty48_firmware_app::engine::Direction;

use crate::regs::{Pin, Reg};

/// The direction of each button, in pin order D4, D5, D6, D7 (as the sketch wired them:
/// up, down, left, right). The panel is mounted rotated 180 degrees; if your buttons sit
/// differently, this table is the one place to change.
pub const BUTTON_DIRECTIONS: [Direction; 4] = [
    Direction::Up,    // D4
    Direction::Down,  // D5
    Direction::Left,  // D6
    Direction::Right, // D7
];

const TCCR0A: Reg = Reg(0x44);
const TCCR0B: Reg = Reg(0x45);
const OCR0A: Reg = Reg(0x47);
const TIMSK0: Reg = Reg(0x6E);

/// The debounce and the queue, shared by the interrupt (which runs with interrupts off)
/// and the application (which takes them off around each use).
struct Shared(UnsafeCell<Buttons<4>>);

// SAFETY: single core; every access is made with interrupts off (see `with`).
unsafe impl Sync for Shared {}

static BUTTONS: Shared = Shared(UnsafeCell::new(Buttons::new()));

/// Runs `f` on the buttons with interrupts off.
fn with<R>(f: impl FnOnce(&mut Buttons<4>) -> R) -> R {
    // SAFETY: interrupts are off, and the interrupt handler is the only other user.
    critical_section::with(|_| f(unsafe { &mut *BUTTONS.0.get() }))
}

/// Turns the pull-ups of the buttons on `pins` (D4, D5, D6, D7) on and starts the
/// millisecond interrupt. The chip's interrupts must be enabled for it to run.
pub fn start(pins: &[Pin; 4]) {
    for pin in pins {
        pin.input_pull_up();
    }
    OCR0A.write(249);
    TCCR0A.write(1 << 1); // WGM01: CTC
    TCCR0B.write(0b011); // clk/64
    TIMSK0.write(1 << 1); // OCIE0A
}

/// The millisecond interrupt's work: one sample of the buttons, `pressed` their state (bit
/// `i` set: button `i` of D4, D5, D6, D7 is down), read by the chip's handler from its pins
/// ([`pressed`]). Runs with interrupts off (an AVR handler's own state).
pub fn on_tick(pressed: u8) {
    // SAFETY: a handler runs with interrupts off: nothing else touches the buttons now.
    unsafe { (*BUTTONS.0.get()).sample(pressed) };
}

/// The buttons down among `pins` (D4, D5, D6, D7; low = pressed), a bit each.
#[inline(always)]
pub fn pressed(pins: &[Pin; 4]) -> u8 {
    let mut raw = 0;
    for (i, pin) in pins.iter().enumerate() {
        if pin.is_low() {
            raw |= 1 << i;
        }
    }
    raw
}

/// The direction of the oldest release not yet taken.
pub fn next() -> Option<Direction> {
    with(|b| b.pop()).map(|i| BUTTON_DIRECTIONS[usize::from(i & 3)])
}

/// Forgets the releases waiting, counting them as dropped (presses during a result screen
/// are not moves).
pub fn clear() {
    with(|b| b.clear());
}

/// Releases never taken since power-on: the queue had no room, or a pause cleared them.
pub fn dropped() -> u32 {
    with(|b| b.dropped())
}

/// Whether a release waits.
pub fn waiting() -> bool {
    with(|b| !b.is_empty())
}
