//! Measures an AVR board's shipped image in simavr: builds the images as `just firmware`
//! does, plays one game to game over by the buttons, pulls the store, and prints the flash,
//! the static RAM and the stack's peak against the end of the static data.
//!
//! `cargo run -q -p twenty48-sim-avr --example measure -- uno` (or `mega2560`, `mega1280`;
//! needs `just avr-sim` and the AVR toolchain).

use twenty48_engine::Direction;
use twenty48_sim_avr::session::plan::Plan;
use twenty48_sim_avr::session::player::Player;
use twenty48_sim_avr::{board, Image, Options};

fn main() {
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
