//! The harness as a child process: started with a board's image, driven command by command,
//! killed (its whole process group) on drop and when a command takes longer than its limit.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::board::Button;
use crate::eeprom::{splitmix, Ops};
use crate::error::{io, Error};
use crate::event::{self, Line, PinEdge, SpiByte, StackBreach, Stats, Stop, Violation, Watched};
use crate::image::{repo_root, Image};

/// The harness protocol this crate speaks (the `hello` line's number).
const PROTOCOL: u32 = 3;

/// Milliseconds a button must read the same before the firmware counts it (it samples them
/// once a millisecond: `twenty48_buttons::DEBOUNCE_SAMPLES`).
pub const DEBOUNCE_MS: u64 = twenty48_buttons::DEBOUNCE_SAMPLES as u64;

/// The harness binary: `$TWENTY48_AVR_SIM`, or target/avr-sim/twenty48-avr-sim where `just
/// avr-sim` builds it. Missing or older than any of its sources: an error saying how to build it.
pub fn harness() -> Result<PathBuf, Error> {
    let root = repo_root();
    let path = std::env::var_os("TWENTY48_AVR_SIM")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target/avr-sim/twenty48-avr-sim"));
    let built = std::fs::metadata(&path)
        .and_then(|m| m.modified())
        .map_err(|_| Error::HarnessMissing { path: path.clone() })?;
    // Its sources: every file of crates/sim-avr/harness (C files and their header).
    let sources = std::fs::read_dir(root.join("crates/sim-avr/harness"))
        .into_iter()
        .flatten();
    for source in sources.flatten() {
        if let Ok(written) = source.metadata().and_then(|m| m.modified()) {
            if written > built {
                return Err(Error::HarnessStale { path });
            }
        }
    }
    Ok(path)
}

/// How a simulated board starts.
#[derive(Clone, Debug)]
pub struct Options {
    /// The EEPROM's bytes at power-on (`None`: a new chip, all 0xFF).
    pub eeprom: Option<Vec<u8>>,
    /// The seed of the noise on the ADC's inputs (the firmware's entropy).
    pub noise: u64,
    /// The seed of the buttons' bounce.
    pub bounce: u64,
    /// Cut the power at this EEPROM operation (from 1), tearing its byte with the seed.
    pub cut: Option<(u64, u64)>,
    /// Wall-clock limit of one command (a run of emulated time), after which the harness is
    /// killed.
    pub limit: Duration,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            eeprom: None,
            noise: 1,
            bounce: 1,
            cut: None,
            limit: Duration::from_secs(240),
        }
    }
}

/// A board running its image in the harness.
pub struct Sim {
    image: Image,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    stderr: Arc<Mutex<String>>,
    scratch: PathBuf,
    limit: Duration,
    bounce: u64,
    now_ns: u64,
    /// Every byte the firmware sent on USART0.
    pub uart: Vec<u8>,
    /// When each of them was written (ns).
    pub uart_at: Vec<u64>,
    /// Every SPI byte.
    pub spi: Vec<SpiByte>,
    /// Every change of the LCD's chip select and reset.
    pub pins: Vec<PinEdge>,
    /// The EEPROM at power-on and every operation since.
    pub eeprom_ops: Ops,
    /// Hardware rules the firmware broke.
    pub violations: Vec<Violation>,
    /// The first time the stack went below the end of the static data.
    pub stack_breach: Option<StackBreach>,
}

/// The stack's low water against the RAM the static data leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stack {
    /// The most bytes the stack held.
    pub peak: u16,
    /// The bytes between the end of the static data and the stack's top.
    pub room: u16,
    /// Bytes of that room the stack never reached (negative: it went into static data).
    pub untouched: i32,
}

fn scratch_dir() -> PathBuf {
    static N: AtomicU32 = AtomicU32::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("t48-avrsim-{}-{n}", std::process::id()))
}

