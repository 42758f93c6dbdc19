//! `solve`: read records, solve each with a per-worker [`Solver`], write one row per record.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::config::{InputFormat, InputSpec, OutputSpec, SolveConfig};
use crate::core::grader::{Grader, Outcome, Rating};
use crate::core::{Cell, Grid, SolveOutcome, Solver};
use crate::error::Error;
use crate::io::records::{self, CellsKind, MAX_RECORD, Record, RecordFormat, Splitter};
use crate::io::{Field, RowEncoder, Sink, Source};

use super::engine::{Block, Diag, Engine, Pacer, Writer};
use super::progress::Progress;
use super::summary::{Problem, SolveStats, SolveSummary};
use super::{DiagPrinter, RunEnd};

/// Most records per window: bounds memory (rows buffered) while keeping workers busy. A
/// [`Pacer`] makes windows smaller when records are slow (grading hard puzzles), so rows
/// still leave about every second.
pub const WINDOW: usize = 8192;

/// The output columns of `solve`, in order.
pub const SOLVE_COLUMNS: &[&str] = &[
    "line",
    "id",
    "puzzle",
    "status",
    "solutions",
    "solution",
    "guesses",
    "er",
    "ep",
    "ed",
    "level",
    "hardest",
    "error",
    "tail",
];

/// Columns in a row without `check`.
const NCOLS: usize = 14;
/// Index of the `error` column.
pub(super) const ERROR: usize = 12;
/// Index of the `tail` column.
pub(super) const TAIL: usize = 13;

/// Per-worker scratch for `solve`.
#[derive(Debug, Default)]
pub struct SolveWorker {
    solver: Solver,
    outcome: SolveOutcome,
    message: String,
    grader: Grader,
    rating: Rating,
    samurai: super::samurai::SamuraiWorker,
}

/// What went wrong with a record, located.
pub(crate) struct Invalid {
    pub(crate) line: u64,
    pub(crate) col: usize,
}

/// Reads the cells of a record. On failure, writes the reason into `msg` and returns where.
pub(crate) fn parse_record(rec: &Record<'_>, msg: &mut String) -> Result<(Grid, usize), Invalid> {
    use std::fmt::Write;
    if let Some((line, col, why)) = rec.fault {
        msg.push_str(why);
        return Err(Invalid { line, col });
    }
    match rec.kind {
        CellsKind::Line => {
            let lead = rec
                .text
                .iter()
                .take_while(|&&b| b == b' ' || b == b'\t')
                .count();
            match Grid::parse_line(&rec.text[lead..]) {
                Ok((g, tail)) => Ok((g, lead + tail)),
                Err(e) => {
                    let _ = write!(msg, "{e}");
                    Err(Invalid {
                        line: rec.line,
                        col: lead + e.col,
                    })
                }
            }
        }
        CellsKind::Field => {
            let t = rec.text.trim_ascii();
            match Grid::parse_line(t) {
                Ok((g, end)) if end == t.len() => Ok((g, rec.text.len())),
                Ok(_) => {
                    msg.push_str("more than 81 cells in the puzzle field");
                    Err(Invalid {
                        line: rec.line,
                        col: 82,
                    })
                }
                Err(e) => {
                    let _ = write!(msg, "{e}");
                    Err(Invalid {
                        line: rec.line,
                        col: e.col,
                    })
                }
            }
        }
        CellsKind::Samurai(_) => {
            msg.push_str("a samurai record is not a classic puzzle");
            Err(Invalid {
                line: rec.line,
                col: 1,
            })
        }
        CellsKind::Block => match Grid::parse_cells(rec.text) {
            Ok(g) => Ok((g, rec.text.len())),
            Err(e) => {
                let _ = write!(msg, "{e}");
                // Turn the byte offset into a line and column within the block.
                let off = (e.col - 1).min(rec.text.len());
                let before = &rec.text[..off];
                let nl = before.iter().filter(|&&b| b == b'\n').count() as u64;
                let col = off
                    - before
                        .iter()
                        .rposition(|&b| b == b'\n')
                        .map_or(0, |p| p + 1);
                Err(Invalid {
                    line: rec.line + nl,
                    col: col + 1,
                })
            }
        },
    }
}

