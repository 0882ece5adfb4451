//! The 2048 application on AVR boards: the Arduino Mega 2560 and Uno. Runs on the target:
//! `no_std`, no heap, 16-bit pointers.
//!
//! The same application as the ARM boards (`twenty48-firmware-app`) over this board:
//! buttons D4-D7 (a move on release), the LCD12864 on the hardware SPI ([`lcd`]), the defmt
//! log out and the test script and host requests in on USART0 ([`usart`], 115,200 baud),
//! seeds from ADC noise and timer jitter ([`clock`]), and the game store in the chip's EEPROM
//! presented as NOR flash ([`flash`]). The chip crates (`mega2560/`, `uno/`) give the pins and sizes
//! ([`Chip`]) and call [`start`].
//!
//! Under QEMU (`qemu-system-avr -M mega2560` / `-M uno`), which has no EEPROM, no GPIO and
//! no SPI, the board sees the EEPROM missing: the store lives in RAM, the buttons are left
//! alone, the LCD is drawn with no waits (its SPI writes go nowhere) and pauses return at
//! once. When the script ends (`q`) the firmware
//! logs `t48 avr end` and stops; QEMU cannot exit by itself, so the test stops it there.
#![no_std]
#![deny(missing_docs)]

pub mod buttons;
pub mod clock;
pub mod flash;
pub mod lcd;
pub mod mega;
pub mod regs;
pub mod stack;
pub mod usart;

use twenty48_firmware_app::devicestore::{GameCounter, Store};
use twenty48_firmware_app::script::Script;
use twenty48_firmware_app::{log_ring, Board, Counted, Input, Screen};

use crate::buttons::Buttons;
use crate::flash::EepromFlash;
use crate::lcd::{Driver, Lcd, LcdPins};
use crate::regs::Pin;

pub use twenty48_panel::{Paged, St7920};

/// What differs between the chips.
#[derive(Debug)]
pub struct Chip {
    /// The device id under QEMU (no EEPROM to keep one in). On a chip the id is made at the
    /// first boot and kept in the EEPROM's last sector ([`device_id`]); its low 16 bits are
    /// this one's (the chip's number), the other 48 drawn from ADC noise and timer jitter.
    pub device_id: u64,
    /// The buttons on D4, D5, D6, D7.
    pub buttons: [Pin; 4],
    /// The LCD's pins (driven when [`start`]'s `LCD` is true).
    pub lcd: LcdPins,
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

/// The Arduino Mega's LCD pins (the same on the ATmega1280 and the ATmega2560): CS D10 (PB4)
/// and reset D12 (PB6) as the sketch, the hardware SPI on D50-D53 (SS D53 = PB0, SCK D52 =
/// PB1, MOSI D51 = PB2).
pub const MEGA_LCD: LcdPins = LcdPins {
    cs: Pin {
        port: regs::PORT_B,
        bit: 4,
    },
    reset: Pin {
        port: regs::PORT_B,
        bit: 6,
    },
    ss: Pin {
        port: regs::PORT_B,
        bit: 0,
    },
    mosi: Pin {
        port: regs::PORT_B,
        bit: 2,
    },
    sck: Pin {
        port: regs::PORT_B,
        bit: 1,
    },
};

/// The board: USART0 for the log and the script, the buttons, the clock, the LCD.
struct AvrBoard<'a, D, const LCD: bool> {
    script: Script,
    buttons: Buttons,
    /// The LCD when `LCD` (under QEMU too: the same drawing, the SPI writes go nowhere).
    /// `LCD` false keeps the screens' code out of the program.
    lcd: Option<&'a mut Lcd<D>>,
    /// QEMU: no EEPROM, no buttons, no screen, no waiting.
    emulated: bool,
    /// Timer count of the last button sample.
    sampled: u16,
    /// Idle turns under QEMU, counted to look at the USART every 256th.
    idle: u8,
    entropy: u64,
}

