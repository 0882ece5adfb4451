//! Issue 47: whether a pull succeeded, and its exit status, is the library's to decide from
//! what the conversation saw, silence included, with time passed in. Each case here has a
//! known answer, driven with a scripted clock (milliseconds as plain numbers): no port, no
//! pty, no real timeout.

#[allow(dead_code)]
mod v2 {
    pub mod scratch;
}

use std::path::Path;

use twenty48_devicelog::pull::{
    Conversation, Failure, PortOptions, Silence, State, Verdict, EXIT_FAILED,
};
use twenty48_devicelog::Directory;
use twenty48_deviceproto::{ErrorCode, QEMU_DEVICE_ID};
use twenty48_engine::Rules;
use twenty48_testkit::frames::{cycle, Frames};
use v2::scratch::Scratch;

/// The silence allowed, in milliseconds: the CLI's default `--timeout`.
const TIMEOUT: u64 = 15_000;

fn elf() -> Vec<u8> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/v2");
    std::fs::read(dir.join("twenty48-qemu.elf")).expect("the firmware ELF")
}

fn frames() -> Frames {
    Frames::new(&elf(), QEMU_DEVICE_ID)
}

/// A conversation with a board, begun at 0 ms, writing into `dir`.
fn port(dir: &Scratch) -> Conversation {
    let folder = Box::new(Directory::new(&dir.0));
    Conversation::port(&elf(), folder, PortOptions::default(), 0).unwrap()
}

/// A capture's conversation, writing into `dir`.
fn capture(dir: &Scratch) -> Conversation {
    Conversation::capture(&elf(), Box::new(Directory::new(&dir.0)), false).unwrap()
}

/// Game `number` of the board, whole, and the check its acknowledgement names.
fn game(f: &Frames, number: u32) -> Vec<u8> {
    f.game(
        number,
        &Rules::CLASSIC,
        u64::from(number),
        &cycle(12),
        false,
    )
    .0
}

/// A reply of games `numbers`, from its hello to its pull done.
fn reply(f: &Frames, numbers: &[u32]) -> Vec<u8> {
    let next = numbers.iter().max().map_or(1, |n| n + 1);
    let n = numbers.len() as u32;
    let mut bytes = [f.hello(next, n, n), f.begin(n)].concat();
    for &number in numbers {
        bytes.extend(game(f, number));
    }
    bytes.extend(f.done(n));
    bytes
}

/// The verdict once the bytes are over.
fn end(talk: &mut Conversation) -> Verdict {
    talk.finish().unwrap();
    talk.verdict()
}

#[test]
fn a_reply_written_and_acknowledged_succeeds() {
    let f = frames();
    let dir = Scratch::new("verdict-success");
    let mut talk = port(&dir);
    assert!(!talk.outgoing().is_empty(), "hello and pull");
    talk.feed(&reply(&f, &[1, 2]), 100).unwrap();
    assert_eq!(talk.state(100, TIMEOUT), State::Listening, "two acks out");
    talk.feed(&[f.acked(1), f.acked(2)].concat(), 200).unwrap();
    assert_eq!(talk.state(200, TIMEOUT), State::Done);
    let verdict = end(&mut talk);
    assert_eq!(verdict.failures(), []);
    assert!(verdict.is_ok());
    assert_eq!(verdict.exit_status(), 0);
    assert_eq!(verdict.summary().received, 2);
    assert_eq!(verdict.copies().received, 2);
    assert_eq!(verdict.copies().written, 2);
    assert_eq!(verdict.sentences("/dev/ttyACM0"), Vec::<String>::new());
}

#[test]
fn a_gap_fails_for_its_games() {
    let f = frames();
    let dir = Scratch::new("verdict-gap");
    let mut talk = capture(&dir);
    talk.feed(&[game(&f, 1), game(&f, 3)].concat(), 0).unwrap();
    let verdict = end(&mut talk);
    assert_eq!(verdict.failures(), [Failure::Games]);
    assert_eq!(verdict.exit_status(), EXIT_FAILED);
    assert_eq!(verdict.summary().gaps.len(), 1);
    // The summary's own lines say it: no sentence of the conversation's.
    assert_eq!(verdict.sentences("capture.bin"), Vec::<String>::new());
    // Games count distinct games, copies count copies: two of each here.
    assert_eq!(
        (verdict.summary().received, verdict.copies().received),
        (2, 2)
    );
}

#[test]
fn a_board_silent_before_its_reply_fails_with_no_reply_and_silence() {
    let dir = Scratch::new("verdict-silent");
    let mut talk = port(&dir);
    // Not silent yet: giving up records nothing.
    assert!(!talk.give_up(TIMEOUT, TIMEOUT, Silence::Quiet));
    assert_eq!(talk.state(TIMEOUT + 1, TIMEOUT), State::Silent);
    assert!(talk.give_up(TIMEOUT + 1, TIMEOUT, Silence::Quiet));
    let verdict = end(&mut talk);
    assert_eq!(
        verdict.failures(),
        [
            Failure::NoReply,
            Failure::Silent {
                how: Silence::Quiet,
                timeout: TIMEOUT
            }
        ]
    );
    assert_eq!(verdict.exit_status(), EXIT_FAILED);
    assert_eq!(
        verdict.sentences("/dev/ttyACM0"),
        [
            "no pull reply came from /dev/ttyACM0 (no pull begin and done): the games it stores were not pulled",
            "/dev/ttyACM0 stopped answering: no frame for 15 s before the pull was done and acknowledged",
        ]
    );
}

