//! The presses of a game, planned on the host from its seed (the device announces it in
//! the game's start frame): the spawns are a function of the seed, so the host knows the
//! whole game before it is played.

use twenty48_engine::{Direction, Game, Rules};

/// How a game is played.
#[derive(Clone, Copy, Debug)]
pub enum Plan {
    /// To game over in few moves (a beam search over the known spawns, keeping the boards
    /// with the most tiles), with a press that does not move the board after every
    /// `noop_every` moves (the device must ignore it: no frame, no store write).
    ToGameOver {
        /// Moves between two presses that do not move the board.
        noop_every: usize,
    },
    /// The letters in turn, until `moves` moves were made (or the game ended): a game the
    /// power cut interrupts.
    Cycle {
        /// The directions' letters (`L`, `R`, `U`, `D`), pressed in turn.
        letters: &'static str,
        /// How many moves to make.
        moves: usize,
    },
}

/// Directions in the order the search tries them.
const DIRS: [Direction; 4] = [
    Direction::Left,
    Direction::Up,
    Direction::Right,
    Direction::Down,
];

fn tiles(game: &Game) -> usize {
    game.cells().exponents().iter().filter(|&&e| e > 0).count()
}

/// The moves of a short game from `rules` and `seed` to game over: a beam search of width
/// 8, the boards with the most tiles kept at each depth. Ends in about 20 moves on the
/// arduino rules.
fn to_game_over(rules: Rules, seed: u64) -> Vec<Direction> {
    let start = Game::new(rules, seed).expect("the device's rules are valid");
    let mut beam: Vec<(Game, Vec<Direction>)> = vec![(start, Vec::new())];
    loop {
        let mut next = Vec::new();
        for (game, moves) in &beam {
            for d in DIRS {
                let mut after = game.clone();
                if !after.play(d).is_ok_and(|o| o.moved) {
                    continue;
                }
                let mut path = moves.clone();
                path.push(d);
                if after.status().is_finished() {
                    return path;
                }
                next.push((after, path));
            }
        }
        assert!(!next.is_empty(), "the search lost every board");
        next.sort_by_key(|(g, _)| std::cmp::Reverse(tiles(g)));
        next.truncate(8);
        beam = next;
    }
}

/// The presses of the game: each a direction, and whether it moves the board.
pub fn presses(plan: Plan, rules: Rules, seed: u64) -> Vec<(Direction, bool)> {
    let mut game = Game::new(rules, seed).expect("the device's rules are valid");
    let mut out = Vec::new();
    match plan {
        Plan::ToGameOver { noop_every } => {
            for (i, d) in to_game_over(rules, seed).into_iter().enumerate() {
                if i > 0 && i % noop_every == 0 {
                    if let Some(still) = DIRS.into_iter().find(|&s| !game.can_play(s)) {
                        out.push((still, false));
                    }
                }
                assert!(game.play(d).is_ok_and(|o| o.moved));
                out.push((d, true));
            }
        }
        Plan::Cycle { letters, moves } => {
            let dirs: Vec<Direction> = letters
                .chars()
                .map(|c| Direction::from_letter(c).expect("a move letter"))
                .collect();
            let mut made = 0;
            for &d in dirs.iter().cycle() {
                if made == moves || game.status().is_finished() {
                    break;
                }
                let moved = game.play(d).is_ok_and(|o| o.moved);
                made += usize::from(moved);
                out.push((d, moved));
            }
        }
    }
    out
}
