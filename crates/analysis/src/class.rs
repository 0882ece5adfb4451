//! A move's class, from its error: the thresholds of docs/analysis.md.

/// Errors (chance of the tile aimed at given away, in millionths) from which a move is an
/// inaccuracy, a mistake and a blunder: set on the held-out games of docs/analysis.md.
pub const THRESHOLDS: Thresholds = Thresholds {
    inaccuracy: 10_000,
    mistake: 40_000,
    blunder: 100_000,
};

/// The smallest error of each class, in millionths of chance (see [`THRESHOLDS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thresholds {
    /// From this error on, an inaccuracy (below it, and not the best move: good).
    pub inaccuracy: u32,
    /// From this error on, a mistake.
    pub mistake: u32,
    /// From this error on, a blunder.
    pub blunder: u32,
}

/// What the analysis makes of a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Class {
    /// The only move that changed the board: nothing to choose, left out of the error rate.
    Only,
    /// The bot's best move, or one the search values exactly as much.
    Best,
    /// Not the best move, but gives away less than an inaccuracy does.
    Good,
    /// Loses at least [`Thresholds::inaccuracy`].
    Inaccuracy,
    /// Loses at least [`Thresholds::mistake`].
    Mistake,
    /// Loses at least [`Thresholds::blunder`].
    Blunder,
    /// Not rated: the board holds a tile the search cannot (65536 or more).
    Unrated,
}

impl Class {
    /// Every class, in the order above.
    pub const ALL: [Class; 7] = [
        Class::Only,
        Class::Best,
        Class::Good,
        Class::Inaccuracy,
        Class::Mistake,
        Class::Blunder,
        Class::Unrated,
    ];

    /// The class of a move among `legal` moves that gives away `error` millionths of
    /// chance; `best` when the search values it as much as the best move.
    pub fn of(error: u32, legal: u8, best: bool) -> Class {
        let t = THRESHOLDS;
        if legal <= 1 {
            Class::Only
        } else if best {
            Class::Best
        } else if error < t.inaccuracy {
            Class::Good
        } else if error < t.mistake {
            Class::Inaccuracy
        } else if error < t.blunder {
            Class::Mistake
        } else {
            Class::Blunder
        }
    }

    /// Its name in the CLI's text and JSON and in the page: `only`, `best`, `good`,
    /// `inaccuracy`, `mistake`, `blunder`, `unrated`.
    pub const fn name(self) -> &'static str {
        match self {
            Class::Only => "only",
            Class::Best => "best",
            Class::Good => "good",
            Class::Inaccuracy => "inaccuracy",
            Class::Mistake => "mistake",
            Class::Blunder => "blunder",
            Class::Unrated => "unrated",
        }
    }

    /// The plural, for counts in text: `inaccuracies`, `mistakes`, ...
    pub const fn plural(self) -> &'static str {
        match self {
            Class::Only => "only moves",
            Class::Best => "best moves",
            Class::Good => "good moves",
            Class::Inaccuracy => "inaccuracies",
            Class::Mistake => "mistakes",
            Class::Blunder => "blunders",
            Class::Unrated => "unrated",
        }
    }

    /// Whether the move is an inaccuracy, a mistake or a blunder (what the page marks and
    /// its keys jump between).
    pub const fn is_error(self) -> bool {
        matches!(self, Class::Inaccuracy | Class::Mistake | Class::Blunder)
    }
}

impl core::fmt::Display for Class {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// `n` and the class's name, in the singular or the plural: `1 mistake`, `2 blunders`.
pub fn counted(n: u64, class: Class) -> String {
    if n == 1 {
        match class {
            Class::Only => "1 only move".to_string(),
            Class::Best => "1 best move".to_string(),
            Class::Good => "1 good move".to_string(),
            Class::Unrated => "1 unrated move".to_string(),
            c => format!("1 {}", c.name()),
        }
    } else {
        format!("{n} {}", class.plural())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_follow_the_thresholds() {
        let t = THRESHOLDS;
        assert_eq!(Class::of(0, 4, true), Class::Best);
        assert_eq!(Class::of(0, 4, false), Class::Good);
        assert_eq!(Class::of(t.inaccuracy - 1, 2, false), Class::Good);
        assert_eq!(Class::of(t.inaccuracy, 2, false), Class::Inaccuracy);
        assert_eq!(Class::of(t.mistake, 3, false), Class::Mistake);
        assert_eq!(Class::of(t.blunder - 1, 3, false), Class::Mistake);
        assert_eq!(Class::of(t.blunder, 3, false), Class::Blunder);
        assert_eq!(Class::of(1000, 1, false), Class::Only);
        assert!(t.inaccuracy < t.mistake && t.mistake < t.blunder);
    }

    #[test]
    fn counts_are_singular_for_one() {
        assert_eq!(counted(1, Class::Mistake), "1 mistake");
        assert_eq!(counted(2, Class::Mistake), "2 mistakes");
        assert_eq!(counted(1, Class::Inaccuracy), "1 inaccuracy");
        assert_eq!(counted(0, Class::Blunder), "0 blunders");
        assert_eq!(counted(1, Class::Best), "1 best move");
        assert_eq!(counted(3, Class::Only), "3 only moves");
    }
}
