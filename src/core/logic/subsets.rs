//! Naked and hidden subsets (pairs, triples, quads), and the direct hidden pair and triple.
//!
//! *Naked subset*: `n` cells of a house whose candidates, together, are `n` digits; those
//! digits leave the other cells of the house (naked pair 3.0, triple 3.6, quad 5.0).
//! *Hidden subset*: `n` digits whose places in a house are `n` cells; those cells lose their
//! other candidates (hidden pair 3.4, triple 4.0, quad 5.4). A *direct* hidden pair or
//! triple (2.0, 2.5) counts only when the removal leaves a hidden single of another digit
//! in the same house; the step places that single and, as SE's `DirectHiddenSetHint`
//! (which carries no removable candidates), removes nothing else.
//!
//! As in Sudoku Explainer (`NakedSet`, `HiddenSet`, `CommonTuples.searchCommonTuple`): houses
//! in the order boxes, columns, rows; a naked subset is searched only in houses with at
//! least `2n` empty cells, a hidden subset only in houses with more than `2n` (direct: more
//! than `n`); every member must have at least two candidates (or places); tuples are tried
//! in the order of SE's `Permutations`. Eliminations stay inside the house where the subset
//! was found, even when its cells share a second house.

use super::unchanged::Scope;
use super::{Board, Step, Technique, bit_positions, subsets_of};
use crate::core::bitboard::DigitSet;
use crate::core::geometry::{CellBits, Geometry, HouseDef, Size};
use crate::core::index::Digit;

/// The digits (a mask, bit `d` for digit index `d`) with 2 to `degree` (at most 4) places
/// in house `h`, counted in one pass over its cells: `at_least[k]` holds the digits seen in
/// more than `k` cells so far.
fn digits_with_places<S: Size>(board: &Board<S>, h: &HouseDef<S>, degree: u32) -> u16 {
    match degree {
        2 => counted::<S, 2>(board, h),
        3 => counted::<S, 3>(board, h),
        _ => counted::<S, 4>(board, h),
    }
}

/// [`digits_with_places`] for a fixed degree `D` (the counting loop unrolled).
#[inline(always)]
fn counted<S: Size, const D: usize>(board: &Board<S>, h: &HouseDef<S>) -> u16 {
    let mut at_least = [0u16; 5];
    for &c in &h.cells {
        let m = board.candidates(c).bits();
        for k in (1..=D).rev() {
            at_least[k] |= at_least[k - 1] & m;
        }
        at_least[0] |= m;
    }
    at_least[1] & !at_least[D]
}

/// The first naked subset of size `degree` (2..=4) that removes something, in the houses
/// with a cell `scope` says changed (a subset reads nothing outside its house).
pub fn find_naked_subset<S: Size>(
    g: &Geometry<S>,
    board: &Board<S>,
    degree: u32,
    scope: &Scope<S>,
    step: &mut Step<S>,
) -> bool {
    for &hi in g.order_bcr() {
        let h = g.house(hi as usize);
        if !scope.touches(h.set) || board.empty_in(h.set) < 2 * degree {
            continue;
        }
        let cand = h.cells.map(|c| board.candidates(c));
        // A member needs 2..=degree candidates (SE `searchCommonTuple`: more than one, and
        // the union has `degree`); other tuples cannot succeed, so skipping them keeps SE's
        // order among the rest.
        let mut allowed = 0u16;
        for (i, c) in cand.iter().enumerate() {
            if (2..=degree).contains(&c.len()) {
                allowed |= 1 << i;
            }
        }
        if allowed.count_ones() < degree {
            continue;
        }
        for mask in subsets_of(allowed, degree) {
            let mut union = DigitSet::EMPTY;
            let mut members = S::Set::EMPTY;
            for i in bit_positions(mask) {
                union |= cand[i];
                members.insert(h.cells[i]);
            }
            if union.len() != degree {
                continue;
            }
            let others = h.set - members;
            let mut elim = [S::Set::EMPTY; 9];
            let mut any = false;
            for d in union {
                let e = board.plane(d) & others;
                any |= !e.is_empty();
                elim[d.index()] = e;
            }
            if !any {
                continue;
            }
            step.reset(match degree {
                2 => Technique::NakedPair,
                3 => Technique::NakedTriple,
                _ => Technique::NakedQuad,
            });
            fill(step, elim, members, union, hi as usize);
            return true;
        }
    }
    false
}

