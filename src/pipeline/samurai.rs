//! `--variant samurai` for `solve` and `explain`.
//!
//! `solve`: one row per samurai record, with the columns of classic `solve`; the puzzle and
//! the solution are written as 405 cells (the five grids' 81 cells each, top-left,
//! top-right, centre, bottom-left, bottom-right). Records are split by
//! [`crate::io::records`] and read by [`crate::core::samurai::format`]. The rating columns
//! come from the samurai grader ([`crate::core::samurai::logic`]): a puzzle its techniques
//! do not solve has level `beyond` and ratings marked `>=` (lower bounds); `--grade-budget`
//! does not apply (these techniques take a few milliseconds at most).
//!
//! `explain`: the solving path of the first samurai puzzle of the input.

use std::io::Read;

use serde::Serialize;

use crate::config::{ExplainConfig, ExplainFormat, ExplainSource, SolveConfig};
use crate::core::grader::Shown;
use crate::core::samurai::format::{self, SamuraiForm, SamuraiParseError};
use crate::core::samurai::logic as samurai_logic;
use crate::core::samurai::{
    SamuraiGrade, SamuraiGrader, SamuraiGrid, SamuraiOutcome, SamuraiSolver, SamuraiStep,
};
use crate::error::Error;
use crate::io::records::{Record, RecordFormat, Splitter};
use crate::io::{Field, RowEncoder};

use super::engine::{Block, Diag};
use super::solve::{ERROR, TAIL, base_fields, note_problem};
use super::summary::SolveStats;

/// Per-worker scratch for samurai records: the solver, the grader and reused buffers.
#[derive(Debug, Default)]
pub struct SamuraiWorker {
    solver: SamuraiSolver,
    outcome: SamuraiOutcome,
    grader: SamuraiGrader,
    message: String,
    puzzle: Vec<u8>,
    solution: Vec<u8>,
}

/// Fills the five rating columns `er`, `ep`, `ed`, `level`, `hardest` of a samurai grade
/// (text in `bufs`): `>=` marks a lower bound, `beyond` the level of a puzzle the techniques
/// do not finish. `solve` and `generate` both write them with this, so their text agrees.
pub fn grade_fields<'a>(g: &SamuraiGrade, bufs: &'a mut [[u8; 8]; 3], fields: &mut [Field<'a>]) {
    let [er_b, ep_b, ed_b] = bufs;
    let n = Shown::new(g.er, !g.solved).write_to(er_b);
    fields[0] = Field::Raw(&er_b[..n]);
    let n = Shown::new(g.ep, !g.ep_exact).write_to(ep_b);
    fields[1] = Field::Raw(&ep_b[..n]);
    let n = Shown::new(g.ed, g.steps == 0).write_to(ed_b);
    fields[2] = Field::Raw(&ed_b[..n]);
    fields[3] = Field::Text(g.level().as_bytes());
    fields[4] = match g.hardest {
        Some(t) => Field::Text(t.name().as_bytes()),
        None => Field::Null,
    };
}

/// The lines of a record (at most 21), without their terminators.
fn record_lines<'a>(text: &'a [u8], out: &mut [&'a [u8]; 21]) -> usize {
    let mut n = 0;
    for line in text.split(|&b| b == b'\n') {
        if n == out.len() {
            break;
        }
        out[n] = line.strip_suffix(b"\r").unwrap_or(line);
        n += 1;
    }
    n
}

