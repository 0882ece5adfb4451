//! The bots the commands offer (`record --bot`, `play --hint`) and how one is made.

use anyhow::{bail, Result};
use clap::ValueEnum;
use twenty48_bot::Bot;
use twenty48_engine::Rules;

/// Which bot plays.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum BotName {
    /// Uniformly random legal moves, from its own seed (--bot-seed).
    Random,
    /// Looks one move and one spawn ahead, keeps big tiles in a corner.
    Greedy,
    /// Searches spawns and moves ahead, --depth deep at most (4x4 boards only).
    Expectimax,
}

/// The deepest the expectimax bot searches by default: a few hundred moves a second on one
/// core (about 280 per CPU second over the boards of a game to 16384; `just bot-eval`
/// measures a whole game).
pub const DEFAULT_DEPTH: u8 = 6;

/// Builds the bot `name` for games under `rules`; the expectimax bot refuses boards other
/// than 4x4 (its search runs on the 4x4 fast path).
pub fn make_bot(name: BotName, rules: &Rules, seed: u64, depth: u8) -> Result<Bot> {
    let bot = match name {
        BotName::Random => Bot::random(seed),
        BotName::Greedy => Bot::greedy(),
        BotName::Expectimax => Bot::expectimax(rules, depth),
    };
    if !bot.searches(rules) {
        bail!(
            "the expectimax bot plays 4x4 boards only (these rules are {0}x{0}); use --bot greedy",
            rules.size
        );
    }
    Ok(bot)
}
