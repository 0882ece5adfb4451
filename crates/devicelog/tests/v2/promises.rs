// The tests of the committed protocol fixtures, included by tests/v2.rs and tests/v3.rs
// (each sets `VERSION`, the fixture it reads: tests/data/vVERSION).

use std::fmt::Write as _;
use std::path::Path;

use v2::pulls::PullOptions;
use twenty48_devicelog::pull::{Gap, Outcome, Progress, Pulled, Conversation, Summary};
use twenty48_devicelog::{check, decode_capture, Capture, DamageKind, DeviceFact, Problem};
use twenty48_deviceproto::QEMU_DEVICE_ID;
use twenty48_engine::Status;
use twenty48_movelog::MoveLog;

use v2::edit::{self, Kind};
use v2::plan::Planned;
use v2::scratch::Scratch;
use v2::session::{capture, ended_game, firmware_elf, games, stall_games};

const DEV: u64 = QEMU_DEVICE_ID;

const LIVE: PullOptions = PullOptions {
    keep_partial: false,
    defer: false,
};

const DEFER: PullOptions = PullOptions {
    keep_partial: false,
    defer: true,
};

/// A pull of `bytes` into `dir`, fed in pieces of 7 bytes as from a serial port; every
/// game closed, with what became of it (from the progress).
fn pull(bytes: &[u8], dir: &Path, options: PullOptions) -> (Conversation, Vec<Pulled>) {
    let mut puller = v2::pulls::open(firmware_elf(), dir, options);
    let mut progress = Vec::new();
    for chunk in bytes.chunks(7) {
        progress.extend(puller.feed(chunk, 0).unwrap());
    }
    assert_eq!(puller.bytes_fed(), bytes.len());
    progress.extend(puller.finish().unwrap());
    let pulled: Vec<Pulled> = progress
        .into_iter()
        .filter_map(|p| match p {
            Progress::Pulled(mut p) if p.outcome != Outcome::Deferred => {
                // The file as a path, for the checks on disk.
                p.file = p.file.map(|f| dir.join(f).to_string_lossy().into_owned());
                Some(*p)
            }
            _ => None,
        })
        .collect();
    (puller, pulled)
}

fn gap(first: u32, last: u32) -> Gap {
    Gap {
        dev: DEV,
        first,
        last,
    }
}

fn name(number: u32, complete: bool) -> String {
    twenty48_devicelog::pull::file_name_v2(DEV, number, complete)
}

