//! Directions of a slide and sets of them.

use core::fmt;

/// A direction to slide the tiles in.
///
/// The numeric codes are part of the file formats and the firmware log: they never change.
/// `Up = 0, Right = 1, Down = 2, Left = 3` (clockwise from the top, as in the animated web
/// game this project grew from).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(u8)]
pub enum Direction {
    /// Towards row 0.
    Up = 0,
    /// Towards the last column.
    Right = 1,
    /// Towards the last row.
    Down = 2,
    /// Towards column 0.
    Left = 3,
}

impl Direction {
    /// All four directions, in code order.
    pub const ALL: [Direction; 4] = [
        Direction::Up,
        Direction::Right,
        Direction::Down,
        Direction::Left,
    ];

    /// The fixed code of this direction (0..=3).
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// The direction with the given code, or `None` for a code above 3.
    pub const fn from_code(code: u8) -> Option<Direction> {
        match code {
            0 => Some(Direction::Up),
            1 => Some(Direction::Right),
            2 => Some(Direction::Down),
            3 => Some(Direction::Left),
            _ => None,
        }
    }

    /// The letter used in move lists: `U`, `R`, `D` or `L`.
    pub const fn letter(self) -> char {
        match self {
            Direction::Up => 'U',
            Direction::Right => 'R',
            Direction::Down => 'D',
            Direction::Left => 'L',
        }
    }

    /// Parses a move-list letter, case-insensitively (`U`, `R`, `D`, `L`).
    pub const fn from_letter(letter: char) -> Option<Direction> {
        match letter {
            'U' | 'u' => Some(Direction::Up),
            'R' | 'r' => Some(Direction::Right),
            'D' | 'd' => Some(Direction::Down),
            'L' | 'l' => Some(Direction::Left),
            _ => None,
        }
    }

    /// The lower-case English name: `up`, `right`, `down`, `left`.
    pub const fn name(self) -> &'static str {
        match self {
            Direction::Up => "up",
            Direction::Right => "right",
            Direction::Down => "down",
            Direction::Left => "left",
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of directions, stored as a 4-bit mask (bit `code` set when the direction is in it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct DirectionSet(u8);

impl DirectionSet {
    /// The empty set.
    pub const EMPTY: DirectionSet = DirectionSet(0);

    /// The set from its mask; bits above bit 3 are ignored.
    pub const fn from_bits(bits: u8) -> DirectionSet {
        DirectionSet(bits & 0xF)
    }

    /// The mask: bit `code` set for each direction in the set.
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// Whether `dir` is in the set.
    pub const fn contains(self, dir: Direction) -> bool {
        self.0 & (1 << dir.code()) != 0
    }

    /// The set with `dir` added.
    pub const fn with(self, dir: Direction) -> DirectionSet {
        DirectionSet(self.0 | (1 << dir.code()))
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The number of directions in the set.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// The directions in the set, in code order.
    pub fn iter(self) -> impl Iterator<Item = Direction> {
        Direction::ALL
            .into_iter()
            .filter(move |d| self.contains(*d))
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use super::*;
    use std::string::ToString;

    #[test]
    fn codes_are_fixed() {
        assert_eq!(Direction::Up.code(), 0);
        assert_eq!(Direction::Right.code(), 1);
        assert_eq!(Direction::Down.code(), 2);
        assert_eq!(Direction::Left.code(), 3);
        for d in Direction::ALL {
            assert_eq!(Direction::from_code(d.code()), Some(d));
            assert_eq!(Direction::from_letter(d.letter()), Some(d));
        }
        assert_eq!(Direction::from_code(4), None);
    }

    #[test]
    fn sets() {
        let s = DirectionSet::EMPTY
            .with(Direction::Left)
            .with(Direction::Up);
        assert_eq!(s.bits(), 0b1001);
        assert_eq!(s.len(), 2);
        assert!(s.iter().eq([Direction::Up, Direction::Left]));
    }

    #[test]
    fn letters_and_names() {
        for (d, upper, lower, name) in [
            (Direction::Up, 'U', 'u', "up"),
            (Direction::Right, 'R', 'r', "right"),
            (Direction::Down, 'D', 'd', "down"),
            (Direction::Left, 'L', 'l', "left"),
        ] {
            assert_eq!(d.letter(), upper);
            assert_eq!(Direction::from_letter(upper), Some(d));
            assert_eq!(Direction::from_letter(lower), Some(d));
            assert_eq!(d.name(), name);
            assert_eq!(d.to_string(), name);
        }
        for other in ['x', 'N', ' ', '0', '\0'] {
            assert_eq!(Direction::from_letter(other), None);
        }
    }

    #[test]
    fn a_set_is_exactly_its_four_bits() {
        for bits in 0..=u8::MAX {
            let s = DirectionSet::from_bits(bits);
            assert_eq!(s.bits(), bits & 0xF, "bits above bit 3 are ignored");
            assert_eq!(s.is_empty(), bits & 0xF == 0);
            assert_eq!(s.len(), (bits & 0xF).count_ones());
            let mut rebuilt = DirectionSet::EMPTY;
            for d in Direction::ALL {
                assert_eq!(s.contains(d), bits & (1 << d.code()) != 0, "{bits:#x} {d}");
                if s.contains(d) {
                    rebuilt = rebuilt.with(d);
                }
                // Adding is idempotent: a direction already in the set stays.
                assert!(s.with(d).contains(d));
                assert_eq!(s.with(d).with(d), s.with(d));
            }
            assert_eq!(rebuilt, s);
            assert!(s
                .iter()
                .eq(Direction::ALL.into_iter().filter(|&d| s.contains(d))));
        }
        assert!(DirectionSet::EMPTY.is_empty());
        assert_eq!(DirectionSet::default(), DirectionSet::EMPTY);
    }
}
