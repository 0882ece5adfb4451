//! Protocol v1, kept decoding forever: a capture the last v1 firmware made under QEMU
//! (tests/data/v1: its ELF, the script and the capture bytes), decoded, checked and pulled
//! by the host exactly as when v1 was current. No QEMU needed.

// The host's plans of scripted games are shared with the v2 tests (v1 scripts have no
// closing command, so `close`, `script` and the v2 end check go unused here).
#[allow(dead_code)]
mod v2 {
    pub mod plan;
    pub mod pulls;
    pub mod scratch;
}

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use twenty48_devicelog::{check, decode_capture, Capture, CaptureDecoder, DeviceGame, Problem};
use twenty48_engine::{Direction, Preset, Rules, Status};
use twenty48_movelog::MoveLog;
use v2::plan::{plan, quick_win, Planned};
use v2::scratch::Scratch;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/v1")
}

/// The QEMU firmware of protocol v1 (the last v1 build, debug info stripped; its defmt
/// table is intact): a fixture, so v1 decoding stays tested after the firmware moved on.
fn firmware_elf() -> &'static [u8] {
    static ELF: OnceLock<Vec<u8>> = OnceLock::new();
    ELF.get_or_init(|| std::fs::read(data_dir().join("twenty48-qemu.elf")).expect("v1 ELF"))
}

/// The session every test decodes: five games.
fn session() -> &'static (Vec<Planned>, Vec<u8>) {
    static SESSION: OnceLock<(Vec<Planned>, Vec<u8>)> = OnceLock::new();
    SESSION.get_or_init(|| {
        use Direction::*;
        let planned = vec![
            // Arduino rules with a 64 tile to win: played to the win.
            plan(
                "{new seed=11 rules=arduino win=6}",
                quick_win(6),
                11,
                [Left, Down, Right, Up],
                usize::MAX,
            ),
            // Classic rules, played to game over.
            plan(
                "{new seed=2024 rules=classic}",
                Rules::CLASSIC,
                2024,
                [Up, Left, Right, Down],
                usize::MAX,
            ),
            // A start-screen button: arduino rules, the board's first seed (1); abandoned.
            plan("R", Rules::ARDUINO, 1, [Down, Right, Left, Up], 25),
            // Console rules, no win, played to game over.
            plan(
                "{new seed=77 rules=console}",
                Preset::Console.rules(),
                77,
                [Right, Down, Left, Up],
                usize::MAX,
            ),
            // Classic rules, ended after 10 moves by the script's `{end}`.
            plan(
                "{new seed=99 rules=classic}",
                Rules::CLASSIC,
                99,
                [Left, Up, Right, Down],
                10,
            ),
        ];
        let mut script = String::from("# twenty48 firmware end-to-end script\n");
        for p in &planned {
            script.push_str(&p.start);
            script.push('\n');
            for d in &p.presses {
                script.push(d.letter());
            }
            script.push('\n');
        }
        script.push_str("{end}\nq\n");
        // The capture that v1 firmware made from this very script under QEMU.
        let recorded = std::fs::read_to_string(data_dir().join("script.txt")).unwrap();
        assert_eq!(script, recorded, "the v1 fixture was made from this script");
        let capture = std::fs::read(data_dir().join("capture.bin")).unwrap();
        (planned, capture)
    })
}

fn decoded() -> Capture {
    let (_, capture) = session();
    decode_capture(firmware_elf(), capture).expect("the ELF has a defmt table")
}

fn letters(dirs: impl IntoIterator<Item = Direction>) -> String {
    dirs.into_iter().map(|d| d.letter()).collect()
}

