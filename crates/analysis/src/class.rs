//! A move's class, from its loss: the thresholds of docs/analysis.md.

/// Losses (in thousandths of the best move's value) from which a move is an inaccuracy, a
/// mistake and a blunder.
pub const THRESHOLDS: Thresholds = Thresholds {
    good: 1,
    inaccuracy: 10,
    mistake: 30,
    blunder: 60,
};

/// The smallest loss of each class, in thousandths (see [`THRESHOLDS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thresholds {
    /// Below this a move is as good as the best ([`Class::Best`]).
    pub good: u16,
    /// From this loss on, an inaccuracy.
    pub inaccuracy: u16,
    /// From this loss on, a mistake.
    pub mistake: u16,
    /// From this loss on, a blunder.
    pub blunder: u16,
}

/// What the analysis makes of a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Class {
    /// The only move that changed the board: nothing to choose, left out of the accuracy.
    Only,
    /// The bot's best move, or one worth as much.
    Best,
    /// Loses less than an inaccuracy does.
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

    /// The class of a move among `legal` moves that loses `loss` thousandths.
    pub fn of(loss: u16, legal: u8) -> Class {
        let t = THRESHOLDS;
        if legal <= 1 {
            Class::Only
        } else if loss < t.good {
            Class::Best
        } else if loss < t.inaccuracy {
            Class::Good
        } else if loss < t.mistake {
            Class::Inaccuracy
        } else if loss < t.blunder {
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
            Class::Best => "best",
            Class::Good => "good",
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_follow_the_thresholds() {
        let t = THRESHOLDS;
        assert_eq!(Class::of(0, 4), Class::Best);
        assert_eq!(Class::of(t.good - 1, 2), Class::Best);
        assert_eq!(Class::of(t.good, 2), Class::Good);
        assert_eq!(Class::of(t.inaccuracy - 1, 2), Class::Good);
        assert_eq!(Class::of(t.inaccuracy, 2), Class::Inaccuracy);
        assert_eq!(Class::of(t.mistake, 3), Class::Mistake);
        assert_eq!(Class::of(t.blunder - 1, 3), Class::Mistake);
        assert_eq!(Class::of(t.blunder, 3), Class::Blunder);
        assert_eq!(Class::of(1000, 1), Class::Only);
        assert!(t.good <= t.inaccuracy && t.inaccuracy < t.mistake && t.mistake < t.blunder);
    }
}
