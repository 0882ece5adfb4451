//! `pull` against a hostile or broken device (issue 26), through the library: streams a
//! fake board sends (`twenty48_testkit::frames`: frames with valid checks, good and crafted)
//! and directories prepared against it. Each promise of docs/firmware.md's threat model
//! that the library keeps is a test here; the conversation's on a port (silence, acks,
//! reconnections) are in tests/conversation.rs, the binary's (Ctrl-C, the raw capture's
//! cap, the port going away) in crates/cli/tests/fakeboard.rs.
//! - nothing is written outside DIR, nothing is replaced, nothing is acknowledged that is
//!   not on disk, and of two copies of a game the longer verified one is kept;
//! - every report runs in time proportional to the frames received, and a frame longer
//!   than the protocol's largest is damage, not a buffer to grow.

#[allow(dead_code)]
mod v2 {
    pub mod pulls;
    pub mod scratch;
}

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use twenty48_devicelog::pull::{Conversation, Outcome, Progress, Pulled, Summary};
use twenty48_devicelog::{CaptureDecoder, DamageKind, Event, MAX_OPEN_GAMES};
use twenty48_deviceproto::QEMU_DEVICE_ID;
use twenty48_engine::Rules;
use twenty48_movelog::MoveLog;
use twenty48_testkit::frames::{cycle, Frames};
use v2::pulls::PullOptions;
use v2::scratch::Scratch;

const DEV: u64 = QEMU_DEVICE_ID;

const LIVE: PullOptions = PullOptions {
    keep_partial: false,
    defer: false,
};

const DEFER: PullOptions = PullOptions {
    keep_partial: false,
    defer: true,
};

fn elf() -> Vec<u8> {
    elf_of(2)
}

/// The committed QEMU firmware ELF of protocol `version` (2 or 3).
fn elf_of(version: u8) -> Vec<u8> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/data/v{version}"));
    std::fs::read(dir.join("twenty48-qemu.elf")).expect("the firmware ELF")
}

fn frames() -> Frames {
    Frames::new(&elf(), DEV)
}

/// Runs `f` on a thread of its own and waits at most 120 s: a report that would walk four
/// billion game numbers fails here instead of hanging the test run.
fn within_limit<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(120))
        .unwrap_or_else(|_| panic!("{what} did not end within 120 s"))
}

/// A pull of `bytes` into `dir`: every game closed, with what became of it.
fn pull(bytes: &[u8], dir: &Path, options: PullOptions) -> (Conversation, Vec<Pulled>) {
    pull_with(&elf(), bytes, dir, options)
}

/// [`pull`] decoding with the firmware `elf`.
fn pull_with(
    elf: &[u8],
    bytes: &[u8],
    dir: &Path,
    options: PullOptions,
) -> (Conversation, Vec<Pulled>) {
    let mut puller = v2::pulls::open(elf, dir, options);
    let mut pulled = Vec::new();
    let mut progress = Vec::new();
    for chunk in bytes.chunks(64) {
        progress.extend(puller.feed(chunk, 0).unwrap());
    }
    progress.extend(puller.finish().unwrap());
    for p in progress {
        if let Progress::Pulled(p) = p {
            if p.outcome != Outcome::Deferred {
                pulled.push(*p);
            }
        }
    }
    (puller, pulled)
}

