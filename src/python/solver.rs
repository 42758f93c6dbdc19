//! `Solver`: one puzzle per call, for tight loops (games, reinforcement-learning
//! environments). It keeps one `solve` worker (solver, grader, buffers) and runs the same
//! [`SolveWorker::process`] as the batch functions and the CLI, so a result is the row
//! `solve` would write for that puzzle.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::config::SolveConfig;
use crate::core::Cancel;
use crate::core::geometry::{S81, S369, Shape};
use crate::io::{FieldReader, OutputFormat, RowEncoder};
use crate::pipeline::engine::Block;
use crate::pipeline::memory::{Puzzles, with_record};
use crate::pipeline::solve::{SolveWorker, columns};
use crate::pipeline::summary::SolveStats;

use super::table::{int_of, rating_of, text_of};

/// The worker of the shape's family.
#[derive(Debug)]
enum Worker {
    S81(Box<SolveWorker<S81>>),
    S369(Box<SolveWorker<S369>>),
}

/// Where a column's field goes in a [`SolveResult`].
#[derive(Clone, Copy, Debug)]
enum Slot {
    Puzzle,
    Regions,
    Status,
    Solutions,
    Solution,
    Guesses,
    Er,
    Ep,
    Ed,
    Level,
    Hardest,
    Error,
    Tail,
    Other,
}

fn slot_of(name: &str) -> Slot {
    match name {
        "puzzle" => Slot::Puzzle,
        "regions" => Slot::Regions,
        "status" => Slot::Status,
        "solutions" => Slot::Solutions,
        "solution" => Slot::Solution,
        "guesses" => Slot::Guesses,
        "er" => Slot::Er,
        "ep" => Slot::Ep,
        "ed" => Slot::Ed,
        "level" => Slot::Level,
        "hardest" => Slot::Hardest,
        "error" => Slot::Error,
        "tail" => Slot::Tail,
        _ => Slot::Other,
    }
}

/// Solves one puzzle at a time, reusing its scratch between calls.
#[pyclass(module = "sudoku_batch._native", name = "Solver")]
#[derive(Debug)]
pub struct Solver {
    worker: Worker,
    cfg: SolveConfig,
    enc: RowEncoder,
    slots: Vec<Slot>,
    block: Block<SolveStats>,
}

impl Solver {
    /// A solver with the settings of `cfg` (shape, grading, budget).
    pub(crate) fn with_config(mut cfg: SolveConfig) -> Solver {
        cfg.format = OutputFormat::Fields;
        cfg.check = false;
        cfg.strict = false;
        let worker = if cfg.shape == Shape::Samurai {
            Worker::S369(Box::new(SolveWorker::new(cfg.shape, Cancel::NEVER)))
        } else {
            Worker::S81(Box::new(SolveWorker::new(cfg.shape, Cancel::NEVER)))
        };
        let cols = columns(cfg.shape, cfg.profile, false);
        let slots = cols.iter().map(|c| slot_of(c)).collect();
        Solver {
            worker,
            enc: RowEncoder::new(OutputFormat::Fields, cols),
            cfg,
            slots,
            block: Block::default(),
        }
    }

    fn run(&mut self, text: &[u8]) {
        let items = [text];
        let puzzles = Puzzles::Strings(&items);
        let (cfg, enc, block) = (&self.cfg, &self.enc, &mut self.block);
        match &mut self.worker {
            Worker::S81(w) => {
                with_record(&puzzles, 0, cfg.shape, |r| w.process(r, cfg, enc, block));
            }
            Worker::S369(w) => {
                with_record(&puzzles, 0, cfg.shape, |r| w.process(r, cfg, enc, block));
            }
        }
    }

    /// The result of the row in the block, which is then emptied.
    fn result(&mut self) -> SolveResult {
        let mut r = SolveResult::default();
        for (slot, f) in self.slots.iter().zip(FieldReader::new(&self.block.out)) {
            let text = || text_of(&f).map(|t| t.into_owned());
            match slot {
                Slot::Puzzle => r.puzzle = text(),
                Slot::Regions => r.regions = text(),
                Slot::Status => r.status = text().unwrap_or_default(),
                Slot::Solutions => r.solutions = int_of(&f),
                Slot::Solution => r.solution = text(),
                Slot::Guesses => r.guesses = int_of(&f),
                Slot::Er => (r.er, r.er_lower_bound) = split(rating_of(&f)),
                Slot::Ep => (r.ep, r.ep_lower_bound) = split(rating_of(&f)),
                Slot::Ed => (r.ed, r.ed_lower_bound) = split(rating_of(&f)),
                Slot::Level => r.level = text(),
                Slot::Hardest => r.hardest = text(),
                Slot::Error => r.error = text(),
                Slot::Tail => r.tail = text(),
                Slot::Other => {}
            }
        }
        self.block.out.clear();
        self.block.diags.clear();
        r
    }
}

