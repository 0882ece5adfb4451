//! The protocol's version.

/// The protocol version this crate describes (`v=` in hello and game-start frames). A host
/// reads version 2 captures as well (their frames differ only in the pull reply).
pub const PROTOCOL_VERSION: u8 = 3;