/// A text rendering of a decoded capture, for snapshots: no byte offsets (they move with
/// every firmware build), everything else.
fn render(capture: &Capture) -> String {
    let mut out = String::new();
    for game in &capture.games {
        let result = check(game);
        let _ = writeln!(
            out,
            "game {} seed {} rules {}",
            game.number, game.seed, game.rules
        );
        let _ = writeln!(
            out,
            "  moves {}: {}",
            game.moves.len(),
            letters(game.moves.iter().map(|m| m.dir))
        );
        if let Some(last) = game.moves.last() {
            let _ = writeln!(
                out,
                "  last move seq {} score {} hash {:016x}",
                last.seq,
                last.score.unwrap(),
                last.hash.unwrap()
            );
        }
        match &game.end {
            Some(end) => {
                let _ = writeln!(
                    out,
                    "  end {} score {} moves {} hash {:016x}",
                    end.status,
                    end.score.unwrap(),
                    end.moves,
                    end.hash.unwrap()
                );
            }
            None => out.push_str("  no end frame\n"),
        }
        match &result.problem {
            None => {
                let _ = writeln!(out, "  verified: {} moves", result.verified_moves);
            }
            Some(p) => {
                let _ = writeln!(out, "  {} moves verified, then: {p}", result.verified_moves);
            }
        }
    }
    for d in &capture.damage {
        let _ = writeln!(out, "damage in game {:?}: {:?}", d.game, d.kind);
    }
    out
}

#[test]
fn every_game_played_under_qemu_verifies_on_the_host() {
    let (planned, _) = session();
    let capture = decoded();
    assert!(capture.damage.is_empty(), "damage: {:?}", capture.damage);
    assert_eq!(capture.games.len(), planned.len());
    for (game, p) in capture.games.iter().zip(planned) {
        assert_eq!(game.rules, p.rules, "game {}", game.number);
        assert_eq!(game.seed, p.seed, "game {}", game.number);
        let dirs: Vec<Direction> = game.moves.iter().map(|m| m.dir).collect();
        assert_eq!(dirs, p.moves, "game {}: the device's moves", game.number);
        assert!(
            p.presses.len() > p.moves.len(),
            "the script has presses that do not move"
        );
        let result = check(game);
        assert_eq!(result.problem, None, "game {}", game.number);
        assert_eq!(result.verified_moves as usize, p.moves.len());
        let end = game.end.expect("every game has an end frame");
        assert_eq!(end.hash, Some(p.game.state_hash()));
        assert_eq!(end.score, Some(p.game.score()));
        assert_eq!(end.status, p.game.status());
        assert_eq!(end.moves, p.game.move_count());
    }
    let statuses: Vec<Status> = capture
        .games
        .iter()
        .map(|g| g.end.unwrap().status)
        .collect();
    assert_eq!(
        statuses,
        [
            Status::Won,
            Status::Over,
            Status::Playing,
            Status::Over,
            Status::Playing
        ]
    );
}

#[test]
fn pull_writes_one_verified_log_per_game() {
    let (planned, bytes) = session();
    let scratch = Scratch::new("pull");
    let dir = &scratch.0;
    let mut puller = v2::pulls::open(firmware_elf(), dir, v2::pulls::PullOptions::default());
    // Fed in small pieces, as from a serial port.
    let mut pulled = Vec::new();
    for chunk in bytes.chunks(7) {
        for progress in puller.feed(chunk, 0).unwrap() {
            if let twenty48_devicelog::pull::Progress::Pulled(p) = progress {
                pulled.push(*p);
            }
        }
    }
    for progress in puller.finish().unwrap() {
        if let twenty48_devicelog::pull::Progress::Pulled(p) = progress {
            pulled.push(*p);
        }
    }
    assert_eq!(pulled.len(), planned.len());
    for (p, plan) in pulled.iter().zip(planned) {
        assert!(p.is_verified());
        let path = dir.join(p.file.as_ref().expect("a verified game is written"));
        let log = MoveLog::decode(&std::fs::read(&path).unwrap()).unwrap();
        assert!(log.complete);
        assert_eq!(log.moves, plan.moves);
        assert_eq!(log.seed, plan.seed);
        assert_eq!(log.rules, plan.rules);
        assert_eq!(log.claims.final_hash, plan.game.state_hash());
        assert_eq!(log.claims.score, plan.game.score());
        assert_eq!(log.claims.status, plan.game.status());
    }
    insta::assert_snapshot!("pulled_files", scratch.names().join("\n"));
}