impl Sim {
    /// Powers the board on: starts the harness on `image` with `options`.
    pub fn start(image: &Image, options: &Options) -> Result<Sim, Error> {
        let harness = harness()?;
        let board = image.board;
        let scratch = scratch_dir();
        std::fs::create_dir_all(&scratch).map_err(io(format!("creating {}", scratch.display())))?;
        let flash = scratch.join("flash.bin");
        std::fs::write(&flash, &image.flash).map_err(io(format!("writing {}", flash.display())))?;
        let initial = options
            .eeprom
            .clone()
            .unwrap_or_else(|| vec![0xFF; board.eeprom]);
        if initial.len() != board.eeprom {
            return Err(Error::Firmware {
                what: format!(
                    "an EEPROM image of {} bytes for the {}'s {}",
                    initial.len(),
                    board.name,
                    board.eeprom
                ),
            });
        }
        let eeprom = scratch.join("eeprom.bin");
        std::fs::write(&eeprom, &initial).map_err(io(format!("writing {}", eeprom.display())))?;
        let mut command = Command::new(&harness);
        command
            .args(["--mcu", board.mcu, "--flash"])
            .arg(&flash)
            .args(["--static-end", &image.static_end.to_string(), "--eeprom"])
            .arg(&eeprom)
            .args(["--cs", board.lcd_cs])
            .args(["--watch", &format!("cs={}", board.lcd_cs)])
            .args(["--watch", &format!("reset={}", board.lcd_reset)])
            .args(["--noise", &options.noise.to_string()]);
        for pin in board.buttons {
            command.args(["--button", pin]);
        }
        if let Some((k, seed)) = options.cut {
            command.args(["--cut", &k.to_string(), "--tear", &seed.to_string()]);
        }
        let twenty48_testkit::harness::Harness {
            child,
            stdin,
            lines,
            stderr,
        } = twenty48_testkit::harness::Harness::spawn(&mut command)
            .map_err(io(format!("starting {}", harness.display())))?;
        let mut sim = Sim {
            image: image.clone(),
            child,
            stdin,
            lines,
            stderr,
            scratch,
            limit: options.limit,
            bounce: options.bounce,
            now_ns: 0,
            uart: Vec::new(),
            uart_at: Vec::new(),
            spi: Vec::new(),
            pins: Vec::new(),
            eeprom_ops: Ops {
                initial,
                ops: Vec::new(),
            },
            violations: Vec::new(),
            stack_breach: None,
        };
        match sim.next_line(Instant::now(), "starting")? {
            Line::Hello { protocol } if protocol == PROTOCOL => Ok(sim),
            other => Err(Error::Protocol {
                line: format!("{other:?} (expected hello, protocol {PROTOCOL})"),
            }),
        }
    }

    /// The harness's process id (the leader of its process group).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The image it runs.
    pub fn image(&self) -> &Image {
        &self.image
    }

    /// Emulated time, in ns from power-on.
    pub fn now_ns(&self) -> u64 {
        self.now_ns
    }

    fn stderr(&self) -> String {
        self.stderr
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    fn kill(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            // SAFETY: signals the harness's own process group (started as its leader, not
            // yet reaped, so the group's id is still its own).
            unsafe { libc::kill(-(self.child.id() as i32), libc::SIGKILL) };
        }
        let _ = self.child.wait();
    }

    fn send_line(&mut self, line: &str) -> Result<(), Error> {
        let sent = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
        if sent.is_err() {
            std::thread::sleep(Duration::from_millis(50));
            return Err(Error::Exited {
                stderr: self.stderr(),
            });
        }
        Ok(())
    }