/// The log in `dir` of game `number`, which must be the game played (a prefix of it for a
/// partial log), with the host's claims.
fn assert_on_disk(dir: &Path, number: u32, complete: bool, plan: &Planned) {
    let path = dir.join(name(number, complete));
    let log = MoveLog::decode(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(log.complete, complete, "{}", path.display());
    assert_eq!(
        (log.rules, log.seed),
        (plan.rules, plan.seed),
        "game {number}"
    );
    if complete {
        assert_eq!(log.moves, plan.moves, "game {number}");
        assert_eq!(log.claims.final_hash, plan.game.state_hash());
        assert_eq!(log.claims.score, plan.game.score());
        assert_eq!(log.claims.status, plan.game.status());
    } else {
        assert_eq!(
            log.moves[..],
            plan.moves[..log.moves.len()],
            "game {number}"
        );
    }
}

/// Game `number`'s outcomes, in the order its copies closed.
fn outcomes(pulled: &[Pulled], number: u32) -> Vec<Outcome> {
    pulled
        .iter()
        .filter(|p| p.game.number == number)
        .map(|p| p.outcome.clone())
        .collect()
}

/// Every ack is of a copy now on disk, and names that copy's end frame check.
fn assert_acks_only_what_is_on_disk(pulled: &[Pulled]) {
    for p in pulled {
        let on_disk = p.is_received() && p.file.as_ref().is_some_and(|f| Path::new(f).exists());
        match p.ack {
            Some(twenty48_deviceproto::Ack { game, check: c }) => {
                assert!(on_disk, "game {game} acknowledged but not on disk: {p:?}");
                assert_eq!(game, p.game.number);
                assert_eq!(Some(c), p.game.end.and_then(|e| e.check));
            }
            None => assert!(
                !on_disk || p.game.end.is_none(),
                "game {} on disk but not acknowledged ({:?})",
                p.game.number,
                p.outcome
            ),
        }
    }
}

/// A text rendering of a decoded capture, for snapshots: no byte offsets.
fn render(capture: &Capture) -> String {
    let mut out = String::new();
    for fact in &capture.facts {
        let _ = writeln!(out, "device: {fact}");
    }
    for game in &capture.games {
        let _ = write!(
            out,
            "device {:016x} game {} seed {} rules {}: {} moves, ",
            game.dev.unwrap_or(0),
            game.number,
            game.seed,
            game.rules,
            game.moves.len(),
        );
        match &game.end {
            Some(end) if end.partial => {
                let _ = write!(out, "partial after {}", end.moves);
            }
            Some(end) => {
                let _ = write!(out, "end {} score {}", end.status, end.score.unwrap());
            }
            None => out.push_str("no end frame"),
        }
        match check(game).problem {
            None => out.push_str(", verified\n"),
            Some(p) => {
                let _ = writeln!(out, ", {p}");
            }
        }
    }
    for d in &capture.damage {
        let _ = writeln!(out, "damage in game {:?}: {:?}", d.game, d.kind);
    }
    out
}

/// A text rendering of a pull's summary, for snapshots (the notes and failures name games,
/// moves and byte offsets).
fn render_summary(s: &Summary, dir: &Path) -> String {
    let mut out = format!(
        "received {} (partial {}), ok {}\nduplicates {:?}\ngaps {:?}\n",
        s.received,
        s.partial,
        s.is_ok(),
        s.duplicates.iter().map(|d| d.1).collect::<Vec<_>>(),
        s.gaps.iter().map(|g| (g.first, g.last)).collect::<Vec<_>>()
    );
    for (title, lines) in [
        (
            "conflict",
            s.conflicts
                .iter()
                .map(|c| format!("game {}: {}", c.1, c.2))
                .collect(),
        ),
        ("failed", s.failed.clone()),
        ("lost", s.lost.clone()),
        ("damage", s.damage.clone()),
        ("note", s.notes.clone()),
    ] as [(&str, Vec<String>); 5]
    {
        for line in lines {
            let _ = writeln!(out, "{title}: {line}");
        }
    }
    out.replace(&dir.display().to_string(), "DIR")
}

#[test]
fn every_game_arrives_live_and_from_the_store_equal_to_the_host_replay() {
    let mut snapshot = String::new();
    for (name, plans) in [
        ("session", games()),
        ("restart", games()),
        ("stall", stall_games()),
    ] {
        let capture = decode_capture(firmware_elf(), capture(name)).unwrap();
        assert!(capture.damage.is_empty(), "{name}: {:?}", capture.damage);
        for game in &capture.games {
            let plan = &plans[game.number as usize - 1];
            assert_eq!(game.dev, Some(DEV));
            assert_eq!((game.rules, game.seed), (plan.rules, plan.seed));
            let dirs: Vec<_> = game.moves.iter().map(|m| m.dir).collect();
            assert_eq!(
                dirs[..],
                plan.moves[..dirs.len()],
                "{name} game {}",
                game.number
            );
            let result = check(game);
            let Some(end) = game.end else {
                // Live, in play when the capture ended, or cut by lost frames.
                assert_eq!(
                    result.problem,
                    Some(Problem::Truncated {
                        game: game.number,
                        moves: dirs.len() as u32
                    })
                );
                continue;
            };
            assert_eq!(result.problem, None, "{name} game {}", game.number);
            assert_eq!(result.verified_moves as usize, dirs.len());
            if end.partial {
                assert!(dirs.len() < plan.moves.len() || plan.close.is_empty());
                continue;
            }
            assert_eq!(dirs, plan.moves, "{name} game {}", game.number);
            assert_eq!(end.check, Some(plan.end_check_in(game.number, VERSION)));
            assert_eq!(end.hash, Some(plan.game.state_hash()));
            assert_eq!(end.score, Some(plan.game.score()));
            assert_eq!(end.status, plan.game.status());
            assert_eq!(end.moves, plan.game.move_count());
        }
        let _ = writeln!(snapshot, "== {name}\n{}", render(&capture));
    }
    let statuses: Vec<Status> = games()[..5].iter().map(|p| p.game.status()).collect();
    use Status::*;
    assert_eq!(statuses, [Won, Playing, Playing, Over, Playing]);
    insta::assert_snapshot!(format!("v{VERSION}_captures"), snapshot);
}

/// A port pull of the session: each game written once as it closes, its store copy a
/// duplicate, the game in play at the end neither written nor a failure; then the restart
/// into the same directory: what is there is recognised, the interrupted game written as a
/// verified partial log.
#[test]
fn a_port_pull_writes_each_game_once_and_acknowledges_what_is_on_disk() {
    let dir = Scratch::new("port");
    let (puller, pulled) = pull(capture("session"), &dir.0, LIVE);
    for n in 1..=5 {
        let copies = if n == 1 { 1 } else { 2 };
        let mut expected = vec![Outcome::Written];
        expected.extend(std::iter::repeat_n(Outcome::Duplicate, copies - 1));
        assert_eq!(outcomes(&pulled, n), expected, "game {n}");
        assert_on_disk(&dir.0, n, true, &games()[n as usize - 1]);
    }
    assert_eq!(outcomes(&pulled, 6), [Outcome::InProgress]);
    assert_eq!(pulled.iter().filter(|p| p.ack.is_some()).count(), 9);
    assert_acks_only_what_is_on_disk(&pulled);
    assert_eq!(
        dir.names(),
        (1..=5).map(|n| name(n, true)).collect::<Vec<_>>()
    );
    let summary = puller.summary();
    assert!(summary.is_ok(), "{summary:#?}");
    assert_eq!((summary.received, summary.partial), (5, 0));
    assert_eq!(summary.duplicates, [(DEV, 2), (DEV, 3), (DEV, 4), (DEV, 5)]);
    assert_eq!(puller.facts().items.len(), 4);
    let mut snapshot = render_summary(&summary, &dir.0);

    let (puller, pulled) = pull(capture("restart"), &dir.0, LIVE);
    for n in 2..=5 {
        assert_eq!(outcomes(&pulled, n)[0], Outcome::AlreadyPulled, "game {n}");
    }
    assert_eq!(
        outcomes(&pulled, 6),
        [
            Outcome::Written,
            Outcome::Duplicate,
            Outcome::Duplicate,
            Outcome::Duplicate
        ]
    );
    assert_eq!(outcomes(&pulled, 1), [Outcome::AlreadyPulled]);
    assert_eq!(outcomes(&pulled, 7), [Outcome::InProgress]);
    assert_on_disk(&dir.0, 6, false, &games()[5]);
    assert_acks_only_what_is_on_disk(&pulled);
    assert_eq!(dir.names().len(), 6);
    let summary = puller.summary();
    assert!(summary.is_ok(), "{summary:#?}");
    assert_eq!((summary.received, summary.partial), (6, 1));
    assert_eq!(summary.gaps, []);
    let errors: Vec<(u8, u32)> = puller
        .facts()
        .items.iter()
        .filter_map(|f| match *f {
            DeviceFact::Error { code, game, .. } => Some((code, game)),
            _ => None,
        })
        .collect();
    assert_eq!(errors, [(3, 999), (4, 1), (1, 0), (2, 0)]);
    snapshot.push_str("== restart\n");
    snapshot.push_str(&render_summary(&summary, &dir.0));
    insta::assert_snapshot!(format!("v{VERSION}_port_pull"), snapshot);

    // The same captures again: nothing new is written, nothing is a failure.
    let before: Vec<Vec<u8>> = dir
        .names()
        .iter()
        .map(|n| std::fs::read(dir.0.join(n)).unwrap())
        .collect();
    for name in ["session", "restart"] {
        let (puller, pulled) = pull(capture(name), &dir.0, LIVE);
        assert!(
            pulled.iter().all(|p| p.outcome != Outcome::Written),
            "{name}"
        );
        assert!(puller.summary().is_ok());
    }
    let after: Vec<Vec<u8>> = dir
        .names()
        .iter()
        .map(|n| std::fs::read(dir.0.join(n)).unwrap())
        .collect();
    assert_eq!(before, after);
}

/// A capture file pulled whole (deferred): every copy in view before anything is written.
/// The session's game 6, cut off live, and the restart's partial copy of it: the partial
/// copy is written, and the cut-off copy is a note, not a failure.
#[test]
fn a_deferred_pull_writes_each_game_once_when_the_capture_ends() {
    let dir = Scratch::new("defer");
    let mut both = capture("session").to_vec();
    both.extend_from_slice(capture("restart"));
    let mut puller = v2::pulls::open(firmware_elf(), &dir.0, DEFER);
    let progress = puller.feed(&both, 0).unwrap();
    let deferred = progress
        .iter()
        .filter(|p| matches!(p, Progress::Pulled(p) if p.outcome == Outcome::Deferred))
        .count();
    assert!(deferred >= 20, "{deferred} games deferred");
    assert_eq!(
        dir.names(),
        Vec::<String>::new(),
        "nothing written before the end"
    );
    let pulled: Vec<Pulled> = puller
        .finish()
        .unwrap()
        .into_iter()
        .filter_map(|p| match p {
            Progress::Pulled(mut p) => {
                p.file = p.file.map(|f| dir.0.join(f).to_string_lossy().into_owned());
                Some(*p)
            }
            _ => None,
        })
        .collect();
    let pulled = &pulled[..];
    for n in 1..=5 {
        assert_eq!(outcomes(pulled, n)[0], Outcome::Written, "game {n}");
        assert_on_disk(&dir.0, n, true, &games()[n as usize - 1]);
    }
    assert_on_disk(&dir.0, 6, false, &games()[5]);
    assert_eq!(
        outcomes(pulled, 6)[0],
        Outcome::NotWritten,
        "the copy cut off live"
    );
    assert_eq!(outcomes(pulled, 6)[1], Outcome::Written);
    assert_eq!(
        outcomes(pulled, 7),
        [Outcome::NotWritten],
        "a capture file has no game in progress"
    );
    assert_acks_only_what_is_on_disk(pulled);
    let summary = puller.summary();
    assert_eq!((summary.received, summary.partial), (6, 1));
    assert_eq!(summary.gaps, []);
    assert_eq!(
        summary.failed,
        ["game 7: truncated after move 6, the capture has no game-end frame"]
    );
    assert!(summary
        .notes
        .contains(&"game 6: truncated after move 9, the capture has no game-end frame (the game arrived whole in another copy)".to_string()));
    assert!(!summary.is_ok());
}

/// The same device numbers (a fresh flash) with other games: a game whose name holds
/// another game pulled before goes to a free name, with a note, and is acknowledged (it is
/// on disk); the file there is never overwritten (issue 26: one writer for every file).
#[test]
fn a_game_that_differs_from_its_pulled_copy_goes_to_a_free_name_and_nothing_is_overwritten() {
    let dir = Scratch::new("conflict");
    pull(capture("session"), &dir.0, LIVE);
    let before = std::fs::read(dir.0.join(name(2, true))).unwrap();
    let (puller, pulled) = pull(capture("stall"), &dir.0, LIVE);
    assert_acks_only_what_is_on_disk(&pulled);
    for n in 1..=3 {
        let free = dir.0.join(name(n, true).replace(".t48", "-2.t48"));
        let written: Vec<&Pulled> = pulled
            .iter()
            .filter(|p| p.game.number == n && p.outcome == Outcome::Written)
            .collect();
        assert_eq!(written.len(), 1, "game {n}: {:?}", outcomes(&pulled, n));
        assert_eq!(written[0].file.as_deref().map(Path::new), Some(&*free));
        assert!(written[0].ack.is_some(), "game {n}");
    }
    assert_eq!(std::fs::read(dir.0.join(name(2, true))).unwrap(), before);
    assert_on_disk(&dir.0, 1, true, &games()[0]);
    let summary = puller.summary();
    assert!(summary.is_ok(), "{summary:#?}");
    assert_eq!(summary.received, 3);
    assert_eq!(summary.conflicts, []);
    let mut snapshot = render_summary(&summary, &dir.0);

    // Both captures in one file: the copies conflict before anything is written, and
    // neither is written.
    let fresh = Scratch::new("conflict-defer");
    let mut both = capture("stall").to_vec();
    both.extend_from_slice(capture("session"));
    let (puller, _) = pull(&both, &fresh.0, DEFER);
    assert_eq!(fresh.names(), [name(4, true), name(5, true)]);
    let dir = fresh;
    let summary = puller.summary();
    assert_eq!(summary.received, 2);
    let conflicts: Vec<u32> = summary.conflicts.iter().map(|c| c.1).collect();
    assert_eq!(conflicts, [1, 2, 3]);
    snapshot.push_str("== deferred\n");
    snapshot.push_str(&render_summary(&summary, &dir.0));
    insta::assert_snapshot!(format!("v{VERSION}_conflicts"), snapshot);
}

/// The stalled link: the device dropped frames live and said so; the pull reply brings
/// every game whole, so the loss is a note. Cut before the reply, the loss is a failure
/// naming the game and move.
#[test]
fn frames_the_device_lost_are_reported_unless_the_store_brings_the_game() {
    let bytes = capture("stall");
    let dir = Scratch::new("stall");
    let (puller, _) = pull(bytes, &dir.0, DEFER);
    let summary = puller.summary();
    assert!(summary.is_ok(), "{summary:#?}");
    assert_eq!(summary.received, 3);
    for (n, p) in stall_games().iter().enumerate() {
        assert_on_disk(&dir.0, n as u32 + 1, true, p);
    }
    assert!(summary.notes.contains(
        &"the device dropped 119 frames from game 2, move 85; game 2 arrived whole from the store"
            .to_string()
    ));
    let mut snapshot = render_summary(&summary, &dir.0);

    let reply = edit::fact_frame(bytes, "pull reply of", 0);
    let dir = Scratch::new("stall-cut");
    let (puller, _) = pull(&bytes[..reply.start], &dir.0, DEFER);
    let summary = puller.summary();
    assert!(!summary.is_ok());
    assert_eq!(
        summary.lost,
        ["the device dropped 119 frames from game 2, move 85 (119 frames never received)"]
    );
    assert_eq!(dir.names(), [name(1, true)]);
    snapshot.push_str("== cut before the pull reply\n");
    snapshot.push_str(&render_summary(&summary, &dir.0));
    // Every frame of game 2 gone too (its store copy as well): the device's word for the
    // frames it dropped is the report, not a gap besides.
    let dir = Scratch::new("stall-no-game-2");
    let (puller, _) = pull(&edit::without_game(bytes, 2), &dir.0, DEFER);
    let summary = puller.summary();
    assert_eq!(summary.gaps, []);
    assert_eq!(
        summary.lost,
        [
            "the device dropped 119 frames from game 2, move 85 (119 frames never received)",
            "a pull reply announced 3 games, the device sent 3, 2 arrived"
        ]
    );
    insta::assert_snapshot!(format!("v{VERSION}_lost_frames"), snapshot);
}

/// Every frame of game 3 dropped from the restart capture (all its copies): its number is
/// a gap, and each reply that announced it is short. A file of it already in the directory
/// fills the gap.
#[test]
fn a_game_never_received_is_a_gap_and_its_replies_are_short() {
    let bytes = edit::without_game(capture("restart"), 3);
    let dir = Scratch::new("gap");
    let (puller, _) = pull(&bytes, &dir.0, DEFER);
    let summary = puller.summary();
    assert_eq!(summary.gaps, [gap(3, 3)]);
    assert_eq!(
        summary.lost,
        [
            "a pull reply announced 5 games, the device sent 5, 4 arrived",
            "a pull reply announced 6 games, the device sent 6, 5 arrived"
        ]
    );
    assert!(!dir.names().contains(&name(3, true)));
    let mut snapshot = render_summary(&summary, &dir.0);

    // Games 1 and 3 gone: 1 is below every number seen, so only 3 is a gap. Games 2 and 3
    // gone: one gap of two numbers.
    let bytes = edit::without_game(&edit::without_game(capture("restart"), 1), 3);
    let (puller, _) = pull(&bytes, &Scratch::new("gap2").0, DEFER);
    assert_eq!(puller.summary().gaps, [gap(3, 3)]);
    let bytes = edit::without_game(&edit::without_game(capture("restart"), 2), 3);
    let (puller, _) = pull(&bytes, &Scratch::new("gap3").0, DEFER);
    assert_eq!(puller.summary().gaps, [gap(2, 3)]);

    // Pulled before: no gap.
    let dir = Scratch::new("gap-filled");
    pull(capture("session"), &dir.0, LIVE);
    let (puller, _) = pull(&edit::without_game(capture("restart"), 3), &dir.0, LIVE);
    let summary = puller.summary();
    assert_eq!(summary.gaps, []);
    snapshot.push_str("== game 3 in the directory already\n");
    snapshot.push_str(&render_summary(&summary, &dir.0));

    // A gap alone (no reply announced the game) fails the pull.
    let dir = Scratch::new("gap-only");
    let (puller, _) = pull(&edit::without_game(capture("ended"), 3), &dir.0, DEFER);
    let summary = puller.summary();
    assert_eq!(summary.gaps, [gap(3, 3)]);
    assert!(!summary.is_ok(), "{summary:#?}");
    assert_eq!(summary.received, 5);
    // With another game 1 in the directory besides (it goes to a free name, with a
    // note): still the gap.
    let dir = Scratch::new("gap-and-other-file");
    std::fs::create_dir_all(&dir.0).unwrap();
    std::fs::write(dir.0.join(name(1, true)), other_game()).unwrap();
    let (puller, _) = pull(&edit::without_game(capture("ended"), 3), &dir.0, DEFER);
    let with_other = puller.summary();
    assert_eq!(with_other.conflicts, []);
    assert!(with_other
        .notes
        .iter()
        .any(|n| n.contains("already there with other contents")));
    assert_eq!(with_other.gaps, [gap(3, 3)]);
    snapshot.push_str("== ended, game 3 never received\n");
    snapshot.push_str(&render_summary(&summary, &dir.0));
    insta::assert_snapshot!(format!("v{VERSION}_gap"), snapshot);
}

/// A port opened in the middle of a session, at the device's hello while game 7 is being
/// played: game 7 is not in the reply and not a gap, but a note.
#[test]
fn the_game_in_play_when_a_pull_begins_is_a_note_not_a_gap() {
    let bytes = capture("restart");
    let hello = edit::fact_frame(bytes, "next game 8", 0);
    let dir = Scratch::new("midway");
    let (puller, pulled) = pull(&bytes[hello.start..], &dir.0, LIVE);
    let numbers: Vec<u32> = pulled.iter().map(|p| p.game.number).collect();
    assert_eq!(numbers, [5, 6]);
    let summary = puller.summary();
    assert!(summary.is_ok(), "{summary:#?}");
    assert_eq!(summary.gaps, []);
    assert_eq!(
        summary.notes,
        ["device 7e57000000000001 game 7: not sent (being played when the pull began); the next pull brings it"]
    );
    // Pulled before (whole, or as an interrupted game): no note.
    for complete in [true, false] {
        let dir = Scratch::new("midway-after");
        pull(capture("restart"), &dir.0, LIVE);
        std::fs::write(dir.0.join(name(7, complete)), b"a stand-in").unwrap();
        let (puller, _) = pull(&bytes[hello.start..], &dir.0, LIVE);
        assert_eq!(puller.summary().notes, Vec::<String>::new());
    }
}

/// No file holds a move the host did not confirm: every complete log in `dir` is the game
/// played, every incomplete one a prefix of it.
fn assert_nothing_wrong_on_disk(dir: &Scratch) {
    for file in dir.names() {
        let number: u32 = file[18..24].parse().unwrap();
        let log = MoveLog::decode(&std::fs::read(dir.0.join(&file)).unwrap()).unwrap();
        let plan = &games()[number as usize - 1];
        assert_eq!((log.rules, log.seed), (plan.rules, plan.seed), "{file}");
        if log.complete {
            assert_eq!(log.moves, plan.moves, "{file}");
        } else {
            assert_eq!(log.moves[..], plan.moves[..log.moves.len()], "{file}");
        }
    }
}

/// One bit flipped in each byte of game 1's 5th move frame (game 1 was acknowledged, so the
/// session's reply has no copy of it): the damage and the failure name game 1 and where,
/// nothing of it is written but (with `keep_partial`) its verified first moves, marked.
#[test]
fn a_flipped_bit_in_a_game_without_another_copy_fails_it_and_says_where() {
    let bytes = capture("session");
    let frame = edit::find(bytes, 1, Kind::Move(5), 0);
    let mut reports = String::new();
    for at in frame.clone() {
        let damaged = edit::flipped(bytes, at, at as u32 % 8);
        let dir = Scratch::new("flip");
        let options = PullOptions {
            keep_partial: true,
            defer: false,
        };
        let (puller, pulled) = pull(&damaged, &dir.0, options);
        assert_nothing_wrong_on_disk(&dir);
        let summary = puller.summary();
        assert!(!summary.is_ok(), "byte {at}");
        let game1 = pulled.iter().find(|p| p.game.number == 1).expect("game 1");
        assert_eq!(game1.outcome, Outcome::DamagedPrefix, "byte {at}");
        assert!(game1.ack.is_none());
        let path = Path::new(game1.file.as_ref().unwrap());
        assert!(path.ends_with("7e57000000000001-g000001.damaged.t48"));
        let log = MoveLog::decode(&std::fs::read(path).unwrap()).unwrap();
        assert!(!log.complete && log.moves.len() <= 4, "byte {at}");
        assert!(!dir.names().contains(&name(1, true)), "byte {at}");
        let _ = writeln!(
            reports,
            "byte {}: {}",
            at - frame.start,
            render_summary(&summary, &dir.0)
                .lines()
                .filter(|l| l.starts_with("failed") || l.starts_with("damage"))
                .collect::<Vec<_>>()
                .join("; ")
        );
    }
    insta::assert_snapshot!(format!("v{VERSION}_flipped_bit"), reports);
}

/// The same in game 3, which the pull reply brings again: the damaged live copy is a note,
/// the game is received whole.
#[test]
fn a_flipped_bit_in_a_game_the_store_sends_again_is_a_note() {
    let bytes = capture("session");
    let frame = edit::find(bytes, 3, Kind::Move(5), 0);
    let damaged = edit::flipped(bytes, frame.start + 2, 3);
    let dir = Scratch::new("flip-noted");
    let (puller, pulled) = pull(&damaged, &dir.0, LIVE);
    assert_eq!(outcomes(&pulled, 3)[0], Outcome::NotWritten);
    assert_eq!(outcomes(&pulled, 3)[1], Outcome::Written);
    assert_on_disk(&dir.0, 3, true, &games()[2]);
    let summary = puller.summary();
    assert!(summary.is_ok(), "{summary:#?}");
    assert_eq!(summary.received, 5);
    assert_eq!(summary.notes.len(), 3, "{:#?}", summary.notes);
    assert!(
        summary.notes[0].starts_with("game 3, move 5"),
        "{}",
        summary.notes[0]
    );
    assert!(summary.notes[0].ends_with("(the game arrived whole in another copy)"));
    let damage = format!(
        "bytes {}..{} (in game 3): check mismatch",
        frame.start, frame.end
    );
    assert!(
        summary.notes[2].starts_with(&damage),
        "{}",
        summary.notes[2]
    );
    assert!(summary.notes[2].ends_with("; its game arrived whole"));
}

/// A lost separator merges two of game 3's live move frames: damage, never a move.
#[test]
fn a_lost_separator_is_damage_in_v2_too() {
    let bytes = capture("session");
    let frame = edit::find(bytes, 3, Kind::Move(7), 0);
    let mut damaged = bytes.to_vec();
    assert_eq!(damaged.remove(frame.end), 0);
    let capture = decode_capture(firmware_elf(), &damaged).unwrap();
    assert_eq!(capture.damage.len(), 1);
    assert!(matches!(capture.damage[0].kind, DamageKind::Merged { .. }));
    assert_eq!(capture.damage[0].game, Some(3));
    assert_eq!(capture.damage[0].offset, frame.start);
    let dir = Scratch::new("merged");
    pull(&damaged, &dir.0, DEFER);
    assert_nothing_wrong_on_disk(&dir);
    assert_on_disk(&dir.0, 3, true, &games()[2]);
}

/// The capture cut inside game 4's live moves: on a port, the game is still being played
/// (in the device's store, not a failure); from a capture file, it is truncated. Cut inside
/// the pull reply: the reply is reported cut off.
#[test]
fn a_cut_capture_keeps_what_is_certain_and_says_what_is_missing() {
    let bytes = capture("session");
    let cut = edit::find(bytes, 4, Kind::Move(100), 0).start;
    let dir = Scratch::new("cut-port");
    let (puller, pulled) = pull(&bytes[..cut], &dir.0, LIVE);
    assert_eq!(outcomes(&pulled, 4), [Outcome::InProgress]);
    let summary = puller.summary();
    assert!(summary.is_ok(), "{summary:#?}");
    assert_eq!(summary.received, 3);
    let mut snapshot = render_summary(&summary, &dir.0);
    let dir = Scratch::new("cut-file");
    let (puller, _) = pull(&bytes[..cut + 3], &dir.0, DEFER);
    let summary = puller.summary();
    assert_eq!(
        summary.failed,
        ["game 4: truncated after move 99, the capture has no game-end frame"]
    );
    assert!(
        summary.damage[0].contains("in game 4"),
        "{:?}",
        summary.damage
    );
    assert_eq!(
        dir.names(),
        (1..=3).map(|n| name(n, true)).collect::<Vec<_>>()
    );

    // Inside game 3's copy in the reply, in the frame after its start (a move frame in v2,
    // its moves frame in v3): game 2 came, 3 was cut off.
    let cut = edit::find(bytes, 3, Kind::Start, 1).end + 4;
    let dir = Scratch::new("cut-reply");
    let (puller, _) = pull(&bytes[..cut], &dir.0, LIVE);
    let summary = puller.summary();
    assert_eq!(
        summary.lost,
        ["a pull reply announced 4 games and was cut off after 1"]
    );
    assert!(!summary.is_ok());
    assert_eq!(summary.received, 5);
    snapshot.push_str("== cut inside the reply\n");
    snapshot.push_str(&render_summary(&summary, &dir.0));
    insta::assert_snapshot!(format!("v{VERSION}_cut"), snapshot);
}

/// A game log from the repository's fixtures: another game than any of the device's.
fn other_game() -> Vec<u8> {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/games/arduino-random-over.t48");
    let bytes = std::fs::read(path).unwrap();
    MoveLog::decode(&bytes).expect("a game log");
    bytes
}

/// Game 6 of an `ended` capture, from its start frame on (as from a port opened then).
fn ended(name: &str) -> &'static [u8] {
    let bytes = capture(name);
    &bytes[edit::find(bytes, 6, Kind::Start, 0).start..]
}

