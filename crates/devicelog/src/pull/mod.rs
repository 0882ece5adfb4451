//! Pulling games off a capture into verified `.t48` files: everything `twenty48 pull` does
//! except reading its arguments, talking to the port and printing.
//!
//! Protocol v2 and v3 games are keyed by (device id, game number). A game may arrive more
//! than once (live while it was played, then from the store in a pull reply; or the same
//! capture twice): which copy is kept is decided by content, never by arrival: the longer
//! verified prefix wins (a copy whose moves are all in the kept one is a duplicate), and
//! copies that part are a conflict (neither written when the pull sees both before writing,
//! as from a capture file). An acknowledgement names a copy only once every move of it is in
//! a file on disk. Protocol v1 games have no identity and are written one file per game.
//!
//! Nothing in the folder is ever replaced: a name that holds other contents sends the game
//! to the first free name after it, with a note. The pull touches no file but through its
//! [`Folder`], which works on file names: the caller brings it (the CLI's is a directory).
//!
//! The one way in is a [`Conversation`]: with a board on a port ([`Conversation::port`]:
//! each game written as it closes, then acknowledged) or of a capture's bytes
//! ([`Conversation::capture`]: nothing sent; every game decided with all its copies in view).
//!
//! Memory is bounded whatever the stream: the decoder holds at most
//! [`MAX_OPEN_GAMES`](crate::MAX_OPEN_GAMES) games in flight (each its verified moves at 2
//! bits a move), a capture's pull holds closed copies up to [`DEFER_BYTES`] before deciding
//! on them, and what the report needs is kept as runs of game numbers ([`MAX_RUNS`] runs a
//! set) and lists of their first [`LISTED`] entries, the rest counted.

mod ack_window;
mod conversation;
mod copies;
mod folder;
mod keeper;
mod ledger;
mod names;
mod pulled;
mod puller;
mod runs;
mod verdict;
mod waiting;

pub use ack_window::{AckWindow, ACKS_IN_FLIGHT, MAX_WAITING};
pub use conversation::{Conversation, PortOptions, State};
pub use folder::{is_file_name, Created, Folder};
pub use ledger::summary::{Gap, Summary, Totals};
pub use ledger::{Copies, Listed, LISTED, MAX_DEVICES};
pub use names::{file_name, file_name_v2};
pub use pulled::{Outcome, Progress, Pulled};
pub use runs::MAX_RUNS;
pub use verdict::{Failure, Silence, Verdict, EXIT_FAILED};
pub use waiting::DEFER_BYTES;

/// At most this many damaged stretches are kept and listed one by one; the rest are
/// counted (as every list of the report: [`LISTED`]).
pub const LISTED_DAMAGE: usize = LISTED;
