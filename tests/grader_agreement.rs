//! The grader against Sudoku Explainer 1.2.1's published ratings on the repo's samples:
//! every puzzle it rates to the end must get SE's ER, EP and ED exactly.

use sudoku_batch::core::grader::{DEFAULT_BUDGET, Grader, Outcome, Rating};
use sudoku_batch::core::{Grid, Solver};

fn tenths(s: &str) -> u8 {
    let v: f64 = s.trim().parse().expect("rating");
    (v * 10.0).round() as u8
}

fn rated(path: &str) -> Vec<(Grid, [u8; 3])> {
    let text = std::fs::read_to_string(path).expect("sample file");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let g: Grid = f[0].parse().expect("puzzle");
            (g, [tenths(f[1]), tenths(f[2]), tenths(f[3])])
        })
        .collect()
}

#[test]
fn complete_ratings_match_sudoku_explainer_exactly() {
    let mut grader = Grader::new();
    let mut solver = Solver::new();
    let mut r = Rating::default();
    let mut complete = 0;
    let puzzles = rated("data/rated_exchange_60.tsv");
    for (p, reference) in &puzzles {
        let sol = solver.solve(p, 2);
        assert_eq!(sol.count, 1);
        grader.rate(p, Some(&sol.solution), DEFAULT_BUDGET, &mut r);
        assert_ne!(r.outcome, Outcome::Invalid, "{p}");
        if r.complete {
            complete += 1;
            assert_eq!([r.er, r.ep, r.ed], *reference, "{p}");
        } else {
            // A lower bound never exceeds the reference.
            assert!(r.er <= reference[0], "{p}: >= {} vs {}", r.er, reference[0]);
        }
    }
    // Every puzzle up to aligned pair exclusion (ER <= 6.2) is within reach of the
    // non-chaining techniques.
    let easy = puzzles.iter().filter(|(_, r)| r[0] <= 62).count();
    assert!(complete >= easy, "{complete} complete, {easy} rated <= 6.2");
}

#[test]
fn hardest_puzzles_start_like_sudoku_explainer() {
    // The 18-clue monsters need nested chains for ER; ED and EP come from the first steps.
    let mut grader = Grader::new();
    let mut r = Rating::default();
    for (p, reference) in rated("data/rated_hardest_20.tsv") {
        grader.rate(&p, None, 1_000_000, &mut r);
        assert_ne!(r.outcome, Outcome::Invalid, "{p}");
        assert!(r.er <= reference[0] || r.complete, "{p}");
        if r.ed != r.er {
            assert_eq!(r.ed, reference[2], "{p}");
        }
    }
}
