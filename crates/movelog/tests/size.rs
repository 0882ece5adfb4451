//! What a long game costs on disk (docs/format.md, "Size").

use twenty48_engine::{Direction, Game, Rules};
use twenty48_movelog::{MoveLog, DEFAULT_CHECKPOINT_INTERVAL};

/// Classic rules on a 5x5 board: a simple strategy easily plays 1000 moves there, and the
/// header is as long as on 4x4 (only the size byte differs).
const RULES: Rules = Rules {
    size: 5,
    ..Rules::CLASSIC
};

/// The first 1000 moves of a game played by a one-ply greedy strategy (most empty
/// cells after the move and its spawn; ties to down, left, right, up), from the first seed
/// whose game lasts that long.
fn thousand_moves() -> (u64, Vec<Direction>) {
    use Direction::*;
    for seed in 0..200 {
        let mut game = Game::new(RULES, seed).unwrap();
        let mut moves = Vec::new();
        while moves.len() < 1000 && !game.status().is_finished() {
            let empty_after = |d: Direction| {
                let mut g = game.clone();
                g.play(d).unwrap();
                g.cells().exponents().iter().filter(|e| **e == 0).count()
            };
            let dir = [Down, Left, Right, Up]
                .into_iter()
                .filter(|d| game.can_play(*d))
                .rev()
                .max_by_key(|d| empty_after(*d))
                .unwrap();
            game.play(dir).unwrap();
            moves.push(dir);
        }
        if moves.len() == 1000 {
            return (seed, moves);
        }
    }
    panic!("no seed below 200 gives a 1000-move game");
}

#[test]
fn a_thousand_move_game_is_331_bytes() {
    let (seed, moves) = thousand_moves();
    let log = MoveLog::from_moves(RULES, seed, &moves, DEFAULT_CHECKPOINT_INTERVAL).unwrap();
    let bytes = log.encode();
    // 65 header and claims + 250 moves + 3 checkpoints * 4 + 4 CRC.
    assert_eq!(log.checkpoints.len(), 3);
    assert_eq!(bytes.len(), 331);
    assert_eq!(MoveLog::decode(&bytes), Ok(log));

    // Without checkpoints: 319 bytes.
    let bare = MoveLog::from_moves(RULES, seed, &moves, 0).unwrap();
    assert_eq!(bare.encode().len(), 319);
}
