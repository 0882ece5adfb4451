//! twenty48 in the browser: the viewer, verifier and recorder that the web page (web/) runs,
//! compiled to WebAssembly (`wasm32-unknown-unknown`) by `just web`. The same code builds on
//! the host, where its tests run and the CLI's `share` makes links with [`link`].
//!
//! ```
//! use twenty48_engine::{Direction, Rules};
//! use twenty48_movelog::MoveLog;
//! use twenty48_web::{link, Host};
//!
//! let moves = [Direction::Left, Direction::Up, Direction::Right];
//! let bytes = MoveLog::from_moves(Rules::CLASSIC, 1, &moves, 2).unwrap().encode();
//!
//! // What `twenty48 share` puts after the page's address, and what the page does with it.
//! let fragment = link::fragment(&bytes);
//! let mut host = Host::new();
//! let answer = host.open_link(&fragment);
//! assert!(answer.contains(r#""word":"ok""#));
//! assert!(host.show(1, 3, true).contains(r#""move":3"#));
//! ```
//!
//! - [`Viewer`]: a `.t48` file decoded and verified (the verdict in `twenty48 verify`'s
//!   words), any move shown at once (a game kept every [`viewer::SPAN`] moves), each move's
//!   animation events.
//! - [`Session`]: a new game played and recorded, saved and resumed as `.t48` bytes.
//! - [`link`]: the game in a link's fragment (`#g=` and base64url).
//! - [`Host::analyse`]: a game's moves rated by the bot (twenty48-analysis), a chunk at a
//!   time, as `twenty48 analyse --json` rates them.
//! - [`Host`]: the page's calls answered as JSON; on wasm32, the exports in `exports.rs`
//!   (plain `extern "C"` functions; the JavaScript glue is web/js/engine.js).
#![deny(missing_docs)]

mod analysis;
#[cfg(any(target_arch = "wasm32", test))]
mod buffers;
#[cfg(target_arch = "wasm32")]
mod exports;
mod frame;
mod host;
pub mod json;
mod limits;
pub mod link;
mod session;
pub mod viewer;

pub use frame::Frame;
pub use host::{Host, MAX_LINKED_BYTES, MAX_REPLAYED};
pub use limits::MAX_FILE_BYTES;
pub use session::{Session, SessionError};
pub use viewer::{Opened, Verdict, VerdictKind, Viewer};
