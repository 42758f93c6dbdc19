//! The exact solver: candidate propagation (naked and hidden singles) at every node,
//! copy-on-branch depth-first search on the cell with the fewest candidates, and solution
//! counting up to a limit.
//!
//! The state is nine digit planes, one `CellSet`-shaped `u128` per digit, plus the set of
//! unsolved cells. A plane holds the cells where its digit is still possible, *including* the
//! cells already solved with that digit, so the solution is read straight off the planes.
//!
//! ```text
//! plane[d]  bit c set  <=>  digit d+1 may still stand in cell c   (81 bits of a u128)
//! unsolved  bit c set  <=>  cell c has no digit yet
//! ```
//!
//! Branching copies the whole `State` (a few cache lines, `Copy`); nothing is allocated.

use super::grid::Grid;
use super::index::{Cell, Digit, HOUSE_SETS, PEERS};

/// What a solve found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveOutcome {
    /// Solutions found, capped at the limit that was asked for.
    pub count: u32,
    /// The first solution found (meaningful when `count > 0`).
    pub solution: Grid,
    /// Branching decisions made: every candidate tried at a branching cell except the last
    /// one left, which is forced.
    pub guesses: u64,
}

/// The search state that is copied on every branch.
#[derive(Clone, Copy)]
struct State {
    planes: [u128; 9],
    unsolved: u128,
}

const _: () = assert!(
    std::mem::size_of::<State>() == 160,
    "State is meant to stay 160 bytes"
);

const ALL_CELLS: u128 = (1u128 << 81) - 1;

impl State {
    const START: State = State {
        planes: [ALL_CELLS; 9],
        unsolved: ALL_CELLS,
    };

    /// Puts digit index `d` in cell `c`. Returns false if `d` is not possible there.
    #[inline]
    fn place(&mut self, c: usize, d: usize) -> bool {
        let bit = 1u128 << c;
        if self.planes[d] & bit == 0 {
            return false;
        }
        for p in self.planes.iter_mut() {
            *p &= !bit;
        }
        self.planes[d] = (self.planes[d] & !PEERS[c].bits()) | bit;
        self.unsolved &= !bit;
        true
    }

    /// Applies naked and hidden singles until nothing changes. Returns false on a
    /// contradiction (a cell with no candidate, or a digit with no place in a house).
    fn propagate(&mut self) -> bool {
        loop {
            // Naked singles, with bit-sliced candidate counting over the nine planes.
            loop {
                let (mut one, mut two) = (0u128, 0u128);
                for &p in &self.planes {
                    two |= one & p;
                    one |= p;
                }
                if self.unsolved & !one != 0 {
                    return false;
                }
                let singles = self.unsolved & one & !two;
                if singles == 0 {
                    break;
                }
                let mut s = singles;
                while s != 0 {
                    let c = s.trailing_zeros() as usize;
                    s &= s - 1;
                    let bit = 1u128 << c;
                    // A single placed earlier in this sweep may have emptied this cell.
                    let Some(d) = (0..9).find(|&d| self.planes[d] & bit != 0) else {
                        return false;
                    };
                    if self.unsolved & bit != 0 {
                        self.place(c, d);
                    }
                }
                if self.unsolved == 0 {
                    return self.is_consistent();
                }
            }
            // Hidden singles: a digit with one place left in a house.
            let mut changed = false;
            for d in 0..9 {
                for house in &HOUSE_SETS {
                    let m = self.planes[d] & house.bits();
                    if m == 0 {
                        return false;
                    }
                    if m & (m - 1) == 0 && m & self.unsolved != 0 {
                        self.place(m.trailing_zeros() as usize, d);
                        changed = true;
                    }
                }
            }
            if !changed {
                return true;
            }
        }
    }

    /// For a full state: every digit exactly once in every house.
    fn is_consistent(&self) -> bool {
        self.planes
            .iter()
            .all(|&p| HOUSE_SETS.iter().all(|h| (p & h.bits()).count_ones() == 1))
    }

    /// The unsolved cell with the fewest candidates (the first such in reading order), and
    /// its candidates as a digit mask.
    fn branch_cell(&self) -> (usize, u16) {
        // Saturating counters: cells with exactly two candidates are found without a scan.
        let (mut one, mut two, mut three) = (0u128, 0u128, 0u128);
        for &p in &self.planes {
            three |= two & p;
            two |= one & p;
            one |= p;
        }
        let bivalue = self.unsolved & two & !three;
        let pick = |c: usize| -> u16 {
            let bit = 1u128 << c;
            let mut m = 0u16;
            for (d, &p) in self.planes.iter().enumerate() {
                if p & bit != 0 {
                    m |= 1 << d;
                }
            }
            m
        };
        if bivalue != 0 {
            let c = bivalue.trailing_zeros() as usize;
            return (c, pick(c));
        }
        let mut best = (usize::MAX, 0u16, u32::MAX);
        let mut s = self.unsolved;
        while s != 0 {
            let c = s.trailing_zeros() as usize;
            s &= s - 1;
            let m = pick(c);
            let n = m.count_ones();
            if n < best.2 {
                best = (c, m, n);
            }
        }
        (best.0, best.1)
    }

