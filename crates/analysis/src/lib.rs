//! Where did a game go wrong, by skill or by the spawns? Every move of a twenty48 game rated
//! by the expectimax bot: the search's value of each move on the board before it, and its
//! chance, calibrated on the bot's games, that the bot playing on reaches the next tile; the
//! best move; the chance the move played gave away (its error) and its class (best, good,
//! inaccuracy, mistake, blunder); each spawn's luck; and for each tile aimed at, where its
//! chance started, the errors, the luck and where it ended, which add up. docs/analysis.md
//! defines each number and gives the calibration's reliability.
//!
//! ```
//! use twenty48_analysis::{Analysis, Class, ONE};
//! use twenty48_engine::{Direction, Rules};
//!
//! let moves = [Direction::Left, Direction::Up, Direction::Right, Direction::Down];
//! let analysis = Analysis::of_game(Rules::CLASSIC, 1, moves, 2).unwrap();
//! assert_eq!(analysis.ratings.len(), 4);
//! let first = &analysis.ratings[0];
//! assert_eq!(first.move_number, 1);
//! assert!(first.value(Direction::Left).is_some());
//! assert!(first.chance(Direction::Left).is_some_and(|c| c <= ONE));
//! assert_eq!(analysis.summary.moves(), 4);
//! for tile in analysis.summary.segments() {
//!     let end = i64::from(tile.end.unwrap());
//!     assert_eq!(i64::from(tile.start) - tile.errors as i64 + tile.luck, end);
//! }
//! assert!(Class::Blunder > Class::Mistake);
//! ```
//!
//! Everything is integer arithmetic on the bot's integer search and on integer tables (the
//! fitted curves of [`calibration`] and the logistic function), and each position is rated
//! on its own (the search's cache starts empty for each), so an analysis is the same on
//! every machine, in the browser, and whatever the number of threads rating it. The fit
//! (`examples/calibrate.rs`, `just calibrate`) runs offline, on the host.
//!
//! - [`Positions`]: a game replayed into its positions (the board before each move).
//! - [`Rater`]: rates a [`Position`] into a [`Rating`]; [`Rater::standing`] values a board.
//! - [`chance`]: a search value as a chance of the tile aimed at.
//! - [`Summary`]: ratings added up, in order: counts by [`Class`], error rate, worst moves,
//!   luck, and each tile's [`Segment`].
//! - [`Analysis`]: all of it for a game held in memory (the web page's and the tests').
#![deny(missing_docs)]

pub mod calibration;
mod class;
mod error;
mod positions;
mod rating;
mod summary;
mod value;

pub use class::{counted, Class, Thresholds, THRESHOLDS};
pub use error::AnalysisError;
pub use positions::Positions;
pub use rating::{likelier_spawn, Ply, Position, Rater, Rating, Standing, REAL_STAKE};
pub use summary::{Luck, Segment, Summary, LUCKIEST, WORST};
pub use value::{chance, logistic, logit, percent, points, progress, target_of, ONE};

pub use twenty48_bot::Setting;
use twenty48_engine::{Direction, Rules};

/// The bot's own default setting (a budget of positions a move): the setting the chances'
/// curves were fitted in (`just calibrate`) and [`Analysis::of_game_with`]'s usual choice.
pub const DEFAULT_SETTING: Setting = Setting::DEFAULT;

/// The largest depth of `twenty48 analyse` and of the web page by default, so that both give
/// the same numbers (WebAssembly, one thread: the bot's budget would take about 3 times as
/// long there). The chances' reliability at this depth is in docs/analysis.md too.
pub const DEFAULT_DEPTH: u8 = 6;

/// A game's analysis, held whole in memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// Every move rated, in order (up to the first that could not be played).
    pub ratings: Vec<Rating>,
    /// The ratings added up.
    pub summary: Summary,
    /// Why the analysis stopped before the end of the moves, if it did.
    pub stopped: Option<AnalysisError>,
}

impl Analysis {
    /// Rates every move of the game of `rules` and `seed` that plays `moves`, at largest
    /// depth `depth`. Stops at the first move that cannot be played (kept in `stopped`).
    pub fn of_game(
        rules: Rules,
        seed: u64,
        moves: impl IntoIterator<Item = Direction>,
        depth: u8,
    ) -> Result<Analysis, AnalysisError> {
        Analysis::of_game_with(rules, seed, moves, Setting::Depth(depth))
    }

    /// Rates every move of the game of `rules` and `seed` that plays `moves`, searching as
    /// the bot of `setting` does. Stops at the first move that cannot be played (kept in
    /// `stopped`).
    pub fn of_game_with(
        rules: Rules,
        seed: u64,
        moves: impl IntoIterator<Item = Direction>,
        setting: Setting,
    ) -> Result<Analysis, AnalysisError> {
        let mut rater = Rater::with_setting(&rules, setting);
        let mut analysis = Analysis {
            ratings: Vec::new(),
            summary: Summary::new(),
            stopped: None,
        };
        let mut positions = Positions::new(rules, seed, moves.into_iter())?;
        for position in positions.by_ref() {
            match position {
                Ok(p) => {
                    let rating = rater.rate(&p);
                    analysis.summary.add(&rating);
                    analysis.ratings.push(rating);
                }
                Err(e) => analysis.stopped = Some(e),
            }
        }
        let end = rater.standing(&positions.cells());
        analysis.summary.finish(end);
        Ok(analysis)
    }
}
