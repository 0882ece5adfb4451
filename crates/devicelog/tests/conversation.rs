//! The pull conversation's promises (docs/firmware.md, "Threat model"; issue 47, item 5),
//! driven below the CLI: `twenty48_devicelog::pull::Conversation` against a board modelled
//! in the test (protocol v2 frames from `twenty48_testkit::frames`, as the fake board of
//! crates/cli/tests/fakeboard.rs sends them), on a scripted clock: plain milliseconds that
//! the test advances, no sleeping, no thread, no pseudo-terminal. So every timeout is exact
//! and costs nothing:
//! - silence: no frame for longer than the timeout is `State::Silent`, at the millisecond;
//!   bytes that make no frame (a zero byte a tenth of a second, endless noise) do not keep
//!   the pull waiting;
//! - a reconnection makes the request again and forgets the acknowledgements unanswered;
//!   the games come again and are recognised on disk;
//! - an acknowledgement refused (an error naming its game, or any error 6 after the reply
//!   began) or never answered is counted so; only an error 6 naming no game before any
//!   reply says the device keeps no store, and ends the pull at once;
//! - never more than `ACKS_IN_FLIGHT` acknowledgements unanswered: a pull of many games
//!   never overflows an AVR board's 64-byte receive ring;
//! - the tail of an earlier reply does not end the pull; of two copies the longer is kept
//!   and every acknowledgement names a copy on disk.
//!
//! The port itself (reopening it, Ctrl-C, the raw capture, exit statuses) is fakeboard.rs's.

mod v2 {
    pub mod board;
    #[allow(dead_code)]
    pub mod scratch;
}

use std::collections::BTreeMap;
use std::path::Path;

use twenty48_devicelog::pull::{
    Conversation, Outcome, PortOptions, Progress, State, ACKS_IN_FLIGHT,
};
use twenty48_devicelog::Directory;
use twenty48_deviceproto::{ErrorCode, Request, QEMU_DEVICE_ID};

use twenty48_engine::Rules;
use twenty48_movelog::MoveLog;
use twenty48_testkit::frames::{cycle, Frames};
use v2::board::{Answer, Board, Link, Step, TICK, TIMEOUT};
use v2::scratch::Scratch;

const DEV: u64 = QEMU_DEVICE_ID;

/// The AVR boards' receive ring (the fake board's `start_with_ring(.., 64)`).
const AVR_RING: usize = 64;

fn elf() -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/v2/twenty48-qemu.elf");
    std::fs::read(path).expect("the v2 firmware ELF")
}

fn frames() -> Frames {
    Frames::new(&elf(), DEV)
}

/// A port pull's conversation into `dir`, begun at `now` (`all`: `{pull all}`). The one
/// place a port's conversation is made.
fn port(dir: &Scratch, all: bool, now: u64) -> Conversation {
    let options = PortOptions {
        all,
        keep_partial: false,
    };
    Conversation::port(&elf(), Box::new(Directory::new(&dir.0)), options, now).unwrap()
}

/// A capture's conversation into `dir`. The one place a capture's conversation is made.
fn capture(dir: &Scratch) -> Conversation {
    Conversation::capture(&elf(), Box::new(Directory::new(&dir.0)), false).unwrap()
}

/// The `.t48` files in `dir`, decoded, by name.
fn logs(dir: &Scratch) -> BTreeMap<String, MoveLog> {
    dir.names()
        .into_iter()
        .filter(|n| n.ends_with(".t48"))
        .map(|n| {
            let log = MoveLog::decode(&std::fs::read(dir.0.join(&n)).unwrap()).unwrap();
            (n, log)
        })
        .collect()
}

/// The exact text of `{ack N C}` for each game, in order of game number.
fn acks_text(checks: &BTreeMap<u32, u32>) -> String {
    checks
        .iter()
        .map(|(&game, &check)| Request::Ack { game, check }.to_string())
        .collect()
}

/// The request, exactly: `{hello}{pull}` (or `{pull all}`) waits in the outgoing bytes as
/// the conversation begins, once; a capture's conversation never sends anything, nor
/// acknowledges anything, whatever it reads.
#[test]
fn a_port_asks_once_and_a_capture_never_speaks() {
    let dir = Scratch::new("conversation-request");
    for (all, request) in [(false, "{hello}{pull}"), (true, "{hello}{pull all}")] {
        let mut talk = port(&dir, all, 0);
        assert_eq!(talk.outgoing(), request.as_bytes());
        assert_eq!(talk.outgoing(), b"", "taken");
    }
    let f = frames();
    let (reply, _) = f.whole_reply(2, 10, 6);
    let mut talk = capture(&dir);
    assert_eq!(talk.outgoing(), b"");
    talk.feed(&reply, 0).unwrap();
    talk.finish().unwrap();
    assert_eq!(talk.outgoing(), b"", "a capture acknowledges nothing");
    assert!(!talk.acks().waiting());
    assert!(talk.acks().answered().items.is_empty());
    assert_eq!(talk.summary().received, 2);
}

