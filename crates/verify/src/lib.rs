//! Replays twenty48 games, checks what their logs claim, and finds where two games part.
//! Runs on the host.
//!
//! ```
//! use twenty48_engine::{Direction, Rules};
//! use twenty48_movelog::MoveLog;
//! use twenty48_verify::{verify, EngineChoice};
//!
//! let moves = [Direction::Left, Direction::Up, Direction::Right];
//! let mut log = MoveLog::from_moves(Rules::CLASSIC, 1, &moves, 2).unwrap();
//! assert!(verify(&log, EngineChoice::Both).is_ok());
//!
//! // A false claim is caught, with what was expected and what the replay gives.
//! log.claims.score += 4;
//! let report = verify(&log, EngineChoice::Fast);
//! let problem = report.problem.unwrap();
//! assert_eq!(problem.to_string(), "the log claims score 8, but the replay gives 4");
//! ```
//!
//! - [`replay`]: step through a log, one [`State`] per move.
//! - [`verify`]: replay on one engine (the fast one by default) at the speed of
//!   [`Game::play_all`](twenty48_engine::Game::play_all), checking every move, checkpoint
//!   and claim; [`Report`] names the first problem. [`EngineChoice::Both`] also compares the
//!   fast and the reference engines after every move (an engine test).
//! - [`diff`](mod@diff): the first move at which two games differ, and what differed;
//!   [`parting`]: that in the words of `twenty48 diff` (which the web page shows too).
//! - [`batch`]: verify many files on all cores, reporting every failure.
#![deny(missing_docs)]

pub mod batch;
pub mod diff;
mod engines;
pub mod parting;
mod problem;
mod reader;
mod replay;
mod source;
mod state;
mod verdict;

pub use diff::{diff, Difference, Divergence, Trace};
pub use engines::{verify, EngineChoice};
pub use problem::{ClaimField, Problem};
pub use replay::{replay, Report, Summary};
pub use source::{Log, Stretch, STRETCH};
pub use state::State;
