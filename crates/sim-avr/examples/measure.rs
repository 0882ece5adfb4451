//! Measures an AVR board's shipped image in simavr: builds the images as `just firmware`
//! does, plays one game to game over by the buttons, pulls the store, and prints the flash,
//! the static RAM and the stack's peak against the end of the static data.
//!
//! `cargo run -q -p twenty48-sim-avr --example measure -- uno` (or `mega2560`, `mega1280`;
//! needs `just avr-sim` and the AVR toolchain). With `pace` after the board's name it prints
//! instead the presses kept at 100, 170 and 310 ms a press (held 40 ms) and the time from a
//! release to the screen drawn, for moves and for a game's end. With `late`, the time from
//! a release to the screen drawn over a long game the expectimax bot (depth 2) plans on the
//! host (up to 1,500 moves, every one timed): the moves of a late game change the most (tiles of four digits
//! and more are drawn on two lines).

fn main() {
    #[cfg(unix)]
    unix::main();
    #[cfg(not(unix))]
    {
        eprintln!("error: simavr runs on Unix only");
        std::process::exit(2);
    }
}

/// The measurements (simavr, its harness and the pseudo-terminals are Unix only).
#[cfg(unix)]
mod unix {
    use twenty48_engine::Direction;
    use twenty48_sim_avr::session::pace::{median_and_worst_ms, round, Pace};
    use twenty48_sim_avr::session::plan::Plan;
    use twenty48_sim_avr::session::player::Player;
    use twenty48_sim_avr::{board, Image, Options};

    pub fn main() {
        let name = std::env::args().nth(1).unwrap_or_else(|| "uno".into());
        let Some(board) = board::ALL.into_iter().find(|b| b.name == name) else {
            eprintln!("error: no board {name:?}; one of mega2560, mega1280, uno");
            std::process::exit(2);
        };
        let image = match Image::shipped(&board) {
            Ok(image) => image,
            Err(e) => {
                eprintln!("error: {e}");
                std::process::exit(1);
            }
        };
        match std::env::args().nth(2).as_deref() {
            Some("pace") => return pace(&image),
            Some("late") => return late(&image),
            _ => {}
        }
        let mut player = Player::boot(&image, &Options::default());
        let game = player
            .game(Direction::Up, Plan::ToGameOver { noop_every: 5 })
            .expect("a game starts");
        player.pull_all();
        let stack = player.sim.stack().unwrap_or_else(|e| panic!("{e}"));
        println!(
            "{}: flash {} B of {} B, static RAM {} B ({:#06x}..{:#06x}); a game of {} moves and \
         its pull: stack peak {} B of {} B, {} B never touched{}; {} hardware rules broken",
            board.name,
            image.flash_used(),
            board.flash,
            image.static_ram(),
            image.data_start,
            image.static_end,
            game.moves.len(),
            stack.peak,
            stack.room,
            stack.untouched,
            match player.sim.stack_breach {
                Some(b) => format!(" (the stack reached the static data at PC {:#x})", b.pc),
                None => String::new(),
            },
            player.sim.violations.len()
        );
    }

    /// The pace figures of docs/firmware.md.
    fn pace(image: &Image) {
        let name = image.board.name;
        for every_ms in [100, 170, 310] {
            let mut player = Player::boot(image, &Options::default());
            let pace = Pace {
                every_ms,
                hold_ms: 40,
            };
            let plan = Plan::ToGameOver { noop_every: 3 };
            let paced = player.paced(Direction::Up, plan, 24, pace);
            println!(
                "{name}: a press every {every_ms} ms, held 40: {} of {} moves logged, {} of {} \
             presses that moved nothing, {}",
                paced.logged.len(),
                paced.expected.len(),
                paced.logged_presses.iter().filter(|p| !p.1).count(),
                paced.expected_presses.iter().filter(|p| !p.1).count(),
                if paced.logged_presses == paced.expected_presses {
                    "the host's"
                } else {
                    "NOT the host's"
                }
            );
        }
        let mut player = Player::boot(image, &Options::default());
        player.press(Direction::Up);
        let mut moves = Vec::new();
        for d in round(16) {
            if let Some(drawn) = player.timed_press(d, 1_500_000_000) {
                moves.push(drawn.drawn_ns);
            }
        }
        let (median, worst) = median_and_worst_ms(&mut moves);
        println!(
            "{name}: release to screen drawn, {} moves: median {median:.1} ms, worst {worst:.1} ms",
            moves.len()
        );
    }

    /// The release-to-screen times of a long game (the `late` figures of docs/firmware.md).
    fn late(image: &Image) {
        use twenty48_engine::Game;
        let name = image.board.name;
        let mut player = Player::boot(image, &Options::default());
        let (_, rules, seed) = player.start(Direction::Up).expect("a game starts");
        let mut game = Game::new(rules, seed).expect("valid rules");
        let mut bot = twenty48_bot::Bot::expectimax(&rules, 2);
        let mut times = Vec::new();
        // The slowest: its time, its move, its store writes, when its screen began.
        let mut worst = (0, 0, 0, 0);
        while game.move_count() < 1500 {
            let Some(d) = bot.choose(&game) else { break };
            game.play(d).expect("a legal move");
            let (ops, spi) = (player.sim.eeprom_ops.ops.len(), player.sim.spi.len());
            let drawn = player.timed_press(d, 1_000_000_000);
            // The game's last move brings the result screen: not a move's screen.
            if game.status().is_finished() {
                break;
            }
            if let Some(drawn) = drawn {
                if drawn.drawn_ns > worst.0 {
                    let screen = player.sim.spi.get(spi).map_or(0, |b| b.at_ns);
                    worst = (
                        drawn.drawn_ns,
                        game.move_count(),
                        player.sim.eeprom_ops.ops.len() - ops,
                        screen.saturating_sub(drawn.release_ns),
                    );
                }
                times.push(drawn.drawn_ns);
            }
        }
        let largest = 1u64 << game.max_exponent();
        let (median, most) = median_and_worst_ms(&mut times);
        println!(
        "{name}: a {}-move game to {largest} (expectimax, depth 2): release to screen drawn, median \
         {median:.1} ms, worst {most:.1} ms (move {}: {} store writes, the screen from {:.1} ms)",
        times.len(),
        worst.1,
        worst.2,
        worst.3 as f64 / 1e6
    );
    }
}
