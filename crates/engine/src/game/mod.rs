//! A game: rules, seed, and the state the moves so far have made.
//!
//! `Game`'s API and the end-of-move bookkeeping shared by both engines are here; the
//! replay loops of [`Game::play_all`] are in `replay`, the outcome and error types in
//! `outcome`, the board's cells as callers see them in `cells`.

mod cells;
mod outcome;
#[cfg(not(feature = "compact-state"))]
mod replay;
pub(crate) mod step;

pub use cells::Cells;
pub use outcome::{Engine, Outcome, PlayError, Refusal, Status};

use core::fmt;
use core::ops::ControlFlow;

#[cfg(not(feature = "compact-state"))]
use crate::bitboard::{FastSlide, Packed, Wide};
use crate::direction::{Direction, DirectionSet};
use crate::hash;
use crate::reference::{self, Event, MAX_CELLS};
use crate::rules::{OpeningSpawn, Rules, RulesError, Scoring};
use crate::spawn::{Spawn, SpawnRng};
use crate::tile::tile_value;

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum State {
    /// 4x4 on the fast path.
    #[cfg(not(feature = "compact-state"))]
    Packed(Packed),
    /// 4x4 on the fast path after a tile passed 2^15.
    #[cfg(not(feature = "compact-state"))]
    Wide(Wide),
    /// Any size on the reference engine.
    Reference(reference::Board),
}

/// A game of 2048: fully determined by its rules, its seed and the moves played.
///
/// ```
/// use twenty48_engine::{Direction, Game, Rules};
///
/// let mut game = Game::new(Rules::CLASSIC, 42).unwrap();
/// let outcome = game.play(Direction::Left).unwrap();
/// assert_eq!(outcome.moved, game.move_count() == 1);
/// ```
#[derive(Clone)]
pub struct Game {
    rules: Rules,
    seed: u64,
    engine: Engine,
    rng: SpawnRng,
    state: State,
    score: u64,
    moves: u32,
    status: Status,
    reached_win: bool,
    max_exponent: u8,
    opening: [Option<Spawn>; crate::rules::MAX_OPENING],
}

impl Game {
    /// A new game on the fast engine: the rules are checked and the opening spawns placed.
    pub fn new(rules: Rules, seed: u64) -> Result<Game, RulesError> {
        Game::with_engine(rules, seed, Engine::Fast)
    }

    /// A new game on the chosen engine.
    pub fn with_engine(rules: Rules, seed: u64, engine: Engine) -> Result<Game, RulesError> {
        rules.validate()?;
        // Feature `compact-state`: every board on the reference engine (the same games).
        #[cfg(not(feature = "compact-state"))]
        let state = if rules.size == 4 && engine == Engine::Fast {
            State::Packed(Packed(0))
        } else {
            State::Reference(reference::Board::empty(rules.size))
        };
        #[cfg(feature = "compact-state")]
        let state = State::Reference(reference::Board::empty(rules.size));
        let mut game = Game {
            rules,
            seed,
            engine,
            rng: SpawnRng::new(seed),
            state,
            score: 0,
            moves: 0,
            status: Status::Playing,
            reached_win: false,
            max_exponent: 0,
            opening: [None; crate::rules::MAX_OPENING],
        };
        for (i, kind) in rules.opening.spawns().iter().enumerate() {
            let spawn = game.spawn(*kind == OpeningSpawn::Two);
            game.opening[i] = Some(spawn);
            game.max_exponent = game.max_exponent.max(spawn.exponent);
        }
        // An opening that places the winning tile (only possible with a win tile of 4)
        // reaches the win at move 0.
        if rules.win.is_some_and(|w| game.max_exponent >= w.exponent) {
            game.reached_win = true;
        }
        game.update_status_after_spawn(true);
        Ok(game)
    }

    /// Places one spawn on the current board; the board has an empty cell.
    #[inline]
    fn spawn(&mut self, always_two: bool) -> Spawn {
        self.spawn_counted(always_two).0
    }

