//! Sets of games kept as runs of consecutive keys, so that what a pull remembers about the
//! games it received takes room by the runs of their numbers, not by how many there are: a
//! device numbers its games 1, 2, 3, ..., and the 34,560 games of a full store are one run.
//! Each set holds at most [`MAX_RUNS`] runs; past that it refuses new keys and says so
//! ([`Runs::overflowed`]), and the report says what that left uncertain.

use std::collections::BTreeMap;

/// The most runs one set keeps (about 1 MiB of memory at most per set).
pub const MAX_RUNS: usize = 16_384;

/// A game's key: device id and game number, in one ordered number (device first). Protocol
/// v1 games have no identity and no key.
pub(super) fn key(dev: u64, game: u32) -> u128 {
    (u128::from(dev) << 32) | u128::from(game)
}

/// The device and game number of a key.
pub(super) fn parts(key: u128) -> (u64, u32) {
    ((key >> 32) as u64, key as u32)
}

/// A set of keys, each with a value (`()` for a plain set), kept as runs of consecutive keys
/// with one value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Runs<V = ()> {
    /// Each run by its first key: (its last key, its value).
    runs: BTreeMap<u128, (u128, V)>,
    /// A key was refused: the set is short of it.
    overflowed: bool,
}

impl<V> Default for Runs<V> {
    fn default() -> Self {
        Runs {
            runs: BTreeMap::new(),
            overflowed: false,
        }
    }
}

impl<V: Copy + Eq> Runs<V> {
    /// The run holding `key`: (first, last, value).
    fn run_of(&self, key: u128) -> Option<(u128, u128, V)> {
        let (&first, &(last, v)) = self.runs.range(..=key).next_back()?;
        (key <= last).then_some((first, last, v))
    }

    /// The value of `key`, if it is in the set.
    pub(super) fn get(&self, key: u128) -> Option<V> {
        self.run_of(key).map(|(_, _, v)| v)
    }

    /// Whether `key` is in the set.
    pub(super) fn contains(&self, key: u128) -> bool {
        self.run_of(key).is_some()
    }

    /// Whether a key was ever refused for want of room.
    pub(super) fn overflowed(&self) -> bool {
        self.overflowed
    }

    /// Puts `key` in the set with `value` (replacing its value if it is there). `false` when
    /// that needs more than [`MAX_RUNS`] runs: the set is left as it was, and marked.
    pub(super) fn insert(&mut self, key: u128, value: V) -> bool {
        if self.get(key) == Some(value) {
            return true;
        }
        // Out with the key's old value, if any (splitting its run), then in with the new one
        // (joining its neighbours of the same value). Counted first, so that a refusal
        // changes nothing.
        let old = self.run_of(key);
        let split = old.map_or(0, |(first, last, _)| {
            usize::from(first < key) + usize::from(key < last)
        });
        let before = key
            .checked_sub(1)
            .and_then(|k| self.run_of(k))
            .filter(|&(_, _, v)| v == value && old.is_none_or(|(first, ..)| first == key));
        let after = key
            .checked_add(1)
            .and_then(|k| self.run_of(k))
            .filter(|&(_, _, v)| v == value && old.is_none_or(|(_, last, _)| last == key));
        let runs = self.runs.len() - usize::from(old.is_some()) + split + 1
            - usize::from(before.is_some())
            - usize::from(after.is_some());
        if runs > MAX_RUNS {
            self.overflowed = true;
            return false;
        }
        if let Some((first, last, v)) = old {
            self.runs.remove(&first);
            if first < key {
                self.runs.insert(first, (key - 1, v));
            }
            if key < last {
                self.runs.insert(key + 1, (last, v));
            }
        }
        let mut first = key;
        let mut last = key;
        if let Some((f, _, _)) = before {
            self.runs.remove(&f);
            first = f;
        }
        if let Some((f, l, _)) = after {
            self.runs.remove(&f);
            last = l;
        }
        self.runs.insert(first, (last, value));
        true
    }

