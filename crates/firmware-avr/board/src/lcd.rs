//! The LCD12864 (ST7920) on the chip's hardware SPI, through the `twenty48-panel` driver
//! (paced to the datasheet, redrawing only the 16-pixel words that changed; the panel
//! crate's tests check its bytes against a model of the controller).
//!
//! Screens are drawn with the panel's own renderer (`Screen::raster`: glyph tables in program
//! memory, read with `lpm`; no embedded-graphics on AVR) into a band of 4 rows at a time,
//! which the driver ([`Driver`]) sends before the next band is drawn. On the Megas the
//! driver is [`St7920`], which keeps a frame of what the panel shows (1 KB) and sends only
//! what changed; on the Uno it is [`Paged`], U8g2's page mode: no frame, a new screen sent
//! whole (106 ms at 2 MHz), a move only where [`Changes`] says (the cells whose tiles changed and the
//! score, from the 21 bytes of [`Shown`]). Bands a move leaves alone are not rastered. The
//! 64-byte band is the rest of the LCD's RAM. The panel crate's tests
//! check both against a model of the controller.
//!
//! SPI master, mode 3, MSB first, clk/8 = 2 MHz (the panel crate's `SPI_HZ_5V`: the panel
//! runs at 5 V on these boards, where the datasheet allows a 400 ns clock). The panel's chip
//! select is its RS pin, active high, raised around each three-byte unit; its reset is held
//! low for 100 µs before the initialisation. Under QEMU (no SPI there: its registers read 0)
//! the same code runs, with every wait skipped and the wait for each byte bounded.

use twenty48_firmware_app::deviceproto::Crc32;
use twenty48_firmware_app::screen::Grid;
use twenty48_firmware_app::Screen;
use twenty48_panel::{Band, Changes, Link, Paged, Shown, St7920, BAND_ROWS, HEIGHT};

use crate::clock;
use crate::regs::{Pin, Reg};

const SPCR: Reg = Reg(0x4C);
const SPSR: Reg = Reg(0x4D);
const SPDR: Reg = Reg(0x4E);

/// SPCR: SPI on (SPE), master (MSTR), CPOL = CPHA = 1 (mode 3), SPR = 01 (clk/16, halved by
/// SPI2X below: clk/8 = 2 MHz, `twenty48_panel::SPI_HZ_5V`).
const SPCR_MODE3: u8 = (1 << 6) | (1 << 4) | (1 << 3) | (1 << 2) | 0b01;
/// SPSR: SPI2X, the double speed.
const SPI2X: u8 = 1;
/// SPSR: the transfer is complete.
const SPIF: u8 = 1 << 7;
/// Polls of SPIF before a byte counts as sent: a byte takes 64 CPU cycles at clk/8, a poll
/// at least 4, so a real SPI finishes long before; QEMU's never sets SPIF.
const SPIF_POLLS: u8 = 255;

/// The pins of the panel and of the chip's SPI.
#[derive(Clone, Copy, Debug)]
pub struct LcdPins {
    /// The panel's chip select (its RS pin; D10 as the sketch).
    pub cs: Pin,
    /// The panel's reset (D12 as the sketch).
    pub reset: Pin,
    /// The SPI's SS pin: an output, or the chip would leave master mode when it reads low
    /// (the Mega's D53; the Uno's is D10, the chip select itself).
    pub ss: Pin,
    /// The SPI's data out (MOSI: Mega D51, Uno D11), to the panel's R/W (SID).
    pub mosi: Pin,
    /// The SPI's clock (SCK: Mega D52, Uno D13), to the panel's E (SCLK).
    pub sck: Pin,
}

/// The wire to the panel: the SPI with the chip select, and Timer1 to wait on.
struct Wire {
    cs: Pin,
    /// QEMU: no waits.
    emulated: bool,
}

impl Link for Wire {
    fn send(&mut self, bytes: &[u8; 3]) {
        self.cs.set(true);
        for &b in bytes {
            SPDR.write(b);
            let mut polls = 0;
            while SPSR.read() & SPIF == 0 && polls < SPIF_POLLS {
                polls += 1;
            }
        }
        self.cs.set(false);
    }

    fn delay_us(&mut self, us: u32) {
        if !self.emulated {
            clock::wait_us(us);
        }
    }
}

