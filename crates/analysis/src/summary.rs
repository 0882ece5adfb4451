//! A game's ratings summed up: how many moves of each class, the accuracy, the worst moves.
//! Kept in constant memory however long the game: ratings are added one at a time.

use crate::class::Class;
use crate::rating::Rating;

/// How many of the worst moves a summary keeps.
pub const WORST: usize = 5;

/// The accuracy of one move, in thousandths: 1000 for a move that loses nothing, falling
/// steeply as the loss grows, `1000 * 1000 / (1000 + 50 * loss)` rounded down: a loss of 10
/// (the least inaccuracy) scores 666, of 30 (a mistake) 400, of 60 (a blunder) 250, of
/// 1000 (a move that loses the game outright) 19.
pub fn move_accuracy(loss: u16) -> u32 {
    1_000_000 / (1000 + 50 * u32::from(loss.min(1000)))
}

/// What a game's ratings add up to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    counts: [u64; Class::ALL.len()],
    accuracy_sum: u64,
    chosen: u64,
    worst: Vec<Rating>,
}

impl Summary {
    /// An empty summary.
    pub fn new() -> Summary {
        Summary::default()
    }

    /// Adds a move's rating (in any order: the summary does not depend on it).
    pub fn add(&mut self, rating: &Rating) {
        self.counts[class_index(rating.class)] += 1;
        if matches!(rating.class, Class::Only | Class::Unrated) {
            return;
        }
        self.chosen += 1;
        self.accuracy_sum += u64::from(move_accuracy(rating.loss));
        if rating.loss == 0 {
            return;
        }
        // The worst: largest loss first, the earlier move first among equal losses.
        let at = self.worst.partition_point(|w| {
            (w.loss, u32::MAX - w.move_number) >= (rating.loss, u32::MAX - rating.move_number)
        });
        if at < WORST {
            self.worst.insert(at, *rating);
            self.worst.truncate(WORST);
        }
    }

    /// How many moves of `class` were added.
    pub fn count(&self, class: Class) -> u64 {
        self.counts[class_index(class)]
    }

    /// How many moves were added.
    pub fn moves(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The moves that had a choice (neither [`Class::Only`] nor [`Class::Unrated`]).
    pub fn chosen(&self) -> u64 {
        self.chosen
    }

    /// The game's accuracy in tenths of a percent (0 to 1000): the mean of
    /// [`move_accuracy`] over the moves that had a choice, rounded down; `None` when none
    /// had.
    pub fn accuracy(&self) -> Option<u32> {
        (self.chosen > 0).then(|| (self.accuracy_sum / self.chosen) as u32)
    }

    /// The worst moves (at most [`WORST`]), largest loss first; moves that lose nothing are
    /// never among them.
    pub fn worst(&self) -> &[Rating] {
        &self.worst
    }
}

fn class_index(class: Class) -> usize {
    Class::ALL.iter().position(|&c| c == class).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use twenty48_engine::Direction;

    fn rating(move_number: u32, loss: u16) -> Rating {
        Rating {
            move_number,
            played: Direction::Up,
            best: Some(Direction::Left),
            values: [Some(1000 - i64::from(loss)), None, None, Some(1000)],
            legal: 2,
            loss,
            class: Class::of(loss, 2),
        }
    }

    #[test]
    fn accuracy_and_worst_moves() {
        assert_eq!(move_accuracy(0), 1000);
        assert_eq!(move_accuracy(10), 666);
        assert_eq!(move_accuracy(30), 400);
        assert_eq!(move_accuracy(60), 250);
        assert_eq!(move_accuracy(1000), 19);
        let mut s = Summary::new();
        assert_eq!(s.accuracy(), None);
        for (n, loss) in [
            (1, 0),
            (2, 30),
            (3, 200),
            (4, 30),
            (5, 0),
            (6, 7),
            (7, 90),
            (8, 1),
        ] {
            s.add(&rating(n, loss));
        }
        let only = Rating {
            legal: 1,
            class: Class::Only,
            ..rating(9, 500)
        };
        s.add(&only);
        assert_eq!(s.moves(), 9);
        assert_eq!(s.chosen(), 8);
        assert_eq!(s.count(Class::Only), 1);
        assert_eq!(s.count(Class::Good), 2);
        assert_eq!(s.count(Class::Mistake), 2);
        assert_eq!(s.count(Class::Blunder), 2);
        let worst: Vec<u32> = s.worst().iter().map(|r| r.move_number).collect();
        assert_eq!(worst, [3, 7, 2, 4, 6]);
        let expected = [0u16, 30, 200, 30, 0, 7, 90, 1]
            .iter()
            .map(|&l| u64::from(move_accuracy(l)))
            .sum::<u64>()
            / 8;
        assert_eq!(s.accuracy(), Some(expected as u32));
    }
}
