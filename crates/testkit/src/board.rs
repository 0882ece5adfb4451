//! The fake board: a pseudo-terminal whose far end plays a script of frames (good and
//! crafted, from [`frames`](crate::frames)) and answers the host's requests, so that
//! `twenty48 pull --port` can be driven end to end. Everything the host writes is kept for
//! the test to read (its `{ack N C}` requests above all). (The conversation's own cases are
//! played without a terminal, on a scripted clock, by a model of this board in devicelog's
//! tests: `tests/v2/board.rs`.)
//!
//! The board runs on threads of the test; dropping it stops them and closes the terminal.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::AsRawFd;

use crate::pty::{Options, Pty};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// One step of a board's script.
pub enum Step {
    /// Send these bytes.
    Send(Vec<u8>),
    /// Wait (at most 60 s) until the host has written this text.
    Await(&'static str),
    /// Answer `{ack N C}` requests until the host stops asking for 3 s (or the board is
    /// dropped): `acked` when C is the check given here for N, else error 4 (check
    /// mismatch), or error 3 for a game not listed.
    Acks(BTreeMap<u32, u32>),
    /// Answer every `{ack N C}` with an error frame of this code (naming game N, or game 0
    /// when the flag is false) until the host stops asking for 3 s.
    RefuseAcks(u8, bool),
    /// Send these bytes again and again, this long apart, until the board is dropped.
    Forever(Vec<u8>, Duration),
}

/// A fake board on a pseudo-terminal.
pub struct Board {
    /// The terminal's path, for `--port`.
    pub path: String,
    heard: Arc<Mutex<Vec<u8>>>,
    stop: Arc<AtomicBool>,
    threads: Vec<JoinHandle<()>>,
    /// The terminal's host end, open while the board lives (the pty goes when both close).
    _host_end: File,
}

impl Board {
    /// A board on a new pseudo-terminal playing `script` with the frames of `frames`'
    /// firmware (for the answers to acks).
    pub fn start(script: Vec<Step>, frames: crate::frames::Frames) -> Board {
        Board::open(script, frames)
    }

    fn open(script: Vec<Step>, frames: crate::frames::Frames) -> Board {
        let options = Options {
            raw: true,
            ..Options::default()
        };
        let pty = Pty::open(options).expect("a pseudo-terminal for the fake board");
        let path = pty.path().to_string_lossy().into_owned();
        // The board writes into the host end; the program under test opens the path.
        let (board_end, host_end) = (pty.host, File::from(pty.terminal));
        let heard = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let reader = {
            let (heard, stop) = (heard.clone(), stop.clone());
            let mut end = board_end.try_clone().unwrap();
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                while !stop.load(Ordering::SeqCst) {
                    let mut pfd = libc::pollfd {
                        fd: end.as_raw_fd(),
                        events: libc::POLLIN,
                        revents: 0,
                    };
                    // SAFETY: one valid pollfd.
                    if unsafe { libc::poll(&mut pfd, 1, 50) } <= 0 {
                        continue;
                    }
                    match end.read(&mut buf) {
                        Ok(n) if n > 0 => {
                            heard.lock().unwrap().extend_from_slice(&buf[..n]);
                        }
                        // Nobody has the far end open (between two opens of the port).
                        _ => std::thread::sleep(Duration::from_millis(20)),
                    }
                }
            })
        };
        let writer = {
            let (heard, stop) = (heard.clone(), stop.clone());
            let end = board_end;
            std::thread::spawn(move || play(script, end, &heard, &stop, &frames))
        };
        Board {
            path,
            heard,
            stop,
            threads: vec![reader, writer],
            _host_end: host_end,
        }
    }

    /// Everything the host wrote so far.
    pub fn heard(&self) -> String {
        String::from_utf8_lossy(&self.heard.lock().unwrap()).into_owned()
    }

    /// The `{ack N C}` requests the host sent, in order.
    pub fn acks(&self) -> Vec<(u32, u32)> {
        acks_in(&self.heard())
    }
}

impl Drop for Board {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

/// The `{ack N C}` requests in `text`.
fn acks_in(text: &str) -> Vec<(u32, u32)> {
    text.split('{')
        .filter_map(|r| {
            let r = r.split('}').next()?.strip_prefix("ack ")?;
            let mut it = r.split_whitespace();
            Some((it.next()?.parse().ok()?, it.next()?.parse().ok()?))
        })
        .collect()
}

/// Writes all of `bytes` unless the board is stopped (a pty whose far end is not read
/// fills up: the writes wait, and give up when the test ends).
fn send(end: &mut File, bytes: &[u8], stop: &AtomicBool) -> bool {
    for chunk in bytes.chunks(512) {
        let mut left = chunk;
        while !left.is_empty() {
            if stop.load(Ordering::SeqCst) {
                return false;
            }
            let mut pfd = libc::pollfd {
                fd: end.as_raw_fd(),
                events: libc::POLLOUT,
                revents: 0,
            };
            // SAFETY: one valid pollfd.
            if unsafe { libc::poll(&mut pfd, 1, 50) } <= 0 {
                continue;
            }
            match end.write(left) {
                Ok(n) => left = &left[n..],
                Err(_) => std::thread::sleep(Duration::from_millis(20)),
            }
        }
    }
    true
}

fn play(
    script: Vec<Step>,
    mut end: File,
    heard: &Mutex<Vec<u8>>,
    stop: &AtomicBool,
    frames: &crate::frames::Frames,
) {
    let text = || String::from_utf8_lossy(&heard.lock().unwrap()).into_owned();
    for step in script {
        match step {
            Step::Send(bytes) => {
                if !send(&mut end, &bytes, stop) {
                    return;
                }
            }
            Step::Await(what) => {
                let deadline = Instant::now() + Duration::from_secs(60);
                while !text().contains(what) {
                    if stop.load(Ordering::SeqCst) || Instant::now() > deadline {
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(10));
                }
            }
            Step::RefuseAcks(..) | Step::Acks(_) => {
                // The answer to `{ack game check}`.
                let answer = |game: u32, check: u32| match &step {
                    Step::RefuseAcks(code, name_game) => {
                        frames.error(*code, if *name_game { game } else { 0 })
                    }
                    Step::Acks(answers) => match answers.get(&game) {
                        Some(&c) if c == check => frames.acked(game),
                        Some(_) => frames.error(4, game),
                        None => frames.error(3, game),
                    },
                    _ => unreachable!("only the ack steps answer"),
                };
                let mut answered = 0;
                let mut quiet_since = Instant::now();
                while quiet_since.elapsed() < Duration::from_secs(3) {
                    if stop.load(Ordering::SeqCst) {
                        return;
                    }
                    let acks = acks_in(&text());
                    for &(game, check) in &acks[answered..] {
                        quiet_since = Instant::now();
                        if !send(&mut end, &answer(game, check), stop) {
                            return;
                        }
                    }
                    answered = acks.len();
                    std::thread::sleep(Duration::from_millis(10));
                }
            }
            Step::Forever(bytes, pause) => {
                while send(&mut end, &bytes, stop) {
                    std::thread::sleep(pause);
                }
                return;
            }
        }
    }
    // The script is over: the board stays, silent, until dropped.
    while !stop.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(20));
    }
}
