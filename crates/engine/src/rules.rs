//! Rule sets as data: board size, spawn odds, opening, win and scoring.

use core::fmt;

/// The largest number of spawns an opening may list.
pub const MAX_OPENING: usize = 8;
/// The smallest board side the engine plays.
pub const MIN_SIZE: u8 = 2;
/// The largest board side the engine plays.
pub const MAX_SIZE: u8 = 8;

/// The chance that a normal spawn is a 4 rather than a 2, as an exact fraction
/// `numerator / denominator` (never a float).
///
/// See docs/rules.md for how a raw random number is reduced against it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct FourChance {
    /// How many of `denominator` spawns are a 4 (at most `denominator`).
    pub numerator: u32,
    /// The denominator, at least 1.
    pub denominator: u32,
}

impl FourChance {
    /// `numerator / denominator`, unchecked (see [`Rules::validate`]).
    pub const fn new(numerator: u32, denominator: u32) -> FourChance {
        FourChance {
            numerator,
            denominator,
        }
    }
}

impl fmt::Display for FourChance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.numerator, self.denominator)
    }
}

/// One tile placed when a game opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(u8)]
pub enum OpeningSpawn {
    /// A normal spawn: a 4 with the rules' [`FourChance`], else a 2.
    Normal = 0,
    /// A spawn that is always a 2 (it still consumes a value draw, see docs/rules.md).
    Two = 1,
}

/// How a game opens: the spawns placed before the first move, in order.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Opening {
    len: u8,
    spawns: [OpeningSpawn; MAX_OPENING],
}

impl Opening {
    /// An opening from a list of spawns, or `None` when the list is empty or longer than
    /// [`MAX_OPENING`].
    pub const fn new(list: &[OpeningSpawn]) -> Option<Opening> {
        if list.is_empty() || list.len() > MAX_OPENING {
            return None;
        }
        let mut spawns = [OpeningSpawn::Normal; MAX_OPENING];
        let mut i = 0;
        while i < list.len() {
            spawns[i] = list[i];
            i += 1;
        }
        Some(Opening {
            len: list.len() as u8,
            spawns,
        })
    }

    /// The spawns, in order.
    pub fn spawns(&self) -> &[OpeningSpawn] {
        &self.spawns[..self.len as usize]
    }
}

impl fmt::Debug for Opening {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.spawns()).finish()
    }
}

impl fmt::Display for Opening {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.spawns().iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            f.write_str(match s {
                OpeningSpawn::Normal => "normal",
                OpeningSpawn::Two => "two",
            })?;
        }
        Ok(())
    }
}

/// What reaching the winning tile does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Win {
    /// The winning tile as an exponent: 11 means 2048.
    pub exponent: u8,
    /// `true`: the game ends as a win on the move that makes the tile.
    /// `false`: the win is reported once and play goes on.
    pub ends_game: bool,
}

/// How a merge scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(u8)]
pub enum Scoring {
    /// Each merge scores the value of the tile it makes (the original game).
    MergedValues = 0,
    /// Each merge scores one point.
    MergeCount = 1,
}

/// A complete rule set. Every field is data; [`Rules::validate`] checks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Rules {
    /// Side of the square board, [`MIN_SIZE`]..=[`MAX_SIZE`].
    pub size: u8,
    /// The chance that a normal spawn is a 4.
    pub four_chance: FourChance,
    /// The spawns that open a game.
    pub opening: Opening,
    /// The winning tile and what it does; `None` for a game with no win.
    pub win: Option<Win>,
    /// How merges score.
    pub scoring: Scoring,
}

/// A named rule preset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum Preset {
    /// The original game: two normal spawns open, 4 with chance 1/10, reaching 2048 wins
    /// and play goes on, score = sum of merged values.
    Classic,
    /// The Arduino game: 4 with chance 3/10, one normal spawn then a 2 open, reaching 2048
    /// ends the game as a win, score = sum of merged values.
    Arduino,
    /// The terminal C game: a 2 then one normal spawn open, 4 with chance 1/10, no win stop,
    /// score = sum of merged values.
    Console,
}

impl Preset {
    /// Every preset.
    pub const ALL: [Preset; 3] = [Preset::Classic, Preset::Arduino, Preset::Console];

