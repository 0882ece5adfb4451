//! End to end, protocol v2: the firmware under QEMU plays scripted games into its flash
//! store, the host decodes, verifies and pulls them: every bit of a capture flipped, power
//! cut at about 75 flash operations (every one with `T48_QEMU_CUTS=all`, as `just
//! firmware-soak` runs it), the link stalled for a whole session, bad host requests. Needs
//! `qemu-system-arm` and the `thumbv6m-none-eabi` target; fails (never skips) when either is
//! missing. Protocol v1 is tested from a fixture in `v1.rs`.

mod v2 {
    pub mod plan;
    pub mod pulls;
}

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use embedded_storage::nor_flash::{ErrorType, NorFlash, ReadNorFlash};
use twenty48_devicelog::pull::{Outcome, Progress, Pulled};
use twenty48_devicelog::{check, decode_capture, Capture, DamageKind, DeviceFact, DeviceGame};
use twenty48_deviceproto::QEMU_DEVICE_ID;
use twenty48_devicestore::{GameStart, MemFlash, Store};
use twenty48_engine::{Direction, Game, Rules};
use twenty48_movelog::MoveLog;
use v2::plan::{plan, quick_win, stalled_link_games, Planned};
use v2::pulls::PullOptions;

/// How long one QEMU session may take before the test calls it hung.
const QEMU_TIMEOUT: Duration = Duration::from_secs(60);

fn firmware_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../firmware")
}

/// The copy of the QEMU firmware the tests run (a rebuild in the firmware tree while the
/// tests run must not change the ELF under them), named by its contents: one file per
/// firmware build, shared by test runs, in cargo's scratch directory for tests (target/tmp).
fn elf_path() -> &'static Path {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        firmware_elf().hash(&mut h);
        Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("t48-twenty48-qemu-{:016x}.elf", h.finish()))
    })
}

/// Builds the QEMU firmware once (release, thumbv6m) and returns its ELF.
fn firmware_elf() -> &'static [u8] {
    static ELF: OnceLock<Vec<u8>> = OnceLock::new();
    ELF.get_or_init(|| {
        let dir = firmware_dir();
        let status = Command::new(env!("CARGO"))
            .args(["build", "--release", "-p", "twenty48-firmware-qemu"])
            .current_dir(&dir)
            // The firmware workspace has its own target, flags and target dir.
            .env("CARGO_TARGET_DIR", dir.join("target"))
            .env_remove("RUSTFLAGS")
            .env_remove("CARGO_ENCODED_RUSTFLAGS")
            .env_remove("CARGO_BUILD_TARGET")
            .status()
            .expect("cargo runs");
        assert!(
            status.success(),
            "building the firmware failed (is the thumbv6m-none-eabi target installed? \
             `rustup target add thumbv6m-none-eabi`)"
        );
        let built = dir.join("target/thumbv6m-none-eabi/release/twenty48-qemu");
        std::fs::read(&built).unwrap_or_else(|e| panic!("reading the ELF: {e}"))
    })
}

/// A scratch file or directory name unique to this test process.
fn scratch(name: &str) -> PathBuf {
    static N: AtomicU32 = AtomicU32::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("t48-fw2-{}-{n}-{name}", std::process::id()))
}

/// One QEMU session: its exit status and what came out of UART0.
struct Run {
    status: i32,
    capture: Vec<u8>,
}

/// Runs the firmware under QEMU on the flash file `flash` (`sectors` x 4 KB), with `script`
/// on UART0, a power cut at flash operation `cut.0` (torn with seed `cut.1`) if given.
///
/// # Panics
/// When `qemu-system-arm` is missing or hangs (it is killed first).
fn qemu(script: &[u8], flash: &Path, sectors: u32, cut: Option<(u32, u64)>) -> Run {
    let elf = elf_path();
    if !elf.exists() {
        // Written under a temporary name, then renamed: parallel tests never see half a file.
        static PART: AtomicU32 = AtomicU32::new(0);
        let part = PART.fetch_add(1, Ordering::Relaxed);
        let tmp = elf.with_extension(format!("{}-{part}.part", std::process::id()));
        std::fs::write(&tmp, firmware_elf()).expect("a copy of the ELF");
        std::fs::rename(&tmp, elf).expect("a copy of the ELF");
    }
    let mut config = format!(
        "enable=on,target=native,arg=twenty48-qemu,arg=flash={},arg=sectors={sectors}",
        flash.display()
    );
    if let Some(k) = cut {
        let _ = write!(config, ",arg=cut={},arg=tear={}", k.0, k.1);
    }
    let mut child = match Command::new("qemu-system-arm")
        .args(["-M", "lm3s6965evb", "-display", "none", "-monitor", "none"])
        .args(["-semihosting-config", &config, "-serial", "stdio"])
        .arg("-kernel")
        .arg(elf)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
    {
        Ok(child) => child,
        Err(e) => panic!(
            "qemu-system-arm could not be started ({e}). The firmware end-to-end test needs \
             it and never skips: install it with `apt-get install qemu-system-arm`."
        ),
    };
    let mut stdin = child.stdin.take().expect("stdin");
    let script = script.to_vec();
    let writer = std::thread::spawn(move || {
        // QEMU may exit (script end, power cut) before reading everything.
        let _ = stdin.write_all(&script);
    });
    let mut stdout = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = stdout.read_to_end(&mut out);
        out
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for QEMU") {
            break status;
        }
        if start.elapsed() > QEMU_TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("QEMU did not exit within {QEMU_TIMEOUT:?}");
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    writer.join().expect("writer");
    let capture = reader.join().expect("reader");
    Run {
        status: status.code().unwrap_or(-1),
        capture,
    }
}

