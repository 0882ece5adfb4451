//! Issue 26, item 3: a pull's memory is bounded by the games in flight plus a fixed cap,
//! whatever the device sends. A counting allocator measures the live heap while the fake
//! board's worst streams go through [`Conversation`], as a port pull (each game written as it
//! closes) and as a capture file (deferred), in protocols v1, v2 and v3:
//! - a million game starts that never end;
//! - two conflicting copies of each of many games;
//! - frames naming huge game numbers, scattered;
//! - a long game in flight: its verified moves at 2 bits each, whatever frames brought them.
//!
//! Each stream is made a chunk at a time as it is fed, so that the test's own bytes stay
//! small; the tests take a lock so that only one measures at a time.

#[allow(dead_code)]
mod v2 {
    pub mod pulls;
    pub mod scratch;
}

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::sync::atomic::{AtomicIsize, Ordering};
use std::sync::Mutex;

use twenty48_devicelog::pull::{Summary, DEFER_BYTES, LISTED};
use twenty48_deviceproto::QEMU_DEVICE_ID;
use twenty48_engine::{Direction, Rules};
use twenty48_testkit::frames::Frames;
use v2::pulls::PullOptions;
use v2::scratch::Scratch;

/// Counts the bytes live on the heap, and the most there were since the last reset.
struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);
static PEAK: AtomicIsize = AtomicIsize::new(0);

fn grew(by: usize) {
    let now = LIVE.fetch_add(by as isize, Ordering::Relaxed) + by as isize;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        grew(new_size);
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// One test at a time: what one does on the heap must not show in another's measures.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn alone() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

const MIB: usize = 1 << 20;

/// The most live heap a port pull (games written as they close) may take beyond what was
/// live before it, whatever the stream: the ELF's defmt table, the games in flight, and the
/// report's runs and lists at their caps.
const LIVE_CAP: usize = 8 * MIB;

/// The same for a capture file's deferred pull: the copies waiting for their decision
/// (`DEFER_BYTES`) besides.
const DEFER_CAP: usize = LIVE_CAP + DEFER_BYTES + 8 * MIB;

const LIVE_PULL: PullOptions = PullOptions {
    keep_partial: false,
    defer: false,
};

const DEFER_PULL: PullOptions = PullOptions {
    keep_partial: false,
    defer: true,
};

fn elf(version: u8) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("tests/data/v{version}/twenty48-qemu.elf"));
    std::fs::read(path).expect("the firmware ELF")
}

/// A pull of the stream `next` makes a chunk at a time; the most heap it held beyond what
/// was live before it, and its summary.
fn peak_of(
    elf: &[u8],
    options: PullOptions,
    mut next: impl FnMut() -> Option<Vec<u8>>,
) -> (usize, Summary) {
    let dir = Scratch::in_memory("memory");
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let summary = {
        let mut puller = v2::pulls::open(elf, &dir.0, options);
        while let Some(bytes) = next() {
            drop(puller.feed(&bytes, 0).unwrap());
        }
        drop(puller.finish().unwrap());
        puller.summary()
    };
    let peak = PEAK.load(Ordering::Relaxed) - before;
    (peak.max(0) as usize, summary)
}

/// `count` chunks, each of `per` pieces made by `piece(i)` for i = 0, 1, 2, ...
fn chunks(
    count: u32,
    per: u32,
    mut piece: impl FnMut(u32) -> Vec<u8>,
) -> impl FnMut() -> Option<Vec<u8>> {
    let mut chunk = 0;
    move || {
        if chunk == count {
            return None;
        }
        let first = chunk * per;
        chunk += 1;
        Some((first..first + per).flat_map(&mut piece).collect())
    }
}

fn assert_under(what: &str, peak: usize, cap: usize) {
    println!(
        "{what}: peak {:.1} MiB of live heap",
        peak as f64 / MIB as f64
    );
    assert!(
        peak < cap,
        "{what}: the pull held {peak} bytes at its peak, over its cap of {cap}"
    );
}

