//! The replay loops of [`Game::play_all`]: the packed 4x4 board with the game's bookkeeping
//! in locals, compiled once portably and, on x86-64 CPUs with BMI2, once more with BMI2.

#[cfg(all(feature = "std", target_arch = "x86_64"))]
use crate::bitboard::Bmi2;
use crate::bitboard::{Cpu, FastSlide, Packed, Portable};
use crate::direction::Direction;
use crate::rules::Scoring;
use crate::spawn::{four_threshold, reduce_cell};

use super::{Game, Refusal, State, Status};

impl Game {
    /// [`Game::play_all`] with `packed` as the packed-board replay loop.
    #[inline(always)]
    pub(super) fn play_all_with(
        &mut self,
        moves: &[Direction],
        packed: impl Fn(&mut Game, Packed, &[Direction], usize) -> Result<usize, Refusal>,
    ) -> Result<(), Refusal> {
        let mut index = 0;
        while index < moves.len() {
            if self.status.is_finished() {
                return Err(Refusal::Finished {
                    index,
                    status: self.status,
                });
            }
            if let State::Packed(board) = self.state {
                index = packed(self, board, moves, index)?;
                if index == moves.len() || self.status.is_finished() {
                    continue;
                }
                // The move at `index` overflows a nibble (or needs a word from the next
                // buffer fill): the general path below plays it.
            }
            let direction = moves[index];
            if !self.play(direction).is_ok_and(|o| o.moved) {
                return Err(Refusal::NoMove { index, direction });
            }
            index += 1;
        }
        Ok(())
    }

    /// The replay loop of the 4x4 fast path: plays `moves[start..]` on the packed board with
    /// the game's bookkeeping kept in locals, exactly as [`Game::play`] would, until the list
    /// ends, a move is refused, the game ends, or a slide overflows a nibble. Returns the index
    /// of the first move not played.
    ///
    /// On x86-64 CPUs with BMI2 (asked at run time) the loop is compiled a second time with
    /// BMI2 enabled, sliding and placing spawns with `pext`/`pdep` without a branch on the
    /// direction; the results are the same either way.
    #[inline(never)]
    pub(super) fn play_all_packed(
        &mut self,
        board: Packed,
        moves: &[Direction],
        start: usize,
    ) -> Result<usize, Refusal> {
        #[cfg(all(feature = "std", target_arch = "x86_64"))]
        if let Some(bmi2) = Bmi2::detect() {
            // SAFETY: `detect` found BMI2 on this CPU (and every CPU with BMI2 has BMI1).
            return unsafe { self.play_all_packed_bmi2(bmi2, board, moves, start) };
        }
        self.replay_packed(Portable, board, moves, start)
    }

    /// [`Game::replay_packed`] compiled for CPUs with BMI1 and BMI2.
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    #[target_feature(enable = "bmi1,bmi2")]
    fn play_all_packed_bmi2(
        &mut self,
        bmi2: Bmi2,
        board: Packed,
        moves: &[Direction],
        start: usize,
    ) -> Result<usize, Refusal> {
        self.replay_packed(bmi2, board, moves, start)
    }

    /// The body of [`Game::play_all_packed`], with the slides and placements of `cpu`.
    #[inline(always)]
    pub(super) fn replay_packed<C: Cpu>(
        &mut self,
        cpu: C,
        mut board: Packed,
        moves: &[Direction],
        start: usize,
    ) -> Result<usize, Refusal> {
        let four = four_threshold(self.rules.four_chance);
        let scoring = self.rules.scoring;
        // The win still to detect. A nibble holds exponents up to 15; a higher winning tile
        // can only appear on the wide board. Until a move reaches it, the largest tile is
        // below it, so the first board holding the tile is the one that reaches it, and that
        // move merged it: a merge making 2^w alone scores 2^w. `win_value` is 2^w, or out of
        // reach once there is nothing to detect.
        let mut win = self
            .rules
            .win
            .filter(|w| !self.reached_win && w.exponent <= 15);
        if win.is_some_and(|w| w.exponent <= 2) {
            // A winning 4 can also be spawned: the general path plays the moves until it is
            // reached (within a few moves: the first 4 spawned or made).
            return Ok(start);
        }
        let mut win_value = win.map_or(u32::MAX, |w| 1 << w.exponent);
        let mut score = self.score;
        // Empty cells of `board`. Each merge frees one cell and each spawn fills one, so the
        // count after a slide is known as soon as the slide's merges are, before the slid
        // board's empty cells are: the spawn's cell draw does not wait for them.
        let mut empty = board.empty_count();
        // `index` is the first move not played; the loop ends with what stopped it.
        let mut index = start;
        let stop = loop {
            // A run of moves whose spawns the generator's buffer holds: two words each.
            let words = self.rng.buffered();
            let run = (words.len() / 2).min(moves.len() - index);
            if run == 0 {
                // The list is played, or one word is left and the next spawn straddles two
                // fills: the caller's general path takes it.
                break Ok(());
            }
            let mut played = 0;
            let mut stop = None;
            for (&direction, spawn) in moves[index..index + run].iter().zip(words.chunks_exact(2)) {
                let FastSlide::Done {
                    board: slid,
                    merged_value,
                    merges,
                } = cpu.slide(board, direction)
                else {
                    stop = Some(Ok(()));
                    break;
                };
                if slid == board {
                    stop = Some(Err(Refusal::NoMove {
                        index: index + played,
                        direction,
                    }));
                    break;
                }
                // A real move leaves an empty cell; a slide never removes every tile, so at
                // most 15 cells are empty.
                let slid_empty = empty + merges;
                let k = reduce_cell(spawn[0], slid_empty);
                let is_four = (spawn[1] as u64) < four;
                debug_assert_eq!(slid_empty, slid.empty_count());
                board = cpu.spawn_kth_empty(slid, k, is_four);
                empty = slid_empty - 1;
                played += 1;
                score += match scoring {
                    Scoring::MergedValues => merged_value as u64,
                    Scoring::MergeCount => merges as u64,
                };
                if merged_value >= win_value {
                    if let Some(w) = win.filter(|w| board.contains_exponent(w.exponent)) {
                        self.reached_win = true;
                        win = None;
                        win_value = u32::MAX;
                        if w.ends_game {
                            self.status = Status::Won;
                            stop = Some(Ok(()));
                            break;
                        }
                    }
                }
                // The board can only be stuck when the spawn filled its last empty cell.
                if empty == 0 && board.full_is_stuck() {
                    self.status = Status::Over;
                    stop = Some(Ok(()));
                    break;
                }
            }
            self.rng.consume_spawns(played);
            index += played;
            if let Some(stop) = stop {
                break stop;
            }
        };
        self.state = State::Packed(board);
        self.score = score;
        self.moves += (index - start) as u32;
        self.max_exponent = board.max_exponent();
        stop.map(|()| index)
    }
}