/// An interrupted game (a verified prefix, `.partial.t48`) and a whole copy of it that
/// goes on from that prefix are the same game, in either order; two different whole copies
/// are a conflict, and neither is written over the other.
#[test]
fn an_interrupted_game_and_its_whole_copy_are_one_game_two_different_ends_a_conflict() {
    let whole = ended_game(12);
    // The partial copy first, then the whole one: both kept, the whole one written.
    let dir = Scratch::new("partial-first");
    pull(capture("restart"), &dir.0, LIVE);
    let (_, pulled) = pull(ended("ended"), &dir.0, LIVE);
    assert_eq!(outcomes(&pulled, 6), [Outcome::Written]);
    assert_on_disk(&dir.0, 6, true, &whole);
    assert_on_disk(&dir.0, 6, false, &games()[5]);

    // The whole copy first: the partial one was pulled before, and is acknowledged.
    let dir = Scratch::new("whole-first");
    pull(ended("ended"), &dir.0, LIVE);
    let (puller, pulled) = pull(capture("restart"), &dir.0, LIVE);
    let partial: Vec<&Pulled> = pulled.iter().filter(|p| p.game.number == 6).collect();
    assert_eq!(partial[0].outcome, Outcome::AlreadyPulled);
    for p in &partial {
        assert_eq!(p.file.as_deref().map(Path::new), Some(&*dir.0.join(name(6, true))));
        assert_eq!(
            p.ack.map(|a| (a.game, a.check)),
            Some((6, p.game.end.unwrap().check.unwrap()))
        );
    }
    assert!(partial[1..].iter().all(|p| p.outcome == Outcome::Duplicate));
    assert_acks_only_what_is_on_disk(&pulled);
    assert!(!dir.names().contains(&name(6, false)));
    assert!(puller.summary().is_ok());

    // A whole file of game 6 that is another game (another flash): the partial copy is
    // written beside it, never over it, and acknowledged.
    let dir = Scratch::new("whole-other");
    std::fs::create_dir_all(&dir.0).unwrap();
    std::fs::write(dir.0.join(name(6, true)), other_game()).unwrap();
    let (puller, pulled) = pull(capture("restart"), &dir.0, LIVE);
    assert_eq!(outcomes(&pulled, 6)[0], Outcome::Written);
    assert_acks_only_what_is_on_disk(&pulled);
    assert_eq!(
        std::fs::read(dir.0.join(name(6, true))).unwrap(),
        other_game()
    );
    assert_on_disk(&dir.0, 6, false, &games()[5]);
    assert_eq!(puller.summary().conflicts, []);

    // Two whole copies that end differently, and the partial one: on a port, the first
    // whole copy is written and the second is a conflict; from a capture file, neither.
    let mut three = capture("restart").to_vec();
    three.extend_from_slice(ended("ended"));
    three.extend_from_slice(ended("ended-early"));
    let dir = Scratch::new("two-ends-port");
    let (puller, pulled) = pull(&three, &dir.0, LIVE);
    let outcomes6 = outcomes(&pulled, 6);
    assert_eq!(outcomes6[4], Outcome::Written);
    let shorter = "a complete copy is shorter than another copy".to_string();
    assert_eq!(
        outcomes6[5],
        Outcome::Conflict {
            reason: shorter.clone()
        }
    );
    assert_on_disk(&dir.0, 6, true, &whole);
    let summary = puller.summary();
    assert_eq!(summary.conflicts, [(DEV, 6, shorter.clone())]);
    assert_eq!(summary.received, 5, "a game in conflict is not received");
    assert!(!summary.is_ok());
    let dir = Scratch::new("two-ends-file");
    let (puller, _) = pull(&three, &dir.0, DEFER);
    assert!(!dir.names().contains(&name(6, true)));
    let summary = puller.summary();
    assert_eq!(summary.conflicts, [(DEV, 6, shorter)]);
    assert_eq!(summary.received, 5);
}

