//! Singles: full house, hidden single and naked single.
//!
//! Search order as in Sudoku Explainer's `HiddenSingle` and `NakedSingle` producers: first
//! the houses with one empty cell left (full house, 1.0), boxes then columns then rows; then
//! hidden singles in boxes (1.2), columns and rows (1.5), digits 1-9 within each house;
//! naked singles (2.3) in reading order. The grader runs the hidden-single search first
//! and the naked-single search later, after the direct techniques, as SE does.

use super::{Board, Step, Technique};
use crate::core::geometry::{CellBits, Geometry, Size};
use crate::core::index::{Cell, Digit};

/// Full house or hidden single, the first in SE's order. Fills `step` and returns true if
/// one exists.
pub fn find_hidden_single<S: Size>(g: &Geometry<S>, board: &Board<S>, step: &mut Step<S>) -> bool {
    // Full houses: one empty cell left in the house.
    for &h in g.order_bcr() {
        let empty = board.empty() & g.house_set(h as usize);
        if empty.len() == 1
            && let Some(c) = empty.first()
            && let Some(d) = board.candidates(c).first()
        {
            single(step, Technique::FullHouse, h as usize, c, d);
            return true;
        }
    }
    for &h in g.order_bcr() {
        let house = g.house(h as usize);
        let cells = house.set;
        if (board.empty() & cells).len() < 2 {
            continue;
        }
        // The digits with exactly one place in the house (placed cells have no
        // candidates), lowest first: the first hidden single of SE's digit order.
        let (mut once, mut twice) = (0u16, 0u16);
        for &c in &house.cells {
            let m = board.candidates(c).bits();
            twice |= once & m;
            once |= m;
        }
        let single_digits = once & !twice;
        if single_digits != 0 {
            let d = Digit::from_index(single_digits.trailing_zeros() as usize);
            if let Some(c) = (board.plane(d) & cells).first() {
                let t = if house.kind.is_block() {
                    Technique::HiddenSingleBox
                } else {
                    Technique::HiddenSingleLine
                };
                single(step, t, h as usize, c, d);
                return true;
            }
        }
    }
    false
}

/// True when some empty cell has exactly one candidate left.
pub fn has_naked_single<S: Size>(board: &Board<S>) -> bool {
    !naked_singles(board).is_empty()
}

/// The empty cells with exactly one candidate.
#[inline]
fn naked_singles<S: Size>(board: &Board<S>) -> S::Set {
    let [ge1, ge2, ..] = board.cells_with_at_least();
    ge1 - ge2
}

/// The first naked single in cell order (SE `NakedSingle`).
pub fn find_naked_single<S: Size>(board: &Board<S>, step: &mut Step<S>) -> bool {
    let Some(c) = naked_singles(board).first() else {
        return false;
    };
    let Some(d) = board.candidates(c).first() else {
        return false;
    };
    step.reset(Technique::NakedSingle);
    step.placement = Some((c, d));
    step.cells.insert(c);
    step.digits.insert(d);
    true
}

