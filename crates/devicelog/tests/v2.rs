//! Protocol v2 from a committed fixture (tests/data/v2: the QEMU firmware's ELF and the
//! captures it made; tests/v2/session.rs says what they hold): decoded, checked and pulled
//! through the public API, whole and damaged by fixed recipes (tests/v2/edit.rs). No QEMU
//! needed, so the mutation runs test the v2 paths too; tests/firmware.rs makes fresh
//! captures under QEMU for the same promises:
//! - every game a pull writes is the game played (the host replay), once;
//! - every copy on disk is acknowledged, nothing else is;
//! - every loss (damage, lost frames, a short reply, a missing game number) is reported with
//!   what and where, and a loss made good by another copy is a note, not a failure;
//! - nothing wrong is written, and no file is ever overwritten.

/// The protocol version of the fixture these tests read.
const VERSION: u8 = 2;

mod v2 {
    pub mod edit;
    pub mod plan;
    pub mod pulls;
    pub mod scratch;
    pub mod session;
}

include!("v2/promises.rs");
