//! Replays one long game many times, for profilers (`valgrind --tool=callgrind`).
use twenty48_engine::{Direction, Game, Rules, Status};

fn main() {
    let mut g = Game::new(Rules::CONSOLE, 5).unwrap();
    let mut moves = Vec::new();
    let pref = [
        Direction::Down,
        Direction::Left,
        Direction::Right,
        Direction::Up,
    ];
    while g.status() == Status::Playing {
        let d = pref.into_iter().find(|d| g.can_play(*d)).unwrap();
        g.play(d).unwrap();
        moves.push(d);
    }
    let reps: u32 = std::env::args().nth(1).map_or(200, |a| a.parse().unwrap());
    let mut total = 0u64;
    for _ in 0..reps {
        let mut g = Game::new(Rules::CONSOLE, std::hint::black_box(5)).unwrap();
        if std::env::var_os("ONE_BY_ONE").is_some() {
            for &d in &moves {
                assert!(g.play(d).unwrap().moved);
            }
        } else {
            g.play_all(&moves).unwrap();
        }
        total += g.score();
    }
    println!("{} moves x {reps}: {total}", moves.len());
}