/// The session most tests decode: three games on a fresh flash (won; a start-screen
/// button game abandoned by `{new}`; classic ended by `{end}`), then `{pull}`.
fn session() -> &'static (Vec<Planned>, Vec<u8>) {
    static SESSION: OnceLock<(Vec<Planned>, Vec<u8>)> = OnceLock::new();
    SESSION.get_or_init(|| {
        use Direction::*;
        let mut abandoned = plan("R", Rules::ARDUINO, 1, [Down, Right, Left, Up], 15);
        abandoned.close = "";
        let planned = vec![
            plan(
                "{new seed=11 rules=arduino win=5}",
                quick_win(5),
                11,
                [Left, Down, Right, Up],
                usize::MAX,
            ),
            abandoned,
            plan(
                "{new seed=2024 rules=classic}",
                Rules::CLASSIC,
                2024,
                [Up, Left, Right, Down],
                20,
            ),
        ];
        let mut script = String::from("# twenty48 protocol v2 end-to-end script\n");
        for p in &planned {
            script.push_str(&p.script());
        }
        script.push_str("{pull}\nq\n");
        let flash = scratch("session.flash");
        let run = qemu(script.as_bytes(), &flash, 8, None);
        let _ = std::fs::remove_file(&flash);
        assert_eq!(run.status, 0, "the firmware failed under QEMU");
        (planned, run.capture)
    })
}

fn decoded(bytes: &[u8]) -> Capture {
    decode_capture(firmware_elf(), bytes).expect("the ELF has a defmt table")
}

fn letters(dirs: impl IntoIterator<Item = Direction>) -> String {
    dirs.into_iter().map(|d| d.letter()).collect()
}