#[test]
fn decoded_device_log_snapshot() {
    insta::assert_snapshot!("device_log", render(&decoded()));
}

/// Offsets (start, end) of the frames of a capture: the bytes between separators.
fn frames(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if b == 0 {
            if i > start {
                out.push((start, i));
            }
            start = i + 1;
        }
    }
    out
}

/// The frame offsets of game `number`'s start frame and its `n`th move frame.
fn move_frame(capture: &Capture, bytes: &[u8], number: u32, n: usize) -> (usize, usize) {
    let game = &capture.games[number as usize - 1];
    let all = frames(bytes);
    let first = all.iter().position(|f| f.0 == game.offset).unwrap();
    all[first + n]
}

/// No log is ever written for a move the host did not confirm; partial logs are marked.
fn assert_no_wrong_log(capture: &Capture) {
    let (planned, _) = session();
    for game in &capture.games {
        let plan = planned.iter().find(|p| p.seed == game.seed);
        match game.to_movelog(false) {
            Some(log) => {
                let plan = plan.expect("a verified game is one that was played");
                assert!(log.complete);
                assert_eq!(log.moves, plan.moves, "game {}", game.number);
            }
            None => assert!(!check(game).is_verified()),
        }
        if let Some(log) = game.to_movelog(true) {
            let plan = plan.expect("only real games survive");
            assert_eq!(log.complete, check(game).is_verified());
            assert_eq!(
                log.moves[..],
                plan.moves[..log.moves.len()],
                "game {}",
                game.number
            );
        }
    }
}

#[test]
fn bytes_dropped_in_the_middle_are_reported_by_game_and_move() {
    let (_, bytes) = session();
    let clean = decoded();
    // Cut from the middle of game 2's 10th move frame to the middle of its 12th.
    let (a, _) = move_frame(&clean, bytes, 2, 10);
    let (b, _) = move_frame(&clean, bytes, 2, 12);
    let mut damaged = bytes[..a + 3].to_vec();
    damaged.extend_from_slice(&bytes[b + 3..]);
    let capture = decode_capture(firmware_elf(), &damaged).unwrap();
    assert_eq!(capture.games.len(), 5);
    assert_eq!(capture.damage.len(), 1);
    assert_eq!(capture.damage[0].game, Some(2));
    let result = check(&capture.games[1]);
    assert_eq!(
        result.problem,
        Some(Problem::SequenceGap {
            game: 2,
            move_number: 10,
            expected: 10,
            actual: 13
        })
    );
    assert_eq!(result.verified_moves, 9);
    assert!(capture.games[1].to_movelog(false).is_none());
    let partial = capture.games[1].to_movelog(true).unwrap();
    assert!(!partial.complete);
    assert_eq!(partial.moves.len(), 9);
    for n in [1, 3, 4, 5] {
        assert!(check(&capture.games[n - 1]).is_verified());
    }
    assert_no_wrong_log(&capture);
    insta::assert_snapshot!("dropped_bytes", render(&capture));
}

#[test]
fn a_flipped_byte_is_reported_and_never_written() {
    let (_, bytes) = session();
    let clean = decoded();
    // Every byte of game 1's 5th move frame, flipped one at a time.
    let (a, b) = move_frame(&clean, bytes, 1, 5);
    let mut reports = String::new();
    for i in a..b {
        let mut damaged = bytes.clone();
        damaged[i] ^= if damaged[i] == 0x01 { 0x02 } else { 0x01 };
        let capture = decode_capture(firmware_elf(), &damaged).unwrap();
        let game1 = capture.games.iter().find(|g| g.number == 1).unwrap();
        let result = check(game1);
        let problem = result.problem.expect("a flipped byte never goes unnoticed");
        assert!(result.verified_moves <= 4, "{problem}");
        assert_no_wrong_log(&capture);
        let _ = writeln!(reports, "byte {}: {problem}", i - a);
        for d in &capture.damage {
            let _ = writeln!(reports, "  damage in game {:?}: {:?}", d.game, d.kind);
        }
    }
    insta::assert_snapshot!("flipped_byte", reports);
}