impl SolveWorker {
    /// Solves one record and appends its row.
    pub fn process(
        &mut self,
        rec: &Record<'_>,
        cfg: &SolveConfig,
        enc: &RowEncoder,
        block: &mut Block<SolveStats>,
    ) {
        use std::fmt::Write;
        if cfg.strict && block.stats.first_problem.is_some() {
            // Strict mode stops at the first problem: the rest of the block is not processed.
            return;
        }
        if let CellsKind::Samurai(form) = rec.kind {
            self.samurai.process(rec, form, cfg, enc, block);
            return;
        }
        let stats = &mut block.stats;
        stats.records += 1;
        self.message.clear();
        let mut line_buf = [0u8; 81];
        let mut solution_buf = [0u8; 81];
        let parsed = parse_record(rec, &mut self.message);
        let (grid, tail) = match parsed {
            Ok(x) => x,
            Err(at) => {
                stats.invalid += 1;
                block.diags.push(Diag {
                    line: at.line,
                    col: at.col,
                    message: self.message.clone(),
                });
                let mut fields = base_fields(rec, b"", b"invalid", Field::Null, b"", Field::Null);
                fields[ERROR] = Field::Text(self.message.as_bytes());
                self.write(enc, cfg, &mut block.out, &fields, Field::Null);
                if cfg.strict {
                    note_problem(block, at.line, at.col, &self.message);
                }
                return;
            }
        };
        let tail_bytes: &[u8] = if rec.kind == CellsKind::Line {
            &rec.text[tail.min(rec.text.len())..]
        } else {
            rec.tail
        };
        line_buf.copy_from_slice(&grid.to_line_bytes());
        // Givens that break a rule leave no solution; the (rarer) check of which rule they
        // break runs only then, off the hot path.
        self.solver.solve_into(&grid, cfg.limit, &mut self.outcome);
        let o = self.outcome;
        if o.count == 0
            && let Err(conflict) = grid.check_givens()
        {
            stats.invalid += 1;
            let _ = write!(self.message, "{conflict}");
            // Point at the second occurrence of the digit in the house.
            let col = conflict
                .house
                .cells()
                .iter()
                .filter(|&&c| grid.digit(c) == Some(conflict.digit))
                .nth(1)
                .map_or(1, |c: &Cell| c.index() + 1);
            block.diags.push(Diag {
                line: rec.line,
                col: if rec.kind == CellsKind::Line { col } else { 1 },
                message: self.message.clone(),
            });
            let mut fields = base_fields(rec, &line_buf, b"invalid", Field::Null, b"", Field::Null);
            fields[ERROR] = Field::Text(self.message.as_bytes());
            fields[TAIL] = Field::Text(tail_bytes);
            self.write(enc, cfg, &mut block.out, &fields, Field::Null);
            if cfg.strict {
                note_problem(block, rec.line, 1, &self.message);
            }
            return;
        }
        stats.guesses += o.guesses;
        let status: &[u8] = match o.count {
            0 => {
                stats.unsolvable += 1;
                b"unsolvable"
            }
            1 => {
                stats.solved += 1;
                b"solved"
            }
            _ => {
                stats.multiple += 1;
                b"multiple"
            }
        };
        let sol: &[u8] = if o.count > 0 {
            solution_buf.copy_from_slice(&o.solution.to_line_bytes());
            &solution_buf
        } else {
            b""
        };
        let check = if cfg.check {
            check_field(rec.expected, o.count, &o.solution, stats)
        } else {
            Field::Null
        };
        let mut fields = base_fields(
            rec,
            &line_buf,
            status,
            Field::Int(u64::from(o.count)),
            sol,
            Field::Int(o.guesses),
        );
        fields[TAIL] = Field::Text(tail_bytes);
        // Grade unique puzzles: er, ep, ed as `3.2` (or `>=9.5` for a lower bound).
        let mut shown = [[0u8; 8]; 3];
        if cfg.grade && o.count == 1 {
            self.grader
                .rate(&grid, Some(&o.solution), cfg.grade_budget, &mut self.rating);
            let r = &self.rating;
            if r.outcome != Outcome::Invalid {
                stats.grades.add(r);
                let [er_b, ep_b, ed_b] = &mut shown;
                let n = r.er_shown().write_to(er_b);
                fields[7] = Field::Raw(&er_b[..n]);
                let n = r.ep_shown().write_to(ep_b);
                fields[8] = Field::Raw(&ep_b[..n]);
                let n = r.ed_shown().write_to(ed_b);
                fields[9] = Field::Raw(&ed_b[..n]);
                fields[10] = Field::Text(r.level().as_bytes());
                if r.complete && r.steps > 0 {
                    fields[11] = Field::Text(r.hardest.name().as_bytes());
                }
            }
        }
        self.write(enc, cfg, &mut block.out, &fields, check);
        if cfg.strict && o.count != 1 {
            let why = if o.count == 0 {
                "puzzle has no solution"
            } else {
                "puzzle has more than one solution"
            };
            note_problem(block, rec.line, 1, why);
        }
    }

