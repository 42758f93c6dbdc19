//! The grader on arbitrary grids (contradictory, unsolvable, with many solutions): it must
//! end, within its budget, without panicking.

use proptest::prelude::*;
use sudoku_batch::core::Grid;
use sudoku_batch::core::grader::{Grader, Outcome, Rating};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn any_grid_ends_without_panic(cells in proptest::collection::vec(0u8..=9, 81), keep in 0u8..10) {
        // Keep about keep/10 of the random digits.
        let mut values = [0u8; 81];
        for (i, &v) in cells.iter().enumerate() {
            if (i as u8).wrapping_mul(7).wrapping_add(v) % 10 < keep {
                values[i] = v;
            }
        }
        let g = Grid::from_values(values).unwrap();
        let mut grader = Grader::new();
        let mut r = Rating::default();
        grader.rate(&g, None, 200_000, &mut r);
        prop_assert!(r.work <= 200_000 + 10_000);
        if g.check_givens().is_err() {
            prop_assert_eq!(r.outcome, Outcome::Invalid);
        }
        if r.complete {
            prop_assert!(r.ed <= r.ep && r.ep <= r.er);
        }
    }
}
