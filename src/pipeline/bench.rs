//! `bench`: time the solver in-process on whole files, several rounds, and report the median
//! rate. Puzzles are read and parsed before the clock starts, so the figures are solving
//! only; `solve` end to end adds reading, parsing and writing.

use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use crate::config::InputSpec;
use crate::core::{Grid, SolveOutcome, Solver};
use crate::error::Error;
use crate::io::records::{self, CellsKind, Splitter};

use super::solve::open_input;

/// Settings of a `bench` run.
#[derive(Clone, Debug)]
pub struct BenchConfig {
    /// Files to time.
    pub files: Vec<InputSpec>,
    /// Timed rounds per file.
    pub rounds: usize,
    /// Solution count limit.
    pub limit: u32,
    /// Worker threads (1 by default).
    pub threads: usize,
}

/// Figures for one file.
#[derive(Clone, Debug, Serialize)]
pub struct FileBench {
    /// The file.
    pub file: String,
    /// Puzzles timed (valid records).
    pub puzzles: usize,
    /// Records skipped because they are not valid puzzles.
    pub skipped: usize,
    /// Puzzles per second, median over rounds.
    pub median_pps: f64,
    /// Slowest round's rate.
    pub min_pps: f64,
    /// Fastest round's rate.
    pub max_pps: f64,
    /// Median time per puzzle in microseconds.
    pub median_us_per_puzzle: f64,
    /// Guesses per puzzle (the same every round).
    pub guesses_per_puzzle: f64,
    /// Solutions found per puzzle on average (capped at the limit).
    pub solutions_per_puzzle: f64,
    /// Every round's rate, in order.
    pub rates: Vec<f64>,
}

/// The whole `bench` report.
#[derive(Clone, Debug, Serialize)]
pub struct BenchReport {
    /// Threads used.
    pub threads: usize,
    /// Solution count limit.
    pub limit: u32,
    /// Rounds per file.
    pub rounds: usize,
    /// The crate version that ran.
    pub version: &'static str,
    /// Per-file figures.
    pub files: Vec<FileBench>,
}

/// Reads every valid puzzle of an input, in any record format.
pub fn load_puzzles(spec: &InputSpec) -> Result<(Vec<Grid>, usize), Error> {
    let mut source = open_input(spec)?;
    let read_err = |e| Error::Input {
        path: match spec {
            InputSpec::Stdin => "-".into(),
            InputSpec::File(p) => p.clone(),
        },
        source: e,
    };
    super::solve::fill_for_detection(&mut source).map_err(read_err)?;
    let (format, skip) = records::detect(source.window());
    let header_lines = source.window()[..skip]
        .iter()
        .filter(|&&b| b == b'\n')
        .count() as u64;
    source.consume(skip);
    let mut splitter = Splitter::new(format);
    let mut grids = Vec::new();
    let mut skipped = 0;
    let mut line = 1 + header_lines;
    loop {
        let is_last = source.at_end();
        let window = source.window();
        let p = splitter.split(window, line, usize::MAX, is_last);
        for rec in splitter.records(window) {
            let parsed = match rec.kind {
                _ if rec.fault.is_some() => None,
                CellsKind::Line => Grid::parse_line(rec.text.trim_ascii_start())
                    .ok()
                    .map(|(g, _)| g),
                CellsKind::Field => Grid::parse_line(rec.text.trim_ascii())
                    .ok()
                    .filter(|&(_, end)| end == rec.text.trim_ascii().len())
                    .map(|(g, _)| g),
                CellsKind::Block => Grid::parse_cells(rec.text).ok(),
            };
            match parsed.filter(|g| g.check_givens().is_ok()) {
                Some(g) => grids.push(g),
                None => skipped += 1,
            }
        }
        line += p.lines;
        source.consume(p.consumed);
        if is_last {
            break;
        }
        source.fill(0).map_err(read_err)?;
    }
    Ok((grids, skipped))
}

fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    match s.len() {
        0 => 0.0,
        n if n % 2 == 1 => s[n / 2],
        n => (s[n / 2 - 1] + s[n / 2]) / 2.0,
    }
}

/// Solves every puzzle once; returns (guesses, solutions) totals.
fn solve_all(grids: &[Grid], limit: u32, pool: &rayon::ThreadPool) -> (u64, u64) {
    if pool.current_num_threads() == 1 {
        let mut solver = Solver::new();
        let mut out = SolveOutcome::default();
        let (mut g, mut n) = (0u64, 0u64);
        for p in grids {
            solver.solve_into(p, limit, &mut out);
            g += out.guesses;
            n += u64::from(out.count);
        }
        return (g, n);
    }
    pool.install(|| {
        grids
            .par_chunks(256)
            .map_init(
                || (Solver::new(), SolveOutcome::default()),
                |(solver, out), chunk| {
                    let (mut g, mut n) = (0u64, 0u64);
                    for p in chunk {
                        solver.solve_into(p, limit, out);
                        g += out.guesses;
                        n += u64::from(out.count);
                    }
                    (g, n)
                },
            )
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
    })
}

/// Runs the benchmark.
pub fn run(cfg: &BenchConfig) -> Result<BenchReport, Error> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads)
        .build()
        .map_err(|e| Error::Usage(format!("cannot start worker threads: {e}")))?;
    let mut files = Vec::new();
    for spec in &cfg.files {
        let (grids, skipped) = load_puzzles(spec)?;
        // One untimed warm-up round (caches, page faults, CPU frequency).
        let (guesses, sols) = solve_all(&grids, cfg.limit, &pool);
        let mut rates = Vec::with_capacity(cfg.rounds);
        for _ in 0..cfg.rounds.max(1) {
            let t = Instant::now();
            let r = solve_all(&grids, cfg.limit, &pool);
            let secs = t.elapsed().as_secs_f64().max(1e-9);
            debug_assert_eq!(r, (guesses, sols));
            rates.push(grids.len() as f64 / secs);
        }
        let med = median(&rates);
        let n = grids.len().max(1) as f64;
        files.push(FileBench {
            file: spec.display_name(),
            puzzles: grids.len(),
            skipped,
            median_pps: med,
            min_pps: rates.iter().copied().fold(f64::INFINITY, f64::min),
            max_pps: rates.iter().copied().fold(0.0, f64::max),
            median_us_per_puzzle: if med > 0.0 { 1e6 / med } else { 0.0 },
            guesses_per_puzzle: guesses as f64 / n,
            solutions_per_puzzle: sols as f64 / n,
            rates,
        });
    }
    Ok(BenchReport {
        threads: pool.current_num_threads(),
        limit: cfg.limit,
        rounds: cfg.rounds.max(1),
        version: env!("CARGO_PKG_VERSION"),
        files,
    })
}

impl BenchReport {
    /// A table for people.
    pub fn text(&self) -> String {
        let mut t = format!(
            "solve, limit {}, {} thread{}, median of {} rounds\n{:<40} {:>9} {:>12} {:>10} {:>10}\n",
            self.limit,
            self.threads,
            if self.threads == 1 { "" } else { "s" },
            self.rounds,
            "file",
            "puzzles",
            "puzzles/s",
            "us/puzzle",
            "guesses"
        );
        for f in &self.files {
            t.push_str(&format!(
                "{:<40} {:>9} {:>12.0} {:>10.2} {:>10.2}\n",
                f.file, f.puzzles, f.median_pps, f.median_us_per_puzzle, f.guesses_per_puzzle
            ));
        }
        t
    }
}
