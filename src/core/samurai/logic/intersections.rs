//! Locked candidates (intersections): pointing and claiming, and their direct forms.
//!
//! When a digit's candidates in a box all lie in one row or column (*pointing*), the digit
//! goes there, so it can be removed from the rest of that line; when a line's candidates all
//! lie in one box (*claiming*), it can be removed from the rest of the box. On the samurai
//! geometry a box shared by two grids meets the rows and columns of both. The *direct*
//! forms (Sudoku Explainer's) are those whose eliminations leave a hidden single in another
//! house of the first kind crossing the line (or box); that step places the single.
//!
//! Scanning order follows Sudoku Explainer: box against column, box against row, column
//! against box, row against box; digits 1-9 outermost.

use super::{
    Board, Finding, INTER, KIND_BOX, KIND_COL, KIND_ROW, SamuraiTechnique, houses_of, kind,
};
use crate::core::samurai::{CELL_HOUSE_COUNT, CELL_HOUSES, HOUSE_CELLS};

/// For each house, the houses of the other family (boxes for a line, lines for a box) that
/// share cells with it.
struct CrossTable {
    houses: [[u8; 12]; 131],
    len: [u8; 131],
}

const fn build_cross() -> CrossTable {
    let mut t = CrossTable {
        houses: [[0; 12]; 131],
        len: [0; 131],
    };
    let mut a = 0;
    while a < 131 {
        let a_box = super::super::HOUSE_INFO[a].1 == 2;
        let mut i = 0;
        while i < 9 {
            let c = HOUSE_CELLS[a][i] as usize;
            let mut k = 0;
            while k < CELL_HOUSE_COUNT[c] as usize {
                let b = CELL_HOUSES[c][k].index();
                let b_box = super::super::HOUSE_INFO[b].1 == 2;
                if a_box != b_box {
                    let mut seen = false;
                    let mut j = 0;
                    while j < t.len[a] as usize {
                        if t.houses[a][j] as usize == b {
                            seen = true;
                        }
                        j += 1;
                    }
                    if !seen {
                        t.houses[a][t.len[a] as usize] = b as u8;
                        t.len[a] += 1;
                    }
                }
                k += 1;
            }
            i += 1;
        }
        a += 1;
    }
    t
}

static CROSS: CrossTable = build_cross();

/// Houses of the other family crossing house `h`.
fn crossing(h: usize) -> &'static [u8] {
    &CROSS.houses[h][..CROSS.len[h] as usize]
}

/// Finds a pointing or claiming step (with `direct`, only one leaving a hidden single, which
/// it places).
pub(crate) fn locked_candidates(b: &Board, f: &mut Finding, direct: bool) -> bool {
    let inter = &INTER;
    for (kind1, kind2) in [
        (KIND_BOX, KIND_COL),
        (KIND_BOX, KIND_ROW),
        (KIND_COL, KIND_BOX),
        (KIND_ROW, KIND_BOX),
    ] {
        for d in 0..9usize {
            for h1 in houses_of(kind1) {
                let p1 = b.positions(h1, d);
                if p1.count_ones() < 2 {
                    continue;
                }
                for &h2 in crossing(h1) {
                    let h2 = h2 as usize;
                    if kind(h2) != kind2 || p1 & !inter[h1][h2] != 0 {
                        continue;
                    }
                    // The digit's places in h1 all lie in h2.
                    if direct {
                        if direct_single(b, f, h1, h2, kind1, d) {
                            return true;
                        }
                        continue;
                    }
                    let elim = b.positions(h2, d) & !inter[h2][h1];
                    if elim == 0 {
                        continue;
                    }
                    f.start(if kind1 == KIND_BOX {
                        SamuraiTechnique::Pointing
                    } else {
                        SamuraiTechnique::Claiming
                    });
                    for (i, &c) in HOUSE_CELLS[h2].iter().enumerate() {
                        if elim & (1 << i) != 0 {
                            f.eliminate(c, 1 << d);
                        }
                    }
                    f.digits = 1 << d;
                    f.house(h1);
                    f.house(h2);
                    return true;
                }
            }
        }
    }
    false
}

/// For digit index `d` locked in `h1` ∩ `h2`: a house of `h1`'s kind crossing `h2` whose only
/// remaining place for the digit, once `h2`'s other cells lose it, is one cell.
fn direct_single(b: &Board, f: &mut Finding, h1: usize, h2: usize, kind1: u8, d: usize) -> bool {
    let inter = &INTER;
    for &h3 in crossing(h2) {
        let h3 = h3 as usize;
        if h3 == h1 || kind(h3) != kind1 {
            continue;
        }
        let p3 = b.positions(h3, d);
        if p3.count_ones() < 2 {
            continue;
        }
        // Cells of h3 in h2 but not in h1 lose the digit.
        let removed = inter[h3][h2] & !inter[h3][h1];
        let rest = p3 & !removed;
        if p3 & removed != 0 && rest.count_ones() == 1 {
            f.start(if kind1 == KIND_BOX {
                SamuraiTechnique::DirectPointing
            } else {
                SamuraiTechnique::DirectClaiming
            });
            f.digits = 1 << d;
            f.house(h1);
            f.house(h2);
            let cell = HOUSE_CELLS[h3][rest.trailing_zeros() as usize];
            f.place = Some((cell, d as u8 + 1));
            return true;
        }
    }
    false
}
