//! Generation throughput, for the figures in the report and README:
//!
//!     cargo run --release --example generate_rate -- [COUNT] [THREADS] [SYMMETRY] [minimal|dug]
//!
//! Generates COUNT puzzles (default 20000) with the given symmetry (default none) on THREADS
//! threads (default 2), unrated, and prints puzzles per second and the mean clue count.
use std::time::Instant;

use rayon::prelude::*;
use sudoku_batch::core::generator::{Generator, SymmetryChoice, Target, Unrated};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let count: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let threads: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(2);
    let symmetry: SymmetryChoice = args.get(3).and_then(|s| s.parse().ok()).unwrap_or_default();
    let minimal = args.get(4).is_none_or(|s| s == "minimal");
    let target = Target {
        symmetry,
        minimal,
        ..Target::default()
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool");
    let start = Instant::now();
    let (clues, attempts) = pool.install(|| {
        (0..count)
            .into_par_iter()
            .map_init(Generator::new, |g, i| {
                let p = g
                    .generate(&mut Unrated, &target, 1, i)
                    .expect("unconstrained target");
                (u64::from(p.clues), p.attempts)
            })
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
    });
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{count} puzzles, {threads} threads, {symmetry:?}, minimal={minimal}: {:.0} puzzles/s, mean clues {:.2}, attempts/puzzle {:.3}",
        count as f64 / secs,
        clues as f64 / count as f64,
        attempts as f64 / count as f64
    );
}
