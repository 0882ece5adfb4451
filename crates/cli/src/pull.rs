//! `twenty48 pull`: games off a device log (a capture file or a live serial port) into
//! verified `.t48` files. The decoding, checking and writing is `twenty48_devicelog::pull`;
//! this module reads the arguments, the bytes, and prints.

use std::fmt::Write as _;
use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result};
use clap::{ArgGroup, Args};
use twenty48_devicelog::pull::{Progress, Pulled, Puller};
use twenty48_devicelog::{Damage, DamageKind, Event};

use crate::input::{self, EXIT_FAILED};
use crate::progress::Progress as Bar;

/// Pull games from a device: decode its defmt log with the firmware's ELF, replay every
/// game on the host checking each move's score and hash, and write one verified .t48 per
/// game into DIR.
///
/// A game with missing or corrupted frames is reported by game and move number and is not
/// written as if complete (--keep-partial writes its verified beginning, marked
/// incomplete). From a serial port it keeps going across games until Ctrl-C.
#[derive(Debug, Args)]
#[command(
    group(ArgGroup::new("source").required(true).args(["port", "capture"])),
    after_help = "\
Examples:
  # A capture of the QEMU firmware's UART (see docs/firmware.md):
  twenty48 pull --elf crates/firmware/target/thumbv6m-none-eabi/release/twenty48-qemu \\
      --capture capture.bin -o games/
  # Live from the Arduino Nano RP2040 Connect; Ctrl-C to stop:
  twenty48 pull --elf twenty48-nano-rp2040 --port /dev/ttyACM0 -o games/

Exit status: 0 every game verified, 1 a game damaged or unverified, 2 input unreadable."
)]
pub struct PullArgs {
    /// The firmware ELF the device runs: its defmt table decodes the log.
    #[arg(long, value_name = "FIRMWARE.elf")]
    pub elf: PathBuf,
    /// Read live from this serial port (the board's USB serial), until Ctrl-C.
    #[arg(long, value_name = "PORT")]
    pub port: Option<String>,
    /// Baud rate of the serial port (USB serial ignores it).
    #[arg(long, value_name = "N", default_value_t = 115_200, requires = "port")]
    pub baud: u32,
    /// Read a capture of the log bytes from FILE, or from standard input with `-`.
    #[arg(long, value_name = "FILE")]
    pub capture: Option<PathBuf>,
    /// Directory for the `.t48` files (created if missing).
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
    /// Also write damaged or unfinished games: their verified moves, marked incomplete.
    #[arg(long)]
    pub keep_partial: bool,
    /// Print the report as JSON on standard output.
    #[arg(long)]
    pub json: bool,
}

/// Runs `twenty48 pull`: exit status 0 when every game verified, 1 when a game did not
/// (or frames of a game were lost); an error (status 2) when the ELF, the capture or the
/// port cannot be read.
pub fn run(args: PullArgs) -> Result<ExitCode> {
    let elf = input::read(&args.elf)?;
    let puller = Puller::new(&elf, &args.output, args.keep_partial)
        .with_context(|| format!("cannot use {} as the firmware ELF", args.elf.display()))?;
    let mut pull = Pull {
        puller,
        report: Report::default(),
        json: args.json,
        bar: Bar::spinner("pulling", "moves"),
    };
    if let Some(port) = &args.port {
        pull.live(port, args.baud, &args.output)?;
    } else if let Some(capture) = &args.capture {
        pull.capture(capture)?;
    }
    pull.finish()?;
    pull.bar.finish();
    if args.json {
        println!("{}", serde_json::to_string_pretty(&pull.report.json())?);
    } else {
        eprintln!("{}", pull.report.summary());
    }
    Ok(if pull.report.all_verified() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_FAILED)
    })
}

/// A pull under way: the library's puller and what it reported.
struct Pull {
    puller: Puller,
    report: Report,
    json: bool,
    /// Moves received, with rate, on a terminal; hidden elsewhere.
    bar: Bar,
}

impl Pull {
    /// A line for people (above the bar), unless the output is JSON.
    fn say(&self, line: impl AsRef<str>) {
        if !self.json {
            self.bar.println(line);
        }
    }

    fn feed(&mut self, bytes: &[u8]) -> Result<()> {
        let progress = self.puller.feed(bytes).context("writing a .t48 file")?;
        self.handle(progress);
        Ok(())
    }

    fn finish(&mut self) -> Result<()> {
        let progress = self.puller.finish().context("writing a .t48 file")?;
        self.handle(progress);
        Ok(())
    }

    fn handle(&mut self, progress: Vec<Progress>) {
        for step in progress {
            match step {
                Progress::Started(Event::GameStarted {
                    number,
                    rules,
                    seed,
                    ..
                }) => {
                    self.report.started = true;
                    let name = rules.preset().map_or("custom", |p| p.name());
                    self.say(format!(
                        "game {number}: started, {name} rules ({rules}), seed {seed}"
                    ));
                }
                Progress::Moved { game, seq } => {
                    self.bar.inc(1);
                    self.bar.message(format!("game {game}, move {seq}"));
                    // Without a bar (not a terminal), a line every 25 moves shows progress.
                    if !self.bar.is_visible() && seq % 25 == 0 {
                        self.say(format!("game {game}: {seq} moves"));
                    }
                }
                Progress::Pulled(pulled) => {
                    self.say(describe(&pulled));
                    self.report.games.push(*pulled);
                }
                Progress::Damaged(damage) => {
                    self.say(format!("damage: {damage}"));
                    self.report.damage.push((damage, self.report.started));
                }
                _ => {}
            }
        }
    }