/// The silence allowed, at the millisecond: the state at the last frame's time plus the
/// timeout is still `Listening`, one millisecond later `Silent`; before any frame the clock
/// counts from the conversation's beginning (or its reconnection); bytes that make no frame
/// do not move it.
#[test]
fn silence_is_counted_from_the_last_frame_to_the_millisecond() {
    let dir = Scratch::new("conversation-timeout");
    let f = frames();
    let mut talk = port(&dir, false, 1_000);
    assert_eq!(talk.state(1_000, TIMEOUT), State::Listening);
    assert_eq!(talk.state(1_000 + TIMEOUT, TIMEOUT), State::Listening);
    assert_eq!(talk.state(1_000 + TIMEOUT + 1, TIMEOUT), State::Silent);
    // A frame at 2,500: the silence counts from it.
    talk.feed(&f.hello(3, 2, 2), 2_500).unwrap();
    assert_eq!(talk.state(2_500 + TIMEOUT, TIMEOUT), State::Listening);
    assert_eq!(talk.state(2_500 + TIMEOUT + 1, TIMEOUT), State::Silent);
    // A zero byte, noise, half a frame: no frame, so no later.
    talk.feed(&[0], 3_000).unwrap();
    talk.feed(&[0xff; 100], 3_500).unwrap();
    talk.feed(&[0], 3_600).unwrap();
    let begin = f.begin(2);
    talk.feed(&begin[..begin.len() - 1], 4_000).unwrap();
    assert_eq!(talk.state(2_500 + TIMEOUT + 1, TIMEOUT), State::Silent);
    // The rest of the frame completes it: a frame at 4,100.
    talk.feed(&begin[begin.len() - 1..], 4_100).unwrap();
    assert_eq!(talk.state(4_100 + TIMEOUT, TIMEOUT), State::Listening);
    assert_eq!(talk.state(4_100 + TIMEOUT + 1, TIMEOUT), State::Silent);
    // A reconnection starts the count again.
    talk.reconnected(9_000);
    assert_eq!(talk.state(9_000 + TIMEOUT, TIMEOUT), State::Listening);
    assert_eq!(talk.state(9_000 + TIMEOUT + 1, TIMEOUT), State::Silent);
    // A reply done and acknowledged is done, however long ago its last frame came.
    let dir = Scratch::new("conversation-timeout-done");
    let mut talk = port(&dir, false, 0);
    let mut reply = f.hello(1, 0, 0);
    reply.extend(f.begin(0));
    reply.extend(f.done(0));
    talk.feed(&reply, 10).unwrap();
    assert_eq!(talk.state(10, TIMEOUT), State::Done);
    assert_eq!(talk.state(10 + 100 * TIMEOUT, TIMEOUT), State::Done);
}

/// Issue 26: one 0x00 byte a second kept the silence timer from ever firing, so a pull
/// without --follow never ended. A board that answers the request with a hello and then
/// a zero byte every 100 ms is silent `TIMEOUT` ms after its hello, to the millisecond;
/// so is one that sends endless noise with no separator (damage, never a frame); neither
/// replied.
#[test]
fn a_board_that_dribbles_zero_bytes_or_noise_is_given_up_on() {
    for (name, bytes, every) in [("zeros", vec![0], 100), ("noise", vec![0xff; 8192], TICK)] {
        let f = frames();
        let script = vec![
            Step::Await("{pull}"),
            Step::Send(f.hello(3, 2, 2)),
            Step::Forever(bytes, every),
        ];
        let dir = Scratch::new(&format!("conversation-dribble-{name}"));
        let mut link = Link::new(port(&dir, false, 0), Board::new(f, script));
        assert_eq!(link.run(), State::Silent, "{name}");
        assert_eq!(
            link.last_frame, 0,
            "{name}: the hello came in the first turn"
        );
        assert_eq!(
            link.now,
            TIMEOUT + TICK,
            "{name}: silent at the first turn past the timeout"
        );
        assert!(!link.talk.replied(), "{name}");
        assert_eq!(link.board.heard(), "{hello}{pull}", "{name}");
        if name == "noise" {
            let damage: Vec<String> = link
                .progress
                .iter()
                .filter_map(|p| match p {
                    Progress::Damaged(d) => Some(d.to_string()),
                    _ => None,
                })
                .collect();
            assert!(
                damage
                    .iter()
                    .any(|d| d.contains("more than 4096 bytes without a frame separator")),
                "{damage:?}"
            );
        }
    }
}

