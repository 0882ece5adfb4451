//! Engine speed: raw slides (fast path against the reference engine, in the same run) and
//! whole-game replay from (rules, seed, moves). Run with `just bench` or `cargo bench`; the
//! workloads are in workload.rs, and figures.rs prints best and median figures for them.
//!
//! Targets (issue "Seeded 2048 engine"): at least 400M raw moves/s on the fast path and 25x
//! the reference engine; at least 50,000 replays/s of a 1000-move game.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

#[path = "workload.rs"]
mod workload;

fn raw_moves(c: &mut Criterion) {
    let (packed, reference) = workload::boards();
    let mut group = c.benchmark_group("raw_moves");
    group.throughput(Throughput::Elements(4 * packed.len() as u64));
    group.bench_function("fast", |b| b.iter(|| workload::raw_scored(&packed)));
    group.bench_function("fast_board_only", |b| {
        b.iter(|| workload::raw_board_only(&packed))
    });
    group.bench_function("fast_each", |b| b.iter(|| workload::raw_each(&packed)));
    group.bench_function("reference", |b| {
        b.iter(|| workload::raw_reference(&reference))
    });
    group.finish();
}

fn replay(c: &mut Criterion) {
    let (rules, seed, moves) = workload::thousand_move_game();
    let mut group = c.benchmark_group("replay_1000_moves");
    group.throughput(Throughput::Elements(1));
    group.bench_function("fast_play_all", |b| {
        b.iter(|| workload::replay_play_all(rules, seed, &moves))
    });
    group.bench_function("fast", |b| {
        b.iter(|| workload::replay_one_by_one(rules, seed, &moves))
    });
    group.bench_function("reference", |b| {
        b.iter(|| workload::replay_reference(rules, seed, &moves))
    });
    group.finish();
}

criterion_group!(benches, raw_moves, replay);
criterion_main!(benches);
