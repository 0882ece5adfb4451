//! The 2048 firmware for the Arduino Uno (ATmega328P, 32 KB flash, 2 KB RAM, 1 KB EEPROM).
//! Runs on the target: the LCD in page mode, the games in the EEPROM store, no QEMU path
//! (`twenty48_firmware_avr::start_uno`). See docs/firmware.md.
#![no_std]
#![no_main]
// avr-device's interrupt handlers use the `avr-interrupt` ABI (nightly only, as the target).
#![feature(abi_avr_interrupt)]

use avr_device as _;
use twenty48_firmware_avr::lcd::LcdPins;
use twenty48_firmware_avr::regs::{Pin, PORT_B, PORT_D};
use twenty48_firmware_avr::Chip;

/// The Uno's pins: buttons D4-D7 (PD4-PD7).
static UNO: Chip = Chip {
    // Its low 16 bits: the chip's number in the id made at the first boot.
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

#[avr_device::entry]
fn main() -> ! {
    // SAFETY: the interrupts the firmware turns on are USART0's receive and Timer0's compare
    // (below), whose handlers touch nothing but the receive ring and the buttons' queue.
    unsafe { avr_device::interrupt::enable() };
    twenty48_firmware_avr::start_uno(&UNO)
}

// Received bytes into the ring (see `twenty48_firmware_avr::usart`).
#[avr_device::interrupt(atmega328p)]
fn USART_RX() {
    twenty48_firmware_avr::usart::on_receive();
}

// The buttons sampled once a millisecond (see `twenty48_firmware_avr::buttons`).
#[avr_device::interrupt(atmega328p)]
fn TIMER0_COMPA() {
    // D4-D7 are PD4-PD7: one read of PIND (low = pressed).
    let pind = twenty48_firmware_avr::regs::Reg(PORT_D).read();
    twenty48_firmware_avr::buttons::on_tick(!pind >> 4);
}

#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    twenty48_firmware_avr::panic()
}
