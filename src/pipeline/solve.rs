//! `solve`: read records, solve each with a per-worker solver, grade the unique ones, write
//! one row per record. Written once for every shape: the worker is generic over the
//! [`Family`] (81-cell shapes or Samurai) and holds the shape's geometry.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::config::SolveConfig;
use crate::core::Cancel;
use crate::core::family::{Family, Solved};
use crate::core::geometry::{Geometry, Shape};
use crate::core::grader::{Grader, Outcome, Rating};
use crate::core::profile::{NamedCount, TECHNIQUES};
use crate::error::Error;
use crate::io::records::Record;
use crate::io::{Field, RowEncoder, Sink, Source};

use super::RunEnd;
use super::engine::{Block, Diag};
use super::records_run::{RecordJob, RecordRun, open_input, output_name, run_records};
use super::shape::{Invalid, ReadRecord, dispatch};
use super::summary::{Problem, SolveStats, SolveSummary};

/// The output columns of `solve`, in order (Jigsaw adds `regions` after `puzzle`).
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

/// The columns of the technique profile (`--profile`), written after `hardest`.
pub const PROFILE_COLUMNS: [&str; 2] = ["steps", "techniques"];

/// The columns of `solve` for `shape`, with the profile and `check` when asked.
pub fn columns(shape: Shape, profile: bool, check: bool) -> Vec<&'static str> {
    let mut c = SOLVE_COLUMNS.to_vec();
    if profile {
        c.splice(HARDEST + 1..HARDEST + 1, PROFILE_COLUMNS);
    }
    if shape == Shape::Jigsaw {
        c.insert(PUZZLE + 1, "regions");
    }
    if check {
        c.push("check");
    }
    c
}

/// Columns in a row without `regions` and `check`.
const NCOLS: usize = 14;
/// Index of the `puzzle` column.
const PUZZLE: usize = 2;
/// Index of the `hardest` column.
const HARDEST: usize = 11;
/// Index of the `error` column.
pub(super) const ERROR: usize = 12;
/// Index of the `tail` column.
pub(super) const TAIL: usize = 13;

/// Per-worker scratch for `solve`: the shape's geometry (rebuilt per record for Jigsaw),
/// the solver, the grader and reused buffers.
#[derive(Debug)]
pub struct SolveWorker<F: ReadRecord> {
    geo: Geometry<F>,
    solver: F::Solver,
    solved: Solved<F>,
    grader: Grader<F>,
    rating: Rating,
    named: [NamedCount; TECHNIQUES],
    message: String,
    puzzle: Vec<u8>,
    solution: Vec<u8>,
    regions: Vec<u8>,
}

impl<F: ReadRecord> SolveWorker<F> {
    /// A worker for `shape` (a shape of family `F`) whose solver and grader give up soon
    /// after `cancel` is set.
    pub fn new(shape: Shape, cancel: Cancel) -> SolveWorker<F> {
        let mut solver = F::Solver::default();
        F::set_cancel(&mut solver, cancel);
        let mut grader = Grader::new();
        grader.set_cancel(cancel);
        SolveWorker {
            geo: F::geometry(shape),
            solver,
            solved: Solved::default(),
            grader,
            rating: Rating::default(),
            named: [("", 0); TECHNIQUES],
            message: String::new(),
            puzzle: Vec::with_capacity(405),
            solution: Vec::with_capacity(405),
            regions: Vec::with_capacity(81),
        }
    }
}

/// Fills the five rating columns `er`, `ep`, `ed`, `level`, `hardest` of a rating (text in
/// `bufs`): `>=` marks a lower bound; nothing for an invalid grading. `solve` and
/// `generate` both write them with this, so their text agrees.
pub fn rating_fields<'a>(r: &Rating, bufs: &'a mut [[u8; 8]; 3], fields: &mut [Field<'a>]) {
    for f in fields.iter_mut() {
        *f = Field::Null;
    }
    if r.outcome == Outcome::Invalid {
        return;
    }
    let [er_b, ep_b, ed_b] = bufs;
    let n = r.er_shown().write_to(er_b);
    fields[0] = Field::Raw(&er_b[..n]);
    let n = r.ep_shown().write_to(ep_b);
    fields[1] = Field::Raw(&ep_b[..n]);
    let n = r.ed_shown().write_to(ed_b);
    fields[2] = Field::Raw(&ed_b[..n]);
    fields[3] = Field::Text(r.level().as_bytes());
    if r.complete && r.steps > 0 {
        fields[4] = Field::Text(r.hardest.name().as_bytes());
    }
}