/// A whole pull: every game written, then acknowledged by the check of its end frame, in
/// order, the host's bytes exactly `{hello}{pull}` and the acks; done as soon as the last
/// ack is answered, well before any timeout.
#[test]
fn a_whole_pull_writes_then_acknowledges_every_game_and_is_done() {
    let f = frames();
    let (reply, checks) = f.whole_reply(5, 500, 12);
    let script = vec![
        Step::Await("{pull}"),
        Step::Send(reply),
        Step::Acks(Answer::Checks(checks.clone()), 0),
    ];
    let dir = Scratch::new("conversation-whole");
    let mut link = Link::new(port(&dir, false, 0), Board::new(f, script));
    assert_eq!(link.run(), State::Done);
    assert!(link.now < TIMEOUT, "done at {} ms", link.now);
    link.finish();
    assert_eq!(
        link.board.heard(),
        format!("{{hello}}{{pull}}{}", acks_text(&checks))
    );
    assert_eq!(logs(&dir).len(), 5);
    let answered: Vec<u32> = link.talk.acks().answered().items.clone();
    assert_eq!(answered, [1, 2, 3, 4, 5]);
    assert!(!link.talk.acks().waiting() && !link.talk.acks().any_refused());
    assert!(link.talk.replied() && !link.talk.no_store());
    let summary = link.talk.summary();
    assert!(summary.is_ok(), "{summary:#?}");
    assert_eq!(summary.received, 5);
    let acked: Vec<u32> = link
        .progress
        .iter()
        .filter_map(|p| match p {
            Progress::Acked(game) => Some(*game),
            _ => None,
        })
        .collect();
    assert_eq!(acked, [1, 2, 3, 4, 5]);
}

/// An ack answered with an error naming its game (error 3: the board does not hold it) is
/// refused: the pull is done, not waiting; an ack never answered keeps it listening until
/// the timeout after the last frame, to the millisecond, and is counted unanswered. The
/// game is on disk either way.
#[test]
fn an_ack_refused_or_never_answered_is_counted_so() {
    for refuse in [true, false] {
        let f = frames();
        let (game, check) = f.game(1, &Rules::CLASSIC, 4, &cycle(20), false);
        let mut reply = f.hello(2, 1, 1);
        reply.extend(f.begin(1));
        reply.extend(&game);
        reply.extend(f.done(1));
        let answer = if refuse {
            Answer::Checks(BTreeMap::new())
        } else {
            Answer::Never
        };
        let script = vec![
            Step::Await("{pull}"),
            Step::Send(reply),
            Step::Acks(answer, 0),
        ];
        let dir = Scratch::new(&format!("conversation-acks-{refuse}"));
        let mut link = Link::new(port(&dir, false, 0), Board::new(f, script));
        let state = link.run();
        link.finish();
        assert_eq!(link.board.acks(), [(1, check)], "{refuse}");
        assert_eq!(logs(&dir).len(), 1, "{refuse}: the game is on disk");
        assert!(link.talk.replied(), "{refuse}");
        let acks = link.talk.acks();
        assert!(acks.answered().items.is_empty(), "{refuse}");
        if refuse {
            assert_eq!(state, State::Done);
            assert_eq!(acks.refusals().total(), 1);
            let refusal = &acks.refusals().items[0];
            assert!(
                refusal.contains("error 3") && refusal.contains("game 1"),
                "{refusal}"
            );
            assert!(!acks.waiting());
        } else {
            assert_eq!(state, State::Silent);
            assert_eq!(link.now, link.last_frame + TIMEOUT + TICK);
            assert!(!acks.any_refused());
            assert!(acks.waiting());
            assert_eq!(acks.unanswered(), (vec![1], 0));
        }
    }
}

/// Issue 34: a board that answers every acknowledgement with error 6 ("no store") after a
/// reply of its stored games, naming the game or not: every ack is refused, none answered,
/// the games are written all the same; the device is not taken for one without a store
/// (it was: the pull passed with no game acknowledged).
#[test]
fn acks_answered_with_error_6_after_the_reply_began_are_refused() {
    for name_game in [true, false] {
        let f = frames();
        let (reply, _) = f.whole_reply(2, 0, 12);
        let script = vec![
            Step::Await("{pull}"),
            Step::Send(reply),
            Step::Acks(Answer::Refuse(ErrorCode::NoStore as u8, name_game), 0),
        ];
        let dir = Scratch::new(&format!("conversation-error6-{name_game}"));
        let mut link = Link::new(port(&dir, false, 0), Board::new(f, script));
        assert_eq!(link.run(), State::Done, "{name_game}");
        link.finish();
        assert_eq!(logs(&dir).len(), 2, "{name_game}: written all the same");
        let acks = link.talk.acks();
        assert!(acks.answered().items.is_empty(), "{name_game}");
        assert_eq!(acks.refusals().total(), 2, "{name_game}");
        for refusal in &acks.refusals().items {
            assert!(refusal.contains("error 6"), "{refusal}");
        }
        assert!(!acks.waiting(), "{name_game}");
        assert!(!link.talk.no_store(), "{name_game}");
    }
}