/// Line noise before the first frame (a port opened mid-byte) is shown as it comes but is
/// no failure; the same bytes after a frame (here the hello, before game 1) are damage.
#[test]
fn line_noise_before_the_first_frame_is_no_failure() {
    let noise = b"\x13\x37 line noise \xff\xfe\x00";
    let mut bytes = noise.to_vec();
    bytes.extend_from_slice(capture("session"));
    let dir = Scratch::new("noise");
    let mut puller = v2::pulls::open(firmware_elf(), &dir.0, LIVE);
    let progress = puller.feed(&bytes, 0).unwrap();
    assert!(matches!(&progress[0], Progress::Damaged(d) if d.offset == 0));
    puller.finish().unwrap();
    let summary = puller.summary();
    assert!(summary.is_ok(), "{summary:#?}");
    assert_eq!(summary.received, 5);

    let mut bytes = capture("session").to_vec();
    let at = edit::find(&bytes, 1, Kind::Start, 0).start;
    bytes.splice(at..at, noise.iter().copied());
    let dir = Scratch::new("noise-later");
    let (puller, _) = pull(&bytes, &dir.0, LIVE);
    let summary = puller.summary();
    assert_eq!(summary.damage.len(), 1, "{summary:#?}");
    assert!(summary.damage[0].starts_with(&format!("bytes {at}..")));
    assert_eq!(summary.received, 5);
}

