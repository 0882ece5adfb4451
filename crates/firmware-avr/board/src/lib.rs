//! The 2048 application on AVR boards: the Arduino Mega 2560 and Uno. Runs on the target:
//! `no_std`, no heap, 16-bit pointers.
//!
//! The same application as the ARM boards (`twenty48-firmware-app`) over this board:
//! buttons D4-D7 (a move on release), the LCD12864 on hardware SPI, the defmt log out and
//! the test script and host requests in on USART0 ([`usart`], 115,200 baud), seeds from ADC
//! noise and timer jitter ([`clock`]), and the game store in the chip's EEPROM presented as
//! NOR flash ([`flash`]). The chip crates (`mega2560/`, `uno/`) give the pins and sizes
//! ([`Chip`]) and call [`start`].
//!
//! Under QEMU (`qemu-system-avr -M mega2560` / `-M uno`), which has no EEPROM, no GPIO and
//! no SPI, the board sees the EEPROM missing: the store lives in RAM, the buttons and the
//! LCD are left alone and pauses return at once. When the script ends (`q`) the firmware
//! logs `t48 avr end` and stops; QEMU cannot exit by itself, so the test stops it there.
#![no_std]
#![deny(missing_docs)]

pub mod buttons;
pub mod clock;
pub mod flash;
pub mod regs;
pub mod usart;

use twenty48_firmware_app::devicestore::Store;
use twenty48_firmware_app::script::Script;
use twenty48_firmware_app::{log_ring, Board, Input, Screen};

use crate::buttons::Buttons;
use crate::flash::EepromFlash;
use crate::regs::Pin;

/// What differs between the chips.
#[derive(Debug)]
pub struct Chip {
    /// The device id under QEMU (no EEPROM to keep one in). On a chip the id is made at the
    /// first boot and kept in the EEPROM's last sector ([`device_id`]); its low 16 bits are
    /// this one's (the chip's number), the other 48 drawn from ADC noise and timer jitter.
    pub device_id: u64,
    /// The buttons on D4, D5, D6, D7.
    pub buttons: [Pin; 4],
}

/// The Arduino Mega's buttons (the same pins on the ATmega1280 and the ATmega2560): D4 (PG5),
/// D5 (PE3), D6 (PH3), D7 (PH4).
pub const MEGA_BUTTONS: [Pin; 4] = [
    Pin {
        port: regs::PORT_G,
        bit: 5,
    },
    Pin {
        port: regs::PORT_E,
        bit: 3,
    },
    Pin {
        port: regs::PORT_H,
        bit: 3,
    },
    Pin {
        port: regs::PORT_H,
        bit: 4,
    },
];

/// The board: USART0 for the log and the script, the buttons, the clock.
struct AvrBoard {
    script: Script,
    buttons: Buttons,
    /// QEMU: no EEPROM, no buttons, no screen, no waiting.
    emulated: bool,
    /// Timer count of the last button sample.
    sampled: u16,
    entropy: u64,
}

impl Board for AvrBoard {
    fn next_input(&mut self) -> Input {
        loop {
            if let Some(byte) = usart::try_read() {
                if let Some(input) = self.script.feed(byte) {
                    return input;
                }
                if !self.script.stalled {
                    log_ring::drain(self);
                }
                continue;
            }
            if self.emulated {
                continue;
            }
            if clock::now().wrapping_sub(self.sampled) >= clock::TICKS_PER_MS {
                self.sampled = clock::now();
                if let Some(dir) = self.buttons.sample() {
                    return Input::Press(dir);
                }
            }
        }
    }

    fn show(&mut self, _screen: &Screen) {}

    fn write_log(&mut self, bytes: &[u8]) -> usize {
        if self.script.stalled {
            return 0;
        }
        for &b in bytes {
            usart::write(b);
        }
        bytes.len()
    }

    fn wait_link(&mut self) -> bool {
        // Writes are blocking: a link that took nothing is stalled.
        false
    }

    fn pause(&mut self, ms: u32) {
        if !self.emulated {
            for _ in 0..ms {
                clock::wait_ms();
            }
        }
    }

