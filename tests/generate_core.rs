//! The generator in the library: every generated puzzle is checked with the exact solver
//! (uniqueness, the solution, the symmetry of the clue pattern, minimality), reproducibility
//! per `(seed, index)`, clue ranges, the error for a target out of reach, steering toward an
//! ER range with a stand-in rater, and `minimize`.

use sudoku_batch::core::generator::{
    ErRange, ErScore, Generator, MinimizeError, Rate, Symmetry, SymmetryChoice, Target, Unrated,
};
use sudoku_batch::core::{Cell, Digit, Grid, Solver};

/// Independent minimality check: every clue, removed alone, lets a second solution in.
fn is_minimal(solver: &mut Solver, p: &Grid) -> bool {
    Cell::all().filter(|&c| p.value(c) != 0).all(|c| {
        let mut r = *p;
        r.set(c, None);
        solver.solve(&r, 2).count == 2
    })
}

fn check_puzzle(solver: &mut Solver, p: &Grid, solution: &Grid, symmetry: Symmetry) {
    let out = solver.solve(p, 2);
    assert_eq!(out.count, 1, "not unique: {p}");
    assert_eq!(out.solution, *solution, "{p}");
    assert!(solution.is_solution_of(p));
    assert!(symmetry.holds(p), "{p} lacks {symmetry}");
}

#[test]
fn every_symmetry_gives_unique_symmetric_minimal_puzzles() {
    let mut g = Generator::new();
    let mut solver = Solver::new();
    for symmetry in Symmetry::ALL {
        let n = if symmetry == Symmetry::Rot90 { 2 } else { 6 };
        let target = Target {
            symmetry: SymmetryChoice::Fixed(symmetry),
            minimal: true,
            ..Target::default()
        };
        for i in 0..n {
            let made = g.generate(&mut Unrated, &target, 11, i).unwrap();
            assert_eq!(made.symmetry, symmetry);
            assert_eq!(made.puzzle.clue_count(), usize::from(made.clues));
            check_puzzle(&mut solver, &made.puzzle, &made.solution, symmetry);
            assert!(is_minimal(&mut solver, &made.puzzle), "{}", made.puzzle);
        }
    }
}

#[test]
fn random_symmetry_draws_non_trivial_symmetries_and_keeps_them() {
    let mut g = Generator::new();
    let mut solver = Solver::new();
    let target = Target {
        symmetry: SymmetryChoice::Random,
        ..Target::default()
    };
    let mut seen = std::collections::HashSet::new();
    for i in 0..24 {
        let made = g.generate(&mut Unrated, &target, 5, i).unwrap();
        assert_ne!(made.symmetry, Symmetry::None);
        check_puzzle(&mut solver, &made.puzzle, &made.solution, made.symmetry);
        seen.insert(made.symmetry);
    }
    assert!(seen.len() >= 4, "{seen:?}");
}

#[test]
fn without_symmetry_digging_alone_is_minimal() {
    let mut g = Generator::new();
    let mut solver = Solver::new();
    for i in 0..20 {
        let made = g.generate(&mut Unrated, &Target::default(), 3, i).unwrap();
        check_puzzle(&mut solver, &made.puzzle, &made.solution, Symmetry::None);
        assert!(is_minimal(&mut solver, &made.puzzle));
        assert_eq!(made.attempts, 1);
    }
}

#[test]
fn the_same_seed_and_index_give_the_same_puzzle_in_any_order() {
    let target = Target {
        symmetry: SymmetryChoice::Random,
        minimal: true,
        ..Target::default()
    };
    let mut a = Generator::new();
    let forward: Vec<Grid> = (0..12)
        .map(|i| a.generate(&mut Unrated, &target, 99, i).unwrap().puzzle)
        .collect();
    let mut b = Generator::new();
    let mut backward: Vec<Grid> = (0..12)
        .rev()
        .map(|i| b.generate(&mut Unrated, &target, 99, i).unwrap().puzzle)
        .collect();
    backward.reverse();
    assert_eq!(forward, backward);
    let other = a.generate(&mut Unrated, &target, 100, 0).unwrap().puzzle;
    assert_ne!(other, forward[0]);
}

#[test]
fn a_clue_range_without_minimal_stops_digging_at_its_floor() {
    let mut g = Generator::new();
    let mut solver = Solver::new();
    for (symmetry, lo, hi) in [(Symmetry::None, 30, 30), (Symmetry::Rot180, 34, 35)] {
        let target = Target {
            symmetry: SymmetryChoice::Fixed(symmetry),
            min_clues: lo,
            max_clues: hi,
            ..Target::default()
        };
        for i in 0..8 {
            let made = g.generate(&mut Unrated, &target, 8, i).unwrap();
            assert!((lo..=hi).contains(&made.clues), "{}", made.clues);
            check_puzzle(&mut solver, &made.puzzle, &made.solution, symmetry);
        }
    }
}

