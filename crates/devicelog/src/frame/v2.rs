//! Protocol version 2's frames: the device's hello, a game's start, moves and end with its
//! identity and a check value, and the store's and the pull's frames (lost, full, pull
//! begin and done, acked, error). Version 3 keeps all of them but the partial frame.

use twenty48_deviceproto::{check as crc, StartFields, PROTOCOL_VERSION};
use twenty48_engine::{Direction, Status};

use super::log_frame::LogFrame;
use super::values::{boolean, check_value, num, small};
use crate::fact::DeviceFact;
use crate::game::{DeviceMove, GameEnd};

/// The versions with identity and checks this host reads (`v=` of hello and start frames).
const CHECKED_VERSIONS: [u8; 2] = [2, PROTOCOL_VERSION];

pub(super) const HELLO2: &str = "t48 hello v={} dev={} next={} stored={} unpulled={} crc={}";
pub(super) const START2: &str = "t48 start v={} dev={} game={} seed={} size={} four={}/{} opening={} twos={} win={} ends={} scoring={} crc={}";
pub(super) const MOVE2: &str = "t48 move game={} seq={} dir={} score={} hash={} crc={}";
pub(super) const END2: &str = "t48 end game={} result={} score={} moves={} hash={} start={} crc={}";
pub(super) const PARTIAL2: &str = "t48 partial game={} moves={} score={} hash={} start={} crc={}";
pub(super) const LOST2: &str = "t48 lost game={} move={} frames={} crc={}";
pub(super) const FULL2: &str = "t48 full game={} move={} crc={}";
pub(super) const BEGIN2: &str = "t48 pull begin dev={} games={} crc={}";
pub(super) const DONE2: &str = "t48 pull done dev={} sent={} crc={}";
pub(super) const ACKED2: &str = "t48 acked game={} crc={}";
pub(super) const ERROR2: &str = "t48 error code={} game={} crc={}";

pub(super) fn hello2(v: &[String]) -> Result<LogFrame, String> {
    let version: u8 = num(v, 0, "v")?;
    let (dev, next, stored, unpulled) = (
        num(v, 1, "dev")?,
        num(v, 2, "next")?,
        num(v, 3, "stored")?,
        num(v, 4, "unpulled")?,
    );
    let computed = crc::hello(version, dev, next, stored, unpulled);
    if check_value(v)? != computed {
        return Ok(LogFrame::CheckMismatch);
    }
    if !CHECKED_VERSIONS.contains(&version) {
        return Err(format!(
            "protocol version {version} in a hello frame (this host reads 2 and {PROTOCOL_VERSION})"
        ));
    }
    Ok(LogFrame::Device(DeviceFact::Hello {
        dev,
        next,
        stored,
        unpulled,
    }))
}

pub(super) fn start2(v: &[String]) -> Result<LogFrame, String> {
    let fields = StartFields {
        version: num(v, 0, "v")?,
        dev: num(v, 1, "dev")?,
        game: num(v, 2, "game")?,
        seed: num(v, 3, "seed")?,
        size: num(v, 4, "size")?,
        four_numerator: num(v, 5, "four")?,
        four_denominator: num(v, 6, "four")?,
        opening: num(v, 7, "opening")?,
        twos: num(v, 8, "twos")?,
        win: num(v, 9, "win")?,
        ends: boolean(v, 10, "ends")?,
        scoring: num(v, 11, "scoring")?,
    };
    let computed = crc::start(&fields);
    if check_value(v)? != computed {
        return Ok(LogFrame::CheckMismatch);
    }
    if !CHECKED_VERSIONS.contains(&fields.version) {
        return Err(format!(
            "protocol version {} in a game-start frame (this host reads 2 and {PROTOCOL_VERSION})",
            fields.version
        ));
    }
    let rules = fields.rules().map_err(str::to_string)?;
    Ok(LogFrame::Start2 {
        dev: fields.dev,
        game: fields.game,
        rules,
        seed: fields.seed,
        check: computed,
    })
}

pub(super) fn move2(v: &[String]) -> Result<LogFrame, String> {
    let (game, seq, code, score, hash) = (
        num(v, 0, "game")?,
        num(v, 1, "seq")?,
        num::<u8>(v, 2, "dir")?,
        num(v, 3, "score")?,
        num(v, 4, "hash")?,
    );
    if check_value(v)? != crc::moved(game, seq, code, score, hash) {
        return Ok(LogFrame::CheckMismatch);
    }
    let dir = Direction::from_code(code).ok_or_else(|| format!("direction code {code}"))?;
    Ok(LogFrame::Move2 {
        game,
        mv: DeviceMove {
            seq,
            dir,
            score: Some(score),
            hash: Some(hash),
        },
    })
}

