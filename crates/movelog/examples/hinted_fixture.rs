//! Writes a copy of a log marked as played with hints shown (format version 2), as
//! `twenty48 play --hint` saves a game: `cargo run -p twenty48-movelog --example
//! hinted_fixture -- IN.t48 OUT.t48` (fixtures/make.sh runs it; `play` needs a terminal).

use twenty48_movelog::{write_atomic, MoveLog};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, input, output] = &args[..] else {
        eprintln!("usage: hinted_fixture IN.t48 OUT.t48");
        std::process::exit(2);
    };
    let mut log =
        MoveLog::decode(&std::fs::read(input).expect("read the log")).expect("a valid log");
    log.hinted = true;
    write_atomic(std::path::Path::new(output), &log.encode()).expect("write the hinted log");
}
