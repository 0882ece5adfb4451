//! The 2048 application on QEMU's `lm3s6965evb`, for tests. Runs on the (emulated) target.
//!
//! Bytes arriving on UART0 are a script of button presses and commands (see [`script`] and
//! docs/firmware.md); the defmt log goes out on UART0. When the script ends (`q`), the
//! firmware sends what is left of the log and leaves QEMU through semihosting.
#![no_std]
#![no_main]

mod script;
mod uart;

use cortex_m_rt::entry;
// Linked for its interrupt vector table.
use cortex_m_semihosting::debug::{self, EXIT_FAILURE, EXIT_SUCCESS};
use lm3s6965 as _;
use twenty48_firmware_app::{Board, Input, Screen};

use crate::script::Script;
use crate::uart::Uart0;

/// The emulated board: UART0 for everything, no screen, no clock to wait on.
struct QemuBoard {
    uart: Uart0,
    script: Script,
    /// Seeds for games started by a button on the start screen: 1, 2, 3, ...
    next_seed: u64,
}

impl Board for QemuBoard {
    fn next_input(&mut self) -> Input {
        loop {
            let byte = self.uart.read_byte();
            if let Some(input) = self.script.feed(byte) {
                return input;
            }
        }
    }

    fn show(&mut self, _screen: &Screen) {}

    fn write_log(&mut self, bytes: &[u8]) -> usize {
        for &b in bytes {
            self.uart.write_byte(b);
        }
        bytes.len()
    }

    fn pause(&mut self, _ms: u32) {}

    fn entropy(&mut self) -> u64 {
        self.next_seed += 1;
        self.next_seed
    }
}

#[entry]
fn main() -> ! {
    let mut board = QemuBoard {
        uart: Uart0::take(),
        script: Script::new(),
        next_seed: 0,
    };
    twenty48_firmware_app::run(&mut board, twenty48_firmware_app::DEFAULT_RULES);
    debug::exit(EXIT_SUCCESS);
    loop {
        cortex_m::asm::wfi();
    }
}

/// The critical section of a single-core Cortex-M: interrupts off, then back as they were.
struct SingleCore;
critical_section::set_impl!(SingleCore);

// SAFETY: one core; masking interrupts excludes every other context.
unsafe impl critical_section::Impl for SingleCore {
    unsafe fn acquire() -> u8 {
        let was_active = cortex_m::register::primask::read().is_active();
        cortex_m::interrupt::disable();
        was_active as u8
    }

    unsafe fn release(was_active: u8) {
        if was_active != 0 {
            // SAFETY: interrupts were enabled before the matching `acquire`.
            unsafe { cortex_m::interrupt::enable() };
        }
    }
}

#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    debug::exit(EXIT_FAILURE);
    loop {
        cortex_m::asm::wfi();
    }
}