impl SamuraiWorker {
    /// Solves one samurai record of form `form` and appends its row.
    pub(super) fn process(
        &mut self,
        rec: &Record<'_>,
        form: SamuraiForm,
        cfg: &SolveConfig,
        enc: &RowEncoder,
        block: &mut Block<SolveStats>,
    ) {
        block.stats.records += 1;
        self.message.clear();
        let mut lines: [&[u8]; 21] = [&[]; 21];
        let n = record_lines(rec.text, &mut lines);
        let lines = &lines[..n];
        let (grid, tail) = match format::read_record(form, lines) {
            Ok(x) => x,
            Err(e) => {
                self.invalid(rec, &e, &[], b"", cfg, enc, block);
                return;
            }
        };
        let tail: &[u8] = match (form, lines.first()) {
            (SamuraiForm::Block, _) | (_, None) => b"",
            (_, Some(first)) => &first[tail.min(first.len())..],
        };
        self.puzzle.clear();
        grid.write_line(&mut self.puzzle);
        if let Err(e) = format::check_givens(&grid, form) {
            let puzzle = std::mem::take(&mut self.puzzle);
            self.invalid(rec, &e, &puzzle, tail, cfg, enc, block);
            self.puzzle = puzzle;
            return;
        }
        self.solver.solve_into(&grid, cfg.limit, &mut self.outcome);
        let o = &self.outcome;
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
            o.solution.write_line(&mut self.solution);
        }
        let mut fields = base_fields(
            rec,
            &self.puzzle,
            status,
            Field::Int(u64::from(o.count)),
            &self.solution,
            Field::Int(o.guesses),
        );
        fields[TAIL] = Field::Text(tail);
        // Grade unique puzzles: er, ep, ed (`>=` when a lower bound), level, hardest.
        let mut shown = [[0u8; 8]; 3];
        if cfg.grade && o.count == 1 {
            let g = self.grader.grade(&grid);
            stats.grades.add_samurai(&g);
            grade_fields(&g, &mut shown, &mut fields[7..12]);
        }
        enc.write_row(&mut block.out, &fields);
        if cfg.strict && o.count != 1 {
            let why = if o.count == 0 {
                "puzzle has no solution"
            } else {
                "puzzle has more than one solution"
            };
            note_problem(block, rec.line, 1, why);
        }
    }

    /// Writes the row of an invalid record (with the puzzle when it could be read) and its
    /// message.
    #[allow(clippy::too_many_arguments)]
    fn invalid(
        &mut self,
        rec: &Record<'_>,
        e: &SamuraiParseError,
        puzzle: &[u8],
        tail: &[u8],
        cfg: &SolveConfig,
        enc: &RowEncoder,
        block: &mut Block<SolveStats>,
    ) {
        use std::fmt::Write;
        block.stats.invalid += 1;
        let _ = write!(self.message, "{e}");
        let (line, col) = (rec.line + e.line as u64, e.col);
        block.diags.push(Diag {
            line,
            col,
            message: self.message.clone(),
        });
        let mut fields = base_fields(rec, puzzle, b"invalid", Field::Null, b"", Field::Null);
        fields[ERROR] = Field::Text(self.message.as_bytes());
        if !tail.is_empty() {
            fields[TAIL] = Field::Text(tail);
        }
        enc.write_row(&mut block.out, &fields);
        if cfg.strict {
            note_problem(block, line, col, &self.message);
        }
    }
}

// ---------------------------------------------------------------------------------------
// explain --variant samurai

/// The first samurai record of `text` (comments and blank lines skipped), read but not
/// yet checked against the rules.
fn first_record(text: &[u8]) -> Option<Result<SamuraiGrid, SamuraiParseError>> {
    let mut splitter = Splitter::new(RecordFormat::Samurai);
    splitter.split(text, 1, 1, true);
    let rec = splitter.records(text).next()?;
    let crate::io::records::CellsKind::Samurai(form) = rec.kind else {
        return None;
    };
    let mut lines: [&[u8]; 21] = [&[]; 21];
    let n = record_lines(rec.text, &mut lines);
    Some(
        format::read_record(form, &lines[..n])
            .and_then(|(g, _)| format::check_givens(&g, form).map(|()| g)),
    )
}

fn load(source: &ExplainSource) -> Result<SamuraiGrid, Error> {
    let (buf, name) = match source {
        ExplainSource::InlineSamurai(g) => return Ok(**g),
        ExplainSource::Inline(_) => {
            return Err(Error::Usage(
                "a classic puzzle was given; leave out --variant samurai".into(),
            ));
        }
        ExplainSource::Stdin | ExplainSource::File(_) => {
            super::explain::read_source(source)?.unwrap_or_default()
        }
    };
    match first_record(&buf) {
        Some(Ok(g)) => Ok(g),
        Some(Err(e)) => Err(Error::Usage(format!(
            "the samurai puzzle in {name} is invalid: {}:{}: {e}",
            e.line + 1,
            e.col
        ))),
        None => Err(Error::Usage(format!("no samurai puzzle in {name}"))),
    }
}

/// One step in the JSON form.
#[derive(Debug, Serialize)]
struct StepJson {
    step: u32,
    technique: &'static str,
    rating: f64,
    placements: Vec<String>,
    eliminations: Vec<String>,
    text: String,
}

/// The JSON form of a samurai explanation.
#[derive(Debug, Serialize)]
struct ReportJson {
    puzzle: String,
    solution: String,
    steps: Vec<StepJson>,
    er: f64,
    ep: f64,
    ed: f64,
    er_lower_bound: bool,
    ep_lower_bound: bool,
    ed_lower_bound: bool,
    level: &'static str,
    hardest: &'static str,
    outcome: &'static str,
    cells_filled: u16,
}

