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

use super::unchanged::Scope;
use super::{Board, Step, Technique};
use crate::core::geometry::{CellBits, Geometry, Size};
use crate::core::index::Digit;

/// Pointing or claiming (`direct == false`), or direct pointing or direct claiming
/// (`direct == true`): the first in SE's order.
///
/// The pairs of houses come from the geometry's locking groups: on the classic grid SE's
/// four kinds of pairs; other shapes add the pairs of their extra houses (a diagonal or a
/// window with a box, two lines of different Samurai grids sharing a box). A step whose
/// first house is a block (box, region, window) is pointing, else claiming. Only the
/// digits whose plane `scope` says changed are searched (nothing else is read), and of
/// those only the runs with a change of the digit where a new hint needs one: in the
/// first house for plain locking, anywhere in the cells the pairs read
/// ([`Geometry::lock_runs_reading`]) for the direct forms.
pub fn find_locked_candidates<S: Size>(
    g: &Geometry<S>,
    board: &Board<S>,
    direct: bool,
    scope: &Scope<S>,
    step: &mut Step<S>,
) -> bool {
    for (runs, reads) in g.lock_runs_reading() {
        if runs.is_empty() {
            continue;
        }
        for d in Digit::all() {
            if !scope.has_digit(d) {
                continue;
            }
            let plane = board.plane(d);
            // The pairs of a run share their first house: its places are worked out once.
            for (run, &read) in runs.iter().zip(reads) {
                let h1 = run.first;
                let house1 = g.house(h1 as usize);
                let r1 = house1.set;
                // Plain locking reads only the first house for what is new: a pair that
                // found nothing before had the digit's places there outside the second
                // house, or fewer than two, or nothing to remove; the last two only get
                // truer as candidates go, so only a change of those places makes it find
                // something. The direct forms also read the third houses (their single).
                if !scope.touches_digit(d, if direct { read } else { r1 }) {
                    continue;
                }
                let pos = plane & r1;
                if pos.len() < 2 {
                    continue;
                }
                for &(_, h2) in g.lock_run_pairs(run) {
                    let c2 = g.house_set(h2 as usize);
                    if !(pos - c2).is_empty() {
                        continue;
                    }
                    let pointing = house1.kind.is_block();
                    if direct {
                        // SE `lookForFollowingHiddenSingles`: another house of the first
                        // kind, crossing the second house where it loses the digit, left
                        // with one place. The digit leaves `c2 - r1`: on the classic grid
                        // houses of one kind are disjoint, so that is all of `c2` within the
                        // third house; on Samurai a row of one grid may share cells with a
                        // row of another, and those keep the digit.
                        let gone = c2 - r1;
                        // A third house left with one place loses one there: without a
                        // place of the digit in `gone`, none is.
                        let lost = plane & gone;
                        if lost.is_empty() {
                            continue;
                        }
                        for &h3 in g.houses_of_kind(house1.kind) {
                            if h3 == h1 {
                                continue;
                            }
                            let c3 = g.house_set(h3 as usize);
                            if (c3 & lost).is_empty() {
                                continue;
                            }
                            let p3 = plane & c3;
                            if p3.len() < 2 {
                                continue;
                            }
                            let rest = p3 - gone;
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
                                fill(step, pos, d, h1 as usize, h2 as usize);
                                step.base.insert(h3 as usize);
                                return true;
                            }
                        }
                    } else {
                        let elim = (plane & c2) - r1;
                        if elim.is_empty() {
                            continue;
                        }
                        step.reset(if pointing {
                            Technique::Pointing
                        } else {
                            Technique::Claiming
                        });
                        step.eliminations[d.index()] = elim;
                        fill(step, pos, d, h1 as usize, h2 as usize);
                        return true;
                    }
                }
            }
        }
    }
    false
}

