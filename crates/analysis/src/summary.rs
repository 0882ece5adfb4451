//! A game's ratings summed up: how many moves of each class, the error rate over the real
//! choices, the worst moves, the luck of the spawns, and for each tile aimed at where its
//! chance started, the errors and the luck, and where it ended. Kept in bounded memory
//! however long the game: ratings are added one at a time, in order.

use crate::class::Class;
use crate::rating::{Rating, Standing};
use crate::value::ONE;

/// How many of the worst moves a summary keeps.
pub const WORST: usize = 5;
/// How many of the luckiest and of the unluckiest spawns a summary keeps.
pub const LUCKIEST: usize = 3;

/// A spawn's luck: how far it moved the chance of the tile aimed at, against the search's
/// value of the board before it (the average over its spawns).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Luck {
    /// The move the spawn followed.
    pub move_number: u32,
    /// The exponent of the tile aimed at.
    pub target: u8,
    /// The chance after the spawn less the chance before it, in millionths.
    pub luck: i64,
}

/// One tile aimed at, from the first move that aimed at it to the move that reached it (or
/// the last move analysed): `start - errors + luck = end`, exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    /// The exponent of the tile aimed at.
    pub target: u8,
    /// The first move that aimed at it.
    pub first_move: u32,
    /// The last move that aimed at it.
    pub last_move: u32,
    /// Its chance before the first move (the highest of a move's), in millionths.
    pub start: u32,
    /// The chance the moves gave away, summed.
    pub errors: u64,
    /// The spawns' luck, summed.
    pub luck: i64,
    /// Its chance after the last move's spawn: [`ONE`] when reached, 0 when the game was
    /// lost; `None` while the analysis goes on.
    pub end: Option<u32>,
}

impl Segment {
    /// Whether the tile was reached.
    pub fn reached(&self) -> bool {
        self.end == Some(ONE)
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Pending {
    move_number: u32,
    target: u8,
    after: u32,
}

/// What a game's ratings add up to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    counts: [u64; Class::ALL.len()],
    real: u64,
    real_errors: u64,
    real_shares: u64,
    worst: Vec<Rating>,
    luckiest: Vec<Luck>,
    unluckiest: Vec<Luck>,
    segments: Vec<Segment>,
    pending: Option<Pending>,
}

impl Summary {
    /// An empty summary.
    pub fn new() -> Summary {
        Summary::default()
    }

    /// Adds the next move's rating: ratings are added in the order of the moves (the luck
    /// of a spawn is read from the rating of the move after it).
    pub fn add(&mut self, rating: &Rating) {
        self.counts[class_index(rating.class)] += 1;
        let (Some(before), Some(after)) = (rating.before(), rating.after()) else {
            // Unrated: the chain of chances breaks; the open tile ends where it stood.
            self.close(None);
            return;
        };
        self.close(Some(Standing {
            target: rating.target,
            chance: before,
        }));
        if self.segments.last().is_none_or(|s| s.end.is_some()) {
            self.segments.push(Segment {
                target: rating.target,
                first_move: rating.move_number,
                last_move: rating.move_number,
                start: before,
                errors: 0,
                luck: 0,
                end: None,
            });
        }
        let segment = self.segments.last_mut().expect("an open segment");
        segment.errors += u64::from(rating.error);
        segment.last_move = rating.move_number;
        self.pending = Some(Pending {
            move_number: rating.move_number,
            target: rating.target,
            after,
        });
        if rating.is_real_choice() {
            self.real += 1;
            self.real_errors += u64::from(rating.error);
            self.real_shares += u64::from(rating.error) * 1000 / u64::from(rating.stake);
        }
        if rating.error > 0 && rating.class != Class::Best {
            // The worst: largest error first, the earlier move first among equal errors.
            let key = |r: &Rating| (r.error, u32::MAX - r.move_number);
            let at = self.worst.partition_point(|w| key(w) >= key(rating));
            if at < WORST {
                self.worst.insert(at, *rating);
                self.worst.truncate(WORST);
            }
        }
    }

