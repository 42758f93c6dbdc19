//! Singles: full house (the last empty cell of a house), hidden single (the only place for a
//! digit in a house) and naked single (the only candidate of a cell).
//!
//! Houses are scanned as Sudoku Explainer does: boxes, then columns, then rows; within a
//! kind, in house order over the five grids.

use super::{Board, Finding, KIND_BOX, KIND_COL, KIND_ROW, SamuraiTechnique, houses_of};
use crate::core::samurai::HOUSE_CELLS;

/// Digits with exactly one candidate position in house `h` (bit `d - 1`).
#[inline]
fn single_position_digits(b: &Board, h: usize) -> u16 {
    let (mut once, mut twice) = (0u16, 0u16);
    for &c in &HOUSE_CELLS[h] {
        let m = b.cands[c as usize];
        twice |= once & m;
        once |= m;
    }
    once & !twice
}

/// The cell of house `h` where digit bit `bit` can go (the first one).
#[inline]
fn cell_for(b: &Board, h: usize, bit: u16) -> u16 {
    HOUSE_CELLS[h]
        .iter()
        .copied()
        .find(|&c| b.cands[c as usize] & bit != 0)
        .unwrap_or(HOUSE_CELLS[h][0])
}

/// Full house: a house with one empty cell, which takes the missing digit.
pub(crate) fn full_house(b: &Board, f: &mut Finding) -> bool {
    for kind in [KIND_BOX, KIND_COL, KIND_ROW] {
        for h in houses_of(kind) {
            if b.empty_in(h) != 1 {
                continue;
            }
            let singles = single_position_digits(b, h);
            if singles != 0 {
                let bit = singles & singles.wrapping_neg();
                f.start(SamuraiTechnique::FullHouse);
                f.house(h);
                f.digits = bit;
                f.place = Some((cell_for(b, h, bit), bit.trailing_zeros() as u8 + 1));
                return true;
            }
        }
    }
    false
}

/// Hidden single: a digit with one place left in a house (rated 1.2 in a box, 1.5 in a row
/// or column).
pub(crate) fn hidden_single(b: &Board, f: &mut Finding) -> bool {
    for kind in [KIND_BOX, KIND_COL, KIND_ROW] {
        for h in houses_of(kind) {
            let singles = single_position_digits(b, h);
            if singles == 0 || b.empty_in(h) == 1 {
                continue;
            }
            let bit = singles & singles.wrapping_neg();
            f.start(if kind == KIND_BOX {
                SamuraiTechnique::HiddenSingleBox
            } else {
                SamuraiTechnique::HiddenSingleLine
            });
            f.house(h);
            f.digits = bit;
            f.place = Some((cell_for(b, h, bit), bit.trailing_zeros() as u8 + 1));
            return true;
        }
    }
    false
}

/// Naked single: an empty cell with one candidate left (the first in cell order).
pub(crate) fn naked_single(b: &Board, f: &mut Finding) -> bool {
    for c in 0..369 {
        let m = b.cands[c];
        if b.values[c] == 0 && m != 0 && m & (m - 1) == 0 {
            f.start(SamuraiTechnique::NakedSingle);
            f.digits = m;
            f.place = Some((c as u16, m.trailing_zeros() as u8 + 1));
            return true;
        }
    }
    false
}
