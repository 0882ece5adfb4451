//! Replays the benchmark's 1000-move game (the first 1000 moves of the greedy fixture game)
//! many times with the benchmark's own code, for profilers: `valgrind --tool=callgrind
//! --callgrind-out-file=F target/release/examples/replay_profile [REPS]`. Set ONE_BY_ONE to
//! replay with `Game::play` instead of `Game::play_all`.

#[allow(dead_code)]
#[path = "../benches/workload.rs"]
mod workload;

fn main() {
    let (rules, seed, moves) = workload::thousand_move_game();
    let reps: u32 = std::env::args().nth(1).map_or(200, |a| a.parse().unwrap());
    let one_by_one = std::env::var_os("ONE_BY_ONE").is_some();
    let mut total = 0u64;
    for _ in 0..reps {
        total += if one_by_one {
            workload::replay_one_by_one(rules, seed, &moves)
        } else {
            workload::replay_play_all(rules, seed, &moves)
        };
    }
    println!("{} moves x {reps}: {total}", moves.len());
}
