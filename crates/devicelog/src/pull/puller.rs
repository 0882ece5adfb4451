//! The pull's router: bytes in, the decoder's events handed to what keeps each fact (the
//! copies kept, the copies waiting, the ledger), its progress out.

use std::io;

use crate::capture::CaptureDecoder;
use crate::error::DeviceLogError;
use crate::event::{Damage, Event};
use crate::fact::DeviceFact;
use crate::received::ReceivedGame;

use super::folder::Folder;
use super::keeper::Keeper;
use super::ledger::summary::Summary;
use super::ledger::{Copies, Ledger, Listed};
use super::pulled::{Outcome, Progress, Pulled};
use super::runs::key;
use super::waiting::Waiting;

/// Who the pull is for, which decides when it writes.
#[derive(Debug)]
enum Mode {
    /// A board on a port, asked for its games: each copy is written as it closes, so that
    /// it can be acknowledged.
    Port,
    /// A capture's bytes, no one to talk to: nothing is written until the bytes end (or
    /// [`DEFER_BYTES`](super::DEFER_BYTES) of copies wait), then every game is decided with
    /// all its copies in view. The copies waiting.
    Capture(Waiting),
}

/// A pull in progress: capture bytes in, games written into its folder.
#[derive(Debug)]
pub(super) struct Puller {
    mode: Mode,
    decoder: CaptureDecoder<ReceivedGame>,
    keeper: Keeper,
    ledger: Ledger,
    /// Whether any frame decoded yet (damage before the first one is line noise).
    decoded_any: bool,
}

impl Puller {
    /// A pull of a board on a port, decoding with the firmware `elf`, keeping its files in
    /// `folder`: each copy written as it closes.
    pub(super) fn port(
        elf: &[u8],
        folder: Box<dyn Folder>,
        keep_partial: bool,
    ) -> Result<Puller, DeviceLogError> {
        Puller::new(elf, folder, keep_partial, Mode::Port)
    }

    /// A pull of a capture's bytes: every copy waits for the end.
    pub(super) fn capture(
        elf: &[u8],
        folder: Box<dyn Folder>,
        keep_partial: bool,
    ) -> Result<Puller, DeviceLogError> {
        let waiting = Mode::Capture(Waiting::default());
        Puller::new(elf, folder, keep_partial, waiting)
    }

    fn new(
        elf: &[u8],
        folder: Box<dyn Folder>,
        keep_partial: bool,
        mode: Mode,
    ) -> Result<Puller, DeviceLogError> {
        Ok(Puller {
            mode,
            decoder: CaptureDecoder::with_record(elf)?,
            keeper: Keeper::new(folder, keep_partial),
            ledger: Ledger::default(),
            decoded_any: false,
        })
    }

    /// The device was asked again (the link came back).
    pub(super) fn asked_again(&mut self) {
        self.ledger.asked_again();
    }

    /// Bytes read so far.
    pub(super) fn bytes_fed(&self) -> usize {
        self.decoder.bytes_fed()
    }

    /// Reads more bytes; writes the games they close.
    pub(super) fn feed(&mut self, bytes: &[u8]) -> io::Result<Vec<Progress>> {
        let events = self.decoder.feed(bytes);
        self.handle(events, false)
    }

    /// Ends the bytes: the games still open are checked (truncated) and written as far as
    /// they are certain; the copies waiting are decided and written.
    pub(super) fn finish(&mut self) -> io::Result<Vec<Progress>> {
        let events = self.decoder.finish();
        let mut out = self.handle(events, true)?;
        self.decide(&mut out)?;
        Ok(out)
    }

    /// The device's own frames, the first [`LISTED`](super::LISTED) of them.
    pub(super) fn facts(&self) -> &Listed<DeviceFact> {
        self.ledger.facts()
    }

    /// Every damaged stretch of the bytes (the noise before the first frame too).
    pub(super) fn damage(&self) -> &Listed<Damage> {
        self.ledger.all_damage()
    }

    /// The copies received.
    pub(super) fn copies(&self) -> Copies {
        self.ledger.copies()
    }

    /// What the pull found.
    pub(super) fn summary(&self) -> Summary {
        self.ledger
            .summary(self.keeper.folder(), self.keeper.overflowed())
    }

    /// Bytes of copies waiting for a decision, and games open in the decoder.
    pub(super) fn in_flight(&self) -> (usize, usize) {
        let waiting = match &self.mode {
            Mode::Port => 0,
            Mode::Capture(waiting) => waiting.bytes(),
        };
        (waiting, self.decoder.open_games())
    }

