//! Locked candidates (intersections): pointing and claiming, and their "direct" forms.
//!
//! When all candidates of a digit in one house lie in a second house that crosses it, the
//! digit can be removed from the rest of the second house. A box locking the digit onto a
//! line is *pointing* (2.6), a line locking it into a box is *claiming* (2.8).
//!
//! The *direct* forms (Sudoku Explainer's `Locking(true)` and `DirectLockingHint`) count
//! only when the removal leaves a hidden single in another house of the first house's kind
//! crossing the second house; the step then places that single (and only that: SE's
//! `DirectLockingHint` carries no eliminations, so none are applied): direct pointing 1.7,
//! direct claiming 1.9.
//!
//! Search order (SE `Locking`, as in SukakuExplainer): house kinds (box, column), (box, row),
//! (column, box), (row, box); then digits 1-9; then the first house, then the second.

use super::{Board, Step, Technique};
use crate::core::index::{House, HouseKind};

/// The four (first, second) house-kind pairs in SE's order.
const PAIRS: [(HouseKind, HouseKind); 4] = [
    (HouseKind::Box, HouseKind::Column),
    (HouseKind::Box, HouseKind::Row),
    (HouseKind::Column, HouseKind::Box),
    (HouseKind::Row, HouseKind::Box),
];

#[inline]
fn house(kind: HouseKind, i: u8) -> House {
    match kind {
        HouseKind::Row => House::row(i),
        HouseKind::Column => House::column(i),
        _ => House::boxed(i),
    }
}

/// Pointing or claiming (`direct == false`), or direct pointing or direct claiming
/// (`direct == true`): the first in SE's order.
pub fn find_locked_candidates(board: &Board, direct: bool, step: &mut Step) -> bool {
    for (k1, k2) in PAIRS {
        for d in crate::core::index::Digit::all() {
            let plane = board.plane(d);
            for i1 in 0..9 {
                let r1 = house(k1, i1);
                let pos = plane & r1.cell_set();
                if pos.len() < 2 {
                    continue;
                }
                for i2 in 0..9 {
                    let r2 = house(k2, i2);
                    let c2 = r2.cell_set();
                    if (r1.cell_set() & c2).is_empty() || !(pos - c2).is_empty() {
                        continue;
                    }
                    let elim = (plane & c2) - r1.cell_set();
                    let pointing = k1 == HouseKind::Box;
                    if direct {
                        // SE `lookForFollowingHiddenSingles`: another house of the first
                        // kind, crossing the second house, left with one place.
                        for i3 in (0..9).filter(|&i| i != i1) {
                            let r3 = house(k1, i3);
                            let c3 = r3.cell_set();
                            if (c3 & c2).is_empty() {
                                continue;
                            }
                            let p3 = plane & c3;
                            if p3.len() < 2 {
                                continue;
                            }
                            let rest = p3 - c2;
                            if rest.len() == 1 {
                                let Some(hc) = rest.first() else { continue };
                                step.reset(if pointing {
                                    Technique::DirectPointing
                                } else {
                                    Technique::DirectClaiming
                                });
                                // SE's `DirectLockingHint` passes an empty map of
                                // removable candidates: only the single is placed.
                                step.placement = Some((hc, d));
                                fill(step, pos, d, r1, r2);
                                step.base.insert(r3);
                                return true;
                            }
                        }
                    } else if !elim.is_empty() {
                        step.reset(if pointing {
                            Technique::Pointing
                        } else {
                            Technique::Claiming
                        });
                        step.eliminations[d.index()] = elim;
                        fill(step, pos, d, r1, r2);
                        return true;
                    }
                }
            }
        }
    }
    false
}

fn fill(
    step: &mut Step,
    pos: crate::core::bitboard::CellSet,
    d: crate::core::index::Digit,
    r1: House,
    r2: House,
) {
    step.cells = pos;
    step.digits.insert(d);
    step.base.insert(r1);
    step.cover.insert(r2);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::index::{Cell, Digit};
    use crate::core::logic::testutil::{board_with, elims};

    #[test]
    fn pointing_removes_from_the_line() {
        // 4 removed from box 1 outside row 2: box 1's 4s lie in r2c1..r2c3.
        let mut b = Board::EMPTY;
        for c in [0, 1, 2] {
            b.eliminate(Cell::at(0, c), Digit::new(4));
            b.eliminate(Cell::at(2, c), Digit::new(4));
        }
        let mut s = Step::default();
        assert!(find_locked_candidates(&b, false, &mut s));
        assert_eq!(s.technique, Technique::Pointing);
        assert_eq!(s.difficulty, 26);
        assert_eq!(
            elims(&s),
            [
                "r2c4<>4", "r2c5<>4", "r2c6<>4", "r2c7<>4", "r2c8<>4", "r2c9<>4"
            ]
        );
        assert!(s.base.contains(House::boxed(0)) && s.cover.contains(House::row(1)));
        // Not direct: box 2 and box 3 keep many places after the removal.
        assert!(!find_locked_candidates(&b, true, &mut s));
    }

    #[test]
    fn claiming_removes_from_the_box() {
        // Row 1's 6s only in box 3 (c7..c9); box 3 has other 6s in rows 2, 3.
        let mut b = Board::EMPTY;
        for c in 0..6 {
            b.eliminate(Cell::at(0, c), Digit::new(6));
        }
        // Make sure no pointing comes first: boxes 1 and 2 still have 6 in rows 2, 3.
        let mut s = Step::default();
        assert!(find_locked_candidates(&b, false, &mut s));
        assert_eq!(s.technique, Technique::Claiming);
        assert_eq!(s.difficulty, 28);
        assert_eq!(
            elims(&s),
            [
                "r2c7<>6", "r2c8<>6", "r2c9<>6", "r3c7<>6", "r3c8<>6", "r3c9<>6"
            ]
        );
    }

    #[test]
    fn direct_pointing_places_the_single() {
        // Box 1's 2s in column 1 only (r1c1, r2c1); box 4 keeps 2 only in r4c1 and r5c2.
        let mut b = board_with(&[]);
        let two = Digit::new(2);
        for r in 0..3 {
            for c in 1..3 {
                b.eliminate(Cell::at(r, c), two);
            }
        }
        b.eliminate(Cell::at(2, 0), two);
        for (r, c) in [(3, 1), (3, 2), (4, 0), (4, 2), (5, 0), (5, 1), (5, 2)] {
            b.eliminate(Cell::at(r, c), two);
        }
        let mut s = Step::default();
        assert!(find_locked_candidates(&b, true, &mut s));
        assert_eq!(s.technique, Technique::DirectPointing);
        assert_eq!(s.difficulty, 17);
        assert_eq!(s.placement, Some((Cell::at(4, 1), two)));
        // Like SE, the direct hint places the single and removes nothing.
        assert!(elims(&s).is_empty());
        assert!(s.cover.contains(House::column(0)));
    }

    #[test]
    fn nothing_on_an_empty_board() {
        let mut s = Step::default();
        assert!(!find_locked_candidates(&Board::EMPTY, false, &mut s));
        assert!(!find_locked_candidates(&Board::EMPTY, true, &mut s));
    }
}
