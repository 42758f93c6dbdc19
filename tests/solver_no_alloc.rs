//! A counting global allocator shows that solving allocates nothing per puzzle: once a
//! `Solver` exists, `solve_into` and `solve_excluding_into` make no heap allocation, on any
//! backend, whatever the puzzle (unique, multiple, unsolvable, conflicting, empty).

use sudoku_batch::core::solver::Backend;
use sudoku_batch::core::{Cell, Digit, Grid, SolveOutcome, Solver};

mod common;
use common::alloc::{Counting, allocations};

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The puzzles of the golden file (unique, multiple, unsolvable, conflicting, empty).
fn golden_puzzles() -> Vec<Grid> {
    include_str!("../data/golden_solver.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| l[..81].parse().unwrap())
        .collect()
}

#[test]
fn solving_allocates_nothing_per_puzzle() {
    // Parse everything first: only the solving is measured.
    let puzzles = golden_puzzles();
    let excluded = [
        (Cell::new(0), Digit::new(1)),
        (Cell::new(40), Digit::new(5)),
    ];
    for backend in [Backend::Auto, Backend::Avx2, Backend::Portable] {
        let mut solver = Solver::with_backend(backend);
        let mut out = SolveOutcome::default();
        let mut counted = 0u64;
        let n = allocations(|| {
            for p in &puzzles {
                for limit in [1, 2, 3] {
                    solver.solve_into(p, limit, &mut out);
                    counted += u64::from(out.count);
                }
                solver.solve_excluding_into(p, &excluded, 2, &mut out);
                counted += u64::from(out.count);
            }
        });
        assert_eq!(n, 0, "{backend:?}: allocations while solving");
        assert!(
            counted > puzzles.len() as u64,
            "the puzzles were really solved"
        );
    }
}

#[test]
fn the_shape_solver_allocates_nothing_per_puzzle() {
    use sudoku_batch::core::geometry::{self, Geometry};
    use sudoku_batch::core::solver::ShapeSolver;
    let puzzles = golden_puzzles();
    let boxes: [u8; 81] = std::array::from_fn(|c| (c / 27 * 3 + c % 9 / 3) as u8);
    let jigsaw = Geometry::new_jigsaw(&boxes).expect("the boxes");
    let mut solver = ShapeSolver::new();
    let mut out = SolveOutcome::default();
    // Warm up: the search stack reaches its depth, the tables are built per geometry.
    for g in [geometry::x(), geometry::windoku(), &jigsaw] {
        for p in &puzzles {
            solver.solve_into(g, p, 3, &mut out);
        }
    }
    let mut counted = 0u64;
    let n = allocations(|| {
        for p in &puzzles {
            for limit in [1, 2, 3] {
                // The geometry changes on every call: tables are rebuilt in place.
                for g in [geometry::x(), geometry::windoku(), &jigsaw] {
                    solver.solve_into(g, p, limit, &mut out);
                    counted += u64::from(out.count);
                }
            }
            solver.solve_excluding_into(&jigsaw, p, (40, 4), 2, &mut out);
            counted += u64::from(out.count);
        }
    });
    assert_eq!(n, 0, "allocations while solving");
    assert!(
        counted > puzzles.len() as u64,
        "the puzzles were really solved"
    );
}

#[test]
fn the_counter_sees_allocations() {
    let n = allocations(|| {
        let v: Vec<u64> = std::hint::black_box(vec![1, 2, 3]);
        drop(v);
    });
    assert!(n > 0);
    // Only inside `allocations`.
    let v: Vec<u64> = std::hint::black_box(vec![1, 2, 3]);
    assert_eq!(allocations(|| {}), 0);
    drop(v);
}
