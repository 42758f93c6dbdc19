//! Property: the grader never makes a deduction that contradicts the solution, over every
//! puzzle file shipped in `data/` (checked step by step against the solver's solution).

use sudoku_batch::core::grader::{Grader, Outcome};
use sudoku_batch::core::logic::{Board, Step};
use sudoku_batch::core::{Grid, Solver};

/// Work per puzzle: enough for every non-chaining technique on these samples and for the
/// chains of most of them, small enough to keep the test quick in debug builds (the
/// chaining steps are checked level by level in `chains_property`).
const BUDGET: u64 = 400_000;

fn puzzles(path: &str) -> Vec<Grid> {
    std::fs::read_to_string(path)
        .expect("sample file")
        .lines()
        .filter_map(|l| l.get(..81))
        .filter_map(|p| p.parse().ok())
        .collect()
}

#[test]
fn no_step_contradicts_the_solution() {
    let mut grader = Grader::new();
    let mut solver = Solver::new();
    let mut steps: Vec<Step> = Vec::new();
    let mut total_steps = 0usize;
    let mut eliminations = 0usize;
    for file in [
        "data/random_minimal_200.txt",
        "data/17clue_200.txt",
        "data/top1465_100.txt",
        "data/rated_exchange_60.tsv",
        "data/hardest_100.txt",
    ] {
        for p in puzzles(file) {
            let sol = solver.solve(&p, 2);
            if sol.count != 1 {
                continue;
            }
            // Without the solution check inside the grader: verify here, step by step.
            let r = grader.explain(&p, None, BUDGET, &mut steps);
            assert_ne!(r.outcome, Outcome::Invalid, "{file}: {p}");
            let geo = sudoku_batch::core::geometry::classic();
            let mut b = Board::from_grid(geo, &p);
            for s in &steps {
                let shown = s.display(geo);
                for (c, d) in s.eliminated() {
                    assert_ne!(sol.solution.digit(c), Some(d), "{file}: {p}: {shown}");
                }
                if let Some((c, d)) = s.placement {
                    assert_eq!(sol.solution.digit(c), Some(d), "{file}: {p}: {shown}");
                }
                assert!(!s.is_empty(), "{file}: {p}: empty step {shown}");
                b.apply(geo, s);
                eliminations += s.elimination_count() as usize;
            }
            total_steps += steps.len();
            if r.complete {
                assert_eq!(b.to_grid(), sol.solution, "{file}: {p}");
            }
        }
    }
    assert!(total_steps > 10_000, "{total_steps} steps checked");
    assert!(eliminations > 1_000, "{eliminations} eliminations checked");
}