    /// The runs, in order: (first, last, value).
    pub(super) fn iter(&self) -> impl Iterator<Item = (u128, u128, V)> + '_ {
        self.runs
            .iter()
            .map(|(&first, &(last, v))| (first, last, v))
    }

    /// The runs meeting `lo..=hi`, cut to it, in order.
    pub(super) fn within(&self, lo: u128, hi: u128) -> impl Iterator<Item = (u128, u128)> + '_ {
        let start = self.run_of(lo).map_or(lo, |(first, _, _)| first);
        self.runs
            .range(start..=hi)
            .map(move |(&first, &(last, _))| (first.max(lo), last.min(hi)))
    }
}

impl Runs<()> {
    /// The keys `first..=last`, one run.
    pub(super) fn span(first: u128, last: u128) -> Runs {
        let mut set = Runs::default();
        if first <= last {
            set.runs.insert(first, (last, ()));
        }
        set
    }

    /// The set of the runs `runs` (in order, apart), however many.
    pub(super) fn from_runs(runs: Vec<(u128, u128)>) -> Runs {
        Runs {
            runs: runs.into_iter().map(|(f, l)| (f, (l, ()))).collect(),
            overflowed: false,
        }
    }

    /// Puts `key` in the set; `false` when there was no room (the set is marked).
    pub(super) fn add(&mut self, key: u128) -> bool {
        self.insert(key, ())
    }

    /// The keys of this set that are in none of `others`, as runs: (first, last).
    pub(super) fn without(&self, others: &[&Runs]) -> Vec<(u128, u128)> {
        let mut left: Vec<(u128, u128)> = self.iter().map(|(f, l, _)| (f, l)).collect();
        for other in others {
            let mut next = Vec::with_capacity(left.len());
            for (first, last) in left {
                let mut from = Some(first);
                for (f, l) in other.within(first, last) {
                    if let Some(start) = from.filter(|&s| s < f) {
                        next.push((start, f - 1));
                    }
                    from = l.checked_add(1);
                }
                if let Some(start) = from.filter(|&s| s <= last) {
                    next.push((start, last));
                }
            }
            left = next;
        }
        left
    }