/// A board whose firmware keeps no game store (the Arduino Uno's before issue 25) answers
/// `{pull}` with error 6 naming no game: the pull is done at once (not at the timeout),
/// says the device keeps no store, acknowledges nothing after it, and the game the board
/// played live meanwhile is written.
#[test]
fn a_board_without_a_store_ends_the_pull_at_once() {
    let f = frames();
    let (game, _) = f.game(1, &Rules::CLASSIC, 42, &cycle(8), false);
    let mut live = f.hello(2, 0, 0);
    live.extend(&game);
    let no_store = f.error(ErrorCode::NoStore as u8, 0);
    let script = vec![
        Step::Send(live),
        Step::Await("{pull}"),
        Step::Send(no_store),
    ];
    let dir = Scratch::new("conversation-nostore");
    let mut link = Link::new(port(&dir, false, 0), Board::new(f, script));
    assert_eq!(link.run(), State::Done);
    assert_eq!(link.now, link.last_frame + TICK, "done at the error's turn");
    link.finish();
    assert!(link.talk.no_store() && link.talk.replied());
    assert!(
        link.facts()
            .iter()
            .any(|f| f.contains("error 6 (the device keeps no game store")),
        "{:?}",
        link.facts()
    );
    assert_eq!(logs(&dir).len(), 1, "the live game");
    assert!(!link.talk.acks().waiting() && !link.talk.acks().any_refused());
    assert!(link.talk.summary().is_ok());
    // Whatever the live game's ack did before the error, nothing goes out after it.
    assert_eq!(link.talk.outgoing(), b"");
}

/// Never more than `ACKS_IN_FLIGHT` acknowledgements unanswered at once, whether the board
/// answers at once, slowly (half a second each) or never; one that never answers is sent
/// exactly that many, and the rest are counted unanswered. Every game is on disk.
#[test]
fn never_more_than_acks_in_flight_are_unanswered() {
    let count = 8;
    for (name, delay, never) in [
        ("at-once", 0, false),
        ("slow", 500, false),
        ("never", 0, true),
    ] {
        let f = frames();
        let (reply, checks) = f.whole_reply(count, 700, 6);
        let answer = if never {
            Answer::Never
        } else {
            Answer::Checks(checks.clone())
        };
        let script = vec![
            Step::Await("{pull}"),
            Step::Send(reply),
            Step::Acks(answer, delay),
        ];
        let dir = Scratch::new(&format!("conversation-window-{name}"));
        let mut link = Link::new(port(&dir, false, 0), Board::new(f, script));
        let state = link.run();
        link.finish();
        assert_eq!(logs(&dir).len(), count as usize, "{name}");
        assert!(
            link.most_unanswered <= ACKS_IN_FLIGHT,
            "{name}: {} unanswered at once",
            link.most_unanswered
        );
        let acks = link.talk.acks();
        if never {
            assert_eq!(state, State::Silent, "{name}");
            assert_eq!(link.board.acks().len(), ACKS_IN_FLIGHT, "{name}");
            assert_eq!(acks.unanswered(), ((1..=count).collect(), 0), "{name}");
        } else {
            assert_eq!(state, State::Done, "{name}");
            assert_eq!(
                link.most_unanswered, ACKS_IN_FLIGHT,
                "{name}: the window is used"
            );
            assert_eq!(
                link.board.heard(),
                format!("{{hello}}{{pull}}{}", acks_text(&checks))
            );
            assert_eq!(
                acks.answered().items,
                (1..=count).collect::<Vec<_>>(),
                "{name}"
            );
        }
    }
}

/// A board reads the host's requests only between replies, from a small receive ring (the
/// AVR boards: 64 bytes; what finds no room is lost on a real serial link). The host
/// acknowledged every game as soon as it was on disk while the board was still sending:
/// a pull of a dozen games overflowed the ring, the acks that found no room were never
/// answered, and the pull failed. The acks of those games would not fit; the window's do.
#[test]
fn a_pull_of_many_games_never_overflows_the_boards_receive_ring() {
    let f = frames();
    let count = 12;
    let (reply, checks) = f.whole_reply(count, 1000, 8);
    assert!(
        acks_text(&checks).len() > AVR_RING,
        "the acks at once would overflow"
    );
    let script = vec![
        Step::Await("{pull}"),
        Step::Send(reply),
        Step::Acks(Answer::Checks(checks.clone()), 0),
    ];
    let dir = Scratch::new("conversation-ring");
    let mut link = Link::new(port(&dir, false, 0), Board::with_ring(f, script, AVR_RING));
    assert_eq!(link.run(), State::Done);
    link.finish();
    assert_eq!(link.board.dropped, 0, "bytes lost in the board's ring");
    assert!(
        link.board.ring_peak > 0,
        "acks waited in the ring during the reply: {} bytes at most",
        link.board.ring_peak
    );
    assert_eq!(logs(&dir).len(), count as usize);
    let acked: BTreeMap<u32, u32> = link.board.acks().into_iter().collect();
    assert_eq!(acked, checks);
    assert!(!link.talk.acks().waiting() && !link.talk.acks().any_refused());
}

