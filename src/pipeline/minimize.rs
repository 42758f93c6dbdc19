//! `minimize`: read records as `solve` does, and for every uniquely solvable puzzle write a
//! minimal puzzle whose clues are a subset of its clues ([`crate::core::family::Family::minimize`]); one row
//! per record, in input order. Every shape: the worker is generic over the family.
//!
//! Columns: `line`, `puzzle` (normalized input; Jigsaw then `regions`), `minimal`, `clues`
//! (of the minimal puzzle), and `error`, which says why a record has no minimal puzzle
//! (invalid record, givens that break a rule, no solution, several solutions). Invalid
//! records are also reported on stderr as `FILE:LINE:COL: reason`, like `solve` does.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use serde::Serialize;

use crate::config::MinimizeConfig;
use crate::core::Cancel;
use crate::core::family::Solved;
use crate::core::geometry::{Geometry, Shape};
use crate::error::Error;
use crate::io::records::Record;
use crate::io::{Field, RowEncoder};

use super::RunEnd;
use super::engine::{Block, Diag};
use super::records_run::{RecordJob, RecordRun, open_input, output_name, run_records};
use super::shape::{Invalid, ReadRecord, dispatch};

/// The output columns of `minimize`, in order (Jigsaw adds `regions` after `puzzle`).
pub const MINIMIZE_COLUMNS: &[&str] = &["line", "puzzle", "minimal", "clues", "error"];

/// The columns of `minimize` for `shape`.
pub fn columns(shape: Shape) -> Vec<&'static str> {
    let mut c = MINIMIZE_COLUMNS.to_vec();
    if shape == Shape::Jigsaw {
        c.insert(2, "regions");
    }
    c
}

/// Counts for a `minimize` run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MinimizeStats {
    /// Records read.
    pub records: u64,
    /// Uniquely solvable puzzles, minimized.
    pub minimized: u64,
    /// Of those, puzzles that were minimal already.
    pub already_minimal: u64,
    /// Clues removed over all minimized puzzles.
    pub clues_removed: u64,
    /// Puzzles with two or more solutions.
    pub multiple: u64,
    /// Puzzles with no solution.
    pub unsolvable: u64,
    /// Records that are not valid puzzles (unreadable, or givens that break a rule).
    pub invalid: u64,
}

impl MinimizeStats {
    fn merge(&mut self, o: &MinimizeStats) {
        self.records += o.records;
        self.minimized += o.minimized;
        self.already_minimal += o.already_minimal;
        self.clues_removed += o.clues_removed;
        self.multiple += o.multiple;
        self.unsolvable += o.unsolvable;
        self.invalid += o.invalid;
    }
}

/// Per-worker scratch for `minimize`.
#[derive(Debug)]
pub struct MinimizeWorker<F: ReadRecord> {
    geo: Geometry<F>,
    solver: F::Solver,
    solved: Solved<F>,
    message: String,
    puzzle: Vec<u8>,
    minimal: Vec<u8>,
    regions: Vec<u8>,
}

impl<F: ReadRecord> MinimizeWorker<F> {
    /// A worker for `shape` whose solver gives up soon after `cancel` is set.
    pub fn new(shape: Shape, cancel: Cancel) -> MinimizeWorker<F> {
        let mut solver = F::Solver::default();
        F::set_cancel(&mut solver, cancel);
        MinimizeWorker {
            geo: F::geometry(shape),
            solver,
            solved: Solved::default(),
            message: String::new(),
            puzzle: Vec::with_capacity(405),
            minimal: Vec::with_capacity(405),
            regions: Vec::with_capacity(81),
        }
    }

    /// Writes a row: `line`, `puzzle`, (`regions`), `minimal`, `clues`, `error`.
    fn row(&self, enc: &RowEncoder, out: &mut Vec<u8>, line: u64, clues: Option<usize>) {
        fn text(b: &[u8]) -> Field<'_> {
            if b.is_empty() {
                Field::Null
            } else {
                Field::Text(b)
            }
        }
        let mut row = [Field::Null; 6];
        let mut n = 0;
        for f in [Field::Int(line), text(&self.puzzle)] {
            row[n] = f;
            n += 1;
        }
        if self.geo.shape() == Shape::Jigsaw {
            row[n] = text(&self.regions);
            n += 1;
        }
        for f in [
            text(&self.minimal),
            clues.map_or(Field::Null, |c| Field::Int(c as u64)),
            text(self.message.as_bytes()),
        ] {
            row[n] = f;
            n += 1;
        }
        enc.write_row(out, &row[..n]);
    }

    /// Minimizes one record and appends its row.
    pub fn process(
        &mut self,
        rec: &Record<'_>,
        enc: &RowEncoder,
        block: &mut Block<MinimizeStats>,
    ) {
        block.stats.records += 1;
        self.message.clear();
        self.puzzle.clear();
        self.minimal.clear();
        self.regions.clear();
        let invalid = |w: &Self, at: Invalid, block: &mut Block<MinimizeStats>| {
            block.stats.invalid += 1;
            block.diags.push(Diag {
                line: at.line,
                col: at.col,
                message: w.message.clone(),
            });
            w.row(enc, &mut block.out, rec.line, None);
        };
        let grid = match F::read(rec, &mut self.geo, &mut self.regions, &mut self.message) {
            Ok((g, _)) => g,
            Err(at) => {
                invalid(self, at, block);
                return;
            }
        };
        F::write_line(&grid, &mut self.puzzle);
        if F::CHECKS_GIVENS
            && let Some(at) = F::conflict(rec, &self.geo, &grid, &mut self.message)
        {
            self.message.insert_str(0, "invalid givens: ");
            invalid(self, at, block);
            return;
        }
        F::solve(&mut self.solver, &self.geo, &grid, 2, &mut self.solved);
        match self.solved.count {
            0 => {
                if let Some(at) = F::conflict(rec, &self.geo, &grid, &mut self.message) {
                    self.message.insert_str(0, "invalid givens: ");
                    invalid(self, at, block);
                    return;
                }
                block.stats.unsolvable += 1;
                self.message.push_str("the puzzle has no solution");
                self.row(enc, &mut block.out, rec.line, None);
            }
            1 => {
                let m = F::minimize(&mut self.solver, &self.geo, &grid);
                let stats = &mut block.stats;
                stats.minimized += 1;
                let (before, after) = (F::clues(&grid), F::clues(&m));
                stats.clues_removed += (before - after) as u64;
                if before == after {
                    stats.already_minimal += 1;
                }
                F::write_line(&m, &mut self.minimal);
                self.row(enc, &mut block.out, rec.line, Some(after));
            }
            _ => {
                block.stats.multiple += 1;
                self.message.push_str("the puzzle has several solutions");
                self.row(enc, &mut block.out, rec.line, None);
            }
        }
    }
}

