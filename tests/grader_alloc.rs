//! Rating allocates nothing per puzzle once the grader is built: a counting global
//! allocator watches the rating of a whole sample file. Only the test's own thread is
//! counted (the test harness allocates on other threads, e.g. for its timers).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

use sudoku_batch::core::grader::{DEFAULT_BUDGET, Grader, Rating};
use sudoku_batch::core::{Grid, SolveOutcome, Solver};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// True on the thread whose allocations are being counted.
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.try_with(Cell::get).unwrap_or(false) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
}

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
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    COUNTING.with(|c| c.set(true));
    let mut work = 0u64;
    for (p, s) in puzzles.iter().zip(&solutions) {
        grader.rate(p, Some(s), DEFAULT_BUDGET, &mut r);
        work += r.work;
    }
    COUNTING.with(|c| c.set(false));
    let after = ALLOCATIONS.load(Ordering::Relaxed);
    assert!(work > 0);
    assert_eq!(
        after - before,
        0,
        "allocations while rating {} puzzles",
        puzzles.len()
    );
}
