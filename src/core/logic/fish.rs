//! Basic fish: X-wing (size 2, 3.2), swordfish (3, 3.8), jellyfish (4, 5.2).
//!
//! `n` base lines (columns, or rows) whose candidates for a digit all lie in `n` cover lines
//! of the other direction: the digit leaves the rest of the cover lines.
//!
//! As in Sudoku Explainer (`Fisherman`, `CommonTuples.searchCommonTuple`): columns as base
//! lines first, then rows; base-line tuples in the order of SE's `Permutations`, digits 1-9
//! inside; a digit is only tried when at least `2n` of its nine places are still open; every
//! base line must hold at least two candidates.

use super::{Board, Step, Technique, combinations};
use crate::core::bitboard::CellSet;
use crate::core::index::{Digit, House};

/// The positions (0..9 along the line) of `set` in line `h`.
#[inline]
fn positions(set: CellSet, h: House) -> u16 {
    let mut m = 0u16;
    for (i, &c) in h.cells().iter().enumerate() {
        if set.contains(c) {
            m |= 1 << i;
        }
    }
    m
}

/// The first fish of size `degree` (2..=4) that removes something.
pub fn find_fish(board: &Board, degree: u32, step: &mut Step) -> bool {
    for columns_first in [true, false] {
        let base_line = |i: u8| {
            if columns_first {
                House::column(i)
            } else {
                House::row(i)
            }
        };
        let cover_line = |i: u8| {
            if columns_first {
                House::row(i)
            } else {
                House::column(i)
            }
        };
        for mask in combinations(9, degree) {
            'digit: for d in Digit::all() {
                if board.placed(d).len() + degree * 2 > 9 {
                    continue;
                }
                let plane = board.plane(d);
                let mut cover = 0u16;
                let mut base_cells = CellSet::EMPTY;
                for i in 0..9u8 {
                    if mask & (1 << i) != 0 {
                        let line = base_line(i);
                        let p = plane & line.cell_set();
                        if p.len() < 2 {
                            continue 'digit;
                        }
                        cover |= positions(p, line);
                        base_cells |= line.cell_set();
                    }
                }
                if cover.count_ones() != degree {
                    continue;
                }
                let mut cover_cells = CellSet::EMPTY;
                for j in 0..9u8 {
                    if cover & (1 << j) != 0 {
                        cover_cells |= cover_line(j).cell_set();
                    }
                }
                let elim = (plane & cover_cells) - base_cells;
                if elim.is_empty() {
                    continue;
                }
                step.reset(match degree {
                    2 => Technique::XWing,
                    3 => Technique::Swordfish,
                    _ => Technique::Jellyfish,
                });
                step.eliminations[d.index()] = elim;
                step.cells = plane & base_cells;
                step.digits.insert(d);
                for i in 0..9u8 {
                    if mask & (1 << i) != 0 {
                        step.base.insert(base_line(i));
                    }
                    if cover & (1 << i) != 0 {
                        step.cover.insert(cover_line(i));
                    }
                }
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::index::Cell;
    use crate::core::logic::testutil::elims;

    #[test]
    fn x_wing_in_rows() {
        // 7 in rows 2 and 6 only at columns 3 and 7.
        let mut b = Board::EMPTY;
        let seven = Digit::new(7);
        for r in [1, 5] {
            for c in (0..9).filter(|&c| c != 2 && c != 6) {
                b.eliminate(Cell::at(r, c), seven);
            }
        }
        let mut s = Step::default();
        assert!(find_fish(&b, 2, &mut s));
        assert_eq!(s.technique, Technique::XWing);
        assert_eq!(s.difficulty, 32);
        assert!(s.base.contains(House::row(1)) && s.base.contains(House::row(5)));
        assert!(s.cover.contains(House::column(2)) && s.cover.contains(House::column(6)));
        assert_eq!(
            elims(&s),
            [
                "r1c3<>7", "r1c7<>7", "r3c3<>7", "r3c7<>7", "r4c3<>7", "r4c7<>7", "r5c3<>7",
                "r5c7<>7", "r7c3<>7", "r7c7<>7", "r8c3<>7", "r8c7<>7", "r9c3<>7", "r9c7<>7"
            ]
        );
        assert!(!find_fish(&b, 3, &mut s), "no swordfish");
    }

    #[test]
    fn swordfish_in_columns() {
        // 3 in columns 1, 5, 9 only in rows 2, 4, 8 (two each).
        let mut b = Board::EMPTY;
        let three = Digit::new(3);
        let keep = [(0, [1, 3]), (4, [3, 7]), (8, [1, 7])];
        for (c, rows) in keep {
            for r in (0..9).filter(|r| !rows.contains(r)) {
                b.eliminate(Cell::at(r, c), three);
            }
        }
        let mut s = Step::default();
        assert!(!find_fish(&b, 2, &mut s), "no x-wing");
        assert!(find_fish(&b, 3, &mut s));
        assert_eq!(s.technique, Technique::Swordfish);
        assert_eq!(s.difficulty, 38);
        assert_eq!(s.elimination_count(), 18);
        assert!(s.eliminations[2].contains(Cell::at(1, 1)));
        assert!(!s.eliminations[2].contains(Cell::at(1, 0)));
    }
}
