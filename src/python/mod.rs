//! The Python extension module `sudoku_batch._native` (behind the `python` feature; the
//! package `sudoku_batch` in `python/` wraps it). Thin by design: settings are parsed by
//! the CLI's own clap definition and checked by its config builders, puzzles run through
//! [`crate::pipeline::memory`] (the CLI's workers in the CLI's ordered engine), and the rows
//! come back as Arrow arrays ([`Table`]).
//!
//! ```text
//!  Python wrapper ──argv──► clap (cli.rs) ──► SolveConfig / GenerateConfig / ...
//!        │ puzzles as bytes (joined lines, one bytes per puzzle, or cell values)
//!        ▼
//!  detached thread: pipeline::memory ──packed rows──► TableBuilder ──► Table (Arrow)
//!  calling thread: waits without the GIL, looks for Ctrl-C every 50 ms
//! ```

mod solver;
mod table;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use clap::{Parser, ValueEnum};
use pyo3::exceptions::{PyKeyboardInterrupt, PyOSError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};

use crate::cli::{Cli, Command, LevelArg, SymmetryArg, VariantArg};
use crate::config::{
    ExplainConfig, ExplainFormat, ExplainSource, GenerateConfig, MinimizeConfig, SolveConfig,
};
use crate::core::Cancel;
use crate::core::geometry::Shape;
use crate::error::Error;
use crate::pipeline::RunEnd;
use crate::pipeline::memory::{self, Puzzles};

pub use solver::{SolveResult, Solver};
pub use table::Table;
use table::TableBuilder;

/// Parses `argv` (without the program name) with the CLI's definition; a usage error
/// becomes a `ValueError` with clap's message, on one line.
fn command(argv: Vec<String>) -> PyResult<Command> {
    let args = std::iter::once("sudoku-batch".to_string()).chain(argv);
    match Cli::try_parse_from(args) {
        Ok(cli) => Ok(cli.command),
        Err(e) => {
            let text = e.render().to_string();
            let msg: Vec<&str> = text
                .lines()
                .map(str::trim)
                .filter(|l| {
                    !l.is_empty()
                        && !l.starts_with("Usage:")
                        && !l.starts_with("For more information")
                })
                .collect();
            let msg = msg.join(" ");
            Err(PyValueError::new_err(
                msg.strip_prefix("error: ").unwrap_or(&msg).to_string(),
            ))
        }
    }
}

/// The error of a run as a Python exception: usage errors (bad settings, a target too
/// narrow) are `ValueError`s.
fn py_error(e: Error) -> PyErr {
    match e {
        Error::Usage(m) => PyValueError::new_err(m),
        Error::Input { .. } | Error::Output { .. } => PyOSError::new_err(e.to_string()),
        Error::Interrupted => PyKeyboardInterrupt::new_err(e.to_string()),
    }
}

/// The `solve` settings of `argv` (`solve - ...`).
pub(crate) fn solve_config(argv: Vec<String>) -> PyResult<SolveConfig> {
    match command(argv)? {
        Command::Solve(a) => SolveConfig::from_args(&a).map_err(py_error),
        _ => Err(PyValueError::new_err("expected the arguments of solve")),
    }
}

/// Runs `work` on a thread of its own while the calling thread waits without the GIL,
/// looking for a signal (Ctrl-C) every 50 ms: on one, `work`'s stop flag is set (the
/// engine's workers stop within milliseconds) and the signal's exception is raised once
/// `work` has returned.
fn detached<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(Arc<AtomicBool>) -> T + Send,
) -> PyResult<T> {
    let flag = Arc::new(AtomicBool::new(false));
    let mut raised: Option<PyErr> = None;
    let out = py.detach(|| {
        std::thread::scope(|s| {
            let (tx, rx) = mpsc::channel();
            let stop = Arc::clone(&flag);
            s.spawn(move || {
                let _ = tx.send(work(stop));
            });
            loop {
                match rx.recv_timeout(Duration::from_millis(50)) {
                    Ok(v) => return Some(v),
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        if raised.is_none()
                            && let Err(e) = Python::attach(|py| py.check_signals())
                        {
                            raised = Some(e);
                            flag.store(true, Ordering::Relaxed);
                        }
                    }
                    Err(mpsc::RecvTimeoutError::Disconnected) => return None,
                }
            }
        })
    });
    if let Some(e) = raised {
        return Err(e);
    }
    out.ok_or_else(|| PyRuntimeError::new_err("internal error: the worker thread stopped"))
}

