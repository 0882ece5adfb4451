//! The twenty48 terminal game, minus the terminal. Runs on the host.
//!
//! Everything here is a plain function or a small type that a test can drive: screens are
//! rendered from the game state to lines of styled text ([`render_play`], [`render_watch`]),
//! keys are mapped to actions ([`action`]), the original game's colours are reduced to what a
//! terminal can show ([`ColorMode`]), best scores are kept per rule set ([`BestScores`]), and
//! every move is journaled to disk before the next key is read ([`Journal`]). [`Terminal`]
//! owns a real terminal and always gives it back, even on a panic; the `twenty48` binary
//! runs `twenty48 play` and `twenty48 replay --watch` on it.
//!
//! ```
//! use twenty48_engine::{Direction, Game, Rules};
//! use twenty48_tui::{render_play, BoardView, ColorMode, PlayView, Prompt};
//!
//! let mut game = Game::new(Rules::CONSOLE, 3).unwrap();
//! game.play(Direction::Left).unwrap();
//! let cells = game.cells();
//! let view = PlayView {
//!     board: BoardView { size: 4, exponents: cells.exponents(), marked: &[] },
//!     rules: game.rules(),
//!     seed: 3,
//!     score: game.score(),
//!     gained: 0,
//!     best: game.score(),
//!     moves: game.move_count(),
//!     prompt: Prompt::None,
//!     note: None,
//! };
//! let screen = render_play(&view);
//! assert!(screen.plain().starts_with("twenty48  console rules, seed 3\n"));
//! assert!(screen.ansi(ColorMode::TrueColor).contains("\x1b["));
//! ```
#![deny(missing_docs)]

mod animation;
mod best;
mod flow;
mod journal;
mod keys;
mod palette;
mod picture;
mod screen;
mod terminal;

/// For tests of what reads the environment: `pairs` as the only variables.
#[cfg(test)]
fn test_env(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
    move |name| {
        pairs
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.to_string())
    }
}

pub use animation::{frames, Frame};
pub use best::{data_dir, BestScores, StoreError, BEST_FILE, DATA_DIR_VARS};
pub use flow::{resume_answer, Flow, Resume, Step};
pub use journal::{
    journal_path, recover, Damage, Journal, JournalError, LockedJournal, Recovered, JOURNAL_MAGIC,
};
pub use keys::{action, Action};
pub use palette::{tile_colors, to_ansi16, to_ansi256, ColorMode, Rgb, TileColors, BOARD, EMPTY};
pub use picture::{board_svg, boards_svg, SvgBoard};
pub use screen::{
    board_lines, fit, render_play, render_watch, tile_label, BoardView, PlayView, Prompt, Screen,
    Span, Style, WatchView,
};
pub use terminal::Terminal;
