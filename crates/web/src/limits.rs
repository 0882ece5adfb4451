//! How large a file the page takes.

/// The largest file the page opens: 16 MiB (about 67 million moves). Opening a log costs
/// the page about 60 ns a move (decode, verify, kept games: `just web-bench`), all before it
/// answers again, so this keeps the longest wait to a few seconds; `twenty48 verify` takes
/// larger files.
pub const MAX_FILE_BYTES: usize = 16 << 20;