    /// [`Game::spawn`], also returning how many cells were empty before it.
    #[inline]
    fn spawn_counted(&mut self, always_two: bool) -> (Spawn, u32) {
        let four = self.rules.four_chance;
        match &mut self.state {
            #[cfg(not(feature = "compact-state"))]
            State::Packed(p) => {
                let empty = p.empty_count();
                let (k, e) = self.rng.draw(empty, four, always_two);
                let cell = p.nth_empty(k);
                p.0 |= (e as u64) << (4 * cell);
                let spawn = Spawn {
                    cell: cell as u8,
                    exponent: e,
                };
                (spawn, empty)
            }
            #[cfg(not(feature = "compact-state"))]
            State::Wide(w) => {
                let empty = w.empty_count();
                let (k, e) = self.rng.draw(empty, four, always_two);
                let cell = w.nth_empty(k).unwrap_or(0);
                w.0[cell] = e;
                let spawn = Spawn {
                    cell: cell as u8,
                    exponent: e,
                };
                (spawn, empty)
            }
            State::Reference(b) => {
                let empty = b.empty_count();
                let (k, e) = self.rng.draw(empty, four, always_two);
                let cell = b.nth_empty(k).unwrap_or(0);
                b.set(cell, e);
                let spawn = Spawn {
                    cell: cell as u8,
                    exponent: e,
                };
                (spawn, empty)
            }
        }
    }

    fn is_stuck(&self) -> bool {
        match &self.state {
            #[cfg(not(feature = "compact-state"))]
            State::Packed(p) => p.is_stuck(),
            #[cfg(not(feature = "compact-state"))]
            State::Wide(w) => w.is_stuck(),
            State::Reference(b) => b.is_stuck(),
        }
    }

    /// The status check after a spawn (docs/rules.md, section 6 step 4). `may_be_stuck` is
    /// false when the caller knows an empty cell is left, which spares the stuck test.
    #[inline(always)]
    fn update_status_after_spawn(&mut self, may_be_stuck: bool) {
        if let Some(win) = self.rules.win {
            if win.ends_game && self.max_exponent >= win.exponent {
                self.status = Status::Won;
                return;
            }
        }
        if may_be_stuck && self.is_stuck() {
            self.status = Status::Over;
        }
    }

    /// Everything a real move does after its slide and spawn: score, move count, largest
    /// tile (`max_after_slide`, which the caller's board knows best), win, status. Both the
    /// packed fast path and the general path end here.
    #[inline(always)]
    fn conclude_move(
        &mut self,
        merged_value: u64,
        merges: u32,
        max_after_slide: u8,
        spawn: Spawn,
        may_be_stuck: bool,
    ) -> Outcome {
        let gained = match self.rules.scoring {
            Scoring::MergedValues => merged_value,
            Scoring::MergeCount => merges as u64,
        };
        self.score += gained;
        self.moves += 1;
        self.max_exponent = max_after_slide.max(spawn.exponent);
        let mut reached_win = false;
        if let Some(win) = self.rules.win {
            if !self.reached_win && self.max_exponent >= win.exponent {
                self.reached_win = true;
                reached_win = true;
            }
        }
        self.update_status_after_spawn(may_be_stuck);
        Outcome {
            moved: true,
            gained,
            merges,
            spawn: Some(spawn),
            reached_win,
            status: self.status,
        }
    }

    /// The outcome of a press that changed nothing.
    fn unmoved(&self) -> Outcome {
        Outcome {
            moved: false,
            gained: 0,
            merges: 0,
            spawn: None,
            reached_win: false,
            status: self.status,
        }
    }

    /// Slides the board; returns `(moved, merged value, merges, largest exponent)`. Does not
    /// spawn.
    #[inline]
    fn slide(&mut self, dir: Direction) -> (bool, u64, u32, u8) {
        let max = self.max_exponent;
        match &mut self.state {
            // The reference board says which tile its merges made.
            State::Reference(b) => {
                let s = b.slide(dir);
                (s.moved, s.merged_value, s.merges, max.max(s.largest_merge))
            }
            #[cfg(not(feature = "compact-state"))]
            _ => {
                let (moved, merged_value, merges) = self.slide_bitboard(dir);
                let max = if merges > 0 {
                    self.max_after_merge()
                } else {
                    max
                };
                (moved, merged_value, merges, max)
            }
        }
    }

