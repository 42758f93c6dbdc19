//! `minimize`: read records as `solve` does, and for every uniquely solvable puzzle write a
//! minimal puzzle whose clues are a subset of its clues ([`Generator::minimize`]); one row
//! per record, in input order.
//!
//! Columns: `line`, `puzzle` (normalized input), `minimal`, `clues` (of the minimal puzzle),
//! and `error`, which says why a record has no minimal puzzle (invalid record, givens that
//! break a rule, no solution, several solutions). Invalid records are also reported on
//! stderr as `FILE:LINE:COL: reason`, like `solve` does.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use serde::Serialize;

use crate::config::MinimizeConfig;
use crate::core::generator::{Generator, MinimizeError};
use crate::error::Error;
use crate::io::records::{CellsKind, Record};
use crate::io::{Field, RowEncoder};

use super::RunEnd;
use super::engine::{Block, Diag};
use super::records_run::{RecordJob, RecordRun, open_input, output_name, run_records};
use super::solve::parse_record;

/// The output columns of `minimize`, in order.
pub const MINIMIZE_COLUMNS: &[&str] = &["line", "puzzle", "minimal", "clues", "error"];

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
#[derive(Debug, Default)]
pub struct MinimizeWorker {
    generator: Generator,
    message: String,
}

impl MinimizeWorker {
    /// Minimizes one record and appends its row.
    pub fn process(
        &mut self,
        rec: &Record<'_>,
        enc: &RowEncoder,
        block: &mut Block<MinimizeStats>,
    ) {
        use std::fmt::Write;
        block.stats.records += 1;
        self.message.clear();
        let grid = match parse_record(rec, &mut self.message) {
            Ok((g, _)) => g,
            Err(at) => {
                block.stats.invalid += 1;
                block.diags.push(Diag {
                    line: at.line,
                    col: at.col,
                    message: self.message.clone(),
                });
                let row = [
                    Field::Int(rec.line),
                    Field::Null,
                    Field::Null,
                    Field::Null,
                    Field::Text(self.message.as_bytes()),
                ];
                enc.write_row(&mut block.out, &row);
                return;
            }
        };
        let puzzle = grid.to_line_bytes();
        match self.generator.minimize(&grid) {
            Ok(m) => {
                let stats = &mut block.stats;
                stats.minimized += 1;
                let (before, after) = (grid.clue_count(), m.puzzle.clue_count());
                stats.clues_removed += (before - after) as u64;
                if before == after {
                    stats.already_minimal += 1;
                }
                let minimal = m.puzzle.to_line_bytes();
                let row = [
                    Field::Int(rec.line),
                    Field::Text(&puzzle),
                    Field::Text(&minimal),
                    Field::Int(after as u64),
                    Field::Null,
                ];
                enc.write_row(&mut block.out, &row);
            }
            Err(e) => {
                let _ = write!(self.message, "{e}");
                match e {
                    MinimizeError::Invalid(c) => {
                        block.stats.invalid += 1;
                        let col = c
                            .house
                            .cells()
                            .iter()
                            .filter(|&&x| grid.digit(x) == Some(c.digit))
                            .nth(1)
                            .map_or(1, |x| x.index() + 1);
                        block.diags.push(Diag {
                            line: rec.line,
                            col: if rec.kind == CellsKind::Line { col } else { 1 },
                            message: self.message.clone(),
                        });
                    }
                    MinimizeError::NoSolution => block.stats.unsolvable += 1,
                    MinimizeError::MultipleSolutions => block.stats.multiple += 1,
                }
                let row = [
                    Field::Int(rec.line),
                    Field::Text(&puzzle),
                    Field::Null,
                    Field::Null,
                    Field::Text(self.message.as_bytes()),
                ];
                enc.write_row(&mut block.out, &row);
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

/// `minimize` as a [`RecordJob`].
struct MinimizeJob {
    enc: RowEncoder,
}

impl RecordJob for MinimizeJob {
    type Worker = MinimizeWorker;
    type Stats = MinimizeStats;

    fn process(&self, w: &mut MinimizeWorker, rec: &Record<'_>, block: &mut Block<MinimizeStats>) {
        w.process(rec, &self.enc, block);
    }

    fn on_panic(&self, rec: &Record<'_>, block: &mut Block<MinimizeStats>) {
        block.stats.records += 1;
        block.stats.invalid += 1;
        let row = [
            Field::Int(rec.line),
            Field::Null,
            Field::Null,
            Field::Null,
            Field::Text(b"internal error while minimizing this record"),
        ];
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
    let source = open_input(&cfg.input)?;
    let start = Instant::now();
    let job = MinimizeJob {
        enc: RowEncoder::new(cfg.format, MINIMIZE_COLUMNS.to_vec()),
    };
    let run = RecordRun {
        input: &cfg.input,
        input_format: cfg.input_format,
        output: &cfg.output,
        threads: cfg.threads,
        quiet: cfg.quiet,
        max_messages: super::MAX_DIAGS,
        shard: None,
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
        MinimizeWorker::default,
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