pub(super) fn end2(v: &[String]) -> Result<LogFrame, String> {
    let (game, result, score, moves, hash, start) = (
        num(v, 0, "game")?,
        num::<u8>(v, 1, "result")?,
        num(v, 2, "score")?,
        num(v, 3, "moves")?,
        num(v, 4, "hash")?,
        num(v, 5, "start")?,
    );
    let computed = crc::end(game, result, score, moves, hash, start);
    if check_value(v)? != computed {
        return Ok(LogFrame::CheckMismatch);
    }
    let status = match result {
        0 => Status::Playing,
        1 => Status::Won,
        2 => Status::Over,
        r => return Err(format!("result code {r}")),
    };
    Ok(LogFrame::End2 {
        game,
        end: GameEnd {
            status,
            score: Some(score),
            moves,
            hash: Some(hash),
            partial: false,
            start: Some(start),
            check: Some(computed),
        },
    })
}

pub(super) fn partial2(v: &[String]) -> Result<LogFrame, String> {
    let (game, moves, score, hash, start) = (
        num(v, 0, "game")?,
        num(v, 1, "moves")?,
        num(v, 2, "score")?,
        num(v, 3, "hash")?,
        num(v, 4, "start")?,
    );
    let computed = crc::partial(game, moves, score, hash, start);
    if check_value(v)? != computed {
        return Ok(LogFrame::CheckMismatch);
    }
    Ok(LogFrame::End2 {
        game,
        end: GameEnd {
            status: Status::Playing,
            score: Some(score),
            moves,
            hash: Some(hash),
            partial: true,
            start: Some(start),
            check: Some(computed),
        },
    })
}

/// `t48 lost`: the device dropped frames.
pub(super) fn lost(v: &[String]) -> Result<LogFrame, String> {
    small(v, |v| {
        let (game, at_move, frames) =
            (num(v, 0, "game")?, num(v, 1, "move")?, num(v, 2, "frames")?);
        Ok((
            crc::lost(game, at_move, frames),
            LogFrame::Device(DeviceFact::Lost {
                dev: None,
                game,
                at_move,
                frames,
            }),
        ))
    })
}

/// `t48 full`: the store is full.
pub(super) fn full(v: &[String]) -> Result<LogFrame, String> {
    small(v, |v| {
        let (game, at_move) = (num(v, 0, "game")?, num(v, 1, "move")?);
        Ok((
            crc::full(game, at_move),
            LogFrame::Device(DeviceFact::Full {
                dev: None,
                game,
                at_move,
            }),
        ))
    })
}

/// `t48 pull begin`: a pull reply begins.
pub(super) fn pull_begin(v: &[String]) -> Result<LogFrame, String> {
    small(v, |v| {
        let (dev, games) = (num(v, 0, "dev")?, num(v, 1, "games")?);
        Ok((
            crc::pull_begin(dev, games),
            LogFrame::Device(DeviceFact::PullBegin { dev, games }),
        ))
    })
}

/// `t48 pull done`: a pull reply ends.
pub(super) fn pull_done(v: &[String]) -> Result<LogFrame, String> {
    small(v, |v| {
        let (dev, sent) = (num(v, 0, "dev")?, num(v, 1, "sent")?);
        Ok((
            crc::pull_done(dev, sent),
            LogFrame::Device(DeviceFact::PullDone { dev, sent }),
        ))
    })
}

/// `t48 acked`: the device marked a game as pulled.
pub(super) fn acked(v: &[String]) -> Result<LogFrame, String> {
    small(v, |v| {
        let game = num(v, 0, "game")?;
        Ok((
            crc::acked(game),
            LogFrame::Device(DeviceFact::Acked { dev: None, game }),
        ))
    })
}

/// `t48 error`: the device refused a request.
pub(super) fn error(v: &[String]) -> Result<LogFrame, String> {
    small(v, |v| {
        let (code, game) = (num(v, 0, "code")?, num(v, 1, "game")?);
        Ok((
            crc::error(code, game),
            LogFrame::Device(DeviceFact::Error {
                dev: None,
                code,
                game,
            }),
        ))
    })
}