/// The finished table of a run, or its error; an interrupted run without a signal
/// exception (which cannot happen: only a signal sets the flag) is an error too.
fn table_of(result: Result<(RunEnd, TableBuilder), Error>) -> PyResult<Table> {
    match result {
        Ok((RunEnd::Completed, b)) => Ok(b.finish()),
        Ok(_) => Err(PyKeyboardInterrupt::new_err("interrupted")),
        Err(e) => Err(py_error(e)),
    }
}

/// Puzzles handed over by the wrapper, held as Python bytes objects.
enum Input<'py> {
    /// `count` records joined by `\n` (none of them holds a line break).
    Lines(Bound<'py, PyBytes>, usize),
    /// One bytes object per record.
    Items(Vec<Bound<'py, PyBytes>>),
    /// Cell values, `width` a puzzle.
    Cells(Bound<'py, PyBytes>, usize),
}

impl<'py> Input<'py> {
    fn new(kind: &str, data: &Bound<'py, PyAny>, size: usize) -> PyResult<Input<'py>> {
        let bytes = || -> PyResult<Bound<'py, PyBytes>> {
            Ok(data
                .cast::<PyBytes>()
                .map_err(|_| PyTypeError::new_err("expected bytes"))?
                .clone())
        };
        match kind {
            "lines" => Ok(Input::Lines(bytes()?, size)),
            "cells" => Ok(Input::Cells(bytes()?, size)),
            "items" => {
                let list = data
                    .cast::<PyList>()
                    .map_err(|_| PyTypeError::new_err("expected a list of bytes"))?;
                let mut items = Vec::with_capacity(list.len());
                for (i, x) in list.iter().enumerate() {
                    let b = x.cast_into::<PyBytes>().map_err(|e| {
                        PyTypeError::new_err(format!("puzzle {i} is not bytes: {e}"))
                    })?;
                    items.push(b);
                }
                Ok(Input::Items(items))
            }
            _ => Err(PyValueError::new_err(format!(
                "unknown input kind {kind:?}"
            ))),
        }
    }

    /// The records as byte slices (for lines and items), borrowed from the bytes objects.
    fn slices(&self) -> PyResult<Vec<&[u8]>> {
        match self {
            Input::Lines(b, n) => {
                let buf = b.as_bytes();
                if *n == 0 {
                    return Ok(Vec::new());
                }
                let v: Vec<&[u8]> = buf.split(|&c| c == b'\n').collect();
                if v.len() != *n {
                    return Err(PyValueError::new_err(format!(
                        "{} lines given for {n} puzzles",
                        v.len()
                    )));
                }
                Ok(v)
            }
            Input::Items(items) => Ok(items.iter().map(|b| b.as_bytes()).collect()),
            Input::Cells(..) => Ok(Vec::new()),
        }
    }

    fn puzzles<'a>(&'a self, slices: &'a [&'a [u8]]) -> Puzzles<'a> {
        match self {
            Input::Cells(b, width) => Puzzles::Cells {
                values: b.as_bytes(),
                width: *width,
            },
            _ => Puzzles::Strings(slices),
        }
    }
}

/// Cells of a grid of `shape`.
fn width(shape: Shape) -> usize {
    if shape == Shape::Samurai { 405 } else { 81 }
}

