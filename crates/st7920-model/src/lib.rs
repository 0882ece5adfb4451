//! A model of the ST7920 LCD controller in serial mode, from its datasheet (Sitronix ST7920
//! V4.0), that decodes the SPI byte stream a driver sends and renders the 128x64 panel. It
//! panics on anything the datasheet does not allow (or that this panel cannot show): a bad
//! sync byte, a read, a nibble byte with its low bits set, a byte started while the
//! controller is still busy with the previous instruction, DL and RE changed by one function
//! set, GDRAM addresses outside the 128x64 panel, data with no GDRAM address, a word split by
//! an address. Host only; never in the firmware.
//!
//! Fed two ways: as a [`Link`] (the panel crate's driver sends to it directly, its waits
//! advance the model's clock), or byte by byte with the time each byte started on the wire
//! ([`Model::byte_at`]), as an emulator's SPI capture gives them.
//!
//! ```
//! use twenty48_panel::{Frame, Screen, St7920, SPI_HZ};
//! use twenty48_st7920_model::Model;
//!
//! let mut model = Model::new(SPI_HZ);
//! let mut lcd = St7920::init(&mut model);
//! let mut frame = Frame::new(true);
//! Screen::Start { rules: "arduino", choosable: true }.draw(&mut frame).unwrap();
//! lcd.update(&mut model, &frame);
//! assert!(model.shows(&frame));
//! ```

use twenty48_panel::{Frame, Link, HEIGHT, WIDTH};

/// Time an instruction keeps the controller busy (datasheet, at 540 kHz).
const EXEC_NS: u64 = 72_000;
/// Display clear.
const CLEAR_NS: u64 = 1_600_000;
/// From power-on (or reset) to the first instruction.
const POWER_ON_NS: u64 = 40_000_000;

/// Where the GDRAM address stands.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Address {
    /// No address set since entering the extended set.
    None,
    /// The vertical address is set; the horizontal one comes next.
    Vertical(u8),
    /// Both set: the next data byte is the high half of word `h` (or the low half, when
    /// `high` holds the high half already).
    Ready { v: u8, h: u8, high: Option<u8> },
}

/// The controller and its panel.
pub struct Model {
    spi_hz: u64,
    /// Time, from power-on, in ns.
    now: u64,
    busy_until: u64,
    unit: Vec<u8>,
    dl: bool,
    re: bool,
    graphics: bool,
    display_on: bool,
    address: Address,
    gdram: [[u16; 16]; 32],
    /// Controller bytes (instructions and data) received.
    pub bytes: usize,
    /// Instructions among them.
    pub instructions: usize,
}

impl Model {
    /// A controller just powered on, on an SPI bus clocked at `spi_hz`.
    pub fn new(spi_hz: u32) -> Model {
        Model {
            spi_hz: spi_hz as u64,
            now: 0,
            busy_until: POWER_ON_NS,
            unit: Vec::new(),
            dl: true,
            re: false,
            graphics: false,
            display_on: false,
            address: Address::None,
            // Power-on GDRAM is random: start with a pattern, so that a driver that does not
            // clear it shows.
            gdram: [[0xA5A5; 16]; 32],
            bytes: 0,
            instructions: 0,
        }
    }

    /// Time since power-on, in ns.
    pub fn now_ns(&self) -> u64 {
        self.now
    }

    /// One byte whose transmission started at `at_ns` (from power-on, as the emulator's
    /// clock counts it): the model's clock moves there, then the byte is received as
    /// [`Link::send`] receives it.
    ///
    /// # Panics
    ///
    /// When `at_ns` is earlier than the end of the byte before it (the bus cannot send two
    /// bytes at once), and on anything [`Model`] refuses.
    pub fn byte_at(&mut self, at_ns: u64, b: u8) {
        assert!(
            at_ns >= self.now,
            "byte {b:#04x} started at {at_ns} ns, before the byte before it ended ({} ns)",
            self.now
        );
        self.now = at_ns;
        self.receive(b);
    }

