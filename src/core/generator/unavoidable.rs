//! Unavoidable sets of a solution grid, used to skip uniqueness solves whose answer is known.
//!
//! An *unavoidable set* of a full grid `S` is a set of cells `U` such that some other valid
//! grid `T` differs from `S` exactly on `U` (or on a subset of it). Every puzzle whose unique
//! solution is `S` has a clue in every unavoidable set, or `T` would solve it too. So while
//! digging, removing clues that would leave some known `U` without a clue breaks uniqueness,
//! and a clue that is the only one left in some `U` is required: no solve needed.
//!
//! Two sources fill the store for a grid:
//!
//! - *two-digit sets*: for digits `a`, `b`, swapping `a` and `b` on a set of their cells gives
//!   a valid grid when every house holds both or neither of its `a`- and `b`-cells in the set.
//!   The smallest such sets are the connected components of the 18 cells under "same house"
//!   (the 4-cell rectangles and their larger cousins). A row's two cells are always together,
//!   so the components are found on nine row nodes linked through columns and boxes. About
//!   55 per grid.
//! - *found sets*: each time a uniqueness solve finds another solution `T`, the cells where
//!   `T` differs from `S` are recorded.
//!
//! The store is a fixed array (no allocation); when it is full, new sets are not recorded.

use crate::core::grid::Grid;

/// Most sets kept per grid.
pub const CAPACITY: usize = 256;

/// The unavoidable sets known for one solution grid.
#[derive(Clone, Debug)]
pub struct UnavoidableSets {
    grid: Grid,
    sets: [u128; CAPACITY],
    len: usize,
}

impl Default for UnavoidableSets {
    fn default() -> Self {
        UnavoidableSets {
            grid: Grid::EMPTY,
            sets: [0; CAPACITY],
            len: 0,
        }
    }
}

impl UnavoidableSets {
    /// Makes the store hold the sets of `solution`: keeps it when it already does, else
    /// clears it and adds the two-digit sets of `solution`.
    pub fn prepare(&mut self, solution: &Grid) {
        if self.grid == *solution && self.len > 0 {
            return;
        }
        self.grid = *solution;
        self.len = 0;
        // For each digit, the row holding it in each column and in each box.
        let mut row_in_col = [[0u8; 9]; 9];
        let mut row_in_box = [[0u8; 9]; 9];
        for (i, &v) in solution.values().iter().enumerate() {
            if v != 0 {
                let (d, r, c) = (usize::from(v - 1), i / 9, i % 9);
                row_in_col[d][c] = r as u8;
                row_in_box[d][(r / 3) * 3 + c / 3] = r as u8;
            }
        }
        let digit_cells = |d: usize| -> u128 {
            let mut m = 0u128;
            for (c, &r) in row_in_col[d].iter().enumerate() {
                m |= 1u128 << (usize::from(r) * 9 + c);
            }
            m
        };
        for a in 0..9 {
            for b in a + 1..9 {
                // The a-cell and the b-cell of a row are always linked (by the row), so the
                // components are sets of rows, linked through columns and boxes.
                let mut adj = [0u16; 9];
                for (r, m) in adj.iter_mut().enumerate() {
                    *m = 1 << r;
                }
                for h in 0..9 {
                    for (x, y) in [
                        (row_in_col[a][h], row_in_col[b][h]),
                        (row_in_box[a][h], row_in_box[b][h]),
                    ] {
                        adj[usize::from(x)] |= 1 << y;
                        adj[usize::from(y)] |= 1 << x;
                    }
                }
                let pattern = digit_cells(a) | digit_cells(b);
                let mut rest: u16 = 0x1ff;
                while rest != 0 {
                    let mut comp: u16 = rest & rest.wrapping_neg();
                    loop {
                        let mut grown = comp;
                        let mut bits = comp;
                        while bits != 0 {
                            grown |= adj[bits.trailing_zeros() as usize];
                            bits &= bits - 1;
                        }
                        if grown == comp {
                            break;
                        }
                        comp = grown;
                    }
                    rest &= !comp;
                    let mut rows = 0u128;
                    let mut bits = comp;
                    while bits != 0 {
                        rows |= 0x1ffu128 << (9 * bits.trailing_zeros());
                        bits &= bits - 1;
                    }
                    self.record(pattern & rows);
                }
            }
        }
    }