fn fill<S: Size>(step: &mut Step<S>, pos: S::Set, d: Digit, r1: usize, r2: usize) {
    step.cells = pos;
    step.digits.insert(d);
    step.base.insert(r1);
    step.cover.insert(r2);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::index::{Cell, Digit, House};
    use crate::core::logic::testutil::{board_with, cg, elims};

    #[test]
    fn a_search_of_what_changed_finds_what_a_full_search_finds() {
        // Along paths of boards (each step applied, random candidates thinned where
        // nothing is found), on the classic, X and Windoku grids: the search given what
        // changed since the last board where it found nothing finds the full search's
        // step, for both forms.
        use super::super::unchanged::Since;
        use crate::core::logic::testutil::{random_minimal, thinned};
        use rand::SeedableRng;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(24);
        let (mut compared, mut skipped_found) = (0, 0);
        for g in [
            cg(),
            crate::core::geometry::x(),
            crate::core::geometry::windoku(),
        ] {
            for (_, start) in random_minimal(30) {
                for direct in [true, false] {
                    let mut board = start;
                    let mut since = Since::default();
                    for _ in 0..60 {
                        let (mut full, mut scoped) = (Step::default(), Step::default());
                        let everything = Scope::everything(g);
                        let found =
                            find_locked_candidates(g, &board, direct, &everything, &mut full);
                        let scope = since.scope(g, &board);
                        let got = find_locked_candidates(g, &board, direct, &scope, &mut scoped);
                        assert_eq!(got, found);
                        compared += 1;
                        if found {
                            assert_eq!(scoped, full);
                            skipped_found += usize::from(scope.cells != g.all_cells());
                            board.apply(g, &full);
                        } else {
                            since.record(&board);
                            board = thinned(&board, 3, &mut rng);
                        }
                        if board.is_solved() {
                            break;
                        }
                    }
                }
            }
        }
        // Steps found by a search that skipped part of the board.
        assert!(skipped_found > 300, "{skipped_found} of {compared}");
    }

    #[test]
    fn pointing_removes_from_the_line() {
        // 4 removed from box 1 outside row 2: box 1's 4s lie in r2c1..r2c3.
        let mut b = Board::EMPTY;
        for c in [0, 1, 2] {
            b.eliminate(Cell::at(0, c), Digit::new(4));
            b.eliminate(Cell::at(2, c), Digit::new(4));
        }
        let mut s = Step::default();
        assert!(find_locked_candidates(
            cg(),
            &b,
            false,
            &Scope::everything(cg()),
            &mut s
        ));
        assert_eq!(s.technique, Technique::Pointing);
        assert_eq!(s.difficulty, 26);
        assert_eq!(
            elims(&s),
            [
                "r2c4<>4", "r2c5<>4", "r2c6<>4", "r2c7<>4", "r2c8<>4", "r2c9<>4"
            ]
        );
        assert!(
            s.base.contains(House::boxed(0).index()) && s.cover.contains(House::row(1).index())
        );
        // Not direct: box 2 and box 3 keep many places after the removal.
        assert!(!find_locked_candidates(
            cg(),
            &b,
            true,
            &Scope::everything(cg()),
            &mut s
        ));
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
        assert!(find_locked_candidates(
            cg(),
            &b,
            false,
            &Scope::everything(cg()),
            &mut s
        ));
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
        assert!(find_locked_candidates(
            cg(),
            &b,
            true,
            &Scope::everything(cg()),
            &mut s
        ));
        assert_eq!(s.technique, Technique::DirectPointing);
        assert_eq!(s.difficulty, 17);
        assert_eq!(s.placement, Some((Cell::at(4, 1), two)));
        // Like SE, the direct hint places the single and removes nothing.
        assert!(elims(&s).is_empty());
        assert!(s.cover.contains(House::column(0).index()));
    }

    #[test]
    fn nothing_on_an_empty_board() {
        let mut s = Step::default();
        assert!(!find_locked_candidates(
            cg(),
            &Board::EMPTY,
            false,
            &Scope::everything(cg()),
            &mut s
        ));
        assert!(!find_locked_candidates(
            cg(),
            &Board::EMPTY,
            true,
            &Scope::everything(cg()),
            &mut s
        ));
    }
}
