//! Power cuts on the Nano's own image: at every flash operation (page programs torn with some
//! of their bits cleared, sector erases torn part way) of a session that erases a sector,
//! begins a game and stores its moves, each torn several ways, each followed by a power-on
//! on the same flash and a `{pull all}`. Nothing lost, no wrong game: the game played before
//! comes back whole, the interrupted games as verified prefixes of what was pressed, and
//! every move the board had logged live is in its store.
//!
//! Cheap enough for `just test` because every cut replays from a saved flash image in one
//! emulator process per thread, not from a fresh board: the prefill (a game played to its
//! end and acknowledged, a game cut short) is played once.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::support::player::{press, start, Played, BOOT_RULES, RESULT_SCREENS};
use crate::support::{board, decoded, garbage_flash, scratch};
use twenty48_devicelog::{check, Capture, DeviceFact};
use twenty48_engine::{Direction, Preset, Status};
use twenty48_sim_rp2040::{Nano, Options};

/// The presses of the game the cuts fall in.
const PRESSES: [Direction; 16] = {
    use Direction::*;
    [
        Left, Down, Right, Up, Left, Down, Down, Right, Up, Left, Down, Left, Right, Down, Up, Left,
    ]
};
/// The ring oscillator's seed for the cut session (so every replay is the same session).
const SEED: u64 = 24;
/// Partition sectors holding garbage before the first boot (each is erased before use).
const GARBAGE_SECTORS: usize = 4;

/// The prefill, played once: a classic game played to game over and acknowledged, then an
/// arduino game the power cuts short after a few moves. Returns its games and the flash.
fn prefill(image: &Path) -> Vec<Played> {
    garbage_flash(image, GARBAGE_SECTORS);
    let mut nano = board(Options {
        flash: Some(image.to_path_buf()),
        ..Options::default()
    });
    nano.run(Duration::from_millis(400)).unwrap();
    let mut shown = BOOT_RULES;
    let mut over = start(&mut nano, &mut shown, Preset::Classic);
    // A quick game over: each time the move that gains the least.
    over.play(&mut nano, [Direction::Up; 4], usize::MAX, |g| {
        Direction::ALL
            .into_iter()
            .filter_map(|d| {
                let mut next = g.clone();
                next.play(d)
                    .ok()
                    .filter(|o| o.moved)
                    .map(|_| (next.score(), d))
            })
            .min_by_key(|&(score, _)| score)
            .map(|(_, d)| d)
    });
    assert_eq!(over.game.status(), Status::Over);
    nano.run(RESULT_SCREENS).unwrap();
    let capture = decoded(&nano.seen().usb);
    let end = capture.games[0].end.expect("the classic game ended");
    nano.send(format!("{{ack {} {}}}", over.number, end.check.unwrap()).as_bytes())
        .unwrap();
    let mut cut_short = start(&mut nano, &mut shown, Preset::Arduino);
    cut_short.play(
        &mut nano,
        [
            Direction::Left,
            Direction::Down,
            Direction::Right,
            Direction::Up,
        ],
        6,
        |_| None,
    );
    nano.run(Duration::from_millis(50)).unwrap();
    assert!(decoded(&nano.seen().usb)
        .facts
        .iter()
        .any(|f| matches!(f, DeviceFact::Acked { .. })));
    nano.save_flash(image).unwrap();
    vec![over, cut_short]
}

/// One run of the cut session from the prefilled flash: power on, up starts a game (its
/// sector is garbage, so it is erased first), the presses. With `cut`, the power goes at that
/// operation. Returns the live log and how far the presses got.
fn session(nano: &mut Nano, image: &Path, cut: Option<(u32, u64)>) -> (Vec<u8>, usize) {
    nano.load_flash(image).unwrap();
    nano.reseed(SEED).unwrap();
    nano.power_on().unwrap();
    if let Some((op, tear)) = cut {
        nano.cut_at(op, tear).unwrap();
    }
    nano.take_usb();
    nano.run(Duration::from_millis(400)).unwrap();
    let mut pressed = 0;
    if nano.seen().cut.is_none() {
        // The next press falls into the erase of the game's sector.
        press(nano, Direction::Up);
    }
    for &dir in &PRESSES {
        if nano.seen().cut.is_some() {
            break;
        }
        press(nano, dir);
        pressed += 1;
    }
    if nano.seen().cut.is_none() {
        nano.run(Duration::from_millis(50)).unwrap();
    }
    (nano.take_usb(), pressed)
}

/// The games the store gives after a power-on, by `{pull all}`.
fn pulled(nano: &mut Nano) -> Capture {
    nano.power_on().unwrap();
    // The request waits in the board's receive ring until the store is open.
    nano.run(Duration::from_millis(30)).unwrap();
    nano.send(b"{pull all}").unwrap();
    for _ in 0..20 {
        nano.run(Duration::from_millis(100)).unwrap();
        let c = decoded(&nano.seen().usb);
        if c.facts
            .iter()
            .any(|f| matches!(f, DeviceFact::PullDone { .. }))
        {
            return c;
        }
    }
    panic!("no pull reply within 2 s");
}

