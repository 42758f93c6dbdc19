//! The `sudoku-batch` command line (wired up in a following commit).
fn main() {}