    /// Forgets every set (and the grid).
    pub fn clear(&mut self) {
        self.grid = Grid::EMPTY;
        self.len = 0;
    }

    /// Adds a set (the cells where another valid grid differs from the solution).
    #[inline]
    pub fn record(&mut self, set: u128) {
        if self.len < CAPACITY && set != 0 {
            self.sets[self.len] = set;
            self.len += 1;
        }
    }

    /// The known sets.
    #[inline]
    pub fn sets(&self) -> &[u128] {
        &self.sets[..self.len]
    }

    /// True when removing the clues `removed` from a puzzle with clues `clues` would leave
    /// some known set without a clue (so the puzzle would not be unique).
    #[inline]
    pub fn removal_breaks(&self, clues: u128, removed: u128) -> bool {
        let left = clues & !removed;
        self.sets().iter().any(|&u| u & left == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::generator::{PuzzleRng, random_full_grid};

    /// The components computed on row nodes equal the components of the 18 cells under
    /// "same house", computed here the slow way.
    #[test]
    fn two_digit_sets_are_the_same_house_components() {
        use crate::core::index::HOUSE_SETS;
        for i in 0..20 {
            let s = random_full_grid(&mut PuzzleRng::for_puzzle(6, i));
            let mut expected = Vec::new();
            for a in 1..=9u8 {
                for b in a + 1..=9 {
                    let mut pattern = 0u128;
                    for (c, &v) in s.values().iter().enumerate() {
                        if v == a || v == b {
                            pattern |= 1u128 << c;
                        }
                    }
                    let mut rest = pattern;
                    while rest != 0 {
                        let mut comp = rest & rest.wrapping_neg();
                        loop {
                            let mut grown = comp;
                            for h in &HOUSE_SETS {
                                if h.bits() & comp != 0 {
                                    grown |= h.bits() & pattern;
                                }
                            }
                            if grown == comp {
                                break;
                            }
                            comp = grown;
                        }
                        expected.push(comp);
                        rest &= !comp;
                    }
                }
            }
            let mut store = UnavoidableSets::default();
            store.prepare(&s);
            let mut got = store.sets().to_vec();
            got.sort_unstable();
            expected.sort_unstable();
            assert_eq!(got, expected);
        }
    }

    /// Swapping the digits of a two-digit set, or taking a found set's other grid, must give
    /// another valid grid.
    #[test]
    fn two_digit_sets_are_swappable() {
        for i in 0..20 {
            let s = random_full_grid(&mut PuzzleRng::for_puzzle(2, i));
            let mut store = UnavoidableSets::default();
            store.prepare(&s);
            assert!(store.sets().len() >= 36);
            for &u in store.sets() {
                assert!(u.count_ones() >= 4, "{u:b}");
                let mut digits = 0u16;
                for c in 0..81 {
                    if u >> c & 1 == 1 {
                        digits |= 1 << s.values()[c];
                    }
                }
                assert_eq!(digits.count_ones(), 2);
                let (a, b) = (
                    digits.trailing_zeros() as u8,
                    15 - digits.leading_zeros() as u8,
                );
                let mut v = *s.values();
                for (c, x) in v.iter_mut().enumerate() {
                    if u >> c & 1 == 1 {
                        *x = if *x == a { b } else { a };
                    }
                }
                let t = Grid::from_values(v).unwrap();
                assert!(t.check_givens().is_ok());
                assert_ne!(t, s);
            }
        }
    }
}