#[test]
fn a_target_out_of_reach_fails_with_the_reasons() {
    let mut g = Generator::new();
    let target = Target {
        minimal: true,
        min_clues: 17,
        max_clues: 17,
        max_attempts: 25,
        ..Target::default()
    };
    let err = g.generate(&mut Unrated, &target, 1, 4).unwrap_err();
    assert_eq!(err.attempts, 25);
    assert_eq!(err.rejections.clues, 25);
    assert_eq!(err.index, 4);
    let msg = err.to_string();
    assert!(
        msg.contains("puzzle 4: no candidate met the target in 25 attempts")
            && msg.contains("25 with a clue count outside 17..17"),
        "{msg}"
    );
}

/// A stand-in rater for the targeting machinery: "ER" is the number of cells still empty
/// after naked and hidden singles (0 for puzzles that singles solve). It is computed here,
/// independently of the library.
struct SinglesStall;

fn stalled_cells(p: &Grid) -> u16 {
    let mut v = *p.values();
    loop {
        let mut progress = false;
        let cand = |v: &[u8; 81], c: usize| -> u16 {
            let (r, col) = (c / 9, c % 9);
            let mut used = 0u16;
            for i in 0..9 {
                used |= 1 << v[r * 9 + i];
                used |= 1 << v[i * 9 + col];
                let (br, bc) = (r / 3 * 3 + i / 3, col / 3 * 3 + i % 3);
                used |= 1 << v[br * 9 + bc];
            }
            !used & 0x3fe
        };
        for c in 0..81 {
            if v[c] == 0 {
                let m = cand(&v, c);
                if m.count_ones() == 1 {
                    v[c] = m.trailing_zeros() as u8;
                    progress = true;
                }
            }
        }
        // Hidden singles: a digit with one place in a row, column or box.
        for h in 0..27 {
            let cells: Vec<usize> = (0..9)
                .map(|i| match h / 9 {
                    0 => (h % 9) * 9 + i,
                    1 => i * 9 + h % 9,
                    _ => ((h % 9) / 3 * 3 + i / 3) * 9 + (h % 9) % 3 * 3 + i % 3,
                })
                .collect();
            for d in 1..=9u8 {
                if cells.iter().any(|&c| v[c] == d) {
                    continue;
                }
                let spots: Vec<usize> = cells
                    .iter()
                    .copied()
                    .filter(|&c| v[c] == 0 && cand(&v, c) & (1 << d) != 0)
                    .collect();
                if spots.len() == 1 {
                    v[spots[0]] = d;
                    progress = true;
                }
            }
        }
        if !progress {
            return v.iter().filter(|&&x| x == 0).count() as u16;
        }
    }
}

impl Rate for SinglesStall {
    type Rating = u16;
    fn rate(&mut self, puzzle: &Grid, _solution: &Grid) -> u16 {
        stalled_cells(puzzle)
    }
    fn er(rating: &u16) -> Option<ErScore> {
        Some(ErScore {
            tenths: *rating,
            exact: true,
        })
    }
}

#[test]
fn steering_reaches_a_rare_target_that_blind_rejection_misses() {
    let mut g = Generator::new();
    let range = ErRange {
        min: 57,
        max: ErRange::OPEN,
    };
    let steered = Target {
        er: Some(range),
        max_attempts: 300,
        ..Target::default()
    };
    let blind = Target {
        steer: false,
        ..steered
    };
    let (mut steered_ok, mut blind_ok) = (0, 0);
    let mut solver = Solver::new();
    for i in 0..6 {
        if let Ok(made) = g.generate(&mut SinglesStall, &steered, 21, i) {
            assert!(made.rating >= 57);
            assert_eq!(made.rating, stalled_cells(&made.puzzle));
            check_puzzle(&mut solver, &made.puzzle, &made.solution, Symmetry::None);
            assert!(is_minimal(&mut solver, &made.puzzle));
            steered_ok += 1;
        }
        if g.generate(&mut SinglesStall, &blind, 21, i).is_ok() {
            blind_ok += 1;
        }
    }
    eprintln!("steered {steered_ok}, blind {blind_ok}");
    assert!(
        steered_ok > blind_ok,
        "steered {steered_ok}, blind {blind_ok}"
    );
}

#[test]
fn an_er_range_filters_and_the_error_names_the_closest_rating() {
    let mut g = Generator::new();
    let target = Target {
        er: Some(ErRange { min: 0, max: 0 }),
        ..Target::default()
    };
    for i in 0..5 {
        let made = g.generate(&mut SinglesStall, &target, 2, i).unwrap();
        assert_eq!(made.rating, 0);
    }
    let impossible = Target {
        er: Some(ErRange { min: 90, max: 90 }),
        max_attempts: 30,
        ..Target::default()
    };
    let err = g
        .generate(&mut SinglesStall, &impossible, 2, 0)
        .unwrap_err();
    assert!(err.closest.is_some());
    assert!(
        err.to_string().contains("with ER outside 9.0..9.0"),
        "{err}"
    );
}