/// Checks a restart's store against what was played and what the board logged live.
fn verdict(live: &[u8], pressed: usize, prefill: &[Played], store: &Capture) -> Result<(), String> {
    if !store.damage.is_empty() {
        return Err(format!("damage in the pull: {:?}", store.damage));
    }
    let live = decoded(live);
    let by_number: BTreeMap<u32, _> = store.games.iter().map(|g| (g.number, g)).collect();
    for g in &store.games {
        let result = check(g);
        if !result.is_verified() {
            return Err(format!(
                "game {} does not verify: {:?}",
                g.number, result.problem
            ));
        }
    }
    // The prefill's games: the ended one whole, the cut one its six moves.
    for p in prefill {
        let Some(g) = by_number.get(&p.number) else {
            return Err(format!("game {} lost", p.number));
        };
        let moves: Vec<Direction> = g.moves.iter().map(|m| m.dir).collect();
        if (g.rules, g.seed) != (p.rules, p.seed) || moves != p.moves {
            return Err(format!("game {} is not the game played", p.number));
        }
        let ended = p.game.status() != Status::Playing;
        if g.end.map(|e| e.partial) != Some(!ended) {
            return Err(format!(
                "game {}: ended {ended}, stored as {:?}",
                p.number, g.end
            ));
        }
    }
    // The game the cuts fall in: a prefix of the presses on the host, holding every move the
    // board logged live.
    let newer: Vec<_> = store
        .games
        .iter()
        .filter(|g| prefill.iter().all(|p| p.number != g.number))
        .collect();
    if newer.len() > 1 {
        return Err(format!("{} games after the prefill's", newer.len()));
    }
    for lg in &live.games {
        let Some(g) = newer.iter().find(|g| g.number == lg.number) else {
            return Err(format!(
                "game {} logged live is not in the store",
                lg.number
            ));
        };
        if g.moves.len() < lg.moves.len() {
            return Err(format!(
                "game {}: {} moves logged live, {} stored",
                lg.number,
                lg.moves.len(),
                g.moves.len()
            ));
        }
    }
    if let Some(g) = newer.first() {
        let mut host = Played::new(g.number, g.rules, g.seed);
        for &dir in &PRESSES[..pressed] {
            host.record(dir);
        }
        let moves: Vec<Direction> = g.moves.iter().map(|m| m.dir).collect();
        if !host.moves.starts_with(&moves) {
            return Err(format!(
                "game {} (seed {}): {moves:?} is no prefix of the host's {:?} for the presses {:?}",
                g.number,
                g.seed,
                host.moves,
                &PRESSES[..pressed]
            ));
        }
        if g.end.is_none_or(|e| !e.partial) {
            return Err(format!("game {}: not marked interrupted", g.number));
        }
    }
    Ok(())
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn power_cuts_at_flash_operations_lose_no_game_and_give_no_wrong_one() {
    let started_at = Instant::now();
    let image = scratch("prefill.flash");
    let played = prefill(&image);
    // The uncut session: its operations, and the reference every cut is compared with.
    let mut nano = board(Options::default());
    let (live, pressed) = session(&mut nano, &image, None);
    let ops = nano.seen().ops.clone();
    let erases: Vec<u32> = ops.iter().filter(|o| o.erase).map(|o| o.number).collect();
    assert_eq!(erases.len(), 1, "the game's garbage sector erased: {ops:?}");
    let store = pulled(&mut nano);
    verdict(&live, pressed, &played, &store).unwrap();
    drop(nano);
    // Every operation torn three ways, the erase at least sixteen more, 110 cuts in all
    // (`just nano-soak`: more).
    let tears = env_number("T48_NANO_TEARS", 3);
    let erase_tears = env_number(
        "T48_NANO_ERASE_TEARS",
        (110u64.saturating_sub(tears * ops.len() as u64)).max(16),
    );
    let mut cuts: Vec<(u32, u64)> = ops
        .iter()
        .flat_map(|o| (1..=tears).map(move |t| (o.number, t)))
        .collect();
    cuts.extend(
        erases
            .iter()
            .flat_map(|&e| (1000..1000 + erase_tears).map(move |t| (e, t))),
    );
    let total = cuts.len();
    let cuts = Mutex::new(cuts.into_iter());
    let failures = Mutex::new(Vec::new());
    let (tried, at_erase) = (AtomicUsize::new(0), AtomicUsize::new(0));
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                let mut nano = board(Options::default());
                loop {
                    let Some((op, tear)) = cuts.lock().unwrap().next() else {
                        break;
                    };
                    let (live, pressed) = session(&mut nano, &image, Some((op, tear)));
                    let result = if nano.seen().cut != Some(op) {
                        Err(format!("the power cut did not fall at operation {op}"))
                    } else {
                        verdict(&live, pressed, &played, &pulled(&mut nano))
                    };
                    tried.fetch_add(1, Ordering::Relaxed);
                    if erases.contains(&op) {
                        at_erase.fetch_add(1, Ordering::Relaxed);
                    }
                    if let Err(e) = result {
                        failures
                            .lock()
                            .unwrap()
                            .push(format!("cut at {op} (tear {tear}): {e}"));
                    }
                }
            });
        }
    });
    let _ = std::fs::remove_file(&image);
    let failures = failures.into_inner().unwrap();
    println!(
        "power cuts: {} of {total} tried ({} at the sector erase, the rest at page programs) over {} operations; {} with a lost or wrong game; {:?}",
        tried.into_inner(),
        at_erase.into_inner(),
        ops.len(),
        failures.len(),
        started_at.elapsed()
    );
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(total >= 100, "{total} cuts");
}
