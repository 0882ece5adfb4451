//! The three frames of the firmware's log protocol, read back from decoded defmt frames.

use defmt_decoder::Frame;
use defmt_parser::Fragment;
use twenty48_engine::{
    Direction, FourChance, Opening, OpeningSpawn, Rules, Scoring, Status, Win, MAX_OPENING,
};

use crate::game::{DeviceMove, GameEnd};

/// The log format version this crate reads (`v=` in the game-start frame).
pub const LOG_FORMAT_VERSION: u8 = 1;

const START: &str =
    "t48 start v={} seed={} size={} four={}/{} opening={} twos={} win={} ends={} scoring={}";
const MOVE: &str = "t48 move seq={} dir={} score={} hash={}";
const END: &str = "t48 end result={} score={} moves={} hash={}";

/// One frame of the log, as the host understands it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum LogFrame {
    Start {
        rules: Rules,
        seed: u64,
    },
    Move(DeviceMove),
    End(GameEnd),
    /// A protocol frame whose values do not make sense (wrong version, bad rules...).
    Invalid {
        reason: String,
    },
    /// Any other log message of the firmware.
    Other {
        text: String,
    },
}

/// Reads a decoded frame: its literal text says which frame it is, its parameters (no
/// display hints) are the values.
pub(crate) fn read(frame: &Frame<'_>) -> LogFrame {
    let mut shape = String::new();
    let mut values = Vec::new();
    for (fragment, shown) in frame.fragments().iter().zip(frame.display_fragments()) {
        match fragment {
            Fragment::Literal(text) => shape.push_str(text),
            Fragment::Parameter(_) => {
                shape.push_str("{}");
                values.push(shown);
            }
        }
    }
    let parsed = match shape.as_str() {
        START => start(&values),
        MOVE => moved(&values),
        END => end(&values),
        _ => {
            return LogFrame::Other {
                text: frame.display_message().to_string(),
            }
        }
    };
    parsed.unwrap_or_else(|reason| LogFrame::Invalid { reason })
}

fn num<T: std::str::FromStr>(values: &[String], i: usize, name: &str) -> Result<T, String> {
    values
        .get(i)
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| format!("field {name} is not a number"))
}

fn start(v: &[String]) -> Result<LogFrame, String> {
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

fn moved(v: &[String]) -> Result<LogFrame, String> {
    let code: u8 = num(v, 1, "dir")?;
    let dir = Direction::from_code(code).ok_or_else(|| format!("direction code {code}"))?;
    Ok(LogFrame::Move(DeviceMove {
        seq: num(v, 0, "seq")?,
        dir,
        score: num(v, 2, "score")?,
        hash: num(v, 3, "hash")?,
    }))
}

fn end(v: &[String]) -> Result<LogFrame, String> {
    let status = match num::<u8>(v, 0, "result")? {
        0 => Status::Playing,
        1 => Status::Won,
        2 => Status::Over,
        r => return Err(format!("result code {r}")),
    };
    Ok(LogFrame::End(GameEnd {
        status,
        score: num(v, 1, "score")?,
        moves: num(v, 2, "moves")?,
        hash: num(v, 3, "hash")?,
    }))
}