    /// [`Game::slide`] on the 4x4 bitboards (packed, or wide after a tile passed 2^15):
    /// `(moved, merged value, merges)`.
    #[cfg(not(feature = "compact-state"))]
    #[inline]
    fn slide_bitboard(&mut self, dir: Direction) -> (bool, u64, u32) {
        match &mut self.state {
            State::Packed(p) => match p.slide(dir) {
                FastSlide::Done {
                    board,
                    merged_value,
                    merges,
                } => {
                    let moved = board != *p;
                    *p = board;
                    (moved, merged_value as u64, merges)
                }
                FastSlide::Overflow => {
                    let mut wide = Wide(p.cells());
                    let r = wide.slide(dir);
                    self.state = State::Wide(wide);
                    r
                }
            },
            State::Wide(w) => w.slide(dir),
            State::Reference(_) => unreachable!("the reference board slides in Game::slide"),
        }
    }

    /// Plays a move.
    ///
    /// A move that changes nothing is not a move: the result has `moved == false` and the game
    /// is untouched. A real move scores, spawns one tile, counts, and updates the status.
    #[inline]
    pub fn play(&mut self, dir: Direction) -> Result<Outcome, PlayError> {
        if self.status.is_finished() {
            return Err(PlayError::Finished {
                status: self.status,
            });
        }
        #[cfg(not(feature = "compact-state"))]
        if let State::Packed(p) = self.state {
            if let Some(outcome) = self.play_packed(p, dir) {
                return Ok(outcome);
            }
        }
        let (moved, merged_value, merges, max) = self.slide(dir);
        if !moved {
            // A slide that moves nothing leaves the state as it was.
            return Ok(self.unmoved());
        }
        let (spawn, empty) = self.spawn_counted(false);
        // The board can only be stuck when the spawn filled its last empty cell.
        Ok(self.conclude_move(merged_value, merges, max, spawn, empty == 1))
    }

    /// Plays every move of `moves` in order, exactly as [`Game::play`] would, and stops at
    /// the first that cannot be played: a move that does not change the board, or any move
    /// once the game has ended. The fast way to replay a recorded game (no [`Outcome`] is
    /// built per move).
    ///
    /// ```
    /// use twenty48_engine::{Direction, Game, Refusal, Rules};
    ///
    /// let moves = [Direction::Left, Direction::Up, Direction::Right];
    /// let mut game = Game::new(Rules::CLASSIC, 1).unwrap();
    /// game.play_all(&moves).unwrap();
    /// assert_eq!(game.move_count(), 3);
    ///
    /// // Under seed 9, left twice: the second press changes nothing, so the list stops there.
    /// let mut game = Game::new(Rules::CLASSIC, 9).unwrap();
    /// let refused = game.play_all(&[Direction::Left, Direction::Left]).unwrap_err();
    /// assert_eq!(refused, Refusal::NoMove { index: 1, direction: Direction::Left });
    /// assert_eq!(game.move_count(), 1);
    /// ```
    pub fn play_all(&mut self, moves: &[Direction]) -> Result<(), Refusal> {
        self.play_all_observed(moves, |_| ControlFlow::Continue(()))
            .map(|_| ())
    }

    /// The 4x4 fast path of [`Game::play`]; `None` when the slide overflows a nibble (the
    /// caller then takes the general path, which switches to the wide board).
    #[cfg(not(feature = "compact-state"))]
    #[inline(always)]
    fn play_packed(&mut self, p: Packed, dir: Direction) -> Option<Outcome> {
        let FastSlide::Done {
            board,
            merged_value,
            merges,
        } = p.slide(dir)
        else {
            return None;
        };
        if board == p {
            return Some(self.unmoved());
        }
        // A slide never removes every tile: at most 15 cells are empty.
        let empty = board.empty_prefix_counts();
        let empty_count = (empty.1 >> 60) as u32;
        let (k, e) = self.rng.draw(empty_count, self.rules.four_chance, false);
        let (board, cell) = board.place_kth_empty(empty, k, e);
        self.state = State::Packed(board);
        let spawn = Spawn {
            cell: cell as u8,
            exponent: e,
        };
        let max = if merges > 0 {
            board.max_after_merge(self.max_exponent)
        } else {
            self.max_exponent
        };
        // The board can only be stuck when the spawn filled its last empty cell.
        Some(self.conclude_move(merged_value as u64, merges, max, spawn, empty_count == 1))
    }