fn step_json(i: usize, s: &SamuraiStep) -> StepJson {
    StepJson {
        step: i as u32 + 1,
        technique: s.technique.name(),
        rating: f64::from(s.technique.rating()) / 10.0,
        placements: s
            .placement
            .iter()
            .map(|(c, d)| format!("{c}={d}"))
            .collect(),
        eliminations: s
            .eliminations
            .iter()
            .map(|(c, d)| format!("{c}<>{d}"))
            .collect(),
        text: s.description.clone(),
    }
}

/// Runs `explain --variant samurai` and returns the text to print.
pub fn explain(cfg: &ExplainConfig) -> Result<String, Error> {
    let puzzle = load(&cfg.source)?;
    let sol = SamuraiSolver::new().solve(&puzzle, 2);
    if sol.count != 1 {
        let n = if sol.count == 0 { "no" } else { "several" };
        return Err(Error::Usage(format!(
            "the puzzle has {n} solutions; explain needs a puzzle with exactly one"
        )));
    }
    Ok(match cfg.format {
        ExplainFormat::Text => {
            let mut t = format!("Puzzle: {puzzle}\n");
            samurai_logic::explain(&puzzle, &mut t);
            t
        }
        ExplainFormat::Json => {
            let mut steps = Vec::new();
            let g: SamuraiGrade = SamuraiGrader::new().grade_with_steps(&puzzle, &mut steps);
            let tenths = |v: u8| f64::from(v) / 10.0;
            let report = ReportJson {
                puzzle: puzzle.to_string(),
                solution: sol.solution.to_string(),
                steps: steps
                    .iter()
                    .enumerate()
                    .map(|(i, s)| step_json(i, s))
                    .collect(),
                er: tenths(g.er),
                ep: tenths(g.ep),
                ed: tenths(g.ed),
                er_lower_bound: !g.solved,
                ep_lower_bound: !g.ep_exact,
                ed_lower_bound: g.steps == 0,
                level: g.level(),
                hardest: g.hardest.map_or("none", |t| t.name()),
                outcome: if g.solved { "complete" } else { "stuck" },
                cells_filled: g.filled,
            };
            serde_json::to_string_pretty(&report).unwrap_or_default() + "\n"
        }
    })
}

// ---------------------------------------------------------------------------------------
// bench --variant samurai

/// Reads every valid samurai puzzle of an input (records of any form); returns them and how
/// many records were skipped as invalid.
pub fn load_puzzles(spec: &crate::config::InputSpec) -> Result<(Vec<SamuraiGrid>, usize), Error> {
    use crate::config::InputSpec;
    let buf = match spec {
        InputSpec::Stdin => {
            let mut buf = Vec::new();
            std::io::stdin()
                .read_to_end(&mut buf)
                .map_err(|e| Error::Input {
                    path: "-".into(),
                    source: e,
                })?;
            buf
        }
        InputSpec::File(p) => std::fs::read(p).map_err(|e| Error::Input {
            path: p.clone(),
            source: e,
        })?,
    };
    let mut splitter = Splitter::new(RecordFormat::Samurai);
    splitter.split(&buf, 1, usize::MAX, true);
    let mut puzzles = Vec::new();
    let mut skipped = 0;
    for rec in splitter.records(&buf) {
        let crate::io::records::CellsKind::Samurai(form) = rec.kind else {
            skipped += 1;
            continue;
        };
        let mut lines: [&[u8]; 21] = [&[]; 21];
        let n = record_lines(rec.text, &mut lines);
        match format::parse_record(form, &lines[..n]) {
            Ok((g, _)) if rec.fault.is_none() => puzzles.push(g),
            _ => skipped += 1,
        }
    }
    Ok((puzzles, skipped))
}

/// Solves every puzzle once (on `pool`'s threads); returns (guesses, solutions) totals.
pub fn solve_all(puzzles: &[SamuraiGrid], limit: u32, pool: &rayon::ThreadPool) -> (u64, u64) {
    use rayon::prelude::*;
    let run = |chunk: &[SamuraiGrid], solver: &mut SamuraiSolver, out: &mut SamuraiOutcome| {
        let (mut g, mut n) = (0u64, 0u64);
        for p in chunk {
            solver.solve_into(p, limit, out);
            g += out.guesses;
            n += u64::from(out.count);
        }
        (g, n)
    };
    if pool.current_num_threads() == 1 {
        return run(
            puzzles,
            &mut SamuraiSolver::new(),
            &mut SamuraiOutcome::default(),
        );
    }
    pool.install(|| {
        puzzles
            .par_chunks(64)
            .map_init(
                || (SamuraiSolver::new(), SamuraiOutcome::default()),
                |(solver, out), chunk| run(chunk, solver, out),
            )
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
    })
}