#[test]
fn garbage_before_the_first_frame_is_skipped() {
    let (planned, bytes) = session();
    let mut damaged = b"\x13\x37garbage from the line\xff\xfe".to_vec();
    damaged.extend_from_slice(bytes);
    let capture = decode_capture(firmware_elf(), &damaged).unwrap();
    assert_eq!(capture.damage.len(), 1);
    assert_eq!(capture.damage[0].offset, 0);
    assert_eq!(capture.damage[0].game, None);
    assert_eq!(capture.games.len(), planned.len());
    assert!(capture.games.iter().all(|g| check(g).is_verified()));
    assert_no_wrong_log(&capture);
}

#[test]
fn a_capture_cut_short_keeps_only_what_is_certain() {
    let (_, bytes) = session();
    let clean = decoded();
    // Cut inside game 4's 20th move frame.
    let (a, _) = move_frame(&clean, bytes, 4, 20);
    let capture = decode_capture(firmware_elf(), &bytes[..a + 2]).unwrap();
    assert_eq!(capture.games.len(), 4);
    let result = check(&capture.games[3]);
    assert_eq!(
        result.problem,
        Some(Problem::Truncated { game: 4, moves: 19 })
    );
    assert!(capture.games[3].to_movelog(false).is_none());
    let partial = capture.games[3].to_movelog(true).unwrap();
    assert!(!partial.complete);
    assert_eq!(partial.moves.len(), 19);
    assert_no_wrong_log(&capture);
}

#[test]
fn device_games_report_their_numbers() {
    let capture = decoded();
    let numbers: Vec<u32> = capture
        .games
        .iter()
        .map(|g: &DeviceGame| g.number)
        .collect();
    assert_eq!(numbers, [1, 2, 3, 4, 5]);
}

/// Many damaged copies (bytes flipped, dropped, inserted, at pseudo-random places): never a
/// panic, never a log with a move the device did not play.
#[test]
fn random_damage_never_yields_a_wrong_log() {
    let (_, bytes) = session();
    // A fixed linear congruential generator: the same damage on every run.
    let mut state: u64 = 0x2048;
    let mut next = move |n: usize| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 33) as usize) % n
    };
    for _ in 0..300 {
        let mut damaged = bytes.clone();
        for _ in 0..1 + next(4) {
            let at = next(damaged.len());
            match next(3) {
                0 => damaged[at] ^= 1 << next(8),
                1 => {
                    let end = (at + 1 + next(40)).min(damaged.len());
                    damaged.drain(at..end);
                }
                _ => damaged.insert(at, next(256) as u8),
            }
        }
        let capture = decode_capture(firmware_elf(), &damaged).unwrap();
        assert_no_wrong_log(&capture);
    }
}

/// A lost separator merges two frames into one block: the block is reported as merged
/// (defmt-decoder alone would decode the first frame and drop the second without a word).
#[test]
fn a_dropped_separator_is_reported_as_merged_frames() {
    let (_, bytes) = session();
    let clean = decoded();
    let (_, end) = move_frame(&clean, bytes, 2, 10);
    let mut damaged = bytes.clone();
    assert_eq!(damaged[end], 0);
    damaged.remove(end);
    let capture = decode_capture(firmware_elf(), &damaged).unwrap();
    assert_eq!(capture.damage.len(), 1, "{:?}", capture.damage);
    assert!(matches!(
        capture.damage[0].kind,
        twenty48_devicelog::DamageKind::Merged { .. }
    ));
    assert_eq!(capture.damage[0].game, Some(2));
    assert!(!check(&capture.games[1]).is_verified());
    assert_no_wrong_log(&capture);
}

