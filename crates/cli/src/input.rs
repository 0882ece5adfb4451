//! Reading games from files, with errors that name the file and the place.
//!
//! Nothing is read whole without a limit: a move log only as far as its header says it
//! extends (docs/format.md), anything else up to [`MAX_INPUT_BYTES`]. Each file is opened
//! once.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use anyhow::{bail, Context, Result};
use twenty48_movelog::{MoveLog, PackedLog, MAGIC};
use twenty48_verify::batch::read_log_bytes;

/// Exit status: the input could not be read or parsed.
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit status: a game failed verification, or two games differ.
pub const EXIT_FAILED: u8 = 1;

/// The most bytes read from an input that is not a move log (a move list, an ELF, a device
/// capture): 64 MiB.
pub const MAX_INPUT_BYTES: u64 = 64 * 1024 * 1024;

fn open(path: &Path) -> Result<(File, Option<u64>)> {
    let file = File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let hint = file
        .metadata()
        .ok()
        .filter(|m| m.is_file())
        .map(|m| m.len());
    Ok((file, hint))
}

/// Reads a file, naming it in the error: a move log (it starts with the magic) as far as
/// its header says, anything else up to [`MAX_INPUT_BYTES`].
pub fn read(path: &Path) -> Result<Vec<u8>> {
    let (mut file, hint) = open(path)?;
    let context = || format!("cannot read {}", path.display());
    let mut bytes = Vec::new();
    (&mut file)
        .take(MAGIC.len() as u64)
        .read_to_end(&mut bytes)
        .with_context(context)?;
    if bytes == MAGIC {
        // A log: the header says how far to read.
        let mut rest = std::io::Cursor::new(bytes).chain(file);
        let mut log = Vec::new();
        read_log_bytes(&mut rest, &mut log).with_context(context)?;
        return Ok(log);
    }
    bytes.reserve(hint.unwrap_or(0).min(MAX_INPUT_BYTES) as usize);
    file.take(MAX_INPUT_BYTES + 1 - bytes.len() as u64)
        .read_to_end(&mut bytes)
        .with_context(context)?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        bail!(
            "{} is larger than {} MiB, the most read from an input that is not a move log",
            path.display(),
            MAX_INPUT_BYTES / (1024 * 1024)
        );
    }
    Ok(bytes)
}

/// Decodes the bytes of a move log read from `path`, naming the file in the error.
pub fn decode_log(path: &Path, bytes: &[u8]) -> Result<MoveLog> {
    decode_packed(path, bytes).map(|log| log.to_log())
}

/// Decodes the bytes of a move log read from `path` without unpacking its moves (they stay
/// in `bytes`), naming the file in the error.
pub fn decode_packed<'a>(path: &Path, bytes: &'a [u8]) -> Result<PackedLog<'a>> {
    PackedLog::decode(bytes).with_context(|| format!("{} is not a valid move log", path.display()))
}

/// The bytes of what should be a move log, read once from `path` no further than its header
/// says (a file that is not a log stops after its first bytes); [`decode_log`] checks them.
pub fn read_log_file(path: &Path) -> Result<Vec<u8>> {
    let mut file = File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut bytes = Vec::new();
    read_log_bytes(&mut file, &mut bytes)
        .with_context(|| format!("cannot read {}", path.display()))?;
    Ok(bytes)
}