    fn entropy(&mut self) -> u64 {
        clock::entropy(&mut self.entropy)
    }
}

/// The board's id: the one kept at EEPROM byte `at` (the last sector, which the store
/// leaves alone), or, at the first boot, one made from the chip's number and 48 bits of
/// entropy and kept there. The chip's number alone if the EEPROM fails.
fn device_id<const SECTOR: usize>(board: &mut AvrBoard, chip: &Chip, at: u16) -> u64 {
    let mut eeprom = EepromFlash::<SECTOR>::eeprom(at + SECTOR as u16);
    let fresh = || (board.entropy() & !0xFFFF) | (chip.device_id & 0xFFFF);
    match twenty48_firmware_app::devicestore::device_id(&mut eeprom, u32::from(at), fresh) {
        Ok((id, _)) => id,
        Err(_) => chip.device_id,
    }
}

/// Plays on a store of the first `len` bytes of EEPROM in `SECTOR`-byte sectors; the sector
/// after them keeps the board's id.
#[inline(never)]
fn run_on_eeprom<const SECTOR: usize>(board: &mut AvrBoard, chip: &Chip, len: u16) {
    let id = device_id::<SECTOR>(board, chip, len);
    play(board, id, EepromFlash::<SECTOR>::eeprom(len));
}

/// Plays on a store in a RAM buffer of `RAM` bytes on the stack (QEMU: no EEPROM).
#[inline(never)]
fn run_on_ram<const SECTOR: usize, const RAM: usize>(board: &mut AvrBoard, chip: &Chip) {
    let mut buf = [0u8; RAM];
    play(board, chip.device_id, EepromFlash::<SECTOR>::ram(&mut buf));
}

fn play<const SECTOR: usize>(board: &mut AvrBoard, device_id: u64, flash: EepromFlash<SECTOR>) {
    match Store::open(flash) {
        Ok(mut store) => twenty48_firmware_app::run(
            board,
            twenty48_firmware_app::DEFAULT_RULES,
            &mut store,
            device_id,
        ),
        Err(_) => defmt::error!("t48 avr store refused the EEPROM"),
    }
}

/// Runs the board: the store in the first `EEPROM` bytes of EEPROM in `SECTOR`-byte sectors
/// and the board's id in the sector after them (under QEMU: the store in `RAM` bytes of RAM,
/// the id [`Chip::device_id`]). Returns only under QEMU's script end (`q`): the log
/// then says `t48 avr end` and the chip idles.
pub fn start<const SECTOR: usize, const EEPROM: u16, const RAM: usize>(chip: &Chip) -> ! {
    usart::init();
    clock::init();
    let emulated = !flash::present();
    let mut board = AvrBoard {
        script: Script::new(),
        buttons: Buttons::new(chip.buttons),
        emulated,
        sampled: 0,
        entropy: 0,
    };
    if emulated {
        run_on_ram::<SECTOR, RAM>(&mut board, chip);
    } else {
        run_on_eeprom::<SECTOR>(&mut board, chip, EEPROM);
    }
    defmt::info!("t48 avr end");
    while log_ring::drain(&mut board) > 0 {}
    idle()
}

/// The log's link alone, for the panic handler.
struct PanicLink;

impl Board for PanicLink {
    fn next_input(&mut self) -> Input {
        Input::End
    }
    fn show(&mut self, _screen: &Screen) {}
    fn write_log(&mut self, bytes: &[u8]) -> usize {
        for &b in bytes {
            usart::write(b);
        }
        bytes.len()
    }
    fn wait_link(&mut self) -> bool {
        false
    }
    fn pause(&mut self, _ms: u32) {}
    fn entropy(&mut self) -> u64 {
        0
    }
}

/// The boards' panic: logs `t48 avr panic` and the end marker, sends the log, idles.
pub fn panic() -> ! {
    defmt::error!("t48 avr panic");
    defmt::info!("t48 avr end");
    while log_ring::drain(&mut PanicLink) > 0 {}
    idle()
}

/// Waits for good (the log is out; nothing more to do).
fn idle() -> ! {
    loop {
        core::hint::spin_loop();
    }
}
