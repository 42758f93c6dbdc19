//! Samurai benchmarks: solving generated puzzles with a uniqueness check (single thread),
//! grading them with the human techniques (single thread), and generating unique puzzles
//! (one thread and two threads).
//!
//! The puzzles come from the generator itself (seed 1, indices 0..200, no symmetry): the
//! puzzles `SamuraiGenerator` makes, minimal for their symmetry. Throughput is reported per
//! puzzle.
//!
//!     cargo bench --bench samurai

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sudoku_batch::core::geometry::{self, S369};
use sudoku_batch::core::grader::{Grader, Rating, default_budget};
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

fn grade(c: &mut Criterion) {
    let ps = puzzles();
    let mut group = c.benchmark_group("samurai_grade");
    group.sample_size(10);
    group.throughput(Throughput::Elements(ps.len() as u64));
    group.bench_function("generated", |b| {
        let mut g: Grader<S369> = Grader::new();
        let geo = geometry::samurai();
        let budget = default_budget(geometry::Shape::Samurai);
        let mut r = Rating::default();
        b.iter(|| {
            for p in &ps {
                g.rate_values(geo, black_box(p).values(), None, budget, &mut r);
                black_box(&r);
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

criterion_group!(benches, solve, grade, generate);
criterion_main!(benches);
