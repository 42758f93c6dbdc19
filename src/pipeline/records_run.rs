//! The run loop shared by the commands that read records (`solve`, `minimize`): open the
//! input, detect its format, cut it into windows of records, hand each window to the
//! [`Engine`], pass the rows to the [`Writer`] in input order, and end the run cleanly on
//! an interrupt, a write failure, an input fault or a `--strict` stop.
//!
//! ```text
//!  Source ──► detect format ──► loop: split window ─► Engine (RecordJob::process per record)
//!                                      │                     │
//!                                      │      check the file did not shrink, merge stats
//!                                      ▼                     ▼
//!                              consume, fill        Writer (rows in order) ──► Sink
//! ```
//!
//! A command supplies a [`RecordJob`]: its per-worker scratch, what one record becomes, the
//! row of a record whose processing panicked, and how its statistics merge.

use std::io;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::cli::Shard;
use crate::config::{InputFormat, InputSpec, OutputSpec};
use crate::core::Cancel;
use crate::error::Error;
use crate::io::input::is_stop_requested;
use crate::io::records::{self, MAX_RECORD, Record, RecordFormat, Splitter};
use crate::io::{Sink, Source};

use super::engine::{Block, Engine, Pacer, Writer};
use super::progress::Progress;
use super::summary::Problem;
use super::{DiagPrinter, RunEnd};

/// Most records per window: bounds memory (rows buffered) while keeping workers busy. A
/// [`Pacer`] makes windows smaller when records are slow (grading hard puzzles), so rows
/// still leave about every second.
pub const WINDOW: usize = 8192;

/// What a record-reading command does with each record.
pub trait RecordJob: Sync {
    /// Per-worker scratch, built once per worker thread and reused.
    type Worker: Send;
    /// Counts kept per block and merged in input order.
    type Stats: Default + Send + 'static;