/// The two profile columns `steps` and `techniques` of a rating (entries in `named`):
/// nothing for an invalid grading. For a lower bound they count the steps applied before
/// the grading stopped. `solve` and `generate` both write them with this.
pub fn profile_fields<'a>(r: &Rating, named: &'a mut [NamedCount; TECHNIQUES]) -> [Field<'a>; 2] {
    if r.outcome == Outcome::Invalid {
        return [Field::Null; 2];
    }
    let n = r.profile.named(named);
    [Field::Int(u64::from(r.steps)), Field::Counts(&named[..n])]
}

impl<F: ReadRecord> SolveWorker<F> {
    /// Solves one record and appends its row.
    pub fn process(
        &mut self,
        rec: &Record<'_>,
        cfg: &SolveConfig,
        enc: &RowEncoder,
        block: &mut Block<SolveStats>,
    ) {
        if cfg.strict && block.stats.first_problem.is_some() {
            // Strict mode stops at the first problem: the rest of the block is not processed.
            return;
        }
        let jigsaw = self.geo.shape() == Shape::Jigsaw;
        block.stats.records += 1;
        self.message.clear();
        self.regions.clear();
        let (grid, tail) = match F::read(rec, &mut self.geo, &mut self.regions, &mut self.message) {
            Ok(x) => x,
            Err(at) => {
                self.puzzle.clear();
                self.invalid(rec, at, b"", cfg, enc, block);
                return;
            }
        };
        self.puzzle.clear();
        F::write_line(&grid, &mut self.puzzle);
        if F::CHECKS_GIVENS
            && let Some(at) = F::conflict(rec, &self.geo, &grid, &mut self.message)
        {
            self.invalid(rec, at, tail, cfg, enc, block);
            return;
        }
        F::solve(
            &mut self.solver,
            &self.geo,
            &grid,
            cfg.limit,
            &mut self.solved,
        );
        let o = self.solved;
        // Givens that break a rule leave no solution; the (rarer) check of which rule they
        // break runs only then, off the hot path.
        if o.count == 0
            && !F::CHECKS_GIVENS
            && let Some(at) = F::conflict(rec, &self.geo, &grid, &mut self.message)
        {
            self.invalid(rec, at, tail, cfg, enc, block);
            return;
        }
        let stats = &mut block.stats;
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
        self.solution.clear();
        if o.count > 0 {
            F::write_line(&o.solution, &mut self.solution);
        }
        let check = if cfg.check {
            check_field::<F>(rec.expected, o.count, &o.solution, stats)
        } else {
            Field::Null
        };
        let mut fields = base_fields(
            rec,
            &self.puzzle,
            status,
            Field::Int(u64::from(o.count)),
            &self.solution,
            Field::Int(o.guesses),
        );
        fields[TAIL] = Field::Text(tail);
        // Grade unique puzzles: er, ep, ed as `3.2` (or `>=9.5` for a lower bound).
        let mut shown = [[0u8; 8]; 3];
        let mut profile = [Field::Null; 2];
        if cfg.grade && o.count == 1 {
            // The profile needs the whole path; the ratings alone may stop early.
            self.grader.set_shortcut(!cfg.profile);
            self.grader.rate_values(
                &self.geo,
                F::values(&grid),
                Some(F::values(&o.solution)),
                cfg.grade_budget,
                &mut self.rating,
            );
            if self.rating.outcome != Outcome::Invalid {
                stats.grades.add(&self.rating);
                if cfg.profile {
                    stats.grades.add_profile(&self.rating.profile);
                }
            }
            rating_fields(&self.rating, &mut shown, &mut fields[7..12]);
            if cfg.profile {
                profile = profile_fields(&self.rating, &mut self.named);
            }
        }
        let extra = Extra {
            regions: jigsaw.then_some(self.regions.as_slice()),
            profile,
            check,
        };
        write(enc, cfg, &mut block.out, &fields, &extra);
        if cfg.strict && o.count != 1 {
            let why = if o.count == 0 {
                "puzzle has no solution"
            } else {
                "puzzle has more than one solution"
            };
            note_problem(block, rec.line, 1, why);
        }
    }