    /// Hands each event to what keeps its facts. `finishing`: the events of the end of the
    /// bytes.
    fn handle(
        &mut self,
        events: Vec<Event<ReceivedGame>>,
        finishing: bool,
    ) -> io::Result<Vec<Progress>> {
        let mut out = Vec::with_capacity(events.len());
        for event in events {
            if !matches!(event, Event::Damaged(_)) {
                self.decoded_any = true;
            }
            match event {
                Event::GameStarted { dev, number, .. } => {
                    if let Some(dev) = dev {
                        self.ledger.seen(dev, number);
                    }
                    out.push(Progress::Started(event))
                }
                Event::Moved { game, mv } => out.push(Progress::Moved {
                    game,
                    seq: mv.seq,
                    moves: 1,
                }),
                Event::StoredMoves { game, first, count } => out.push(Progress::Moved {
                    game,
                    seq: first.saturating_add(count),
                    moves: count,
                }),
                Event::GameClosed(game) => self.closed(*game, finishing, &mut out)?,
                Event::Damaged(d) => {
                    self.ledger.damage(&d, self.decoded_any);
                    out.push(Progress::Damaged(d))
                }
                Event::Device(fact) => {
                    match fact {
                        DeviceFact::Hello { dev, next, .. } => self.ledger.hello(dev, next),
                        DeviceFact::Lost {
                            dev: Some(dev),
                            game,
                            ..
                        } if game != 0 => self.ledger.seen(dev, game),
                        _ => {}
                    }
                    self.ledger.fact(fact);
                    out.push(Progress::Device(fact))
                }
                Event::Reply(reply) => {
                    self.ledger.reply(reply, matches!(self.mode, Mode::Port));
                    out.push(Progress::Reply(reply))
                }
                Event::Stray { dev, game, frame } => {
                    let waiting = match &self.mode {
                        Mode::Port => None,
                        Mode::Capture(waiting) => waiting.whole(key(dev, game)),
                    };
                    self.keeper
                        .stray(dev, game, &frame, waiting, &mut self.ledger)
                }
                _ => {}
            }
        }
        Ok(out)
    }

    /// A copy of a game closed: written now (a port), or waiting (a capture).
    fn closed(
        &mut self,
        game: ReceivedGame,
        finishing: bool,
        out: &mut Vec<Progress>,
    ) -> io::Result<()> {
        let Mode::Capture(waiting) = &mut self.mode else {
            let pulled = self.keeper.save(game, finishing, &mut self.ledger)?;
            self.ledger.copy_pulled(&pulled);
            out.push(Progress::Pulled(Box::new(pulled)));
            return Ok(());
        };
        if !finishing {
            // Decided on later: shown now as waiting (the games still open at the end go
            // straight to the decision, with no copy for the progress).
            out.push(Progress::Pulled(Box::new(Pulled {
                check: game.check(),
                game: game.clone(),
                file: None,
                outcome: Outcome::Deferred,
                ack: None,
                replaces: None,
            })));
        }
        let (full, whole) = waiting.push(game);
        if whole.is_some() {
            self.keeper.forget_stray(whole);
        }
        if full {
            self.decide(out)?;
        }
        Ok(())
    }

    /// Decides on every copy waiting, with all of them in view: the kept copy of each game
    /// is written first, so that the copies it holds are its duplicates whatever their
    /// order; then the rest, in closing order.
    fn decide(&mut self, out: &mut Vec<Progress>) -> io::Result<()> {
        let Mode::Capture(waiting) = &mut self.mode else {
            return Ok(());
        };
        let decision = waiting.decide();
        self.keeper.forget_stray(None);
        for (k, parting) in decision.conflicts {
            self.keeper.conflict_found(k, parting);
        }
        let mut saved: Vec<Option<Pulled>> = vec![None; decision.copies.len()];
        for &i in &decision.first {
            let game = decision.copies[i].clone();
            saved[i] = Some(self.keeper.save(game, false, &mut self.ledger)?);
        }
        out.reserve(decision.copies.len());
        for (game, saved) in decision.copies.into_iter().zip(saved) {
            let pulled = match saved {
                Some(pulled) => pulled,
                None => self.keeper.save(game, false, &mut self.ledger)?,
            };
            self.ledger.copy_pulled(&pulled);
            out.push(Progress::Pulled(Box::new(pulled)));
        }
        Ok(())
    }
}