/// A text rendering of a decoded capture, for snapshots: no byte offsets (they move with
/// every firmware build), everything else.
fn render(capture: &Capture) -> String {
    let mut out = String::new();
    for fact in &capture.facts {
        let _ = writeln!(out, "device: {fact}");
    }
    for game in &capture.games {
        let result = check(game);
        let _ = writeln!(
            out,
            "device {:016x} game {} seed {} rules {}",
            game.dev.unwrap_or(0),
            game.number,
            game.seed,
            game.rules
        );
        let _ = writeln!(
            out,
            "  moves {}: {}",
            game.moves.len(),
            letters(game.moves.iter().map(|m| m.dir))
        );
        match &game.end {
            Some(end) => {
                let _ = writeln!(
                    out,
                    "  {} {} score {} moves {} hash {}",
                    if end.partial { "partial" } else { "end" },
                    end.status,
                    end.score.map_or("-".into(), |s| s.to_string()),
                    end.moves,
                    end.hash.map_or("-".into(), |h| format!("{h:016x}"))
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
    for m in &capture.messages {
        let _ = writeln!(out, "message: {}", m.text);
    }
    out
}

#[test]
fn every_game_played_under_qemu_verifies_live_and_from_the_store() {
    let (planned, bytes) = session();
    let capture = decoded(bytes);
    assert!(capture.damage.is_empty(), "damage: {:?}", capture.damage);
    // Each game twice: live, then in the pull reply.
    assert_eq!(capture.games.len(), 2 * planned.len());
    for (i, game) in capture.games.iter().enumerate() {
        let p = &planned[i % planned.len()];
        assert_eq!(game.dev, Some(QEMU_DEVICE_ID));
        assert_eq!(game.number as usize, i % planned.len() + 1);
        assert_eq!((game.rules, game.seed), (p.rules, p.seed));
        let dirs: Vec<Direction> = game.moves.iter().map(|m| m.dir).collect();
        assert_eq!(dirs, p.moves, "game {}", game.number);
        assert!(check(game).is_verified(), "game {}", game.number);
        let end = game.end.unwrap();
        assert!(!end.partial);
        assert_eq!(end.check, Some(p.end_check(game.number)));
        assert_eq!(end.hash, Some(p.game.state_hash()));
    }
    assert!(matches!(
        capture.facts[..],
        [
            DeviceFact::Hello { next: 1, .. },
            DeviceFact::PullBegin { games: 3, .. },
            DeviceFact::PullDone { sent: 3, .. }
        ]
    ));
    insta::assert_snapshot!("device_log", render(&capture));
}

#[test]
fn pull_writes_each_game_once_named_by_device_and_number() {
    let (planned, bytes) = session();
    let dir = scratch("pull");
    let options = PullOptions {
        keep_partial: false,
        defer: false,
    };
    let mut puller = v2::pulls::open(firmware_elf(), &dir, options);
    // Fed in small pieces, as from a serial port.
    let mut pulled = Vec::new();
    for chunk in bytes.chunks(7) {
        pulled.extend(games_pulled(puller.feed(chunk, 0).unwrap()));
    }
    pulled.extend(games_pulled(puller.finish().unwrap()));
    let summary = puller.summary();
    assert!(summary.is_ok(), "{summary:?}");
    assert_eq!(summary.received, 3);
    assert_eq!(
        summary.duplicates.len(),
        3,
        "the pull reply repeats the live games"
    );
    for (n, p) in planned.iter().enumerate() {
        let path = dir.join(format!("7e57000000000001-g{:06}.t48", n + 1));
        let log = MoveLog::decode(&std::fs::read(&path).unwrap()).unwrap();
        assert!(log.complete);
        assert_eq!((log.rules, log.seed), (p.rules, p.seed));
        assert_eq!(log.moves, p.moves);
        assert_eq!(log.claims.final_hash, p.game.state_hash());
    }
    let acks: Vec<(u32, u32)> = pulled
        .iter()
        .filter_map(|p| p.ack)
        .map(|a| (a.game, a.check))
        .collect();
    assert_eq!(acks.len(), 6, "every copy on disk is acknowledged");
    for (game, c) in acks {
        assert_eq!(c, planned[game as usize - 1].end_check(game));
    }
    // A second pull of the same bytes writes nothing and says so.
    let mut again = v2::pulls::open(firmware_elf(), &dir, options);
    let mut pulled = games_pulled(again.feed(bytes, 0).unwrap());
    pulled.extend(games_pulled(again.finish().unwrap()));
    assert!(pulled
        .iter()
        .all(|p| matches!(p.outcome, Outcome::AlreadyPulled | Outcome::Duplicate)));
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 3);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The games a pull's progress closed, with what became of them (not those deferred).
fn games_pulled(progress: Vec<Progress>) -> Vec<Pulled> {
    progress
        .into_iter()
        .filter_map(|p| match p {
            Progress::Pulled(p) if p.outcome != Outcome::Deferred => Some(*p),
            _ => None,
        })
        .collect()
}

/// The logs a pull of `capture` would write as complete that are not the game played:
/// each game's complete log against the plan of its number.
fn wrong_complete_logs(capture: &Capture, planned: &[Planned]) -> usize {
    capture
        .games
        .iter()
        .filter_map(|g: &DeviceGame| g.to_movelog(false).map(|log| (g, log)))
        .filter(|(_, log)| log.complete)
        .filter(|(g, log)| {
            let plan = planned.get((g.number as usize).wrapping_sub(1));
            !plan.is_some_and(|p| {
                g.dev == Some(QEMU_DEVICE_ID)
                    && log.rules == p.rules
                    && log.seed == p.seed
                    && log.moves == p.moves
            })
        })
        .count()
}

/// Every single-bit flip of every byte of a three-game capture (frames and separators): no
/// flip may give a complete log that differs from the game played.
#[test]
fn every_single_bit_flip_is_caught() {
    let (planned, bytes) = session();
    // The live part (hello and three games), up to the pull reply.
    let clean = decoded(bytes);
    let live_end = bytes
        .windows(1)
        .enumerate()
        .filter(|(_, w)| w[0] == 0)
        .map(|(i, _)| i + 1)
        .find(|&end| decoded(&bytes[..end]).games.len() == planned.len())
        .expect("the live games end before the pull reply");
    let live = &bytes[..live_end];
    assert_eq!(wrong_complete_logs(&clean, planned), 0);
    let (mut tried, mut wrong, mut caught_by_check) = (0u32, 0u32, 0u32);
    for i in 0..live.len() {
        for bit in 0..8 {
            let mut damaged = live.to_vec();
            damaged[i] ^= 1 << bit;
            let capture = decoded(&damaged);
            tried += 1;
            wrong += wrong_complete_logs(&capture, planned) as u32;
            if capture
                .damage
                .iter()
                .any(|d| d.kind == DamageKind::CheckMismatch)
            {
                caught_by_check += 1;
            }
        }
    }
    println!(
        "bit flips: {tried} tried over {} bytes, {wrong} wrong logs written as complete, \
         {caught_by_check} caught by a frame check",
        live.len()
    );
    assert_eq!(wrong, 0);
    assert!(tried >= 8 * 1000, "a multi-game capture: {tried} flips");
}

/// A NOR flash that notes which of its operations were sector erases.
struct Recorder {
    flash: MemFlash<Vec<u8>>,
    erases: Vec<u32>,
}

impl ErrorType for Recorder {
    type Error = <MemFlash<Vec<u8>> as ErrorType>::Error;
}

impl ReadNorFlash for Recorder {
    const READ_SIZE: usize = 1;
    fn read(&mut self, offset: u32, bytes: &mut [u8]) -> Result<(), Self::Error> {
        self.flash.read(offset, bytes)
    }
    fn capacity(&self) -> usize {
        self.flash.capacity()
    }
}

impl NorFlash for Recorder {
    const WRITE_SIZE: usize = 1;
    const ERASE_SIZE: usize = 4096;
    fn erase(&mut self, from: u32, to: u32) -> Result<(), Self::Error> {
        let before = self.flash.ops();
        self.flash.erase(from, to)?;
        self.erases.extend(before + 1..=self.flash.ops());
        Ok(())
    }
    fn write(&mut self, offset: u32, bytes: &[u8]) -> Result<(), Self::Error> {
        self.flash.write(offset, bytes)
    }
}

/// What the host knows of a scripted session from replaying its store actions on the
/// store's own code over an emulated flash: for each game the operation after which it was
/// begun, each move committed, and its end stored; the erase operations; the acks.
#[derive(Default)]
struct Timeline {
    begun: Vec<u32>,
    committed: Vec<Vec<u32>>,
    ended: Vec<Option<u32>>,
    acked: Vec<Option<u32>>,
    erases: Vec<u32>,
    ops: u32,
}

/// The power-cut session, in two phases on a 4-sector flash: a prefill (played once,
/// uncut) fills the ring to just before its first reclaim; the session that is cut then
/// plays more games across two reclaims (sector erases). Every game is acknowledged after
/// it ends and a `{pull}` comes now and then, so old sectors can be erased; the last game
/// is in progress when the script ends. Short games and some long ones (chunks, CONT).
struct PowerSession {
    planned: Vec<Planned>,
    /// The prefill's script (games `..first`).
    prefill: String,
    /// The flash after the prefill.
    prefilled: Vec<u8>,
    /// The script that is cut (games `first..`).
    script: String,
    /// The first game of the cut script (0-based).
    first: usize,
    /// Operations of the cut script, counted from its boot.
    timeline: Timeline,
}

fn sim_store(bytes: Vec<u8>) -> Store<Recorder> {
    Store::open(Recorder {
        flash: MemFlash::new(bytes).strict(),
        erases: Vec::new(),
    })
    .unwrap_or_else(|_| panic!("the store opens"))
}

/// Plays `planned[range]` on the simulated store, appending their script; the last of
/// `planned` stays in progress. Returns the timeline (ops counted from the store's open).
fn simulate(
    planned: &[Planned],
    range: std::ops::Range<usize>,
    sim: &mut Store<Recorder>,
    script: &mut String,
) -> Timeline {
    let ops = |s: &mut Store<Recorder>| s.flash().flash.ops();
    let mut t = Timeline::default();
    let last = planned.len() - 1;
    for i in range {
        let p = &planned[i];
        let number = i as u32 + 1;
        sim.begin_game(&GameStart {
            rules: p.rules,
            seed: p.seed,
        })
        .unwrap_or_else(|_| panic!("game {number} begins in the store"));
        t.begun.push(ops(sim));
        // The last game: in progress when the script ends, after the presses that make its
        // first two moves.
        let (moves, presses) = if i == last {
            let mut host = Game::new(p.rules, p.seed).unwrap();
            let mut n = 0;
            while host.move_count() < 2 {
                host.play(p.presses[n]).unwrap();
                n += 1;
            }
            (&p.moves[..2], &p.presses[..n])
        } else {
            (&p.moves[..], &p.presses[..])
        };
        let mut committed = Vec::new();
        for &d in moves {
            sim.record_move(d)
                .unwrap_or_else(|_| panic!("game {number} moves"));
            committed.push(ops(sim));
        }
        t.committed.push(committed);
        if i == last {
            let presses: String = presses.iter().map(|d| d.letter()).collect();
            let _ = write!(script, "{}\n{presses}\n", p.start);
            t.ended.push(None);
            t.acked.push(None);
            break;
        }
        sim.end_game(&p.ending())
            .unwrap_or_else(|_| panic!("game {number} ends"));
        t.ended.push(Some(ops(sim)));
        script.push_str(&p.script());
        // A pull now and then (each reads the whole store: a few only, for time).
        if i % 30 == 29 {
            script.push_str("{pull}\n");
        }
        let _ = writeln!(script, "{{ack {number} {}}}", p.end_check(number));
        sim.ack(number)
            .unwrap_or_else(|_| panic!("game {number} is acknowledged"));
        t.acked.push(Some(ops(sim)));
    }
    script.push_str("q\n");
    t.ops = ops(sim);
    t.erases = sim.flash().erases.clone();
    t
}

fn power_session() -> &'static PowerSession {
    static S: OnceLock<PowerSession> = OnceLock::new();
    S.get_or_init(|| {
        use Direction::*;
        let plan_game = |i: u64| {
            if i % 40 == 5 {
                plan(
                    &format!("{{new seed={} rules=classic}}", 500 + i),
                    Rules::CLASSIC,
                    500 + i,
                    [Up, Left, Right, Down],
                    70 + i as usize / 2,
                )
            } else {
                plan(
                    &format!("{{new seed={} rules=arduino}}", 100 + i),
                    Rules::ARDUINO,
                    100 + i,
                    [Left, Down, Right, Up],
                    3 + (i % 4) as usize,
                )
            }
        };
        let all: Vec<Planned> = (0..400).map(plan_game).collect();
        // Where the erases fall in one long session: the prefill stops a few games before
        // the first, the cut session a few games after the second.
        let mut probe = sim_store(vec![0xFF; 4 * 4096]);
        let mut erase_games = Vec::new();
        for (i, p) in all.iter().enumerate() {
            let before = probe.flash().erases.len();
            probe
                .begin_game(&GameStart {
                    rules: p.rules,
                    seed: p.seed,
                })
                .unwrap_or_else(|_| panic!("begin"));
            for &d in &p.moves {
                probe.record_move(d).unwrap_or_else(|_| panic!("move"));
            }
            probe
                .end_game(&p.ending())
                .unwrap_or_else(|_| panic!("end"));
            probe.ack(i as u32 + 1).unwrap_or_else(|_| panic!("ack"));
            if probe.flash().erases.len() > before {
                erase_games.push(i);
            }
            if erase_games.len() == 2 {
                break;
            }
        }
        assert_eq!(erase_games.len(), 2, "the ring wraps: {erase_games:?}");
        let first = erase_games[0] - 4;
        let planned: Vec<Planned> = all[..erase_games[1] + 6].to_vec();
        let mut sim = sim_store(vec![0xFF; 4 * 4096]);
        let mut prefill = String::new();
        // Not the last game: the prefill ends with every game ended and acknowledged.
        let mut prefill_plan = planned[..first].to_vec();
        prefill_plan.push(planned[first].clone());
        simulate(&prefill_plan, 0..first, &mut sim, &mut prefill);
        let prefilled = sim.into_flash().flash.into_inner();
        let mut sim = sim_store(prefilled.clone());
        let mut script = String::new();
        let timeline = simulate(&planned, first..planned.len(), &mut sim, &mut script);
        PowerSession {
            planned,
            prefill,
            prefilled,
            script,
            first,
            timeline,
        }
    })
}

/// A game of the restart pull, against what was played and what the host may expect.
fn check_after_cut(k: u32, session: &PowerSession, capture: &Capture) -> Result<(), String> {
    let (planned, t, first) = (&session.planned, &session.timeline, session.first);
    let mut got: BTreeMap<u32, &DeviceGame> = BTreeMap::new();
    for g in &capture.games {
        if got.insert(g.number, g).is_some() {
            return Err(format!("game {} sent twice", g.number));
        }
    }
    if !capture.damage.is_empty() {
        return Err(format!("damage: {:?}", capture.damage));
    }
    for (number, game) in &got {
        if *number as usize > planned.len() {
            return Err(format!("game {number} was never played"));
        }
        // Prefilled games (acknowledged before the cut session): whole, if still there.
        if (*number as usize) <= first {
            let p = &planned[*number as usize - 1];
            let log = game.to_movelog(false);
            if !log.is_some_and(|l| l.complete && l.moves == p.moves && l.seed == p.seed) {
                return Err(format!("prefilled game {number} is not whole"));
            }
        }
    }
    for (i, p) in planned.iter().enumerate().skip(first) {
        let number = i as u32 + 1;
        let game = got.get(&number);
        let i = i - first;
        let acked = t.acked[i].is_some_and(|op| op < k);
        let begun = t.begun[i] < k;
        let Some(game) = game else {
            // Only a game acknowledged before the cut may be gone (reclaimed), or one whose
            // GAME record the cut tore (nothing of it committed).
            let committed = t.committed[i].iter().filter(|&&op| op < k).count();
            if acked || (!begun) || (t.begun[i] == k && committed == 0) || t.begun[i] >= k {
                continue;
            }
            return Err(format!("game {number} lost (begun at op {})", t.begun[i]));
        };
        if game.dev != Some(QEMU_DEVICE_ID) || game.rules != p.rules || game.seed != p.seed {
            return Err(format!("game {number}: another game's start"));
        }
        let result = check(game);
        if let Some(problem) = result.problem {
            return Err(format!("game {number}: {problem}"));
        }
        let log = game.to_movelog(false).expect("verified");
        let ended = t.ended[i].is_some_and(|op| op < k);
        if log.complete {
            if log.moves != p.moves[..] {
                return Err(format!(
                    "game {number}: a complete log that is not the game"
                ));
            }
            // A torn END may have landed; a complete log before its END began cannot be.
            if !ended && t.ended[i] != Some(k) {
                return Err(format!("game {number}: complete before its end was stored"));
            }
        } else {
            if !game.is_partial() {
                return Err(format!("game {number}: incomplete but not partial"));
            }
            if ended {
                return Err(format!("game {number}: stored whole, sent partial"));
            }
            let committed = t.committed[i].iter().filter(|&&op| op < k).count();
            let n = log.moves.len();
            // The move in flight at the cut may or may not have committed.
            if !(n == committed || (n == committed + 1 && t.committed[i].get(n - 1) == Some(&k)))
                || log.moves[..] != p.moves[..n]
            {
                return Err(format!(
                    "game {number}: partial of {n} moves, {committed} committed before the cut"
                ));
            }
        }
    }
    Ok(())
}

/// Power cut at flash operations (program and erase; see [`qemu_cuts`]) of a multi-game session
/// with pulls and acks; after each, QEMU restarts on the same flash and `{pull all}` must
/// give every finished game whole, the interrupted one a verified prefix, nothing wrong,
/// nothing lost.
#[test]
fn power_cuts_lose_at_most_the_move_in_flight() {
    let session = power_session();
    let (script, t) = (&session.script, &session.timeline);
    let started = Instant::now();
    // The prefill, once: the firmware's flash must be the host replay's, byte for byte.
    let prefilled = scratch("prefilled.flash");
    let run = qemu(session.prefill.as_bytes(), &prefilled, 4, None);
    assert_eq!(run.status, 0);
    assert!(
        std::fs::read(&prefilled).unwrap() == session.prefilled,
        "the firmware's store and the host replay of it agree on every flash byte"
    );
    let flash = scratch("uncut.flash");
    std::fs::copy(&prefilled, &flash).unwrap();
    let run = qemu(script.as_bytes(), &flash, 4, None);
    let _ = std::fs::remove_file(&flash);
    assert_eq!(run.status, 0);
    let uncut = decoded(&run.capture);
    let ops: u32 = uncut
        .messages
        .iter()
        .find_map(|m| m.text.strip_prefix("t48 qemu flash ops="))
        .and_then(|n| n.trim().parse().ok())
        .expect("the firmware reports its flash operations");
    assert_eq!(
        ops, t.ops,
        "the firmware's flash operations are the store's own (the host replay counts the same)"
    );
    assert_eq!(t.erases.len(), 2, "two reclaims: erases at {:?}", t.erases);
    assert!(uncut
        .facts
        .iter()
        .all(|f| !matches!(f, DeviceFact::Full { .. } | DeviceFact::Error { .. })));
    // Every erase, the operations around it, and evenly spread program operations (60 in
    // `just test`; `T48_QEMU_CUTS`: another number, or `all` for every operation, as
    // `just firmware-soak` does), each torn with the seed K; each erase torn four more ways
    // (other tear seeds: other prefixes of the sector erased).
    let spread = qemu_cuts(ops);
    let mut cuts: Vec<(u32, u64)> = t
        .erases
        .iter()
        .flat_map(|&e| [e - 1, e, e + 1])
        .map(|k| (k, k as u64))
        .collect();
    let step = (ops / spread.max(1)).max(1);
    cuts.extend((1..=ops).step_by(step as usize).map(|k| (k, k as u64)));
    for &e in &t.erases {
        cuts.extend((1..=4).map(|seed| (e, 0x7ea2_0000 + seed)));
    }
    cuts.sort_unstable();
    cuts.dedup();
    cuts.retain(|&(k, _)| (1..=ops).contains(&k));
    let cuts = std::sync::Mutex::new(cuts.into_iter());
    let failures = std::sync::Mutex::new(Vec::new());
    let tried = AtomicU32::new(0);
    let erase_cuts = AtomicU32::new(0);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let Some((k, tear)) = cuts.lock().unwrap().next() else {
                    break;
                };
                let flash = scratch(&format!("cut{k}-{tear}.flash"));
                std::fs::copy(&prefilled, &flash).unwrap();
                let cut = qemu(script.as_bytes(), &flash, 4, Some((k, tear)));
                let restart = qemu(b"{pull all}\nq\n", &flash, 4, None);
                let _ = std::fs::remove_file(&flash);
                tried.fetch_add(1, Ordering::Relaxed);
                if t.erases.contains(&k) {
                    erase_cuts.fetch_add(1, Ordering::Relaxed);
                }
                let verdict = if cut.status != 3 {
                    Err(format!("the cut run exited with {}", cut.status))
                } else if restart.status != 0 {
                    Err(format!("the restart exited with {}", restart.status))
                } else {
                    check_after_cut(k, session, &decoded(&restart.capture))
                };
                if let Err(e) = verdict {
                    let failure = format!("cut at op {k} (tear {tear}): {e}");
                    failures.lock().unwrap().push(failure);
                }
            });
        }
    });
    let _ = std::fs::remove_file(&prefilled);
    let failures = failures.into_inner().unwrap();
    let tried = tried.into_inner();
    println!(
        "power cuts: {tried} tried ({} at erase operations, {} erases in {ops} operations of \
         {} games), {} with a lost or wrong game, in {:?}",
        erase_cuts.into_inner(),
        t.erases.len(),
        session.planned.len() - session.first,
        failures.len(),
        started.elapsed()
    );
    assert!(tried >= spread.min(ops), "{tried} cuts");
    assert!(failures.is_empty(), "{failures:#?}");
}

