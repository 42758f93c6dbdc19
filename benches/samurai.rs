//! Samurai benchmarks: solving generated puzzles with a uniqueness check (single thread),
//! generating unique puzzles (single thread and two threads), grading.
//!
//! The puzzles come from the generator itself (`seed` 1, indices 0..N), the same kind
//! `generate --variant samurai` makes. Throughput is reported per puzzle.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sudoku_batch::core::samurai::{
    SamuraiGenerator, SamuraiGrid, SamuraiOutcome, SamuraiSolver, SamuraiSymmetry,
};

const PUZZLES: usize = 200;

fn puzzles() -> Vec<SamuraiGrid> {
    let mut g = SamuraiGenerator::new();
    (0..PUZZLES as u64)
        .map(|i| g.generate(1, i, SamuraiSymmetry::None).puzzle)
        .collect()
}

fn solve(c: &mut Criterion) {
    let ps = puzzles();
    let mut group = c.benchmark_group("samurai_solve");
    group.throughput(Throughput::Elements(ps.len() as u64));
    group.bench_function("generated_unique_check", |b| {
        let mut s = SamuraiSolver::new();
        let mut out = SamuraiOutcome::default();
        b.iter(|| {
            for p in &ps {
                s.solve_into(black_box(p), 2, &mut out);
                assert_eq!(out.count, 1);
            }
        })
    });
    group.finish();
}

fn generate(c: &mut Criterion) {
    let mut group = c.benchmark_group("samurai_generate");
    group.sample_size(10);
    const N: u64 = 20;
    group.throughput(Throughput::Elements(N));
    group.bench_function("one_thread", |b| {
        let mut g = SamuraiGenerator::new();
        let mut k = 0u64;
        b.iter(|| {
            for _ in 0..N {
                black_box(g.generate(7, k, SamuraiSymmetry::None));
                k += 1;
            }
        })
    });
    group.bench_function("two_threads", |b| {
        let mut k = 0u64;
        b.iter(|| {
            let base = k;
            k += N;
            std::thread::scope(|s| {
                for t in 0..2u64 {
                    s.spawn(move || {
                        let mut g = SamuraiGenerator::new();
                        let mut i = base + t;
                        while i < base + N {
                            black_box(g.generate(7, i, SamuraiSymmetry::None));
                            i += 2;
                        }
                    });
                }
            });
        })
    });
    group.finish();
}

criterion_group!(benches, solve, generate);
criterion_main!(benches);
