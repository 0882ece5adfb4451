//! `twenty48 pull`: games off a device log (a capture file, or a conversation with the board
//! on a serial port) into verified `.t48` files. The decoding, checking and writing is
//! `twenty48_devicelog::pull`; this module reads the arguments, talks to the port, and prints.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result};
use clap::{ArgGroup, Args};
use twenty48_devicelog::pull::{Conversation, Outcome, PortOptions, Progress, Silence, State};
use twenty48_devicelog::{Directory, Event};

use crate::input::{self, EXIT_FAILED};
use crate::progress::Progress as Bar;
use crate::style::Ui;

mod firmware;
mod report;
mod source;

use report::{describe, Report};
use source::{open_capture, send, Source};

// The library's failed pull exits as every failed command of the CLI does.
const _: () = assert!(twenty48_devicelog::pull::EXIT_FAILED == EXIT_FAILED);

/// How much of the raw capture beside a port pull is kept, by default, in MiB.
const RAW_LIMIT_MIB: u64 = 64;

/// Pull games from a device: decode its defmt log with the firmware's ELF, replay every
/// game on the host checking each frame and each move's score and hash, and write one
/// verified .t48 per game into DIR.
///
/// Without --port or --capture it talks to the one board attached (`twenty48 ports` lists
/// them; with several it names them and stops). Without --elf it tries the ELFs `just
/// firmware` built (or those in the folder TWENTY48_ELF_DIR names) on the first frames,
/// uses the one whose defmt table decodes them, and says which.
///
/// From a serial port (protocol v3; a v2 board is read as well) it asks the board for every stored game not yet
/// acknowledged (--all: every stored game), writes each one durably, then acknowledges it,
/// so the board marks it pulled; games played meanwhile arrive live and are kept the same
/// way. It ends when the board's reply is done and acknowledged (--follow: keeps listening
/// until Ctrl-C; no reply at all fails the pull). If the port goes away (a reset, a pulled
/// cable) it waits for it to come back and asks again: until Ctrl-C with --follow, else at
/// most --timeout seconds after the last frame (then it fails as a silent board does).
/// Files are named by device and game number and never overwritten: a game already pulled
/// is recognised, a different file under the same name sends the game to the next free
/// name (NAME-2.t48), with a note.
///
/// Lost, damaged, merged or conflicting frames and games are reported by game and move
/// number; a game is never written as complete unless every frame of it verified
/// (--keep-partial writes the verified beginning of a damaged game, marked incomplete).
#[derive(Debug, Args)]
#[command(
    group(ArgGroup::new("source").args(["port", "capture"])),
    after_help = "\
Examples:
  # The one board attached, its firmware found among those `just firmware` built:
  twenty48 pull -o games/
  # A capture of the QEMU firmware's UART (docs/firmware.md); `just qemu-elf` builds
  # twenty48-qemu and prints its path:
  twenty48 pull --elf twenty48-qemu --capture capture.bin -o games/
  # Everything the Arduino Nano RP2040 Connect stored and nobody pulled yet:
  twenty48 pull --elf twenty48-nano-rp2040 --port /dev/ttyACM0 -o games/
  # Then keep listening for games as they are played; Ctrl-C to stop:
  twenty48 pull --elf twenty48-nano-rp2040 --port /dev/ttyACM0 -o games/ --follow

Exit status: 0 every game arrived and verified, 1 a game lost, damaged, conflicting or
unverified, or an ack refused or unanswered; 2 an input unreadable (the ELF, the capture, the
port) or a file that cannot be written (a full disk, every free name taken): the pull stops,
naming the file.

