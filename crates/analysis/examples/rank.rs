//! `just analysis-ranking`: the game figures of the three bots' games from fresh seeds (8
//! games each, seeds the calibration never saw), analysed in the bot's budget (the setting
//! the chances were fitted in):
//! the figures of docs/analysis.md that show the error rate ranks players as a 2048 player
//! would (the expectimax bot above the greedy bot above the random bot, no overlap).
//!
//! `cargo run --release -p twenty48-analysis --example rank [-- --depth N] [-- --bot-depth N]`:
//! the analysis's setting (default: [`DEFAULT_SETTING`]) and the expectimax bot's depth
//! (default 2, whose games are a few thousand moves: the default setting's are 20,000).
//! Runs on the host.

use twenty48_analysis::{counted, Analysis, Class, Setting, DEFAULT_SETTING};
use twenty48_bot::Bot;
use twenty48_engine::{Direction, Game, Rules, Status};

/// The seeds: fresh, neither the fit's (1-32) nor the reliability table's (1001-1032).
const SEEDS: core::ops::RangeInclusive<u64> = 2001..=2008;

fn game(bot: &mut Bot, seed: u64) -> Vec<Direction> {
    let mut game = Game::new(Rules::CLASSIC, seed).expect("classic rules");
    let mut moves = Vec::new();
    while game.status() == Status::Playing {
        let Some(dir) = bot.choose(&game) else { break };
        game.play(dir).expect("a legal move");
        moves.push(dir);
    }
    moves
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .map(|v| v.parse::<u8>().expect("a depth"))
    };
    let setting = arg("--depth").map_or(DEFAULT_SETTING, Setting::Depth);
    let bot_depth = arg("--bot-depth").unwrap_or(2);
    println!("analysed at {setting}; the expectimax bot plays at depth {bot_depth}");
    println!("| bot | seed | moves | largest tile | real choices | error rate | accuracy | mean error (points) | inaccuracies, mistakes, blunders |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for name in ["expectimax", "greedy", "random"] {
        for seed in SEEDS {
            let mut bot = match name {
                "expectimax" => Bot::expectimax(&Rules::CLASSIC, bot_depth),
                "greedy" => Bot::greedy(),
                _ => Bot::random(seed),
            };
            let moves = game(&mut bot, seed);
            let mut replay = Game::new(Rules::CLASSIC, seed).expect("classic rules");
            replay.play_all(&moves).expect("the game replays");
            let a = Analysis::of_game_with(Rules::CLASSIC, seed, moves.iter().copied(), setting)
                .expect("a 4x4 game");
            let s = &a.summary;
            let tenths =
                |t: Option<u32>| t.map_or("-".into(), |t| format!("{}.{}%", t / 10, t % 10));
            println!(
                "| {name} | {seed} | {} | {} | {} | {} | {} | {}.{:02} | {}, {}, {} |",
                moves.len(),
                replay.max_tile(),
                s.chosen(),
                tenths(s.error_rate()),
                tenths(s.accuracy()),
                s.mean_error().unwrap_or(0) / 10_000,
                s.mean_error().unwrap_or(0) / 100 % 100,
                counted(s.count(Class::Inaccuracy), Class::Inaccuracy),
                counted(s.count(Class::Mistake), Class::Mistake),
                counted(s.count(Class::Blunder), Class::Blunder),
            );
        }
    }
}