    /// The next line, if it comes before the command that asked for it (started at
    /// `started`) has taken the limit.
    fn next_line(&mut self, started: Instant, doing: &str) -> Result<Line, Error> {
        let left = self.limit.saturating_sub(started.elapsed());
        let line = match self.lines.recv_timeout(left) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => {
                self.kill();
                return Err(Error::Timeout {
                    waited: started.elapsed(),
                    doing: doing.to_string(),
                });
            }
            Err(RecvTimeoutError::Disconnected) => {
                let _ = self.child.wait();
                return Err(Error::Exited {
                    stderr: self.stderr(),
                });
            }
        };
        match event::parse(&line) {
            Some(Line::Error(message)) => Err(Error::Protocol { line: message }),
            Some(parsed) => Ok(parsed),
            None => Err(Error::Protocol { line }),
        }
    }

    /// Runs until emulated time `until_ns`, or until `frames` more frame separators went
    /// out on USART0, or until the firmware went to sleep waiting for input `idles` more
    /// times (once a millisecond while it waits; 0: not a condition).
    pub fn run(&mut self, until_ns: u64, frames: u64, idles: u64) -> Result<Stop, Error> {
        self.send_line(&format!("run {until_ns} {frames} {idles}"))?;
        let doing = format!("running the {} to {until_ns} ns", self.image.board.name);
        let started = Instant::now();
        loop {
            match self.next_line(started, &doing)? {
                Line::Uart { at_ns, byte } => {
                    self.uart.push(byte);
                    self.uart_at.push(at_ns);
                }
                Line::Spi(b) => self.spi.push(b),
                Line::Pin { at_ns, name, high } => self.pins.push(PinEdge {
                    at_ns,
                    pin: if name == "cs" {
                        Watched::LcdSelect
                    } else {
                        Watched::LcdReset
                    },
                    high,
                }),
                Line::Eeprom(op) => self.eeprom_ops.ops.push(op),
                Line::Stack(breach) => self.stack_breach = self.stack_breach.or(Some(breach)),
                Line::Violation(v) => self.violations.push(v),
                Line::Stop { at_ns, stop } => {
                    self.now_ns = at_ns;
                    return Ok(stop);
                }
                other => {
                    return Err(Error::Protocol {
                        line: format!("{other:?} during a run"),
                    })
                }
            }
        }
    }

    /// Runs for `ns` of emulated time.
    pub fn run_for(&mut self, ns: u64) -> Result<Stop, Error> {
        self.run(self.now_ns + ns, 0, 0)
    }

    /// Runs until the firmware has gone to sleep waiting for input `idles` times (it is
    /// back waiting, a millisecond a time), at most `within_ns` of emulated time. Returns
    /// [`Stop::Idle`], or [`Stop::Cut`] when the power was cut on the way (the harness's
    /// `--cut`).
    pub fn settle(&mut self, idles: u64, within_ns: u64) -> Result<Stop, Error> {
        let from = self.now_ns;
        match self.run(from + within_ns, 0, idles)? {
            stop @ (Stop::Idle | Stop::Cut) => Ok(stop),
            stop => Err(Error::Firmware {
                what: format!(
                    "it did not wait for input {idles} times within {} ms of {} ms \
                     (stopped: {stop:?})",
                    within_ns / 1_000_000,
                    from / 1_000_000
                ),
            }),
        }
    }

    /// Sets a button's contact: closed (`pressed`, the pin pulled to ground) or open.
    pub fn button(&mut self, button: Button, pressed: bool) -> Result<(), Error> {
        self.send_line(&format!("btn {} {}", button.index(), u8::from(pressed)))
    }

    /// The contact bouncing into `pressed`: up to four changes 50-800 us apart (from the
    /// bounce seed), ending in `pressed`.
    fn bounce(&mut self, button: Button, pressed: bool) -> Result<(), Error> {
        let r = splitmix(&mut self.bounce);
        let changes = (r % 5) * 2;
        for i in 0..changes {
            self.button(button, (i % 2 == 0) == pressed)?;
            let gap = 50_000 + (r >> (8 + i * 4) & 15) * 50_000;
            self.run_for(gap)?;
        }
        self.button(button, pressed)
    }

    /// A press of `button` as a person makes it, from the firmware waiting for input: the
    /// contact bounces closed, stays closed `hold_ms`, bounces open; then runs until the
    /// firmware has handled the press and waits for input again (`DEBOUNCE_MS` + 1 idle
    /// turns after the release: the timer's samples confirm the release within the first
    /// `DEBOUNCE_MS`, and the turns after it come once the move, its store writes, its
    /// frames and its screen are done),
    /// or `within_ns` of emulated time. Returns as [`Sim::settle`].
    pub fn press(&mut self, button: Button, hold_ms: u64, within_ns: u64) -> Result<Stop, Error> {
        self.tap(button, hold_ms)?;
        self.settle(DEBOUNCE_MS + 1, within_ns)
    }

    /// A press of `button` as [`Sim::press`] makes it (bounce, `hold_ms` closed, bounce),
    /// without waiting for the firmware: it may be busy all along. Returns the emulated time
    /// of the release (the contact's last change, open).
    pub fn tap(&mut self, button: Button, hold_ms: u64) -> Result<u64, Error> {
        self.bounce(button, true)?;
        self.run_for(hold_ms * 1_000_000)?;
        self.bounce(button, false)?;
        Ok(self.now_ns)
    }

    /// Queues bytes for USART0's input (they go in at the line's rate).
    pub fn send(&mut self, bytes: &[u8]) -> Result<(), Error> {
        for chunk in bytes.chunks(8192) {
            let hex: String = chunk.iter().map(|b| format!("{b:02x}")).collect();
            self.send_line(&format!("send {hex}"))?;
        }
        Ok(())
    }

    /// The EEPROM's bytes now.
    pub fn eeprom(&mut self) -> Result<Vec<u8>, Error> {
        let path = self.scratch.join("eeprom-now.bin");
        self.send_line(&format!("eeprom {}", path.display()))?;
        match self.next_line(Instant::now(), "saving the EEPROM")? {
            Line::Saved => std::fs::read(&path).map_err(io(format!("reading {}", path.display()))),
            other => Err(Error::Protocol {
                line: format!("{other:?} (expected saved)"),
            }),
        }
    }

    /// The harness's counters.
    pub fn stats(&mut self) -> Result<Stats, Error> {
        self.send_line("stats")?;
        match self.next_line(Instant::now(), "reading the counters")? {
            Line::Stats(stats) => Ok(stats),
            other => Err(Error::Protocol {
                line: format!("{other:?} (expected stats)"),
            }),
        }
    }

    /// The stack's low water so far, against the end of the static data.
    pub fn stack(&mut self) -> Result<Stack, Error> {
        let min_sp = self.stats()?.min_sp;
        let top = self.image.board.ram_end;
        let end = self.image.static_end;
        Ok(Stack {
            peak: top - min_sp,
            room: top + 1 - end,
            // A push writes at SP and moves it down: the lowest byte used is SP + 1.
            untouched: i32::from(min_sp) + 1 - i32::from(end),
        })
    }

    /// The scratch directory this board's files live in (removed on drop).
    pub fn scratch(&self) -> &Path {
        &self.scratch
    }
}

impl Drop for Sim {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.kill();
        let _ = std::fs::remove_dir_all(&self.scratch);
    }
}