JSON shape (--json; docs/schema/pull.json): {schema_version, games: [{number, device, seed,
rules, moves_received, verified_moves, verified, problem, file, complete, partial, outcome,
acked}], damage: [{offset, len, game, report}], received, partial, copies: {received,
verified, unverified, written, already_pulled}, duplicates, conflicts, gaps, lost, failed,
notes, device, acks: {acked, unanswered, refused}, all_verified}"
)]
pub struct PullArgs {
    /// The firmware ELF the device runs: its defmt table decodes the log [default: the one
    /// among those `just firmware` built, or in the folder TWENTY48_ELF_DIR names, that
    /// decodes the first frames]
    #[arg(long, value_name = "FIRMWARE.elf")]
    pub elf: Option<PathBuf>,
    /// Talk to the board on this serial port (its USB serial) [default: the one board
    /// attached, as `twenty48 ports` shows]
    #[arg(long, value_name = "PORT")]
    pub port: Option<String>,
    /// Baud rate of the serial port (USB serial ignores it) [default: 115200]
    #[arg(long, value_name = "N")]
    pub baud: Option<u32>,
    /// Ask for every stored game, acknowledged before or not (`{pull all}`).
    #[arg(long)]
    pub all: bool,
    /// After the pull, keep listening for games played live, until Ctrl-C.
    #[arg(long)]
    pub follow: bool,
    /// Read a capture of the log bytes from FILE, or from standard input with `-`
    /// (nothing is acknowledged: there is no one to talk to).
    #[arg(long, value_name = "FILE")]
    pub capture: Option<PathBuf>,
    /// Directory for the `.t48` files (created if missing).
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
    /// Also write damaged or unfinished games: their verified moves, marked incomplete.
    #[arg(long)]
    pub keep_partial: bool,
    /// Give up on the board after this many seconds without a frame while the pull waits
    /// for its reply or an acknowledgement, or for its port to come back (bytes that are no
    /// frame do not count; --follow waits for the port until Ctrl-C) [default: 15]
    #[arg(long, value_name = "SECONDS",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub timeout: Option<u64>,
    /// Keep at most this many MiB of the raw bytes a port pull saves beside the games
    /// (`DIR/capture-SECONDS.bin`); past it the pull goes on and says the capture is cut
    /// [default: 64]
    #[arg(long, value_name = "MIB")]
    pub raw_limit: Option<u64>,
    /// Print the report as JSON on standard output.
    #[arg(long)]
    pub json: bool,
}

impl PullArgs {
    /// The port's baud rate.
    fn baud(&self) -> u32 {
        self.baud.unwrap_or(115_200)
    }

    /// Seconds without a frame before the pull gives up on the board.
    fn timeout(&self) -> u64 {
        self.timeout.unwrap_or(15)
    }
}

/// Refuses the options of a port pull with a capture, which has no board to ask, wait for
/// or follow: a pull that ignored them would look as if they had counted.
fn check_capture_options(args: &PullArgs) -> Result<()> {
    let given = [
        (args.follow, "--follow"),
        (args.all, "--all"),
        (args.baud.is_some(), "--baud"),
        (args.timeout.is_some(), "--timeout"),
        (args.raw_limit.is_some(), "--raw-limit"),
    ];
    if let Some((_, flag)) = given.iter().find(|(on, _)| *on) {
        anyhow::bail!(
            "{flag} is for a pull from a board (--port); a capture has no board to talk to"
        );
    }
    Ok(())
}

/// How many bytes of the log are kept to tell, when the firmware given decodes none of
/// them, which firmware does.
const HEAD_BYTES: usize = 64 * 1024;

