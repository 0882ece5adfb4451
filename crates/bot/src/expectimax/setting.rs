//! How hard the expectimax bot searches: a fixed depth schedule, or a budget of positions a
//! move within which it searches as deep as it can.

use core::fmt;

/// How the expectimax bot searches each move. Both settings count positions, never time,
/// so a setting gives the same game on every machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Setting {
    /// A fixed largest depth (1-8, see [`Expectimax::new`](super::Expectimax::new)): that
    /// deep on a full board, less on open ones. The bot's only setting before the budget.
    Depth(u8),
    /// A budget of positions scored a move (see
    /// [`Expectimax::with_budget`](super::Expectimax::with_budget)): searched from depth
    /// [`Expectimax::DEFAULT_DEPTH`](super::Expectimax::DEFAULT_DEPTH)'s schedule, then one
    /// level deeper at a time (up to [`Expectimax::DEEPEST`](super::Expectimax::DEEPEST))
    /// while the next level is expected to fit in the budget.
    Budget(u64),
}

impl Setting {
    /// The default budget of positions scored a move ([`Setting::DEFAULT`]).
    pub const DEFAULT_BUDGET: u64 = 1_000_000;
    /// The bot's default: [`Setting::Budget`] of [`Setting::DEFAULT_BUDGET`].
    pub const DEFAULT: Setting = Setting::Budget(Setting::DEFAULT_BUDGET);
}

impl Default for Setting {
    fn default() -> Setting {
        Setting::DEFAULT
    }
}

impl fmt::Display for Setting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Setting::Depth(depth) => write!(f, "depth {depth}"),
            Setting::Budget(budget) => write!(f, "budget {budget}"),
        }
    }
}
