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
//!   (the 4-cell rectangles and their larger cousins). About 55 per grid.
//! - *found sets*: each time a uniqueness solve finds another solution `T`, the cells where
//!   `T` differs from `S` are recorded.
//!
//! The store is a fixed array (no allocation); when it is full, new sets are not recorded.

use crate::core::grid::Grid;
use crate::core::index::HOUSE_SETS;

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
        let mut planes = [0u128; 9];
        for (i, &v) in solution.values().iter().enumerate() {
            if v != 0 {
                planes[usize::from(v - 1)] |= 1u128 << i;
            }
        }
        for a in 0..9 {
            for b in a + 1..9 {
                let pattern = planes[a] | planes[b];
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
                    self.record(comp);
                    rest &= !comp;
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
