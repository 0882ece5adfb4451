//! The 2048 firmware for the Arduino Mega 2560 (ATmega2560, 256 KB flash, 8 KB RAM, 4 KB
//! EEPROM). Runs on the target. See `twenty48-firmware-avr` and docs/firmware.md.
#![no_std]
#![no_main]
// avr-device's interrupt handlers use the `avr-interrupt` ABI (nightly only, as the target).
#![feature(abi_avr_interrupt)]

use avr_device as _;
use twenty48_firmware_avr::{Chip, MEGA_BUTTONS, MEGA_LCD};

/// Bytes of a store sector (the EEPROM is 16 of them; devicestore's power-cut and capacity
/// tests run at this size).
const SECTOR: usize = 256;
/// The store: the EEPROM's first 15 sectors (the 16th keeps the board's id).
const EEPROM: u16 = 4096 - SECTOR as u16;
/// The store under QEMU (no EEPROM there): 4 sectors of RAM, on the stack (the application
/// needs most of the other 7 KB for its own stack).
const RAM: usize = 1024;

/// The Mega's id and buttons.
static MEGA: Chip = Chip {
    device_id: 0xA7A7_0000_0000_2560,
    buttons: MEGA_BUTTONS,
    lcd: MEGA_LCD,
};

/// Not yet: with the screens linked their fonts take 3.2 KB of RAM (.data: AVR constants
/// live in RAM) and the driver's frames 2 KB, past the Mega's 8 KB with the application's
/// stack; and embedded-graphics' text layout takes stack arguments, which the ATmega2560
/// misreads (docs/firmware.md).
const LCD: bool = false;

#[avr_device::entry]
fn main() -> ! {
    // SAFETY: the only interrupt the firmware turns on is USART0's receive (below), whose
    // handler touches nothing but the receive ring.
    unsafe { avr_device::interrupt::enable() };
    twenty48_firmware_avr::start::<SECTOR, EEPROM, RAM, LCD>(&MEGA)
}

// Received bytes into the ring (see `twenty48_firmware_avr::usart`).
#[avr_device::interrupt(atmega2560)]
fn USART0_RX() {
    twenty48_firmware_avr::usart::on_receive();
}

#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    twenty48_firmware_avr::panic()
}
