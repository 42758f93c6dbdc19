//! Pure puzzle logic: grids, typed indices, bit sets and the exact solver.
//!
//! Nothing in `core` does I/O, spawns threads, or allocates on the hot path; callers own
//! the memory and pass it in.

pub mod bitboard;
pub mod cancel;
pub mod family;
pub mod generator;
pub mod geometry;
pub mod grader;
pub mod grid;
pub mod index;
pub mod jigsaw;
pub mod logic;
pub mod profile;
pub mod samurai;
pub mod solver;

pub use bitboard::{CellSet, DigitSet};
pub use cancel::Cancel;
pub use grid::{Conflict, Grid, ParseError, ParseErrorKind};
pub use index::{Cell, Digit, House, HouseKind};
pub use solver::{SolveOutcome, Solver};