/// A pull killed in the middle of a board's reply and run again: the board first finishes
/// the reply it was sending (its last frames, its `pull done`), then answers the new
/// request. The tail's `pull done` is not this pull's (no `pull begin` came before it):
/// the pull says so and waits for its own reply, gets the game, acknowledges it and is
/// done. (It stopped at the stale `pull done` with nothing pulled: found by the Nano's
/// emulator test, which kills a pull after its first file.)
#[test]
fn the_tail_of_an_earlier_reply_does_not_end_the_pull() {
    let f = frames();
    let (game, check) = f.game(3, &Rules::CLASSIC, 77, &cycle(20), false);
    let mut tail = f.moved(3, 12, 1, 64, 0x1234);
    tail.extend(f.done(3));
    let mut reply = f.hello(4, 1, 1);
    reply.extend(f.begin(1));
    reply.extend(&game);
    reply.extend(f.done(1));
    // The tail alone: the reply is not over.
    let dir = Scratch::new("conversation-stale-tail-alone");
    let mut talk = port(&dir, false, 0);
    let progress = talk.feed(&tail, 10).unwrap();
    assert!(
        progress.contains(&Progress::EarlierReplyEnded),
        "{progress:?}"
    );
    assert!(!talk.replied());
    assert_eq!(talk.state(10, TIMEOUT), State::Listening);
    // The tail, then the reply.
    let script = vec![
        Step::Await("{pull}"),
        Step::Send(tail),
        Step::Send(reply),
        Step::Acks(Answer::Checks(BTreeMap::from([(3, check)])), 0),
    ];
    let dir = Scratch::new("conversation-stale-tail");
    let mut link = Link::new(port(&dir, false, 0), Board::new(f, script));
    assert_eq!(link.run(), State::Done);
    link.finish();
    let earlier = link
        .progress
        .iter()
        .filter(|p| **p == Progress::EarlierReplyEnded)
        .count();
    assert_eq!(earlier, 1);
    assert_eq!(link.outcomes(), [(3, Outcome::Written)]);
    assert_eq!(logs(&dir).len(), 1);
    assert_eq!(link.board.acks(), [(3, check)]);
    assert!(link.talk.summary().is_ok());
}

/// Issue 26: a reply holding two partial copies of one game (10 moves, then 50): only the
/// 10-move copy was written, and `{ack N C}` went out with the 50-move copy's check. Now
/// the 50-move copy is on disk, its ack goes out with its own check, and every ack names a
/// copy whose moves are in a file.
#[test]
fn the_longer_copy_is_kept_and_every_ack_names_a_copy_on_disk() {
    let f = frames();
    let moves = cycle(80);
    let (short, c10) = f.game(5, &Rules::CLASSIC, 99, &moves[..10], true);
    let (long, c50) = f.game(5, &Rules::CLASSIC, 99, &moves[..50], true);
    let mut reply = f.hello(6, 1, 1);
    reply.extend(f.begin(2));
    reply.extend(&short);
    reply.extend(&long);
    reply.extend(f.done(2));
    // A board that holds the 50-move copy: it refuses an ack of the 10-move one.
    let script = vec![
        Step::Await("{pull}"),
        Step::Send(reply),
        Step::Acks(Answer::Checks(BTreeMap::from([(5, c50)])), 0),
    ];
    let dir = Scratch::new("conversation-two-copies");
    let mut link = Link::new(port(&dir, false, 0), Board::new(f, script));
    assert_ne!(link.run(), State::Listening);
    link.finish();
    let acks = link.board.acks();
    assert!(acks.contains(&(5, c50)), "{acks:?}");
    let logs: Vec<MoveLog> = logs(&dir).into_values().collect();
    assert!(logs.iter().any(|l| l.moves.len() == 50), "{logs:?}");
    for (game, check) in acks {
        assert_eq!(game, 5);
        let n = if check == c10 { 10 } else { 50 };
        assert!(
            logs.iter()
                .any(|l| l.moves.len() >= n && l.moves[..n] == moves[..n]),
            "ack of the {n}-move copy with no file holding it"
        );
    }
    assert!(link.talk.acks().answered().items.contains(&5));
}