fn read_puzzles(name: &str) -> Vec<Grid> {
    let path = format!("{}/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| Grid::parse_line(l.as_bytes()).unwrap().0)
        .collect()
}

#[test]
fn minimize_keeps_minimal_puzzles_and_strips_added_clues() {
    let mut g = Generator::new();
    let mut solver = Solver::new();
    for p in read_puzzles("17clue_200.txt").iter().take(30) {
        let m = g.minimize(p).unwrap();
        // 17-clue puzzles are minimal.
        assert_eq!(m.puzzle, *p);
        assert!(g.is_minimal(p));
        // Add every ninth cell of the solution: the result drops back to a minimal subset.
        let mut bigger = *p;
        for c in Cell::all().step_by(9) {
            bigger.set(c, m.solution.digit(c));
        }
        let again = g.minimize(&bigger).unwrap();
        assert_eq!(again.solution, m.solution);
        assert!(
            Cell::all()
                .all(|c| again.puzzle.value(c) == 0 || again.puzzle.value(c) == bigger.value(c))
        );
        assert!(is_minimal(&mut solver, &again.puzzle));
        assert_eq!(g.minimize(&bigger).unwrap(), again, "deterministic");
    }
}

#[test]
fn minimize_refuses_puzzles_without_exactly_one_solution() {
    let mut g = Generator::new();
    for p in read_puzzles("serg_100.txt").iter().take(5) {
        assert_eq!(g.minimize(p), Err(MinimizeError::MultipleSolutions));
        assert!(!g.is_minimal(p));
    }
    let mut dup = Grid::EMPTY;
    dup.set(Cell::at(0, 0), Some(Digit::new(4)));
    dup.set(Cell::at(0, 5), Some(Digit::new(4)));
    assert_eq!(
        g.minimize(&dup).unwrap_err().to_string(),
        "invalid givens: digit 4 twice in row 1"
    );
    // Valid givens, no solution: 1-8 in row 1 and a 9 in column 9.
    let mut none = Grid::EMPTY;
    for c in 0..8 {
        none.set(Cell::at(0, c), Some(Digit::new(c + 1)));
    }
    none.set(Cell::at(4, 8), Some(Digit::new(9)));
    assert_eq!(g.minimize(&none), Err(MinimizeError::NoSolution));
}

/// The grader as `generate` uses it, but never told of a cap: every rating exact.
struct Uncapped(sudoku_batch::pipeline::generate::Graded);

impl Rate for Uncapped {
    type Rating = sudoku_batch::core::grader::Rating;
    fn rate(&mut self, puzzle: &Grid, solution: &Grid) -> Self::Rating {
        self.0.rate(puzzle, solution)
    }
    fn er(r: &Self::Rating) -> Option<ErScore> {
        sudoku_batch::pipeline::generate::Graded::er(r)
    }
    fn technique_misses(r: &Self::Rating, t: &sudoku_batch::core::profile::TechniqueTarget) -> u16 {
        t.misses(r)
    }
}

#[test]
fn capping_the_grader_changes_no_puzzle_only_the_work() {
    use sudoku_batch::core::grader::DEFAULT_BUDGET;
    use sudoku_batch::core::profile::{TechniqueTarget, technique_by_name};
    use sudoku_batch::pipeline::generate::Graded;
    let hardest = |n: &str| TechniqueTarget {
        hardest: technique_by_name(n),
        ..TechniqueTarget::default()
    };
    let targets = [
        (
            Some(ErRange { min: 32, max: 32 }),
            TechniqueTarget::default(),
        ),
        (
            Some(ErRange { min: 26, max: 44 }),
            TechniqueTarget::default(),
        ),
        (
            Some(ErRange { min: 45, max: 62 }),
            TechniqueTarget::default(),
        ),
        (Some(ErRange { min: 42, max: 42 }), hardest("xy-wing")),
    ];
    let mut g = Generator::new();
    for (er, techniques) in targets {
        let target = Target {
            er,
            techniques,
            ..Target::default()
        };
        for i in 0..6 {
            let capped = g
                .generate(&mut Graded::new(DEFAULT_BUDGET), &target, 17, i)
                .unwrap();
            let exact = g
                .generate(&mut Uncapped(Graded::new(DEFAULT_BUDGET)), &target, 17, i)
                .unwrap();
            assert_eq!(capped, exact, "{er:?} {i}");
        }
    }
}