/// Runs `twenty48 pull`: exit status 0 when every game arrived and verified, 1 when
/// something was lost, damaged, conflicting or failed; an error (status 2) when the ELF,
/// the capture or the port cannot be read, or no port or ELF can be chosen.
pub fn run(args: PullArgs, ui: &Ui) -> Result<ExitCode> {
    if args.capture.is_some() {
        check_capture_options(&args)?;
    }
    // Said even with --json (on standard error): which port and firmware were chosen.
    let tell = |line: String| {
        if !ui.quiet {
            eprintln!("{line}");
        }
    };
    let mut source = match &args.capture {
        Some(path) => Source::Capture {
            path: path.clone(),
            reader: open_capture(path)?,
        },
        None => {
            let (port, board) = match &args.port {
                Some(port) => (port.clone(), None),
                None => {
                    let ports = crate::ports::attached()?;
                    let chosen = crate::ports::choose(&ports)?;
                    tell(format!("board: {}", chosen.described()));
                    (chosen.path.clone(), chosen.board())
                }
            };
            let stop = Arc::new(AtomicBool::new(false));
            let flag = stop.clone();
            ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst))
                .context("cannot handle Ctrl-C")?;
            // The port first: a port that cannot be opened leaves nothing behind in DIR.
            let serial = open_port(&port, args.baud())?;
            Source::Port {
                port,
                board,
                serial,
                stop,
            }
        }
    };
    // The bytes read to find the firmware, fed to the pull before the rest.
    let mut early = Vec::new();
    let elf = match &args.elf {
        Some(path) => input::read(path)?,
        None => {
            let candidates = firmware::Candidates::find()?;
            let mut probe = candidates.probe();
            early = source.probe(&mut probe, Duration::from_secs(args.timeout()))?;
            let chosen = candidates.choose(&probe, &source.name(), source.board())?;
            tell(candidates.told(&chosen, &source.name()));
            candidates
                .list
                .into_iter()
                .nth(chosen.0)
                .map(|c| c.bytes)
                .unwrap_or_default()
        }
    };
    let elf_name = args
        .elf
        .as_deref()
        .map_or_else(|| "the firmware ELF".to_string(), input::shown);
    // The pull's files go through a folder of the file system: the CLI's choice.
    let folder = Box::new(Directory::new(&args.output));
    let talk = match &source {
        // Each game written as it closes, then acknowledged. The clock of the conversation
        // starts at 0; live() passes it on.
        Source::Port { .. } => {
            let options = PortOptions {
                all: args.all,
                keep_partial: args.keep_partial,
            };
            Conversation::port(&elf, folder, options, 0)
        }
        // A capture is seen whole before anything is written: two copies of one game that
        // differ are then both left out.
        Source::Capture { .. } => Conversation::capture(&elf, folder, args.keep_partial),
    }
    .with_context(|| format!("cannot use {elf_name} as the firmware ELF"))?;
    let name = source.name();
    let mut pull = Pull {
        talk,
        head: Vec::new(),
        report: Report::new(&args.output),
        silent: args.json || ui.quiet,
        bar: Bar::spinner("pulling", "moves"),
    };
    match source {
        Source::Port {
            port, serial, stop, ..
        } => pull.live(&port, serial, &early, &stop, &args)?,
        Source::Capture { path, reader } => {
            pull.feed(&early, 0)?;
            pull.capture(&path, reader)?;
        }
    }
    pull.finish()?;
    pull.bar.finish();
    // The library decides; this prints.
    let verdict = pull.talk.verdict();
    if let Some(given) = &args.elf {
        // No frame decoded to a game or a device's frame: perhaps a log of other firmware.
        if verdict.copies().received == 0 && pull.talk.facts().total() == 0 {
            firmware::check_given(given, &elf, &pull.head, &name)?;
        }
    }
    // What the failures name: the port, or the capture as the user gave it.
    let source = match &args.capture {
        Some(capture) => crate::input::shown(capture),
        None => name,
    };
    let talk = &pull.talk;
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&pull.report.json(&verdict, talk, &source))?
        );
    } else if !ui.quiet || !verdict.is_ok() {
        for line in pull.report.findings(&verdict, talk, &source) {
            eprintln!("{line}");
        }
        eprintln!("{}", Report::summary(&verdict, talk));
    }
    Ok(ExitCode::from(verdict.exit_status()))
}

/// A pull under way: the library's conversation (with the board, or a capture's) and what
/// it reported.
struct Pull {
    talk: Conversation,
    /// The first [`HEAD_BYTES`] bytes fed: what a firmware given that decoded nothing is
    /// checked against.
    head: Vec<u8>,
    report: Report,
    /// Nothing but the final report (--json or -q).
    silent: bool,
    /// Moves received, with rate, on a terminal; hidden elsewhere.
    bar: Bar,
}

impl Pull {
    /// A line for people (above the bar), unless the output is JSON.
    fn say(&self, line: impl AsRef<str>) {
        if !self.silent {
            self.bar.println(line);
        }
    }

    /// Feeds bytes received at `now` (milliseconds since the pull began).
    fn feed(&mut self, bytes: &[u8], now: u64) -> Result<()> {
        let room = HEAD_BYTES.saturating_sub(self.head.len());
        self.head.extend_from_slice(&bytes[..bytes.len().min(room)]);
        // A write error names the file.
        let progress = self.talk.feed(bytes, now)?;
        self.handle(progress);
        Ok(())
    }

