//! The readers of a frame's shown values that the protocol versions share.

use super::log_frame::LogFrame;

pub(super) fn num<T: std::str::FromStr>(
    values: &[String],
    i: usize,
    name: &str,
) -> Result<T, String> {
    values
        .get(i)
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| format!("field {name} is not a number"))
}

/// The frame's own check value: its last parameter.
pub(super) fn check_value(v: &[String]) -> Result<u32, String> {
    num(v, v.len().saturating_sub(1), "crc")
}

/// A v2 frame: its values read by `read`, which also computes the check they should have;
/// a frame whose check differs is damaged, whatever its values say.
pub(super) fn checked(v: &[String], computed: u32, frame: LogFrame) -> Result<LogFrame, String> {
    if check_value(v)? != computed {
        return Ok(LogFrame::CheckMismatch);
    }
    Ok(frame)
}

pub(super) fn small(
    v: &[String],
    read: impl FnOnce(&[String]) -> Result<(u32, LogFrame), String>,
) -> Result<LogFrame, String> {
    let (computed, frame) = read(v)?;
    checked(v, computed, frame)
}

pub(super) fn boolean(v: &[String], i: usize, name: &str) -> Result<bool, String> {
    match v.get(i).map(String::as_str) {
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        _ => Err(format!("field {name} is not a bool")),
    }
}

/// The bytes of a `[u8]` parameter as defmt-decoder shows it: `[1, 2, 3]`.
pub(super) fn bytes(v: &[String], i: usize, name: &str) -> Result<Vec<u8>, String> {
    let bad = || format!("field {name} is not a list of bytes");
    let inner = v
        .get(i)
        .and_then(|s| s.strip_prefix('['))
        .and_then(|s| s.strip_suffix(']'))
        .ok_or_else(bad)?;
    if inner.is_empty() {
        return Ok(Vec::new());
    }
    inner
        .split(", ")
        .map(|b| b.parse().map_err(|_| bad()))
        .collect()
}
