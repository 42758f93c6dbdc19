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

#[test]
fn no_chaining_step_contradicts_the_solution() {
    let mut grader = Grader::new();
    let mut solver = Solver::new();
    let mut scratch = ChainScratch::new();
    let mut steps: Vec<Step> = Vec::new();
    let (mut states, mut checked, mut removed, mut placed) = (0usize, 0usize, 0usize, 0usize);
    for file in ["data/rated_exchange_60.tsv", "data/random_minimal_200.txt"] {
        for p in puzzles(file) {
            let out = solver.solve(&p, 2);
            if out.count != 1 {
                continue;
            }
            let sol = out.solution;
            grader.explain(&p, None, BUDGET, &mut steps);
            let geo = geometry::classic();
            let mut b = Board::from_grid(geo, &p);
            for s in &steps {
                if is_chain(s.technique) {
                    states += 1;
                    for level in LEVELS {
                        let mut step = Step::default();
                        let mut budget = Budget::new(1 << 40);
                        if !chains::find(geo, &b, level, &mut scratch, &mut budget, &mut step) {
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
                }
                b.apply(geo, s);
            }
        }
    }
    assert!(states > 500, "{states} states");
    assert!(checked > 2_000, "{checked} steps checked");
    assert!(
        removed > 2_000 && placed > 100,
        "{removed} removals, {placed} placements"
    );
}
