//! What the verifier reads a game from: a decoded [`MoveLog`], or a [`PackedLog`] straight
//! from a file's bytes, whose moves are unpacked a stretch at a time into a buffer on the
//! stack (so verifying or replaying takes no memory in proportion to the moves beyond the
//! file's own bytes).

use core::ops::Range;

use twenty48_engine::{Direction, Rules};
use twenty48_movelog::{Claims, MoveLog, PackedLog};

/// The most moves one [`Log::moves_in`] call hands out.
pub const STRETCH: usize = 1024;

/// The buffer [`Log::moves_in`] may unpack moves into.
pub type Stretch = [Direction; STRETCH];

/// A recorded game as the verifier reads it: [`MoveLog`] and [`PackedLog`] are both one.
pub trait Log {
    /// The rules.
    fn rules(&self) -> Rules;
    /// The seed.
    fn seed(&self) -> u64;
    /// K: a checkpoint every K moves; 0 for none.
    fn checkpoint_interval(&self) -> u32;
    /// The writer's claims.
    fn claims(&self) -> &Claims;
    /// Whether the log holds the whole game.
    fn complete(&self) -> bool;
    /// The number of moves.
    fn move_count(&self) -> usize;
    /// The move at `index` (0-based; below [`Log::move_count`]).
    fn move_at(&self, index: usize) -> Direction;
    /// The moves in `range` (at most [`STRETCH`] of them, within the log): the log's own, or
    /// unpacked into `buffer`.
    fn moves_in<'s>(&'s self, range: Range<usize>, buffer: &'s mut Stretch) -> &'s [Direction];
    /// The checkpoint stored after move number `moves_played`, if any.
    fn checkpoint_after(&self, moves_played: u32) -> Option<u32>;
}

impl Log for MoveLog {
    fn rules(&self) -> Rules {
        self.rules
    }
    fn seed(&self) -> u64 {
        self.seed
    }
    fn checkpoint_interval(&self) -> u32 {
        self.checkpoint_interval
    }
    fn claims(&self) -> &Claims {
        &self.claims
    }
    fn complete(&self) -> bool {
        self.complete
    }
    fn move_count(&self) -> usize {
        self.moves.len()
    }
    fn move_at(&self, index: usize) -> Direction {
        self.moves[index]
    }
    fn moves_in<'s>(&'s self, range: Range<usize>, _: &'s mut Stretch) -> &'s [Direction] {
        &self.moves[range]
    }
    fn checkpoint_after(&self, moves_played: u32) -> Option<u32> {
        MoveLog::checkpoint_after(self, moves_played)
    }
}

impl Log for PackedLog<'_> {
    fn rules(&self) -> Rules {
        self.rules
    }
    fn seed(&self) -> u64 {
        self.seed
    }
    fn checkpoint_interval(&self) -> u32 {
        self.checkpoint_interval
    }
    fn claims(&self) -> &Claims {
        &self.claims
    }
    fn complete(&self) -> bool {
        self.complete
    }
    fn move_count(&self) -> usize {
        PackedLog::move_count(self) as usize
    }
    fn move_at(&self, index: usize) -> Direction {
        PackedLog::move_at(self, index)
    }
    fn moves_in<'s>(&'s self, range: Range<usize>, buffer: &'s mut Stretch) -> &'s [Direction] {
        let out = &mut buffer[..range.len()];
        self.unpack_into(range.start, out);
        out
    }
    fn checkpoint_after(&self, moves_played: u32) -> Option<u32> {
        PackedLog::checkpoint_after(self, moves_played)
    }
}
