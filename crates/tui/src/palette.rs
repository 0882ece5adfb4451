//! The original game's colours, and how many colours a terminal can show.

/// A colour as red, green, blue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rgb(pub u8, pub u8, pub u8);

/// How much colour the terminal gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ColorMode {
    /// No colour at all (`NO_COLOR`, `TERM=dumb`): tiles are told apart by their numbers.
    None,
    /// The 16 basic ANSI colours.
    Ansi16,
    /// The xterm 256-colour palette.
    Ansi256,
    /// 24-bit colour (`COLORTERM=truecolor` or `24bit`).
    TrueColor,
}

impl ColorMode {
    /// The mode for an environment, given a lookup of its variables: `NO_COLOR` (any
    /// non-empty value) or a missing or `dumb` `TERM` give [`ColorMode::None`];
    /// `COLORTERM=truecolor|24bit` gives true colour; a `TERM` naming `256color` gives 256.
    ///
    /// ```
    /// use twenty48_tui::ColorMode;
    ///
    /// let env = |name: &str| match name {
    ///     "TERM" => Some("xterm-256color".to_string()),
    ///     _ => None,
    /// };
    /// assert_eq!(ColorMode::detect(env), ColorMode::Ansi256);
    /// let no_color = |name: &str| (name != "COLORTERM").then(|| "1".to_string());
    /// assert_eq!(ColorMode::detect(no_color), ColorMode::None);
    /// ```
    pub fn detect(var: impl Fn(&str) -> Option<String>) -> ColorMode {
        if var("NO_COLOR").is_some_and(|v| !v.is_empty()) {
            return ColorMode::None;
        }
        let term = var("TERM").unwrap_or_default();
        if term.is_empty() || term == "dumb" {
            return ColorMode::None;
        }
        let colorterm = var("COLORTERM").unwrap_or_default();
        if colorterm == "truecolor" || colorterm == "24bit" {
            ColorMode::TrueColor
        } else if term.contains("256color") {
            ColorMode::Ansi256
        } else {
            ColorMode::Ansi16
        }
    }

    /// The mode for this process's environment.
    pub fn from_env() -> ColorMode {
        ColorMode::detect(|name| std::env::var(name).ok())
    }
}

/// The colours of a tile: background and number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TileColors {
    /// The tile's face.
    pub background: Rgb,
    /// The number on it.
    pub foreground: Rgb,
}

/// The board behind the tiles.
pub const BOARD: Rgb = Rgb(0xbb, 0xad, 0xa0);
/// An empty cell.
pub const EMPTY: Rgb = Rgb(0xcd, 0xc1, 0xb4);
const DARK_TEXT: Rgb = Rgb(0x77, 0x6e, 0x65);
const LIGHT_TEXT: Rgb = Rgb(0xf9, 0xf6, 0xf2);

/// The original game's colours for the tile `2^exponent` (exponent 0: an empty cell).
/// Tiles past 2048 share the dark "super" tile. Every tile sets both colours, so it reads the
/// same on dark and light terminals.
pub fn tile_colors(exponent: u8) -> TileColors {
    let (background, foreground) = match exponent {
        0 => (EMPTY, DARK_TEXT),
        1 => (Rgb(0xee, 0xe4, 0xda), DARK_TEXT),
        2 => (Rgb(0xed, 0xe0, 0xc8), DARK_TEXT),
        3 => (Rgb(0xf2, 0xb1, 0x79), LIGHT_TEXT),
        4 => (Rgb(0xf5, 0x95, 0x63), LIGHT_TEXT),
        5 => (Rgb(0xf6, 0x7c, 0x5f), LIGHT_TEXT),
        6 => (Rgb(0xf6, 0x5e, 0x3b), LIGHT_TEXT),
        7 => (Rgb(0xed, 0xcf, 0x72), LIGHT_TEXT),
        8 => (Rgb(0xed, 0xcc, 0x61), LIGHT_TEXT),
        9 => (Rgb(0xed, 0xc8, 0x50), LIGHT_TEXT),
        10 => (Rgb(0xed, 0xc5, 0x3f), LIGHT_TEXT),
        11 => (Rgb(0xed, 0xc2, 0x2e), LIGHT_TEXT),
        _ => (Rgb(0x3c, 0x3a, 0x32), LIGHT_TEXT),
    };
    TileColors {
        background,
        foreground,
    }
}

/// The 256-colour stand-ins for the game's faces: the nearest palette entry would make the
/// empty cell, the 2 and the 4 one pale grey (and 128 to 1024 one yellow), so each face gets
/// an entry of its own, in the original's order from grey and cream to orange and gold.
const GAME256: [(Rgb, u8); 13] = [
    (EMPTY, 250),
    (Rgb(0xee, 0xe4, 0xda), 230),
    (Rgb(0xed, 0xe0, 0xc8), 223),
    (Rgb(0xf2, 0xb1, 0x79), 215),
    (Rgb(0xf5, 0x95, 0x63), 209),
    (Rgb(0xf6, 0x7c, 0x5f), 203),
    (Rgb(0xf6, 0x5e, 0x3b), 202),
    (Rgb(0xed, 0xcf, 0x72), 222),
    (Rgb(0xed, 0xcc, 0x61), 221),
    (Rgb(0xed, 0xc8, 0x50), 220),
    (Rgb(0xed, 0xc5, 0x3f), 214),
    (Rgb(0xed, 0xc2, 0x2e), 178),
    (Rgb(0x3c, 0x3a, 0x32), 236),
];