    fn finish(&mut self) -> Result<()> {
        let progress = self.talk.finish()?;
        self.handle(progress);
        Ok(())
    }

    /// Prints and reports the pull's progress.
    fn handle(&mut self, progress: Vec<Progress>) {
        for step in progress {
            match step {
                Progress::Started(Event::GameStarted {
                    number,
                    rules,
                    seed,
                    ..
                }) => {
                    let name = rules.preset().map_or("custom", |p| p.name());
                    self.say(format!(
                        "game {number}: started, {name} rules ({rules}), seed {seed}"
                    ));
                }
                Progress::Moved { game, seq, moves } => {
                    self.bar.inc(u64::from(moves));
                    self.bar.message(format!("game {game}, move {seq}"));
                    // Without a bar (not a terminal), a line every 25 moves shows progress.
                    if !self.bar.is_visible() && seq / 25 != seq.saturating_sub(moves) / 25 {
                        self.say(format!("game {game}: {seq} moves"));
                    }
                }
                Progress::Pulled(pulled) if pulled.outcome == Outcome::Deferred => {}
                Progress::Pulled(pulled) => {
                    self.say(describe(&pulled, &self.report.dir));
                    self.report.add_game(*pulled);
                }
                Progress::Damaged(damage) => self.say(format!("damage: {damage}")),
                // The acknowledgements answered are said in the report, not one by one.
                Progress::Device(fact)
                    if !matches!(fact, twenty48_devicelog::DeviceFact::Acked { .. }) =>
                {
                    self.say(fact.to_string())
                }
                Progress::EarlierReplyEnded => self.say(
                    "the end of a reply to an earlier request (its begin came before this pull was listening); waiting for this pull's reply",
                ),
                _ => {}
            }
        }
    }

    /// Reads the rest of a capture file (or standard input).
    fn capture(&mut self, path: &Path, mut source: Box<dyn Read>) -> Result<()> {
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            let n = match source.read(&mut buf) {
                Ok(0) => return Ok(()),
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    return Err(e)
                        .with_context(|| format!("cannot read {}", crate::input::shown(path)))
                }
            };
            self.feed(&buf[..n], 0)?;
        }
    }

    /// The conversation on a serial port: `{hello}`, `{pull}` (or `{pull all}`), every game
    /// written then acknowledged, until the reply is done and every acknowledgement answered
    /// (`--follow`: until Ctrl-C). Every byte received is also appended to
    /// `DIR/capture-SECONDS.bin`. If the board goes away it waits for the port to come back
    /// and asks again (without `--follow`, at most `--timeout` seconds after the last frame).
    /// `early`: bytes already read from the port (to find its firmware), fed first.
    fn live(
        &mut self,
        port: &str,
        mut serial: Box<dyn serialport::SerialPort>,
        early: &[u8],
        stop: &AtomicBool,
        args: &PullArgs,
    ) -> Result<()> {
        let out = &args.output;
        twenty48_movelog::create_dirs(out)?;
        let secs = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let (raw_path, raw) =
            twenty48_movelog::create_free(&out.join(format!("capture-{secs}.bin")))?;
        let mut raw = RawCapture::new(raw_path, raw, args.raw_limit.unwrap_or(RAW_LIMIT_MIB));
        let timeout = Duration::from_secs(args.timeout());
        let started = Instant::now();
        let now = || u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        if !early.is_empty() {
            if let Some(note) = raw.write(early)? {
                self.say(&note);
                self.report.raw_cut = Some(note);
            }
            self.feed(early, now())?;
        }
        send(&mut *serial, &self.talk.outgoing())
            .with_context(|| format!("cannot write to {port}"))?;
        self.say(format!(
            "asked {port} for its games (raw bytes kept in {}){}",
            crate::input::shown(&raw.path),
            if args.follow { "; Ctrl-C to stop" } else { "" }
        ));
        let timeout_ms = timeout.as_millis().try_into().unwrap_or(u64::MAX);
        let mut buf = [0u8; 4096];
        while !stop.load(Ordering::SeqCst) {
            let at = now();
            match self.talk.state(at, timeout_ms) {
                State::Done if !args.follow => break,
                State::Silent if !args.follow => {
                    // The verdict says it, naming the port.
                    self.talk.give_up(at, timeout_ms, Silence::Quiet);
                    break;
                }
                _ => {}
            }
            match serial.read(&mut buf) {
                Ok(0) => {}
                Ok(n) => {
                    if let Some(note) = raw.write(&buf[..n])? {
                        self.say(&note);
                        self.report.raw_cut = Some(note);
                    }
                    self.feed(&buf[..n], now())?;
                }
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::TimedOut | io::ErrorKind::Interrupted
                    ) => {}
                Err(e) => {
                    self.say(format!("{port}: {e}; waiting for the board to come back"));
                    let Some(back) = self.reopen(port, args, stop, &now) else {
                        break;
                    };
                    serial = back;
                    // Whatever was under way is gone: the conversation asks again. (A write
                    // that fails now is seen again as the next read's error.)
                    self.talk.reconnected(now());
                    let _ = send(&mut *serial, &self.talk.outgoing());
                }
            }
            // Acknowledgements of what is safely on disk, as the window has room.
            let out = self.talk.outgoing();
            if !out.is_empty() {
                send(&mut *serial, &out).with_context(|| format!("cannot write to {port}"))?;
            }
        }
        self.say(format!(
            "stopped after {}",
            crate::style::count(self.talk.bytes_fed() as u64, "byte", "bytes")
        ));
        Ok(())
    }
}

