//! The frames of the firmware's log protocol (version 1: start, move, end; version 2: those
//! with identity and a check, and the store's frames; version 3: a stored game's moves in
//! `t48 moves` frames and a shorter partial frame), read back from decoded defmt frames.

use defmt_decoder::Frame;
use defmt_parser::Fragment;
use twenty48_engine::{
    packed, Direction, FourChance, Opening, OpeningSpawn, Rules, Scoring, Status, Win, MAX_OPENING,
};

use twenty48_deviceproto::{check as crc, StartFields, PROTOCOL_VERSION};

use crate::game::{DeviceMove, GameEnd};

/// The log format version of protocol v1 captures (`v=1` in their game-start frame); this
/// crate reads those, version 2 and [`PROTOCOL_VERSION`] (3).
pub const LOG_FORMAT_VERSION: u8 = 1;

/// The versions with identity and checks this host reads (`v=` of hello and start frames).
const CHECKED_VERSIONS: [u8; 2] = [2, PROTOCOL_VERSION];

const HELLO2: &str = "t48 hello v={} dev={} next={} stored={} unpulled={} crc={}";
const START2: &str = "t48 start v={} dev={} game={} seed={} size={} four={}/{} opening={} twos={} win={} ends={} scoring={} crc={}";
const MOVE2: &str = "t48 move game={} seq={} dir={} score={} hash={} crc={}";
const END2: &str = "t48 end game={} result={} score={} moves={} hash={} start={} crc={}";
const PARTIAL2: &str = "t48 partial game={} moves={} score={} hash={} start={} crc={}";
const MOVES3: &str = "t48 moves game={} first={} count={} dirs={} crc={}";
const PARTIAL3: &str = "t48 partial game={} moves={} start={} crc={}";
const LOST2: &str = "t48 lost game={} move={} frames={} crc={}";
const FULL2: &str = "t48 full game={} move={} crc={}";
const BEGIN2: &str = "t48 pull begin dev={} games={} crc={}";
const DONE2: &str = "t48 pull done dev={} sent={} crc={}";
const ACKED2: &str = "t48 acked game={} crc={}";
const ERROR2: &str = "t48 error code={} game={} crc={}";

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
    /// Protocol v2: the device says who it is and what its store holds.
    Hello {
        dev: u64,
        next: u32,
        stored: u32,
        unpulled: u32,
    },
    /// Protocol v2: a game starts (live) or a stored game is sent (pull reply).
    Start2 {
        dev: u64,
        game: u32,
        rules: Rules,
        seed: u64,
        check: u32,
    },
    /// Protocol v2: a move of game `game`.
    Move2 {
        game: u32,
        mv: DeviceMove,
    },
    /// Protocol v3: moves of stored game `game` after its first `first`.
    Moves3 {
        game: u32,
        first: u32,
        dirs: Vec<Direction>,
    },
    /// Protocol v2: game `game` ended (or, `end.partial`, was interrupted).
    End2 {
        game: u32,
        end: GameEnd,
    },
    /// Protocol v2: the device dropped frames.
    Lost {
        game: u32,
        at_move: u32,
        frames: u32,
    },
    /// Protocol v2: the store is full.
    Full {
        game: u32,
        at_move: u32,
    },
    /// Protocol v2: a pull reply begins.
    PullBegin {
        dev: u64,
        games: u32,
    },
    /// Protocol v2: a pull reply ends.
    PullDone {
        dev: u64,
        sent: u32,
    },
    /// Protocol v2: the device marked a game as pulled.
    Acked {
        game: u32,
    },
    /// Protocol v2: the device refused a request.
    Error {
        code: u8,
        game: u32,
    },
    /// A v2 protocol frame whose check value does not match its other values: damaged.
    CheckMismatch,
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
    match fields(&shape, &values) {
        Some(parsed) => parsed.unwrap_or_else(|reason| LogFrame::Invalid { reason }),
        None => LogFrame::Other {
            text: frame.display_message().to_string(),
        },
    }
}

