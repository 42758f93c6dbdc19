//! Basic fish inside one grid: X-wing (2), swordfish (3), jellyfish (4).
//!
//! When, in one of the five grids, a digit's candidates in `n` rows lie in only `n` columns,
//! the digit's `n` placements in those rows fill those columns, so the columns' other cells
//! lose it (and the same with rows and columns swapped). Fish are looked for in each grid on
//! its own, as Sudoku Explainer does on a classic grid: columns as base first, then rows;
//! line tuples outermost, then digits; a digit needs at least `2n` cells still open in the
//! grid, and every base line at least two candidates.

use super::{Board, Finding, KIND_COL, KIND_ROW, SamuraiTechnique, for_each_subset};
use crate::core::index::HouseKind;
use crate::core::samurai::{GRID_CELLS, HOUSE_CELLS, SamuraiHouse, SubGrid};

fn technique(degree: u32) -> SamuraiTechnique {
    match degree {
        2 => SamuraiTechnique::XWing,
        3 => SamuraiTechnique::Swordfish,
        _ => SamuraiTechnique::Jellyfish,
    }
}

fn kind_of(code: u8) -> HouseKind {
    if code == KIND_ROW {
        HouseKind::Row
    } else {
        HouseKind::Column
    }
}

/// Finds a fish of size `degree` (2-4) that eliminates something.
pub(crate) fn fish(b: &Board, f: &mut Finding, degree: u32) -> bool {
    for (base, cover) in [(KIND_COL, KIND_ROW), (KIND_ROW, KIND_COL)] {
        for g in SubGrid::ALL {
            // Digits placed in the grid, and each base line's positions per digit.
            let mut placed = [0u32; 9];
            for &c in &GRID_CELLS[g.index()] {
                let v = b.values[c as usize];
                if v != 0 {
                    placed[v as usize - 1] += 1;
                }
            }
            let mut lines = [0usize; 9];
            let mut pos = [[0u16; 9]; 9];
            for (o, line) in lines.iter_mut().enumerate() {
                *line = SamuraiHouse::of(g, kind_of(base), o as u8).index();
                for (d, p) in pos[o].iter_mut().enumerate() {
                    *p = b.positions(*line, d);
                }
            }
            let found = for_each_subset(0x1ff, degree, |sel| {
                for d in 0..9 {
                    if placed[d] + 2 * degree > 9 {
                        continue;
                    }
                    let mut union = 0u16;
                    let mut ok = true;
                    for (o, line_pos) in pos.iter().enumerate() {
                        if sel & (1 << o) != 0 {
                            if line_pos[d].count_ones() < 2 {
                                ok = false;
                                break;
                            }
                            union |= line_pos[d];
                        }
                    }
                    if !ok || union.count_ones() != degree {
                        continue;
                    }
                    let bit = 1u16 << d;
                    f.start(technique(degree));
                    for o in 0..9u8 {
                        if union & (1 << o) == 0 {
                            continue;
                        }
                        let h = SamuraiHouse::of(g, kind_of(cover), o).index();
                        for (i, &c) in HOUSE_CELLS[h].iter().enumerate() {
                            // Cell i of a cover line lies on base line i.
                            if sel & (1 << i) == 0 && b.cands[c as usize] & bit != 0 {
                                f.eliminate(c, bit);
                            }
                        }
                    }
                    if f.n_elims == 0 {
                        continue;
                    }
                    f.digits = bit;
                    for (o, &line) in lines.iter().enumerate() {
                        if sel & (1 << o) != 0 {
                            f.house(line);
                        }
                    }
                    for o in 0..9u8 {
                        if union & (1 << o) != 0 {
                            f.house(SamuraiHouse::of(g, kind_of(cover), o).index());
                        }
                    }
                    return true;
                }
                false
            });
            if found {
                return true;
            }
        }
    }
    false
}