/// The first hidden subset of size `degree` (2..=4) that removes something; with
/// `direct`, the first direct hidden subset (only 2 and 3 are used by SE). Only the houses
/// with a cell `scope` says changed are searched.
pub fn find_hidden_subset<S: Size>(
    g: &Geometry<S>,
    board: &Board<S>,
    degree: u32,
    direct: bool,
    scope: &Scope<S>,
    step: &mut Step<S>,
) -> bool {
    for &hi in g.order_bcr() {
        let h = g.house(hi as usize);
        if !scope.touches(h.set) {
            continue;
        }
        let n_empty = board.empty_in(h.set);
        if !(n_empty > 2 * degree || (direct && n_empty > degree)) {
            continue;
        }
        // A member needs 2..=degree places; a house with too few such digits is done
        // before its places are listed.
        let allowed = digits_with_places(board, h, degree);
        if allowed.count_ones() < degree {
            continue;
        }
        // Each digit's places in the house, as cells.
        let places: [S::Set; 9] =
            std::array::from_fn(|d| board.plane(Digit::from_index(d)) & h.set);
        for mask in subsets_of(allowed, degree) {
            let mut common = S::Set::EMPTY;
            let mut values = DigitSet::EMPTY;
            for d in bit_positions(mask) {
                common |= places[d];
                values.insert(Digit::from_index(d));
            }
            if common.len() != degree {
                continue;
            }
            if direct {
                // SE `HiddenSet.createHiddenSetHint`, direct: a hidden single of another
                // digit in the house once the subset's cells are reserved.
                for (d, &p) in places.iter().enumerate() {
                    if mask & (1 << d) != 0 || p.len() < 2 {
                        continue;
                    }
                    let rest = p - common;
                    if rest.len() == 1 {
                        let Some(c) = rest.first() else { continue };
                        step.reset(if degree == 2 {
                            Technique::DirectHiddenPair
                        } else if degree == 3 {
                            Technique::DirectHiddenTriple
                        } else {
                            Technique::DirectHiddenQuad
                        });
                        // SE's `DirectHiddenSetHint` passes an empty map of removable
                        // candidates: only the single is placed.
                        fill(step, [S::Set::EMPTY; 9], common, values, hi as usize);
                        step.placement = Some((c, Digit::from_index(d)));
                        return true;
                    }
                }
            } else {
                // Removable: the other candidates of the subset's cells.
                let mut elim = [S::Set::EMPTY; 9];
                let mut any = false;
                for d in Digit::all() {
                    if !values.contains(d) {
                        let e = board.plane(d) & common;
                        any |= !e.is_empty();
                        elim[d.index()] = e;
                    }
                }
                if any {
                    step.reset(match degree {
                        2 => Technique::HiddenPair,
                        3 => Technique::HiddenTriple,
                        _ => Technique::HiddenQuad,
                    });
                    fill(step, elim, common, values, hi as usize);
                    return true;
                }
            }
        }
    }
    false
}

