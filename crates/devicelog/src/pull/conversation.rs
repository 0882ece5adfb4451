//! The pull conversation with a board, without its I/O: bytes from the device go in, the
//! progress of the pull and the exact bytes to send back come out. The caller keeps the
//! port, the clock and the printing; the conversation keeps everything else: the request,
//! the state of the device's reply, the acknowledgement window, what a reconnection undoes.
//!
//! ```no_run
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # fn folder() -> Box<dyn twenty48_devicelog::pull::Folder> { unimplemented!() }
//! # fn firmware() -> Vec<u8> { unimplemented!() }
//! use twenty48_devicelog::pull::{Conversation, PortOptions, State};
//!
//! // The bytes of the firmware's ELF (`twenty48-nano-rp2040`), and where the files go: a
//! // `Folder` (the CLI's is a directory).
//! let elf = firmware();
//! let mut talk = Conversation::port(&elf, folder(), PortOptions::default(), 0)?;
//! # let mut port: Vec<u8> = Vec::new();
//! # let mut now = 0;
//! loop {
//!     std::io::Write::write_all(&mut port, &talk.outgoing())?; // `{hello}{pull}`, then acks
//!     # let bytes: &[u8] = &[]; now += 200;
//!     for progress in talk.feed(bytes, now)? {
//!         println!("{progress:?}");
//!     }
//!     if talk.state(now, 15_000) != State::Listening {
//!         break;
//!     }
//! }
//! # Ok(()) }
//! ```

use std::io;

use twenty48_deviceproto::{ErrorCode, Request};

use super::ack_window::AckWindow;
use super::folder::Folder;
use super::ledger::summary::Summary;
use super::ledger::Listed;
use super::pulled::Progress;
use super::puller::Puller;
use super::verdict::{Facts, Silence, Verdict};
use crate::error::DeviceLogError;
use crate::event::Damage;
use crate::fact::DeviceFact;
use crate::reply::Reply;

/// Where a conversation stands, at a given time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum State {
    /// The reply or an acknowledgement's answer is still awaited (or, on a capture, more
    /// bytes may come).
    Listening,
    /// The device's reply is over and every acknowledgement sent was answered.
    Done,
    /// No frame came for longer than the time allowed while something was awaited.
    Silent,
}

/// What a pull from a board on a port asks for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PortOptions {
    /// Every stored game, acknowledged before or not (`{pull all}`), not only those not yet
    /// acknowledged (`{pull}`).
    pub all: bool,
    /// Also write damaged or unfinished games: their verified moves, marked incomplete.
    pub keep_partial: bool,
}

/// A pull's conversation: the pull of a board on a port ([`Conversation::port`]: the
/// request sent, the reply's state, the acknowledgements, [`AckWindow`]), or of a capture's
/// bytes ([`Conversation::capture`]: nothing sent, nothing acknowledged, every game decided
/// with all its copies in view).
///
/// Its promises (docs/firmware.md, "Threat model"): a game is acknowledged only once it is
/// safely on disk, and only by the check of the copy on disk; at most
/// [`ACKS_IN_FLIGHT`](super::ACKS_IN_FLIGHT) acknowledgements are unanswered at once; the end
/// of a reply that began before this conversation is not taken for its own; an
/// acknowledgement refused (an error naming its game, or any error 6 after the reply began)
/// is counted as refused, never as answered; only an error 6 naming no game before any
/// reply began says the device keeps no store.
#[derive(Debug)]
pub struct Conversation {
    puller: Puller,
    /// The request this pull made, or `None` for a capture (no one to talk to).
    request: Option<Request>,
    /// A `pull begin` arrived: the reply to this pull's request is under way.
    begun: bool,
    /// The reply is over: its `pull done` arrived after its `pull begin`, or the device
    /// said it keeps no store.
    done: bool,
    /// The device keeps no game store (error 6 answering the request): nothing to pull or
    /// acknowledge; its games come live only.
    no_store: bool,
    acks: AckWindow,
    /// Bytes to send the device, not yet taken.
    outgoing: Vec<u8>,
    /// When the last frame arrived (or the conversation began), in the caller's
    /// milliseconds.
    last_frame: u64,
    /// The silence the caller stopped on ([`Conversation::give_up`]): how, and the
    /// milliseconds allowed.
    silence: Option<(Silence, u64)>,
}