fn split(r: Option<(f64, bool)>) -> (Option<f64>, Option<bool>) {
    match r {
        Some((v, b)) => (Some(v), Some(b)),
        None => (None, None),
    }
}

#[pymethods]
impl Solver {
    /// A solver for puzzles of `variant` (`classic`, `x`, `windoku`, `jigsaw`,
    /// `samurai`); with `grade=True` unique puzzles are rated (ER/EP/ED) within
    /// `grade_budget` work units (default: the CLI's).
    #[new]
    #[pyo3(signature = (variant = "classic", *, grade = false, grade_budget = None))]
    fn py_new(variant: &str, grade: bool, grade_budget: Option<u64>) -> PyResult<Solver> {
        let mut argv: Vec<String> = ["solve", "-", "--variant", variant]
            .iter()
            .map(|s| s.to_string())
            .collect();
        if !grade {
            argv.push("--no-grade".into());
        }
        if let Some(b) = grade_budget {
            if b == 0 {
                return Err(PyValueError::new_err("grade_budget must be at least 1"));
            }
            argv.push("--grade-budget".into());
            argv.push(b.to_string());
        }
        let cfg = super::solve_config(argv)?;
        Ok(Solver::with_config(cfg))
    }

    /// Solves one puzzle (a `str` or `bytes` record, as one element of `solve`'s input),
    /// counting solutions up to `limit`.
    #[pyo3(signature = (puzzle, limit = 2))]
    fn solve(
        &mut self,
        py: Python<'_>,
        puzzle: &Bound<'_, PyAny>,
        limit: u32,
    ) -> PyResult<SolveResult> {
        if limit == 0 {
            return Err(PyValueError::new_err("limit must be at least 1"));
        }
        self.cfg.limit = limit;
        if let Ok(b) = puzzle.cast::<PyBytes>() {
            self.run_maybe_detached(py, b.as_bytes());
        } else if let Ok(s) = puzzle.cast::<PyString>() {
            let text = s.to_cow()?;
            self.run_maybe_detached(py, text.as_bytes());
        } else {
            return Err(PyTypeError::new_err(format!(
                "puzzle must be a str or bytes, not {}",
                puzzle.get_type().name()?
            )));
        }
        Ok(self.result())
    }

    fn __repr__(&self) -> String {
        format!(
            "Solver(variant={:?}, grade={})",
            self.cfg.shape.name(),
            if self.cfg.grade { "True" } else { "False" }
        )
    }
}

impl Solver {
    /// Runs one record; grading (which may take long) runs without the GIL, plain solving
    /// (microseconds) keeps it, which is cheaper than letting it go and taking it back.
    fn run_maybe_detached(&mut self, py: Python<'_>, text: &[u8]) {
        if self.cfg.grade {
            py.detach(|| self.run(text));
        } else {
            self.run(text);
        }
    }
}

/// What `Solver.solve` found: the fields of the row `solve` writes for the puzzle.
#[pyclass(frozen, get_all, module = "sudoku_batch._native", name = "SolveResult")]
#[derive(Clone, Debug, Default)]
pub struct SolveResult {
    /// `solved`, `multiple`, `unsolvable` or `invalid`.
    status: String,
    /// The puzzle normalized to one line (`.` for blanks); `None` if unreadable.
    puzzle: Option<String>,
    /// Jigsaw: the region ids.
    regions: Option<String>,
    /// Solutions counted up to the limit.
    solutions: Option<i64>,
    /// The (first) solution.
    solution: Option<String>,
    /// Branching decisions.
    guesses: Option<i64>,
    /// Sudoku Explainer ratings (with `grade=True`).
    er: Option<f64>,
    ep: Option<f64>,
    ed: Option<f64>,
    er_lower_bound: Option<bool>,
    ep_lower_bound: Option<bool>,
    ed_lower_bound: Option<bool>,
    level: Option<String>,
    hardest: Option<String>,
    /// Why the record is invalid.
    error: Option<String>,
    /// Text after the cells.
    tail: Option<String>,
}

#[pymethods]
impl SolveResult {
    fn __repr__(&self) -> String {
        let mut s = format!("SolveResult(status={:?}", self.status);
        if let Some(n) = self.solutions {
            s.push_str(&format!(", solutions={n}"));
        }
        if let Some(x) = &self.solution {
            s.push_str(&format!(", solution={x:?}"));
        }
        if let Some(g) = self.guesses {
            s.push_str(&format!(", guesses={g}"));
        }
        if let Some(er) = self.er {
            s.push_str(&format!(", er={er}"));
        }
        if let Some(e) = &self.error {
            s.push_str(&format!(", error={e:?}"));
        }
        s.push(')');
        s
    }
}
