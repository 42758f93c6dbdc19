//! Golden results: `data/golden_solver.txt` pins the solution count (up to 2) and the unique
//! solution of a few hundred puzzles (samples of `data/`, including multi-solution,
//! unsolvable and conflicting ones). Both backends must reproduce every line; with limit 1
//! the count is capped and the solution still valid.

use sudoku_batch::core::solver::Backend;
use sudoku_batch::core::{Grid, SolveOutcome, Solver};

struct Golden {
    puzzle: Grid,
    count: u32,
    solution: Option<Grid>,
}

fn golden() -> Vec<Golden> {
    let text = include_str!("../data/golden_solver.txt");
    let mut v = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        let mut f = line.split(':');
        let (Some(p), Some(c), Some(s), None) = (f.next(), f.next(), f.next(), f.next()) else {
            panic!(
                "golden_solver.txt:{}: expected puzzle:count:solution",
                n + 1
            );
        };
        v.push(Golden {
            puzzle: p.parse().expect("puzzle"),
            count: c.parse().expect("count"),
            solution: (!s.is_empty()).then(|| s.parse().expect("solution")),
        });
    }
    v
}

#[test]
fn golden_file_is_well_formed() {
    let g = golden();
    assert!(g.len() >= 300, "a few hundred lines");
    for k in [0, 1, 2] {
        assert!(g.iter().any(|x| x.count == k), "some line with count {k}");
    }
    for x in &g {
        assert_eq!(x.solution.is_some(), x.count == 1);
        if let Some(s) = x.solution {
            assert!(s.is_solution_of(&x.puzzle), "{}", x.puzzle);
        }
    }
}

#[test]
fn both_backends_reproduce_the_golden_file() {
    for backend in [Backend::Auto, Backend::Avx2, Backend::Portable] {
        let mut solver = Solver::with_backend(backend);
        let mut out = SolveOutcome::default();
        for x in golden() {
            solver.solve_into(&x.puzzle, 2, &mut out);
            assert_eq!(out.count, x.count, "{backend:?} {}", x.puzzle);
            match x.solution {
                Some(s) => assert_eq!(out.solution, s, "{backend:?} {}", x.puzzle),
                None if x.count == 2 => assert!(out.solution.is_solution_of(&x.puzzle)),
                None => assert_eq!(out.solution, Grid::EMPTY),
            }
            solver.solve_into(&x.puzzle, 1, &mut out);
            assert_eq!(out.count, x.count.min(1), "limit 1, {}", x.puzzle);
            if out.count == 1 {
                assert!(out.solution.is_solution_of(&x.puzzle));
            }
        }
    }
}

#[test]
fn same_puzzle_same_outcome() {
    let mut a = Solver::new();
    let mut b = Solver::with_backend(Backend::Portable);
    let mut c = Solver::with_backend(Backend::Avx2);
    for x in golden() {
        let first = a.solve(&x.puzzle, 2);
        assert_eq!(a.solve(&x.puzzle, 2), first, "repeat run, {}", x.puzzle);
        assert_eq!(
            b.solve(&x.puzzle, 2),
            first,
            "portable backend, {}",
            x.puzzle
        );
        assert_eq!(c.solve(&x.puzzle, 2), first, "AVX2 backend, {}", x.puzzle);
    }
}