/// Runs `run` (a command over puzzles in memory) on the puzzles of `input` (`kind`, `data`,
/// `size` as the Python side passes them) without the GIL, and returns its rows for grids
/// of `shape` as a table.
fn over_puzzles(
    py: Python<'_>,
    (kind, data, size): (&str, &Bound<'_, PyAny>, usize),
    shape: Shape,
    run: impl FnOnce(&Puzzles<'_>, Arc<AtomicBool>, &mut TableBuilder) -> Result<RunEnd, Error> + Send,
) -> PyResult<Table> {
    let input = Input::new(kind, data, size)?;
    let slices = input.slices()?;
    let puzzles = input.puzzles(&slices);
    table_of(detached(py, |stop| {
        let mut b = TableBuilder::new(width(shape), puzzles.len());
        run(&puzzles, stop, &mut b).map(|end| (end, b))
    })?)
}

/// `solve` with the settings of `argv` over the puzzles (see `sudoku_batch.solve`).
#[pyfunction]
fn solve(
    py: Python<'_>,
    argv: Vec<String>,
    kind: &str,
    data: &Bound<'_, PyAny>,
    size: usize,
) -> PyResult<Table> {
    let cfg = solve_config(argv)?;
    over_puzzles(py, (kind, data, size), cfg.shape, |puzzles, stop, b| {
        memory::solve(&cfg, puzzles, stop, b)
    })
}

/// `minimize` with the settings of `argv` over the puzzles.
#[pyfunction]
fn minimize(
    py: Python<'_>,
    argv: Vec<String>,
    kind: &str,
    data: &Bound<'_, PyAny>,
    size: usize,
) -> PyResult<Table> {
    let cfg = match command(argv)? {
        Command::Minimize(a) => MinimizeConfig::from_args(&a).map_err(py_error)?,
        _ => return Err(PyValueError::new_err("expected the arguments of minimize")),
    };
    over_puzzles(py, (kind, data, size), cfg.shape, |puzzles, stop, b| {
        memory::minimize(&cfg, puzzles, stop, b)
    })
}

/// `generate` with the settings of `argv`.
#[pyfunction]
fn generate(py: Python<'_>, argv: Vec<String>) -> PyResult<Table> {
    let cfg: GenerateConfig = match command(argv)? {
        Command::Generate(a) => GenerateConfig::from_args(&a).map_err(py_error)?,
        _ => return Err(PyValueError::new_err("expected the arguments of generate")),
    };
    let w = width(cfg.variant.map_or(Shape::Classic, |v| v.shape));
    let (lo, hi) = crate::pipeline::generate::index_range(&cfg);
    let n = usize::try_from(hi - lo).unwrap_or(usize::MAX);
    table_of(detached(py, |stop| {
        let mut b = TableBuilder::new(w, n);
        memory::generate(&cfg, stop, &mut b).map(|end| (end, b))
    })?)
}

/// `explain --format json` of one puzzle (a one-line record), with the other settings of
/// `argv` (`explain - ...`); returns the JSON text.
#[pyfunction]
fn explain(py: Python<'_>, puzzle: &str, argv: Vec<String>) -> PyResult<String> {
    let mut cfg: ExplainConfig = match command(argv)? {
        Command::Explain(a) => ExplainConfig::from_args(&a).map_err(py_error)?,
        _ => return Err(PyValueError::new_err("expected the arguments of explain")),
    };
    // The puzzle is always the text given, never a file name.
    cfg.source = ExplainSource::Inline(puzzle.trim().to_string());
    cfg.format = ExplainFormat::Json;
    let out = detached(py, |stop| {
        crate::pipeline::explain::run(&cfg, Cancel::from_flag(&stop))
    })?;
    match out {
        Ok(e) if e.interrupted => Err(PyKeyboardInterrupt::new_err("interrupted")),
        Ok(e) => Ok(e.text),
        Err(Error::Usage(m)) => Err(PyValueError::new_err(m.replace(
            "the puzzle in the command line is invalid: ",
            "invalid puzzle: ",
        ))),
        Err(e) => Err(py_error(e)),
    }
}

/// The names clap accepts for a value enum, in order.
fn names<T: ValueEnum>() -> Vec<String> {
    T::value_variants()
        .iter()
        .filter_map(|v| v.to_possible_value())
        .map(|p| p.get_name().to_string())
        .collect()
}

/// The extension module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(minimize, m)?)?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    m.add_function(wrap_pyfunction!(explain, m)?)?;
    m.add_class::<Table>()?;
    m.add_class::<Solver>()?;
    m.add_class::<SolveResult>()?;
    m.add("VARIANTS", names::<VariantArg>())?;
    m.add("LEVELS", names::<LevelArg>())?;
    m.add("SYMMETRIES", names::<SymmetryArg>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
