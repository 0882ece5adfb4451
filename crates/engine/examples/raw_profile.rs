//! The raw-move benchmarks' loops (each board slid in all four directions) run many times
//! with the benchmark's own code, for profilers: `valgrind --tool=callgrind
//! target/release/examples/raw_profile [scored|board|each]`.

#[allow(dead_code)]
#[path = "../benches/workload.rs"]
mod workload;

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_default();
    let (packed, _) = workload::boards();
    let mut acc = 0u64;
    for _ in 0..100 {
        acc ^= match mode.as_str() {
            "board" => workload::raw_board_only(&packed),
            "each" => workload::raw_each(&packed),
            _ => workload::raw_scored(&packed),
        };
    }
    println!("{acc}");
}
