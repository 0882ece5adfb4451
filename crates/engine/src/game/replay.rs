//! The replay loops of [`Game::play_all`]: the packed 4x4 board with the game's bookkeeping
//! in locals, compiled once portably and, on x86-64 CPUs with BMI2, once more with BMI2.

#[cfg(all(feature = "std", target_arch = "x86_64"))]
use crate::bitboard::cpu::Bmi2;
use crate::bitboard::cpu::{Cpu, Portable};
use crate::bitboard::{FastSlide, Packed};
use crate::direction::Direction;
use crate::rules::Scoring;
use crate::spawn::{four_threshold, reduce_cell};

use core::ops::ControlFlow;

use super::step::Step;
use super::{Game, Outcome, Refusal, Spawn, State, Status};

/// Where a replay loop stopped: `Continue` at the index of the first move it did not play
/// (the caller goes on from there), or `Break` with the number of moves played when the
/// caller's `on_move` asked to stop.
pub(super) type Played = ControlFlow<usize, usize>;

impl Game {
    /// [`Game::play_all_observed`] with `packed` as the packed-board replay loop: returns
    /// how many moves were played (fewer than the list holds only when `on_move` stopped).
    #[inline(always)]
    pub(super) fn play_all_with<H: FnMut(&Step) -> ControlFlow<()>>(
        &mut self,
        moves: &[Direction],
        on_move: &mut H,
        packed: impl Fn(&mut Game, Packed, &[Direction], usize, &mut H) -> Result<Played, Refusal>,
    ) -> Result<usize, Refusal> {
        let mut index = 0;
        while index < moves.len() {
            if self.status.is_finished() {
                return Err(Refusal::Finished {
                    index,
                    status: self.status,
                });
            }
            if let State::Packed(board) = self.state {
                index = match packed(self, board, moves, index, on_move)? {
                    ControlFlow::Continue(index) => index,
                    ControlFlow::Break(played) => return Ok(played),
                };
                if index == moves.len() || self.status.is_finished() {
                    continue;
                }
                // The move at `index` overflows a nibble (or needs a word from the next
                // buffer fill): the general path below plays it.
            }
            if self.play_step(index, moves[index], on_move)?.is_break() {
                return Ok(index + 1);
            }
            index += 1;
        }
        Ok(index)
    }

    /// The replay loop of the 4x4 fast path: plays `moves[start..]` on the packed board with
    /// the game's bookkeeping kept in locals, exactly as [`Game::play`] would, handing each
    /// move to `on_move`, until the list ends, a move is refused, the game ends, `on_move`
    /// says stop, or a slide overflows a nibble. Returns where it stopped ([`Played`]).
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
        on_move: &mut impl FnMut(&Step) -> ControlFlow<()>,
    ) -> Result<Played, Refusal> {
        #[cfg(all(feature = "std", target_arch = "x86_64"))]
        if let Some(bmi2) = Bmi2::detect() {
            // SAFETY: `detect` found BMI2 on this CPU (and every CPU with BMI2 has BMI1).
            return unsafe { self.play_all_packed_bmi2(bmi2, board, moves, start, on_move) };
        }
        self.replay_packed(Portable, board, moves, start, on_move)
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
        on_move: &mut impl FnMut(&Step) -> ControlFlow<()>,
    ) -> Result<Played, Refusal> {
        self.replay_packed(bmi2, board, moves, start, on_move)
    }

    /// The body of [`Game::play_all_packed`], with the slides and placements of `cpu`.
    #[inline(always)]
    pub(super) fn replay_packed<C: Cpu>(
        &mut self,
        cpu: C,
        mut board: Packed,
        moves: &[Direction],
        start: usize,
        on_move: &mut impl FnMut(&Step) -> ControlFlow<()>,
    ) -> Result<Played, Refusal> {
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
            return Ok(ControlFlow::Continue(start));
        }
        let mut win_value = win.map_or(u32::MAX, |w| 1 << w.exponent);
        let mut score = self.score;
        // Empty cells of `board`. Each merge frees one cell and each spawn fills one, so the
        // count after a slide is known as soon as the slide's merges are, before the slid
        // board's empty cells are: the spawn's cell draw does not wait for them.
        let mut empty = board.empty_count();
        // `index` is the first move not played; the loop ends with what stopped it.
        let mut index = start;
        // Whether `on_move` asked to stop.
        let mut stopped_by_caller = false;
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
                let gained = match scoring {
                    Scoring::MergedValues => merged_value as u64,
                    Scoring::MergeCount => merges as u64,
                };
                score += gained;
                // The move as `on_move` sees it, once its status is known (nothing of it is
                // built when `on_move` does not look: `play_all`'s does nothing). The spawn's
                // cell is the nibble the spawn filled.
                let move_count = self.moves + (index - start + played) as u32;
                let mut hand_out = |status, reached_win| {
                    on_move(&Step {
                        index: index + played - 1,
                        direction,
                        outcome: Outcome {
                            moved: true,
                            gained,
                            merges,
                            spawn: Some(Spawn {
                                cell: ((board.0 ^ slid.0).trailing_zeros() / 4) as u8,
                                exponent: 1 + u8::from(is_four),
                            }),
                            reached_win,
                            status,
                        },
                        score,
                        move_count,
                        board: State::Packed(board),
                    })
                };
                let mut reached_win = false;
                if merged_value >= win_value {
                    if let Some(w) = win.filter(|w| board.contains_exponent(w.exponent)) {
                        self.reached_win = true;
                        reached_win = true;
                        win = None;
                        win_value = u32::MAX;
                        if w.ends_game {
                            self.status = Status::Won;
                            stopped_by_caller = hand_out(Status::Won, true).is_break();
                            stop = Some(Ok(()));
                            break;
                        }
                    }
                }
                // The board can only be stuck when the spawn filled its last empty cell.
                if empty == 0 && board.full_is_stuck() {
                    self.status = Status::Over;
                    stopped_by_caller = hand_out(Status::Over, reached_win).is_break();
                    stop = Some(Ok(()));
                    break;
                }
                if hand_out(Status::Playing, reached_win).is_break() {
                    stopped_by_caller = true;
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
        stop.map(|()| match stopped_by_caller {
            true => ControlFlow::Break(index),
            false => ControlFlow::Continue(index),
        })
    }
}