    fn write(
        &self,
        enc: &RowEncoder,
        cfg: &SolveConfig,
        out: &mut Vec<u8>,
        fields: &[Field<'_>; NCOLS],
        check: Field<'_>,
    ) {
        if cfg.check {
            let mut all = [Field::Null; NCOLS + 1];
            all[..NCOLS].copy_from_slice(fields);
            all[NCOLS] = check;
            enc.write_row(out, &all);
        } else {
            enc.write_row(out, fields);
        }
    }
}

/// Records the block's first problem (strict mode), with where its row ends.
pub(super) fn note_problem(block: &mut Block<SolveStats>, line: u64, col: usize, message: &str) {
    if block.stats.first_problem.is_none() {
        block.stats.first_problem = Some(Problem {
            line,
            col,
            message: message.to_string(),
        });
    }
}

/// The standard fields; the grading columns, `error` and `tail` start empty.
pub(super) fn base_fields<'a>(
    rec: &Record<'a>,
    puzzle: &'a [u8],
    status: &'a [u8],
    solutions: Field<'a>,
    solution: &'a [u8],
    guesses: Field<'a>,
) -> [Field<'a>; NCOLS] {
    let text = |b: &'a [u8]| {
        if b.is_empty() {
            Field::Null
        } else {
            Field::Text(b)
        }
    };
    // Grids are digits and dots: no quoting or escaping to look for.
    let plain = |b: &'a [u8]| {
        if b.is_empty() {
            Field::Null
        } else {
            Field::Plain(b)
        }
    };
    [
        Field::Int(rec.line),
        text(rec.id),
        plain(puzzle),
        Field::Plain(status),
        solutions,
        plain(solution),
        guesses,
        Field::Null,
        Field::Null,
        Field::Null,
        Field::Null,
        Field::Null,
        Field::Null,
        Field::Null,
    ]
}

/// The `check` column: compare our solution with the input's solution column.
fn check_field(
    expected: &[u8],
    count: u32,
    solution: &Grid,
    stats: &mut SolveStats,
) -> Field<'static> {
    let expected = expected.trim_ascii();
    if expected.is_empty() || count == 0 {
        return Field::Null;
    }
    match Grid::parse_line(expected) {
        Ok((g, end)) if end == expected.len() && g.is_full() => {
            if g == *solution && count == 1 {
                stats.check_ok += 1;
                Field::Text(b"ok")
            } else {
                stats.check_mismatch += 1;
                Field::Text(b"mismatch")
            }
        }
        _ => {
            stats.check_mismatch += 1;
            Field::Text(b"invalid-solution")
        }
    }
}

/// Opens the input named by `spec`.
pub fn open_input(spec: &InputSpec) -> Result<Source, Error> {
    match spec {
        InputSpec::Stdin => Ok(Source::stream(Box::new(std::io::stdin()))),
        InputSpec::File(p) => Source::open(p).map_err(|e| Error::Input {
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
                    delimiter: b',',
                }),
                0,
            ),
        },
    }
}

