//! The bots the commands offer (`record --bot`, `play --hint`) and how one is made.

use anyhow::{bail, Result};
use clap::{Args, ValueEnum};
use twenty48_bot::{Bot, Setting};
use twenty48_engine::Rules;

/// Which bot plays.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum BotName {
    /// Uniformly random legal moves, from its own seed (--bot-seed).
    Random,
    /// Looks one move and one spawn ahead, keeps big tiles in a corner.
    Greedy,
    /// Searches spawns and moves ahead within a budget of positions a move, or --depth deep
    /// at most (4x4 boards only).
    Expectimax,
}

/// How hard the expectimax bot searches. Every setting counts positions, never time: the
/// same seed, rules and setting give the same game on every machine and any --threads.
#[derive(Args, Clone, Copy, Debug)]
pub struct SearchArgs {
    /// The expectimax bot's budget of positions scored a move: it searches 3 spawns deep,
    /// then one deeper at a time (up to 12) while the next level fits. More is stronger
    /// and slower: the default, 1,000,000, takes about 6 ms a move on one core
    #[arg(long, value_name = "N", conflicts_with = "depth",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub budget: Option<u64>,
    /// Search a fixed largest depth instead of a budget (1-8, as before the budget): N
    /// spawns ahead on a full board, one less with 1 empty cell and one less again per 2
    /// more, never below 3 (or N)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..=8))]
    pub depth: Option<u8>,
    /// Threads for the expectimax bot's search (its root moves side by side, at most 4):
    /// faster on several cores, the same moves
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u16).range(1..=4))]
    pub threads: u16,
}

impl SearchArgs {
    /// The setting these options name.
    pub fn setting(&self) -> Setting {
        match (self.depth, self.budget) {
            (Some(depth), _) => Setting::Depth(depth),
            (None, Some(budget)) => Setting::Budget(budget),
            (None, None) => Setting::DEFAULT,
        }
    }
}

/// Builds the bot `name` for games under `rules`; the expectimax bot refuses boards other
/// than 4x4 (its search runs on the 4x4 fast path).
pub fn make_bot(name: BotName, rules: &Rules, seed: u64, search: &SearchArgs) -> Result<Bot> {
    let bot = match name {
        BotName::Random => Bot::random(seed),
        BotName::Greedy => Bot::greedy(),
        BotName::Expectimax => {
            Bot::expectimax_with(rules, search.setting(), usize::from(search.threads))
        }
    };
    if !bot.searches(rules) {
        bail!(
            "the expectimax bot plays 4x4 boards only (these rules are {0}x{0}); use --bot greedy",
            rules.size
        );
    }
    Ok(bot)
}