impl Pull {
    /// The port went away: waits for it to come back, opened again, or `None` once the
    /// pull stops waiting: on Ctrl-C, or (without `--follow`) once no frame came and the
    /// port stayed away for `--timeout` seconds, said as silence is (the pull fails).
    fn reopen(
        &mut self,
        port: &str,
        args: &PullArgs,
        stop: &AtomicBool,
        now: &dyn Fn() -> u64,
    ) -> Option<Box<dyn serialport::SerialPort>> {
        let timeout_ms = args.timeout().saturating_mul(1000);
        loop {
            if stop.load(Ordering::SeqCst) {
                return None;
            }
            let at = now();
            if !args.follow && self.talk.state(at, timeout_ms) != State::Listening {
                // Silent (the verdict says it, naming the port), or done.
                self.talk.give_up(at, timeout_ms, Silence::Gone);
                return None;
            }
            std::thread::sleep(Duration::from_millis(250));
            if let Ok(s) = open_port(port, args.baud()) {
                return Some(s);
            }
        }
    }
}

/// The raw bytes of a port pull, kept beside the games up to a size cap.
struct RawCapture {
    path: PathBuf,
    file: File,
    /// Bytes still allowed.
    room: u64,
    limit_mib: u64,
}

impl RawCapture {
    fn new(path: PathBuf, file: File, limit_mib: u64) -> RawCapture {
        RawCapture {
            path,
            file,
            room: limit_mib.saturating_mul(1 << 20),
            limit_mib,
        }
    }

    /// Appends what fits; the sentence to say when this write reached the cap.
    fn write(&mut self, bytes: &[u8]) -> Result<Option<String>> {
        if self.room == 0 {
            return Ok(None);
        }
        let keep = bytes
            .len()
            .min(usize::try_from(self.room).unwrap_or(usize::MAX));
        self.file
            .write_all(&bytes[..keep])
            .and_then(|()| self.file.flush())
            .with_context(|| format!("cannot write {}", crate::input::shown(&self.path)))?;
        self.room -= keep as u64;
        Ok((self.room == 0).then(|| {
            format!(
                "the raw capture {} reached its limit of {} MiB (--raw-limit); the bytes after it are read but not kept",
                crate::input::shown(&self.path),
                self.limit_mib
            )
        }))
    }
}

fn open_port(port: &str, baud: u32) -> Result<Box<dyn serialport::SerialPort>> {
    serialport::new(port, baud)
        .timeout(Duration::from_millis(200))
        .open()
        .with_context(|| format!("cannot open serial port {port}"))
}
