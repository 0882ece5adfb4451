//! The board of tests/conversation.rs (protocol v2): a model of the fake board
//! (`twenty48_testkit::board`, which plays a script on a pseudo-terminal) that plays the
//! same scripts synchronously, and the link that turns it and a `Conversation` on a
//! scripted clock.

use std::collections::{BTreeMap, VecDeque};

use twenty48_devicelog::pull::{Conversation, Outcome, Progress, State};
use twenty48_deviceproto::{ErrorCode, Request};
use twenty48_testkit::frames::Frames;

/// The silence allowed, in milliseconds (the CLI's `--timeout 2`).
pub const TIMEOUT: u64 = 2_000;

/// One turn of the host's loop, in milliseconds of the scripted clock.
pub const TICK: u64 = 10;

/// The most a board sends in one turn (the fake board writes 512 bytes at a time).
pub const CHUNK: usize = 512;

/// A run that takes longer than this on the scripted clock is a conversation that never
/// ends: the test fails.
pub const LIMIT: u64 = 600_000;

/// How the board answers `{ack N C}`.
pub enum Answer {
    /// `acked` when C is the check given for N, else error 4 (check mismatch), or error 3
    /// for a game not listed.
    Checks(BTreeMap<u32, u32>),
    /// An error frame of this code, naming game N (or game 0 when the flag is false).
    Refuse(u8, bool),
    /// Nothing.
    Never,
}

/// One step of the board's script (as the fake board's `Step`).
pub enum Step {
    /// Send these bytes, [`CHUNK`] a turn.
    Send(Vec<u8>),
    /// Wait until the host has written this text (read from the ring, with one).
    Await(&'static str),
    /// Answer every acknowledgement from now on, `delay` ms after reading it.
    Acks(Answer, u64),
    /// Send these bytes every so many milliseconds, from now on.
    Forever(Vec<u8>, u64),
}

/// The board: plays its script, hears the host's bytes, answers its acknowledgements.
/// Without a ring it reads every byte the host wrote; with one (an AVR board) it reads
/// requests only in `Await` and `Acks` steps, from a ring of fixed size that loses what
/// finds no room while the board is busy sending.
pub struct Board {
    frames: Frames,
    script: VecDeque<Step>,
    /// Everything the host wrote.
    heard: Vec<u8>,
    /// The receive ring (its capacity, its bytes), if the board has one.
    ring: Option<(usize, Vec<u8>)>,
    /// Bytes lost for want of room in the ring.
    pub dropped: usize,
    /// The most bytes the ring held at once.
    pub ring_peak: usize,
    /// How far into `heard` (no ring) the board has read requests.
    read_to: usize,
    /// Requests read and not yet dealt with.
    requests: VecDeque<Request>,
    /// Answers to acknowledgements, each with the time it is due.
    answers: VecDeque<(u64, Vec<u8>)>,
    /// How many acknowledgements the board answered.
    answered: usize,
    /// The next time a `Forever` step sends.
    next_forever: u64,
}

impl Board {
    pub fn new(frames: Frames, script: Vec<Step>) -> Board {
        Board {
            frames,
            script: script.into(),
            heard: Vec::new(),
            ring: None,
            dropped: 0,
            ring_peak: 0,
            read_to: 0,
            requests: VecDeque::new(),
            answers: VecDeque::new(),
            answered: 0,
            next_forever: 0,
        }
    }

    pub fn with_ring(frames: Frames, script: Vec<Step>, capacity: usize) -> Board {
        Board {
            ring: Some((capacity, Vec::new())),
            ..Board::new(frames, script)
        }
    }

    /// Bytes from the host.
    pub fn hear(&mut self, bytes: &[u8]) {
        self.heard.extend_from_slice(bytes);
        if let Some((capacity, ring)) = &mut self.ring {
            for &b in bytes {
                if ring.len() < *capacity {
                    ring.push(b);
                } else {
                    self.dropped += 1;
                }
            }
            self.ring_peak = self.ring_peak.max(ring.len());
        }
    }

    /// Reads the whole requests received (`{...}`), as the firmware parses them.
    fn read_requests(&mut self) {
        let bytes: Vec<u8> = match &mut self.ring {
            Some((_, ring)) => {
                let end = ring.iter().rposition(|&b| b == b'}').map_or(0, |i| i + 1);
                ring.drain(..end).collect()
            }
            None => {
                let end = self.heard[self.read_to..]
                    .iter()
                    .rposition(|&b| b == b'}')
                    .map_or(self.read_to, |i| self.read_to + i + 1);
                let bytes = self.heard[self.read_to..end].to_vec();
                self.read_to = end;
                bytes
            }
        };
        for text in bytes.split(|&b| b == b'}') {
            if let Some(start) = text.iter().position(|&b| b == b'{') {
                self.requests
                    .extend(Request::parse(&text[start + 1..]).ok());
            }
        }
    }

    /// Whether the host's requests read so far hold `what` (`{pull}`), taking them.
    fn take_request(&mut self, what: &str) -> bool {
        self.read_requests();
        let wanted = Request::parse(what.trim_matches(['{', '}']).as_bytes()).unwrap();
        match self.requests.iter().position(|r| *r == wanted) {
            Some(i) => {
                self.requests.drain(..=i);
                true
            }
            None => false,
        }
    }

