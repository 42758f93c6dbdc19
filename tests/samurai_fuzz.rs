//! Samurai robustness: the parsers, the solver and the grader never panic, whatever the
//! input, and what they report stays consistent.

use proptest::prelude::*;

use sudoku_batch::core::geometry::{self, S369};
use sudoku_batch::core::grader::{Grader, Rating};
use sudoku_batch::core::samurai::format::{self, SamuraiForm};
use sudoku_batch::core::samurai::{SamuraiGrid, SamuraiSolver};

/// Bytes that look like samurai records: mostly cells, some gaps, separators and noise.
fn record_byte() -> impl Strategy<Value = u8> {
    prop_oneof![
        8 => prop::sample::select(b"123456789.0".to_vec()),
        2 => Just(b' '),
        1 => prop::sample::select(b"x#;,\t\r-_*|".to_vec()),
        1 => any::<u8>(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn parsers_never_panic_and_locate_their_errors(
        lines in prop::collection::vec(prop::collection::vec(record_byte(), 0..420), 0..24)
    ) {
        let lines: Vec<&[u8]> = lines.iter().map(|l| l.as_slice()).collect();
        for form in [SamuraiForm::Line, SamuraiForm::FiveLines, SamuraiForm::Block] {
            match format::parse_record(form, &lines) {
                Ok((g, tail)) => {
                    prop_assert!(g.check_givens().is_ok());
                    prop_assert!(tail <= lines.first().map_or(0, |l| l.len()));
                }
                Err(e) => {
                    prop_assert!(e.line <= lines.len());
                    prop_assert!(e.col >= 1);
                    prop_assert!(!e.to_string().is_empty());
                }
            }
        }
        if let Some(first) = lines.first() {
            let _ = SamuraiForm::detect(first);
        }
    }

    #[test]
    fn solver_and_grader_handle_any_givens(
        cells in prop::collection::vec((0usize..369, 1u8..=9), 0..60)
    ) {
        let mut v = [0u8; 369];
        for &(c, d) in &cells {
            v[c] = d;
        }
        let g = SamuraiGrid::from_values(v).expect("digits 0-9");
        let mut s = SamuraiSolver::new();
        let out = s.solve(&g, 2);
        prop_assert!(out.count <= 2);
        if out.count > 0 {
            prop_assert!(out.solution.is_solution_of(&g));
        }
        if g.check_givens().is_err() {
            prop_assert_eq!(out.count, 0);
        }
        // The grader stops, whatever the puzzle (it is meant for unique ones), within a
        // small budget.
        let mut r = Rating::default();
        let mut grader: Grader<S369> = Grader::new();
        grader.rate_values(geometry::samurai(), g.values(), None, 20_000, &mut r);
        prop_assert!(r.work <= 20_000 + 100_000);
        prop_assert!(r.ed <= r.er || !r.complete);
    }
}