/// Every `.t48` file in `dir`, decoded.
fn logs_in(dir: &Path) -> Vec<(PathBuf, MoveLog)> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries {
        let path = e.unwrap().path();
        if path.extension().is_some_and(|x| x == "t48") {
            let log = MoveLog::decode(&std::fs::read(&path).unwrap()).unwrap();
            out.push((path, log));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Every ack names the closing frame of a copy whose every move is in a file on disk: the
/// copy itself, or a longer verified copy it is a prefix of (same rules and seed).
fn assert_acks_only_what_is_on_disk(pulled: &[Pulled], dir: &Path) {
    let logs = logs_in(dir);
    for p in pulled {
        let Some(twenty48_deviceproto::Ack { game, check: c }) = p.ack else {
            continue;
        };
        assert_eq!(game, p.game.number);
        assert_eq!(Some(c), p.game.end.and_then(|e| e.check), "{p:?}");
        let moves: Vec<_> = p.game.verified_moves().collect();
        let kept = logs.iter().any(|(_, log)| {
            log.rules == p.game.rules
                && log.seed == p.game.seed
                && log.moves.len() >= moves.len()
                && log.moves[..moves.len()] == moves[..]
                && (p.game.is_partial() || (log.complete && log.moves.len() == moves.len()))
        });
        assert!(
            kept,
            "game {game} acknowledged ({c}) but no file holds it: {p:?}"
        );
    }
}

/// Issue 26: the temp file `.NAME.tmp-PID` was opened with `File::create`, which follows a
/// symbolic link planted at that predictable name and truncates its target outside DIR.
#[cfg(unix)]
#[test]
fn a_planted_link_at_the_temp_name_never_makes_pull_write_outside_dir() {
    let f = frames();
    let (game, _) = f.game(1, &Rules::CLASSIC, 7, &cycle(30), false);
    let root = Scratch::new("planted");
    let dir = root.0.join("games");
    std::fs::create_dir_all(&dir).unwrap();
    let victim = root.0.join("victim");
    std::fs::write(&victim, b"not yours").unwrap();
    let name = format!("{DEV:016x}-g000001.t48");
    let pid = std::process::id();
    // The old name, and the first hundred of the writer's numbered temp names.
    let mut planted = vec![format!(".{name}.tmp-{pid}")];
    planted.extend((0..100).map(|n| format!(".{name}.tmp-{pid}-{n}")));
    for p in &planted {
        std::os::unix::fs::symlink(&victim, dir.join(p)).unwrap();
    }
    let (puller, pulled) = pull(&game, &dir, LIVE);
    assert_eq!(std::fs::read(&victim).unwrap(), b"not yours");
    assert_eq!(pulled[0].outcome, Outcome::Written, "{pulled:?}");
    assert!(puller.summary().is_ok());
    for p in &planted {
        assert!(std::fs::symlink_metadata(dir.join(p)).unwrap().is_symlink());
    }
    assert_acks_only_what_is_on_disk(&pulled, &dir);
}

/// Issue 26: protocol v1 pulls renamed over whatever had the name (two QEMU sessions into
/// one DIR: names from the capture position and the seed collide). Now the file there is
/// left as it is and the game goes to a free name, with a note.
#[test]
fn a_v1_pull_never_replaces_a_file_and_takes_a_free_name() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/v1");
    let v1_elf = std::fs::read(data.join("twenty48-qemu.elf")).unwrap();
    let capture = std::fs::read(data.join("capture.bin")).unwrap();
    let dir = Scratch::new("v1-collide");
    std::fs::create_dir_all(&dir.0).unwrap();
    let mut puller = v2::pulls::open(&v1_elf, &dir.0, DEFER);
    puller.feed(&capture, 0).unwrap();
    let first = puller.finish().unwrap();
    let taken: Vec<PathBuf> = first
        .iter()
        .filter_map(|p| match p {
            Progress::Pulled(p) => p.file.as_ref().map(|f| dir.0.join(f)),
            _ => None,
        })
        .collect();
    assert_eq!(taken.len(), 5);
    // Another session's games under the same names.
    for path in &taken {
        std::fs::write(path, b"another session's game").unwrap();
    }
    let mut puller = v2::pulls::open(&v1_elf, &dir.0, DEFER);
    puller.feed(&capture, 0).unwrap();
    let second = puller.finish().unwrap();
    for path in &taken {
        assert_eq!(std::fs::read(path).unwrap(), b"another session's game");
    }
    let written: Vec<&Pulled> = second
        .iter()
        .filter_map(|p| match p {
            Progress::Pulled(p) if p.outcome == Outcome::Written => Some(&**p),
            _ => None,
        })
        .collect();
    assert_eq!(written.len(), 5);
    for p in written {
        let path = &dir.0.join(p.file.as_ref().unwrap());
        assert!(!taken.contains(path), "{}", path.display());
        MoveLog::decode(&std::fs::read(path).unwrap()).unwrap();
    }
    let summary = puller.summary();
    assert!(summary.is_ok(), "{summary:?}");
    assert_eq!(
        summary
            .notes
            .iter()
            .filter(|n| n.contains("already there with other contents"))
            .count(),
        5,
        "{:?}",
        summary.notes
    );
}

/// Two partial copies of one stored game in a reply (10 moves, then 50, the first a prefix
/// of the second).
fn two_partial_copies(f: &Frames, longer_first: bool) -> (Vec<u8>, u32, u32) {
    let moves = cycle(80);
    let (short, c10) = f.game(5, &Rules::CLASSIC, 99, &moves[..10], true);
    let (long, c50) = f.game(5, &Rules::CLASSIC, 99, &moves[..50], true);
    let mut bytes = f.hello(6, 1, 1);
    bytes.extend(f.begin(2));
    if longer_first {
        bytes.extend(&long);
        bytes.extend(&short);
    } else {
        bytes.extend(&short);
        bytes.extend(&long);
    }
    bytes.extend(f.done(2));
    (bytes, c10, c50)
}

/// The one partial file of game 5 in `dir` with the most moves.
fn longest_kept(dir: &Path) -> usize {
    logs_in(dir)
        .iter()
        .filter(|(p, _)| p.to_string_lossy().contains("-g000005"))
        .map(|(_, l)| l.moves.len())
        .max()
        .unwrap_or(0)
}

/// Issue 26: of two verified copies of one game the longer verified prefix wins, whatever
/// the order; the ack names a copy that is on disk (the 50-move copy's check was sent
/// while only the 10-move copy was written, so the board could reclaim 40 verified moves
/// nobody kept).
#[test]
fn the_longer_copy_of_a_partial_game_is_kept_and_no_ack_names_a_copy_not_kept() {
    let f = frames();
    for longer_first in [false, true] {
        let (bytes, _, c50) = two_partial_copies(&f, longer_first);
        let dir = Scratch::new("two-partials-live");
        let (puller, pulled) = pull(&bytes, &dir.0, LIVE);
        assert_eq!(
            longest_kept(&dir.0),
            50,
            "live, longer first {longer_first}"
        );
        assert_acks_only_what_is_on_disk(&pulled, &dir.0);
        assert!(
            pulled
                .iter()
                .any(|p| p.ack.map(|a| (a.game, a.check)) == Some((5, c50))),
            "{pulled:?}"
        );
        assert!(puller.summary().is_ok(), "{:?}", puller.summary());

        let dir = Scratch::new("two-partials-capture");
        let (puller, pulled) = pull(&bytes, &dir.0, DEFER);
        assert_eq!(
            longest_kept(&dir.0),
            50,
            "capture, longer first {longer_first}"
        );
        assert_eq!(logs_in(&dir.0).len(), 1, "one file: the longer copy");
        assert_acks_only_what_is_on_disk(&pulled, &dir.0);
        assert!(puller.summary().is_ok(), "{:?}", puller.summary());
    }
}

/// Two verified copies of which neither is a prefix of the other are a conflict: neither
/// is acknowledged after the conflict is seen, and a capture writes neither.
#[test]
fn two_copies_that_part_are_a_conflict_and_the_second_is_never_acknowledged() {
    let f = frames();
    let moves = cycle(40);
    let (a, _) = f.game(3, &Rules::CLASSIC, 5, &moves[..20], true);
    let mut other = moves[..12].to_vec();
    other.extend(cycle(30).into_iter().rev());
    let (b, cb) = f.game(3, &Rules::CLASSIC, 5, &other, true);
    let mut bytes = a.clone();
    bytes.extend(&b);
    let dir = Scratch::new("parting-live");
    let (puller, pulled) = pull(&bytes, &dir.0, LIVE);
    assert!(
        pulled
            .iter()
            .all(|p| p.ack.map(|a| (a.game, a.check)) != Some((3, cb))),
        "{pulled:?}"
    );
    assert_acks_only_what_is_on_disk(&pulled, &dir.0);
    assert_eq!(puller.summary().conflicts.len(), 1);
    let dir = Scratch::new("parting-capture");
    let (puller, _) = pull(&bytes, &dir.0, DEFER);
    assert!(logs_in(&dir.0).is_empty());
    assert_eq!(puller.summary().conflicts.len(), 1);
}

/// Issue 34: growing interrupted copies of one game on a port (each a longer prefix) were
/// written one file each: 256 copies, 256 files, every one acknowledged. One game is one
/// file now, the longest verified prefix (replaced in place as a longer copy comes, then by
/// the whole game under its own name); every ack still names moves on disk. A prefix an
/// earlier pull wrote is left as it is.
#[test]
fn growing_copies_of_a_game_on_a_port_make_one_file() {
    let f = frames();
    let moves = cycle(400);
    let mut bytes = Vec::new();
    for n in 1..=256 {
        bytes.extend(f.game(7, &Rules::CLASSIC, 11, &moves[..n], true).0);
    }
    let dir = Scratch::new("growing");
    let (puller, pulled) = pull(&bytes, &dir.0, LIVE);
    let logs = logs_in(&dir.0);
    assert_eq!(
        logs.len(),
        1,
        "{:?}",
        logs.iter().map(|l| &l.0).collect::<Vec<_>>()
    );
    let (path, longest) = &logs[0];
    assert!(
        path.ends_with("7e57000000000001-g000007.partial.t48"),
        "{path:?}"
    );
    assert!(!longest.complete);
    let most = pulled.iter().map(|p| p.game.verified_moves().count()).max();
    assert_eq!(Some(longest.moves.len()), most);
    assert_eq!(pulled.iter().filter(|p| p.ack.is_some()).count(), 256);
    assert_acks_only_what_is_on_disk(&pulled, &dir.0);
    assert!(puller.summary().is_ok(), "{:?}", puller.summary());
    assert!(puller
        .summary()
        .notes
        .iter()
        .all(|n| !n.contains("already there")));

    // Then the whole game: its own file, and the prefix goes.
    let mut whole = bytes.clone();
    whole.extend(f.game(7, &Rules::CLASSIC, 11, &moves, false).0);
    let dir = Scratch::new("growing-whole");
    let (_, pulled) = pull(&whole, &dir.0, LIVE);
    let logs = logs_in(&dir.0);
    assert_eq!(logs.len(), 1);
    assert!(logs[0].0.ends_with("7e57000000000001-g000007.t48"));
    assert!(logs[0].1.complete);
    assert_acks_only_what_is_on_disk(&pulled, &dir.0);

    // A prefix an earlier pull wrote stays; the longer copy goes to the next free name.
    let dir = Scratch::new("growing-earlier");
    pull(
        &f.game(7, &Rules::CLASSIC, 11, &moves[..5], true).0,
        &dir.0,
        LIVE,
    );
    let before = logs_in(&dir.0);
    pull(
        &f.game(7, &Rules::CLASSIC, 11, &moves[..30], true).0,
        &dir.0,
        LIVE,
    );
    let after = logs_in(&dir.0);
    assert_eq!(after.len(), 2);
    assert!(
        after.contains(&before[0]),
        "the earlier pull's file is unchanged"
    );
    assert!(after.iter().any(|(p, log)| {
        p.ends_with("7e57000000000001-g000007.partial-2.t48") && log.moves.len() == 30
    }));
}

/// Issue 34: the note that a name "was already there with other contents" named a file
/// this same pull wrote moments before. Two damaged copies of one game (--keep-partial):
/// the second goes to the next free name, and the note says the first is this pull's.
#[test]
fn a_name_taken_by_this_pulls_own_copy_is_said_to_be_so() {
    use twenty48_engine::{Direction, Game};
    let f = frames();
    let damaged = |good: usize| {
        let (mut bytes, start) = f.start(9, &Rules::CLASSIC, 3);
        let mut game = Game::new(Rules::CLASSIC, 3).unwrap();
        for dir in cycle(40) {
            if game.move_count() as usize == good {
                break;
            }
            if game.play(dir).is_ok_and(|o| o.moved) {
                let (n, score, hash) = (game.move_count(), game.score(), game.state_hash());
                bytes.extend(f.moved(9, n, dir.code(), score, hash));
            }
        }
        // A move whose score and hash are wrong: the copy is damaged from here.
        let n = game.move_count() + 1;
        bytes.extend(f.moved(9, n, Direction::Left.code(), 1, 1));
        bytes.extend(f.end(9, 2, 1, n, 1, start).0);
        bytes
    };
    let mut bytes = damaged(3);
    bytes.extend(damaged(5));
    let dir = Scratch::new("own-name");
    let options = PullOptions {
        keep_partial: true,
        defer: false,
    };
    let (puller, _) = pull(&bytes, &dir.0, options);
    let notes = puller.summary().notes;
    assert!(
        notes
            .iter()
            .any(|n| n.contains("damaged.t48 holds another copy of this game that this pull wrote")),
        "{notes:?}"
    );
    assert!(
        notes.iter().all(|n| !n.contains("already there")),
        "{notes:?}"
    );
    assert_eq!(logs_in(&dir.0).len(), 2);
}

/// Issue 34: frames of a game that came after it arrived whole were only damage, with a
/// note that "its game arrived whole", and never compared with the copy kept. Now one that
/// contradicts the kept copy (moves after its end, other moves at its places, another end)
/// makes the game a conflict, and no later copy of it is acknowledged; one that repeats
/// what the copy holds is still only noted. From a capture (a deferred pull, whose copies
/// are not kept yet when the frame comes) the same: a conflict, and no copy written.
#[test]
fn frames_after_a_whole_game_that_contradict_it_are_a_conflict() {
    let elf = elf_of(3);
    let f = Frames::new(&elf, DEV);
    let moves = cycle(700);
    let whole = f.stored(6, (&Rules::CLASSIC, 11), &moves);
    let kept = {
        let dir = Scratch::new("stray-whole");
        pull_with(&elf, &whole, &dir.0, LIVE);
        logs_in(&dir.0).remove(0).1
    };
    let len = kept.moves.len() as u32;
    // A moves frame of the game's first moves (all of them, 256 at most).
    let n = kept.moves.len().min(256);
    let packed = |dirs: &[twenty48_engine::Direction]| {
        let mut out = vec![0u8; dirs.len().div_ceil(4)];
        for (j, d) in dirs.iter().enumerate() {
            out[j / 4] |= d.code() << (2 * (j % 4));
        }
        out
    };
    let mut other = kept.moves[..n].to_vec();
    other[40] = if other[40] == twenty48_engine::Direction::Up {
        twenty48_engine::Direction::Down
    } else {
        twenty48_engine::Direction::Up
    };
    let after_end: Vec<u8> = (1..=3).flat_map(|i| f.moved(6, len + i, 0, 0, 0)).collect();
    let cases: [(&str, Vec<u8>, Option<&str>); 4] = [
        ("after-end", after_end, Some("came after the game ended")),
        (
            "other-moves",
            f.moves(6, 0, n as u16, &packed(&other)),
            Some("differs from the copy kept at move 41"),
        ),
        (
            "second-end",
            f.end(6, 2, kept.claims.score + 4, len, kept.claims.final_hash, 0)
                .0,
            Some("another end frame came"),
        ),
        (
            "repeat",
            f.moves(6, 0, n as u16, &packed(&kept.moves[..n])),
            None,
        ),
    ];
    for (name, stray, conflict) in cases {
        let mut bytes = whole.clone();
        bytes.extend(&stray);
        // The same whole game once more: acknowledged only while it is not in conflict.
        bytes.extend(&whole);
        for (mode, options) in [("port", LIVE), ("capture", DEFER)] {
            let dir = Scratch::new(&format!("stray-{name}-{mode}"));
            let (puller, pulled) = pull_with(&elf, &bytes, &dir.0, options);
            let summary = puller.summary();
            let acks = pulled.iter().filter(|p| p.ack.is_some()).count();
            let files = logs_in(&dir.0).len();
            match conflict {
                Some(why) => {
                    assert_eq!(summary.conflicts.len(), 1, "{name} {mode}: {summary:?}");
                    let reason = &summary.conflicts[0].2;
                    assert!(reason.contains(why), "{name} {mode}: {summary:?}");
                    assert!(!summary.is_ok(), "{name} {mode}");
                    assert_eq!(summary.received, 0, "{name} {mode}: {summary:?}");
                    if options.defer {
                        // Decided with every frame in view: neither copy is written.
                        assert!(
                            reason.contains("no copy of the game is written"),
                            "{reason}"
                        );
                        assert_eq!((acks, files), (0, 0), "{name} {mode}: {pulled:?}");
                    } else {
                        // The first copy was written (and acknowledged) before the frame.
                        assert_eq!((acks, files), (1, 1), "{name} {mode}: {pulled:?}");
                    }
                }
                None => {
                    assert!(summary.conflicts.is_empty(), "{name} {mode}: {summary:?}");
                    assert!(summary.is_ok(), "{name} {mode}: {summary:?}");
                    assert_eq!((acks, files), (2, 1), "{name} {mode}");
                }
            }
        }
    }
}

/// Issue 26: the gap report walked every number between the lowest and the highest seen,
/// with two `exists()` calls each: one hello with `next=4294967295`, or one lost frame
/// naming game 4294967295, kept it busy for about 19 hours. Now it runs in time
/// proportional to the frames, and the missing numbers are one range.
#[test]
fn the_gap_report_runs_in_time_proportional_to_the_frames_not_the_numbers() {
    let f = frames();
    let (game, _) = f.game(1, &Rules::CLASSIC, 3, &cycle(12), false);
    for (what, tail) in [
        ("hello next=4294967295", f.hello(u32::MAX, 1, 1)),
        ("lost frame of game 4294967295", f.lost(u32::MAX, 3, 1)),
    ] {
        let mut bytes = f.hello(2, 1, 1);
        bytes.extend(&game);
        bytes.extend(tail);
        let dir = Scratch::new("huge-numbers");
        let (puller, _) = pull(&bytes, &dir.0, DEFER);
        let summary: Summary = within_limit(what, move || puller.summary());
        let gaps: Vec<(u32, u32)> = summary.gaps.iter().map(|g| (g.first, g.last)).collect();
        assert_eq!(gaps.len(), 1, "{what}: {gaps:?}");
        assert_eq!(gaps[0].0, 2, "{what}: {gaps:?}");
        // Up to the number before the one announced as in progress, or the one lost.
        assert!(gaps[0].1 >= u32::MAX - 2, "{what}: {gaps:?}");
    }
}

/// Issue 26: a stream with no separator grew the frame buffer without end (about 25 MB/s
/// of 0xFF). A frame longer than the protocol's largest is damage as soon as it is.
#[test]
fn a_frame_longer_than_the_largest_is_damage_at_once_not_a_buffer() {
    let dir = Scratch::new("endless");
    let mut puller = v2::pulls::open(&elf(), &dir.0, LIVE);
    let mut damage = Vec::new();
    for _ in 0..64 {
        for p in puller.feed(&[0xff; 16 * 1024], 0).unwrap() {
            if let Progress::Damaged(d) = p {
                damage.push(d);
            }
        }
    }
    assert!(!damage.is_empty(), "1 MiB without a separator is damage");
    for d in &damage {
        assert!(matches!(d.kind, DamageKind::Oversized), "{d:?}");
        assert!(d.len <= twenty48_devicelog::MAX_FRAME_BYTES + 16 * 1024);
    }
    // The frames after it are read as ever.
    let f = frames();
    let (game, _) = f.game(1, &Rules::CLASSIC, 3, &cycle(12), false);
    let mut bytes = vec![0];
    bytes.extend(&game);
    let progress = puller.feed(&bytes, 0).unwrap();
    assert!(progress
        .iter()
        .any(|p| matches!(p, Progress::Pulled(p) if p.outcome == Outcome::Written)));
}

/// A device that restarts (its hello) in the middle of a pull reply has ended that reply:
/// the reply is reported cut off after the games that came, and a live game played after
/// the restart and still open when a port pull ends is in progress, not a failure of the
/// dead reply.
#[test]
fn a_restart_inside_a_pull_reply_ends_the_reply() {
    let f = frames();
    let (stored, _) = f.game(1, &Rules::CLASSIC, 5, &cycle(10), false);
    let (live, _) = f.game(4, &Rules::CLASSIC, 6, &cycle(10), false);
    // The live game without its end frame: up to its second-to-last separator.
    let cut = live.iter().rposition(|&b| b == 0).unwrap();
    let cut = live[..cut].iter().rposition(|&b| b == 0).unwrap() + 1;
    let mut bytes = f.hello(3, 2, 2);
    bytes.extend(f.begin(2));
    bytes.extend(&stored);
    bytes.extend(f.hello(4, 2, 1));
    bytes.extend(&live[..cut]);
    let dir = Scratch::new("restart-in-reply");
    let (puller, pulled) = pull(&bytes, &dir.0, LIVE);
    let outcomes: Vec<_> = pulled
        .iter()
        .map(|p| (p.game.number, p.outcome.clone()))
        .collect();
    assert_eq!(
        outcomes,
        [(1, Outcome::Written), (4, Outcome::InProgress)],
        "{pulled:#?}"
    );
    let summary = puller.summary();
    assert_eq!(
        summary.lost,
        ["a pull reply announced 2 games and was cut off after 1"],
        "{summary:#?}"
    );
}

/// A capture that began after a reply's pull begin: its pull done said 4 games were sent,
/// 2 arrived, and nothing was reported lost (a lone crafted `pull done sent=4294967295`
/// neither). Now a reply whose begin the pull never saw must hold what the device says it
/// sent: from a capture a shortfall is lost; on a port (a reply to an earlier request,
/// whose games not acknowledged come again) a note; a reply that holds them all is fine.
#[test]
fn a_reply_whose_begin_is_missing_must_hold_what_the_device_says_it_sent() {
    let f = frames();
    let (g4, _) = f.game(4, &Rules::CLASSIC, 4, &cycle(10), false);
    let (g5, _) = f.game(5, &Rules::CLASSIC, 5, &cycle(10), false);
    let two = [g4, g5].concat();
    let cases: [(&str, Vec<u8>, Option<&str>); 4] = [
        (
            "short",
            [two.clone(), f.done(4)].concat(),
            Some("the device says it sent 4 games, 2 arrived"),
        ),
        (
            "lone-done",
            f.done(u32::MAX),
            Some("the device says it sent 4294967295 games, 0 arrived"),
        ),
        // The games before a hello are not the reply's (the device restarted since).
        (
            "after-hello",
            [two.clone(), f.hello(6, 2, 2), f.done(2)].concat(),
            Some("the device says it sent 2 games, 0 arrived"),
        ),
        ("whole", [two.clone(), f.done(2)].concat(), None),
    ];
    for (name, bytes, lost) in cases {
        // From a capture (a pull that asked no one: issue 47 left no other kind that
        // does not ask).
        {
            let dir = Scratch::new(&format!("headless-{name}-capture"));
            let (puller, _) = pull(&bytes, &dir.0, DEFER);
            let summary = puller.summary();
            match lost {
                Some(why) => {
                    assert_eq!(summary.lost.len(), 1, "{name}: {summary:#?}");
                    assert!(summary.lost[0].contains(why), "{name}: {summary:#?}");
                    assert!(!summary.is_ok(), "{name}");
                }
                None => assert!(summary.is_ok(), "{name}: {summary:#?}"),
            }
        }
        // On a port the same bytes end a reply to an earlier request: a note.
        let dir = Scratch::new(&format!("headless-{name}-port"));
        let mut talk = v2::pulls::open(&elf(), &dir.0, LIVE);
        talk.feed(&bytes, 0).unwrap();
        talk.finish().unwrap();
        let summary = talk.summary();
        assert!(summary.is_ok(), "{name}: {summary:#?}");
        if let Some(why) = lost {
            assert!(
                summary
                    .notes
                    .iter()
                    .any(|n| n.contains(why) && n.contains("an earlier request")),
                "{name}: {summary:#?}"
            );
        }
    }
}

/// The numbers of the games `events` closed, and whether each had its end frame.
fn closed(events: &[Event]) -> Vec<(u32, bool)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::GameClosed(g) => Some((g.number, g.end.is_some())),
            _ => None,
        })
        .collect()
}

