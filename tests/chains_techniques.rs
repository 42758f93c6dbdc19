//! Each chaining technique on a candidate state where it is Sudoku Explainer's next step
//! (positive: exact step, rating and eliminations; negative: the earlier chaining levels,
//! which SE tries first, find nothing there), and every step checked against the solution.
//!
//! The boards are the candidate states the grader reaches on puzzles of the repo's samples
//! (`data/rated_exchange_60.tsv`, `data/rated_hardest_20.tsv`); where the step is the
//! hardest of its puzzle, its rating is Sudoku Explainer's published ER for that puzzle.
//! Boards are written as 81 cells of pencil marks: a single digit is a placed value,
//! several digits are the candidates of an empty cell.

use sudoku_batch::core::geometry;
use sudoku_batch::core::grid::Grid;
use sudoku_batch::core::logic::chains::{self, ChainLevel, ChainScratch};
use sudoku_batch::core::logic::{Board, Budget, Step, Technique};
use sudoku_batch::core::solver::Solver;

struct Case {
    name: &'static str,
    puzzle: &'static str,
    marks: &'static str,
    level: ChainLevel,
    technique: Technique,
    rating: u8,
    text: &'static str,
    /// SE's ER for the puzzle, when this step is its hardest.
    se_er: Option<u8>,
}

fn board(marks: &str) -> Board {
    Board::from_marks(marks).expect("81 cells of pencil marks")
}

fn solution(puzzle: &str) -> Grid {
    let g: Grid = puzzle.parse().expect("puzzle");
    let out = Solver::new().solve(&g, 2);
    assert_eq!(out.count, 1, "{puzzle}");
    out.solution
}

/// The step `level` finds on `b`, if any.
fn find(b: &Board, level: ChainLevel, scratch: &mut ChainScratch) -> Option<Step> {
    let mut step = Step::default();
    let mut budget = Budget::new(1 << 40);
    chains::find(
        geometry::classic(),
        b,
        level,
        scratch,
        &mut budget,
        &mut step,
    )
    .then_some(step)
}

/// Checks a step against the known solution: nothing true removed, nothing false placed.
/// A step's text on the classic grid.
fn text(step: &Step) -> String {
    step.display(geometry::classic()).to_string()
}

fn check_against(step: &Step, sol: &Grid, what: &str) {
    assert!(!step.is_empty(), "{what}: empty step");
    let shown = text(step);
    for (c, d) in step.eliminated() {
        assert_ne!(
            sol.digit(c),
            Some(d),
            "{what}: {shown} removes the solution's {c}={d}"
        );
    }
    if let Some((c, d)) = step.placement {
        assert_eq!(
            sol.digit(c),
            Some(d),
            "{what}: {shown} places a wrong digit"
        );
    }
}

fn run(case: &Case, scratch: &mut ChainScratch) {
    let b = board(case.marks);
    let sol = solution(case.puzzle);
    // The board is a state of that puzzle: the solution's digits are all still there.
    for c in sudoku_batch::core::index::Cell::all() {
        let d = sol.digit(c).expect("solved");
        assert!(
            b.value(c) == Some(d) || b.candidates(c).contains(d),
            "{}: {c}",
            case.name
        );
    }
    // Negative: SE tries the earlier chaining levels first, and they find nothing here
    // (not checked for the "direct" cases: levels 3 and 4 asked on a board where SE stops
    // at level 2, to check them on a board small enough for a test).
    let direct = case.name.ends_with("_direct");
    for &l in ChainLevel::ORDER
        .iter()
        .take_while(|&&l| l != case.level && !direct)
    {
        if let Some(s) = find(&b, l, scratch) {
            panic!(
                "{}: level {l:?} should find nothing, found {}",
                case.name,
                text(&s)
            );
        }
    }
    // Positive: the level finds SE's step.
    let step =
        find(&b, case.level, scratch).unwrap_or_else(|| panic!("{}: nothing found", case.name));
    let shown = text(&step);
    assert_eq!(step.technique, case.technique, "{}: {shown}", case.name);
    assert_eq!(step.difficulty, case.rating, "{}: {shown}", case.name);
    assert_eq!(shown, case.text, "{}", case.name);
    if let Some(er) = case.se_er {
        assert_eq!(step.difficulty, er, "{}: SE's ER", case.name);
    }
    check_against(&step, &sol, case.name);
    // Applying it changes the board.
    assert!(b.changed_by(&step), "{}", case.name);
}