    /// Whether the panel shows exactly `frame`'s pixels (in the frame's own layout, which a
    /// rotated frame has already turned).
    pub fn shows(&self, frame: &Frame) -> bool {
        (0..HEIGHT).all(|y| (0..WIDTH).all(|x| frame.panel_pixel(x, y) == self.pixel(x, y)))
    }

    fn receive(&mut self, b: u8) {
        if self.unit.is_empty() {
            assert!(
                self.now >= self.busy_until,
                "byte started at {} ns while the controller is busy until {} ns",
                self.now,
                self.busy_until
            );
            assert_eq!(b & 0xF9, 0xF8, "bad sync byte {b:#04x}");
            assert_eq!(
                b & 0x04,
                0,
                "a read (R/W = 1): the serial mode here is write only"
            );
        } else {
            assert_eq!(
                b & 0x0F,
                0,
                "nibble byte {b:#04x} has its low four bits set"
            );
        }
        self.now += 8 * 1_000_000_000 / self.spi_hz;
        self.unit.push(b);
        if self.unit.len() == 3 {
            let rs = self.unit[0] & 0x02 != 0;
            let value = self.unit[1] | (self.unit[2] >> 4);
            self.unit.clear();
            self.bytes += 1;
            let busy = if rs {
                self.data(value)
            } else {
                self.instruction(value)
            };
            self.busy_until = self.now + busy;
        }
    }

    fn instruction(&mut self, v: u8) -> u64 {
        self.instructions += 1;
        if v & 0xE0 == 0x20 {
            let dl = v & 0x10 != 0;
            let re = v & 0x04 != 0;
            assert!(
                !(dl != self.dl && re != self.re),
                "function set {v:#04x} changes DL and RE at once"
            );
            assert!(
                dl,
                "function set {v:#04x}: DL = 0 (4-bit) on the serial interface"
            );
            if re != self.re {
                self.address = Address::None;
            }
            self.dl = dl;
            self.re = re;
            if re {
                self.graphics = v & 0x02 != 0;
            }
            return EXEC_NS;
        }
        if self.re {
            match v {
                0x80..=0xFF => {
                    let a = v & 0x7F;
                    self.address = match self.address {
                        Address::Vertical(vert) => {
                            assert!(a < 16, "horizontal GDRAM address {a} (0-15)");
                            Address::Ready {
                                v: vert,
                                h: a,
                                high: None,
                            }
                        }
                        Address::Ready { high: Some(_), .. } => {
                            panic!("GDRAM address set between the two bytes of a word")
                        }
                        _ => {
                            assert!(
                                a < 32,
                                "vertical GDRAM address {a}: the panel has 32 (two halves)"
                            );
                            Address::Vertical(a)
                        }
                    };
                }
                _ => panic!("extended instruction {v:#04x} is not one this driver should send"),
            }
        } else {
            match v {
                0x01 => return CLEAR_NS,
                0x02 | 0x03 => {}
                0x04..=0x07 => {
                    assert_eq!(v, 0x06, "entry mode {v:#04x}: expected increment, no shift")
                }
                0x08..=0x0F => self.display_on = v & 0x04 != 0,
                _ => panic!(
                    "basic instruction {v:#04x} (text mode) is not one this driver should send"
                ),
            }
        }
        EXEC_NS
    }

    fn data(&mut self, b: u8) -> u64 {
        assert!(
            self.re,
            "data in the basic set (DDRAM text); the panel is driven as graphics"
        );
        match self.address {
            Address::Ready { v, h, high: None } => {
                assert!(
                    h < 16,
                    "data past the end of a GDRAM line (horizontal address 16)"
                );
                self.address = Address::Ready {
                    v,
                    h,
                    high: Some(b),
                };
            }
            Address::Ready {
                v,
                h,
                high: Some(high),
            } => {
                self.gdram[v as usize][h as usize] = (high as u16) << 8 | b as u16;
                self.address = Address::Ready {
                    v,
                    h: h + 1,
                    high: None,
                };
            }
            a => panic!("GDRAM data with the address incomplete ({a:?})"),
        }
        EXEC_NS
    }

