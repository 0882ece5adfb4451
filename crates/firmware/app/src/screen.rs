//! The screens, drawn on a 128x64 monochrome panel: they live in the host-tested
//! `twenty48-panel` crate (with the ST7920 driver and, in its tests, a datasheet model of the
//! controller that renders every screen; docs/firmware.md shows them).

pub use twenty48_panel::{Grid, Screen, CELL_PX};