const CASES: &[Case] = &[
    Case {
        name: "x_cycle",
        puzzle: ".3....52.82.6...177..2.........1.26....3.5....97.2.........9..636...7.92.75....8.",
        marks: "16 3 16 9 7 48 5 2 48 8 2 4 6 5 3 9 1 7 7 5 9 2 48 1 6 34 348 5 48 3 7 1 48 2 6 9 26 148 26 3 9 5 48 7 14 14 9 7 48 2 6 1348 34 5 24 14 28 18 3 9 7 5 6 3 6 18 5 48 7 14 9 2 9 7 5 14 6 2 34 8 134",
        level: ChainLevel::Cycles,
        technique: Technique::XCycle,
        rating: 65,
        text: "Bidirectional X-cycle (length 6): r3c9<>4, r6c1<>4, r6c7<>4",
        se_er: Some(65),
    },
    Case {
        name: "y_cycle",
        puzzle: ".....25......54.27...87..9.67....2..42.....53..5....14.1..68...36.92......21.....",
        marks: "178 348 4678 36 9 2 5 34 18 189 389 689 36 5 4 18 2 7 2 5 34 8 7 1 34 9 6 6 7 13 45 134 35 2 8 9 4 2 18 7 18 9 6 5 3 89 389 5 2 38 6 7 1 4 579 1 479 45 6 8 39 37 2 3 6 78 9 2 57 148 47 158 5789 49 2 1 34 357 89 6 58",
        level: ChainLevel::Cycles,
        technique: Technique::YCycle,
        rating: 67,
        text: "Bidirectional Y-cycle (length 10): r1c3<>8, r2c3<>8, r4c5<>3, r8c8<>7, r9c6<>5",
        se_er: Some(67),
    },
    Case {
        name: "forcing_x_chain",
        puzzle: "..1.37.2.6..2.1.....3...8.172.4.6.9.4.......7.3.9.2.483.2...4.....3.4..2.5.72.6..",
        marks: "58 4 1 58 3 7 9 2 6 6 89 5789 2 589 1 357 35 4 2 79 3 6 4 59 8 57 1 7 2 58 4 158 6 13 9 35 4 189 589 158 158 3 2 6 7 15 3 6 9 7 2 15 4 8 3 1678 2 15 156 589 4 1578 59 189 168 78 3 1569 4 57 158 2 189 5 4 7 2 89 6 138 39",
        level: ChainLevel::Cycles,
        technique: Technique::ForcingXChain,
        rating: 66,
        text: "Forcing X-chain (length 6): r2c7<>5",
        se_er: Some(66),
    },
    Case {
        name: "forcing_chain",
        puzzle: "..4..673.7.2..4....9..7...51...5......6.8.1......1...94...2..6....7..5.1.713..2..",
        marks: "58 158 4 1258 9 6 7 3 28 7 1568 2 158 3 4 9 18 68 368 9 38 128 7 128 468 1248 5 1 2348 3789 2469 5 2379 468 2478 23468 2359 2345 6 249 8 2379 1 2457 234 2358 23458 3578 246 1 237 468 24578 9 4 58 589 189 2 1589 3 6 7 23689 2368 389 7 46 89 5 489 1 5689 7 1 3 46 589 2 489 48",
        level: ChainLevel::Cycles,
        technique: Technique::ForcingChain,
        rating: 72,
        text: "Forcing chain (length 10): r8c5<>6; r8c5=4",
        se_er: Some(72),
    },
    Case {
        name: "xy_cycle",
        puzzle: "...269...4...7...3.6.....2..........73.....588.65.71.9.136.478...4.3.5...8..5..9.",
        marks: "3 57 1578 2 6 9 48 47 157 4 259 12589 18 7 158 689 16 3 19 6 15789 34 148 1358 89 2 157 129 2459 1259 349 1248 1368 246 47 67 7 3 129 49 124 16 246 5 8 8 24 6 5 24 7 1 3 9 5 1 3 6 9 4 7 8 2 29 279 4 78 3 28 5 16 16 6 8 27 17 5 12 3 9 4",
        level: ChainLevel::Cycles,
        technique: Technique::BidirectionalCycle,
        rating: 70,
        text: "Bidirectional cycle (length 6): r1c3<>5, r1c3<>7",
        se_er: Some(70),
    },
    Case {
        name: "nishio",
        puzzle: "..37..4.82.......5..9.5..1...2.3...4.9.876.3.8...2.9...4..6.8..9.......11.8..53..",
        marks: "56 156 3 7 19 29 4 269 8 2 178 147 3469 1489 3489 67 679 5 467 78 9 246 5 248 267 1 3 567 1567 2 159 3 19 1567 8 4 45 9 145 8 7 6 15 3 2 8 3 1567 145 2 14 9 567 67 3 4 57 129 6 1279 8 257 79 9 2567 567 234 48 3478 257 2457 1 1 27 8 249 49 5 3 2467 679",
        level: ChainLevel::Nishio,
        technique: Technique::NishioForcingChain,
        rating: 79,
        text: "Nishio forcing chain (length 15): r8c7<>7",
        se_er: Some(79),
    },
    Case {
        name: "cell_forcing_chains",
        puzzle: "..7.6...4...9..1.......57.8.592...7...3...4...4...192.3.46.......8..9...7...3.6..",
        marks: "59 1238 7 138 6 238 235 359 4 45 2368 25 9 278 478 1 356 2356 469 1236 12 134 124 5 7 369 8 1 5 9 2 48 3468 38 7 36 2 7 3 58 9 68 4 1568 156 8 4 6 357 57 1 9 2 35 3 129 4 6 12578 278 258 158 12579 56 126 8 1457 12457 9 235 134 1237 7 129 125 458 3 248 6 1458 129",
        level: ChainLevel::Multiple,
        technique: Technique::CellForcingChain,
        rating: 86,
        text: "Cell forcing chains (length 28): r2c1<>5; r2c1=4",
        se_er: Some(86),
    },
    Case {
        name: "region_forcing_chains",
        puzzle: "23.....4..5..9..12..16..5.....1..4...14.6.29...8..9.....2..57..19..2..5..8.....21",
        marks: "2 3 679 578 578 1 689 4 6789 678 5 67 3478 9 3478 368 1 2 4789 47 1 6 378 2 5 378 3789 3569 2 3569 1 3578 378 4 3678 35678 357 1 4 3578 6 378 2 9 3578 3567 67 8 2 4 9 1 367 35 346 46 2 3489 1 5 7 368 34689 1 9 37 3478 2 34678 368 5 346 34567 8 357 3479 37 3467 369 2 1",
        level: ChainLevel::Multiple,
        technique: Technique::RegionForcingChain,
        rating: 87,
        text: "Region forcing chains (length 38): r9c7<>3",
        se_er: Some(87),
    },
    Case {
        name: "dynamic",
        puzzle: "..............1..2.34....5.....3..46....5....2.....1....5....3.1..2.....7.86.....",
        marks: "689 1 2 5 6789 4 3 789 789 5 78 79 3 89 1 4 6 2 689 3 4 789 2 67 789 5 1 89 78 17 179 3 2 5 4 6 3 4 16 18 5 689 789 2 789 2 5 679 4 67 6789 1 89 3 4 26 5 789 1 789 26 3 789 1 69 3 2 789 5 6789 789 4 7 29 8 6 4 3 29 1 5",
        level: ChainLevel::Dynamic,
        technique: Technique::DynamicForcingChain,
        rating: 89,
        text: "Dynamic forcing chains (length 15): r1c5<>8",
        se_er: None,
    },
    Case {
        name: "dynamic_plus",
        puzzle: "...............123..4..5...........6.1..3...78..5..........845..2..1.....3.....8.",
        marks: "12 8 12 679 679 3 679 4 5 679 5 679 8 4 679 1 2 3 3 679 4 1 2 5 679 67 8 279 4 2379 279 8 1279 5 13 6 26 1 5 246 3 246 8 9 7 8 679 3679 5 679 1679 2 13 4 1679 679 179 3 679 8 4 5 2 5 2 8 467 1 467 3 67 9 4 3 679 2679 5 2679 67 8 1",
        level: ChainLevel::Nested(1),
        technique: Technique::DynamicForcingChainPlus,
        rating: 95,
        text: "Dynamic forcing chains (+) (length 22): r2c6<>6",
        se_er: None,
    },
];