/// Issue 26: every start stayed open until its end frame or the end of the capture, so a
/// million starts without ends were a million open games. A device plays one live game at a
/// time and a pull reply sends its games one after another: a start closes the game of its
/// kind still open on its device (reported truncated), and never the other kind (the live
/// game goes on after the reply).
#[test]
fn a_start_closes_the_game_of_its_kind_on_its_device_and_no_other() {
    let f = frames();
    let moves = cycle(30);
    let (live, _) = f.game(7, &Rules::CLASSIC, 4, &moves[..20], false);
    // The live game's start and first 10 moves (its frames up to the 11th separator).
    let cut = live
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == 0)
        .nth(10)
        .unwrap()
        .0
        + 1;
    let mut decoder = CaptureDecoder::new(&elf()).unwrap();
    assert_eq!(closed(&decoder.feed(&live[..cut])), []);
    // A pull reply: stored game 3 loses its end frame, stored game 4 closes it.
    let mut reply = f.begin(2);
    reply.extend(f.start(3, &Rules::CLASSIC, 1).0);
    assert_eq!(closed(&decoder.feed(&reply)), []);
    let (four, _) = f.game(4, &Rules::CLASSIC, 2, &moves[..5], false);
    assert_eq!(closed(&decoder.feed(&four)), [(3, false), (4, true)]);
    assert_eq!(closed(&decoder.feed(&f.done(2))), []);
    assert_eq!(decoder.open_games(), 1, "the live game is still open");
    // The live game goes on after the reply, and verifies.
    let rest = decoder.feed(&live[cut..]);
    match &rest[..] {
        [.., Event::GameClosed(g)] => {
            assert_eq!(g.number, 7);
            assert!(twenty48_devicelog::check(g).is_verified(), "{g:?}");
        }
        other => panic!("{other:?}"),
    }
    // A live start closes the live game still open (its end frame lost).
    assert_eq!(closed(&decoder.feed(&f.start(8, &Rules::CLASSIC, 5).0)), []);
    assert_eq!(
        closed(&decoder.feed(&f.start(9, &Rules::CLASSIC, 6).0)),
        [(8, false)]
    );
    assert_eq!(decoder.open_games(), 1);
}