    /// Plays a move and reports its animation events to `on_event`: every tile moved, then
    /// every merge, then the spawn. The game advances exactly as with [`Game::play`].
    pub fn play_with_events(
        &mut self,
        dir: Direction,
        on_event: &mut dyn FnMut(Event),
    ) -> Result<Outcome, PlayError> {
        if self.status.is_finished() {
            return Err(PlayError::Finished {
                status: self.status,
            });
        }
        let mut board =
            reference::Board::from_cells(self.cells().exponents()).expect("square board");
        let mut events = [None; 2 * MAX_CELLS];
        let mut n = 0;
        board.slide_with_events(dir, &mut |e| {
            events[n] = Some(e);
            n += 1;
        });
        let outcome = self.play(dir)?;
        if outcome.moved {
            for e in events[..n].iter().flatten() {
                on_event(*e);
            }
            if let Some(s) = outcome.spawn {
                on_event(Event::Spawned {
                    cell: s.cell,
                    exponent: s.exponent,
                });
            }
        }
        Ok(outcome)
    }

    /// Plays a move like [`Game::play_with_events`] and returns its events in order: every
    /// tile moved, then every merge, then the spawn (none when the move changed nothing).
    ///
    /// ```
    /// use twenty48_engine::{Direction, Event, Game, Rules};
    ///
    /// let mut game = Game::new(Rules::CLASSIC, 1).unwrap();
    /// let (outcome, events) = game.play_events(Direction::Left).unwrap();
    /// assert!(outcome.moved);
    /// assert!(matches!(events.last(), Some(Event::Spawned { .. })));
    /// ```
    #[cfg(feature = "alloc")]
    pub fn play_events(
        &mut self,
        dir: Direction,
    ) -> Result<(Outcome, alloc::vec::Vec<Event>), PlayError> {
        let mut events = alloc::vec::Vec::new();
        let outcome = self.play_with_events(dir, &mut |e| events.push(e))?;
        Ok((outcome, events))
    }

    /// The largest exponent after a slide of a bitboard with merges: a merge makes at most
    /// the old largest tile plus one. (The reference board's slide says what it made.)
    #[cfg(not(feature = "compact-state"))]
    #[inline]
    fn max_after_merge(&self) -> u8 {
        match &self.state {
            State::Packed(p) => p.max_after_merge(self.max_exponent),
            State::Wide(w) => w.0.iter().copied().max().unwrap_or(0),
            State::Reference(b) => b.max_exponent(),
        }
    }

    /// Whether a move towards `dir` would change the board (and the game is not over).
    pub fn can_play(&self, dir: Direction) -> bool {
        if self.status.is_finished() {
            return false;
        }
        match &self.state {
            #[cfg(not(feature = "compact-state"))]
            State::Packed(p) => p.can_slide(dir),
            #[cfg(not(feature = "compact-state"))]
            State::Wide(w) => {
                let mut c = *w;
                c.slide(dir).0
            }
            State::Reference(b) => b.can_slide(dir),
        }
    }