impl<D: Driver, const LCD: bool> Board for AvrBoard<'_, D, LCD> {
    fn next_input(&mut self) -> Input {
        loop {
            if let Some(byte) = usart::try_read() {
                if let Some(input) = self.script.feed(byte) {
                    // On a chip the link carries the host's requests only, as on the
                    // Nano: presses, `q` and the script's commands are QEMU's, never a
                    // stray byte's on a user's line (a `q` would stop the board).
                    if self.emulated || matches!(input, Input::Request(_) | Input::BadRequest(_)) {
                        return input;
                    }
                }
                // `{stall}` too is QEMU's.
                self.script.stalled &= self.emulated;
                if !self.script.stalled {
                    log_ring::drain(self);
                }
                continue;
            }
            if self.emulated {
                // No buttons to sample. Now and then a byte the receive interrupt left in
                // the USART (see `usart::take_pending`): not every time, as each look is a
                // device access QEMU serialises with its I/O thread.
                self.idle = self.idle.wrapping_add(1);
                if self.idle == 0 {
                    usart::take_pending();
                }
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

    fn show(&mut self, screen: &Screen) {
        if LCD {
            if let Some(lcd) = self.lcd.as_mut() {
                lcd.show(screen);
            }
        }
    }

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
fn device_id<D: Driver, const SECTOR: usize, const LCD: bool>(
    board: &mut AvrBoard<D, LCD>,
    chip: &Chip,
    at: u16,
) -> u64 {
    let mut eeprom = EepromFlash::<SECTOR>::eeprom(at + SECTOR as u16);
    let fresh = || (board.entropy() & !0xFFFF) | (chip.device_id & 0xFFFF);
    match twenty48_firmware_app::devicestore::device_id(&mut eeprom, u32::from(at), fresh) {
        Ok((id, _)) => id,
        Err(_) => chip.device_id,
    }
}

/// Plays on a store (`STORE`; else a game counter) of the first `len` bytes of EEPROM in
/// `SECTOR`-byte sectors; the sector after them keeps the board's id. The LCD (its frames on
/// this function's stack) if `LCD`.
#[inline(never)]
fn run_on_eeprom<D: Driver, const SECTOR: usize, const LCD: bool, const STORE: bool>(
    chip: &Chip,
    len: u16,
) {
    let mut lcd = if LCD {
        Some(Lcd::<D>::new(&chip.lcd, false))
    } else {
        None
    };
    let mut board = AvrBoard::<D, LCD>::new(chip, false, lcd.as_mut());
    let id = device_id::<D, SECTOR, LCD>(&mut board, chip, len);
    play::<D, SECTOR, LCD, STORE>(&mut board, id, EepromFlash::<SECTOR>::eeprom(len));
    end(&mut board);
}

/// Plays on a store (`STORE`; else a game counter) in a RAM buffer of `RAM` bytes on the
/// stack (QEMU: no EEPROM; the LCD drawn if `LCD`, with no waits, into an SPI that is not
/// there).
#[inline(never)]
fn run_on_ram<
    D: Driver,
    const SECTOR: usize,
    const RAM: usize,
    const LCD: bool,
    const STORE: bool,
>(
    chip: &Chip,
) {
    let mut lcd = if LCD {
        Some(Lcd::<D>::new(&chip.lcd, true))
    } else {
        None
    };
    if LCD && D::SELF_CHECK {
        lcd::self_check();
    }
    let mut board = AvrBoard::<D, LCD>::new(chip, true, lcd.as_mut());
    let mut buf = [0u8; RAM];
    play::<D, SECTOR, LCD, STORE>(
        &mut board,
        chip.device_id,
        EepromFlash::<SECTOR>::ram(&mut buf),
    );
    end(&mut board);
}

/// Plays with the game store on `flash` (`STORE`), or with only the game counter in its
/// first two sectors.
fn play<D: Driver, const SECTOR: usize, const LCD: bool, const STORE: bool>(
    board: &mut AvrBoard<D, LCD>,
    device_id: u64,
    flash: EepromFlash<SECTOR>,
) {
    if !STORE {
        let mut flash = flash;
        match GameCounter::open(&mut flash, 0) {
            Ok(counter) => twenty48_firmware_app::run(
                board,
                twenty48_firmware_app::DEFAULT_RULES,
                &mut Counted::new(flash, counter),
                device_id,
            ),
            Err(_) => defmt::error!("t48 avr counter refused the EEPROM"),
        }
        return;
    }
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

/// The script's end: the stack's peak, the end marker, and the log sent.
fn end<D: Driver, const LCD: bool>(board: &mut AvrBoard<D, LCD>) {
    let (peak, room) = stack::peak();
    defmt::info!("t48 avr stack peak={=u16} room={=u16}", peak, room);
    defmt::info!("t48 avr end");
    while log_ring::drain(board) > 0 {}
}

impl<'a, D, const LCD: bool> AvrBoard<'a, D, LCD> {
    fn new(chip: &Chip, emulated: bool, lcd: Option<&'a mut Lcd<D>>) -> AvrBoard<'a, D, LCD> {
        AvrBoard {
            script: Script::new(),
            buttons: Buttons::new(chip.buttons),
            lcd,
            emulated,
            sampled: 0,
            idle: 0,
            entropy: 0,
        }
    }
}

/// Runs the board: the store in the first `EEPROM` bytes of EEPROM in `SECTOR`-byte sectors
/// and the board's id in the sector after them (under QEMU: the store in `RAM` bytes of RAM,
/// the id [`Chip::device_id`]). `LCD`: drive the LCD with `D` (under QEMU the drawing runs
/// and its SPI writes go nowhere). `STORE` false: no game store, only a game counter in the
/// first two sectors (numbers never repeat across power cycles), and `{pull}`/`{ack}`
/// answered with an error frame (no store); the games are logged live as on every board.
/// Returns only under QEMU's script end (`q`): the log then says `t48 avr end` and the chip
/// idles.
pub fn start<
    D: Driver,
    const SECTOR: usize,
    const EEPROM: u16,
    const RAM: usize,
    const LCD: bool,
    const STORE: bool,
>(
    chip: &Chip,
) -> ! {
    // A store needs sectors of at least its smallest (the Uno's 16-byte counter sectors
    // would make `Store::open` fail, and the compiler would delete the whole application).
    const {
        assert!(
            !STORE || SECTOR as u32 >= twenty48_firmware_app::devicestore::nor::MIN_SECTOR_SIZE,
            "the game store needs sectors of at least 128 bytes"
        )
    };
    stack::paint();
    usart::init();
    clock::init();
    if flash::present() {
        run_on_eeprom::<D, SECTOR, LCD, STORE>(chip, EEPROM);
    } else {
        run_on_ram::<D, SECTOR, RAM, LCD, STORE>(chip);
    }
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
