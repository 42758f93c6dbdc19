//! Random full grids by randomised exact search.
//!
//! A depth-first search over the empty grid: at every step it takes the empty cell with the
//! fewest candidates (the first such in reading order) and tries its candidates in random
//! order, backtracking on a dead end. The search is exact (it cannot fail: the empty grid has
//! solutions, and backtracking explores every alternative), and every full grid can come out
//! of it, though not all with exactly the same probability.
//!
//! The search starts from boxes 1, 5 and 9 filled with random permutations (they share no
//! row or column, so any three permutations are consistent, and each has a completion).
//! The state is the 81 values, the set of empty cells and one digit mask per row, column and
//! box; the decision stack is a fixed array, so nothing is allocated.

use super::rng::PuzzleRng;
use crate::core::grid::Grid;

const ALL_DIGITS: u16 = 0x1ff;

#[inline]
const fn box_of(cell: usize) -> usize {
    (cell / 27) * 3 + (cell % 9) / 3
}

/// The search state: values, the empty cells, and the digits used per row, column and box.
struct Fill {
    values: [u8; 81],
    empty: u128,
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
}

impl Fill {
    fn new() -> Fill {
        Fill {
            values: [0; 81],
            empty: (1u128 << 81) - 1,
            rows: [0; 9],
            cols: [0; 9],
            boxes: [0; 9],
        }
    }

    #[inline]
    fn candidates(&self, cell: usize) -> u16 {
        ALL_DIGITS & !(self.rows[cell / 9] | self.cols[cell % 9] | self.boxes[box_of(cell)])
    }

    #[inline]
    fn toggle(&mut self, cell: usize, bit: u16) {
        self.rows[cell / 9] ^= bit;
        self.cols[cell % 9] ^= bit;
        self.boxes[box_of(cell)] ^= bit;
        self.empty ^= 1u128 << cell;
    }

    #[inline]
    fn place(&mut self, cell: usize, bit: u16) {
        self.values[cell] = bit.trailing_zeros() as u8 + 1;
        self.toggle(cell, bit);
    }

    #[inline]
    fn unplace(&mut self, cell: usize) {
        let bit = 1u16 << (self.values[cell] - 1);
        self.values[cell] = 0;
        self.toggle(cell, bit);
    }

    /// Fills box `b` with a random permutation of the digits (the box must be empty and
    /// share no row or column with a filled cell).
    fn fill_box(&mut self, b: usize, rng: &mut PuzzleRng) {
        let mut digits = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
        rng.shuffle(&mut digits);
        let (r0, c0) = ((b / 3) * 3, (b % 3) * 3);
        for (i, &d) in digits.iter().enumerate() {
            self.place((r0 + i / 3) * 9 + c0 + i % 3, 1 << (d - 1));
        }
    }

    /// The empty cell with the fewest candidates (the first such in reading order) and its
    /// candidates, or `None` when full.
    fn most_constrained(&self) -> Option<(usize, u16)> {
        let mut best: Option<(usize, u16)> = None;
        let mut best_n = u32::MAX;
        let mut e = self.empty;
        while e != 0 {
            let cell = e.trailing_zeros() as usize;
            e &= e - 1;
            let m = self.candidates(cell);
            let n = m.count_ones();
            if n < best_n {
                best = Some((cell, m));
                best_n = n;
                if n <= 1 {
                    break;
                }
            }
        }
        best
    }

    /// Completes the grid by randomised depth-first search; `None` when the filled cells
    /// have no completion.
    fn complete(mut self, rng: &mut PuzzleRng) -> Option<Grid> {
        // Decision stack: the cell decided at each depth and the candidates not yet tried.
        let mut stack = [(0u8, 0u16); 81];
        let mut depth = 0usize;
        while let Some((cell, mut cands)) = self.most_constrained() {
            if cands != 0 {
                let bit = take_random(rng, &mut cands);
                self.place(cell, bit);
                stack[depth] = (cell as u8, cands);
                depth += 1;
                continue;
            }
            // Dead end: undo decisions until one has an untried candidate.
            loop {
                if depth == 0 {
                    return None;
                }
                depth -= 1;
                let (c, mut rest) = stack[depth];
                let c = usize::from(c);
                self.unplace(c);
                if rest != 0 {
                    let bit = take_random(rng, &mut rest);
                    self.place(c, bit);
                    stack[depth] = (c as u8, rest);
                    depth += 1;
                    break;
                }
            }
        }
        Grid::from_values(self.values)
    }
}

/// Takes a uniformly chosen digit bit out of `mask` (which must not be empty).
#[inline]
fn take_random(rng: &mut PuzzleRng, mask: &mut u16) -> u16 {
    let i = rng.pick_bit(u128::from(*mask)).unwrap_or(0);
    let bit = 1u16 << i;
    *mask &= !bit;
    bit
}

/// A random full grid, drawn from `rng`: boxes 1, 5 and 9 (which share no row or column)
/// get random permutations, and the search completes the rest. Every filling of the three
/// diagonal boxes has a completion; should the search ever prove otherwise, it starts again
/// from box 1 alone, which always has one (any grid relabelled).
pub fn random_full_grid(rng: &mut PuzzleRng) -> Grid {
    let mut f = Fill::new();
    for b in [0, 4, 8] {
        f.fill_box(b, rng);
    }
    if let Some(g) = f.complete(rng) {
        return g;
    }
    let mut f = Fill::new();
    f.fill_box(0, rng);
    f.complete(rng).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grids_are_full_valid_and_vary() {
        let mut seen = std::collections::HashSet::new();
        for i in 0..200 {
            let g = random_full_grid(&mut PuzzleRng::for_puzzle(11, i));
            assert!(g.is_full());
            assert!(g.check_givens().is_ok(), "{g}");
            seen.insert(g);
        }
        assert_eq!(seen.len(), 200);
    }

    #[test]
    fn every_filling_of_the_diagonal_boxes_completes() {
        for i in 0..2000 {
            let mut rng = PuzzleRng::for_puzzle(13, i);
            let mut f = Fill::new();
            for b in [0, 4, 8] {
                f.fill_box(b, &mut rng);
            }
            let g = f.complete(&mut rng).expect("a completion");
            assert!(g.is_full() && g.check_givens().is_ok());
        }
    }

    #[test]
    fn the_same_stream_gives_the_same_grid() {
        let a = random_full_grid(&mut PuzzleRng::for_puzzle(5, 9));
        let b = random_full_grid(&mut PuzzleRng::for_puzzle(5, 9));
        assert_eq!(a, b);
    }
}
