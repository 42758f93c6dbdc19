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

use crate::config::{InputSpec, MinimizeConfig, OutputSpec};
use crate::core::generator::{Generator, MinimizeError};
use crate::error::Error;
use crate::io::records::{CellsKind, Record, Splitter};
use crate::io::{Field, RowEncoder, Source};

use super::engine::{Block, Diag, Engine, Pacer, Writer};
use super::progress::Progress;
use super::solve::{fill_for_detection, open_input, open_output, parse_record, resolve_format};
use super::{DiagPrinter, RunEnd};

/// Most records per window (a [`Pacer`] shrinks windows of slow records).
pub const WINDOW: usize = 8192;

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

/// Runs `minimize`.
pub fn run(
    cfg: &MinimizeConfig,
    interrupt: Arc<AtomicBool>,
) -> Result<(MinimizeSummary, RunEnd), Error> {
    let mut source: Source = open_input(&cfg.input)?;
    let start = Instant::now();
    let input_name = cfg.input.display_name();
    let read_err = |e: std::io::Error| Error::Input {
        path: match &cfg.input {
            InputSpec::Stdin => "-".into(),
            InputSpec::File(p) => p.clone(),
        },
        source: e,
    };
    fill_for_detection(&mut source).map_err(read_err)?;
    let (format, skip) = resolve_format(cfg.input_format, source.window());
    let mut first_line = 1 + source.window()[..skip]
        .iter()
        .filter(|&&b| b == b'\n')
        .count() as u64;
    source.consume(skip);
    let sink = open_output(&cfg.output)?;
    let output_name = match &cfg.output {
        OutputSpec::Stdout => "<stdout>".to_string(),
        OutputSpec::File(p) => p.display().to_string(),
    };
    let out_path: std::path::PathBuf = match (sink.partial_path(), &cfg.output) {
        (Some(p), _) => p.to_path_buf(),
        (None, OutputSpec::File(p)) => p.clone(),
        (None, OutputSpec::Stdout) => "<stdout>".into(),
    };
    let enc = RowEncoder::new(cfg.format, MINIMIZE_COLUMNS.to_vec());
    let mut header = Vec::new();
    if cfg.header {
        enc.write_header(&mut header);
    }
    let engine = Engine::new(cfg.threads, Arc::clone(&interrupt), MinimizeWorker::default)
        .map_err(|e| Error::Usage(format!("cannot start worker threads: {e}")))?;
    let mut writer: Writer<MinimizeStats> = Writer::spawn(sink, header);
    let progress = Progress::new(!cfg.quiet, source.total_len(), "puzzles");
    let mut splitter = Splitter::new(format);
    let mut pacer = Pacer::new(engine.threads(), WINDOW);
    let mut stats = MinimizeStats::default();
    let mut diags = DiagPrinter::new(input_name.clone(), super::MAX_DIAGS);
    let mut consumed_total = 0u64;
    let mut end = RunEnd::Completed;
    let mut fault: Option<Error> = None;
    loop {
        if engine.interrupted() {
            end = RunEnd::Interrupted;
            break;
        }
        if writer.failed() {
            break;
        }
        if let Err(e) = source.check_size() {
            fault = Some(read_err(e));
            break;
        }
        let is_last = source.at_end();
        let window = source.window();
        if window.is_empty() && is_last {
            break;
        }
        let p = splitter.split(window, first_line, pacer.size(), is_last);
        if p.consumed == 0 && splitter.is_empty() {
            if is_last {
                break;
            }
            let keep = window.len();
            if let Err(e) = source.fill(keep) {
                fault = Some(read_err(e));
                break;
            }
            continue;
        }
        let n = splitter.len();
        let mut blocks = writer.take_blocks();
        let started = Instant::now();
        {
            let recs: &Splitter = &splitter;
            engine.run(
                n,
                &mut blocks,
                |w: &mut MinimizeWorker, i, block| {
                    let rec = recs.record(i, window);
                    w.process(&rec, &enc, block);
                },
                |i, block| {
                    let rec = recs.record(i, window);
                    block.stats.records += 1;
                    block.stats.invalid += 1;
                    let row = [
                        Field::Int(rec.line),
                        Field::Null,
                        Field::Null,
                        Field::Null,
                        Field::Text(b"internal error while minimizing this record"),
                    ];
                    enc.write_row(&mut block.out, &row);
                },
            );
        }
        pacer.record(n, started.elapsed().as_secs_f64());
        // A file truncated while this window was processed: its rows may come from the
        // zeros the kernel shows past the new end of the file, so none of them is written.
        if let Err(e) = source.check_size() {
            fault = Some(read_err(e));
            break;
        }
        let mut complete = true;
        for b in &blocks {
            if !b.done {
                complete = false;
                break;
            }
            stats.merge(&b.stats);
            for d in &b.diags {
                diags.print(d);
            }
        }
        writer.send(blocks);
        if !complete {
            end = RunEnd::Interrupted;
            break;
        }
        first_line += p.lines;
        consumed_total += p.consumed as u64;
        source.consume(p.consumed);
        progress.update(consumed_total, stats.records, "puzzles");
        if !source.at_end()
            && let Err(e) = source.fill(0)
        {
            fault = Some(read_err(e));
            break;
        }
    }
    progress.finish();
    diags.finish();
    let (sink, write_result) = writer.finish();
    if let Some(e) = fault {
        return Err(e);
    }
    let summary = |stats: MinimizeStats, threads: usize, interrupted: bool| {
        let secs = start.elapsed().as_secs_f64();
        MinimizeSummary {
            input: input_name.clone(),
            output: output_name.clone(),
            puzzles_per_second: if secs > 0.0 {
                stats.records as f64 / secs
            } else {
                0.0
            },
            stats,
            elapsed_seconds: secs,
            threads,
            interrupted,
        }
    };
    if let Err(e) = write_result {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            return Ok((summary(stats, engine.threads(), true), RunEnd::BrokenPipe));
        }
        return Err(Error::Output {
            path: out_path,
            source: e,
        });
    }
    if end == RunEnd::Completed
        && let Some(sink) = sink
    {
        sink.finish().map_err(|e| Error::Output {
            path: out_path.clone(),
            source: e,
        })?;
    }
    let interrupted = end != RunEnd::Completed;
    Ok((summary(stats, engine.threads(), interrupted), end))
}