    fn to_grid(self) -> Grid {
        let mut v = [0u8; 81];
        for (d, &p) in self.planes.iter().enumerate() {
            let mut s = p;
            while s != 0 {
                let c = s.trailing_zeros() as usize;
                s &= s - 1;
                v[c] = d as u8 + 1;
            }
        }
        // Values are 0..=9 by construction.
        Grid::from_values(v).unwrap_or_default()
    }
}

/// The exact solver. It holds no heap memory; keep one per worker and reuse it.
#[derive(Clone, Debug, Default)]
pub struct Solver {
    limit: u32,
    count: u32,
    guesses: u64,
    solution: Grid,
}

impl Solver {
    /// A solver ready to use.
    pub fn new() -> Solver {
        Solver::default()
    }

    /// Solves `puzzle`, counting solutions up to `limit` (at least 1), and writes what it
    /// found into `out`. Givens that break a rule give a count of 0; call
    /// [`Grid::check_givens`] first to learn why.
    pub fn solve_into(&mut self, puzzle: &Grid, limit: u32, out: &mut SolveOutcome) {
        self.solve_excluding_into(puzzle, &[], limit, out);
    }

    /// Like [`Solver::solve_into`], but first removes each `(cell, digit)` in `excluded`
    /// from the candidates: "how many solutions have none of these placements?". The
    /// generator uses it to test whether a clue can go: a unique puzzle stays unique without
    /// the clue at `cell` exactly when the puzzle minus that clue, excluding the clue's digit
    /// at `cell`, has no solution.
    pub fn solve_excluding_into(
        &mut self,
        puzzle: &Grid,
        excluded: &[(Cell, Digit)],
        limit: u32,
        out: &mut SolveOutcome,
    ) {
        self.limit = limit.max(1);
        self.count = 0;
        self.guesses = 0;
        self.solution = Grid::EMPTY;
        let mut state = State::START;
        let mut ok = true;
        for (c, &v) in puzzle.values().iter().enumerate() {
            if v != 0 && !state.place(c, v as usize - 1) {
                ok = false;
                break;
            }
        }
        for &(c, d) in excluded {
            state.planes[d.index()] &= !(1u128 << c.index());
        }
        if ok {
            self.search(state);
        }
        *out = SolveOutcome {
            count: self.count,
            solution: self.solution,
            guesses: self.guesses,
        };
    }

    /// Convenience wrapper around [`Solver::solve_into`].
    pub fn solve(&mut self, puzzle: &Grid, limit: u32) -> SolveOutcome {
        let mut out = SolveOutcome::default();
        self.solve_into(puzzle, limit, &mut out);
        out
    }

    fn search(&mut self, mut state: State) {
        if !state.propagate() {
            return;
        }
        if state.unsolved == 0 {
            if self.count == 0 {
                self.solution = state.to_grid();
            }
            self.count += 1;
            return;
        }
        let (c, mut digits) = state.branch_cell();
        while digits != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            if digits == 0 {
                // Last alternative: forced, not a guess; reuse this frame's state.
                state.place(c, d);
                self.search(state);
                return;
            }
            self.guesses += 1;
            let mut next = state;
            next.place(c, d);
            self.search(next);
            if self.count >= self.limit {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_a_hard_puzzle_uniquely() {
        let p: Grid =
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
                .parse()
                .unwrap();
        let out = Solver::new().solve(&p, 2);
        assert_eq!(out.count, 1);
        assert!(out.solution.is_solution_of(&p));
    }

    #[test]
    fn empty_grid_has_many_solutions_and_limit_caps_the_count() {
        let mut s = Solver::new();
        let out = s.solve(&Grid::EMPTY, 5);
        assert_eq!(out.count, 5);
        assert!(out.solution.is_solution_of(&Grid::EMPTY));
        assert_eq!(s.solve(&Grid::EMPTY, 1).count, 1);
    }

    #[test]
    fn excluding_the_solution_value_of_a_removed_clue_tests_uniqueness() {
        let p: Grid =
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
                .parse()
                .unwrap();
        let mut s = Solver::new();
        let sol = s.solve(&p, 2).solution;
        let c = Cell::new(0);
        let d = sol.digit(c).unwrap();
        let mut q = p;
        q.set(c, None);
        let mut out = SolveOutcome::default();
        s.solve_excluding_into(&q, &[(c, d)], 1, &mut out);
        // top1465 puzzles are minimal: without r1c1 another solution appears.
        assert_eq!(out.count, 1);
        assert_ne!(out.solution.digit(c), Some(d));
        s.solve_excluding_into(&p, &[(c, d)], 1, &mut out);
        assert_eq!(out.count, 0);
    }

    #[test]
    fn conflicting_givens_have_no_solution() {
        let mut v = [0u8; 81];
        v[0] = 5;
        v[1] = 5;
        let g = Grid::from_values(v).unwrap();
        assert_eq!(Solver::new().solve(&g, 2).count, 0);
    }
}