    /// The moves that would change the board (empty once the game has ended).
    pub fn legal_moves(&self) -> DirectionSet {
        #[cfg(not(feature = "compact-state"))]
        if let State::Packed(p) = self.state {
            if !self.status.is_finished() {
                // All four slides at once; one past a nibble is a merge, so a move.
                return Direction::ALL
                    .into_iter()
                    .zip(p.slide_each())
                    .filter(|(_, slid)| slid.is_none_or(|b| b != p))
                    .fold(DirectionSet::EMPTY, |s, (d, _)| s.with(d));
            }
        }
        Direction::ALL
            .iter()
            .filter(|d| self.can_play(**d))
            .fold(DirectionSet::EMPTY, |s, d| s.with(*d))
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The engine sliding the tiles.
    pub fn engine(&self) -> Engine {
        self.engine
    }

    /// The score.
    pub fn score(&self) -> u64 {
        self.score
    }

    /// The number of real moves played (no-op moves do not count).
    pub fn move_count(&self) -> u32 {
        self.moves
    }

    /// The status.
    pub fn status(&self) -> Status {
        self.status
    }

    /// Whether the winning tile has been made in this game (under any win rule).
    pub fn reached_win(&self) -> bool {
        self.reached_win
    }

    /// The largest tile's exponent.
    pub fn max_exponent(&self) -> u8 {
        self.max_exponent
    }

    /// The largest tile's value.
    pub fn max_tile(&self) -> u64 {
        tile_value(self.max_exponent)
    }

    /// The opening spawns, in order.
    pub fn opening_spawns(&self) -> impl Iterator<Item = Spawn> + '_ {
        self.opening.iter().flatten().copied()
    }

    /// Raw random outputs drawn so far (two per spawn).
    pub fn rng_draws(&self) -> u64 {
        self.rng.draws()
    }

    /// The board.
    pub fn cells(&self) -> Cells {
        self.state.cells()
    }

    /// Whether `self` and `other` have the same board (the same [`Game::cells`]), whatever
    /// engine each plays on; cheaper than building and comparing both boards, for comparing
    /// the engines move by move.
    pub fn same_cells(&self, other: &Game) -> bool {
        self.state.same_cells(&other.state)
    }

    /// The stable state hash: FNV-1a 64 over the board side, the cells, the score and the
    /// move count (see [`crate::hash`] and docs/rules.md).
    pub fn state_hash(&self) -> u64 {
        let cells = self.cells();
        hash::state_hash(cells.size, cells.exponents(), self.score, self.moves)
    }
}

impl fmt::Debug for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Game")
            .field("rules", &self.rules)
            .field("seed", &self.seed)
            .field("engine", &self.engine)
            .field("score", &self.score)
            .field("moves", &self.moves)
            .field("status", &self.status)
            .field("cells", &self.cells())
            .finish()
    }
}

#[cfg(test)]
// The replay loops of the bitboard (none with `compact-state`, whose `play_all` is `play`
// move by move).
#[cfg(not(feature = "compact-state"))]
mod tests {
    extern crate std;

    use super::*;
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    use crate::bitboard::cpu::Bmi2;
    use crate::bitboard::cpu::Portable;
    use crate::rules::{FourChance, Opening, OpeningSpawn, Win};
    use std::vec;
    use std::vec::Vec;
    use step::Step;

    /// Everything observable about a game.
    fn observe(g: &Game) -> impl PartialEq + fmt::Debug {
        (
            g.cells(),
            g.score(),
            g.move_count(),
            g.max_exponent(),
            g.rng_draws(),
            g.status(),
            g.reached_win(),
            g.state_hash(),
        )
    }

    /// A move list that plays a game to its end: at each step the first legal direction of
    /// an order that turns every few moves, so games reach wins, game over and long runs.
    fn full_game(rules: Rules, seed: u64) -> Vec<Direction> {
        let mut g = Game::new(rules, seed).unwrap();
        let mut moves = Vec::new();
        let mut step = seed as usize;
        while !g.status().is_finished() && moves.len() < 5000 {
            step += 1;
            let order = [
                Direction::Left,
                Direction::Down,
                Direction::Right,
                Direction::Up,
            ];
            let d = (0..4)
                .map(|i| order[(step / 7 + i) % 4])
                .find(|&d| g.can_play(d))
                .unwrap();
            g.play(d).unwrap();
            moves.push(d);
        }
        moves
    }

    fn rule_sets() -> Vec<Rules> {
        let mut sets = vec![Rules::CLASSIC, Rules::ARDUINO, Rules::CONSOLE];
        for (exponent, ends_game) in [(2, true), (2, false), (5, true), (6, false)] {
            sets.push(Rules {
                win: Some(Win {
                    exponent,
                    ends_game,
                }),
                four_chance: FourChance::new(1, 2),
                ..Rules::CLASSIC
            });
        }
        sets.push(Rules {
            scoring: Scoring::MergeCount,
            opening: Opening::new(&[OpeningSpawn::Two]).unwrap(),
            four_chance: FourChance::new(1, 1),
            ..Rules::CLASSIC
        });
        sets
    }