impl Conversation {
    /// A pull from a board on a port, decoding its log with the firmware `elf` and keeping
    /// the games in `folder`: `{hello}` and `{pull}` (`options.all`: `{pull all}`) wait in
    /// [`Conversation::outgoing`]; each game is written as it closes and then acknowledged.
    /// `now` is the caller's clock in milliseconds (any origin; it only has to grow).
    ///
    /// # Errors
    /// When `elf` is not a firmware ELF with a defmt table.
    pub fn port(
        elf: &[u8],
        folder: Box<dyn Folder>,
        options: PortOptions,
        now: u64,
    ) -> Result<Conversation, DeviceLogError> {
        let puller = Puller::port(elf, folder, options.keep_partial)?;
        let mut talk = Conversation::with(puller, Some(Request::Pull { all: options.all }));
        talk.last_frame = now;
        talk.ask();
        Ok(talk)
    }

    /// A pull of a capture's bytes, decoded with the firmware `elf`, its games kept in
    /// `folder` (`keep_partial`: with the verified moves of damaged or unfinished games,
    /// marked incomplete). No one to talk to: nothing is ever sent or acknowledged, and
    /// nothing is written until the bytes end (or
    /// [`DEFER_BYTES`](super::DEFER_BYTES) of copies wait), so that every game is decided
    /// with all its copies in view: two copies of one game that differ are both left out.
    ///
    /// # Errors
    /// When `elf` is not a firmware ELF with a defmt table.
    pub fn capture(
        elf: &[u8],
        folder: Box<dyn Folder>,
        keep_partial: bool,
    ) -> Result<Conversation, DeviceLogError> {
        let puller = Puller::capture(elf, folder, keep_partial)?;
        Ok(Conversation::with(puller, None))
    }

    fn with(puller: Puller, request: Option<Request>) -> Conversation {
        Conversation {
            puller,
            request,
            begun: false,
            done: false,
            no_store: false,
            acks: AckWindow::default(),
            outgoing: Vec::new(),
            last_frame: 0,
            silence: None,
        }
    }

    fn ask(&mut self) {
        if let Some(request) = self.request {
            self.outgoing
                .extend(format!("{}{request}", Request::Hello).as_bytes());
        }
    }

    /// Bytes from the device, at `now`: the pull's progress. The acknowledgements the
    /// games written now call for, as far as the window has room, are added to
    /// [`Conversation::outgoing`].
    ///
    /// # Errors
    /// When a `.t48` file cannot be written.
    pub fn feed(&mut self, bytes: &[u8], now: u64) -> io::Result<Vec<Progress>> {
        let progress = self.puller.feed(bytes)?;
        // Only frames count as hearing from the device: bytes that make none (a zero
        // byte a second, endless noise) do not keep the pull waiting.
        if progress.iter().any(|p| !matches!(p, Progress::Damaged(_))) {
            self.last_frame = now;
        }
        let talking = self.request.is_some();
        let out = self.handle(progress, talking);
        self.send_acks();
        Ok(out)
    }

    /// The end of the bytes: the games still open are checked and written as far as they
    /// are certain; a capture's copies waiting are decided and written. Nothing is
    /// acknowledged after it.
    ///
    /// # Errors
    /// When a `.t48` file cannot be written.
    pub fn finish(&mut self) -> io::Result<Vec<Progress>> {
        let progress = self.puller.finish()?;
        let out = self.handle(progress, false);
        Ok(out)
    }

