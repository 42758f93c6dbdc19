//! Property: no chaining step, at any of the first five chaining levels, removes a
//! candidate of the solution or places a wrong digit, on every candidate state where the
//! grader took a chaining step while rating the repo's sample puzzles; and each level's
//! step is rated at least its base rating, and changes the board.

use sudoku_batch::core::geometry;
use sudoku_batch::core::grader::Grader;
use sudoku_batch::core::logic::chains::{self, ChainLevel, ChainScratch};
use sudoku_batch::core::logic::{Board, Budget, Step, Technique};
use sudoku_batch::core::{Grid, Solver};

/// Work per puzzle for the grader's own path (some samples need nested chains; the states
/// reached within this budget are enough).
const BUDGET: u64 = 3_000_000;

/// The levels checked on every state (the nested ones cost too much for a debug build).
const LEVELS: [ChainLevel; 5] = [
    ChainLevel::Cycles,
    ChainLevel::Nishio,
    ChainLevel::Multiple,
    ChainLevel::Dynamic,
    ChainLevel::Nested(1),
];

fn puzzles(path: &str) -> Vec<Grid> {
    std::fs::read_to_string(path)
        .expect("sample file")
        .lines()
        .filter_map(|l| l.get(..81))
        .filter_map(|p| p.parse().ok())
        .collect()
}

fn is_chain(t: Technique) -> bool {
    t >= Technique::XCycle && t != Technique::AlignedTripleExclusion
}

/// Calls `f(file, puzzle, solution, i, board, step)` on every state of the grader's path
/// (`board`, before its step `i`, `step`) where it took a chaining step, on the puzzles of
/// `files` that have one solution.
fn each_chain_state(files: &[&str], mut f: impl FnMut(&str, &Grid, &Grid, usize, &Board, &Step)) {
    let mut grader = Grader::new();
    let mut solver = Solver::new();
    let mut steps: Vec<Step> = Vec::new();
    let geo = geometry::classic();
    for file in files {
        for p in puzzles(file) {
            let out = solver.solve(&p, 2);
            if out.count != 1 {
                continue;
            }
            grader.explain(&p, None, BUDGET, &mut steps);
            let mut b = Board::from_grid(geo, &p);
            for (i, s) in steps.iter().enumerate() {
                if is_chain(s.technique) {
                    f(file, &p, &out.solution, i, &b, s);
                }
                b.apply(geo, s);
            }
        }
    }
}

#[test]
fn no_chaining_step_contradicts_the_solution() {
    let mut scratch = ChainScratch::new();
    let (mut states, mut checked, mut removed, mut placed) = (0usize, 0usize, 0usize, 0usize);
    let geo = geometry::classic();
    let files = ["data/rated_exchange_60.tsv", "data/random_minimal_200.txt"];
    each_chain_state(&files, |file, p, sol, _, b, s| {
        states += 1;
        for level in LEVELS {
            let mut step = Step::default();
            let mut budget = Budget::new(1 << 40);
            if !chains::find(geo, b, level, &mut scratch, &mut budget, &mut step) {
                continue;
            }
            checked += 1;
            let what = format!("{file}: {p}: {level:?}: {}", step.display(geo));
            assert!(b.changed_by(&step), "{what}");
            assert!(step.difficulty >= level.base_rating(), "{what}");
            for (c, d) in step.eliminated() {
                assert_ne!(sol.digit(c), Some(d), "{what}");
                removed += 1;
            }
            if let Some((c, d)) = step.placement {
                assert_eq!(sol.digit(c), Some(d), "{what}");
                placed += 1;
            }
            // The grader's own step is the one its level finds.
            if step.technique == s.technique {
                assert_eq!(step, *s, "{what}");
            }
        }
    });
    assert!(states > 500, "{states} states");
    assert!(checked > 2_000, "{checked} steps checked");
    assert!(
        removed > 2_000 && placed > 100,
        "{removed} removals, {placed} placements"
    );
}

/// The first multiple forcing chain rated `max` or less (what a try to end a rating early
/// takes: cell forcing chains, and region forcing chains of a digit with two places in the
/// house) against the level's easiest hint, on every state where the grader took a
/// chaining step while rating the repo's chain-rated samples, at three bounds. What it
/// finds rates `max` or less and no less than the level's easiest, is a cell or region
/// forcing chain that changes the board and keeps the solution; when the easiest is a
/// cell forcing chain rated `max` or less, it finds one; and taking the outcomes of the
/// runs from the searches before (its own, or the level's on the same board) finds the
/// very hint a fresh search finds.
#[test]
fn the_first_multiple_chain_within_a_bound_is_one_the_level_has() {
    let mut kept = ChainScratch::new();
    let mut last: Option<Grid> = None;
    let (mut states, mut found, mut none) = (0usize, 0usize, 0usize);
    let (mut cells, mut regions) = (0usize, 0usize);
    let geo = geometry::classic();
    each_chain_state(&["data/rated_exchange_60.tsv"], |_, p, sol, i, b, _| {
        // The searches of one puzzle's path share a scratch, as the grader's do.
        if last != Some(*p) {
            kept.forget();
            last = Some(*p);
        }
        states += 1;
        // Every other state, the level's own search first, sharing the scratch: the
        // bounded search may then take its outcomes.
        let mut easiest = Step::default();
        let mut budget = Budget::new(1 << 40);
        let mut fresh = ChainScratch::new();
        let scratch = if i % 2 == 0 { &mut kept } else { &mut fresh };
        let level_found = chains::find(
            geo,
            b,
            ChainLevel::Multiple,
            scratch,
            &mut budget,
            &mut easiest,
        );
        for max in [80, 83, 86] {
            let mut step = Step::default();
            let mut budget = Budget::new(1 << 40);
            let got = chains::find_multiple_within(geo, b, max, &mut kept, &mut budget, &mut step);
            let mut again = Step::default();
            let mut budget = Budget::new(1 << 40);
            let fresh = chains::find_multiple_within(
                geo,
                b,
                max,
                &mut ChainScratch::new(),
                &mut budget,
                &mut again,
            );
            let what = format!("{p}: step {i}: max {max}: {}", step.display(geo));
            assert_eq!((got, step), (fresh, again), "{what}");
            let cell_within = level_found
                && easiest.difficulty <= max
                && easiest.technique == Technique::CellForcingChain;
            if !got {
                assert!(!cell_within, "{what}");
                none += 1;
                continue;
            }
            found += 1;
            assert!(level_found && easiest.difficulty <= max, "{what}");
            assert!(step.difficulty <= max, "{what}");
            assert!(step.difficulty >= easiest.difficulty, "{what}");
            match step.technique {
                Technique::CellForcingChain => cells += 1,
                Technique::RegionForcingChain => regions += 1,
                t => panic!("{what}: {t:?}"),
            }
            assert!(b.changed_by(&step), "{what}");
            for (c, d) in step.eliminated() {
                assert_ne!(sol.digit(c), Some(d), "{what}");
            }
            if let Some((c, d)) = step.placement {
                assert_eq!(sol.digit(c), Some(d), "{what}");
            }
        }
    });
    assert!(states > 200, "{states} states");
    assert!(
        found > 200 && none > 100 && cells > 50 && regions > 50,
        "{found} found ({cells} cell, {regions} region chains), {none} none"
    );
}
