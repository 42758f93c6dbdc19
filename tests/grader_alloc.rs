//! Rating allocates nothing per puzzle once the grader is built: a counting global
//! allocator watches the rating of a whole sample file. Only the test's own thread is
//! counted (the test harness allocates on other threads, e.g. for its timers).

use sudoku_batch::core::grader::{DEFAULT_BUDGET, Grader, Rating};
use sudoku_batch::core::{Grid, SolveOutcome, Solver};

mod common;
use common::alloc::{Counting, allocations};

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn rating_allocates_nothing_per_puzzle() {
    let text = std::fs::read_to_string("data/rated_exchange_60.tsv").expect("sample");
    let puzzles: Vec<Grid> = text
        .lines()
        .filter_map(|l| l.get(..81))
        .filter_map(|p| p.parse().ok())
        .collect();
    let mut grader = Grader::new();
    let mut solver = Solver::new();
    let mut sol = SolveOutcome::default();
    let mut r = Rating::default();
    // Warm-up: one puzzle.
    grader.rate(&puzzles[0], None, DEFAULT_BUDGET, &mut r);
    let solutions: Vec<Grid> = puzzles
        .iter()
        .map(|p| {
            solver.solve_into(p, 2, &mut sol);
            sol.solution
        })
        .collect();
    let mut work = 0u64;
    let n = allocations(|| {
        for (p, s) in puzzles.iter().zip(&solutions) {
            grader.rate(p, Some(s), DEFAULT_BUDGET, &mut r);
            work += r.work;
        }
    });
    assert!(work > 0);
    assert_eq!(n, 0, "allocations while rating {} puzzles", puzzles.len());
}