    /// Ends the game's analysis with what the board after the last move's spawn is worth
    /// ([`crate::Rater::standing`]; `None` for a board the search cannot hold): the last
    /// spawn's luck and the last tile's end.
    pub fn finish(&mut self, standing: Option<Standing>) {
        self.close_with(standing, true);
    }

    /// The spawn after the pending move, from the standing of the board it made.
    fn close(&mut self, next: Option<Standing>) {
        self.close_with(next, false);
    }

    /// [`Summary::close`]; `last` when no move follows, which ends the tile aimed at.
    fn close_with(&mut self, next: Option<Standing>, last: bool) {
        let Some(p) = self.pending.take() else {
            return;
        };
        let segment = self.segments.last_mut().expect("a pending move's segment");
        let Some(next) = next else {
            segment.end = Some(p.after);
            return;
        };
        let reached = next.target > p.target;
        let value = if reached { ONE } else { next.chance };
        let luck = i64::from(value) - i64::from(p.after);
        segment.luck += luck;
        if reached || last {
            segment.end = Some(value);
        }
        let l = Luck {
            move_number: p.move_number,
            target: p.target,
            luck,
        };
        if luck > 0 {
            keep(&mut self.luckiest, l, |l| {
                (l.luck, u32::MAX - l.move_number)
            });
        } else if luck < 0 {
            keep(&mut self.unluckiest, l, |l| {
                (-l.luck, u32::MAX - l.move_number)
            });
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

    /// The decisions that were real choices ([`Rating::is_real_choice`]).
    pub fn chosen(&self) -> u64 {
        self.real
    }

    /// The error rate, in tenths of a percent (0 to 1000): over the real choices, the mean
    /// share of the chance at stake (the best move's chance less the worst move's) that the
    /// move played gave away, each share in tenths of a percent rounded down, the mean
    /// rounded down; `None` when no decision was a real choice. The bot's own move gives
    /// away none; a move drawn at random among the legal ones, about half.
    pub fn error_rate(&self) -> Option<u32> {
        (self.real > 0).then(|| (self.real_shares / self.real) as u32)
    }

    /// The game's accuracy, in tenths of a percent: 1000 less [`Summary::error_rate`]. A
    /// game that plays on with no further error only gains; one cut short never scores above
    /// its longer self.
    pub fn accuracy(&self) -> Option<u32> {
        self.error_rate().map(|e| 1000 - e.min(1000))
    }

    /// The mean error of a real choice, in millionths of chance.
    pub fn mean_error(&self) -> Option<u64> {
        (self.real > 0).then(|| self.real_errors / self.real)
    }

    /// The worst moves (at most [`WORST`]), largest error first; moves that give away
    /// nothing, and the bot's own moves, are never among them.
    pub fn worst(&self) -> &[Rating] {
        &self.worst
    }

    /// The spawns that helped most (at most [`LUCKIEST`]), most first.
    pub fn luckiest(&self) -> &[Luck] {
        &self.luckiest
    }

    /// The spawns that hurt most (at most [`LUCKIEST`]), most first.
    pub fn unluckiest(&self) -> &[Luck] {
        &self.unluckiest
    }

    /// Each tile aimed at, in order: where its chance started, the errors, the luck, where
    /// it ended.
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// The chance given away by all moves, summed (the segments' errors).
    pub fn errors(&self) -> u64 {
        self.segments.iter().map(|s| s.errors).sum()
    }

    /// The spawns' luck, summed (the segments' luck).
    pub fn luck(&self) -> i64 {
        self.segments.iter().map(|s| s.luck).sum()
    }
}

fn keep<K: Ord>(list: &mut Vec<Luck>, l: Luck, key: impl Fn(&Luck) -> K) {
    let at = list.partition_point(|x| key(x) >= key(&l));
    if at < LUCKIEST {
        list.insert(at, l);
        list.truncate(LUCKIEST);
    }
}

fn class_index(class: Class) -> usize {
    Class::ALL.iter().position(|&c| c == class).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use twenty48_engine::Direction;

    /// A two-move decision: best worth `best`, the move played worth `best - error`.
    fn rating(move_number: u32, target: u8, best: u32, error: u32) -> Rating {
        let chances = [Some(best - error), None, None, Some(best)];
        let values = [
            Some(i64::from(best - error)),
            None,
            None,
            Some(i64::from(best)),
        ];
        Rating::from_values(move_number, Direction::Up, target, values, chances).unwrap()
    }

    #[test]
    fn start_less_errors_plus_luck_is_the_end() {
        let mut s = Summary::new();
        s.add(&rating(1, 5, 900_000, 0));
        s.add(&rating(2, 5, 850_000, 30_000)); // luck -50,000
        s.add(&rating(3, 5, 880_000, 0)); // luck +60,000
        s.add(&rating(4, 6, 400_000, 200_000)); // reached 32: luck +120,000
        s.finish(Some(Standing {
            target: 6,
            chance: 0,
        })); // lost: luck -200,000
        let [a, b] = s.segments() else {
            panic!("two tiles: {:?}", s.segments())
        };
        assert_eq!(
            (a.start, a.errors, a.luck, a.end),
            (900_000, 30_000, 130_000, Some(ONE))
        );
        assert!(a.reached() && !b.reached());
        assert_eq!(
            (b.start, b.errors, b.luck, b.end),
            (400_000, 200_000, -200_000, Some(0))
        );
        assert_eq!(s.luckiest()[0].move_number, 3);
        assert_eq!(s.unluckiest()[0].move_number, 4);
        assert_eq!(s.worst()[0].move_number, 4);
        assert_eq!((s.errors(), s.luck()), (230_000, -70_000));
    }

    #[test]
    fn error_rate_is_the_mean_share_of_the_stake_given_away() {
        let mut s = Summary::new();
        assert_eq!(s.error_rate(), None);
        s.add(&rating(1, 11, 600_000, 100_000));
        s.add(&rating(2, 11, 600_000, 0)); // stake 0: no real choice
        s.add(&rating(3, 11, 600_000, 300_000));
        assert_eq!(s.chosen(), 2);
        assert_eq!(s.error_rate(), Some(1000));
        assert_eq!(s.accuracy(), Some(0));
        // The best of three moves played, at a stake of 30 points: a share of 0.
        let chances = [Some(300_000), Some(600_000), Some(500_000), None];
        let values = [Some(3), Some(6), Some(5), None];
        s.add(&Rating::from_values(4, Direction::Right, 11, values, chances).unwrap());
        // The middle one: gives away 10 of the 30 points at stake, 333 thousandths.
        s.add(&Rating::from_values(5, Direction::Down, 11, values, chances).unwrap());
        assert_eq!(s.chosen(), 4);
        assert_eq!(s.error_rate(), Some((1000 + 1000 + 333) / 4));
        assert_eq!(s.count(Class::Blunder), 3);
        assert_eq!(s.count(Class::Best), 2);
    }

    #[test]
    fn a_game_cut_short_never_scores_above_its_longer_self() {
        // The same errors, then more moves with a choice and no error.
        let mut short = Summary::new();
        let mut long = Summary::new();
        for n in 1..=20 {
            let r = rating(n, 11, 700_000, if n % 4 == 0 { 50_000 } else { 0 });
            short.add(&r);
            long.add(&r);
        }
        for n in 21..=40 {
            // Best played where the worst move would give away 20 points.
            let chances = [Some(500_000), Some(700_000), None, None];
            let values = [Some(5), Some(7), None, None];
            let r = Rating::from_values(n, Direction::Right, 11, values, chances).unwrap();
            long.add(&r);
        }
        assert!(long.accuracy() > short.accuracy());
    }
}
