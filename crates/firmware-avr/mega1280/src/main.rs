//! The 2048 firmware for the original Arduino Mega (ATmega1280, 128 KB flash, 8 KB RAM, 4 KB
//! EEPROM). Runs on the target. See `twenty48-firmware-avr` and docs/firmware.md.
#![no_std]
#![no_main]
// avr-device's interrupt handlers use the `avr-interrupt` ABI (nightly only, as the target).
#![feature(abi_avr_interrupt)]

use avr_device as _;
use twenty48_firmware_avr::{mega, Chip};

/// The Mega's id under QEMU (its pins and store: [`mega`]).
static MEGA: Chip = mega::chip(0xA7A7_0000_0000_1280);

#[avr_device::entry]
fn main() -> ! {
    // SAFETY: the interrupts the firmware turns on are USART0's receive and Timer0's compare
    // (below), whose handlers touch nothing but the receive ring and the buttons' queue.
    unsafe { avr_device::interrupt::enable() };
    mega::start(&MEGA)
}

// Received bytes into the ring (see `twenty48_firmware_avr::usart`).
#[avr_device::interrupt(atmega1280)]
fn USART0_RX() {
    twenty48_firmware_avr::usart::on_receive();
}

// The buttons sampled once a millisecond (see `twenty48_firmware_avr::buttons`).
#[avr_device::interrupt(atmega1280)]
fn TIMER0_COMPA() {
    use twenty48_firmware_avr::buttons;
    buttons::on_tick(buttons::pressed(&twenty48_firmware_avr::MEGA_BUTTONS));
}

#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    twenty48_firmware_avr::panic()
}
