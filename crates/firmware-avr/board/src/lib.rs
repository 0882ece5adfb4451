//! The 2048 application on AVR boards: the Arduino Mega 2560 and Uno. Runs on the target:
//! `no_std`, no heap, 16-bit pointers.
//!
//! The same application as the ARM boards (`twenty48-firmware-app`) over this board:
//! buttons D4-D7 (sampled by a timer interrupt into a queue, a move on release), the LCD12864 on the hardware SPI ([`lcd`]), the defmt
//! log out and the test script and host requests in on USART0 ([`usart`], 115,200 baud),
//! seeds from ADC noise and timer jitter ([`clock`]), and the game store in the chip's EEPROM
//! ([`flash`]: presented as NOR flash on the Megas, the byte-wise EEPROM store on the Uno).
//! The chip crates (`mega2560/`, `mega1280/`, `uno/`) give the pins and sizes ([`Chip`]) and
//! call [`start`] (the Megas) or [`start_uno`].
//!
//! Under QEMU (`qemu-system-avr -M mega2560`; the Uno has no QEMU path), which has no
//! EEPROM, no GPIO and no SPI, the board sees the EEPROM missing: the store lives in RAM, the
//! buttons are left alone, the LCD is drawn with no waits (its SPI writes go nowhere) and
//! pauses return at once. When the script ends (`q`) the firmware logs `t48 avr end` and
//! stops; QEMU cannot exit by itself, so the test stops it there.
#![no_std]
// `sleep`, `cli`, `sei` (the idle loop).
#![feature(asm_experimental_arch)]
#![deny(missing_docs)]

pub mod buttons;
pub mod clock;
pub mod flash;
pub mod lcd;
pub mod mega;
pub mod regs;
pub mod stack;
pub mod usart;

use twenty48_firmware_app::deviceproto::MAX_REQUEST;
use twenty48_firmware_app::devicestore::eeprom::{AsNor, Eeprom, EepromStore};
use twenty48_firmware_app::devicestore::Store;
use twenty48_firmware_app::script::Script;
use twenty48_firmware_app::{log_ring, Board, Framer, Input, Screen};

use crate::flash::{ChipEeprom, EepromBytes};
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

/// How the board reads USART0: the QEMU script, or the host's requests alone.
trait Link {
    /// The input `byte` completes, if any.
    fn feed(&mut self, byte: u8) -> Option<Input>;
    /// Under QEMU: no EEPROM, no buttons, no waiting.
    fn emulated(&self) -> bool;
    /// The log's link takes no bytes (QEMU's `{stall}`).
    fn stalled(&self) -> bool;
}

/// The Megas' link: the script parser (QEMU's presses, `{new ...}`, `{end}`, `{stall}`,
/// `q`), which on a chip passes on the host's requests only.
struct Scripted {
    script: Script,
    emulated: bool,
}

impl Link for Scripted {
    fn feed(&mut self, byte: u8) -> Option<Input> {
        let input = self.script.feed(byte);
        // On a chip the link carries the host's requests only, as on the Nano: presses, `q`
        // and the script's commands (`{stall}` too) are QEMU's, never a stray byte's on a
        // user's line (a `q` would stop the board).
        self.script.stalled &= self.emulated;
        input.filter(|i| self.emulated || matches!(i, Input::Request(_) | Input::BadRequest(_)))
    }
    fn emulated(&self) -> bool {
        self.emulated
    }
    fn stalled(&self) -> bool {
        self.script.stalled
    }
}

/// The Uno's link: the host's requests, and no QEMU path (its flash has no room for the
/// script parser; docs/firmware.md).
struct Requests(Framer<MAX_REQUEST>);

impl Link for Requests {
    fn feed(&mut self, byte: u8) -> Option<Input> {
        self.0.request(byte)
    }
    fn emulated(&self) -> bool {
        false
    }
    fn stalled(&self) -> bool {
        false
    }
}

/// The board: USART0 for the log and the host's requests (the script under QEMU), the
/// buttons, the clock, the LCD.
struct AvrBoard<'a, D, L, const LCD: bool> {
    link: L,
    /// The LCD when `LCD` (under QEMU too: the same drawing, the SPI writes go nowhere).
    /// `LCD` false keeps the screens' code out of the program.
    lcd: Option<&'a mut Lcd<D>>,
    /// Button releases the queue had no room for, as last logged.
    dropped: u32,
    /// Idle turns under QEMU, counted to look at the USART every 256th.
    idle: u8,
    entropy: u64,
}