/// The end-of-run summary of `minimize`.
#[derive(Clone, Debug, Serialize)]
pub struct MinimizeSummary {
    /// Input name.
    pub input: String,
    /// Output name.
    pub output: String,
    /// Counts.
    #[serde(flatten)]
    pub stats: MinimizeStats,
    /// Wall-clock seconds.
    pub elapsed_seconds: f64,
    /// Records per second.
    pub puzzles_per_second: f64,
    /// Worker threads.
    pub threads: usize,
    /// True if the run was interrupted.
    pub interrupted: bool,
}

impl MinimizeSummary {
    /// The short text form for stderr.
    pub fn text(&self) -> String {
        let s = &self.stats;
        format!(
            "{} records: {} minimized ({} already minimal, {} clues removed), {} multiple, {} unsolvable, {} invalid\n{:.2} s, {:.0} puzzles/s, {} thread{}",
            s.records,
            s.minimized,
            s.already_minimal,
            s.clues_removed,
            s.multiple,
            s.unsolvable,
            s.invalid,
            self.elapsed_seconds,
            self.puzzles_per_second,
            self.threads,
            if self.threads == 1 { "" } else { "s" }
        )
    }

    /// The JSON form.
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }
}

/// `minimize` as a [`RecordJob`] (also run over puzzles in memory, by [`super::memory`]).
pub(super) struct MinimizeJob<F> {
    pub(super) enc: RowEncoder,
    pub(super) shape: Shape,
    pub(super) family: std::marker::PhantomData<F>,
}

impl<F: ReadRecord> RecordJob for MinimizeJob<F> {
    type Worker = MinimizeWorker<F>;
    type Stats = MinimizeStats;

    fn process(
        &self,
        w: &mut MinimizeWorker<F>,
        rec: &Record<'_>,
        block: &mut Block<MinimizeStats>,
    ) {
        w.process(rec, &self.enc, block);
    }

    fn on_panic(&self, rec: &Record<'_>, block: &mut Block<MinimizeStats>) {
        block.stats.records += 1;
        block.stats.invalid += 1;
        let mut row = vec![Field::Int(rec.line), Field::Null, Field::Null, Field::Null];
        if self.shape == Shape::Jigsaw {
            row.push(Field::Null);
        }
        row.push(Field::Text(b"internal error while minimizing this record"));
        self.enc.write_row(&mut block.out, &row);
    }

    fn merge(total: &mut MinimizeStats, block: &MinimizeStats) {
        total.merge(block);
    }

    fn records(stats: &MinimizeStats) -> u64 {
        stats.records
    }
}

/// Runs `minimize`.
pub fn run(
    cfg: &MinimizeConfig,
    interrupt: Arc<AtomicBool>,
) -> Result<(MinimizeSummary, RunEnd), Error> {
    dispatch!(cfg.shape, F => run_family::<F>(cfg, interrupt))
}

fn run_family<F: ReadRecord>(
    cfg: &MinimizeConfig,
    interrupt: Arc<AtomicBool>,
) -> Result<(MinimizeSummary, RunEnd), Error> {
    let source = open_input(&cfg.input, &interrupt)?;
    let start = Instant::now();
    let job = MinimizeJob::<F> {
        enc: RowEncoder::new(cfg.format, columns(cfg.shape)),
        shape: cfg.shape,
        family: std::marker::PhantomData,
    };
    let run = RecordRun {
        input: &cfg.input,
        input_format: cfg.input_format,
        output: &cfg.output,
        threads: cfg.threads,
        quiet: cfg.quiet,
        max_messages: super::MAX_DIAGS,
        shard: None,
        block_rows: if cfg.shape == Shape::Jigsaw { 18 } else { 9 },
    };
    let mut header = Vec::new();
    if cfg.header {
        job.enc.write_header(&mut header);
    }
    let out = run_records(
        &run,
        &job,
        source,
        None,
        header,
        |cancel| MinimizeWorker::<F>::new(cfg.shape, cancel),
        interrupt,
    )?;
    let secs = start.elapsed().as_secs_f64();
    let summary = MinimizeSummary {
        input: cfg.input.display_name(),
        output: output_name(&cfg.output),
        puzzles_per_second: if secs > 0.0 {
            out.stats.records as f64 / secs
        } else {
            0.0
        },
        stats: out.stats,
        elapsed_seconds: secs,
        threads: out.threads,
        interrupted: out.end != RunEnd::Completed,
    };
    Ok((summary, out.end))
}