/// A board whose cable is pulled in the middle of a reply's second game, after the host
/// acknowledged the first: with no reconnection the pull is silent `TIMEOUT` ms after the
/// last frame, the reply reported cut off, the first game on disk and its ack unanswered.
#[test]
fn a_reply_cut_off_ends_in_silence_and_is_reported_so() {
    let f = frames();
    let (bytes, _) = cut_reply(&f);
    let script = vec![Step::Await("{pull}"), Step::Send(bytes)];
    let dir = Scratch::new("conversation-cut");
    let mut link = Link::new(port(&dir, false, 0), Board::new(f, script));
    assert_eq!(link.run(), State::Silent);
    assert_eq!(link.now, link.last_frame + TIMEOUT + TICK);
    link.finish();
    assert!(!link.talk.replied());
    assert_eq!(logs(&dir).len(), 1);
    assert_eq!(link.talk.acks().unanswered(), (vec![1], 0));
    let summary = link.talk.summary();
    assert_eq!(
        summary.lost,
        ["a pull reply announced 2 games and was cut off after 1"],
        "{summary:#?}"
    );
}

/// The start of a reply of games 1 and 2 cut off in the middle of the second game's last
/// frame, and the two games' checks.
fn cut_reply(f: &Frames) -> (Vec<u8>, BTreeMap<u32, u32>) {
    let (first, c1) = f.game(1, &Rules::CLASSIC, 5, &cycle(10), false);
    let (second, c2) = f.game(2, &Rules::CLASSIC, 6, &cycle(10), false);
    let mut bytes = f.hello(3, 2, 2);
    bytes.extend(f.begin(2));
    bytes.extend(&first);
    bytes.extend(&second[..second.len() - 3]);
    (bytes, BTreeMap::from([(1, c1), (2, c2)]))
}

/// The same cable pulled, and plugged in again: the conversation asks again (exactly
/// `{hello}{pull}`, nothing of what was under way), forgets the ack the board never
/// answered, and listens again from the reconnection. The board's new reply brings both
/// games: the first is recognised on disk (no second file) and acknowledged again, the
/// second written; both acks answered, the pull done and whole.
#[test]
fn a_reconnection_asks_again_and_forgets_the_acks_unanswered() {
    let f = frames();
    let (bytes, checks) = cut_reply(&f);
    let script = vec![Step::Await("{pull}"), Step::Send(bytes)];
    let dir = Scratch::new("conversation-reconnect");
    let mut link = Link::new(port(&dir, false, 0), Board::new(f, script));
    for _ in 0..50 {
        link.turn();
        link.now += TICK;
    }
    assert_eq!(
        link.board.acks(),
        [(1, checks[&1])],
        "acked before the cable went"
    );
    assert_eq!(link.talk.acks().unanswered(), (vec![1], 0));
    let before = dir.names();
    assert_eq!(before.len(), 1);
    // Plugged in again a second later: a board that forgot the conversation.
    link.now += 1_000;
    link.talk.reconnected(link.now);
    let request = link.talk.outgoing();
    assert_eq!(request, b"{hello}{pull}");
    assert!(!link.talk.acks().waiting(), "the unanswered ack forgotten");
    assert_eq!(
        link.talk.state(link.now + TIMEOUT, TIMEOUT),
        State::Listening
    );
    // The same two games (seeds 5 and 6, 10 moves), whole this time.
    let f = frames();
    let (again, same) = f.whole_reply(2, 4, 10);
    assert_eq!(same, checks);
    let script = vec![
        Step::Await("{pull}"),
        Step::Send(again),
        Step::Acks(Answer::Checks(checks.clone()), 0),
    ];
    link.board = Board::new(f, script);
    link.board.hear(&request);
    let from = link.progress.len();
    assert_eq!(link.run(), State::Done);
    link.finish();
    assert_eq!(
        link.board.heard(),
        format!("{{hello}}{{pull}}{}", acks_text(&checks))
    );
    // The cut copy of game 2 is closed by the board's new hello (not written), game 1's
    // new copy is the one on disk, game 2's whole copy is written.
    let outcomes: Vec<(u32, Outcome)> = link.outcomes().split_off(link.outcomes().len() - 3);
    assert_eq!(
        outcomes,
        [
            (2, Outcome::NotWritten),
            (1, Outcome::Duplicate),
            (2, Outcome::Written)
        ],
        "{:?}",
        &link.progress[from..]
    );
    let after = dir.names();
    assert_eq!(after.len(), 2);
    assert!(after.contains(&before[0]));
    let acks = link.talk.acks();
    assert_eq!(acks.answered().items, [1, 2]);
    assert!(!acks.waiting() && !acks.any_refused());
    let summary = link.talk.summary();
    assert_eq!(summary.received, 2);
    assert!(summary.failed.is_empty() && summary.damage.is_empty() && summary.gaps.is_empty());
    // The reply cut off by the cable is a note, not a loss: the reply asked again held
    // every game not acknowledged, and both came whole (found writing this test: it was a
    // loss before issue 47 gave the replies one owner).
    assert!(summary.is_ok(), "{summary:#?}");
    assert!(
        summary.notes.iter().any(|n| n
            == "a pull reply announced 2 games and was cut off after 1; the replies to the requests made again brought every game it did not"),
        "{summary:#?}"
    );
}

