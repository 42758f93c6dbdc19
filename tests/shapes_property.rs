//! Property, on every shape: each placement and elimination of every step the grader
//! takes agrees with the puzzle's unique solution. Puzzles are generated on X, Windoku,
//! random Jigsaw layouts and Samurai (checked step by step here, the grader running
//! without the solution), and the steps replayed on a board must reach the solution.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use sudoku_batch::core::family::Family;
use sudoku_batch::core::generator::Symmetry;
use sudoku_batch::core::generator::layout::random_layout;
use sudoku_batch::core::generator::variant::VariantGenerator;
use sudoku_batch::core::geometry::{self, Geometry, S81, S369};
use sudoku_batch::core::grader::{Grader, Outcome};
use sudoku_batch::core::logic::{Board, Step};
use sudoku_batch::core::samurai::{SamuraiGenerator, SamuraiSymmetry};

/// Work per puzzle: enough for most of these puzzles to be rated to the end.
const BUDGET: u64 = 3_000_000;

/// Checks every step on one puzzle; returns (steps, eliminations, complete).
fn check<S: Family>(g: &Geometry<S>, puzzle: &S::Grid, solution: &S::Grid) -> (usize, usize, bool) {
    let mut grader = Grader::<S>::new();
    let mut steps: Vec<Step<S>> = Vec::new();
    let sol = S::values(solution);
    let r = grader.explain_values(g, S::values(puzzle), None, BUDGET, &mut steps);
    assert_ne!(r.outcome, Outcome::Invalid, "{puzzle}");
    let mut b = Board::from_values(g, S::values(puzzle));
    let mut eliminations = 0;
    for s in &steps {
        let shown = s.display(g);
        for (c, d) in s.eliminated() {
            assert_ne!(sol.as_ref()[c.index()], d.get(), "{puzzle}: {shown}");
            eliminations += 1;
        }
        if let Some((c, d)) = s.placement {
            assert_eq!(sol.as_ref()[c.index()], d.get(), "{puzzle}: {shown}");
        }
        assert!(!s.is_empty(), "{puzzle}: empty step {shown}");
        b.apply(g, s);
    }
    if r.complete {
        assert_eq!(b.values().as_ref(), sol.as_ref(), "{puzzle}");
    }
    (steps.len(), eliminations, r.complete)
}

#[test]
fn every_step_agrees_with_the_solution_on_x_windoku_and_jigsaw() {
    let mut maker = VariantGenerator::new();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(14);
    let mut totals = (0, 0, 0);
    // X, Windoku, then a new random Jigsaw layout per puzzle.
    for fixed in [Some(geometry::x()), Some(geometry::windoku()), None] {
        let mut done = 0;
        while done < 12 {
            let jigsaw;
            let g = match fixed {
                Some(g) => g,
                None => {
                    jigsaw = Geometry::new_jigsaw(&random_layout(&mut rng)).expect("a layout");
                    &jigsaw
                }
            };
            let sym = [Symmetry::None, Symmetry::Rot180, Symmetry::Diagonal][done % 3];
            let Some(made) = maker.generate(g, &mut rng, sym) else {
                continue;
            };
            let (s, e, complete) = check::<S81>(g, &made.puzzle, &made.solution);
            totals.0 += s;
            totals.1 += e;
            totals.2 += usize::from(complete);
            done += 1;
        }
    }
    assert!(totals.0 > 1_000, "{totals:?}");
    assert!(totals.1 > 1_000, "{totals:?}");
    // Nearly all are rated to the end at this budget.
    assert!(totals.2 >= 30, "{totals:?}");
}

#[test]
fn every_step_agrees_with_the_solution_on_samurai() {
    let mut maker = SamuraiGenerator::new();
    let g = geometry::samurai();
    let mut steps = 0;
    for (i, sym) in [
        SamuraiSymmetry::None,
        SamuraiSymmetry::Rot180,
        SamuraiSymmetry::Rot90,
    ]
    .into_iter()
    .enumerate()
    {
        let made = maker.generate(33, i as u64, sym);
        steps += check::<S369>(g, &made.puzzle, &made.solution).0;
    }
    assert!(steps > 300, "{steps}");
}