    /// The bytes to send the device now (requests and acknowledgements, in order); taken.
    pub fn outgoing(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.outgoing)
    }

    /// The link to the device went away and came back, at `now`: whatever was under way is
    /// gone. The request is made again; acknowledgements not answered are forgotten (their
    /// games come again and are recognised on disk).
    pub fn reconnected(&mut self, now: u64) {
        self.puller.asked_again();
        self.acks.forget();
        self.begun = false;
        self.done = false;
        self.outgoing.clear();
        self.last_frame = now;
        self.ask();
    }

    /// Where the conversation stands at `now`, given `timeout` milliseconds of silence
    /// allowed: done once the reply is over and no acknowledgement is outstanding; silent
    /// when no frame came for longer than `timeout` before that.
    pub fn state(&self, now: u64, timeout: u64) -> State {
        if self.done && !self.acks.outstanding() {
            State::Done
        } else if now.saturating_sub(self.last_frame) > timeout {
            State::Silent
        } else {
            State::Listening
        }
    }

    /// Whether the device's reply to this pull's request is over (its `pull done`, or it
    /// keeps no store).
    pub fn replied(&self) -> bool {
        self.done
    }

    /// Whether the device said it keeps no game store.
    pub fn no_store(&self) -> bool {
        self.no_store
    }

    /// The acknowledgements: answered, refused, unanswered.
    pub fn acks(&self) -> &AckWindow {
        &self.acks
    }

    /// What the pull found: received games, duplicates, conflicts, gaps, losses, notes. A
    /// reply still under way is cut off, and counted so, only by [`Conversation::finish`].
    pub fn summary(&self) -> Summary {
        self.puller.summary()
    }

    /// Bytes read so far.
    pub fn bytes_fed(&self) -> usize {
        self.puller.bytes_fed()
    }

    /// What the pull holds beyond its fixed parts: the copies waiting for a decision, in
    /// bytes, and the games open in the decoder. Both are bounded
    /// ([`DEFER_BYTES`](super::DEFER_BYTES), [`MAX_OPEN_GAMES`](crate::MAX_OPEN_GAMES)).
    pub fn in_flight(&self) -> (usize, usize) {
        self.puller.in_flight()
    }

    fn send_acks(&mut self) {
        for ack in self.acks.take_sendable() {
            self.outgoing
                .extend(Request::from(ack).to_string().as_bytes());
        }
    }

    /// The conversation's part in `progress`; `talking`: a device is listening (acks are
    /// decided, an earlier reply's end is told apart).
    fn handle(&mut self, progress: Vec<Progress>, talking: bool) -> Vec<Progress> {
        let mut out = Vec::with_capacity(progress.len());
        for step in progress {
            match &step {
                Progress::Pulled(pulled) => {
                    if let Some(ack) = pulled.ack.filter(|_| talking && !self.no_store) {
                        self.acks.queue(ack);
                    }
                }
                Progress::Reply(Reply::Began { .. }) => self.begun = true,
                Progress::Reply(reply) if reply.is_done() => {
                    if talking && !self.begun {
                        // The end of a reply whose begin came before this pull was
                        // listening (an earlier pull's, cut off): not this pull's answer.
                        out.push(step);
                        out.push(Progress::EarlierReplyEnded);
                        continue;
                    }
                    self.done = true;
                }
                Progress::Device(fact) => match *fact {
                    DeviceFact::Error { code, game, .. } if code == ErrorCode::NoStore as u8 => {
                        if !self.begun && game == 0 {
                            // The answer to the request (it names no game): nothing to pull
                            // or acknowledge.
                            self.done = true;
                            self.no_store = true;
                            self.acks.forget();
                        } else if !self.acks.refused(game, fact.to_string()) && self.begun {
                            // A device that replied keeps a store: an error 6 now answers
                            // acknowledgements, and refuses those in flight.
                            self.acks.refuse_in_flight(&fact.to_string());
                        }
                    }
                    DeviceFact::Acked { game, .. } if self.acks.acked(game) => {
                        out.push(step);
                        out.push(Progress::Acked(game));
                        continue;
                    }
                    DeviceFact::Error { game, .. } => {
                        self.acks.refused(game, fact.to_string());
                    }
                    _ => {}
                },
                _ => {}
            }
            out.push(step);
        }
        out
    }

    /// The caller stops waiting at `now` for a device silent for longer than `timeout`
    /// milliseconds (`how`: its port open, or gone): the verdict fails for it. Whether the
    /// conversation was silent then ([`State::Silent`]); when it was not, nothing is
    /// recorded: silence is the conversation's to tell, not the caller's.
    pub fn give_up(&mut self, now: u64, timeout: u64, how: Silence) -> bool {
        let silent = self.state(now, timeout) == State::Silent;
        if silent {
            self.silence = Some((how, timeout));
        }
        silent
    }

    /// The verdict on the pull, from all it saw: the games' summary
    /// ([`Conversation::summary`]), the acknowledgements, the device's reply, the silence its
    /// caller gave up on ([`Conversation::give_up`]), what the bytes held. Call it after
    /// [`Conversation::finish`].
    pub fn verdict(&self) -> Verdict {
        Verdict::of(
            self.puller.summary(),
            Facts {
                port: self.request.is_some(),
                replied: self.done,
                device_frames: self.puller.facts().total() > 0,
                copies: self.puller.copies(),
                damaged: self.puller.damage().total() > 0,
                silence: self.silence,
                acks: &self.acks,
            },
        )
    }

    /// Every damaged stretch of the bytes (the noise before the first frame too), the
    /// first [`LISTED`](super::LISTED), and how many more.
    pub fn damage(&self) -> &Listed<Damage> {
        self.puller.damage()
    }

    /// The device's own frames (hello, lost, full, pull, acked, error), the first
    /// [`LISTED`](super::LISTED), and how many more.
    pub fn facts(&self) -> &Listed<DeviceFact> {
        self.puller.facts()
    }
}