/// How the panel is driven: with a frame of what it shows ([`St7920`], the Megas), or in
/// page mode ([`Paged`], the Uno).
pub trait Driver: Sized {
    /// Whether the QEMU run logs [`self_check`] (the Megas; the Uno's flash has no room for
    /// it).
    const SELF_CHECK: bool;
    /// Initialises the controller just reset, and clears it.
    fn init(link: &mut impl Link) -> Self;
    /// Sends a band of the screen being drawn (bands in order), whose rows may differ from
    /// what the panel shows where `changes` says.
    fn send(&mut self, link: &mut impl Link, band: &Band, changes: &Changes);
}

impl Driver for St7920 {
    const SELF_CHECK: bool = true;
    fn init(link: &mut impl Link) -> Self {
        St7920::init(link)
    }
    fn send(&mut self, link: &mut impl Link, band: &Band, _changes: &Changes) {
        // Its frame says what differs.
        self.update_band(link, band);
    }
}

impl Driver for Paged {
    const SELF_CHECK: bool = false;
    fn init(link: &mut impl Link) -> Self {
        Paged::init(link)
    }
    fn send(&mut self, link: &mut impl Link, band: &Band, changes: &Changes) {
        self.send_band(link, band, changes);
    }
}

/// The display: the driver, the wire, and what the panel shows.
pub struct Lcd<D> {
    wire: Wire,
    driver: D,
    shown: Shown,
}

impl<D: Driver> Lcd<D> {
    /// Sets the pins up, resets and initialises the panel (about 0.3 s; needs
    /// [`clock::init`] first). `emulated`: under QEMU, no waits.
    pub fn new(pins: &LcdPins, emulated: bool) -> Lcd<D> {
        pins.ss.output(true);
        pins.cs.output(false);
        pins.mosi.output(false);
        pins.sck.output(true);
        pins.reset.output(false);
        SPCR.write(SPCR_MODE3);
        SPSR.write(SPI2X);
        let mut wire = Wire {
            cs: pins.cs,
            emulated,
        };
        wire.delay_us(100);
        pins.reset.set(true);
        let driver = D::init(&mut wire);
        Lcd {
            wire,
            driver,
            shown: Shown::UNKNOWN,
        }
    }

    /// Draws a screen band by band and sends each; after a move, only the bands the
    /// changed cells and score cross.
    pub fn show(&mut self, screen: &Screen) {
        let changes = self.shown.show(screen);
        for first in (0..HEIGHT).step_by(BAND_ROWS) {
            // The panel is mounted rotated 180 degrees: drawn flipped.
            if !changes.band(first, true) {
                continue;
            }
            let mut band = Band::new(true, first);
            screen.raster(&mut band);
            self.driver.send(&mut self.wire, &band, &changes);
        }
    }
}

/// The CRC-32 of a screen as this renderer draws it: the 64 panel rows in order, rotated as
/// mounted. The QEMU test compares it with the host's renderer, which checks the glyph
/// tables read from program memory with `lpm` on the chip's own code.
pub fn screen_check(screen: &Screen) -> u32 {
    let mut crc = Crc32::new();
    for first in (0..HEIGHT).step_by(BAND_ROWS) {
        let mut band = Band::new(true, first);
        screen.raster(&mut band);
        for y in first..first + BAND_ROWS {
            crc.update(band.row(y));
        }
    }
    crc.finish()
}

/// The screens of [`self_check`]: the start screen (the large and small fonts, a frame)
/// and a board with tiles of one to six digits and `^20` (the tiny font) and a long score.
pub fn check_screens() -> Option<[Screen; 2]> {
    let tiles = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20];
    Some([
        Screen::Start {
            rules: "arduino",
            choosable: false,
        },
        Screen::Board {
            cells: Grid::new(4, &tiles)?,
            score: 1_234_567_890,
        },
    ])
}

/// Logs `t48 avr lcd start= board=`: [`screen_check`] of the [`check_screens`].
pub fn self_check() {
    if let Some([start, board]) = check_screens() {
        let (start, board) = (screen_check(&start), screen_check(&board));
        defmt::info!("t48 avr lcd start={=u32} board={=u32}", start, board);
    }
}