/// Runs `solve`.
pub fn run(cfg: &SolveConfig, interrupt: Arc<AtomicBool>) -> Result<(SolveSummary, RunEnd), Error> {
    let source = open_input(&cfg.input)?;
    run_with(cfg, source, None, interrupt)
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

/// Runs `solve` on an opened source. Rows go to `sink`, or when it is `None` to the output
/// that `cfg` names (opened only after the input has been read successfully).
pub fn run_with(
    cfg: &SolveConfig,
    mut source: Source,
    sink: Option<Sink>,
    interrupt: Arc<AtomicBool>,
) -> Result<(SolveSummary, RunEnd), Error> {
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
    // A CSV header (and any comment lines before it) is consumed here.
    let first_line = 1 + source.window()[..skip]
        .iter()
        .filter(|&&b| b == b'\n')
        .count() as u64;
    source.consume(skip);
    let mut first_line = first_line;
    // Global byte offset of the window's start, and the shard's byte range.
    let mut base = skip as u64;
    let range = match (cfg.shard, source.total_len()) {
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
        None => open_output(&cfg.output)?,
    };
    let output_name = match &cfg.output {
        OutputSpec::Stdout => "<stdout>".to_string(),
        OutputSpec::File(p) => p.display().to_string(),
    };
    // The path named in write errors: the file being written, or stdout.
    let out_path: std::path::PathBuf = match (sink.partial_path(), &cfg.output) {
        (Some(p), _) => p.to_path_buf(),
        (None, OutputSpec::File(p)) => p.clone(),
        (None, OutputSpec::Stdout) => "<stdout>".into(),
    };
    let mut columns = SOLVE_COLUMNS.to_vec();
    if cfg.check {
        columns.push("check");
    }
    let enc = RowEncoder::new(cfg.format, columns);
    let mut header = Vec::new();
    if cfg.header && cfg.shard.is_none_or(|s| s.index == 0) {
        enc.write_header(&mut header);
    }
    let engine = Engine::new(cfg.threads, Arc::clone(&interrupt), SolveWorker::default)
        .map_err(|e| Error::Usage(format!("cannot start worker threads: {e}")))?;
    let mut writer: Writer<SolveStats> = Writer::spawn(sink, header);
    let progress = Progress::new(!cfg.quiet, source.total_len(), "puzzles");
    let mut splitter = Splitter::new(format);
    let mut pacer = Pacer::new(engine.threads(), WINDOW);
    let mut stats = SolveStats::default();
    let mut diags = DiagPrinter::new(input_name.clone(), cfg.max_messages);
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
                fault = Some(read_err(e));
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
            {
                let recs: &Splitter = &splitter;
                engine.run(
                    hi - lo,
                    &mut blocks,
                    |w: &mut SolveWorker, i, block| {
                        let rec = recs.record(lo + i, window);
                        w.process(&rec, cfg, &enc, block);
                    },
                    |i, block| {
                        let rec = recs.record(lo + i, window);
                        block.stats.records += 1;
                        block.stats.invalid += 1;
                        let msg = b"internal error while solving this record";
                        let mut f =
                            base_fields(&rec, b"", b"invalid", Field::Null, b"", Field::Null);
                        f[ERROR] = Field::Text(msg);
                        if cfg.check {
                            let mut all = [Field::Null; NCOLS + 1];
                            all[..NCOLS].copy_from_slice(&f);
                            enc.write_row(&mut block.out, &all);
                        } else {
                            enc.write_row(&mut block.out, &f);
                        }
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
            // Strict mode stops after the first record that is not uniquely solvable: the
            // blocks after the one holding it are dropped.
            if cfg.strict
                && let Some(k) = blocks.iter().position(|b| b.stats.first_problem.is_some())
            {
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
                stats.merge(&b.stats);
                for d in &b.diags {
                    diags.print(d);
                }
            }
            writer.send(blocks);
            if let Some(p) = stats.first_problem.clone() {
                end = RunEnd::Strict(p);
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
    let failed = writer.failed();
    // Every complete window reaches the output before any error is reported.
    let (sink, write_result) = writer.finish();
    if let Some(e) = fault {
        return Err(e);
    }
    if let Err(e) = write_result {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            return Ok((
                summary(cfg, input_name, output_name, stats, start, &engine, true),
                RunEnd::BrokenPipe,
            ));
        }
        return Err(Error::Output {
            path: out_path,
            source: e,
        });
    }
    debug_assert!(!failed);
    if end == RunEnd::Completed
        && let Some(sink) = sink
    {
        sink.finish().map_err(|e| Error::Output {
            path: out_path.clone(),
            source: e,
        })?;
    }
    let interrupted = end != RunEnd::Completed;
    let s = summary(
        cfg,
        input_name,
        output_name,
        stats,
        start,
        &engine,
        interrupted,
    );
    Ok((s, end))
}

fn summary(
    cfg: &SolveConfig,
    input: String,
    output: String,
    stats: SolveStats,
    start: Instant,
    engine: &Engine<SolveWorker>,
    interrupted: bool,
) -> SolveSummary {
    SolveSummary::new(
        input,
        output,
        stats,
        start.elapsed(),
        engine.threads(),
        cfg.limit,
        interrupted,
    )
}