    /// Reads a whole capture file (or standard input).
    fn capture(&mut self, path: &Path) -> Result<()> {
        let mut source: Box<dyn Read> = if path == Path::new("-") {
            Box::new(io::stdin().lock())
        } else {
            Box::new(File::open(path).with_context(|| format!("cannot read {}", path.display()))?)
        };
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            let n = match source.read(&mut buf) {
                Ok(0) => return Ok(()),
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
            };
            self.feed(&buf[..n])?;
        }
    }

    /// Reads a serial port until Ctrl-C, reopening it when the board goes away. Every byte
    /// received is also appended to `DIR/capture-SECONDS.bin`, so nothing is lost.
    fn live(&mut self, port: &str, baud: u32, out: &Path) -> Result<()> {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst))
            .context("cannot handle Ctrl-C")?;
        fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
        let secs = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let raw_path = out.join(format!("capture-{secs}.bin"));
        let mut raw = File::create(&raw_path)
            .with_context(|| format!("cannot create {}", raw_path.display()))?;
        let mut serial = open_port(port, baud)?;
        self.say(format!(
            "reading {port} (raw bytes kept in {}); Ctrl-C to stop",
            raw_path.display()
        ));
        let mut buf = [0u8; 4096];
        while !stop.load(Ordering::SeqCst) {
            match serial.read(&mut buf) {
                Ok(0) => {}
                Ok(n) => {
                    raw.write_all(&buf[..n])
                        .and_then(|()| raw.flush())
                        .with_context(|| format!("cannot write {}", raw_path.display()))?;
                    self.feed(&buf[..n])?;
                }
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::TimedOut | io::ErrorKind::Interrupted
                    ) => {}
                Err(e) => {
                    self.say(format!("{port}: {e}; waiting for the board to come back"));
                    serial = loop {
                        if stop.load(Ordering::SeqCst) {
                            return Ok(());
                        }
                        std::thread::sleep(Duration::from_secs(1));
                        if let Ok(s) = open_port(port, baud) {
                            break s;
                        }
                    };
                }
            }
        }
        self.say(format!("stopped after {} bytes", self.puller.bytes_fed()));
        Ok(())
    }
}

fn open_port(port: &str, baud: u32) -> Result<Box<dyn serialport::SerialPort>> {
    serialport::new(port, baud)
        .timeout(Duration::from_millis(200))
        .open()
        .with_context(|| format!("cannot open serial port {port}"))
}

fn describe(pulled: &Pulled) -> String {
    let game = &pulled.game;
    let mut line = match &pulled.check.problem {
        None => format!(
            "game {}: verified, {} moves, score {}, {}",
            game.number, pulled.check.verified_moves, pulled.check.score, pulled.check.status
        ),
        Some(problem) => format!("{problem}"),
    };
    match &pulled.path {
        Some(path) if pulled.is_verified() => {
            let _ = write!(line, " -> {}", path.display());
        }
        Some(path) => {
            let _ = write!(
                line,
                "; its first {} moves -> {} (partial)",
                pulled.check.verified_moves,
                path.display()
            );
        }
        None if !pulled.is_verified() => {
            line.push_str("; not written (--keep-partial keeps the verified moves)")
        }
        None => {}
    }
    line
}

/// Everything a pull found.
#[derive(Default)]
struct Report {
    games: Vec<Pulled>,
    /// Damaged stretches, and whether a game had started before each.
    damage: Vec<(Damage, bool)>,
    started: bool,
}

impl Report {
    /// Whether every game verified and nothing of a game was lost. Damage after the first
    /// game started counts, and so does a frame of a game whose start was lost or a frame
    /// that makes no sense, wherever it is; unreadable noise before the first game alone
    /// does not.
    fn all_verified(&self) -> bool {
        let unverified = self.games.iter().any(|p| !p.is_verified());
        let lost = self.damage.iter().any(|(d, after_start)| {
            *after_start || !matches!(d.kind, DamageKind::Malformed | DamageKind::Unterminated)
        });
        let nothing = self.games.is_empty() && !self.damage.is_empty();
        !(unverified || lost || nothing)
    }

    fn summary(&self) -> String {
        let verified = self.games.iter().filter(|p| p.is_verified()).count();
        let written = self.games.iter().filter(|p| p.path.is_some()).count();
        format!(
            "{} games: {verified} verified, {} damaged or unfinished; {written} files written; {} damaged stretches in the capture",
            self.games.len(),
            self.games.len() - verified,
            self.damage.len()
        )
    }

    fn json(&self) -> serde_json::Value {
        let games: Vec<serde_json::Value> = self
            .games
            .iter()
            .map(|p| {
                let g = &p.game;
                serde_json::json!({
                    "number": g.number,
                    "seed": g.seed,
                    "rules": g.rules.preset().map_or("custom", |r| r.name()),
                    "moves_received": g.moves.len(),
                    "verified_moves": p.check.verified_moves,
                    "verified": p.is_verified(),
                    "problem": p.check.problem.as_ref().map(|e| e.to_string()),
                    "file": p.path.as_ref().map(|f| f.display().to_string()),
                    "complete": p.path.is_some() && p.is_verified(),
                })
            })
            .collect();
        let damage: Vec<serde_json::Value> = self
            .damage
            .iter()
            .map(|(d, _)| {
                serde_json::json!({
                    "offset": d.offset,
                    "len": d.len,
                    "game": d.game,
                    "report": d.to_string(),
                })
            })
            .collect();
        serde_json::json!({
            "games": games,
            "damage": damage,
            "all_verified": self.all_verified(),
        })
    }
}