    /// Appends the row of `rec` to `block.out` (and any message to `block.diags`).
    fn process(&self, worker: &mut Self::Worker, rec: &Record<'_>, block: &mut Block<Self::Stats>);

    /// Appends the row of a record whose processing panicked (a bug: the record still gets
    /// a row, saying so).
    fn on_panic(&self, rec: &Record<'_>, block: &mut Block<Self::Stats>);

    /// Adds a block's counts to the run's.
    fn merge(total: &mut Self::Stats, block: &Self::Stats);

    /// Records counted so far (for the progress bar).
    fn records(stats: &Self::Stats) -> u64;

    /// With `--strict`: the record that stops the run, if `stats` saw one.
    fn stop(_stats: &Self::Stats) -> Option<&Problem> {
        None
    }
}

/// Where a record run reads and writes, and how.
#[derive(Clone, Debug)]
pub struct RecordRun<'a> {
    /// The input.
    pub input: &'a InputSpec,
    /// `--input-format`.
    pub input_format: InputFormat,
    /// The output.
    pub output: &'a OutputSpec,
    /// Worker threads (0: all cores).
    pub threads: usize,
    /// No progress bar.
    pub quiet: bool,
    /// Messages about bad records printed before they are only counted.
    pub max_messages: usize,
    /// `--shard K/N`: only the records that start in the shard's byte range.
    pub shard: Option<Shard>,
    /// Rows of a grid block: 9, or 18 for Jigsaw (nine rows of region ids follow).
    pub block_rows: usize,
}

/// How a record run ended.
#[derive(Debug)]
pub struct RunOutcome<S> {
    /// Counts over the rows written.
    pub stats: S,
    /// Why the run ended.
    pub end: RunEnd,
    /// Worker threads used.
    pub threads: usize,
}

/// Opens the input named by `spec`; a stream (stdin, a FIFO) gives up waiting for input
/// soon after `interrupt` is set.
pub fn open_input(spec: &InputSpec, interrupt: &Arc<AtomicBool>) -> Result<Source, Error> {
    let cancel = Cancel::from_flag(interrupt);
    match spec {
        InputSpec::Stdin => Ok(Source::stream_interruptible(
            Box::new(std::io::stdin()),
            cancel,
        )),
        InputSpec::File(p) => Source::open(p, cancel).map_err(|e| Error::Input {
            path: e.path,
            source: e.source,
        }),
    }
}

/// Opens the output named by `spec`.
pub fn open_output(spec: &OutputSpec) -> Result<Sink, Error> {
    match spec {
        OutputSpec::Stdout => Ok(Sink::stdout()),
        OutputSpec::File(p) => Sink::file(p).map_err(|e| Error::Output {
            path: p.clone(),
            source: e,
        }),
    }
}

/// The name of an output in messages and summaries.
pub fn output_name(spec: &OutputSpec) -> String {
    match spec {
        OutputSpec::Stdout => "<stdout>".to_string(),
        OutputSpec::File(p) => p.display().to_string(),
    }
}

/// The path named in write errors: the file being written (`FILE.partial` while the run
/// goes on), or `<stdout>`.
pub fn write_error_path(sink: &Sink, spec: &OutputSpec) -> PathBuf {
    match (sink.partial_path(), spec) {
        (Some(p), _) => p.to_path_buf(),
        (None, OutputSpec::File(p)) => p.clone(),
        (None, OutputSpec::Stdout) => "<stdout>".into(),
    }
}

/// What the writer thread's result means for the run: `Ok(false)` written, `Ok(true)` the
/// reader of our output went away (a quiet end), or the write error for `path`.
pub(crate) fn check_written(result: io::Result<()>, path: &std::path::Path) -> Result<bool, Error> {
    match result {
        Ok(()) => Ok(false),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(true),
        Err(e) => Err(Error::Output {
            path: path.to_path_buf(),
            source: e,
        }),
    }
}

/// Completes the output of a run that ended with `end`: only a completed run renames
/// `FILE.partial` to `FILE`.
pub(crate) fn complete_output(
    sink: Option<Sink>,
    end: &RunEnd,
    path: &std::path::Path,
) -> Result<(), Error> {
    if *end == RunEnd::Completed
        && let Some(sink) = sink
    {
        sink.finish().map_err(|e| Error::Output {
            path: path.to_path_buf(),
            source: e,
        })?;
    }
    Ok(())
}

/// The error for a failed read of `spec`.
pub fn read_error(spec: &InputSpec, e: io::Error) -> Error {
    Error::Input {
        path: match spec {
            InputSpec::Stdin => "-".into(),
            InputSpec::File(p) => p.clone(),
        },
        source: e,
    }
}

/// Chooses the record format from the setting and the start of the input. Returns the
/// format and how many bytes (a CSV header) to skip.
pub(crate) fn resolve_format(setting: InputFormat, start: &[u8]) -> (RecordFormat, usize) {
    let (detected, skip) = records::detect(start);
    match setting {
        InputFormat::Auto => (detected, skip),
        InputFormat::Line => (RecordFormat::Line, 0),
        InputFormat::Grid => (RecordFormat::Grid, 0),
        InputFormat::Samurai => (RecordFormat::Samurai, 0),
        InputFormat::Csv => match detected {
            RecordFormat::Csv(l) => (RecordFormat::Csv(l), skip),
            // No recognised header: read the first column as the puzzle, with no header.
            _ => (
                RecordFormat::Csv(records::CsvLayout {
                    puzzle: 0,
                    solution: None,
                    id: None,
                    regions: None,
                    delimiter: b',',
                }),
                0,
            ),
        },
    }
}

/// Reads until the window holds the first record line whole (or the input ends), so that
/// format detection sees a complete line.
pub(crate) fn fill_for_detection(source: &mut Source) -> std::io::Result<()> {
    loop {
        let w = source.window();
        let mut pos = 0;
        let mut complete = false;
        while let Some(nl) = w[pos..].iter().position(|&b| b == b'\n') {
            let line = &w[pos..pos + nl];
            let body = line.trim_ascii();
            let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
            if !body.is_empty() && !body.starts_with(b"#") {
                complete = true;
                break;
            }
            pos += nl + 1;
        }
        if complete || source.at_end() || w.len() >= (1 << 20) {
            return Ok(());
        }
        let keep = w.len();
        source.fill(keep)?;
    }
}

/// Runs `job` over every record of `source` (the input `run.input` names, already opened).
/// The rows go to `sink`, or when it is `None` to `run.output` (opened only after the
/// input has been read successfully), after the `header` bytes (written only by shard 0).
/// `make` builds each worker's scratch, given the run's [`Cancel`] token.
pub fn run_records<J: RecordJob>(
    run: &RecordRun<'_>,
    job: &J,
    mut source: Source,
    sink: Option<Sink>,
    header: Vec<u8>,
    make: impl Fn(Cancel) -> J::Worker,
    interrupt: Arc<AtomicBool>,
) -> Result<RunOutcome<J::Stats>, Error> {
    let read_err = |e| read_error(run.input, e);
    fill_for_detection(&mut source).map_err(|e| {
        if is_stop_requested(&e) {
            Error::Interrupted
        } else {
            read_err(e)
        }
    })?;
    let (format, skip) = resolve_format(run.input_format, source.window());
    // A CSV header (and any comment lines before it) is consumed here.
    let mut first_line = 1 + source.window()[..skip]
        .iter()
        .filter(|&&b| b == b'\n')
        .count() as u64;
    source.consume(skip);
    // Global byte offset of the window's start, and the shard's byte range.
    let mut base = skip as u64;
    let range = match (run.shard, source.total_len()) {
        (None, _) => None,
        (Some(sh), Some(total)) => {
            let cut = |k: u64| (u128::from(total) * u128::from(k) / u128::from(sh.count)) as u64;
            Some((cut(sh.index), cut(sh.index + 1)))
        }
        (Some(_), None) => {
            return Err(Error::Usage(
                "--shard needs a regular file as input (its size must be known)".into(),
            ));
        }
    };
    let sink = match sink {
        Some(s) => s,
        None => open_output(run.output)?,
    };
    let out_path = write_error_path(&sink, run.output);
    let header = if run.shard.is_none_or(|s| s.index == 0) {
        header
    } else {
        Vec::new()
    };
    let engine = Engine::new(run.threads, Arc::clone(&interrupt), make)
        .map_err(|e| Error::Usage(format!("cannot start worker threads: {e}")))?;
    let mut writer: Writer<J::Stats> = Writer::spawn(sink, header);
    let progress = Progress::new(!run.quiet, source.total_len(), "puzzles");
    let mut splitter = Splitter::new(format);
    splitter.set_block_rows(run.block_rows);
    // Windows of one to three seconds: when grading takes a large part of a second per
    // puzzle (the forum's hardest), a window of a few puzzles leaves a worker idle at its
    // end; fast records reach the largest window either way.
    let mut pacer = Pacer::new(engine.threads(), WINDOW).seconds(1.0, 3.0);
    let mut stats = J::Stats::default();
    let mut diags = DiagPrinter::new(run.input.display_name(), run.max_messages);
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
        let mut p = splitter.split(window, first_line, pacer.size(), is_last);
        if p.consumed == 0 && splitter.is_empty() && !is_last && window.len() > MAX_RECORD {
            // A stream holding one record longer than any real one: report and skip it.
            p = splitter.split_oversized(window, first_line);
        }
        if p.consumed == 0 && splitter.is_empty() {
            if is_last {
                break;
            }
            // No complete record yet: read more (a long record spans chunks).
            let keep = window.len();
            if let Err(e) = source.fill(keep) {
                if is_stop_requested(&e) {
                    end = RunEnd::Interrupted;
                } else {
                    fault = Some(read_err(e));
                }
                break;
            }
            continue;
        }
        // With --shard, only the records that start in the shard's byte range are ours.
        let n = splitter.len();
        let (lo, hi) = match range {
            None => (0, n),
            Some((a, b)) => {
                let at = |i: usize| base + splitter.record(i, window).offset as u64;
                let lo = (0..n).find(|&i| at(i) >= a).unwrap_or(n);
                let hi = (lo..n).find(|&i| at(i) >= b).unwrap_or(n);
                (lo, hi)
            }
        };
        if lo < hi {
            let mut blocks = writer.take_blocks();
            let started = Instant::now();
            let recs: &Splitter = &splitter;
            engine.run(
                hi - lo,
                &mut blocks,
                |w: &mut J::Worker, i, block| job.process(w, &recs.record(lo + i, window), block),
                |i, block| job.on_panic(&recs.record(lo + i, window), block),
            );
            pacer.record(n, started.elapsed().as_secs_f64());
            // A file truncated while this window was processed: its rows may come from the
            // zeros the kernel shows past the new end of the file, so none is written.
            if let Err(e) = source.check_size() {
                fault = Some(read_err(e));
                break;
            }
            // Strict mode stops after the first record that is not uniquely solvable: the
            // blocks after the one holding it are dropped.
            if let Some(k) = blocks.iter().position(|b| J::stop(&b.stats).is_some()) {
                for b in &mut blocks[k + 1..] {
                    b.done = false;
                }
            }
            let mut complete = true;
            for b in &blocks {
                if !b.done {
                    complete = false;
                    break;
                }
                J::merge(&mut stats, &b.stats);
                for d in &b.diags {
                    diags.print(d);
                }
            }
            writer.send(blocks);
            if let Some(p) = J::stop(&stats) {
                end = RunEnd::Strict(p.clone());
                break;
            }
            if !complete {
                end = RunEnd::Interrupted;
                break;
            }
        }
        if hi < n {
            // The rest of the input belongs to later shards.
            break;
        }
        first_line += p.lines;
        consumed_total += p.consumed as u64;
        base += p.consumed as u64;
        source.consume(p.consumed);
        progress.update(consumed_total, J::records(&stats), "puzzles");
        // No read here: the records already buffered go first, and more input is read only
        // when no complete record is left (above), so a pipe that pauses does not hold back
        // rows whose records have arrived.
    }
    progress.finish();
    diags.finish();
    // Every complete window reaches the output before any error is reported.
    let (sink, write_result) = writer.finish();
    if let Some(e) = fault {
        return Err(e);
    }
    let threads = engine.threads();
    if check_written(write_result, &out_path)? {
        return Ok(RunOutcome {
            stats,
            end: RunEnd::BrokenPipe,
            threads,
        });
    }
    complete_output(sink, &end, &out_path)?;
    Ok(RunOutcome {
        stats,
        end,
        threads,
    })
}
