//! Generation throughput: puzzles per second, unrated, one thread per symmetry (with
//! `--minimal`, and for rot180 also without), a batch on two threads (the figure of the
//! issue: at least 10,000 puzzles/s with `--minimal`), and `minimize` on puzzles with
//! redundant clues.
//!
//! Graded rates depend on the grader; measure them with `sudoku-batch generate` (see
//! `scripts/check-generated.sh` and the report).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rayon::prelude::*;
use sudoku_batch::core::generator::{Generator, Symmetry, SymmetryChoice, Target, Unrated};
use sudoku_batch::core::{Cell, Grid, Solver};

fn target(symmetry: SymmetryChoice, minimal: bool) -> Target {
    Target {
        symmetry,
        minimal,
        ..Target::default()
    }
}

fn single_thread(c: &mut Criterion) {
    let mut group = c.benchmark_group("generate/1-thread");
    group.throughput(Throughput::Elements(1));
    let cases = [
        ("none-minimal", SymmetryChoice::Fixed(Symmetry::None), true),
        (
            "rot180-minimal",
            SymmetryChoice::Fixed(Symmetry::Rot180),
            true,
        ),
        ("rot180-dug", SymmetryChoice::Fixed(Symmetry::Rot180), false),
        (
            "diagonal-minimal",
            SymmetryChoice::Fixed(Symmetry::Diagonal),
            true,
        ),
        ("random-minimal", SymmetryChoice::Random, true),
    ];
    for (name, symmetry, minimal) in cases {
        let t = target(symmetry, minimal);
        let mut g = Generator::new();
        let mut index = 0u64;
        group.bench_function(name, |b| {
            b.iter(|| {
                index += 1;
                black_box(g.generate(&mut Unrated, &t, 1, index).ok())
            })
        });
    }
    group.finish();
}

fn two_threads(c: &mut Criterion) {
    const BATCH: u64 = 2000;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("thread pool");
    let mut group = c.benchmark_group("generate/2-threads");
    group.sample_size(10);
    group.throughput(Throughput::Elements(BATCH));
    let t = target(SymmetryChoice::Fixed(Symmetry::None), true);
    let mut round = 0u64;
    group.bench_function("none-minimal", |b| {
        b.iter(|| {
            round += 1;
            let clues: u64 = pool.install(|| {
                (round * BATCH..(round + 1) * BATCH)
                    .into_par_iter()
                    .map_init(Generator::new, |g, i| {
                        g.generate(&mut Unrated, &t, 2, i)
                            .map_or(0, |p| u64::from(p.clues))
                    })
                    .sum()
            });
            black_box(clues)
        })
    });
    group.finish();
}

fn minimize(c: &mut Criterion) {
    // 17-clue puzzles from the repo's sample, each with its solution's first two rows added.
    let text = std::fs::read_to_string("data/17clue_200.txt").expect("data/17clue_200.txt");
    let mut solver = Solver::new();
    let puzzles: Vec<Grid> = text
        .lines()
        .filter_map(|l| l.get(..81)?.parse::<Grid>().ok())
        .map(|p| {
            let s = solver.solve(&p, 2).solution;
            let mut q = p;
            for i in 0..18 {
                q.set(Cell::new(i), s.digit(Cell::new(i)));
            }
            q
        })
        .collect();
    let mut group = c.benchmark_group("minimize");
    group.throughput(Throughput::Elements(puzzles.len() as u64));
    let mut g = Generator::new();
    group.bench_function("17clue+18", |b| {
        b.iter(|| {
            for p in &puzzles {
                black_box(g.minimize(p).ok());
            }
        })
    });
    group.finish();
}

criterion_group!(benches, single_thread, two_threads, minimize);
criterion_main!(benches);
