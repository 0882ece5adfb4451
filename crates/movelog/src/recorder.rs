//! Recording while playing.

use twenty48_engine::{Direction, Game, Outcome, PlayError, Rules};

use crate::claims::{checkpoint_hash, Claims};
use crate::error::RecordError;
use crate::log::MoveLog;

/// K, the checkpoint interval [`Recorder`] uses unless told otherwise.
pub const DEFAULT_CHECKPOINT_INTERVAL: u32 = 256;

/// Records as you play: wraps a [`Game`]; moves that do not change the board are not logged.
///
/// ```
/// use twenty48_engine::{Direction, Rules};
/// use twenty48_movelog::{MoveLog, Recorder};
///
/// let mut rec = Recorder::new(Rules::CLASSIC, 1).unwrap().with_checkpoint_interval(2);
/// for dir in [Direction::Left, Direction::Left, Direction::Up, Direction::Right] {
///     rec.play(dir).unwrap();
/// }
/// let log = rec.finish();
/// assert_eq!(log.moves, rec.moves());
/// assert_eq!(MoveLog::decode(&log.encode()), Ok(log));
/// ```
#[derive(Clone, Debug)]
pub struct Recorder {
    game: Game,
    moves: Vec<Direction>,
    checkpoint_interval: u32,
    checkpoints: Vec<u32>,
}

impl Recorder {
    /// A new game with the [default](DEFAULT_CHECKPOINT_INTERVAL) checkpoint interval.
    pub fn new(rules: Rules, seed: u64) -> Result<Recorder, RecordError> {
        let game = Game::new(rules, seed).map_err(|source| RecordError::InvalidRules { source })?;
        Ok(Recorder {
            game,
            moves: Vec::new(),
            checkpoint_interval: DEFAULT_CHECKPOINT_INTERVAL,
            checkpoints: Vec::new(),
        })
    }

    /// Sets K, the checkpoint interval (0: no checkpoints). Checkpoints of moves already
    /// played are recomputed by replaying them.
    pub fn with_checkpoint_interval(mut self, k: u32) -> Self {
        self.checkpoint_interval = k;
        self.checkpoints.clear();
        if k > 0 && !self.moves.is_empty() {
            let mut replay = Game::new(*self.game.rules(), self.game.seed())
                .expect("the rules were validated when the recorder was made");
            for &dir in &self.moves {
                let _ = replay.play(dir);
                if replay.move_count() % k == 0 {
                    self.checkpoints.push(checkpoint_hash(replay.state_hash()));
                }
            }
        }
        self
    }

    /// Plays a move; logs it only if it moved the board.
    pub fn play(&mut self, dir: Direction) -> Result<Outcome, PlayError> {
        let outcome = self.game.play(dir)?;
        if outcome.moved {
            self.moves.push(dir);
            let k = self.checkpoint_interval;
            if k > 0 && self.game.move_count() % k == 0 {
                self.checkpoints
                    .push(checkpoint_hash(self.game.state_hash()));
            }
        }
        Ok(outcome)
    }

    /// The game being recorded.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The moves logged so far.
    pub fn moves(&self) -> &[Direction] {
        &self.moves
    }

    /// The log so far, with claims from the current game state; marked complete.
    pub fn finish(&self) -> MoveLog {
        MoveLog {
            rules: *self.game.rules(),
            seed: self.game.seed(),
            moves: self.moves.clone(),
            checkpoint_interval: self.checkpoint_interval,
            checkpoints: self.checkpoints.clone(),
            claims: Claims::of(&self.game),
            complete: true,
            hinted: false,
        }
    }
}
