//! Grading throughput (one thread): puzzles per second on the SE-rated exchange set (a
//! spread of ER from 1.2 to 9.3) and on random minimal puzzles.
//!
//! The data sets are read from `$SUDOKU_DATA` (default `../shared/data`); when they are
//! missing the bench falls back to the samples in `data/`.

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sudoku_batch::core::Grid;
use sudoku_batch::core::grader::{DEFAULT_BUDGET, Grader, Rating};

fn load(name: &str, fallback: &str, limit: usize) -> (String, Vec<Grid>) {
    let dir = std::env::var_os("SUDOKU_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("../shared/data"));
    let path = dir.join(name);
    let (label, text) = match std::fs::read_to_string(&path) {
        Ok(t) => (name.to_string(), t),
        Err(_) => (
            fallback.to_string(),
            std::fs::read_to_string(fallback).expect("sample data"),
        ),
    };
    let puzzles = text
        .lines()
        .filter_map(|l| l.get(..81))
        .filter_map(|p| p.parse().ok())
        .take(limit)
        .collect();
    (label, puzzles)
}

fn grade(c: &mut Criterion) {
    let sets = [
        load(
            "rated/se121_exchange_503.tsv",
            "data/rated_exchange_60.tsv",
            usize::MAX,
        ),
        load(
            "random_minimal_100k.txt",
            "data/random_minimal_200.txt",
            10_000,
        ),
    ];
    let mut group = c.benchmark_group("grade");
    group.sample_size(10);
    for (label, puzzles) in &sets {
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        let mut grader = Grader::new();
        let mut rating = Rating::default();
        group.bench_function(label.as_str(), |b| {
            b.iter(|| {
                for p in puzzles {
                    grader.rate(p, None, DEFAULT_BUDGET, &mut rating);
                    black_box(&rating);
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, grade);
criterion_main!(benches);