/// `games` starts that never end, of `frames`'s device from game 1 (v1: `v1` frames, no
/// identity), after a hello naming the next; made a thousand at a time.
fn starts(f: &Frames, games: u32, v1: bool) -> impl FnMut() -> Option<Vec<u8>> + '_ {
    let hello = if v1 {
        Vec::new()
    } else {
        f.hello(games + 1, 0, 0)
    };
    chunks(games / 1000, 1000, move |i| {
        let mut bytes = if i == 0 { hello.clone() } else { Vec::new() };
        if v1 {
            bytes.extend(f.start1(&Rules::CLASSIC, u64::from(i)));
        } else {
            bytes.extend(f.start(i + 1, &Rules::CLASSIC, u64::from(i)).0);
        }
        bytes
    })
}

/// Game starts that never end (before: about 1 KB a game kept until the report, 0.96 GB for
/// a million). Each start closes the game of its kind open on the device: the games are
/// reported unfinished, the first of them listed, the rest counted. The memory a port pull
/// holds does not grow with the games: 100,000 take what 20,000 take, give or take the
/// report's lists filling up; a deferred one decides in batches. (`just pull-stress` runs a
/// million, in a release build.)
#[test]
fn starts_without_ends_take_a_fixed_amount_of_memory() {
    let _alone = alone();
    for (version, options, cap, games) in [
        (2, LIVE_PULL, LIVE_CAP, 100_000),
        (3, DEFER_PULL, DEFER_CAP, 60_000),
        (1, LIVE_PULL, LIVE_CAP, 30_000),
    ] {
        let elf = elf(version);
        let f = Frames::new(&elf, QEMU_DEVICE_ID);
        let v1 = version == 1;
        let what = format!("v{version} starts, defer {}", options.defer);
        let (peak, summary) = peak_of(&elf, options, starts(&f, games, v1));
        assert_under(&what, peak, cap);
        assert!(!summary.is_ok());
        assert_eq!(summary.received, 0);
        assert_eq!(summary.failed.len(), LISTED + 1, "{what}");
        // On a port the v2 game still open at the end is in progress, not a failure.
        let unfinished = if options.defer || v1 {
            games
        } else {
            games - 1
        };
        let counted = format!(
            "games damaged or unfinished that never arrived whole: {} more",
            unfinished as usize - LISTED
        );
        assert!(
            summary.failed[LISTED].starts_with(&counted),
            "{what}: {}",
            summary.failed[LISTED]
        );
        if version == 2 {
            let (fewer, _) = peak_of(&elf, options, starts(&f, 20_000, v1));
            assert!(
                peak < fewer + MIB / 2,
                "{what}: 100,000 games took {peak} bytes, 20,000 took {fewer}"
            );
        }
    }
}

/// Two copies of each game with other seeds: each game a conflict (before: 0.56 GB for a
/// million frames). On a port the first copy of each is written, and the second is
/// compared with it on disk, not in memory.
#[test]
fn conflicting_copies_take_a_fixed_amount_of_memory() {
    let _alone = alone();
    let elf = elf(2);
    let f = Frames::new(&elf, QEMU_DEVICE_ID);
    for (options, games, cap) in [
        (LIVE_PULL, 10_000, LIVE_CAP),
        (DEFER_PULL, 25_000, DEFER_CAP),
    ] {
        let copies = chunks(games / 500, 1000, |i| {
            f.game(i / 2 + 1, &Rules::CLASSIC, u64::from(i % 2), &[], false)
                .0
        });
        let what = format!("conflicts, defer {}", options.defer);
        let (peak, summary) = peak_of(&elf, options, copies);
        assert_under(&what, peak, cap);
        assert_eq!(summary.totals.conflicts, games as usize, "{what}");
        assert_eq!(summary.conflicts.len(), LISTED, "{what}");
        assert_eq!(
            summary.received, 0,
            "{what}: a game in conflict is not received"
        );
    }
}