    /// The panel's pixel (x, y) in its own coordinates (x 0-127, y 0-63): lit only with the
    /// display and graphics on.
    pub fn pixel(&self, x: usize, y: usize) -> bool {
        if !(self.display_on && self.graphics) {
            return false;
        }
        let (v, h) = if y < 32 {
            (y, x / 16)
        } else {
            (y - 32, 8 + x / 16)
        };
        self.gdram[v][h] & (0x8000 >> (x % 16)) != 0
    }

    /// The panel as a viewer sees it when it is mounted rotated 180 degrees: 64 rows of 128.
    pub fn as_mounted(&self) -> Vec<Vec<bool>> {
        (0..64)
            .map(|y| (0..128).map(|x| self.pixel(127 - x, 63 - y)).collect())
            .collect()
    }
}

impl Link for Model {
    fn send(&mut self, bytes: &[u8; 3]) {
        for &b in bytes {
            self.receive(b);
        }
    }

    fn delay_us(&mut self, us: u32) {
        self.now += us as u64 * 1000;
    }
}

/// Text art: `#` lit, `.` dark.
pub fn art(rows: &[Vec<bool>]) -> String {
    let mut s = String::new();
    for row in rows {
        s.extend(row.iter().map(|&p| if p { '#' } else { '.' }));
        s.push('\n');
    }
    s
}

/// An SVG of the panel (4 px a pixel), dark pixels on the yellow-green of an LCD12864.
pub fn svg(rows: &[Vec<bool>]) -> String {
    let scale = 4;
    let (w, h) = (128 * scale, 64 * scale);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n<rect width=\"{w}\" height=\"{h}\" fill=\"#9fc43a\"/>\n<g fill=\"#1d2b12\">\n"
    );
    for (y, row) in rows.iter().enumerate() {
        let mut x = 0;
        while x < row.len() {
            if !row[x] {
                x += 1;
                continue;
            }
            let start = x;
            while x < row.len() && row[x] {
                x += 1;
            }
            s += &format!(
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{scale}\"/>\n",
                start * scale,
                y * scale,
                (x - start) * scale
            );
        }
    }
    s += "</g>\n</svg>\n";
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use twenty48_panel::{Screen, St7920, SPI_HZ};

    /// Every byte a driver sends, with the time it started, as an emulator would see them.
    #[derive(Default)]
    struct Wire {
        now: u64,
        bytes: Vec<(u64, u8)>,
    }

    impl Link for Wire {
        fn send(&mut self, bytes: &[u8; 3]) {
            for &b in bytes {
                self.bytes.push((self.now, b));
                self.now += 8 * 1_000_000_000 / SPI_HZ as u64;
            }
        }

        fn delay_us(&mut self, us: u32) {
            self.now += us as u64 * 1000;
        }
    }

    fn start_screen() -> (Frame, Wire) {
        let mut wire = Wire::default();
        let mut lcd = St7920::init(&mut wire);
        let mut frame = Frame::new(true);
        Screen::Start {
            rules: "classic",
            choosable: false,
        }
        .draw(&mut frame)
        .unwrap();
        lcd.update(&mut wire, &frame);
        (frame, wire)
    }

    #[test]
    fn bytes_with_their_times_show_what_the_driver_sent() {
        let (frame, wire) = start_screen();
        let mut model = Model::new(SPI_HZ);
        for &(at, b) in &wire.bytes {
            model.byte_at(at, b);
        }
        assert!(model.shows(&frame));
        assert!(!model.shows(&Frame::new(true)));
    }

    #[test]
    #[should_panic(expected = "while the controller is busy")]
    fn a_byte_sent_too_soon_is_refused() {
        let (_, wire) = start_screen();
        let mut model = Model::new(SPI_HZ);
        // The first byte after power-on, 1 ms in: the controller needs 40 ms.
        model.byte_at(1_000_000, wire.bytes[0].1);
    }
}