    /// What a step holds, with the board as cells.
    fn seen(step: &Step) -> impl PartialEq + fmt::Debug {
        let Step {
            index,
            direction,
            outcome,
            score,
            move_count,
            ..
        } = *step;
        (index, direction, outcome, score, move_count, step.cells())
    }

    /// `moves` replayed by `play_all_with` on the replay loop of `cpu`, with an `on_move`
    /// that records every step and stops after move `stop_after` (the index) if asked.
    fn replay_on<C: crate::bitboard::cpu::Cpu>(
        cpu: C,
        game: &mut Game,
        moves: &[Direction],
        stop_after: Option<usize>,
    ) -> (Result<usize, Refusal>, Vec<Step>) {
        let mut steps = Vec::new();
        let got = game.play_all_with(
            moves,
            &mut |step: &Step| {
                steps.push(*step);
                match stop_after == Some(step.index) {
                    true => ControlFlow::Break(()),
                    false => ControlFlow::Continue(()),
                }
            },
            |g, b, m, i, h| g.replay_packed(cpu, b, m, i, h),
        );
        (got, steps)
    }

    /// The portable replay loop, the BMI2 one (where the CPU has BMI2) and `play` move by
    /// move end every game in the same state, also when the list continues past the end;
    /// the loops hand out every move as `play` plays it (outcome, score, move count, board),
    /// and stop after the move their `on_move` stops at, the game standing after it.
    #[test]
    fn every_replay_loop_plays_like_play() {
        #[cfg(all(feature = "std", target_arch = "x86_64"))]
        let bmi2 = Bmi2::detect();
        for rules in rule_sets() {
            for seed in 0..12 {
                let mut moves = full_game(rules, seed);
                moves.push(Direction::Left);
                let mut one = Game::new(rules, seed).unwrap();
                let mut expected = Ok(moves.len());
                let mut steps = Vec::new();
                let mut halfway = None;
                for (index, &direction) in moves.iter().enumerate() {
                    if index == moves.len() / 2 {
                        halfway = Some(one.clone());
                    }
                    match one.play(direction) {
                        Ok(o) if o.moved => steps.push(Step {
                            index,
                            direction,
                            outcome: o,
                            score: one.score(),
                            move_count: one.move_count(),
                            board: one.state,
                        }),
                        Ok(_) => {
                            expected = Err(Refusal::NoMove { index, direction });
                            break;
                        }
                        Err(PlayError::Finished { status }) => {
                            expected = Err(Refusal::Finished { index, status });
                            break;
                        }
                    }
                }
                let steps: Vec<_> = steps.iter().map(seen).collect();

                let check = |(got, seen_steps): (Result<usize, Refusal>, Vec<Step>),
                             game: &Game| {
                    assert_eq!(got, expected, "{rules} seed {seed}");
                    assert_eq!(observe(game), observe(&one), "{rules} seed {seed}");
                    assert_eq!(seen_steps.len(), steps.len(), "{rules} seed {seed}");
                    for (got, step) in seen_steps.iter().zip(&steps) {
                        assert_eq!(seen(got), *step, "{rules} seed {seed}");
                    }
                };
                // Stopped after the move before the half: as far as `play` got by then.
                let check_stop = |(got, seen_steps): (Result<usize, Refusal>, Vec<Step>),
                                  game: &Game,
                                  halfway: &Game| {
                    let half = moves.len() / 2;
                    assert_eq!(got, Ok(half), "{rules} seed {seed}");
                    assert_eq!(observe(game), observe(halfway), "{rules} seed {seed}");
                    assert_eq!(seen_steps.len(), half);
                    for (got, step) in seen_steps.iter().zip(&steps) {
                        assert_eq!(seen(got), *step, "{rules} seed {seed}");
                    }
                };
                let mut portable = Game::new(rules, seed).unwrap();
                check(replay_on(Portable, &mut portable, &moves, None), &portable);
                #[cfg(all(feature = "std", target_arch = "x86_64"))]
                if let Some(bmi2) = bmi2 {
                    let mut fast = Game::new(rules, seed).unwrap();
                    check(replay_on(bmi2, &mut fast, &moves, None), &fast);
                }
                // Lists of one move (a game over at once, and the move after it) stop nowhere.
                let Some(halfway) = halfway.filter(|_| moves.len() >= 2) else {
                    continue;
                };
                let half = Some(moves.len() / 2 - 1);
                let mut portable = Game::new(rules, seed).unwrap();
                check_stop(
                    replay_on(Portable, &mut portable, &moves, half),
                    &portable,
                    &halfway,
                );
                #[cfg(all(feature = "std", target_arch = "x86_64"))]
                if let Some(bmi2) = bmi2 {
                    let mut fast = Game::new(rules, seed).unwrap();
                    check_stop(replay_on(bmi2, &mut fast, &moves, half), &fast, &halfway);
                }
            }
        }
    }

