//! Samurai grading on the one logic engine (its Samurai geometry): no step contradicts the
//! known solution, the steps replayed in order solve the puzzle, the fixtures keep their
//! recorded ratings, and steps name cells `gNrNcN` and houses `grid N box M`.

use std::path::Path;

use sudoku_batch::core::geometry::{self, S369};
use sudoku_batch::core::grader::{Grader, Outcome, Rating, default_budget};
use sudoku_batch::core::logic::{Board, Step, Technique};
use sudoku_batch::core::samurai::format;
use sudoku_batch::core::samurai::{SamuraiGenerator, SamuraiGrid, SamuraiSolver, SamuraiSymmetry};

fn data(name: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data/samurai")
        .join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// (puzzle, tail) of each 405-cell line of a fixture file.
fn lines(name: &str) -> Vec<(SamuraiGrid, String)> {
    data(name)
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (g, t) = format::parse_line(l.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
            (g, l[t..].to_string())
        })
        .collect()
}

/// Rates `p` with steps (the grader checks every step against the solution: a wrong one
/// makes the rating `Invalid`), and checks that replaying the steps solves the puzzle.
fn grade_checked(p: &SamuraiGrid) -> (Rating, Vec<Step<S369>>) {
    let g = geometry::samurai();
    let solution = SamuraiSolver::new().solve(p, 2);
    assert_eq!(solution.count, 1);
    let solution = solution.solution;
    let mut grader: Grader<S369> = Grader::new();
    let mut steps = Vec::new();
    let r = grader.explain_values(
        g,
        p.values(),
        Some(solution.values()),
        default_budget(geometry::Shape::Samurai),
        &mut steps,
    );
    assert_ne!(
        r.outcome,
        Outcome::Invalid,
        "a step contradicts the solution"
    );
    assert_eq!(r.steps as usize, steps.len());
    let mut b = Board::from_values(g, p.values());
    for s in &steps {
        assert!(b.changed_by(s), "{} changes nothing", s.display(g));
        assert!(s.difficulty <= r.er);
        b.apply(g, s);
    }
    if r.complete {
        assert_eq!(b.values(), solution.values());
    }
    (r, steps)
}

#[test]
fn logic_fixtures_are_solved_with_the_recorded_ratings() {
    let puzzles = lines("logic.txt");
    assert_eq!(puzzles.len(), 3);
    for (p, tail) in &puzzles {
        let (r, steps) = grade_checked(p);
        assert!(r.complete, "{r:?}");
        let want = tail.split("er=").nth(1).expect("er in tail");
        assert_eq!(r.er_shown().to_string(), want.trim());
        assert!(r.ed <= r.ep && r.ep <= r.er, "{r:?}");
        assert_eq!(r.ed, steps[0].difficulty);
        assert_eq!(r.level(), "hard");
        assert!(steps.iter().any(|s| s.technique == r.hardest));
        let placed = steps.iter().filter(|s| s.placement.is_some()).count();
        assert_eq!(placed, 369 - p.clue_count());
    }
}

#[test]
fn every_fixture_and_generated_puzzle_is_rated_without_a_wrong_step() {
    let mut seen = std::collections::BTreeSet::new();
    let mut exact = 0;
    let mut total = 0;
    for (p, _) in lines("lines.txt") {
        let (r, steps) = grade_checked(&p);
        total += 1;
        exact += usize::from(r.complete);
        seen.extend(steps.iter().map(|s| s.technique));
    }
    let mut g = SamuraiGenerator::new();
    for i in 0..4 {
        let p = g.generate(77, i, SamuraiSymmetry::Rot180).puzzle;
        let (r, steps) = grade_checked(&p);
        total += 1;
        exact += usize::from(r.complete);
        seen.extend(steps.iter().map(|s| s.technique));
    }
    assert_eq!(
        exact, total,
        "every puzzle rated exactly at the default budget"
    );
    for t in [
        Technique::HiddenSingleBox,
        Technique::NakedSingle,
        Technique::Pointing,
    ] {
        assert!(seen.contains(&t), "{t:?} never used");
    }
}

#[test]
fn steps_name_cells_by_grid_row_column() {
    let (p, _) = &lines("logic.txt")[0];
    let (_, steps) = grade_checked(p);
    let g = geometry::samurai();
    let first = &steps[0];
    let text = first.display(g).to_string();
    let (c, d) = first
        .placement
        .expect("the first step of these puzzles places");
    assert!(text.starts_with(first.technique.name()), "{text}");
    assert!(text.contains(" in grid "), "{text}");
    let named = text.rsplit(": ").next().unwrap();
    assert_eq!(named, format!("{}={d}", g.cell_name(c)));
    assert!(named.starts_with('g'), "{text}");
    for s in &steps {
        let t = s.display(g).to_string();
        for (_, d) in s.eliminated() {
            assert!(t.contains(&format!("<>{d}")), "{t}");
        }
    }
}
