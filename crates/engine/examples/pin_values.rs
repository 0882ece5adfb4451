//! Prints the values pinned by tests/value_stability.rs and docs/rules.md.
use twenty48_engine::spawn::SpawnRng;
use twenty48_engine::{Direction, Game, Preset, Status};

fn main() {
    for seed in [0u64, 1, 42, u64::MAX] {
        let mut rng = SpawnRng::new(seed);
        let v: Vec<u32> = (0..6).map(|_| rng.next_raw()).collect();
        println!("seed {seed}: {v:?}");
    }
    for p in Preset::ALL {
        let seed = match p {
            Preset::Classic => 2048,
            Preset::Arduino => 7,
            _ => 99,
        };
        let mut g = Game::new(p.rules(), seed).unwrap();
        let order = [
            Direction::Left,
            Direction::Down,
            Direction::Right,
            Direction::Up,
        ];
        let mut i = 0usize;
        while g.status() == Status::Playing && g.move_count() < 500 {
            let d = order[i % 4];
            i += 1;
            let _ = g.play(d);
        }
        println!(
            "{p}: moves {} attempts {i} score {} max {} status {} hash {:#018x}\n{}",
            g.move_count(),
            g.score(),
            g.max_exponent(),
            g.status(),
            g.state_hash(),
            g.cells()
        );
    }
    let mut g = Game::new(Preset::Classic.rules(), 1).unwrap();
    println!(
        "worked example classic seed 1: opening {:?}\n{}",
        g.opening_spawns().collect::<Vec<_>>(),
        g.cells()
    );
    for d in [Direction::Left, Direction::Up, Direction::Right] {
        let o = g.play(d).unwrap();
        println!(
            "{d}: {o:?} score {} hash {:#018x}\n{}",
            g.score(),
            g.state_hash(),
            g.cells()
        );
    }
}
