//! The 2048 firmware for the original Arduino Mega (ATmega1280, 128 KB flash, 8 KB RAM, 4 KB
//! EEPROM). Runs on the target. See `twenty48-firmware-avr` and docs/firmware.md.
#![no_std]
#![no_main]

use avr_device as _;
use twenty48_firmware_avr::regs::{Pin, PORT_E, PORT_G, PORT_H};
use twenty48_firmware_avr::Chip;

/// Bytes of a store sector (the EEPROM is 16 of them; devicestore's power-cut and capacity
/// tests run at this size).
const SECTOR: usize = 256;
/// The store: the whole EEPROM.
const EEPROM: u16 = 4096;
/// The store under QEMU (no EEPROM there): 4 sectors of RAM, on the stack (the application
/// needs most of the other 7 KB for its own stack).
const RAM: usize = 1024;

/// The Mega pins (the same on the 1280 and the 2560): buttons D4 (PG5), D5 (PE3), D6 (PH3), D7 (PH4).
static MEGA: Chip = Chip {
    device_id: 0xA7A7_0000_0000_1280,
    buttons: [
        Pin {
            port: PORT_G,
            bit: 5,
        },
        Pin {
            port: PORT_E,
            bit: 3,
        },
        Pin {
            port: PORT_H,
            bit: 3,
        },
        Pin {
            port: PORT_H,
            bit: 4,
        },
    ],
};

#[avr_device::entry]
fn main() -> ! {
    twenty48_firmware_avr::start::<SECTOR, EEPROM, RAM>(&MEGA)
}

#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    twenty48_firmware_avr::panic()
}