    /// Writes the row of an invalid record (with its puzzle and tail when they could be
    /// read) and its message.
    fn invalid(
        &mut self,
        rec: &Record<'_>,
        at: Invalid,
        tail: &[u8],
        cfg: &SolveConfig,
        enc: &RowEncoder,
        block: &mut Block<SolveStats>,
    ) {
        block.stats.invalid += 1;
        block.diags.push(Diag {
            line: at.line,
            col: at.col,
            message: self.message.clone(),
        });
        let mut fields = base_fields(rec, &self.puzzle, b"invalid", Field::Null, b"", Field::Null);
        fields[ERROR] = Field::Text(self.message.as_bytes());
        if !tail.is_empty() {
            fields[TAIL] = Field::Text(tail);
        }
        let extra = Extra {
            regions: (self.geo.shape() == Shape::Jigsaw).then_some(self.regions.as_slice()),
            profile: [Field::Null; 2],
            check: Field::Null,
        };
        write(enc, cfg, &mut block.out, &fields, &extra);
        if cfg.strict {
            note_problem(block, at.line, at.col, &self.message);
        }
    }
}

/// The fields of a row beyond the standard ones.
struct Extra<'a> {
    /// Jigsaw: the `regions` column, after `puzzle`.
    regions: Option<&'a [u8]>,
    /// With `--profile`: `steps` and `techniques`, after `hardest`.
    profile: [Field<'a>; 2],
    /// With `--check`: the last column.
    check: Field<'a>,
}

/// Writes a row: the standard fields, with `regions` after `puzzle` (Jigsaw), the profile
/// after `hardest` (with `--profile`) and `check` at the end (with `--check`).
fn write(
    enc: &RowEncoder,
    cfg: &SolveConfig,
    out: &mut Vec<u8>,
    fields: &[Field<'_>; NCOLS],
    extra: &Extra<'_>,
) {
    if extra.regions.is_none() && !cfg.profile && !cfg.check {
        enc.write_row(out, fields);
        return;
    }
    let mut all = [Field::Null; NCOLS + 4];
    let mut n = 0;
    for (i, f) in fields.iter().enumerate() {
        all[n] = *f;
        n += 1;
        if i == PUZZLE
            && let Some(r) = extra.regions
        {
            all[n] = if r.is_empty() {
                Field::Null
            } else {
                Field::Plain(r)
            };
            n += 1;
        }
        if i == HARDEST && cfg.profile {
            all[n..n + 2].copy_from_slice(&extra.profile);
            n += 2;
        }
    }
    if cfg.check {
        all[n] = extra.check;
        n += 1;
    }
    enc.write_row(out, &all[..n]);
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

/// The `check` column: compare our solution with the input's solution column (a line of
/// the shape's cells, all filled).
fn check_field<F: Family>(
    expected: &[u8],
    count: u32,
    solution: &F::Grid,
    stats: &mut SolveStats,
) -> Field<'static> {
    let expected = expected.trim_ascii();
    if expected.is_empty() || count == 0 {
        return Field::Null;
    }
    let mut ours = Vec::with_capacity(405);
    F::write_line(solution, &mut ours);
    let full = expected.len() == ours.len() && expected.iter().all(|b| (b'1'..=b'9').contains(b));
    match full {
        true => {
            if expected == ours.as_slice() && count == 1 {
                stats.check_ok += 1;
                Field::Text(b"ok")
            } else {
                stats.check_mismatch += 1;
                Field::Text(b"mismatch")
            }
        }
        false => {
            stats.check_mismatch += 1;
            Field::Text(b"invalid-solution")
        }
    }
}

/// Runs `solve`.
pub fn run(cfg: &SolveConfig, interrupt: Arc<AtomicBool>) -> Result<(SolveSummary, RunEnd), Error> {
    let source = open_input(&cfg.input, &interrupt)?;
    run_with(cfg, source, None, interrupt)
}

/// `solve` as a [`RecordJob`]: the settings and the row encoder (also run over puzzles in
/// memory, by [`super::memory`]).
pub(super) struct SolveJob<'a, F> {
    pub(super) cfg: &'a SolveConfig,
    pub(super) enc: RowEncoder,
    pub(super) family: std::marker::PhantomData<F>,
}