/// Endless damage on the line after the games (a noisy cable left listening) is listed up
/// to LISTED_DAMAGE stretches and counted past that, in one closing line: memory stays
/// bounded, and the count is exact.
#[test]
fn damage_past_the_first_thousand_stretches_is_counted_not_kept() {
    use twenty48_devicelog::pull::LISTED_DAMAGE;
    let extra = LISTED_DAMAGE + 500;
    let mut bytes = capture("session").to_vec();
    for i in 0..extra {
        bytes.extend_from_slice(&[0xfe, 0x80 | (i % 100) as u8, 0x00]);
    }
    let dir = Scratch::new("endless-damage");
    let (puller, _) = pull(&bytes, &dir.0, LIVE);
    let summary = puller.summary();
    assert_eq!(summary.received, 5);
    assert_eq!(
        summary.damage.len(),
        LISTED_DAMAGE + 1,
        "{:?}",
        &summary.damage[..3]
    );
    assert!(summary.damage[..LISTED_DAMAGE]
        .iter()
        .all(|d| d.starts_with("bytes ")));
    assert_eq!(
        summary.damage[LISTED_DAMAGE],
        format!(
            "{} more damaged stretches after the first {LISTED_DAMAGE}, counted but not listed",
            extra - LISTED_DAMAGE
        )
    );
    // Within the limit, every stretch is listed and nothing is counted.
    let mut bytes = capture("session").to_vec();
    for _ in 0..LISTED_DAMAGE {
        bytes.extend_from_slice(&[0xfe, 0x81, 0x00]);
    }
    let dir = Scratch::new("damage-at-the-limit");
    let (puller, _) = pull(&bytes, &dir.0, LIVE);
    let damage = puller.summary().damage;
    assert_eq!(damage.len(), LISTED_DAMAGE);
    assert!(damage.iter().all(|d| d.starts_with("bytes ")));
}
