//! The four buttons: sampled once a millisecond from the timer's alarm 0 interrupt into a
//! queue of releases (the debounce and the queue are `twenty48-buttons`, tested on the host
//! with pin traces), so no press is lost while the main loop redraws the screen; and the one
//! table that maps buttons to directions.

use core::cell::RefCell;

use critical_section::Mutex;
use rp2040_hal::fugit::ExtU32;
use rp2040_hal::pac::{self, interrupt};
use rp2040_hal::timer::{Alarm, Alarm0};
use twenty48_buttons::Buttons;
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

/// The first button's GPIO: D4-D7 are GPIO16-GPIO19 on this board.
const FIRST_GPIO: u32 = 16;

/// The debounced buttons and their queue, shared with the interrupt.
static BUTTONS: Mutex<RefCell<Buttons<4>>> = Mutex::new(RefCell::new(Buttons::new()));
/// The alarm that paces the samples.
static ALARM: Mutex<RefCell<Option<Alarm0>>> = Mutex::new(RefCell::new(None));

/// Starts sampling (the pins must already be inputs with pull-ups).
pub fn start(mut alarm: Alarm0) {
    let _ = alarm.schedule(1.millis());
    alarm.enable_interrupt();
    critical_section::with(|cs| ALARM.borrow_ref_mut(cs).replace(alarm));
    // SAFETY: the handler only touches ALARM and BUTTONS, inside critical sections.
    unsafe { pac::NVIC::unmask(pac::Interrupt::TIMER_IRQ_0) };
}

/// The oldest release not yet taken, as a direction.
pub fn next() -> Option<Direction> {
    critical_section::with(|cs| BUTTONS.borrow_ref_mut(cs).pop())
        .map(|i| BUTTON_DIRECTIONS[i as usize])
}

/// Forgets the releases waiting (presses during a result screen are not moves).
pub fn clear() {
    critical_section::with(|cs| BUTTONS.borrow_ref_mut(cs).clear());
}

/// The pressed buttons in a GPIO_IN reading: they pull to ground, low = pressed.
fn pressed(levels: u32) -> u8 {
    (!levels >> FIRST_GPIO) as u8 & 0x0F
}

/// Readings of GPIO_IN taken once a millisecond while the timer interrupt could not run (a
/// sector erase), fed to the debounce in order, as the interrupt would have.
pub fn replay(levels: &[u32]) {
    critical_section::with(|cs| {
        let mut buttons = BUTTONS.borrow_ref_mut(cs);
        for &l in levels {
            buttons.sample(pressed(l));
        }
    });
}

#[interrupt]
fn TIMER_IRQ_0() {
    // SAFETY: a read of the GPIO input register, which nothing writes.
    let levels = unsafe { (*pac::SIO::ptr()).gpio_in().read().bits() };
    critical_section::with(|cs| {
        BUTTONS.borrow_ref_mut(cs).sample(pressed(levels));
        if let Some(alarm) = ALARM.borrow_ref_mut(cs).as_mut() {
            alarm.clear_interrupt();
            let _ = alarm.schedule(1.millis());
        }
    });
}