const NESTED: &[Case] = &[
    Case {
        name: "nested_level_2",
        puzzle: "..............1..2....3.45......4.....3....1..6.2.......1.5.....2.7..6...4.8..2..",
        marks: "45789 5789 678 459 2 578 1 6789 3 4578 3 5678 459 789 1 789 6789 2 789 1 2 6 3 78 4 5 789 5789 59 5789 1 789 4 3 2 6 2 789 3 59 6 578 789 1 4 1 6 4 2 789 3 5 789 789 6 789 1 3 5 2 789 4 789 358 2 58 7 4 9 6 38 1 37 4 79 8 1 6 2 379 5",
        level: ChainLevel::Nested(2),
        technique: Technique::NestedForcingChain2,
        rating: 101,
        text: "Nested forcing chains (+ forcing chains) (length 31): r1c8<>7",
        se_er: None,
    },
    Case {
        name: "nested_level_3_direct",
        puzzle: "..............1..2....3.45......4.....3....1..6.2.......1.5.....2.7..6...4.8..2..",
        marks: "45789 5789 678 459 2 578 1 6789 3 4578 3 5678 459 789 1 789 6789 2 789 1 2 6 3 78 4 5 789 5789 59 5789 1 789 4 3 2 6 2 789 3 59 6 578 789 1 4 1 6 4 2 789 3 5 789 789 6 789 1 3 5 2 789 4 789 358 2 58 7 4 9 6 38 1 37 4 79 8 1 6 2 379 5",
        level: ChainLevel::Nested(3),
        technique: Technique::NestedForcingChain3,
        rating: 106,
        text: "Nested forcing chains (+ multiple forcing chains) (length 31): r1c8<>7",
        se_er: None,
    },
    Case {
        name: "nested_level_4_direct",
        puzzle: "..............1..2....3.45......4.....3....1..6.2.......1.5.....2.7..6...4.8..2..",
        marks: "45789 5789 678 459 2 578 1 6789 3 4578 3 5678 459 789 1 789 6789 2 789 1 2 6 3 78 4 5 789 5789 59 5789 1 789 4 3 2 6 2 789 3 59 6 578 789 1 4 1 6 4 2 789 3 5 789 789 6 789 1 3 5 2 789 4 789 358 2 58 7 4 9 6 38 1 37 4 79 8 1 6 2 379 5",
        level: ChainLevel::Nested(4),
        technique: Technique::NestedForcingChain4,
        rating: 110,
        text: "Nested forcing chains (+ dynamic forcing chains) (length 25): r1c2<>9",
        se_er: None,
    },
];

