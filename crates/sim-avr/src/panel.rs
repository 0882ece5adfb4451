//! The LCD as the firmware drives it: the SPI bytes, the chip select and the reset the
//! harness saw, decoded by the ST7920 model (`twenty48-st7920-model`) at their emulated
//! times, and the screens the panel showed.

use std::fmt;

use twenty48_panel::{Frame, HEIGHT, WIDTH};
use twenty48_st7920_model::Model;

use crate::event::{PinEdge, SpiByte, Watched};
use crate::sim::Sim;

/// What the panel showed, in the panel's own coordinates (as [`Model::pixel`]).
#[derive(Clone, PartialEq, Eq)]
pub struct Picture {
    /// Emulated time it was complete (the last byte before the panel stayed still).
    pub at_ns: u64,
    rows: [u128; HEIGHT],
}

impl Picture {
    fn of(model: &Model, at_ns: u64) -> Picture {
        let mut rows = [0u128; HEIGHT];
        for (y, row) in rows.iter_mut().enumerate() {
            for x in 0..WIDTH {
                if model.pixel(x, y) {
                    *row |= 1 << x;
                }
            }
        }
        Picture { at_ns, rows }
    }

    /// Whether the panel showed exactly `frame`'s pixels (as [`Model::shows`]).
    pub fn shows(&self, frame: &Frame) -> bool {
        (0..HEIGHT).all(|y| (0..WIDTH).all(|x| frame.panel_pixel(x, y) == self.pixel(x, y)))
    }

    /// The pixel (x, y) in panel coordinates.
    pub fn pixel(&self, x: usize, y: usize) -> bool {
        self.rows[y] & (1 << x) != 0
    }

    fn same_pixels(&self, other: &Picture) -> bool {
        self.rows == other.rows
    }
}

impl fmt::Debug for Picture {
    /// The panel as a viewer sees it mounted rotated 180 degrees: `#` lit, `.` dark.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "at {} ns:", self.at_ns)?;
        for y in (0..HEIGHT).rev() {
            let row: String = (0..WIDTH)
                .rev()
                .map(|x| if self.pixel(x, y) { '#' } else { '.' })
                .collect();
            writeln!(f, "{row}")?;
        }
        Ok(())
    }
}

/// Something the firmware did on the LCD's wires that the controller does not allow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WireError {
    /// Emulated time, in ns from power-on.
    pub at_ns: u64,
    /// What.
    pub what: String,
}

/// The ST7920 on the board's SPI: fed the harness's reports in time order, it keeps the
/// screens the panel showed, each once it had been still for `quiet_ns`.
pub struct Panel {
    quiet_ns: u64,
    /// The SPI clock the board drives the panel at.
    spi_hz: u32,
    model: Option<Model>,
    reset_released: u64,
    selected: bool,
    /// Bytes since the chip select last rose (a unit is three).
    unit: usize,
    last_activity: u64,
    spi_seen: usize,
    pins_seen: usize,
    /// The screens shown, in order, each different from the one before.
    pub screens: Vec<Picture>,
}

impl Panel {
    /// A panel not yet powered, driven at `spi_hz`, whose screens count once still for
    /// `quiet_ns`.
    pub fn new(quiet_ns: u64, spi_hz: u32) -> Panel {
        Panel {
            quiet_ns,
            spi_hz,
            model: None,
            reset_released: 0,
            selected: false,
            unit: 0,
            last_activity: 0,
            spi_seen: 0,
            pins_seen: 0,
            screens: Vec::new(),
        }
    }

    /// Takes what the harness reported since the last call, in time order, and the time
    /// the run stands at.
    ///
    /// # Panics
    ///
    /// When the model refuses a byte (the datasheet's rules, see `twenty48-st7920-model`).
    pub fn update(&mut self, sim: &Sim) -> Result<(), WireError> {
        let spi = &sim.spi[self.spi_seen..];
        let pins = &sim.pins[self.pins_seen..];
        self.spi_seen = sim.spi.len();
        self.pins_seen = sim.pins.len();
        let (mut s, mut p) = (0, 0);
        while s < spi.len() || p < pins.len() {
            if p < pins.len() && (s == spi.len() || pins[p].at_ns <= spi[s].at_ns) {
                self.pin(&pins[p])?;
                p += 1;
            } else {
                self.byte(&spi[s])?;
                s += 1;
            }
        }
        self.still_at(sim.now_ns());
        Ok(())
    }

    /// As [`Panel::update`], when the firmware is known to wait for input (asleep in its idle
    /// loop): what the panel shows now is a whole screen, however recently it was sent.
    ///
    /// # Panics
    ///
    /// As [`Panel::update`].
    pub fn idle(&mut self, sim: &Sim) -> Result<(), WireError> {
        self.update(sim)?;
        self.picture();
        Ok(())
    }

    /// A screen is complete when nothing has been sent for `quiet_ns` by `now`.
    fn still_at(&mut self, now: u64) {
        if now.saturating_sub(self.last_activity) >= self.quiet_ns {
            self.picture();
        }
    }

    /// Keeps what the panel shows, if it differs from the last picture kept.
    fn picture(&mut self) {
        if let Some(model) = &self.model {
            let picture = Picture::of(model, self.last_activity);
            if self.screens.last().is_none_or(|s| !s.same_pixels(&picture)) {
                self.screens.push(picture);
            }
        }
    }

    fn pin(&mut self, edge: &PinEdge) -> Result<(), WireError> {
        let fail = |what: &str| WireError {
            at_ns: edge.at_ns,
            what: what.to_string(),
        };
        match (edge.pin, edge.high) {
            (Watched::LcdReset, true) => {
                self.model = Some(Model::new(self.spi_hz));
                self.reset_released = edge.at_ns;
            }
            (Watched::LcdReset, false) => self.model = None,
            (Watched::LcdSelect, true) => {
                self.selected = true;
                self.unit = 0;
            }
            (Watched::LcdSelect, false) => {
                self.selected = false;
                if self.unit % 3 != 0 {
                    return Err(fail(
                        "the chip select fell in the middle of a three-byte unit",
                    ));
                }
            }
        }
        Ok(())
    }

    fn byte(&mut self, b: &SpiByte) -> Result<(), WireError> {
        let fail = |what: String| WireError {
            at_ns: b.at_ns,
            what,
        };
        self.still_at(b.at_ns);
        if !b.selected || !self.selected {
            return Err(fail(format!(
                "SPI byte {:#04x} with the LCD not selected",
                b.byte
            )));
        }
        let Some(model) = self.model.as_mut() else {
            return Err(fail(format!(
                "SPI byte {:#04x} before the LCD's reset was released",
                b.byte
            )));
        };
        model.byte_at(b.at_ns - self.reset_released, b.byte);
        self.unit += 1;
        // The byte takes 8 clocks at the driver's rate; the panel is still after that.
        self.last_activity = b.at_ns + 8 * 1_000_000_000 / u64::from(self.spi_hz);
        Ok(())
    }

    /// The controller bytes (instructions and data) received since power-on.
    pub fn controller_bytes(&self) -> usize {
        self.model.as_ref().map_or(0, |m| m.bytes)
    }
}