fn single<S: Size>(step: &mut Step<S>, t: Technique, h: usize, c: Cell, d: Digit) {
    step.reset(t);
    step.placement = Some((c, d));
    step.cells.insert(c);
    step.digits.insert(d);
    step.base.insert(h);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::index::House;
    use crate::core::logic::testutil::{board_with, cg};

    #[test]
    fn full_house_comes_first() {
        // Row 1 misses only r1c9 (= 9).
        let b = board_with(&[
            (0, 0, 1),
            (0, 1, 2),
            (0, 2, 3),
            (0, 3, 4),
            (0, 4, 5),
            (0, 5, 6),
            (0, 6, 7),
            (0, 7, 8),
        ]);
        let mut s = Step::default();
        assert!(find_hidden_single(cg(), &b, &mut s));
        assert_eq!(s.technique, Technique::FullHouse);
        assert_eq!(s.difficulty, 10);
        assert_eq!(s.placement, Some((Cell::at(0, 8), Digit::new(9))));
        assert!(s.base.contains(House::row(0).index()));
    }

    #[test]
    fn hidden_single_in_box_before_line() {
        // 5s in rows 1, 2 and columns 7, 8 leave r3c9 as the only 5 of box 3.
        let b = board_with(&[(0, 0, 5), (1, 3, 5), (4, 6, 5), (6, 7, 5)]);
        let mut s = Step::default();
        assert!(find_hidden_single(cg(), &b, &mut s));
        assert_eq!(s.technique, Technique::HiddenSingleBox);
        assert_eq!(s.difficulty, 12);
        assert_eq!(s.placement, Some((Cell::at(2, 8), Digit::new(5))));
        assert!(s.base.contains(House::boxed(2).index()));
    }

    #[test]
    fn hidden_single_in_a_line() {
        // 7 removed from r1c1..r8c1: column 1 keeps one place, every box keeps several.
        let mut b = Board::EMPTY;
        for r in 0..8 {
            b.eliminate(Cell::at(r, 0), Digit::new(7));
        }
        let mut s = Step::default();
        assert!(find_hidden_single(cg(), &b, &mut s));
        assert_eq!(s.technique, Technique::HiddenSingleLine);
        assert_eq!(s.difficulty, 15);
        assert_eq!(s.placement, Some((Cell::at(8, 0), Digit::new(7))));
        assert!(s.base.contains(House::column(0).index()));
    }

    #[test]
    fn the_hidden_single_found_is_the_first_of_a_digit_by_digit_scan() {
        // Thinned random minimal puzzles, against SE's scan: houses in order, digits 1-9
        // within each, a digit counting when it has one place in the house.
        use crate::core::logic::testutil::{random_minimal, thinned};
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(21);
        let (mut hidden, mut several) = (0, 0);
        for (_, board) in random_minimal(200) {
            for _ in 0..5 {
                let b = thinned(&board, rng.random_range(0..150), &mut rng);
                let mut want = None;
                for &h in cg().order_bcr() {
                    let house = cg().house(h as usize);
                    if (b.empty() & house.set).len() < 2 {
                        continue;
                    }
                    let ones: Vec<Digit> = Digit::all()
                        .filter(|&d| (b.plane(d) & house.set).len() == 1)
                        .collect();
                    if let Some(&d) = ones.first() {
                        several += usize::from(ones.len() > 1);
                        want = (b.plane(d) & house.set).first().map(|c| (c, d));
                        break;
                    }
                }
                let mut s = Step::default();
                let found = find_hidden_single(cg(), &b, &mut s);
                if found && s.technique == Technique::FullHouse {
                    continue;
                }
                assert_eq!(found, want.is_some());
                assert_eq!(s.placement, want);
                hidden += usize::from(found);
            }
        }
        // Enough hidden singles, and enough houses where the digit order decides.
        assert!(hidden > 800, "{hidden}");
        assert!(several > 200, "{several}");
    }

    #[test]
    fn no_single_on_an_empty_grid() {
        let b = Board::EMPTY;
        let mut s = Step::default();
        assert!(!find_hidden_single(cg(), &b, &mut s));
        assert!(!find_naked_single(&b, &mut s));
    }

    #[test]
    fn naked_single_reading_order() {
        // r2c2 sees 2..9 in its row, column and box, so its only candidate is 1.
        let b = board_with(&[
            (1, 0, 2),
            (1, 5, 3),
            (1, 8, 4),
            (4, 1, 5),
            (7, 1, 6),
            (0, 0, 7),
            (2, 2, 8),
            (0, 2, 9),
        ]);
        let mut s = Step::default();
        assert!(find_naked_single(&b, &mut s));
        assert_eq!(s.placement, Some((Cell::at(1, 1), Digit::new(1))));
        assert_eq!(s.difficulty, 23);
    }
}
