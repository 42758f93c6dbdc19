//! `solve`: read records, solve each with a per-worker [`Solver`], write one row per record.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::config::SolveConfig;
use crate::core::grader::{Grader, Outcome, Rating};
use crate::core::{Cell, Grid, SolveOutcome, Solver};
use crate::error::Error;
use crate::io::records::{CellsKind, Record};
use crate::io::{Field, RowEncoder, Sink, Source};

use super::RunEnd;
use super::engine::{Block, Diag};
use super::records_run::{RecordJob, RecordRun, open_input, output_name, run_records};
use super::summary::{Problem, SolveStats, SolveSummary};

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

/// Runs `solve`.
pub fn run(cfg: &SolveConfig, interrupt: Arc<AtomicBool>) -> Result<(SolveSummary, RunEnd), Error> {
    let source = open_input(&cfg.input)?;
    run_with(cfg, source, None, interrupt)
}

/// `solve` as a [`RecordJob`]: the settings and the row encoder.
struct SolveJob<'a> {
    cfg: &'a SolveConfig,
    enc: RowEncoder,
}

impl RecordJob for SolveJob<'_> {
    type Worker = SolveWorker;
    type Stats = SolveStats;

    fn process(&self, w: &mut SolveWorker, rec: &Record<'_>, block: &mut Block<SolveStats>) {
        w.process(rec, self.cfg, &self.enc, block);
    }

    fn on_panic(&self, rec: &Record<'_>, block: &mut Block<SolveStats>) {
        block.stats.records += 1;
        block.stats.invalid += 1;
        let msg = b"internal error while solving this record";
        let mut f = base_fields(rec, b"", b"invalid", Field::Null, b"", Field::Null);
        f[ERROR] = Field::Text(msg);
        if self.cfg.check {
            let mut all = [Field::Null; NCOLS + 1];
            all[..NCOLS].copy_from_slice(&f);
            self.enc.write_row(&mut block.out, &all);
        } else {
            self.enc.write_row(&mut block.out, &f);
        }
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
    let start = Instant::now();
    let mut columns = SOLVE_COLUMNS.to_vec();
    if cfg.check {
        columns.push("check");
    }
    let job = SolveJob {
        cfg,
        enc: RowEncoder::new(cfg.format, columns),
    };
    let run = RecordRun {
        input: &cfg.input,
        input_format: cfg.input_format,
        output: &cfg.output,
        threads: cfg.threads,
        quiet: cfg.quiet,
        max_messages: cfg.max_messages,
        shard: cfg.shard,
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
        SolveWorker::default,
        interrupt,
    )?;
    // Only a completed run is not marked interrupted (a closed pipe counts as one).
    let interrupted = out.end != RunEnd::Completed;
    let summary = SolveSummary::new(
        cfg.input.display_name(),
        output_name(&cfg.output),
        out.stats,
        start.elapsed(),
        out.threads,
        cfg.limit,
        interrupted,
    );
    Ok((summary, out.end))
}