/// A port's conversation into a folder in memory.
fn port_in_memory() -> Conversation {
    let folder = Box::new(twenty48_testkit::folder::Memory::new());
    Conversation::port(&elf(), folder, PortOptions::default(), 0).unwrap()
}

/// A cut reply is made good only by a whole reply of its own device to a request made
/// again after it, with room for every game it did not bring (the hostile review of issue
/// 47): a board whose store was lost, another device, or no request made again leave it a
/// loss.
#[test]
fn a_cut_reply_is_made_good_only_by_its_devices_reply_to_a_request_made_again() {
    let f = frames();
    // Same device, asked again, its whole reply holds none of the 5 games announced.
    let mut talk = port_in_memory();
    talk.feed(&reply(&f, 6, 5, &[], false), 10).unwrap();
    talk.reconnected(20);
    talk.feed(&reply(&f, 6, 0, &[], true), 30).unwrap();
    talk.finish().unwrap();
    let summary = talk.summary();
    assert_eq!(
        summary.lost,
        ["a pull reply announced 5 games and was cut off after 0"],
        "{summary:#?}"
    );
    assert!(!talk.verdict().is_ok());

    // Another device's pull begin cuts the reply, and its empty whole reply follows.
    let mut stranger = frames();
    stranger.dev = 0x0bad_0000_0000_0002;
    let mut talk = port_in_memory();
    let mut bytes = reply(&f, 6, 5, &[], false);
    bytes.extend(stranger.begin(0));
    bytes.extend(stranger.done(0));
    talk.feed(&bytes, 10).unwrap();
    talk.finish().unwrap();
    assert!(!talk.verdict().is_ok(), "{:#?}", talk.summary());

    // No request made again: a whole reply of the same device does not make it good.
    let mut talk = port_in_memory();
    let mut bytes = reply(&f, 2, 5, &[1], false);
    bytes.extend(f.begin(4));
    bytes.extend(f.done(4));
    talk.feed(&bytes, 10).unwrap();
    talk.finish().unwrap();
    assert!(!talk.verdict().is_ok(), "{:#?}", talk.summary());
}

/// Past the devices the decoder counts, a reply whose pull begin never came and that sent
/// no game is not short (the hostile review of issue 47).
#[test]
fn a_headless_reply_of_no_game_is_not_short_past_the_devices_counted() {
    let mut f = frames();
    let mut bytes = Vec::new();
    for d in 0..70u64 {
        f.dev = 0x1000 + d;
        bytes.extend(f.game(1, &Rules::CLASSIC, d, &cycle(4), false).0);
    }
    f.dev = 0x9999;
    bytes.extend(f.done(0));
    let mut talk = capture_in_memory();
    talk.feed(&bytes, 0).unwrap();
    talk.finish().unwrap();
    let summary = talk.summary();
    assert!(summary.lost.is_empty(), "{summary:#?}");
}

/// Whole game `n` (seed `n`, 6 moves) as the board sends it.
fn g(f: &Frames, n: u32) -> Vec<u8> {
    f.game(n, &Rules::CLASSIC, u64::from(n), &cycle(6), false).0
}

/// A hello announcing `next` and `announced` stored games, then a reply of `announced`
/// holding `games` (by [`g`]), with its `pull done` when `done` (else cut off here).
fn reply(f: &Frames, next: u32, announced: u32, games: &[u32], done: bool) -> Vec<u8> {
    let mut bytes = f.hello(next, announced, announced);
    bytes.extend(f.begin(announced));
    for &n in games {
        bytes.extend(g(f, n));
    }
    if done {
        bytes.extend(f.done(announced));
    }
    bytes
}

/// Answers the acknowledgements of `games`, one at a time, as the board marks them pulled.
fn answer_acks(talk: &mut Conversation, f: &Frames, games: &[u32], now: u64) {
    for &n in games {
        let _ = talk.outgoing();
        talk.feed(&f.acked(n), now).unwrap();
    }
}

/// Feeds game `n` then answers its ack (the board marked it pulled).
fn game_acked(talk: &mut Conversation, f: &Frames, n: u32, now: u64) {
    talk.feed(&g(f, n), now).unwrap();
    let _ = talk.outgoing();
    talk.feed(&f.acked(n), now).unwrap();
}

