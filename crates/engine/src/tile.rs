//! A tile: its value and its name.

use core::fmt;

/// The tile of exponent `e` in words: its value (`2048`), or `2^e` where no `u64` holds the
/// value (exponents 64 and 65, which an 8x8 board's winning tile may have, or a hostile
/// log's claim). What every message shows, where [`tile_value`] would saturate.
///
/// ```
/// use twenty48_engine::TileName;
///
/// assert_eq!(TileName(11).to_string(), "2048");
/// assert_eq!(TileName(65).to_string(), "2^65");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileName(pub u8);

impl fmt::Display for TileName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            e @ 64.. => write!(f, "2^{e}"),
            e => write!(f, "{}", tile_value(e)),
        }
    }
}

/// The value of the tile with exponent `e` (0 for an empty cell; saturates at 2^63, which
/// no game reaches: [`TileName`] names larger tiles).
pub const fn tile_value(exponent: u8) -> u64 {
    if exponent == 0 {
        0
    } else if exponent >= 63 {
        1 << 63
    } else {
        1 << exponent
    }
}
