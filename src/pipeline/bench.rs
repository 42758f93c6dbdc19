//! `bench`: time the solver (and with `--grade` the grader) in-process on whole files,
//! several rounds, and report the median rate. Puzzles are read and parsed before the clock
//! starts, so the figures are solving (and grading) only; `solve` end to end adds reading,
//! parsing and writing.

use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use crate::config::InputSpec;
use crate::core::Cancel;
use crate::core::family::{Family, Solved};
use crate::core::geometry::{Geometry, Shape};
use crate::core::grader::{Grader, Rating, givens_conflict};
use crate::core::solver::Backend;
use crate::error::Error;

use super::shape::{ReadRecord, detect_format, dispatch, read_all, read_input};

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
    /// The grid shape (`--variant`).
    pub shape: Shape,
    /// Grade every uniquely solvable puzzle after solving it, with this work budget per
    /// puzzle (`None`: solve only).
    pub grade_budget: Option<u64>,
    /// The classic solver's backend (`--backend`).
    pub backend: Backend,
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
    /// Gradings that ended with a lower bound (the budget ran out).
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
    /// The solver backend that ran (`avx512`, `avx2`, `portable`; `generic` for the
    /// variants, which have one solver).
    pub backend: &'static str,
    /// The crate version that ran.
    pub version: &'static str,
    /// Per-file figures (with `interrupted`, those of the files measured in full).
    pub files: Vec<FileBench>,
    /// True when Ctrl-C or SIGTERM stopped the run before every file was measured.
    pub interrupted: bool,
}

/// A puzzle of family `F` as `bench` keeps it: its cells, and for Jigsaw its layout.
type Loaded<F> = (<F as Family>::Grid, Option<[u8; 81]>);

