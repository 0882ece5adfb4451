//! The frames of the firmware's log protocol (version 1: start, move, end; version 2: those
//! with identity and a check, and the store's frames; version 3: a stored game's moves in
//! `t48 moves` frames and a shorter partial frame), read back from decoded defmt frames.
//!
//! Each version's frames are a module of their own (`v1`, `v2`, `v3`: their shapes and their
//! readers); [`LogFrame`] and the readers of values the versions share have theirs; this one
//! holds the dispatch on a frame's shape.

use defmt_decoder::Frame;
use defmt_parser::Fragment;

mod log_frame;
mod v1;
mod v2;
mod v3;
mod values;

pub(crate) use log_frame::LogFrame;
pub use v1::LOG_FORMAT_VERSION;

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
        v1::START => v1::start(values),
        v1::MOVE => v1::moved(values),
        v1::END => v1::end(values),
        v2::HELLO2 => v2::hello2(values),
        v2::START2 => v2::start2(values),
        v2::MOVE2 => v2::move2(values),
        v2::END2 => v2::end2(values),
        v2::PARTIAL2 => v2::partial2(values),
        v2::LOST2 => v2::lost(values),
        v2::FULL2 => v2::full(values),
        v2::BEGIN2 => v2::pull_begin(values),
        v2::DONE2 => v2::pull_done(values),
        v2::ACKED2 => v2::acked(values),
        v2::ERROR2 => v2::error(values),
        v3::MOVES3 => v3::moves3(values),
        v3::PARTIAL3 => v3::partial3(values),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::v1::*;
    use super::v2::*;
    use super::v3::*;
    use super::*;
    use crate::fact::DeviceFact;
    use crate::game::{DeviceMove, GameEnd};
    use twenty48_deviceproto::PROTOCOL_VERSION;
    use twenty48_deviceproto::{check as crc, StartFields};
    use twenty48_engine::{Direction, Rules};
    use twenty48_engine::{Opening, OpeningSpawn, Status, MAX_OPENING};

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
                LogFrame::Device(DeviceFact::Hello {
                    dev: 7,
                    next: 3,
                    stored: 2,
                    unpulled: 1,
                }),
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
                LogFrame::Device(DeviceFact::Lost {
                    dev: None,
                    game: 4,
                    at_move: 6,
                    frames: 2,
                }),
            ),
            (
                FULL2,
                vec![&4u32, &6u32],
                crc::full(4, 6),
                LogFrame::Device(DeviceFact::Full {
                    dev: None,
                    game: 4,
                    at_move: 6,
                }),
            ),
            (
                BEGIN2,
                vec![&7u64, &3u32],
                crc::pull_begin(7, 3),
                LogFrame::Device(DeviceFact::PullBegin { dev: 7, games: 3 }),
            ),
            (
                DONE2,
                vec![&7u64, &3u32],
                crc::pull_done(7, 3),
                LogFrame::Device(DeviceFact::PullDone { dev: 7, sent: 3 }),
            ),
            (
                ACKED2,
                vec![&4u32],
                crc::acked(4),
                LogFrame::Device(DeviceFact::Acked { dev: None, game: 4 }),
            ),
            (
                ERROR2,
                vec![&3u8, &4u32],
                crc::error(3, 4),
                LogFrame::Device(DeviceFact::Error {
                    dev: None,
                    code: 3,
                    game: 4,
                }),
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