/// Starts on ever more devices (each its own live game) keep at most MAX_OPEN_GAMES open:
/// the oldest is closed first.
#[test]
fn no_more_than_sixteen_games_are_open_at_once() {
    let mut f = frames();
    let mut decoder = CaptureDecoder::new(&elf()).unwrap();
    let mut closed_games = Vec::new();
    for dev in 1..=40u64 {
        f.dev = dev;
        let mut bytes = f.hello(1, 0, 0);
        bytes.extend(f.start(1, &Rules::CLASSIC, dev).0);
        for e in decoder.feed(&bytes) {
            if let Event::GameClosed(g) = e {
                closed_games.push(g.dev.unwrap());
            }
        }
        assert!(decoder.open_games() <= MAX_OPEN_GAMES);
    }
    assert_eq!(decoder.open_games(), MAX_OPEN_GAMES);
    assert_eq!(
        closed_games,
        (1..=40 - MAX_OPEN_GAMES as u64).collect::<Vec<_>>()
    );
}

/// A `t48 moves` frame (protocol v3) whose moves come after move 4,294,967,294 of its game:
/// numbering them overflowed (a panic where overflow is checked: tests, fuzzing). The
/// frame's moves are out of sequence, so the game is damaged, never verified.
#[test]
fn stored_moves_numbered_past_the_last_move_number_are_damage_not_a_panic() {
    let v3_elf = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/v3/twenty48-qemu.elf");
    let v3_elf = std::fs::read(v3_elf).unwrap();
    let f = Frames::new(&v3_elf, DEV);
    for first in [u32::MAX - 2, u32::MAX - 1, u32::MAX] {
        let mut decoder = CaptureDecoder::new(&v3_elf).unwrap();
        let (mut bytes, _) = f.start(1, &Rules::CLASSIC, 1);
        bytes.extend(f.moves(1, first, 8, &[0b1110_0100, 0b0001_1011]));
        let events = decoder.feed(&bytes);
        assert!(
            events
                .iter()
                .any(|e| matches!(e, Event::StoredMoves { game: 1, .. })),
            "first={first}: {events:?}"
        );
        let game = match &decoder.finish()[..] {
            [.., Event::GameClosed(g)] => g.clone(),
            other => panic!("first={first}: {other:?}"),
        };
        assert!(
            !twenty48_devicelog::check(&game).is_verified(),
            "first={first}"
        );
    }
}

