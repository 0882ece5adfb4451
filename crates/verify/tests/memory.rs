//! Memory stays flat however many moves a log holds (issue 10, item 7): verifying or
//! replaying a log read from its bytes takes no memory in proportion to its moves beyond the
//! file's own bytes (2 bits a move). Measured by counting every allocation of this test
//! binary, never by timing.
//!
//! One test function only: the counter sees the whole process, so nothing else may run
//! beside it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use twenty48_engine::{Direction, Engine, Game, Rules, Status};
use twenty48_movelog::{MoveLog, PackedLog};
use twenty48_verify::batch::{verify_file, Verdict};
use twenty48_verify::{replay, verify, EngineChoice};

/// The system allocator, counting the bytes in use and their peak.
struct Counting;

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let now = IN_USE.fetch_add(by, Ordering::SeqCst) + by;
    PEAK.fetch_max(now, Ordering::SeqCst);
}

// SAFETY: every call is passed on to the system allocator unchanged; only sizes are counted.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        IN_USE.fetch_sub(layout.size(), Ordering::SeqCst);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // Old and new block may both be live while the bytes move.
        grew(new_size);
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        IN_USE.fetch_sub(layout.size(), Ordering::SeqCst);
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The most bytes allocated at once while `work` runs, above what was in use before it.
fn peak_of<T>(work: impl FnOnce() -> T) -> (T, usize) {
    let before = IN_USE.load(Ordering::SeqCst);
    PEAK.store(before, Ordering::SeqCst);
    let out = work();
    (out, PEAK.load(Ordering::SeqCst) - before)
}

/// A long legal game on the 8x8 board: a corner strategy (left, down, right, down), any
/// legal move when it is stuck.
fn long_game(moves: u32) -> MoveLog {
    let rules = Rules {
        size: 8,
        ..Rules::CLASSIC
    };
    let mut game = Game::with_engine(rules, 3, Engine::Reference).unwrap();
    let order = [
        Direction::Left,
        Direction::Down,
        Direction::Right,
        Direction::Down,
    ];
    let mut played = Vec::with_capacity(moves as usize);
    let mut i = 0;
    while game.status() == Status::Playing && game.move_count() < moves {
        i += 1;
        let dir = (0..4)
            .map(|j| order[(i + j) % 4])
            .chain(Direction::ALL)
            .find(|d| game.can_play(*d))
            .unwrap();
        game.play(dir).unwrap();
        played.push(dir);
    }
    assert_eq!(game.move_count(), moves, "the game lasts");
    MoveLog::from_moves(rules, 3, &played, 256).unwrap()
}

#[test]
fn issue10_verify_and_replay_of_a_packed_log_take_no_memory_per_move() {
    let moves = 120_000;
    let log = long_game(moves);
    let bytes = log.encode();
    drop(log);
    // Unpacked, the moves alone take `moves` bytes; packed, a quarter of that.
    let bound = 16 * 1024;
    assert!((moves as usize) > 6 * bound);

    let (report, peak) = peak_of(|| {
        let packed = PackedLog::decode(&bytes).unwrap();
        verify(&packed, EngineChoice::Fast)
    });
    assert!(report.is_ok(), "{:?}", report.problem);
    assert_eq!(report.moves_replayed, moves);
    assert!(peak < bound, "verify took {peak} bytes");

    let (states, peak) = peak_of(|| {
        let packed = PackedLog::decode(&bytes).unwrap();
        let mut states = 0u32;
        replay(&packed, Engine::Fast, |_| states += 1).unwrap();
        states
    });
    assert_eq!(states, moves + 1);
    assert!(peak < bound, "replay took {peak} bytes");

    let (report, peak) = peak_of(|| {
        let packed = PackedLog::decode(&bytes).unwrap();
        verify(&packed, EngineChoice::Both)
    });
    assert!(report.is_ok(), "{:?}", report.problem);
    assert!(peak < bound, "verify on both engines took {peak} bytes");

    // From the file: its bytes, read in growing steps, and nothing else.
    let dir = std::env::temp_dir().join(format!("t48-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("long.t48");
    std::fs::write(&file, &bytes).unwrap();
    let (verdict, peak) = peak_of(|| verify_file(&file, EngineChoice::Fast));
    assert!(
        matches!(&verdict, Verdict::Replayed(r) if r.is_ok()),
        "{verdict:?}"
    );
    assert!(
        peak < 2 * bytes.len() + bound,
        "verifying a file of {} bytes took {peak} bytes",
        bytes.len()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
