//! The 2048 firmware for the Arduino Uno (ATmega328P, 32 KB flash, 2 KB RAM, 1 KB EEPROM).
//! Runs on the target. See `twenty48-firmware-avr` and docs/firmware.md.
#![no_std]
#![no_main]
// avr-device's interrupt handlers use the `avr-interrupt` ABI (nightly only, as the target).
#![feature(abi_avr_interrupt)]

use avr_device as _;
use twenty48_firmware_avr::lcd::LcdPins;
use twenty48_firmware_avr::regs::{Pin, PORT_B, PORT_D};
use twenty48_firmware_avr::Chip;
use twenty48_firmware_avr::Paged;

/// Bytes of an EEPROM sector: one 16-byte record (the game counter's, the id's). With the
/// store (`STORE`) it would be 128, the store's smallest sector (`start` refuses to build a
/// store of smaller ones): the store in the first 7 sectors, the id in the 8th.
const SECTOR: usize = 16;
/// The game counter in the first two sectors; the board's id at byte 896 (where the Uno's
/// id has always been kept).
const EEPROM: u16 = 896;
/// The game counter under QEMU (no EEPROM there): two sectors of RAM.
const RAM: usize = 2 * SECTOR;
/// No game store: its code and the pull's do not fit in the Uno's 32,256 bytes of flash
/// beside the game, the log and the LCD (docs/firmware.md gives the bytes). The games are
/// logged live; `{pull}` and `{ack}` are answered with an error frame.
const STORE: bool = false;

/// The Uno's pins: buttons D4-D7 (PD4-PD7).
static UNO: Chip = Chip {
    device_id: 0xA7A7_0000_0000_0328,
    buttons: [
        Pin {
            port: PORT_D,
            bit: 4,
        },
        Pin {
            port: PORT_D,
            bit: 5,
        },
        Pin {
            port: PORT_D,
            bit: 6,
        },
        Pin {
            port: PORT_D,
            bit: 7,
        },
    ],
    // CS D10 (PB2, also the SPI's SS), reset D12 (PB4), MOSI D11 (PB3), SCK D13 (PB5).
    lcd: LcdPins {
        cs: Pin {
            port: PORT_B,
            bit: 2,
        },
        reset: Pin {
            port: PORT_B,
            bit: 4,
        },
        ss: Pin {
            port: PORT_B,
            bit: 2,
        },
        mosi: Pin {
            port: PORT_B,
            bit: 3,
        },
        sck: Pin {
            port: PORT_B,
            bit: 5,
        },
    },
};

/// On, in page mode: no frame of what the panel shows (it would not fit in 2 KB of RAM beside
/// the application); every screen is sent whole, a band at a time.
const LCD: bool = true;

#[avr_device::entry]
fn main() -> ! {
    // SAFETY: the only interrupt the firmware turns on is USART0's receive (below), whose
    // handler touches nothing but the receive ring.
    unsafe { avr_device::interrupt::enable() };
    twenty48_firmware_avr::start::<Paged, SECTOR, EEPROM, RAM, LCD, STORE>(&UNO)
}

// Received bytes into the ring (see `twenty48_firmware_avr::usart`).
#[avr_device::interrupt(atmega328p)]
fn USART_RX() {
    twenty48_firmware_avr::usart::on_receive();
}

#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    twenty48_firmware_avr::panic()
}