/// Reads every valid puzzle of an input of `shape` (any record format of the shape);
/// returns them and how many records were skipped as unreadable or breaking a rule.
pub fn load_puzzles<F: ReadRecord>(
    spec: &InputSpec,
    shape: Shape,
) -> Result<(Vec<Loaded<F>>, usize), Error> {
    let buf = read_input(spec)?;
    let (format, skip) = detect_format(shape, &buf);
    let mut geo = F::geometry(shape);
    let (all, mut skipped) = read_all::<F>(&buf[skip..], format, &mut geo, usize::MAX);
    let mut puzzles = Vec::with_capacity(all.len());
    for (g, layout) in all {
        if let Some(r) = &layout {
            F::set_layout(&mut geo, r);
        }
        if givens_conflict(&geo, F::values(&g)) {
            skipped += 1;
        } else {
            puzzles.push((g, layout));
        }
    }
    Ok((puzzles, skipped))
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

/// Per-worker scratch for a round.
struct Scratch<F: Family> {
    geo: Geometry<F>,
    solver: F::Solver,
    out: Solved<F>,
    /// Made on first use: a plain `bench` round does not pay for the grader's memory.
    grader: Option<Box<Grader<F>>>,
    rating: Rating,
    cancel: Cancel,
}

impl<F: Family> Scratch<F> {
    fn new(shape: Shape, backend: Backend, cancel: Cancel) -> Scratch<F> {
        let mut solver = F::Solver::default();
        F::set_cancel(&mut solver, cancel);
        F::set_backend(&mut solver, backend);
        Scratch {
            geo: F::geometry(shape),
            solver,
            out: Solved::default(),
            grader: None,
            rating: Rating::default(),
            cancel,
        }
    }

    /// Solves (and grades) `chunk`, as `solve` does per record; stops early (with a
    /// partial tally) once a stop is requested.
    fn run(&mut self, chunk: &[Loaded<F>], limit: u32, grade: Option<u64>) -> Tally {
        let mut t = Tally::default();
        for (p, layout) in chunk {
            if self.cancel.requested() {
                break;
            }
            if let Some(r) = layout {
                F::set_layout(&mut self.geo, r);
            }
            F::solve(&mut self.solver, &self.geo, p, limit, &mut self.out);
            t.guesses += self.out.guesses;
            t.solutions += u64::from(self.out.count);
            if let Some(budget) = grade
                && self.out.count == 1
            {
                let cancel = self.cancel;
                let grader = self.grader.get_or_insert_with(|| {
                    let mut g = Box::new(Grader::new());
                    g.set_cancel(cancel);
                    // As `solve` rates without a profile.
                    g.set_shortcut(true);
                    g
                });
                grader.rate_values(
                    &self.geo,
                    F::values(p),
                    Some(F::values(&self.out.solution)),
                    budget,
                    &mut self.rating,
                );
                t.graded += 1;
                t.lower_bounds += u64::from(!self.rating.complete);
            }
        }
        t
    }
}

/// Solves (and grades) every puzzle once.
fn solve_all<F: Family>(
    shape: Shape,
    backend: Backend,
    puzzles: &[Loaded<F>],
    limit: u32,
    grade: Option<u64>,
    pool: &rayon::ThreadPool,
    cancel: Cancel,
) -> Tally {
    if pool.current_num_threads() == 1 {
        return Scratch::<F>::new(shape, backend, cancel).run(puzzles, limit, grade);
    }
    let chunk = if F::CELLS > 81 { 64 } else { 256 };
    pool.install(|| {
        puzzles
            .par_chunks(chunk)
            .map_init(
                || Scratch::<F>::new(shape, backend, cancel),
                |s, c| s.run(c, limit, grade),
            )
            .reduce(Tally::default, Tally::add)
    })
}

/// Runs the benchmark. Once `cancel` is set the run stops within milliseconds and reports
/// the files measured in full (`interrupted` set).
pub fn run(cfg: &BenchConfig, cancel: Cancel) -> Result<BenchReport, Error> {
    dispatch!(cfg.shape, F => run_family::<F>(cfg, cancel))
}

fn run_family<F: ReadRecord>(cfg: &BenchConfig, cancel: Cancel) -> Result<BenchReport, Error> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads)
        .build()
        .map_err(|e| Error::Usage(format!("cannot start worker threads: {e}")))?;
    let mut files = Vec::new();
    let mut interrupted = false;
    'files: for spec in &cfg.files {
        // Puzzles are read before the clock starts; a round solves them all once.
        let (puzzles, skipped) = load_puzzles::<F>(spec, cfg.shape)?;
        let n_puzzles = puzzles.len();
        let solve = || {
            let t = solve_all::<F>(
                cfg.shape,
                cfg.backend,
                &puzzles,
                cfg.limit,
                cfg.grade_budget,
                &pool,
                cancel,
            );
            // A round cut short measures nothing.
            (!cancel.requested()).then_some(t)
        };
        // One untimed warm-up round (caches, page faults, CPU frequency).
        let Some(tally) = solve() else {
            interrupted = true;
            break;
        };
        let mut rates = Vec::with_capacity(cfg.rounds);
        for _ in 0..cfg.rounds.max(1) {
            let t = Instant::now();
            let Some(r) = solve() else {
                interrupted = true;
                break 'files;
            };
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
        backend: if cfg.shape == Shape::Classic {
            cfg.backend.resolve().name()
        } else {
            "generic"
        },
        version: env!("CARGO_PKG_VERSION"),
        files,
        interrupted,
    })
}

impl BenchReport {
    /// A table for people.
    pub fn text(&self) -> String {
        let mut t = format!(
            "solve{}, backend {}, limit {}, {} thread{}, median of {} rounds\n{:<40} {:>9} {:>12} {:>10} {:>10}{}\n",
            match self.grade_budget {
                Some(b) => format!(" and grade (budget {b})"),
                None => String::new(),
            },
            self.backend,
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
        if self.interrupted {
            t.push_str("interrupted: the files above were measured in full, the rest not\n");
        }
        t
    }
}
