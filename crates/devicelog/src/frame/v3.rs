//! Protocol version 3's own frames: a stored game's moves, up to
//! [`MOVES_PER_FRAME`](twenty48_deviceproto::MOVES_PER_FRAME) a `t48 moves` frame packed as
//! `.t48` files pack them, and a shorter partial frame.

use twenty48_deviceproto::check as crc;
use twenty48_engine::{packed, Direction, Status};

use super::log_frame::LogFrame;
use super::values::{bytes, check_value, num, small};
use crate::game::GameEnd;

pub(super) const MOVES3: &str = "t48 moves game={} first={} count={} dirs={} crc={}";
pub(super) const PARTIAL3: &str = "t48 partial game={} moves={} start={} crc={}";

pub(super) fn moves3(v: &[String]) -> Result<LogFrame, String> {
    let (game, first, count, packed) = (
        num(v, 0, "game")?,
        num::<u32>(v, 1, "first")?,
        num::<u16>(v, 2, "count")?,
        bytes(v, 3, "dirs")?,
    );
    if check_value(v)? != crc::moves(game, first, count, &packed) {
        return Ok(LogFrame::CheckMismatch);
    }
    if packed.len() != usize::from(count).div_ceil(4) {
        return Err(format!(
            "{} bytes of directions for {count} moves",
            packed.len()
        ));
    }
    // The firmware sends at most a full frame of moves and leaves the bits past the last
    // move clear: anything else is no frame of a game it stored.
    if u32::from(count) > twenty48_deviceproto::MOVES_PER_FRAME {
        return Err(format!(
            "{count} moves in one frame, more than the {} a frame holds",
            twenty48_deviceproto::MOVES_PER_FRAME
        ));
    }
    if packed::check_padding(&packed, usize::from(count)).is_err() {
        return Err(format!(
            "bits set past move {count} in the last byte of directions"
        ));
    }
    let mut dirs = vec![Direction::Up; usize::from(count)];
    packed::unpack_into(&packed, 0, &mut dirs);
    Ok(LogFrame::Moves3 { game, first, dirs })
}

/// `t48 partial`, version 3: an interrupted stored game, its check and no score or hash.
pub(super) fn partial3(v: &[String]) -> Result<LogFrame, String> {
    small(v, |v| {
        let (game, moves, start) = (num(v, 0, "game")?, num(v, 1, "moves")?, num(v, 2, "start")?);
        let check = crc::interrupted(game, moves, start);
        let end = GameEnd {
            status: Status::Playing,
            score: None,
            moves,
            hash: None,
            partial: true,
            start: Some(start),
            check: Some(check),
        };
        Ok((check, LogFrame::End2 { game, end }))
    })
}
