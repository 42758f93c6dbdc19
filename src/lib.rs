//! sudoku-batch: process Sudoku puzzles in bulk, fast.
#![deny(missing_docs)]

pub mod core;