    /// How many keys of this set are in none of `others`.
    pub(super) fn count_without(&self, others: &[&Runs]) -> u128 {
        self.without(others).iter().map(|(f, l)| l - f + 1).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(runs: &Runs) -> Vec<(u128, u128)> {
        runs.iter().map(|(f, l, _)| (f, l)).collect()
    }

    #[test]
    fn consecutive_keys_make_one_run_whatever_their_order() {
        let mut set = Runs::default();
        for k in [5, 3, 4, 7, 6, 1] {
            assert!(set.add(k));
        }
        assert_eq!(keys(&set), [(1, 1), (3, 7)]);
        assert!(set.add(2));
        assert_eq!(keys(&set), [(1, 7)]);
        assert_eq!(set.count_without(&[]), 7);
        assert!(set.contains(1) && set.contains(7) && !set.contains(8) && !set.contains(0));
        assert!(set.add(4), "a key already there");
        assert_eq!(keys(&set), [(1, 7)]);
    }

    #[test]
    fn a_new_value_splits_its_run_and_joins_its_neighbours() {
        let mut map: Runs<u8> = Runs::default();
        for k in 1..=9 {
            map.insert(k, 0);
        }
        map.insert(5, 1);
        assert_eq!(
            map.iter().collect::<Vec<_>>(),
            [(1, 4, 0), (5, 5, 1), (6, 9, 0)]
        );
        map.insert(4, 1);
        map.insert(6, 1);
        assert_eq!(
            map.iter().collect::<Vec<_>>(),
            [(1, 3, 0), (4, 6, 1), (7, 9, 0)]
        );
        map.insert(1, 1);
        assert_eq!(map.get(1), Some(1));
        assert_eq!(map.get(2), Some(0));
        map.insert(5, 0);
        assert_eq!(
            map.iter().collect::<Vec<_>>(),
            [
                (1, 1, 1),
                (2, 3, 0),
                (4, 4, 1),
                (5, 5, 0),
                (6, 6, 1),
                (7, 9, 0)
            ]
        );
        map.insert(4, 0);
        map.insert(6, 0);
        map.insert(1, 0);
        assert_eq!(map.iter().collect::<Vec<_>>(), [(1, 9, 0)]);
    }

    #[test]
    fn past_the_cap_a_key_is_refused_and_the_set_says_so() {
        let mut set = Runs::default();
        for i in 0..MAX_RUNS as u128 {
            assert!(set.add(2 * i));
        }
        assert!(!set.overflowed());
        assert!(!set.add(2 * MAX_RUNS as u128 + 10), "a new run");
        assert!(set.overflowed());
        assert!(!set.contains(2 * MAX_RUNS as u128 + 10));
        // Keys that join runs still go in (one joins two runs into one).
        assert!(set.add(1));
        assert!(set.add(2 * MAX_RUNS as u128));
        assert_eq!(set.count_without(&[]), MAX_RUNS as u128 + 2);
        // A value that would split a run is refused too.
        let mut map: Runs<u8> = Runs::default();
        for i in 0..MAX_RUNS as u128 {
            map.insert(3 * i, 0);
            map.insert(3 * i + 1, 0);
        }
        assert!(!map.insert(1, 1));
        assert_eq!(map.get(1), Some(0));
        assert!(
            !map.insert(0, 1),
            "the end of a run, another value: a new run"
        );
        assert!(
            map.insert(2, 0),
            "between two runs of its value: joins them"
        );
        assert_eq!(map.get(2), Some(0));
    }

    #[test]
    fn differences_and_ranges_are_run_arithmetic() {
        let set = |v: &[(u128, u128)]| {
            let mut s = Runs::default();
            for &(f, l) in v {
                for k in f..=l {
                    s.add(k);
                }
            }
            s
        };
        let a = set(&[(1, 10), (20, 30)]);
        let b = set(&[(3, 4), (10, 21)]);
        let c = set(&[(25, 25)]);
        assert_eq!(a.without(&[&b, &c]), [(1, 2), (5, 9), (22, 24), (26, 30)]);
        assert_eq!(a.count_without(&[&b, &c]), 2 + 5 + 3 + 5);
        assert_eq!(a.count_without(&[]), 21);
        assert_eq!(a.within(5, 22).collect::<Vec<_>>(), [(5, 10), (20, 22)]);
        assert_eq!(a.within(11, 19).count(), 0);
        // The holes of a span: what the gap report lists.
        let holes = |lo, hi, v: &[u128]| {
            let present = set(&v.iter().map(|&k| (k, k)).collect::<Vec<_>>());
            Runs::span(lo, hi).without(&[&present])
        };
        assert_eq!(holes(1, 5, &[1, 2, 3, 4, 5]), []);
        assert_eq!(holes(1, 5, &[]), [(1, 5)]);
        assert_eq!(holes(1, 9, &[1, 4, 5, 9]), [(2, 3), (6, 8)]);
        assert_eq!(holes(3, 7, &[1, 9]), [(3, 7)]);
        assert_eq!(holes(5, 4, &[]), []);
        let max = u128::from(u32::MAX);
        assert_eq!(holes(2, max, &[max]), [(2, max - 1)]);
        assert_eq!(holes(0, max, &[0, max]), [(1, max - 1)]);
        let top = set(&[(u128::MAX - 1, u128::MAX)]);
        assert_eq!(
            top.without(&[&set(&[(u128::MAX, u128::MAX)])]),
            [(u128::MAX - 1, u128::MAX - 1)]
        );
        assert_eq!(key(7, 9) >> 32, 7);
        assert_eq!(parts(key(u64::MAX, u32::MAX)), (u64::MAX, u32::MAX));
    }
}
