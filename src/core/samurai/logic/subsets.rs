//! Naked and hidden subsets (pairs, triples, quads), and the direct hidden pair and triple.
//!
//! A *naked subset*: `n` cells of a house whose candidates, together, are `n` digits; those
//! digits go in those cells, so no other cell of the house keeps them. A *hidden subset*: `n`
//! digits that, in a house, fit only in the same `n` cells; those cells keep no other
//! candidate. A *direct* hidden subset (Sudoku Explainer's) is one whose eliminations leave a
//! hidden single in the house; that step places the single.
//!
//! As in Sudoku Explainer, every cell (digit) of a pattern must have at least two candidates
//! (positions), houses are scanned boxes, columns, rows, and tuples in increasing order.

use super::{
    Board, Finding, KIND_BOX, KIND_COL, KIND_ROW, SamuraiTechnique, for_each_subset, houses_of,
};
use crate::core::samurai::HOUSE_CELLS;

fn naked_technique(degree: u32) -> SamuraiTechnique {
    match degree {
        2 => SamuraiTechnique::NakedPair,
        3 => SamuraiTechnique::NakedTriple,
        _ => SamuraiTechnique::NakedQuad,
    }
}

fn hidden_technique(degree: u32, direct: bool) -> SamuraiTechnique {
    match (degree, direct) {
        (2, true) => SamuraiTechnique::DirectHiddenPair,
        (3, true) => SamuraiTechnique::DirectHiddenTriple,
        (2, false) => SamuraiTechnique::HiddenPair,
        (3, false) => SamuraiTechnique::HiddenTriple,
        _ => SamuraiTechnique::HiddenQuad,
    }
}

/// Finds a naked subset of `degree` cells (2-4) that eliminates something.
pub(crate) fn naked_subset(b: &Board, f: &mut Finding, degree: u32) -> bool {
    for kind in [KIND_BOX, KIND_COL, KIND_ROW] {
        for h in houses_of(kind) {
            if b.empty_in(h) < 2 * degree {
                continue;
            }
            let cells = &HOUSE_CELLS[h];
            let mut usable = 0u16;
            for (i, &c) in cells.iter().enumerate() {
                let n = b.cands[c as usize].count_ones();
                if n >= 2 && n <= degree {
                    usable |= 1 << i;
                }
            }
            let found = for_each_subset(usable, degree, |sel| {
                let mut digits = 0u16;
                for (i, &c) in cells.iter().enumerate() {
                    if sel & (1 << i) != 0 {
                        digits |= b.cands[c as usize];
                    }
                }
                if digits.count_ones() != degree {
                    return false;
                }
                f.start(naked_technique(degree));
                for (i, &c) in cells.iter().enumerate() {
                    if sel & (1 << i) == 0 {
                        f.eliminate(c, b.cands[c as usize] & digits);
                    }
                }
                if f.n_elims == 0 {
                    return false;
                }
                f.digits = digits;
                f.house(h);
                for (i, &c) in cells.iter().enumerate() {
                    if sel & (1 << i) != 0 {
                        f.cell(c);
                    }
                }
                true
            });
            if found {
                return true;
            }
        }
    }
    false
}

/// Finds a hidden subset of `degree` digits (2-4) that eliminates something; with `direct`
/// (pairs and triples), only one that leaves a hidden single in the house, and places it.
pub(crate) fn hidden_subset(b: &Board, f: &mut Finding, degree: u32, direct: bool) -> bool {
    for kind in [KIND_BOX, KIND_COL, KIND_ROW] {
        for h in houses_of(kind) {
            let empty = b.empty_in(h);
            if !(empty > 2 * degree || (direct && empty > degree)) {
                continue;
            }
            let cells = &HOUSE_CELLS[h];
            let mut pos = [0u16; 9];
            let mut usable = 0u16;
            for (d, p) in pos.iter_mut().enumerate() {
                *p = b.positions(h, d);
                let n = p.count_ones();
                if n >= 2 && n <= degree {
                    usable |= 1 << d;
                }
            }
            let found = for_each_subset(usable, degree, |digits| {
                let mut common = 0u16;
                for (d, &p) in pos.iter().enumerate() {
                    if digits & (1 << d) != 0 {
                        common |= p;
                    }
                }
                if common.count_ones() != degree {
                    return false;
                }
                f.start(hidden_technique(degree, direct));
                if direct {
                    // A digit outside the subset left with one place once these cells are
                    // taken.
                    let single = (0..9).find(|&d| {
                        digits & (1 << d) == 0
                            && pos[d].count_ones() > 1
                            && (pos[d] & !common).count_ones() == 1
                    });
                    let Some(d) = single else {
                        return false;
                    };
                    let i = (pos[d] & !common).trailing_zeros() as usize;
                    f.place = Some((cells[i], d as u8 + 1));
                } else {
                    for (i, &c) in cells.iter().enumerate() {
                        if common & (1 << i) != 0 {
                            f.eliminate(c, b.cands[c as usize] & !digits);
                        }
                    }
                    if f.n_elims == 0 {
                        return false;
                    }
                }
                f.digits = digits;
                f.house(h);
                for (i, &c) in cells.iter().enumerate() {
                    if common & (1 << i) != 0 {
                        f.cell(c);
                    }
                }
                true
            });
            if found {
                return true;
            }
        }
    }
    false
}
