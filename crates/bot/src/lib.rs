//! Deterministic bots that choose moves for a twenty48 game: random, greedy and expectimax.
//!
//! A bot sees only the board (never the spawn generator) and is a pure function of the board
//! and, for [`Bot::Random`], its own seed: a bot game is reproducible from (rules, game seed,
//! bot, bot seed). No floats are used.
//!
//! ```
//! use twenty48_bot::Bot;
//! use twenty48_engine::{Game, Rules, Status};
//!
//! let mut game = Game::new(Rules::CLASSIC, 1).unwrap();
//! let mut bot = Bot::greedy();
//! while game.status() == Status::Playing && game.move_count() < 50 {
//!     let dir = bot.choose(&game).expect("a playing game has a legal move");
//!     assert!(game.play(dir).unwrap().moved);
//! }
//! ```
#![deny(missing_docs)]

mod expectimax;
mod greedy;

pub use expectimax::{Expectimax, SearchStats, Setting};

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use twenty48_engine::{Direction, Game, Rules};

/// A move-choosing strategy.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Bot {
    /// Picks uniformly among the legal moves, from its own ChaCha8 stream.
    Random {
        /// The bot's generator (keyed like the game's: seed little-endian, then zeros).
        rng: Box<ChaCha8Rng>,
    },
    /// Looks one move and one spawn ahead and keeps big tiles in a corner.
    Greedy,
    /// Searches several moves and spawns ahead (see [`Expectimax`]).
    Expectimax(Box<Expectimax>),
}

impl Bot {
    /// A random bot with its own seed.
    pub fn random(seed: u64) -> Bot {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        Bot::Random {
            rng: Box::new(ChaCha8Rng::from_seed(key)),
        }
    }

    /// The greedy bot.
    pub fn greedy() -> Bot {
        Bot::Greedy
    }

    /// The expectimax bot for games under `rules`, searching at most `depth` spawns ahead
    /// (that deep on a full board, less on open ones: see [`Expectimax::depth_for`]).
    /// It searches 4x4 boards; on other sizes it plays as the greedy bot (see
    /// [`Bot::searches`]).
    pub fn expectimax(rules: &Rules, depth: u8) -> Bot {
        Bot::Expectimax(Box::new(Expectimax::new(rules, depth)))
    }

    /// The expectimax bot for games under `rules` in its default setting
    /// ([`Setting::DEFAULT`]).
    pub fn expectimax_default(rules: &Rules) -> Bot {
        Bot::expectimax_with(rules, Setting::DEFAULT, 1)
    }

    /// The expectimax bot for games under `rules` in `setting`, searching the root moves on
    /// up to `threads` threads (the same moves on any number: see
    /// [`Expectimax::set_threads`]).
    pub fn expectimax_with(rules: &Rules, setting: Setting, threads: usize) -> Bot {
        let mut search = Expectimax::with_setting(rules, setting);
        search.set_threads(threads);
        Bot::Expectimax(Box::new(search))
    }

    /// Whether this bot searches games under `rules` as it says: false for the expectimax
    /// bot on boards other than 4x4, where it falls back to the greedy bot.
    pub fn searches(&self, rules: &Rules) -> bool {
        !matches!(self, Bot::Expectimax(_)) || rules.size == 4
    }

    /// The search's counters, for the expectimax bot.
    pub fn search_stats(&self) -> Option<SearchStats> {
        match self {
            Bot::Expectimax(search) => Some(search.stats()),
            _ => None,
        }
    }

    /// The move to play, or `None` when no move changes the board (or the game has ended).
    pub fn choose(&mut self, game: &Game) -> Option<Direction> {
        let legal = game.legal_moves();
        if legal.is_empty() {
            return None;
        }
        match self {
            Bot::Random { rng } => {
                let k = ((rng.next_u32() as u64 * legal.len() as u64) >> 32) as usize;
                legal.iter().nth(k)
            }
            Bot::Greedy => greedy::choose(game, legal),
            Bot::Expectimax(search) => search.choose(game, legal),
        }
    }
}