#[test]
fn a_port_gone_and_not_back_is_said_as_such() {
    let f = frames();
    let dir = Scratch::new("verdict-gone");
    let mut talk = port(&dir);
    talk.feed(&f.hello(1, 0, 0), 1_000).unwrap();
    // Frames that are no reply still count as hearing from the board.
    assert!(!talk.give_up(1_000 + TIMEOUT, TIMEOUT, Silence::Gone));
    assert!(talk.give_up(1_001 + TIMEOUT, 2_500, Silence::Gone));
    let verdict = end(&mut talk);
    assert_eq!(
        verdict.sentences("/dev/ttyUSB0")[1],
        "/dev/ttyUSB0 went away and did not come back: no port and no frame for 2.5 s before the pull was done and acknowledged"
    );
}

#[test]
fn no_reply_fails_even_when_the_caller_stops_before_any_silence() {
    // Ctrl-C after a second: not silent, but nothing stored was pulled.
    let dir = Scratch::new("verdict-no-reply");
    let mut talk = port(&dir);
    assert_eq!(talk.state(1_000, TIMEOUT), State::Listening);
    let verdict = end(&mut talk);
    assert_eq!(verdict.failures(), [Failure::NoReply]);
    assert_eq!(verdict.exit_status(), EXIT_FAILED);
}

#[test]
fn a_capture_of_nothing_or_of_noise_alone_fails() {
    let f = frames();
    let noise: Vec<u8> = (1..=200u8).chain([0]).collect();
    for (name, bytes) in [("empty", Vec::new()), ("noise", noise.clone())] {
        let dir = Scratch::new(&format!("verdict-{name}"));
        let mut talk = capture(&dir);
        talk.feed(&bytes, 0).unwrap();
        let verdict = end(&mut talk);
        assert_eq!(verdict.failures(), [Failure::NoFrame], "{name}");
        assert_eq!(
            verdict.sentences("capture.bin"),
            ["capture.bin holds no frame of a device log (an empty capture, or not a capture of this firmware's log)"],
            "{name}"
        );
    }
    // Noise, then a frame of the device and no game: noise is all that came of games.
    let dir = Scratch::new("verdict-noise-hello");
    let mut talk = capture(&dir);
    talk.feed(&[noise, f.hello(1, 0, 0)].concat(), 0).unwrap();
    let verdict = end(&mut talk);
    assert!(talk.damage().total() > 0);
    assert!(
        verdict.summary().is_ok(),
        "noise before the first frame is no damage of a game"
    );
    assert_eq!(verdict.failures(), [Failure::OnlyNoise]);
    // A game after the same noise: the noise alone does not fail the pull.
    let dir = Scratch::new("verdict-noise-game");
    let mut talk = capture(&dir);
    talk.feed(&[(1..=200u8).chain([0]).collect(), game(&f, 1)].concat(), 0)
        .unwrap();
    assert_eq!(end(&mut talk).failures(), []);
}

#[test]
fn an_acknowledgement_refused_fails() {
    let f = frames();
    let dir = Scratch::new("verdict-refused");
    let mut talk = port(&dir);
    talk.feed(&reply(&f, &[1]), 100).unwrap();
    talk.feed(&f.error(ErrorCode::CheckMismatch as u8, 1), 200)
        .unwrap();
    assert_eq!(
        talk.state(200, TIMEOUT),
        State::Done,
        "answered, by a refusal"
    );
    let verdict = end(&mut talk);
    assert_eq!(verdict.failures(), [Failure::AckRefused]);
    assert_eq!(verdict.exit_status(), EXIT_FAILED);
}

#[test]
fn acknowledgements_never_answered_fail_and_the_silence_is_said() {
    let f = frames();
    let dir = Scratch::new("verdict-unanswered");
    let mut talk = port(&dir);
    talk.feed(&reply(&f, &[1, 2, 3]), 100).unwrap();
    talk.feed(&f.acked(1), 200).unwrap();
    assert_eq!(talk.state(200 + TIMEOUT, TIMEOUT), State::Listening);
    assert!(talk.give_up(201 + TIMEOUT, TIMEOUT, Silence::Quiet));
    let verdict = end(&mut talk);
    assert_eq!(
        verdict.failures(),
        [
            Failure::AckUnanswered,
            Failure::Silent {
                how: Silence::Quiet,
                timeout: TIMEOUT
            }
        ]
    );
    assert_eq!(talk.acks().unanswered(), (vec![2, 3], 0));
}

#[test]
fn a_board_with_no_store_succeeds_with_what_it_played_live() {
    let f = frames();
    let dir = Scratch::new("verdict-no-store");
    let mut talk = port(&dir);
    talk.feed(&f.error(ErrorCode::NoStore as u8, 0), 100)
        .unwrap();
    assert_eq!(talk.state(100, TIMEOUT), State::Done);
    talk.feed(&game(&f, 4), 200).unwrap();
    let verdict = end(&mut talk);
    assert!(talk.no_store());
    assert_eq!(verdict.failures(), []);
    assert_eq!(verdict.copies().received, 1);
}