/// Frames naming game numbers near 4,294,967,295, far apart (hellos, lost frames, starts
/// never ended), and lost frames naming small ones: before, every number was kept (0.42 GB
/// for a million frames). The numbers are kept as runs, at most a fixed number of them; past
/// that the report says what it could not keep track of.
#[test]
fn huge_and_scattered_game_numbers_take_a_fixed_amount_of_memory() {
    let _alone = alone();
    let elf = elf(2);
    let f = Frames::new(&elf, QEMU_DEVICE_ID);
    let frames = chunks(50, 500, |i| {
        let n = u32::MAX - 4 * i;
        let mut bytes = f.hello(n, 1, 1);
        bytes.extend(f.lost(n - 1, 3, 1));
        bytes.extend(f.start(n - 2, &Rules::CLASSIC, 1).0);
        bytes.extend(f.lost(i + 1, 0, 1));
        bytes
    });
    let (peak, summary) = peak_of(&elf, LIVE_PULL, frames);
    assert_under("huge numbers", peak, LIVE_CAP);
    assert!(summary.gaps.len() <= LISTED);
    assert!(
        summary
            .failed
            .iter()
            .any(|l| l.starts_with("the pull received more games than it keeps track of")),
        "{:?}",
        &summary.failed[summary.failed.len().saturating_sub(2)..]
    );
}

/// The heap a port pull holds beyond what was live before it, once `in_flight` (a game's
/// start and moves, no end) is fed in pieces of 4 KiB; then `end` closes the game, and the
/// pull's summary.
fn held_in_flight(elf: &[u8], in_flight: &[u8], end: &[u8]) -> (usize, Summary) {
    let dir = Scratch::in_memory("in-flight");
    let before = LIVE.load(Ordering::Relaxed);
    let mut puller = v2::pulls::open(elf, &dir.0, LIVE_PULL);
    for piece in in_flight.chunks(4096) {
        drop(puller.feed(piece, 0).unwrap());
    }
    let held = LIVE.load(Ordering::Relaxed) - before;
    drop(puller.feed(end, 0).unwrap());
    drop(puller.finish().unwrap());
    (held.max(0) as usize, puller.summary())
}

/// A long game in flight costs its verified moves at 2 bits each, whether its moves come
/// live (a move frame each, protocol v2) or from the store (`t48 moves` frames, v3): before,
/// every frame's move was kept (40 bytes a move and more). 8,990 moves more may hold no
/// more than twice their 2,248 bytes (the packed moves grow by doubling).
#[test]
fn a_long_game_in_flight_costs_two_bits_a_move() {
    let _alone = alone();
    let rules = Rules {
        size: 8,
        win: None,
        ..Rules::CLASSIC
    };
    // A long game on 8 by 8: down, left, right, up, the first that moves.
    let mut game = twenty48_engine::Game::new(rules, 7).unwrap();
    let mut moves = Vec::new();
    while moves.len() < 9_000 {
        let Some(dir) = [
            Direction::Down,
            Direction::Left,
            Direction::Right,
            Direction::Up,
        ]
        .into_iter()
        .find(|&d| game.clone().play(d).is_ok_and(|o| o.moved)) else {
            break;
        };
        game.play(dir).unwrap();
        moves.push(dir);
    }
    assert_eq!(moves.len(), 9_000, "a game that long");
    for version in [2, 3] {
        let elf = elf(version);
        let f = Frames::new(&elf, QEMU_DEVICE_ID);
        // The game's frames, split before its end frame (the last one).
        let split = |n: usize| {
            let bytes = if version == 2 {
                f.game(1, &rules, 7, &moves[..n], false).0
            } else {
                f.stored(1, (&rules, 7), &moves[..n])
            };
            let at = bytes[..bytes.len() - 1]
                .iter()
                .rposition(|&b| b == 0)
                .unwrap()
                + 1;
            (bytes[..at].to_vec(), bytes[at..].to_vec())
        };
        let (short, short_end) = split(10);
        let (long, long_end) = split(9_000);
        let (few, _) = held_in_flight(&elf, &short, &short_end);
        let (many, summary) = held_in_flight(&elf, &long, &long_end);
        assert!(summary.is_ok(), "v{version}: {summary:?}");
        println!(
            "v{version}: a game in flight of 10 moves holds {few} bytes, of 9,000 moves {many}"
        );
        assert!(
            many < few + 2 * 8_990 / 4 + 64,
            "v{version}: 8,990 moves more held {} bytes more",
            many.saturating_sub(few)
        );
    }
}
