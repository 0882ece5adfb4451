//! Replays the benchmark's 1000-move game (the first 1000 moves of the greedy fixture game)
//! many times, for profilers: `valgrind --tool=callgrind --callgrind-out-file=F
//! target/release/examples/replay_profile [REPS]`. Set ONE_BY_ONE to replay with `Game::play`
//! instead of `Game::play_all`.
use twenty48_engine::{Direction, Game, Rules};

fn main() {
    let csv = include_str!("../../../fixtures/expected.csv");
    let row = csv
        .lines()
        .find(|l| l.starts_with("classic-greedy-2048-plays-on.t48,"))
        .expect("the greedy fixture game is listed");
    let cols: Vec<&str> = row.split(',').collect();
    let seed: u64 = cols[1].parse().expect("a seed");
    let moves: Vec<Direction> = cols[3]
        .chars()
        .take(1000)
        .map(|c| Direction::from_letter(c).expect("a move letter"))
        .collect();
    let reps: u32 = std::env::args().nth(1).map_or(200, |a| a.parse().unwrap());
    let one_by_one = std::env::var_os("ONE_BY_ONE").is_some();
    let mut total = 0u64;
    for _ in 0..reps {
        let mut g = Game::new(Rules::CLASSIC, std::hint::black_box(seed)).unwrap();
        if one_by_one {
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