#[test]
fn cycles_forcing_nishio_multiple_and_dynamic_chains_match_sudoku_explainer() {
    let mut scratch = ChainScratch::new();
    for case in CASES {
        run(case, &mut scratch);
    }
}

#[test]
fn nested_forcing_chains_match_sudoku_explainer() {
    let mut scratch = ChainScratch::new();
    for case in NESTED {
        run(case, &mut scratch);
    }
}

#[test]
fn a_solved_board_has_no_chaining_step() {
    let sol = solution(CASES[0].puzzle);
    let b = Board::from_grid(geometry::classic(), &sol);
    let mut scratch = ChainScratch::new();
    for l in ChainLevel::ORDER {
        assert!(find(&b, l, &mut scratch).is_none(), "{l:?}");
    }
}

#[test]
fn the_first_level_prefers_the_easiest_kind() {
    // On the X-cycle board, every other level finds a (harder) step too; the first level
    // returns the 6.5 cycle, not a forcing chain, and a harder level never rates lower.
    let case = &CASES[0];
    let b = board(case.marks);
    let sol = solution(case.puzzle);
    let mut scratch = ChainScratch::new();
    let mut last = 0;
    for l in ChainLevel::ORDER.iter().take(5) {
        let s = find(&b, *l, &mut scratch).expect("a step at every level");
        check_against(&s, &sol, &format!("{l:?}"));
        assert!(s.difficulty >= l.base_rating(), "{l:?}: {}", text(&s));
        assert!(s.difficulty >= last, "{l:?}: {}", text(&s));
        last = s.difficulty;
    }
}

#[test]
fn a_budget_too_small_stops_the_search() {
    let case = CASES.iter().find(|c| c.name == "dynamic").expect("case");
    let b = board(case.marks);
    let mut scratch = ChainScratch::new();
    let mut step = Step::default();
    let mut budget = Budget::new(100);
    assert!(!chains::find(
        geometry::classic(),
        &b,
        ChainLevel::Dynamic,
        &mut scratch,
        &mut budget,
        &mut step
    ));
    assert!(budget.exhausted());
    // The same scratch then finds the step with enough budget.
    assert_eq!(
        find(&b, ChainLevel::Dynamic, &mut scratch).map(|s| text(&s)),
        Some(case.text.to_string())
    );
}