/// The xterm 256-palette index for a colour: the game's faces by a fixed table (so they
/// stay apart), any other colour the nearest (the 6x6x6 cube or the grey ramp).
pub fn to_ansi256(c: Rgb) -> u8 {
    if let Some(&(_, i)) = GAME256.iter().find(|(rgb, _)| *rgb == c) {
        return i;
    }
    let level = |v: u8| -> u8 {
        if v < 48 {
            0
        } else if v < 115 {
            1
        } else {
            (v - 35) / 40
        }
    };
    let value = |l: u8| if l == 0 { 0 } else { 55 + 40 * l as i32 };
    let (r, g, b) = (level(c.0), level(c.1), level(c.2));
    let cube = 16 + 36 * r + 6 * g + b;
    let cube_err = dist(c, (value(r), value(g), value(b)));
    let avg = (c.0 as i32 + c.1 as i32 + c.2 as i32) / 3;
    let grey_step = ((avg - 8).max(0) / 10).min(23);
    let grey = 8 + 10 * grey_step;
    if dist(c, (grey, grey, grey)) < cube_err {
        232 + grey_step as u8
    } else {
        cube
    }
}

fn dist(c: Rgb, (r, g, b): (i32, i32, i32)) -> i32 {
    let d = |a: u8, b: i32| (a as i32 - b).pow(2);
    d(c.0, r) + d(c.1, g) + d(c.2, b)
}

/// The 16-colour stand-ins for the game's own colours. The nearest basic colour would turn
/// most tiles white with white numbers, so each tile gets a distinct basic colour instead:
/// light tiles keep black numbers, the others get bright white ones on a darker face.
const GAME16: [(Rgb, u8); 15] = [
    (DARK_TEXT, 0),
    (LIGHT_TEXT, 15),
    (EMPTY, 8),
    (Rgb(0xee, 0xe4, 0xda), 7),
    (Rgb(0xed, 0xe0, 0xc8), 15),
    (Rgb(0xf2, 0xb1, 0x79), 3),
    (Rgb(0xf5, 0x95, 0x63), 1),
    (Rgb(0xf6, 0x7c, 0x5f), 9),
    (Rgb(0xf6, 0x5e, 0x3b), 5),
    (Rgb(0xed, 0xcf, 0x72), 2),
    (Rgb(0xed, 0xcc, 0x61), 6),
    (Rgb(0xed, 0xc8, 0x50), 4),
    (Rgb(0xed, 0xc5, 0x3f), 13),
    (Rgb(0xed, 0xc2, 0x2e), 12),
    (Rgb(0x3c, 0x3a, 0x32), 0),
];

/// The 16-colour index for a colour: the game's own colours by a fixed table (so every tile
/// stays readable), any other colour by the nearest basic colour.
pub fn to_ansi16(c: Rgb) -> u8 {
    if let Some(&(_, i)) = GAME16.iter().find(|(rgb, _)| *rgb == c) {
        return i;
    }
    nearest16(c)
}

fn nearest16(c: Rgb) -> u8 {
    const BASIC: [(i32, i32, i32); 16] = [
        (0, 0, 0),
        (205, 0, 0),
        (0, 205, 0),
        (205, 205, 0),
        (0, 0, 238),
        (205, 0, 205),
        (0, 205, 205),
        (229, 229, 229),
        (127, 127, 127),
        (255, 0, 0),
        (0, 255, 0),
        (255, 255, 0),
        (92, 92, 255),
        (255, 0, 255),
        (0, 255, 255),
        (255, 255, 255),
    ];
    let mut best = 0;
    for (i, &rgb) in BASIC.iter().enumerate() {
        if dist(c, rgb) < dist(c, BASIC[best]) {
            best = i;
        }
    }
    best as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_modes_follow_the_environment() {
        let env = crate::test_env;
        assert_eq!(ColorMode::detect(env(&[])), ColorMode::None);
        assert_eq!(ColorMode::detect(env(&[("TERM", "dumb")])), ColorMode::None);
        assert_eq!(
            ColorMode::detect(env(&[("TERM", "xterm"), ("NO_COLOR", "1")])),
            ColorMode::None
        );
        assert_eq!(
            ColorMode::detect(env(&[("TERM", "xterm"), ("NO_COLOR", "")])),
            ColorMode::Ansi16
        );
        assert_eq!(
            ColorMode::detect(env(&[("TERM", "xterm"), ("COLORTERM", "truecolor")])),
            ColorMode::TrueColor
        );
    }

    #[test]
    fn palette_reductions_pick_near_colours() {
        assert_eq!(to_ansi256(Rgb(0, 0, 0)), 16);
        assert_eq!(to_ansi256(Rgb(255, 255, 255)), 231);
        assert_eq!(to_ansi256(Rgb(0x80, 0x80, 0x80)), 244);
        assert_eq!(to_ansi16(Rgb(250, 10, 10)), 9);
        // 16 colours: every tile's number differs from its face, and the tiles up to 2048
        // (and the empty cell) all have faces of their own.
        let faces: Vec<u8> = (0..=11)
            .map(|e| to_ansi16(tile_colors(e).background))
            .collect();
        for e in 0..=17 {
            let t = tile_colors(e);
            assert_ne!(to_ansi16(t.background), to_ansi16(t.foreground), "tile {e}");
        }
        let mut distinct = faces.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), faces.len(), "{faces:?}");
        // 256 colours: the empty cell and the tiles up to 2048 all have faces of their own
        // (issue 13: the empty cell, the 2 and the 4 were one grey).
        let faces: Vec<u8> = (0..=11)
            .map(|e| to_ansi256(tile_colors(e).background))
            .collect();
        let mut distinct = faces.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), faces.len(), "{faces:?}");
        // Every tile keeps its number readable: light and dark text differ from the face.
        for e in 0..=17 {
            let t = tile_colors(e);
            assert_ne!(
                to_ansi256(t.background),
                to_ansi256(t.foreground),
                "tile {e}"
            );
        }
    }
}