/// The frame of the protocol that `shape` (the frame's format string, `{}` for each
/// parameter) names, read from its shown `values` (`Err`: why it is invalid); `None` when the
/// shape is none of the protocol's.
fn fields(shape: &str, values: &[String]) -> Option<Result<LogFrame, String>> {
    Some(match shape {
        START => start(values),
        MOVE => moved(values),
        END => end(values),
        HELLO2 => hello2(values),
        START2 => start2(values),
        MOVE2 => move2(values),
        END2 => end2(values),
        PARTIAL2 => partial2(values),
        MOVES3 => moves3(values),
        PARTIAL3 => small(values, |v| {
            let (game, moves, start) =
                (num(v, 0, "game")?, num(v, 1, "moves")?, num(v, 2, "start")?);
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
        }),
        LOST2 => small(values, |v| {
            let (game, at_move, frames) =
                (num(v, 0, "game")?, num(v, 1, "move")?, num(v, 2, "frames")?);
            Ok((
                crc::lost(game, at_move, frames),
                LogFrame::Lost {
                    game,
                    at_move,
                    frames,
                },
            ))
        }),
        FULL2 => small(values, |v| {
            let (game, at_move) = (num(v, 0, "game")?, num(v, 1, "move")?);
            Ok((crc::full(game, at_move), LogFrame::Full { game, at_move }))
        }),
        BEGIN2 => small(values, |v| {
            let (dev, games) = (num(v, 0, "dev")?, num(v, 1, "games")?);
            Ok((
                crc::pull_begin(dev, games),
                LogFrame::PullBegin { dev, games },
            ))
        }),
        DONE2 => small(values, |v| {
            let (dev, sent) = (num(v, 0, "dev")?, num(v, 1, "sent")?);
            Ok((crc::pull_done(dev, sent), LogFrame::PullDone { dev, sent }))
        }),
        ACKED2 => small(values, |v| {
            let game = num(v, 0, "game")?;
            Ok((crc::acked(game), LogFrame::Acked { game }))
        }),
        ERROR2 => small(values, |v| {
            let (code, game) = (num(v, 0, "code")?, num(v, 1, "game")?);
            Ok((crc::error(code, game), LogFrame::Error { code, game }))
        }),
        _ => return None,
    })
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
        score: Some(num(v, 2, "score")?),
        hash: Some(num(v, 3, "hash")?),
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
        score: Some(num(v, 1, "score")?),
        moves: num(v, 2, "moves")?,
        hash: Some(num(v, 3, "hash")?),
        partial: false,
        start: None,
        check: None,
    }))
}

/// The frame's own check value: its last parameter.
fn check_value(v: &[String]) -> Result<u32, String> {
    num(v, v.len().saturating_sub(1), "crc")
}

/// A v2 frame: its values read by `read`, which also computes the check they should have;
/// a frame whose check differs is damaged, whatever its values say.
fn checked(v: &[String], computed: u32, frame: LogFrame) -> Result<LogFrame, String> {
    if check_value(v)? != computed {
        return Ok(LogFrame::CheckMismatch);
    }
    Ok(frame)
}

fn small(
    v: &[String],
    read: impl FnOnce(&[String]) -> Result<(u32, LogFrame), String>,
) -> Result<LogFrame, String> {
    let (computed, frame) = read(v)?;
    checked(v, computed, frame)
}

fn boolean(v: &[String], i: usize, name: &str) -> Result<bool, String> {
    match v.get(i).map(String::as_str) {
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        _ => Err(format!("field {name} is not a bool")),
    }
}

fn hello2(v: &[String]) -> Result<LogFrame, String> {
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
    Ok(LogFrame::Hello {
        dev,
        next,
        stored,
        unpulled,
    })
}

