//! Every backend the CPU has (AVX-512, AVX2, the portable 128-bit one) gives bit-identical
//! results: solution count, first solution and guesses, with limit 1 and 2, on the samples
//! in `data/` of every benchmark set (17-clue, top1465, the forum's hardest, Serg's
//! multi-solution benchmark, random minimal puzzles), on the golden file and, with
//! exclusions, on the same puzzles less a clue.
//!
//! The guesses pin the search itself, not only its answers: the backends must branch on
//! the same decisions in the same order. A backend this CPU lacks is skipped (the CI runs on
//! x86-64 machines with AVX2 or AVX-512; ARM machines run the portable one only).

use sudoku_batch::core::index::{Cell, Digit};
use sudoku_batch::core::solver::Backend;
use sudoku_batch::core::{Grid, SolveOutcome, Solver};

/// The sample of each benchmark set.
const SAMPLES: [&str; 5] = [
    "17clue_200.txt",
    "top1465_100.txt",
    "hardest_100.txt",
    "serg_100.txt",
    "random_minimal_200.txt",
];

fn puzzles(text: &str) -> Vec<Grid> {
    text.lines()
        .filter(|l| l.len() >= 81 && !l.starts_with('#'))
        .map(|l| Grid::parse_line(&l.as_bytes()[..81]).expect("puzzle").0)
        .collect()
}

fn sample(name: &str) -> Vec<Grid> {
    let path = format!("{}/data/{name}", env!("CARGO_MANIFEST_DIR"));
    puzzles(&std::fs::read_to_string(&path).expect("sample file in data/"))
}

fn backends() -> Vec<Backend> {
    let have: Vec<Backend> = Backend::CONCRETE
        .into_iter()
        .filter(|b| b.is_available())
        .collect();
    for b in Backend::CONCRETE {
        if !b.is_available() {
            eprintln!("note: this CPU has no {b}; not compared");
        }
    }
    assert!(have.contains(&Backend::Portable));
    have
}

/// Solves every puzzle with every backend and compares with the portable backend.
fn agree(name: &str, cases: &[(Grid, Vec<(Cell, Digit)>)]) {
    let backends = backends();
    let mut solvers: Vec<Solver> = backends.iter().map(|&b| Solver::with_backend(b)).collect();
    for (b, s) in backends.iter().zip(&solvers) {
        assert_eq!(s.backend(), *b);
    }
    let mut total_guesses = 0u64;
    for (i, (p, ex)) in cases.iter().enumerate() {
        for limit in [1, 2] {
            let mut first: Option<SolveOutcome> = None;
            for (b, s) in backends.iter().zip(solvers.iter_mut()) {
                let mut out = SolveOutcome::default();
                s.solve_excluding_into(p, ex, limit, &mut out);
                match &first {
                    None => first = Some(out),
                    Some(f) => assert_eq!(
                        &out, f,
                        "{name} #{i}, limit {limit}: {b} differs from {}: {p} {ex:?}",
                        backends[0]
                    ),
                }
            }
            total_guesses += first.map_or(0, |f| f.guesses);
        }
    }
    // The comparison covered searches, not only propagation.
    assert!(total_guesses > 0, "{name}: no guesses at all");
}

#[test]
fn backends_agree_on_every_benchmark_sample() {
    for name in SAMPLES {
        let cases: Vec<_> = sample(name).into_iter().map(|p| (p, Vec::new())).collect();
        agree(name, &cases);
    }
}

#[test]
fn backends_agree_on_the_golden_file() {
    let text = include_str!("../data/golden_solver.txt");
    let cases: Vec<_> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let p: Grid = l.split(':').next().unwrap().parse().expect("puzzle");
            (p, Vec::new())
        })
        .collect();
    agree("golden_solver.txt", &cases);
}

#[test]
fn backends_agree_with_exclusions() {
    // The first clue removed and its digit excluded at its cell (the generator's test of
    // whether a clue can go: no solution for a minimal puzzle's clue), and the same with the
    // clue kept (a given whose digit is excluded: no solution either).
    for name in SAMPLES {
        let mut cases = Vec::new();
        for p in sample(name).into_iter().take(40) {
            let Some(c) = (0..81).map(Cell::new).find(|&c| p.digit(c).is_some()) else {
                continue;
            };
            let d = p.digit(c).unwrap();
            let mut q = p;
            q.set(c, None);
            cases.push((q, vec![(c, d)]));
            cases.push((p, vec![(c, d)]));
        }
        agree(name, &cases);
    }
}