    /// `same_cells` says what comparing `cells` says, across engines and games: the same
    /// game on both engines after every move, and games of other seeds on either engine beside
    /// them.
    #[test]
    fn same_cells_compares_the_boards() {
        for seed in 0..6 {
            let moves = full_game(Rules::CLASSIC, seed);
            let mut fast = Game::new(Rules::CLASSIC, seed).unwrap();
            let mut reference = Game::with_engine(Rules::CLASSIC, seed, Engine::Reference).unwrap();
            let mut other = Game::with_engine(Rules::CLASSIC, seed + 1, Engine::Reference).unwrap();
            let mut other_fast = Game::new(Rules::CLASSIC, seed + 1).unwrap();
            let mut unequal = 0;
            for &d in &moves {
                for (a, b) in [
                    (&fast, &reference),
                    (&reference, &fast),
                    (&fast, &other),
                    (&other, &fast),
                    (&fast, &fast),
                    (&fast, &other_fast),
                    (&reference, &other),
                ] {
                    assert_eq!(a.same_cells(b), a.cells() == b.cells(), "seed {seed}");
                }
                unequal += usize::from(!fast.same_cells(&other));
                fast.play(d).unwrap();
                reference.play(d).unwrap();
                let _ = other.play(d);
                let _ = other_fast.play(d);
            }
            assert!(fast.same_cells(&reference));
            assert!(unequal > 0);
        }
    }

    /// A `Step` of `play_all_observed` shows the board the game has after that move, and
    /// compares it with another game's as comparing their cells does, on either engine.
    #[test]
    fn a_step_shows_and_compares_the_board_after_its_move() {
        for seed in 0..4 {
            let moves = full_game(Rules::CLASSIC, seed);
            let mut reference = Game::with_engine(Rules::CLASSIC, seed, Engine::Reference).unwrap();
            let mut other = Game::new(Rules::CLASSIC, seed + 1).unwrap();
            let mut other_reference =
                Game::with_engine(Rules::CLASSIC, seed + 1, Engine::Reference).unwrap();
            let (mut unequal, mut steps) = (0, 0);
            let mut observed = Game::new(Rules::CLASSIC, seed).unwrap();
            observed
                .play_all_observed(&moves, |step| {
                    reference.play(step.direction).unwrap();
                    assert_eq!(step.cells(), reference.cells(), "seed {seed}");
                    assert!(step.same_cells(&reference), "seed {seed}");
                    for game in [&other, &other_reference] {
                        let same = step.cells() == game.cells();
                        assert_eq!(step.same_cells(game), same, "seed {seed}");
                        unequal += usize::from(!same);
                    }
                    let _ = other.play(step.direction);
                    let _ = other_reference.play(step.direction);
                    if steps == 0 {
                        let shown = std::format!("{step:?}");
                        for field in ["index: 0", "direction", "outcome", "score", "cells"] {
                            assert!(shown.contains(field), "{shown}");
                        }
                    }
                    steps += 1;
                    ControlFlow::Continue(())
                })
                .unwrap();
            assert_eq!(steps, moves.len());
            assert!(unequal > 0);
        }
    }

