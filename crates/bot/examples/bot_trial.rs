//! Plays greedy games and prints how far they get: `cargo run --release --example bot_trial`.
use twenty48_bot::Bot;
use twenty48_engine::{Game, Rules, Status};

fn main() {
    for seed in 0..10u64 {
        let mut game = Game::new(Rules::CLASSIC, seed).unwrap();
        let mut bot = Bot::greedy();
        while game.status() == Status::Playing && game.move_count() < 5000 {
            let d = bot.choose(&game).unwrap();
            game.play(d).unwrap();
        }
        println!(
            "seed {seed}: moves {} max {} score {}",
            game.move_count(),
            game.max_tile(),
            game.score()
        );
    }
}