/// rzCOBS pads a frame with at most 6 zero bytes: seven zero bytes after a frame (an extra
/// code byte 0x7f before its separator) are not padding, and the block is damage.
#[test]
fn seven_zero_bytes_after_a_frame_are_not_padding() {
    let (_, bytes) = session();
    let clean = decoded();
    let (_, end) = move_frame(&clean, bytes, 2, 10);
    let mut damaged = bytes.clone();
    damaged.insert(end, 0x7f);
    let capture = decode_capture(firmware_elf(), &damaged).unwrap();
    assert_eq!(capture.damage.len(), 1, "{:?}", capture.damage);
    assert!(matches!(
        capture.damage[0].kind,
        twenty48_devicelog::DamageKind::Merged { trailing } if trailing >= 7
    ));
    assert_eq!(capture.damage[0].game, Some(2));
    assert_no_wrong_log(&capture);
}

/// Fed in parts, the decoder counts the bytes it has read and shows the game in progress.
#[test]
fn the_decoder_counts_bytes_and_shows_the_open_game() {
    let (_, bytes) = session();
    let clean = decoded();
    let mut decoder = CaptureDecoder::new(firmware_elf()).unwrap();
    assert_eq!(
        format!("{decoder:?}"),
        "CaptureDecoder { fed: 0, games: 0, .. }"
    );
    assert!(decoder.open_game().is_none());
    let (_, end) = move_frame(&clean, bytes, 2, 10);
    decoder.feed(&bytes[..end / 2]);
    decoder.feed(&bytes[end / 2..=end]);
    assert_eq!(decoder.bytes_fed(), end + 1);
    let open = decoder.open_game().expect("game 2 is being played");
    assert_eq!((open.number, open.seed), (2, 2024));
    assert_eq!(open.moves.len(), 10);
    assert!(format!("{decoder:?}").starts_with(&format!("CaptureDecoder {{ fed: {}, ", end + 1)));
    decoder.feed(&bytes[end + 1..]);
    assert_eq!(decoder.bytes_fed(), bytes.len());
}

/// A pull's summary of v1 games (no identity: no duplicates, gaps or conflicts): each game
/// received or failed, by game and move.
#[test]
fn a_pull_summary_counts_each_v1_game_received_or_failed() {
    let (planned, bytes) = session();
    let clean = decoded();
    let (a, _) = move_frame(&clean, bytes, 2, 10);
    let (b, _) = move_frame(&clean, bytes, 2, 12);
    let mut damaged = bytes[..a + 3].to_vec();
    damaged.extend_from_slice(&bytes[b + 3..]);
    for (capture, received) in [(bytes, planned.len()), (&damaged, planned.len() - 1)] {
        let scratch = Scratch::new("v1-summary");
        let mut puller = v2::pulls::open(
            firmware_elf(),
            &scratch.0,
            v2::pulls::PullOptions::default(),
        );
        puller.feed(capture, 0).unwrap();
        puller.finish().unwrap();
        let summary = puller.summary();
        assert_eq!(summary.received, received);
        assert_eq!(summary.is_ok(), received == planned.len(), "{summary:#?}");
        // v1 frames have no check values: the pull says so of every v1 game it verified.
        let unchecked =
            format!("{received} games of protocol v1, whose frames carry no check values");
        assert!(
            summary.notes.iter().any(|n| n.starts_with(&unchecked)),
            "{:?}",
            summary.notes
        );
        if received < planned.len() {
            assert_eq!(
                summary.failed,
                ["game 2, move 10: sequence gap, expected move frame 10 but got 13 (frames lost)"]
            );
            assert_eq!(summary.damage.len(), 1);
            assert!(
                summary.damage[0].contains("(in game 2)"),
                "{:?}",
                summary.damage
            );
        }
    }
}
