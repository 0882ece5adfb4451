//! Reading games from files, with errors that name the file and the place.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result};
use twenty48_movelog::MoveLog;

/// Exit status: the input could not be read or parsed.
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit status: a game failed verification, or two games differ.
pub const EXIT_FAILED: u8 = 1;

/// Reads a file, naming it in the error.
pub fn read(path: &Path) -> Result<Vec<u8>> {
    fs::read(path).with_context(|| format!("cannot read {}", path.display()))
}

/// Reads and decodes a move log, naming the file in the error.
pub fn read_log(path: &Path) -> Result<MoveLog> {
    let bytes = read(path)?;
    MoveLog::decode(&bytes).with_context(|| format!("{} is not a valid move log", path.display()))
}
