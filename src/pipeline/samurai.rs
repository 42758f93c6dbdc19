//! `solve --variant samurai`: one row per samurai record, with the columns of classic
//! `solve`; the puzzle and the solution are written as 405 cells (the five grids' 81 cells
//! each, top-left, top-right, centre, bottom-left, bottom-right). Records are split by
//! [`crate::io::records`] and read by [`crate::core::samurai::format`].

use crate::config::SolveConfig;
use crate::core::samurai::format::{self, SamuraiForm, SamuraiParseError};
use crate::core::samurai::{SamuraiOutcome, SamuraiSolver};
use crate::io::records::Record;
use crate::io::{Field, RowEncoder};

use super::engine::{Block, Diag};
use super::solve::{base_fields, note_problem};
use super::summary::SolveStats;

/// Per-worker scratch for samurai records: the solver and reused buffers.
#[derive(Debug, Default)]
pub struct SamuraiWorker {
    solver: SamuraiSolver,
    outcome: SamuraiOutcome,
    message: String,
    puzzle: Vec<u8>,
    solution: Vec<u8>,
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
        fields[8] = Field::Text(tail);
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
        fields[7] = Field::Text(self.message.as_bytes());
        if !tail.is_empty() {
            fields[8] = Field::Text(tail);
        }
        enc.write_row(&mut block.out, &fields);
        if cfg.strict {
            note_problem(block, line, col, &self.message);
        }
    }
}