impl<D: Driver, L: Link, const LCD: bool> Board for AvrBoard<'_, D, L, LCD> {
    fn next_input(&mut self) -> Input {
        loop {
            if let Some(byte) = usart::try_read() {
                if let Some(input) = self.link.feed(byte) {
                    return input;
                }
                if !self.link.stalled() {
                    log_ring::drain(self);
                }
                continue;
            }
            if self.link.emulated() {
                // No buttons to sample. Now and then a byte the receive interrupt left in
                // the USART (see `usart::take_pending`): not every time, as each look is a
                // device access QEMU serialises with its I/O thread.
                self.idle = self.idle.wrapping_add(1);
                if self.idle == 0 {
                    usart::take_pending();
                }
                continue;
            }
            if let Some(dir) = buttons::next() {
                return Input::Press(dir);
            }
            let dropped = buttons::dropped();
            if dropped != self.dropped {
                self.dropped = dropped;
                defmt::warn!("t48 avr presses dropped total={=u32}", dropped);
                log_ring::drain(self);
                continue;
            }
            sleep();
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
        if self.link.stalled() {
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
        if !self.link.emulated() {
            for _ in 0..ms {
                clock::wait_ms();
            }
            // Presses during a result screen are not moves: dropped.
            buttons::clear();
        }
    }

    fn entropy(&mut self) -> u64 {
        clock::entropy(&mut self.entropy)
    }
}

impl<'a, D, L: Link, const LCD: bool> AvrBoard<'a, D, L, LCD> {
    /// The board; on a chip (not under QEMU) the buttons' interrupt starts.
    fn new(chip: &Chip, link: L, lcd: Option<&'a mut Lcd<D>>) -> AvrBoard<'a, D, L, LCD> {
        if !link.emulated() {
            buttons::start(&chip.buttons);
        }
        AvrBoard {
            link,
            lcd,
            dropped: 0,
            idle: 0,
            entropy: 0,
        }
    }
}

/// Sleeps (idle mode: the timers and the USART run) until the next interrupt, unless a
/// received byte or a button release already waits. The buttons' interrupt wakes the chip
/// once a millisecond.
fn sleep() {
    const SMCR: regs::Reg = regs::Reg(0x53);
    // SAFETY: interrupts off while the rings are looked at, so that an interrupt cannot
    // fill one between the look and the sleep; `sei` takes effect after the next
    // instruction, so the `sleep` comes before any interrupt can run.
    unsafe {
        core::arch::asm!("cli");
        if usart::waiting() || buttons::waiting() {
            core::arch::asm!("sei");
            return;
        }
        SMCR.write(1); // SE, idle mode
        core::arch::asm!("sei", "sleep");
        SMCR.write(0);
    }
}

/// The board's id: the one kept in the `SECTOR` bytes of `eeprom` at `at` (a sector no
/// store uses), or, at the first boot, one made from the chip's number and 48 bits of
/// entropy and kept there. The chip's number alone if the EEPROM fails.
fn device_id<E: Eeprom, const SECTOR: usize>(
    entropy: &mut u64,
    chip: &Chip,
    mut eeprom: E,
    at: u16,
) -> u64 {
    let fresh = || (clock::entropy(entropy) & !0xFFFF) | (chip.device_id & 0xFFFF);
    // By reference: the Uno's game counter reads its records through the same type.
    let mut flash = AsNor::<&mut E, SECTOR>(&mut eeprom);
    match twenty48_firmware_app::devicestore::device_id(&mut flash, u32::from(at), fresh) {
        Ok((id, _)) => id,
        Err(_) => chip.device_id,
    }
}

/// Plays on the store in the first `len` bytes of EEPROM in `SECTOR`-byte sectors; the
/// sector after them keeps the board's id. The LCD (its frame on this function's stack) if
/// `LCD`.
#[inline(never)]
fn run_on_eeprom<D: Driver, const SECTOR: usize, const LCD: bool>(chip: &Chip, len: u16) {
    let mut lcd = LCD.then(|| Lcd::<D>::new(&chip.lcd, false));
    let mut board = AvrBoard::<D, _, LCD>::new(chip, Scripted::new(false), lcd.as_mut());
    let id = device_id::<_, SECTOR>(
        &mut board.entropy,
        chip,
        EepromBytes::eeprom(len + SECTOR as u16),
        len,
    );
    play::<D, SECTOR, LCD>(&mut board, id, EepromBytes::eeprom(len));
    end(&mut board);
}

/// Plays on a store in a RAM buffer of `RAM` bytes on the stack (QEMU: no EEPROM; the LCD
/// drawn if `LCD`, with no waits, into an SPI that is not there).
#[inline(never)]
fn run_on_ram<D: Driver, const SECTOR: usize, const RAM: usize, const LCD: bool>(chip: &Chip) {
    let mut lcd = LCD.then(|| Lcd::<D>::new(&chip.lcd, true));
    if LCD && D::SELF_CHECK {
        lcd::self_check();
    }
    let mut board = AvrBoard::<D, _, LCD>::new(chip, Scripted::new(true), lcd.as_mut());
    let mut buf = [0u8; RAM];
    play::<D, SECTOR, LCD>(&mut board, chip.device_id, EepromBytes::ram(&mut buf));
    end(&mut board);
}

/// Plays with the game store on `eeprom` presented as NOR flash of `SECTOR`-byte sectors.
fn play<D: Driver, const SECTOR: usize, const LCD: bool>(
    board: &mut AvrBoard<D, Scripted, LCD>,
    device_id: u64,
    eeprom: EepromBytes,
) {
    match Store::open(AsNor::<_, SECTOR>(eeprom)) {
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
fn end<D: Driver, L: Link, const LCD: bool>(board: &mut AvrBoard<D, L, LCD>) {
    let (peak, room) = stack::peak();
    defmt::info!("t48 avr stack peak={=u16} room={=u16}", peak, room);
    defmt::info!("t48 avr end");
    while log_ring::drain(board) > 0 {}
}

impl Scripted {
    fn new(emulated: bool) -> Scripted {
        Scripted {
            script: Script::new(),
            emulated,
        }
    }
}

/// Runs a Mega-like board: the store in the first `EEPROM` bytes of EEPROM in
/// `SECTOR`-byte sectors and the board's id in the sector after them (under QEMU: the store
/// in `RAM` bytes of RAM, the id [`Chip::device_id`]). `LCD`: drive the LCD with `D` (under
/// QEMU the drawing runs and its SPI writes go nowhere). Returns only under QEMU's script
/// end (`q`): the log then says `t48 avr end` and the chip idles.
pub fn start<
    D: Driver,
    const SECTOR: usize,
    const EEPROM: u16,
    const RAM: usize,
    const LCD: bool,
>(
    chip: &Chip,
) -> ! {
    // The store needs sectors of at least its smallest.
    const {
        assert!(
            SECTOR as u32 >= twenty48_firmware_app::devicestore::nor::MIN_SECTOR_SIZE,
            "the game store needs sectors of at least 128 bytes"
        )
    };
    stack::paint();
    usart::init();
    clock::init();
    if flash::present() {
        run_on_eeprom::<D, SECTOR, LCD>(chip, EEPROM);
    } else {
        run_on_ram::<D, SECTOR, RAM, LCD>(chip);
    }
    idle()
}

/// Runs the Uno: the LCD in page mode ([`Paged`]), the EEPROM store
/// (`twenty48_devicestore::eeprom::EepromStore`: the game counter in bytes 0..32, the games
/// in blocks around the id) on its 1 KB EEPROM, the board's id at byte 896, the host's
/// requests on USART0. No QEMU path: its flash has no room for the script parser and the
/// RAM store (docs/firmware.md, "The Uno: how the store and the pull fit").
pub fn start_uno(chip: &Chip) -> ! {
    // No stack paint: only the QEMU path reports the stack's peak (`t48 avr stack`); simavr
    // measures the Uno's from outside.
    usart::init();
    clock::init();
    let mut lcd = Lcd::<Paged>::new(&chip.lcd, false);
    let link = Requests(Framer::new());
    let mut board = AvrBoard::<Paged, _, true>::new(chip, link, Some(&mut lcd));
    let id = device_id::<_, 16>(&mut board.entropy, chip, ChipEeprom { len: 912 }, 896);
    match EepromStore::open(ChipEeprom { len: 1024 }) {
        Ok(mut store) => twenty48_firmware_app::run(
            &mut board,
            twenty48_firmware_app::DEFAULT_RULES,
            &mut store,
            id,
        ),
        Err(_) => defmt::error!("t48 avr store refused the EEPROM"),
    }
    idle()
}

/// The log's link with the `direct-log` feature: USART0, blocking (see
/// `twenty48_firmware_app::log_ring`).
#[cfg(feature = "direct-log")]
#[no_mangle]
fn twenty48_log_write(bytes: &[u8]) {
    for &b in bytes {
        usart::write(b);
    }
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
