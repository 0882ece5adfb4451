//! Protocol version 1's frames: a game's start, its moves and its end, with no identity and no
//! check (`v=1` in the start frame, [`LOG_FORMAT_VERSION`]).

use twenty48_engine::{
    Direction, FourChance, Opening, OpeningSpawn, Rules, Scoring, Status, Win, MAX_OPENING,
};

use super::log_frame::LogFrame;
use super::values::num;
use crate::game::{DeviceMove, GameEnd};

/// The log format version of protocol v1 captures (`v=1` in their game-start frame); this
/// crate reads those, version 2 and
/// [`PROTOCOL_VERSION`](twenty48_deviceproto::PROTOCOL_VERSION) (3).
pub const LOG_FORMAT_VERSION: u8 = 1;

pub(super) const START: &str =
    "t48 start v={} seed={} size={} four={}/{} opening={} twos={} win={} ends={} scoring={}";
pub(super) const MOVE: &str = "t48 move seq={} dir={} score={} hash={}";
pub(super) const END: &str = "t48 end result={} score={} moves={} hash={}";

pub(super) fn start(v: &[String]) -> Result<LogFrame, String> {
    let version: u8 = num(v, 0, "v")?;
    if version != LOG_FORMAT_VERSION {
        return Err(format!(
            "log format version {version} (this host reads version {LOG_FORMAT_VERSION})"
        ));
    }
    let seed = num(v, 1, "seed")?;
    let size = num(v, 2, "size")?;
    let four = FourChance::new(num(v, 3, "four")?, num(v, 4, "four")?);
    let len: usize = num(v, 5, "opening")?;
    let twos: u8 = num(v, 6, "twos")?;
    if len == 0 || len > MAX_OPENING {
        return Err(format!("opening of {len} spawns"));
    }
    let spawns: Vec<OpeningSpawn> = (0..len)
        .map(|i| {
            if twos & (1 << i) != 0 {
                OpeningSpawn::Two
            } else {
                OpeningSpawn::Normal
            }
        })
        .collect();
    let opening = Opening::new(&spawns).ok_or_else(|| format!("opening of {len} spawns"))?;
    let exponent: u8 = num(v, 7, "win")?;
    let ends = match v.get(8).map(String::as_str) {
        Some("true") => true,
        Some("false") => false,
        _ => return Err("field ends is not a bool".into()),
    };
    let scoring = match num::<u8>(v, 9, "scoring")? {
        0 => Scoring::MergedValues,
        1 => Scoring::MergeCount,
        s => return Err(format!("scoring code {s}")),
    };
    let rules = Rules {
        size,
        four_chance: four,
        opening,
        win: (exponent != 0).then_some(Win {
            exponent,
            ends_game: ends,
        }),
        scoring,
    };
    Ok(LogFrame::Start { rules, seed })
}

pub(super) fn moved(v: &[String]) -> Result<LogFrame, String> {
    let code: u8 = num(v, 1, "dir")?;
    let dir = Direction::from_code(code).ok_or_else(|| format!("direction code {code}"))?;
    Ok(LogFrame::Move(DeviceMove {
        seq: num(v, 0, "seq")?,
        dir,
        score: Some(num(v, 2, "score")?),
        hash: Some(num(v, 3, "hash")?),
    }))
}

pub(super) fn end(v: &[String]) -> Result<LogFrame, String> {
    let status = match num::<u8>(v, 0, "result")? {
        0 => Status::Playing,
        1 => Status::Won,
        2 => Status::Over,
        r => return Err(format!("result code {r}")),
    };
    Ok(LogFrame::End(GameEnd {
        status,
        score: Some(num(v, 1, "score")?),
        moves: num(v, 2, "moves")?,
        hash: Some(num(v, 3, "hash")?),
        partial: false,
        start: None,
        check: None,
    }))
}
