//! `bench`: time the solver (and with `--grade` the grader) in-process on whole files,
//! several rounds, and report the median rate. Puzzles are read and parsed before the clock
//! starts, so the figures are solving (and grading) only; `solve` end to end adds reading,
//! parsing and writing.

use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use crate::config::InputSpec;
use crate::core::grader::{Grader, Rating};
use crate::core::samurai::{SamuraiGrader, SamuraiGrid, SamuraiOutcome, SamuraiSolver};
use crate::core::{Grid, SolveOutcome, Solver};
use crate::error::Error;
use crate::io::records::{self, CellsKind, Splitter};

use super::records_run::{fill_for_detection, open_input};

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
    /// Samurai files (`--variant samurai`).
    pub samurai: bool,
    /// Grade every uniquely solvable puzzle after solving it, with this work budget per
    /// puzzle (`None`: solve only).
    pub grade_budget: Option<u64>,
}

/// What one round did (the same every round: solving and grading are deterministic).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Guesses over all puzzles.
    pub guesses: u64,
    /// Solutions found over all puzzles (each capped at the limit).
    pub solutions: u64,
    /// Puzzles graded (those with exactly one solution).
    pub graded: u64,
    /// Gradings that ended with a lower bound (budget spent, or for samurai `beyond`).
    pub lower_bounds: u64,
}

impl Tally {
    fn add(self, o: Tally) -> Tally {
        Tally {
            guesses: self.guesses + o.guesses,
            solutions: self.solutions + o.solutions,
            graded: self.graded + o.graded,
            lower_bounds: self.lower_bounds + o.lower_bounds,
        }
    }
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
    /// Puzzles graded per round (0 without `--grade`).
    pub graded: u64,
    /// Of those, gradings that ended with a lower bound.
    pub lower_bounds: u64,
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
    /// True when puzzles were graded too.
    pub graded: bool,
    /// Grading budget per puzzle (work units), when grading.
    pub grade_budget: Option<u64>,
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
    fill_for_detection(&mut source).map_err(read_err)?;
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
                CellsKind::Samurai(_) => None,
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

/// Per-worker scratch for classic rounds.
struct ClassicScratch {
    solver: Solver,
    out: SolveOutcome,
    grader: Grader,
    rating: Rating,
}

impl ClassicScratch {
    fn new() -> ClassicScratch {
        ClassicScratch {
            solver: Solver::new(),
            out: SolveOutcome::default(),
            grader: Grader::new(),
            rating: Rating::default(),
        }
    }

