//! Where did a game go wrong? Every move of a twenty48 game rated by the expectimax bot: the
//! bot's value of each move on the board before it, the best move, the share of the best
//! value the move played gave away (its loss), and its class (best, good, inaccuracy,
//! mistake, blunder), with the game's accuracy and worst moves. docs/analysis.md defines
//! each number.
//!
//! ```
//! use twenty48_analysis::{Analysis, Class};
//! use twenty48_engine::{Direction, Rules};
//!
//! let moves = [Direction::Left, Direction::Up, Direction::Right, Direction::Down];
//! let analysis = Analysis::of_game(Rules::CLASSIC, 1, moves, 2).unwrap();
//! assert_eq!(analysis.ratings.len(), 4);
//! let first = &analysis.ratings[0];
//! assert_eq!(first.move_number, 1);
//! assert!(first.value(Direction::Left).is_some());
//! assert!(first.loss <= 1000);
//! assert!(analysis.summary.accuracy().is_some());
//! assert_eq!(analysis.summary.moves(), 4);
//! assert!(Class::Blunder > Class::Mistake);
//! ```
//!
//! Everything is integer arithmetic on the bot's integer search, and each position is rated
//! on its own (the search's cache starts empty for each), so an analysis is the same on
//! every machine, in the browser, and whatever the number of threads rating it.
//!
//! - [`Positions`]: a game replayed into its positions (the board before each move).
//! - [`Rater`]: rates a [`Position`] into a [`Rating`].
//! - [`Summary`]: ratings added up: counts by [`Class`], accuracy, worst moves.
//! - [`Analysis`]: all three for a game held in memory (the web page's and the tests').
#![deny(missing_docs)]

mod class;
mod error;
mod positions;
mod rating;
mod summary;

pub use class::{Class, Thresholds, THRESHOLDS};
pub use error::AnalysisError;
pub use positions::Positions;
pub use rating::{loss, Position, Rater, Rating};
pub use summary::{move_accuracy, Summary, WORST};

pub use twenty48_bot::Setting;
use twenty48_engine::{Direction, Rules};

/// The bot's setting the analysis searches in unless told otherwise: the bot's own default.
pub const DEFAULT_SETTING: Setting = Setting::DEFAULT;

/// The largest depth of the analysis in the web page (WebAssembly, one thread: the default
/// setting would take about 3 times as long there) and of quick analyses: the bot's default
/// before its budget.
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
        for position in Positions::new(rules, seed, moves.into_iter())? {
            match position {
                Ok(p) => {
                    let rating = rater.rate(&p);
                    analysis.summary.add(&rating);
                    analysis.ratings.push(rating);
                }
                Err(e) => analysis.stopped = Some(e),
            }
        }
        Ok(analysis)
    }
}