impl<F: ReadRecord> RecordJob for SolveJob<'_, F> {
    type Worker = SolveWorker<F>;
    type Stats = SolveStats;

    fn process(&self, w: &mut SolveWorker<F>, rec: &Record<'_>, block: &mut Block<SolveStats>) {
        w.process(rec, self.cfg, &self.enc, block);
    }

    fn on_panic(&self, rec: &Record<'_>, block: &mut Block<SolveStats>) {
        block.stats.records += 1;
        block.stats.invalid += 1;
        let msg = b"internal error while solving this record";
        let mut f = base_fields(rec, b"", b"invalid", Field::Null, b"", Field::Null);
        f[ERROR] = Field::Text(msg);
        let extra = Extra {
            regions: (self.cfg.shape == Shape::Jigsaw).then_some(&b""[..]),
            profile: [Field::Null; 2],
            check: Field::Null,
        };
        write(&self.enc, self.cfg, &mut block.out, &f, &extra);
    }

    fn merge(total: &mut SolveStats, block: &SolveStats) {
        total.merge(block);
    }

    fn records(stats: &SolveStats) -> u64 {
        stats.records
    }

    fn stop(stats: &SolveStats) -> Option<&Problem> {
        stats.first_problem.as_ref()
    }
}

/// Runs `solve` on an opened source. Rows go to `sink`, or when it is `None` to the output
/// that `cfg` names (opened only after the input has been read successfully).
pub fn run_with(
    cfg: &SolveConfig,
    source: Source,
    sink: Option<Sink>,
    interrupt: Arc<AtomicBool>,
) -> Result<(SolveSummary, RunEnd), Error> {
    dispatch!(cfg.shape, F => run_family::<F>(cfg, source, sink, interrupt))
}

fn run_family<F: ReadRecord>(
    cfg: &SolveConfig,
    source: Source,
    sink: Option<Sink>,
    interrupt: Arc<AtomicBool>,
) -> Result<(SolveSummary, RunEnd), Error> {
    let start = Instant::now();
    let job = SolveJob::<F> {
        cfg,
        enc: RowEncoder::new(cfg.format, columns(cfg.shape, cfg.profile, cfg.check)),
        family: std::marker::PhantomData,
    };
    let run = RecordRun {
        input: &cfg.input,
        input_format: cfg.input_format,
        output: &cfg.output,
        threads: cfg.threads,
        quiet: cfg.quiet,
        max_messages: cfg.max_messages,
        shard: cfg.shard,
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
        sink,
        header,
        |cancel| SolveWorker::<F>::new(cfg.shape, cancel),
        interrupt,
    )?;
    // Only a completed run is not marked interrupted (a closed pipe counts as one).
    let interrupted = out.end != RunEnd::Completed;
    let mut summary = SolveSummary::new(
        cfg.input.display_name(),
        output_name(&cfg.output),
        out.stats,
        start.elapsed(),
        out.threads,
        cfg.limit,
        interrupted,
    );
    // The workers' solvers are built with the default backend.
    if cfg.shape != Shape::Classic {
        summary.backend = "generic";
    }
    Ok((summary, out.end))
}
