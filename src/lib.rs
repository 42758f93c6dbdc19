//! sudoku-batch: process Sudoku puzzles in bulk, fast.
//!
//! # Data flow
//!
//! ```text
//! input file (mmap) / stdin ──► reader ──► windows of records ──► rayon workers ──► ordered writer ──► CSV / TSV / JSONL
//!                                 │        (line no, &[u8])        │ per-worker scratch:             (stdout or -o FILE)
//!                                 │                                │ solver, row buffer
//!                                 └── bad records become rows ─────┘
//! ```
//!
//! Every input record yields exactly one output row, in input order, whatever the thread
//! count.
//!
//! - [`core`]: pure puzzle logic (grids, bit sets, the exact solvers, the geometry of each
//!   grid shape and the one logic engine over it); no I/O, no threads.
//! - [`io`]: input sources, record formats, row encodings and output sinks.
//! - [`pipeline`]: rayon fan-out in ordered windows, progress and summaries.
//! - [`render`]: pictures of puzzles (SVG pages and grids, streamed PDF booklets).
//! - [`cli`] and [`config`]: the command line and the validated settings built from it.
//! - `python` (with the `python` feature): the PyO3 extension module behind the
//!   `sudoku_batch` Python package.
//!
//! # Example
//!
//! ```
//! use sudoku_batch::core::{Grid, Solver};
//!
//! let puzzle: Grid = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
//!     .parse()
//!     .expect("81 cells");
//! let mut solver = Solver::new();
//! let out = solver.solve(&puzzle, 2);
//! assert_eq!(out.count, 1);
//! assert!(out.solution.is_solution_of(&puzzle));
//! ```
#![deny(missing_docs)]

pub mod cli;
pub mod config;
pub mod core;
pub mod error;
pub mod io;
pub mod pipeline;
#[cfg(feature = "python")]
pub mod python;
pub mod render;