    /// A win above 32768 is never seen on the packed board: a move that makes two 32768
    /// tiles scores 65536 but makes no 65536 tile, and the game goes on, as move by move.
    #[test]
    fn two_new_32768_tiles_are_no_win_of_65536() {
        let rules = Rules {
            win: Some(Win {
                exponent: 16,
                ends_game: true,
            }),
            ..Rules::CONSOLE
        };
        let start = |seed| {
            let mut g = Game::new(rules, seed).unwrap();
            // Four 16384 tiles in the top row; the rest as dealt.
            let State::Packed(p) = g.state else {
                unreachable!()
            };
            g.state = State::Packed(Packed(p.0 & !0xFFFF | 0xEEEE));
            g.max_exponent = 14;
            g
        };
        for seed in 0..4 {
            let mut one = start(seed);
            let outcome = one.play(Direction::Left).unwrap();
            assert_eq!((outcome.merges, outcome.gained), (2, 65536));
            assert_eq!((one.status(), one.reached_win()), (Status::Playing, false));
            let mut all = start(seed);
            let (got, steps) = replay_on(Portable, &mut all, &[Direction::Left], None);
            assert_eq!(got, Ok(1));
            assert_eq!(steps[0].outcome, outcome);
            assert_eq!(observe(&all), observe(&one), "seed {seed}");
        }
    }

    /// A game of `rules` and `seed` with two 32768 tiles side by side at the left of the top
    /// row; the rest as dealt.
    fn two_32768_at_top_left(rules: Rules, seed: u64) -> Game {
        let mut g = Game::new(rules, seed).unwrap();
        let State::Packed(p) = g.state else {
            unreachable!()
        };
        g.state = State::Packed(Packed(p.0 & !0xFF | 0xFF));
        g.max_exponent = 15;
        g
    }

    /// A list that merges two 32768 tiles: the replay loop hands that move to the wide
    /// board and the rest of the list plays on it, as move by move.
    #[test]
    fn replay_continues_past_a_nibble_overflow() {
        let start = |seed| two_32768_at_top_left(Rules::CONSOLE, seed);
        // The first move merges the two; the rest play on the wide board.
        let moves = [
            Direction::Left,
            Direction::Down,
            Direction::Up,
            Direction::Right,
            Direction::Down,
            Direction::Left,
        ];
        for seed in 0..8 {
            let mut one = start(seed);
            let mut played = 0;
            for &d in &moves {
                if !one.play(d).unwrap().moved {
                    break;
                }
                played += 1;
            }
            let mut all = start(seed);
            let (got, steps) = replay_on(Portable, &mut all, &moves, None);
            assert_eq!(got.is_ok(), played == moves.len());
            assert_eq!(steps.len(), played);
            assert_eq!(steps.last().unwrap().cells(), one.cells());
            assert_eq!(observe(&all), observe(&one), "seed {seed}");
            assert!(played >= 1);
            assert!(matches!(all.state, State::Wide(_)));
            assert_eq!(all.max_exponent(), 16);
        }
    }

    /// The move that makes a 65536 tile (past the packed board's nibbles: the wide board
    /// takes it) makes it the largest tile at once, and reaches a win of 65536 at that move,
    /// ending the game when the rules say so.
    #[test]
    fn the_move_that_makes_65536_is_the_largest_tile_and_the_win_at_once() {
        for ends_game in [false, true] {
            let rules = Rules {
                win: Some(Win {
                    exponent: 16,
                    ends_game,
                }),
                ..Rules::CONSOLE
            };
            for seed in 0..4 {
                let mut g = two_32768_at_top_left(rules, seed);
                let outcome = g.play(Direction::Left).unwrap();
                assert!(outcome.moved && outcome.reached_win, "seed {seed}");
                assert!(matches!(g.state, State::Wide(_)));
                assert_eq!((g.max_exponent(), g.max_tile()), (16, 65536));
                let status = if ends_game {
                    Status::Won
                } else {
                    Status::Playing
                };
                assert_eq!((g.reached_win(), g.status()), (true, status));
            }
        }
    }
}