/// How many program operations the power-cut test cuts at, spread evenly over the `ops` of
/// its session: 60, or `T48_QEMU_CUTS` (a number, or `all`).
fn qemu_cuts(ops: u32) -> u32 {
    match std::env::var("T48_QEMU_CUTS").as_deref() {
        Ok("all") => ops,
        Ok(n) => n
            .parse()
            .unwrap_or_else(|_| panic!("T48_QEMU_CUTS: a number or `all`, not {n:?}")),
        Err(_) => 60,
    }
}

/// The host away: a whole session with the link stalled (the ring fills, frames are
/// dropped and reported), then `{unstall}` and `{pull}`: every game arrives.
#[test]
fn a_stalled_link_loses_nothing_that_a_pull_cannot_bring_back() {
    let planned = stalled_link_games(4, 120);
    let mut script = String::from("{stall}\n");
    for p in &planned {
        script.push_str(&p.script());
    }
    script.push_str("{unstall}\n{pull}\nq\n");
    let flash = scratch("stall.flash");
    let run = qemu(script.as_bytes(), &flash, 8, None);
    let _ = std::fs::remove_file(&flash);
    assert_eq!(run.status, 0);
    let capture = decoded(&run.capture);
    let lost: u32 = capture
        .facts
        .iter()
        .map(|f| match f {
            DeviceFact::Lost { frames, .. } => *frames,
            _ => 0,
        })
        .sum();
    assert!(lost > 0, "the stalled ring dropped frames and said so");
    let dir = scratch("stall-out");
    let mut puller = v2::pulls::open(
        firmware_elf(),
        &dir,
        PullOptions {
            keep_partial: false,
            defer: true,
        },
    );
    puller.feed(&run.capture, 0).unwrap();
    puller.finish().unwrap();
    let summary = puller.summary();
    println!(
        "stalled link: {lost} frames dropped live; {} games received; notes: {:?}",
        summary.received, summary.notes
    );
    assert!(summary.is_ok(), "{summary:#?}");
    assert_eq!(summary.received, planned.len());
    for (n, p) in planned.iter().enumerate() {
        let path = dir.join(format!("7e57000000000001-g{:06}.t48", n + 1));
        let log = MoveLog::decode(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(log.moves, p.moves);
        assert!(log.complete);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Bad bytes from the host: garbage, half a request, an ack for no game, an ack with a
/// wrong check, an unknown and a too long request: each gets an error frame, and the store
/// still pulls intact afterwards.
#[test]
fn bad_host_requests_get_error_frames_and_leave_the_store_intact() {
    let (planned, _) = session();
    let mut script = String::new();
    for p in planned {
        script.push_str(&p.script());
    }
    let good = planned[0].end_check(1);
    let _ = write!(
        script,
        "\x01\x7f\u{ff}\x05*%$!}}}}\n{{pul\n{{ack 999 1}}\n{{ack 1 {}}}\n{{dance}}\n{{{}}}\n{{ack 1 x}}\n",
        good ^ 1,
        "a".repeat(60)
    );
    script.push_str("{pull all}\nq\n");
    let flash = scratch("bad.flash");
    let run = qemu(script.as_bytes(), &flash, 8, None);
    assert_eq!(run.status, 0);
    let capture = decoded(&run.capture);
    let errors: Vec<(u8, u32)> = capture
        .facts
        .iter()
        .filter_map(|f| match *f {
            DeviceFact::Error { code, game, .. } => Some((code, game)),
            _ => None,
        })
        .collect();
    println!("error frames: {errors:?}");
    assert!(errors.contains(&(3, 999)), "no such game: {errors:?}");
    assert!(errors.contains(&(4, 1)), "wrong check: {errors:?}");
    assert!(
        errors.iter().any(|e| e.0 == 1),
        "unknown request: {errors:?}"
    );
    assert!(
        errors.iter().any(|e| e.0 == 2),
        "too long / malformed: {errors:?}"
    );
    // The store is intact: a second boot pulls every game whole.
    let again = qemu(b"{pull all}\nq\n", &flash, 8, None);
    let _ = std::fs::remove_file(&flash);
    let capture = decoded(&again.capture);
    assert!(capture.damage.is_empty());
    assert_eq!(capture.games.len(), planned.len());
    assert_eq!(wrong_complete_logs(&capture, planned), 0);
    assert!(capture.games.iter().all(|g| check(g).is_verified()));
}

/// A pull cut off at any point (cable out, Ctrl-C) loses nothing and never writes a game
/// twice: the host acknowledges only what it wrote, so whatever it did not acknowledge comes
/// again in the next pull; what it wrote but whose ack was lost comes again and is recognised
/// as already pulled.
#[test]
fn a_pull_cut_off_anywhere_loses_nothing_and_writes_nothing_twice() {
    let (planned, _) = session();
    // The session's games on a fresh flash, then a pull reply of all three.
    let mut script = String::new();
    for p in planned {
        script.push_str(&p.script());
    }
    script.push_str("q\n");
    let flash = scratch("cutpull.flash");
    assert_eq!(qemu(script.as_bytes(), &flash, 8, None).status, 0);
    let reply = qemu(b"{pull}q", &flash, 8, None);
    assert_eq!(reply.status, 0);
    let bytes = &reply.capture;
    let options = PullOptions {
        keep_partial: false,
        defer: false,
    };
    let mut cuts = 0;
    // Cut points spread over the whole reply, first byte to last.
    let step = (bytes.len() / 23).max(1);
    for cut in (0..=bytes.len()).step_by(step) {
        for acks_lost in [false, true] {
            cuts += 1;
            let dir = scratch(&format!("cutpull-{cut}-{acks_lost}"));
            let mut first = v2::pulls::open(firmware_elf(), &dir, options);
            let mut first_pulled = games_pulled(first.feed(&bytes[..cut], 0).unwrap());
            first_pulled.extend(games_pulled(first.finish().unwrap()));
            let acks: Vec<(u32, u32)> = if acks_lost {
                Vec::new()
            } else {
                first_pulled
                    .iter()
                    .filter_map(|p| p.ack)
                    .map(|a| (a.game, a.check))
                    .collect()
            };
            // The device gets the acks that made it, then the next pull asks again.
            let copy = scratch(&format!("cutpull-{cut}-{acks_lost}.flash"));
            std::fs::copy(&flash, &copy).unwrap();
            let mut next = String::new();
            for (game, c) in &acks {
                let _ = write!(next, "{{ack {game} {c}}}");
            }
            next.push_str("{pull}q");
            let run = qemu(next.as_bytes(), &copy, 8, None);
            assert_eq!(run.status, 0);
            let mut second = v2::pulls::open(firmware_elf(), &dir, options);
            let mut second_pulled = games_pulled(second.feed(&run.capture, 0).unwrap());
            second_pulled.extend(games_pulled(second.finish().unwrap()));
            let summary = second.summary();
            assert!(summary.is_ok(), "cut at byte {cut}: {summary:?}");
            // Every game on disk exactly once, complete and the game played.
            let files: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
            assert_eq!(files.len(), planned.len(), "cut at byte {cut}");
            for (n, p) in planned.iter().enumerate() {
                let path = dir.join(format!("7e57000000000001-g{:06}.t48", n + 1));
                let log = MoveLog::decode(&std::fs::read(&path).unwrap()).unwrap();
                assert!(log.complete, "cut at byte {cut}");
                assert_eq!(log.moves, p.moves, "cut at byte {cut}");
            }
            // Nothing written twice: the second pull wrote only what the first did not.
            let written_first = first_pulled
                .iter()
                .filter(|p| p.outcome == Outcome::Written)
                .count();
            let written_second = second_pulled
                .iter()
                .filter(|p| p.outcome == Outcome::Written)
                .count();
            assert_eq!(
                written_first + written_second,
                planned.len(),
                "cut at byte {cut}"
            );
            let _ = std::fs::remove_file(&copy);
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }
    let _ = std::fs::remove_file(&flash);
    println!("pulls cut off at {cuts} points: no game lost, none written twice");
}

/// What a stored game costs on the wire (issue 25): a long game played, then pulled in a
/// second boot. Protocol v3 sends its moves as stored, 2 bits each, in frames of 256: the
/// bytes of those frames a move, and of the whole reply a move, are printed (the figures of
/// docs/firmware.md) and bounded. (Protocol v2 sent a move frame of 21 or 22 bytes a move.)
#[test]
fn a_stored_game_is_pulled_at_about_three_bits_a_move() {
    use twenty48_devicelog::{CaptureDecoder, Event};
    use Direction::*;
    // The first classic game of seeds 1.. that lasts 600 moves or more: whole frames of 256.
    let long = (1..)
        .map(|seed| {
            plan(
                &format!("{{new seed={seed} rules=classic}}"),
                Rules::CLASSIC,
                seed,
                [Down, Left, Right, Up],
                usize::MAX,
            )
        })
        .find(|p| p.moves.len() >= 600)
        .expect("a long game");
    let flash = scratch("long.flash");
    let live = qemu(format!("{}q\n", long.script()).as_bytes(), &flash, 8, None);
    assert_eq!(live.status, 0);
    let reply = qemu(b"{pull}q", &flash, 8, None);
    let _ = std::fs::remove_file(&flash);
    assert_eq!(reply.status, 0);
    let capture = decoded(&reply.capture);
    assert_eq!(capture.games.len(), 1);
    let game = &capture.games[0];
    assert!(check(game).is_verified());
    assert_eq!(
        game.moves.iter().map(|m| m.dir).collect::<Vec<_>>(),
        long.moves
    );
    // The bytes of the frames that carried moves (separator included).
    let mut decoder = CaptureDecoder::new(firmware_elf()).unwrap();
    let (mut start, mut move_bytes, mut frames) = (0, 0, 0);
    for (i, &b) in reply.capture.iter().enumerate() {
        if b == 0 {
            let events = decoder.feed(&reply.capture[start..=i]);
            if events
                .iter()
                .any(|e| matches!(e, Event::StoredMoves { .. }))
            {
                move_bytes += i + 1 - start;
                frames += 1;
            }
            start = i + 1;
        }
    }
    let moves = long.moves.len();
    let bits = |bytes: usize| 8.0 * bytes as f64 / moves as f64;
    println!(
        "a stored game of {moves} moves pulled: {move_bytes} bytes in {frames} moves frames \
         ({:.2} bits a move), {} bytes the whole reply ({:.2} bits a move)",
        bits(move_bytes),
        reply.capture.len(),
        bits(reply.capture.len())
    );
    assert_eq!(frames, moves.div_ceil(256));
    assert!(
        bits(move_bytes) < 3.2,
        "{move_bytes} bytes for {moves} moves"
    );
}