    /// Solves (and grades) `chunk`, as `solve` does per record.
    fn run(&mut self, chunk: &[Grid], limit: u32, grade: Option<u64>) -> Tally {
        let mut t = Tally::default();
        for p in chunk {
            self.solver.solve_into(p, limit, &mut self.out);
            t.guesses += self.out.guesses;
            t.solutions += u64::from(self.out.count);
            if let Some(budget) = grade
                && self.out.count == 1
            {
                self.grader
                    .rate(p, Some(&self.out.solution), budget, &mut self.rating);
                t.graded += 1;
                t.lower_bounds += u64::from(!self.rating.complete);
            }
        }
        t
    }
}

/// Solves (and grades) every puzzle once.
fn solve_all(grids: &[Grid], limit: u32, grade: Option<u64>, pool: &rayon::ThreadPool) -> Tally {
    if pool.current_num_threads() == 1 {
        return ClassicScratch::new().run(grids, limit, grade);
    }
    pool.install(|| {
        grids
            .par_chunks(256)
            .map_init(ClassicScratch::new, |s, chunk| s.run(chunk, limit, grade))
            .reduce(Tally::default, Tally::add)
    })
}

/// Solves (and grades) every samurai puzzle once.
fn solve_all_samurai(
    puzzles: &[SamuraiGrid],
    limit: u32,
    grade: bool,
    pool: &rayon::ThreadPool,
) -> Tally {
    if !grade {
        let (guesses, solutions) = super::samurai::solve_all(puzzles, limit, pool);
        return Tally {
            guesses,
            solutions,
            ..Tally::default()
        };
    }
    // As `solve --variant samurai` does per record: solve, then grade a unique puzzle.
    type Scratch = (SamuraiSolver, SamuraiOutcome, SamuraiGrader);
    let run = |chunk: &[SamuraiGrid], (solver, out, grader): &mut Scratch| {
        let mut t = Tally::default();
        for p in chunk {
            solver.solve_into(p, limit, out);
            t.guesses += out.guesses;
            t.solutions += u64::from(out.count);
            if out.count == 1 {
                let g = grader.grade(p);
                t.graded += 1;
                t.lower_bounds += u64::from(!g.solved);
            }
        }
        t
    };
    let init = || -> Scratch {
        (
            SamuraiSolver::new(),
            SamuraiOutcome::default(),
            SamuraiGrader::new(),
        )
    };
    if pool.current_num_threads() == 1 {
        return run(puzzles, &mut init());
    }
    pool.install(|| {
        puzzles
            .par_chunks(64)
            .map_init(init, |s, chunk| run(chunk, s))
            .reduce(Tally::default, Tally::add)
    })
}

/// Solves (and grades) a file's puzzles once.
type SolveRound<'a> = dyn Fn() -> Tally + 'a;

/// Runs the benchmark.
pub fn run(cfg: &BenchConfig) -> Result<BenchReport, Error> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads)
        .build()
        .map_err(|e| Error::Usage(format!("cannot start worker threads: {e}")))?;
    let mut files = Vec::new();
    for spec in &cfg.files {
        // Puzzles are read before the clock starts; `solve` solves them all once.
        let (n_puzzles, skipped, solve): (usize, usize, Box<SolveRound<'_>>) = if cfg.samurai {
            let (puzzles, skipped) = super::samurai::load_puzzles(spec)?;
            let (limit, grade) = (cfg.limit, cfg.grade_budget);
            let pool = &pool;
            (
                puzzles.len(),
                skipped,
                Box::new(move || solve_all_samurai(&puzzles, limit, grade.is_some(), pool)),
            )
        } else {
            let (grids, skipped) = load_puzzles(spec)?;
            let (limit, grade) = (cfg.limit, cfg.grade_budget);
            let pool = &pool;
            (
                grids.len(),
                skipped,
                Box::new(move || solve_all(&grids, limit, grade, pool)),
            )
        };
        // One untimed warm-up round (caches, page faults, CPU frequency).
        let tally = solve();
        let mut rates = Vec::with_capacity(cfg.rounds);
        for _ in 0..cfg.rounds.max(1) {
            let t = Instant::now();
            let r = solve();
            let secs = t.elapsed().as_secs_f64().max(1e-9);
            debug_assert_eq!(r, tally);
            rates.push(n_puzzles as f64 / secs);
        }
        let med = median(&rates);
        let n = n_puzzles.max(1) as f64;
        files.push(FileBench {
            file: spec.display_name(),
            puzzles: n_puzzles,
            skipped,
            median_pps: med,
            min_pps: rates.iter().copied().fold(f64::INFINITY, f64::min),
            max_pps: rates.iter().copied().fold(0.0, f64::max),
            median_us_per_puzzle: if med > 0.0 { 1e6 / med } else { 0.0 },
            guesses_per_puzzle: tally.guesses as f64 / n,
            solutions_per_puzzle: tally.solutions as f64 / n,
            graded: tally.graded,
            lower_bounds: tally.lower_bounds,
            rates,
        });
    }
    Ok(BenchReport {
        threads: pool.current_num_threads(),
        limit: cfg.limit,
        rounds: cfg.rounds.max(1),
        graded: cfg.grade_budget.is_some(),
        grade_budget: cfg.grade_budget,
        version: env!("CARGO_PKG_VERSION"),
        files,
    })
}

impl BenchReport {
    /// A table for people.
    pub fn text(&self) -> String {
        let mut t = format!(
            "solve{}, limit {}, {} thread{}, median of {} rounds\n{:<40} {:>9} {:>12} {:>10} {:>10}{}\n",
            match self.grade_budget {
                Some(b) => format!(" and grade (budget {b})"),
                None => String::new(),
            },
            self.limit,
            self.threads,
            if self.threads == 1 { "" } else { "s" },
            self.rounds,
            "file",
            "puzzles",
            "puzzles/s",
            "us/puzzle",
            "guesses",
            if self.graded {
                "     graded lower-bounds"
            } else {
                ""
            }
        );
        for f in &self.files {
            t.push_str(&format!(
                "{:<40} {:>9} {:>12.0} {:>10.2} {:>10.2}",
                f.file, f.puzzles, f.median_pps, f.median_us_per_puzzle, f.guesses_per_puzzle
            ));
            if self.graded {
                t.push_str(&format!(" {:>10} {:>12}", f.graded, f.lower_bounds));
            }
            t.push('\n');
        }
        t
    }
}