fn fill<S: Size>(step: &mut Step<S>, elim: [S::Set; 9], cells: S::Set, values: DigitSet, h: usize) {
    step.eliminations = elim;
    step.cells = cells;
    step.digits = values;
    step.base.insert(h);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::bitboard::CellSet;
    use crate::core::index::{Cell, House};
    use crate::core::logic::testutil::{board_with, cg, elims};

    // A box-free illustration: row 1 holds a naked pair {1,2} at r1c1, r1c2.
    fn pair_board() -> Board {
        let mut b = Board::EMPTY;
        for c in 0..2 {
            for d in 3..=9 {
                b.eliminate(Cell::at(0, c), Digit::new(d));
            }
        }
        b
    }

    #[test]
    fn hidden_subsets_found_are_the_first_of_a_scan_of_every_tuple() {
        // Thinned random minimal puzzles, against SE's scan written plainly: the houses in
        // order, every tuple of digits in increasing order, each digit's places counted in
        // its plane; the first hidden subset that removes something (or, direct, that
        // leaves another digit a single place in the house).
        use crate::core::logic::combinations;
        use crate::core::logic::testutil::{random_minimal, thinned};
        use rand::{RngExt, SeedableRng};
        let g = cg();
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(25);
        let mut found = [0; 2];
        for (_, board) in random_minimal(120) {
            let b = thinned(&board, rng.random_range(0..300), &mut rng);
            for degree in 2..=4u32 {
                for direct in [false, true] {
                    let mut want = None;
                    'houses: for &hi in g.order_bcr() {
                        let h = g.house(hi as usize);
                        let n_empty = b.empty_in(h.set);
                        if !(n_empty > 2 * degree || (direct && n_empty > degree)) {
                            continue;
                        }
                        let places = |d: usize| b.plane(Digit::from_index(d)) & h.set;
                        for mask in combinations(9, degree) {
                            let digits: Vec<usize> =
                                (0..9).filter(|d| mask & (1 << d) != 0).collect();
                            if digits
                                .iter()
                                .any(|&d| !(2..=degree).contains(&places(d).len()))
                            {
                                continue;
                            }
                            let cells = digits.iter().fold(CellSet::EMPTY, |a, &d| a | places(d));
                            if cells.len() != degree {
                                continue;
                            }
                            let others = (0..9).filter(|d| mask & (1 << d) == 0);
                            if direct {
                                for d in others {
                                    let rest = places(d) - cells;
                                    if places(d).len() >= 2 && rest.len() == 1 {
                                        want = Some((cells, rest.first(), d, [CellSet::EMPTY; 9]));
                                        break 'houses;
                                    }
                                }
                            } else {
                                let mut removed = [CellSet::EMPTY; 9];
                                for d in others {
                                    removed[d] = b.plane(Digit::from_index(d)) & cells;
                                }
                                if removed.iter().any(|e| !e.is_empty()) {
                                    want = Some((cells, None, 0, removed));
                                    break 'houses;
                                }
                            }
                        }
                    }
                    let mut s = Step::default();
                    let got =
                        find_hidden_subset(g, &b, degree, direct, &Scope::everything(g), &mut s);
                    assert_eq!(got, want.is_some(), "degree {degree}, direct {direct}");
                    if let Some((cells, single, d, removed)) = want {
                        assert_eq!(s.cells, cells);
                        assert_eq!(s.eliminations, removed);
                        assert_eq!(s.placement, single.map(|c| (c, Digit::from_index(d))));
                        found[usize::from(direct)] += 1;
                    }
                }
            }
        }
        assert!(found[0] > 50 && found[1] > 50, "{found:?}");
    }

    #[test]
    fn digits_with_places_are_those_whose_places_are_counted_so() {
        // Every house of thinned random minimal puzzles, against each digit's places
        // counted in its plane.
        use crate::core::logic::testutil::{random_minimal, thinned};
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(23);
        let mut seen = [0; 5];
        for (_, board) in random_minimal(100) {
            let b = thinned(&board, rng.random_range(0..300), &mut rng);
            for h in cg().houses() {
                for degree in 2..=4u32 {
                    let mut want = 0u16;
                    for d in Digit::all() {
                        let n = (b.plane(d) & h.set).len();
                        if (2..=degree).contains(&n) {
                            want |= 1 << d.index();
                        }
                        seen[n.min(4) as usize] += 1;
                    }
                    assert_eq!(digits_with_places(&b, h, degree), want);
                }
            }
        }
        // Houses with digits of every count of places, 0 to 4 and more.
        assert!(seen.iter().all(|&n| n > 1000), "{seen:?}");
    }

    #[test]
    fn naked_pair_found_in_box_first() {
        let b = pair_board();
        let mut s = Step::default();
        assert!(find_naked_subset(
            cg(),
            &b,
            2,
            &Scope::everything(cg()),
            &mut s
        ));
        assert_eq!(s.technique, Technique::NakedPair);
        assert_eq!(s.difficulty, 30);
        // Box 1 comes before row 1 in SE's order: only the box loses 1 and 2.
        assert!(s.base.contains(House::boxed(0).index()));
        assert_eq!(
            elims(&s),
            [
                "r1c3<>1", "r1c3<>2", "r2c1<>1", "r2c1<>2", "r2c2<>1", "r2c2<>2", "r2c3<>1",
                "r2c3<>2", "r3c1<>1", "r3c1<>2", "r3c2<>1", "r3c2<>2", "r3c3<>1", "r3c3<>2"
            ]
        );
    }

    #[test]
    fn hidden_pair_removes_other_candidates() {
        // 8 and 9 of row 5 only in r5c4, r5c5; the cells keep other candidates.
        let mut b = Board::EMPTY;
        for c in (0..9).filter(|&c| c != 3 && c != 4) {
            b.eliminate(Cell::at(4, c), Digit::new(8));
            b.eliminate(Cell::at(4, c), Digit::new(9));
        }
        let mut s = Step::default();
        // Box 5 holds r5c4, r5c5 too, but 8 and 9 have other places in box 5.
        assert!(find_hidden_subset(
            cg(),
            &b,
            2,
            false,
            &Scope::everything(cg()),
            &mut s
        ));
        assert_eq!(s.technique, Technique::HiddenPair);
        assert_eq!(s.difficulty, 34);
        assert!(s.base.contains(House::row(4).index()));
        assert_eq!(s.elimination_count(), 14);
        assert!(s.eliminations[0].contains(Cell::at(4, 3)));
        // No naked pair exists here.
        assert!(!find_naked_subset(
            cg(),
            &b,
            2,
            &Scope::everything(cg()),
            &mut s
        ));
    }

    fn row_one_board(direct: bool) -> Board {
        // Row 1: givens 1..5 in c1..c5; 6 and 7 only in r1c6, r1c7.
        let mut b = board_with(&[(0, 0, 1), (0, 1, 2), (0, 2, 3), (0, 3, 4), (0, 4, 5)]);
        for c in [7, 8] {
            b.eliminate(Cell::at(0, c), Digit::new(6));
            b.eliminate(Cell::at(0, c), Digit::new(7));
        }
        if direct {
            // 8 then has places c6, c7, c8 only: reserving c6, c7 leaves r1c8.
            b.eliminate(Cell::at(0, 8), Digit::new(8));
        }
        b
    }

    #[test]
    fn direct_hidden_pair_places_the_following_single() {
        let b = row_one_board(true);
        let mut s = Step::default();
        assert!(find_hidden_subset(
            cg(),
            &b,
            2,
            true,
            &Scope::everything(cg()),
            &mut s
        ));
        assert_eq!(s.technique, Technique::DirectHiddenPair);
        assert_eq!(s.difficulty, 20);
        assert_eq!(s.placement, Some((Cell::at(0, 7), Digit::new(8))));
        assert!(elims(&s).is_empty(), "SE applies only the placement");
        assert_eq!(s.cells.len(), 2);
    }

    #[test]
    fn hidden_pair_without_single_is_not_direct() {
        let b = row_one_board(false);
        let mut s = Step::default();
        assert!(!find_hidden_subset(
            cg(),
            &b,
            2,
            true,
            &Scope::everything(cg()),
            &mut s
        ));
        // Row 1 has only four empty cells: SE does not look for a plain hidden pair there.
        assert!(!find_hidden_subset(
            cg(),
            &b,
            2,
            false,
            &Scope::everything(cg()),
            &mut s
        ));
    }
}
