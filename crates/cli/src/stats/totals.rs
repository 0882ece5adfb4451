//! The running totals each verified game is folded into: by rule set, and the files that
//! were not counted.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use twenty48_engine::Rules;

/// Totals over a group of verified games.
#[derive(Clone, Debug, Default)]
pub struct Group {
    /// Games counted.
    pub games: u64,
    /// Moves over all of them.
    pub moves: u64,
    /// Every score, for the median (sorted before reporting).
    pub scores: Vec<u64>,
    /// The highest score and its file.
    pub best: Option<(u64, PathBuf)>,
    /// Games by the exponent of their largest tile.
    pub largest: BTreeMap<u8, u64>,
    /// The longest game: moves and file.
    pub longest: Option<(u32, PathBuf)>,
    /// The rules' winning tile (an exponent), if any, and games that made it.
    pub win: Option<(u8, u64)>,
}

impl Group {
    pub(super) fn add(&mut self, game: &Game, path: &Path) {
        self.games += 1;
        self.moves += game.moves as u64;
        self.scores.push(game.score);
        keep_top(&mut self.best, game.score, path);
        *self.largest.entry(game.max_exponent).or_default() += 1;
        keep_top(&mut self.longest, game.moves, path);
        if let Some(w) = game.rules.win {
            let (_, wins) = self.win.get_or_insert((w.exponent, 0));
            *wins += (game.max_exponent >= w.exponent) as u64;
        }
    }

    pub(super) fn merge(&mut self, other: &Group) {
        self.games += other.games;
        self.moves += other.moves;
        self.scores.extend_from_slice(&other.scores);
        if let Some((s, p)) = &other.best {
            keep_top(&mut self.best, *s, p);
        }
        for (e, n) in &other.largest {
            *self.largest.entry(*e).or_default() += n;
        }
        if let Some((m, p)) = &other.longest {
            keep_top(&mut self.longest, *m, p);
        }
    }

    /// The mean score.
    pub fn mean(&self) -> f64 {
        if self.games == 0 {
            return 0.0;
        }
        self.scores.iter().map(|&s| s as f64).sum::<f64>() / self.games as f64
    }

    /// The median score (the mean of the middle two for an even count); `scores` sorted.
    pub fn median(&self) -> f64 {
        let s = &self.scores;
        match s.len() {
            0 => 0.0,
            n if n % 2 == 1 => s[n / 2] as f64,
            n => (s[n / 2 - 1] as f64 + s[n / 2] as f64) / 2.0,
        }
    }
}

/// Keeps the larger of `top` and (`value`, `path`); between equal values the path that sorts
/// first, so the report does not depend on which worker finished first.
fn keep_top<T: Ord + Copy>(top: &mut Option<(T, PathBuf)>, value: T, path: &Path) {
    let better = top
        .as_ref()
        .is_none_or(|(v, p)| value > *v || (value == *v && path < p.as_path()));
    if better {
        *top = Some((value, path.to_path_buf()));
    }
}

/// What the statistics keep of one verified game.
pub(super) struct Game {
    pub(super) rules: Rules,
    pub(super) moves: u32,
    pub(super) score: u64,
    pub(super) max_exponent: u8,
}

/// Everything gathered: groups by rule set name, failures named.
#[derive(Debug, Default)]
pub struct Totals {
    /// Verified games by rule set (a preset's name, or `custom (...)` with the rules).
    pub by_rules: BTreeMap<String, Group>,
    /// Files that failed verification, with the first problem.
    pub failed: Vec<(PathBuf, String)>,
    /// Files that could not be read or decoded, with why.
    pub unreadable: Vec<(PathBuf, String)>,
    /// Partial logs (a verified beginning of a game each: a device game a power cut
    /// interrupted, a damaged journal's): never counted as games, said why.
    pub partial: Vec<(PathBuf, String)>,
}

impl Totals {
    /// All verified games together.
    pub fn all(&self) -> Group {
        let mut all = Group::default();
        for g in self.by_rules.values() {
            all.merge(g);
        }
        all.scores.sort_unstable();
        all
    }

    /// Files looked at.
    pub fn files(&self) -> u64 {
        self.by_rules.values().map(|g| g.games).sum::<u64>()
            + (self.failed.len() + self.unreadable.len() + self.partial.len()) as u64
    }
}
