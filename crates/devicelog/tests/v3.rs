//! Protocol v3 from a committed fixture (tests/data/v3: the QEMU firmware's ELF and the
//! captures it made from the same scripts as tests/data/v2; tests/v2/session.rs says what
//! they hold), under the same tests as v2 (tests/v2/promises.rs): stored games arrive in
//! `t48 moves` frames (2 bits a move) with the device's final score and hash in their end
//! frame, and a pull keeps the same promises:
//! - every game a pull writes is the game played (the host replay), once;
//! - every copy on disk is acknowledged, nothing else is;
//! - every loss (damage, lost frames, a short reply, a missing game number) is reported with
//!   what and where, and a loss made good by another copy is a note, not a failure;
//! - nothing wrong is written, and no file is ever overwritten.

/// The protocol version of the fixture these tests read.
const VERSION: u8 = 3;

mod v2 {
    pub mod edit;
    pub mod plan;
    pub mod pulls;
    pub mod scratch;
    pub mod session;
}

include!("v2/promises.rs");