fn start2(v: &[String]) -> Result<LogFrame, String> {
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

fn move2(v: &[String]) -> Result<LogFrame, String> {
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

/// The bytes of a `[u8]` parameter as defmt-decoder shows it: `[1, 2, 3]`.
fn bytes(v: &[String], i: usize, name: &str) -> Result<Vec<u8>, String> {
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

fn moves3(v: &[String]) -> Result<LogFrame, String> {
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

fn end2(v: &[String]) -> Result<LogFrame, String> {
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

fn partial2(v: &[String]) -> Result<LogFrame, String> {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads `shape` with `values` shown as text: the frame, or `Invalid`.
    fn read_shown(shape: &str, values: &[&dyn std::fmt::Display]) -> LogFrame {
        let values: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        fields(shape, &values)
            .expect("a protocol shape")
            .unwrap_or_else(|reason| LogFrame::Invalid { reason })
    }

    /// Each frame of versions 2 and 3 reads to its fields when its check (the last value) is
    /// the one deviceproto computes over them, and to a check mismatch when it is one off.
    #[test]
    fn every_checked_frame_reads_its_fields_under_its_check() {
        let v = PROTOCOL_VERSION;
        let start = StartFields {
            version: v,
            dev: 0xabc,
            game: 4,
            seed: 99,
            size: 4,
            four_numerator: 1,
            four_denominator: 10,
            opening: 2,
            twos: 0b10,
            win: 11,
            ends: false,
            scoring: 0,
        };
        let start_check = crc::start(&start);
        let cases: Vec<(&str, Vec<&dyn std::fmt::Display>, u32, LogFrame)> = vec![
            (
                HELLO2,
                vec![&v, &7u64, &3u32, &2u32, &1u32],
                crc::hello(v, 7, 3, 2, 1),
                LogFrame::Hello {
                    dev: 7,
                    next: 3,
                    stored: 2,
                    unpulled: 1,
                },
            ),
            (
                START2,
                vec![
                    &v, &0xabcu64, &4u32, &99u64, &4u8, &1u32, &10u32, &2u8, &0b10u8, &11u8,
                    &false, &0u8,
                ],
                start_check,
                LogFrame::Start2 {
                    dev: 0xabc,
                    game: 4,
                    rules: Rules {
                        opening: Opening::new(&[OpeningSpawn::Normal, OpeningSpawn::Two]).unwrap(),
                        ..Rules::CLASSIC
                    },
                    seed: 99,
                    check: start_check,
                },
            ),
            (
                MOVE2,
                vec![&4u32, &5u32, &3u8, &40u64, &0x1234u64],
                crc::moved(4, 5, 3, 40, 0x1234),
                LogFrame::Move2 {
                    game: 4,
                    mv: DeviceMove {
                        seq: 5,
                        dir: Direction::Left,
                        score: Some(40),
                        hash: Some(0x1234),
                    },
                },
            ),
            (
                END2,
                vec![&4u32, &2u8, &500u64, &60u32, &0x99u64, &start_check],
                crc::end(4, 2, 500, 60, 0x99, start_check),
                LogFrame::End2 {
                    game: 4,
                    end: GameEnd {
                        status: Status::Over,
                        score: Some(500),
                        moves: 60,
                        hash: Some(0x99),
                        partial: false,
                        start: Some(start_check),
                        check: Some(crc::end(4, 2, 500, 60, 0x99, start_check)),
                    },
                },
            ),
            (
                PARTIAL2,
                vec![&4u32, &30u32, &200u64, &0x77u64, &start_check],
                crc::partial(4, 30, 200, 0x77, start_check),
                LogFrame::End2 {
                    game: 4,
                    end: GameEnd {
                        status: Status::Playing,
                        score: Some(200),
                        moves: 30,
                        hash: Some(0x77),
                        partial: true,
                        start: Some(start_check),
                        check: Some(crc::partial(4, 30, 200, 0x77, start_check)),
                    },
                },
            ),
            (
                MOVES3,
                // Moves 257-262: up, right, down, left, left, up (2 bits each, low bits first).
                vec![&4u32, &256u32, &6u16, &"[228, 3]"],
                crc::moves(4, 256, 6, &[0b11_10_01_00, 0b00_11]),
                LogFrame::Moves3 {
                    game: 4,
                    first: 256,
                    dirs: "URDLLU"
                        .chars()
                        .map(|c| Direction::from_letter(c).unwrap())
                        .collect(),
                },
            ),
            (
                PARTIAL3,
                vec![&4u32, &30u32, &start_check],
                crc::interrupted(4, 30, start_check),
                LogFrame::End2 {
                    game: 4,
                    end: GameEnd {
                        status: Status::Playing,
                        score: None,
                        moves: 30,
                        hash: None,
                        partial: true,
                        start: Some(start_check),
                        check: Some(crc::interrupted(4, 30, start_check)),
                    },
                },
            ),
            (
                LOST2,
                vec![&4u32, &6u32, &2u32],
                crc::lost(4, 6, 2),
                LogFrame::Lost {
                    game: 4,
                    at_move: 6,
                    frames: 2,
                },
            ),
            (
                FULL2,
                vec![&4u32, &6u32],
                crc::full(4, 6),
                LogFrame::Full {
                    game: 4,
                    at_move: 6,
                },
            ),
            (
                BEGIN2,
                vec![&7u64, &3u32],
                crc::pull_begin(7, 3),
                LogFrame::PullBegin { dev: 7, games: 3 },
            ),
            (
                DONE2,
                vec![&7u64, &3u32],
                crc::pull_done(7, 3),
                LogFrame::PullDone { dev: 7, sent: 3 },
            ),
            (
                ACKED2,
                vec![&4u32],
                crc::acked(4),
                LogFrame::Acked { game: 4 },
            ),
            (
                ERROR2,
                vec![&3u8, &4u32],
                crc::error(3, 4),
                LogFrame::Error { code: 3, game: 4 },
            ),
        ];
        for (shape, mut values, check, frame) in cases {
            let right = check;
            let wrong = check.wrapping_add(1);
            values.push(&right);
            assert_eq!(read_shown(shape, &values), frame, "{shape}");
            values.pop();
            values.push(&wrong);
            assert_eq!(
                read_shown(shape, &values),
                LogFrame::CheckMismatch,
                "{shape}"
            );
        }
        assert!(fields("t48 something else={}", &[]).is_none());
    }

    /// A moves frame whose bytes do not hold its count of moves is invalid, not a frame; one
    /// whose list of bytes cannot be read is too; a start frame of version 2 still reads.
    #[test]
    fn moves_frames_hold_their_count_and_version_2_starts_read() {
        let frame = |count: u16, list: &str, dirs: &[u8]| {
            let values: Vec<String> = [
                "4".to_string(),
                "0".to_string(),
                count.to_string(),
                list.to_string(),
                crc::moves(4, 0, count, dirs).to_string(),
            ]
            .into();
            fields(MOVES3, &values).unwrap()
        };
        assert!(
            matches!(frame(5, "[1]", &[1]), Err(r) if r.contains("1 bytes of directions for 5"))
        );
        assert!(
            matches!(frame(0, "[]", &[]), Ok(LogFrame::Moves3 { dirs, .. }) if dirs.is_empty())
        );
        assert!(frame(4, "[1, x]", &[1]).is_err());
        // Issue 34: bits set past the last move, and more moves than a frame holds (both
        // with a valid check), are invalid too; a full frame and clear bits read.
        assert!(
            matches!(frame(3, "[64]", &[0b0100_0000]), Err(r) if r.contains("bits set past move 3"))
        );
        assert!(
            matches!(frame(3, "[63]", &[0b0011_1111]), Ok(LogFrame::Moves3 { dirs, .. }) if dirs.len() == 3)
        );
        let full = vec![0x1b_u8; 64];
        let list = |n: usize| format!("[{}]", vec!["27"; n].join(", "));
        assert!(
            matches!(frame(256, &list(64), &full), Ok(LogFrame::Moves3 { dirs, .. }) if dirs.len() == 256)
        );
        let over = vec![0x1b_u8; 65];
        assert!(
            matches!(frame(260, &list(65), &over), Err(r) if r.contains("260 moves in one frame, more than the 256"))
        );
        assert!(frame(4, "1, 2", &[1]).is_err());
        let start = StartFields::new(5, 1, &Rules::CLASSIC, 3);
        for version in [2, 3, 4] {
            // Each field copied out (`{ f.x }`): the fields are packed.
            let f = StartFields { version, ..start };
            let values: Vec<String> = [
                { f.version }.to_string(),
                { f.dev }.to_string(),
                { f.game }.to_string(),
                { f.seed }.to_string(),
                { f.size }.to_string(),
                { f.four_numerator }.to_string(),
                { f.four_denominator }.to_string(),
                { f.opening }.to_string(),
                { f.twos }.to_string(),
                { f.win }.to_string(),
                { f.ends }.to_string(),
                { f.scoring }.to_string(),
                crc::start(&f).to_string(),
            ]
            .into();
            let read = fields(START2, &values).unwrap();
            assert_eq!(read.is_ok(), version != 4, "version {version}: {read:?}");
        }
    }

    /// A version-1 start frame's opening has 1 to MAX_OPENING spawns.
    #[test]
    fn a_version_1_opening_has_1_to_8_spawns() {
        let v = LOG_FORMAT_VERSION;
        for (len, valid) in [(0usize, false), (1, true), (MAX_OPENING, true), (9, false)] {
            let frame = read_shown(
                START,
                &[
                    &v, &5u64, &4u8, &1u32, &10u32, &len, &0u8, &11u8, &false, &0u8,
                ],
            );
            assert_eq!(
                matches!(frame, LogFrame::Start { .. }),
                valid,
                "{len}: {frame:?}"
            );
        }
    }
}