    /// What the board sends in the turn at `now`.
    pub fn turn(&mut self, now: u64) -> Vec<u8> {
        let mut out = Vec::new();
        while let Some(step) = self.script.front_mut() {
            match step {
                Step::Send(bytes) => {
                    let n = bytes.len().min(CHUNK - out.len().min(CHUNK));
                    out.extend(bytes.drain(..n));
                    if !bytes.is_empty() {
                        break;
                    }
                    self.script.pop_front();
                }
                Step::Await(what) => {
                    let what = *what;
                    if !self.take_request(what) {
                        break;
                    }
                    self.script.pop_front();
                }
                Step::Acks(..) => {
                    self.answer_acks(now);
                    break;
                }
                Step::Forever(bytes, every) => {
                    if now >= self.next_forever {
                        out.extend_from_slice(bytes);
                        self.next_forever = now + *every;
                    }
                    break;
                }
            }
        }
        while self.answers.front().is_some_and(|(due, _)| *due <= now) {
            out.extend(self.answers.pop_front().unwrap().1);
            self.answered += 1;
        }
        out
    }

    /// Reads the acknowledgements received and queues their answers.
    fn answer_acks(&mut self, now: u64) {
        self.read_requests();
        let Some(Step::Acks(answer, delay)) = self.script.front() else {
            return;
        };
        let delay = *delay;
        while let Some(request) = self.requests.pop_front() {
            let Request::Ack { game, check } = request else {
                continue;
            };
            let f = &self.frames;
            let reply = match answer {
                Answer::Checks(checks) => Some(match checks.get(&game) {
                    Some(&c) if c == check => f.acked(game),
                    Some(_) => f.error(ErrorCode::CheckMismatch as u8, game),
                    None => f.error(ErrorCode::NoGame as u8, game),
                }),
                Answer::Refuse(code, name_game) => {
                    Some(f.error(*code, if *name_game { game } else { 0 }))
                }
                Answer::Never => None,
            };
            if let Some(reply) = reply {
                self.answers.push_back((now + delay, reply));
            }
        }
    }

    /// What the host wrote, as text.
    pub fn heard(&self) -> String {
        String::from_utf8_lossy(&self.heard).into_owned()
    }

    /// The `{ack N C}` requests the host wrote, in order.
    pub fn acks(&self) -> Vec<(u32, u32)> {
        self.heard
            .split(|&b| b == b'}')
            .filter_map(|text| {
                let start = text.iter().position(|&b| b == b'{')?;
                match Request::parse(&text[start + 1..]) {
                    Ok(Request::Ack { game, check }) => Some((game, check)),
                    _ => None,
                }
            })
            .collect()
    }
}

/// A conversation with a board, on the scripted clock.
pub struct Link {
    /// The host's side: the conversation under test.
    pub talk: Conversation,
    /// The board's side.
    pub board: Board,
    /// The clock, in milliseconds.
    pub now: u64,
    /// Everything the conversation reported.
    pub progress: Vec<Progress>,
    /// When a frame last arrived (the time of the turn whose bytes made one).
    pub last_frame: u64,
    /// The most acknowledgements the board had read and not yet answered, at any turn.
    pub most_unanswered: usize,
}

impl Link {
    /// `talk`, a port's conversation begun at time 0, with `board`.
    pub fn new(talk: Conversation, board: Board) -> Link {
        Link {
            talk,
            board,
            now: 0,
            progress: Vec::new(),
            last_frame: 0,
            most_unanswered: 0,
        }
    }

    /// One turn at the current time: the host's bytes to the board, the board's back.
    pub fn turn(&mut self) {
        self.board.hear(&self.talk.outgoing());
        let bytes = self.board.turn(self.now);
        if !bytes.is_empty() {
            let progress = self.talk.feed(&bytes, self.now).unwrap();
            if progress.iter().any(|p| !matches!(p, Progress::Damaged(_))) {
                self.last_frame = self.now;
            }
            self.progress.extend(progress);
        }
        self.board.hear(&self.talk.outgoing());
        let acks_sent = self.board.acks().len();
        self.most_unanswered = self
            .most_unanswered
            .max(acks_sent - self.board.answered.min(acks_sent));
    }

    /// Turns until the conversation is no longer listening (as the CLI's loop: the state
    /// first, then a read); its state then. Fails past [`LIMIT`] ms.
    pub fn run(&mut self) -> State {
        loop {
            let state = self.talk.state(self.now, TIMEOUT);
            if state != State::Listening {
                return state;
            }
            assert!(self.now < LIMIT, "no end within {LIMIT} ms");
            self.turn();
            self.now += TICK;
        }
    }

    /// The end of the pull: the games still open handed over.
    pub fn finish(&mut self) {
        let progress = self.talk.finish().unwrap();
        self.progress.extend(progress);
    }

    /// What became of each game closed: its number and outcome, in order.
    pub fn outcomes(&self) -> Vec<(u32, Outcome)> {
        self.progress
            .iter()
            .filter_map(|p| match p {
                Progress::Pulled(p) => Some((p.game.number, p.outcome.clone())),
                _ => None,
            })
            .collect()
    }

    /// The device's facts received, as the report words them.
    pub fn facts(&self) -> Vec<String> {
        self.progress
            .iter()
            .filter_map(|p| match p {
                Progress::Device(fact) => Some(fact.to_string()),
                _ => None,
            })
            .collect()
    }
}
