//! Solver throughput per data set, single thread: puzzles per second
//! (`Throughput::Elements`), uniqueness check (limit 2) and first solution (limit 1), with
//! the backend chosen at run time, the AVX2 one and the portable one (a backend the
//! CPU lacks falls back as `Solver::with_backend` documents).
//!
//! Reads the benchmark sets in `../shared/data/*.txt` (relative to the repository root, or
//! `$SUDOKU_DATA`) when present, else the small samples in `data/`. `$SUDOKU_BENCH_MAX`
//! caps the puzzles taken from each file (default 5000) so a run stays short.
//!
//!     cargo bench --bench solve
//!     SUDOKU_DATA=/path/to/sets cargo bench --bench solve -- 17clue

use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sudoku_batch::core::solver::Backend;
use sudoku_batch::core::{Grid, SolveOutcome, Solver};

/// The puzzle files to time: the shared benchmark sets if present, else the repo samples.
fn data_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = std::env::var_os("SUDOKU_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("../shared/data"));
    for dir in [shared, root.join("data")] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "txt"))
            .collect();
        if !files.is_empty() {
            files.sort();
            return files;
        }
    }
    Vec::new()
}

fn read_puzzles(path: &Path, max: usize) -> Vec<Grid> {
    let Ok(text) = std::fs::read(path) else {
        return Vec::new();
    };
    text.split(|&b| b == b'\n')
        .filter(|l| l.len() >= 81 && l[0] != b'#')
        .filter_map(|l| Grid::parse_line(&l[..81]).ok().map(|(g, _)| g))
        .take(max)
        .collect()
}

fn bench_solve(c: &mut Criterion) {
    let max = std::env::var("SUDOKU_BENCH_MAX")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5000);
    for path in data_files() {
        let puzzles = read_puzzles(&path, max);
        if puzzles.is_empty() {
            continue;
        }
        let name = path
            .file_stem()
            .map_or_else(|| "puzzles".into(), |s| s.to_string_lossy().into_owned());
        let mut group = c.benchmark_group(name);
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        group.sample_size(10);
        for (label, backend) in [
            ("auto", Backend::Auto),
            ("avx2", Backend::Avx2),
            ("portable", Backend::Portable),
        ] {
            let mut solver = Solver::with_backend(backend);
            for (mode, limit) in [("unique", 2), ("first", 1)] {
                group.bench_function(format!("{mode}/{label}"), |b| {
                    let mut out = SolveOutcome::default();
                    b.iter(|| {
                        let mut n = 0u32;
                        for g in &puzzles {
                            solver.solve_into(black_box(g), limit, &mut out);
                            n = n.wrapping_add(out.count);
                        }
                        black_box(n)
                    })
                });
            }
        }
        group.finish();
    }
}

criterion_group!(benches, bench_solve);
criterion_main!(benches);