/// The second hostile review of issue 47: a broken board's cut reply brought games 1..4 of
/// 5 (acks unanswered when the link dropped); its store then lost game 5; asked again it
/// resends 1..4. Game 5 never came: a loss, however many copies came.
#[test]
fn games_resent_cannot_stand_for_a_game_a_cut_reply_never_brought() {
    let f = frames();
    let mut talk = port_in_memory();
    talk.feed(&reply(&f, 6, 5, &[1, 2, 3, 4], false), 10)
        .unwrap();
    talk.reconnected(20);
    talk.feed(&reply(&f, 6, 4, &[1, 2, 3, 4], true), 30)
        .unwrap();
    answer_acks(&mut talk, &f, &[1, 2, 3, 4], 40);
    talk.finish().unwrap();
    let summary = talk.summary();
    assert!(
        !talk.verdict().is_ok(),
        "game 5 lost, pull ok: {summary:#?}"
    );
}

/// A hostile board: after the reconnection its whole reply of 5 is the same game five
/// times. Games 1..4 never came: a loss.
#[test]
fn copies_of_one_game_pay_a_cut_reply_one_game() {
    let f = frames();
    let mut talk = port_in_memory();
    talk.feed(&reply(&f, 6, 5, &[], false), 10).unwrap();
    talk.reconnected(20);
    talk.feed(&reply(&f, 6, 5, &[5; 5], true), 30).unwrap();
    answer_acks(&mut talk, &f, &[5; 5], 40);
    talk.finish().unwrap();
    let summary = talk.summary();
    assert!(
        !talk.verdict().is_ok(),
        "games 1..4 never came, pull ok: {summary:#?}"
    );
}

/// An honest board over a flaky cable: reply A (10 games) cut before any game; reply B to
/// the request made again brings 1..8, all acknowledged, then is cut; reply C to the third
/// request holds the 2 not acknowledged (9, 10). Every game arrived: the pull succeeds,
/// both cut replies noted.
#[test]
fn two_reconnections_of_an_honest_board_lose_nothing() {
    let f = frames();
    let mut talk = port_in_memory();
    talk.feed(&reply(&f, 11, 10, &[], false), 10).unwrap();
    talk.reconnected(20);
    talk.feed(&reply(&f, 11, 10, &[], false), 30).unwrap();
    for n in 1..=8 {
        game_acked(&mut talk, &f, n, 40);
    }
    assert_eq!(talk.acks().answered().items, (1..=8).collect::<Vec<_>>());
    talk.reconnected(50);
    let mut bytes = f.hello(11, 10, 2);
    bytes.extend(f.begin(2));
    talk.feed(&bytes, 60).unwrap();
    for n in 9..=10 {
        game_acked(&mut talk, &f, n, 70);
    }
    talk.feed(&f.done(2), 80).unwrap();
    talk.finish().unwrap();
    let summary = talk.summary();
    assert_eq!(summary.received, 10);
    assert!(talk.verdict().is_ok(), "honest pull failed: {summary:#?}");
}

/// The device's frames that carry no device id get the device last announced; each reply
/// event comes after the frame that made it.
#[test]
fn facts_name_their_device_and_come_before_their_reply() {
    use twenty48_devicelog::DeviceFact;
    let f = frames();
    let mut bytes = f.lost(3, 4, 2);
    bytes.extend(f.hello(2, 1, 1));
    bytes.extend(f.lost(3, 4, 2));
    bytes.extend(f.acked(1));
    bytes.extend(f.error(3, 1));
    bytes.extend(f.begin(1));
    bytes.extend(f.done(0));
    let mut talk = capture_in_memory();
    let progress = talk.feed(&bytes, 0).unwrap();
    let facts = &talk.facts().items;
    assert!(matches!(facts[0], DeviceFact::Lost { dev: None, .. }));
    assert!(matches!(facts[2], DeviceFact::Lost { dev: Some(DEV), .. }));
    assert!(matches!(facts[3], DeviceFact::Acked { dev: Some(DEV), .. }));
    assert!(matches!(facts[4], DeviceFact::Error { dev: Some(DEV), .. }));
    let kinds: Vec<&str> = progress
        .iter()
        .map(|p| match p {
            Progress::Device(DeviceFact::PullBegin { .. }) => "begin",
            Progress::Device(DeviceFact::PullDone { .. }) => "done",
            Progress::Reply(_) => "reply",
            _ => "-",
        })
        .filter(|k| *k != "-")
        .collect();
    assert_eq!(kinds, ["begin", "reply", "done", "reply"]);
}

fn capture_in_memory() -> Conversation {
    let folder = Box::new(twenty48_testkit::folder::Memory::new());
    Conversation::capture(&elf(), folder, false).unwrap()
}