    /// The preset's name as used on the command line and in docs.
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Classic => "classic",
            Preset::Arduino => "arduino",
            Preset::Console => "console",
        }
    }

    /// The preset with the given name.
    pub fn from_name(name: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The rule set.
    pub const fn rules(self) -> Rules {
        match self {
            Preset::Classic => Rules::CLASSIC,
            Preset::Arduino => Rules::ARDUINO,
            Preset::Console => Rules::CONSOLE,
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

const fn opening2(a: OpeningSpawn, b: OpeningSpawn) -> Opening {
    match Opening::new(&[a, b]) {
        Some(o) => o,
        None => panic!("two spawns fit"),
    }
}

impl Rules {
    /// The `classic` preset (see [`Preset::Classic`]).
    pub const CLASSIC: Rules = Rules {
        size: 4,
        four_chance: FourChance::new(1, 10),
        opening: opening2(OpeningSpawn::Normal, OpeningSpawn::Normal),
        win: Some(Win {
            exponent: 11,
            ends_game: false,
        }),
        scoring: Scoring::MergedValues,
    };

    /// The `arduino` preset (see [`Preset::Arduino`]).
    pub const ARDUINO: Rules = Rules {
        size: 4,
        four_chance: FourChance::new(3, 10),
        opening: opening2(OpeningSpawn::Normal, OpeningSpawn::Two),
        win: Some(Win {
            exponent: 11,
            ends_game: true,
        }),
        scoring: Scoring::MergedValues,
    };

    /// The `console` preset (see [`Preset::Console`]).
    pub const CONSOLE: Rules = Rules {
        size: 4,
        four_chance: FourChance::new(1, 10),
        opening: opening2(OpeningSpawn::Two, OpeningSpawn::Normal),
        win: None,
        scoring: Scoring::MergedValues,
    };

    /// The preset these rules are equal to, if any.
    pub fn preset(&self) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.rules() == *self)
    }

    /// Number of cells on the board.
    pub const fn cells(&self) -> usize {
        self.size as usize * self.size as usize
    }

    /// The largest exponent a tile can reach on this board: `cells + 1`
    /// (every cell holding a distinct tile, topped up by a 4 spawn).
    pub const fn max_exponent(&self) -> u8 {
        (self.cells() + 1) as u8
    }

    /// Checks that the rules are playable; every engine entry point calls it.
    pub fn validate(&self) -> Result<(), RulesError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&self.size) {
            return Err(RulesError::Size { size: self.size });
        }
        let FourChance {
            numerator,
            denominator,
        } = self.four_chance;
        if denominator == 0 || numerator > denominator {
            return Err(RulesError::FourChance {
                numerator,
                denominator,
            });
        }
        if self.opening.len == 0
            || self.opening.len as usize > MAX_OPENING
            || self.opening.len as usize > self.cells()
        {
            return Err(RulesError::Opening {
                spawns: self.opening.len,
                cells: self.cells() as u8,
            });
        }
        if let Some(win) = self.win {
            if win.exponent < 2 || win.exponent > self.max_exponent() {
                return Err(RulesError::WinTile {
                    exponent: win.exponent,
                    max: self.max_exponent(),
                });
            }
        }
        Ok(())
    }
}

impl Default for Rules {
    /// The `classic` preset.
    fn default() -> Rules {
        Rules::CLASSIC
    }
}

impl fmt::Display for Rules {
    /// A one-line summary, e.g. `4x4, four 1/10, opening normal,normal, win 2048 (play on),
    /// score merged values`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{0}x{0}, four {1}, opening {2}, ",
            self.size, self.four_chance, self.opening
        )?;
        match self.win {
            None => f.write_str("no win")?,
            Some(w) => write!(
                f,
                "win {} ({})",
                crate::tile::TileName(w.exponent),
                if w.ends_game { "ends game" } else { "play on" }
            )?,
        }
        f.write_str(match self.scoring {
            Scoring::MergedValues => ", score merged values",
            Scoring::MergeCount => ", score merge count",
        })
    }
}

/// Why a rule set cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RulesError {
    /// The board side is outside 2..=8.
    Size {
        /// The side given.
        size: u8,
    },
    /// The four-chance fraction has a zero denominator or exceeds 1.
    FourChance {
        /// The numerator given.
        numerator: u32,
        /// The denominator given.
        denominator: u32,
    },
    /// The opening is empty, too long, or has more spawns than the board has cells.
    Opening {
        /// Spawns listed.
        spawns: u8,
        /// Cells on the board.
        cells: u8,
    },
    /// The winning tile cannot be reached on this board, or is below 4.
    WinTile {
        /// The winning exponent given.
        exponent: u8,
        /// The largest exponent reachable on this board.
        max: u8,
    },
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            RulesError::Size { size } => write!(
                f,
                "board size {size} is not supported (sizes {MIN_SIZE} to {MAX_SIZE} are)"
            ),
            RulesError::FourChance {
                numerator,
                denominator,
            } => write!(
                f,
                "four chance {numerator}/{denominator} is not a fraction between 0 and 1"
            ),
            RulesError::Opening { spawns, cells } => write!(
                f,
                "an opening of {spawns} spawns does not fit (1 to {MAX_OPENING} spawns, at most {cells} on this board)"
            ),
            RulesError::WinTile { exponent, max } => write!(
                f,
                "winning tile 2^{exponent} cannot be reached (exponents 2 to {max} can on this board)"
            ),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for RulesError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_validate_and_round_trip() {
        for p in Preset::ALL {
            p.rules().validate().unwrap();
            assert_eq!(Preset::from_name(p.name()), Some(p));
            assert_eq!(p.rules().preset(), Some(p));
        }
    }

    #[test]
    fn arduino_preset_matches_the_sketch() {
        let r = Rules::ARDUINO;
        assert_eq!(r.four_chance, FourChance::new(3, 10));
        assert_eq!(
            r.opening.spawns(),
            &[OpeningSpawn::Normal, OpeningSpawn::Two]
        );
        assert_eq!(
            r.win,
            Some(Win {
                exponent: 11,
                ends_game: true
            })
        );
    }

    #[test]
    fn invalid_rules_are_rejected() {
        let mut r = Rules::CLASSIC;
        r.size = 9;
        assert_eq!(r.validate(), Err(RulesError::Size { size: 9 }));
        let mut r = Rules::CLASSIC;
        r.four_chance = FourChance::new(3, 2);
        assert!(matches!(r.validate(), Err(RulesError::FourChance { .. })));
        let mut r = Rules::CLASSIC;
        r.four_chance = FourChance::new(0, 0);
        assert!(matches!(r.validate(), Err(RulesError::FourChance { .. })));
        let mut r = Rules::CLASSIC;
        r.size = 2;
        r.opening = Opening::new(&[OpeningSpawn::Normal; 5]).unwrap();
        assert!(matches!(r.validate(), Err(RulesError::Opening { .. })));
        let mut r = Rules::CLASSIC;
        r.size = 2;
        r.win = Some(Win {
            exponent: 11,
            ends_game: true,
        });
        assert!(matches!(r.validate(), Err(RulesError::WinTile { .. })));
        assert!(Opening::new(&[]).is_none());
        assert!(Opening::new(&[OpeningSpawn::Two; 9]).is_none());
    }
}