/// The worst streams tried (`just pull-stress` writes them, then times `twenty48 pull` on
/// each): a million frames each of game starts without ends, of conflicting copies (two
/// copies of each game with other seeds), and of huge game numbers (hellos and lost frames
/// naming numbers near 4,294,967,295 between games started and never ended); and (protocol
/// v3, `stored-moves.bin`) a stored game whose `t48 moves` frames never end, 250,000 of
/// them (64,000,000 moves, of which the host confirms the first few). Written into
/// `T48_STRESS_DIR`.
#[test]
#[ignore]
fn write_stress_captures() {
    let dir = PathBuf::from(std::env::var_os("T48_STRESS_DIR").expect("T48_STRESS_DIR"));
    std::fs::create_dir_all(&dir).unwrap();
    let f = frames();
    const FRAMES: u32 = 1_000_000;
    let mut starts = f.hello(FRAMES + 1, 0, 0);
    for n in 1..FRAMES {
        starts.extend(f.start(n, &Rules::CLASSIC, u64::from(n)).0);
    }
    std::fs::write(dir.join("starts.bin"), starts).unwrap();
    let mut conflicts = Vec::new();
    for n in 1..=FRAMES / 4 {
        for seed in [1, 2] {
            conflicts.extend(f.game(n, &Rules::CLASSIC, seed, &[], false).0);
        }
    }
    std::fs::write(dir.join("conflicts.bin"), conflicts).unwrap();
    let mut huge = Vec::new();
    for i in 0..FRAMES / 4 {
        let n = u32::MAX - 4 * i;
        huge.extend(f.hello(n, 1, 1));
        huge.extend(f.lost(n - 1, 3, 1));
        huge.extend(f.start(n - 2, &Rules::CLASSIC, 1).0);
        huge.extend(f.lost(i + 1, 0, 1));
    }
    std::fs::write(dir.join("huge-numbers.bin"), huge).unwrap();
    let v3_elf = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/v3/twenty48-qemu.elf");
    let v3 = Frames::new(&std::fs::read(v3_elf).unwrap(), DEV);
    let mut stored = v3.hello(2, 1, 1);
    stored.extend(v3.begin(1));
    stored.extend(v3.start(1, &Rules::CLASSIC, 1).0);
    let mut x = 1u32;
    for i in 0..FRAMES / 4 {
        let dirs: Vec<u8> = (0..64)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                x as u8
            })
            .collect();
        stored.extend(v3.moves(1, 256 * i, 256, &dirs));
    }
    std::fs::write(dir.join("stored-moves.bin"), stored).unwrap();
}
