//! Clue removal ("digging"): removing clues, whole symmetry orbits at a time, while the
//! solution stays unique; the minimality check; and [`Generator::minimize`].
//!
//! # The uniqueness test
//!
//! Let `P` be uniquely solvable with solution `S`, and `P' = P` without the clues of an orbit
//! `O = {c1, ..., ck}`. A solution `T` of `P'` that agrees with `S` on every cell of `O`
//! satisfies all of `P`, so `T = S`. Hence `P'` is unique exactly when no solution of `P'`
//! differs from `S` somewhere in `O`. Sorting such solutions by the *first* cell `ci` where
//! they differ gives `k` exclusion solves, each asking for one solution (limit 1):
//!
//! ```text
//! for i in 1..=k:  solve  P' + {c1..c(i-1) as clues of S}  with  ci != S[ci]   -> none?
//! ```
//!
//! Excluding `S`'s digit at *all* cells of the orbit in one solve is wrong: it only finds
//! solutions that differ from `S` at every cell of `O`, and misses those that differ at some
//! (the test `excluding_a_whole_orbit_at_once_misses_solutions` shows a case). The restored
//! clues also make the later solves of the sequence cheaper.
//!
//! Before any solve, the known unavoidable sets of `S` are checked (see [`super::unavoidable`]):
//! if the reduced puzzle leaves one of them without a clue, it is not unique, no solve needed.
//! Every other solution a solve finds is recorded as a new unavoidable set.
//!
//! Fewer clues only allow more solutions, so a clue that was needed when it was tried stays
//! needed: digging without symmetry (orbits of one cell) leaves a minimal puzzle with no
//! extra check. With symmetry, a kept orbit may hold a clue that could go on its own; see
//! [`Generator::make_minimal`](super::Generator) in `target` for how that is repaired.

use super::Generator;
use super::rng::PuzzleRng;
use super::symmetry::Symmetry;
use crate::core::grid::{Conflict, Grid};
use crate::core::index::{Cell, Digit};

/// The result of [`Generator::minimize`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Minimized {
    /// A minimal puzzle whose clues are a subset of the input's clues.
    pub puzzle: Grid,
    /// The common solution of the input and the minimal puzzle.
    pub solution: Grid,
}

/// Why a puzzle cannot be minimized.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MinimizeError {
    /// The givens break a rule.
    Invalid(Conflict),
    /// The puzzle has no solution.
    NoSolution,
    /// The puzzle has two or more solutions.
    MultipleSolutions,
}

impl std::fmt::Display for MinimizeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MinimizeError::Invalid(c) => write!(f, "invalid givens: {c}"),
            MinimizeError::NoSolution => f.write_str("the puzzle has no solution"),
            MinimizeError::MultipleSolutions => f.write_str("the puzzle has several solutions"),
        }
    }
}

impl std::error::Error for MinimizeError {}

/// The digit of a full grid at `cell` (1 for a hole, which callers never pass).
#[inline]
fn digit_at(solution: &Grid, cell: Cell) -> Digit {
    solution.digit(cell).unwrap_or(Digit::new(1))
}

/// Clue counts up to which the known unavoidable sets are checked before solving.
const SCAN_SETS_BELOW: u32 = 40;

/// The cells holding a clue, as raw set bits.
#[inline]
pub(super) fn clue_bits(g: &Grid) -> u128 {
    let mut bits = 0u128;
    for (i, &v) in g.values().iter().enumerate() {
        if v != 0 {
            bits |= 1u128 << i;
        }
    }
    bits
}

/// The cells where two full grids differ, as raw set bits.
#[inline]
fn diff_bits(a: &Grid, b: &Grid) -> u128 {
    let mut bits = 0u128;
    for (i, (x, y)) in a.values().iter().zip(b.values()).enumerate() {
        if x != y {
            bits |= 1u128 << i;
        }
    }
    bits
}

impl Generator {
    /// For `reduced` (a unique puzzle with solution `solution`, minus the clues at `removed`;
    /// its clues are `left`): an unavoidable set of `solution` with no clue in `reduced`, when
    /// there is one (the puzzle is then not unique), or `None` when `reduced` is still
    /// uniquely solvable. Known sets are tried first, then the exclusion solves of the module
    /// docs; a set found by a solve is recorded. The store must be prepared for `solution`.
    ///
    /// Which set comes back depends on the solver's search order; callers use only whether
    /// there is one, so generated puzzles do not depend on the solver's implementation.
    pub(super) fn find_alternative(
        &mut self,
        reduced: &Grid,
        left: u128,
        removed: &[Cell],
        solution: &Grid,
    ) -> Option<u128> {
        // With many clues left a known set almost never lacks one, and the solve that would
        // say so is cheap: look only below that.
        if left.count_ones() <= SCAN_SETS_BELOW
            && let Some(&u) = self.sets.sets().iter().find(|&&u| u & left == 0)
        {
            return Some(u);
        }
        let mut p = *reduced;
        for &c in removed {
            let d = digit_at(solution, c);
            self.solver
                .solve_excluding_into(&p, &[(c, d)], 1, &mut self.outcome);
            if self.outcome.count > 0 {
                let diff = diff_bits(&self.outcome.solution, solution);
                self.sets.record(diff);
                return Some(diff);
            }
            p.set(c, Some(d));
        }
        None
    }

    /// The first empty cell of `q` in `order`, outside `skip`, that is not forced (some
    /// solution of `q` differs from `solution` there; `q`'s clues agree with `solution`)
    /// and whose partners under `symmetry` are not forced either; or, when there is none,
    /// the first cell that is not forced. Adding such a cell's orbit rules out another
    /// solution with every one of its cells, which makes each of them more likely to be
    /// needed in the end.
    ///
    /// Only facts about `q` decide, never which other solution a solve happens to find, so
    /// the answer does not depend on the solver's search order. A known unavoidable set with
    /// no clue in `q` holds such a solution (the grid it was found from), so its cells need
    /// no solve; each solution a solve finds marks all the cells where it differs.
    pub(super) fn first_unforced(
        &mut self,
        q: &Grid,
        solution: &Grid,
        order: &[u8; 81],
        skip: u128,
        symmetry: Symmetry,
    ) -> Option<Cell> {
        let clues = clue_bits(q);
        let mut unforced = 0u128;
        for &u in self.sets.sets() {
            if u & clues == 0 {
                unforced |= u;
            }
        }
        let mut forced = clues;
        let test = |g: &mut Generator, c: Cell, unforced: &mut u128, forced: &mut u128| {
            let bit = 1u128 << c.index();
            if *unforced & bit != 0 {
                return true;
            }
            if *forced & bit != 0 {
                return false;
            }
            g.solver
                .solve_excluding_into(q, &[(c, digit_at(solution, c))], 1, &mut g.outcome);
            if g.outcome.count > 0 {
                let diff = diff_bits(&g.outcome.solution, solution);
                g.sets.record(diff);
                *unforced |= diff;
                true
            } else {
                *forced |= bit;
                false
            }
        };
        let mut first = None;
        for &i in order {
            let bit = 1u128 << i;
            if clues & bit != 0 || skip & bit != 0 {
                continue;
            }
            let c = Cell::new(i);
            if !test(self, c, &mut unforced, &mut forced) {
                continue;
            }
            first.get_or_insert(c);
            let partners = symmetry.orbit(c).cells();
            if partners[1..]
                .iter()
                .all(|&m| skip >> m.index() & 1 == 0 && test(self, m, &mut unforced, &mut forced))
            {
                return Some(c);
            }
        }
        first
    }

    /// Digs `puzzle` (uniquely solvable, solution `solution`): visits its clues in random
    /// order and removes each one's whole orbit under `symmetry` when the solution stays
    /// unique and at least `floor` clues remain.
    pub(super) fn dig(
        &mut self,
        puzzle: &mut Grid,
        solution: &Grid,
        symmetry: Symmetry,
        floor: usize,
        rng: &mut PuzzleRng,
    ) {
        self.sets.prepare(solution);
        let mut order = [0u8; 81];
        for (i, o) in order.iter_mut().enumerate() {
            *o = i as u8;
        }
        rng.shuffle(&mut order);
        let mut visited = 0u128;
        let mut clues = clue_bits(puzzle);
        let mut count = clues.count_ones() as usize;
        for &i in &order {
            let c = Cell::new(i);
            if clues >> i & 1 == 0 || visited >> i & 1 == 1 {
                continue;
            }
            let orbit = symmetry.orbit(c);
            visited |= orbit.set().bits();
            // The members that are clues (all of them, for a symmetric puzzle).
            let mut members = [c; 4];
            let mut n = 0;
            let mut reduced = *puzzle;
            let mut left = clues;
            for &m in orbit.cells() {
                if puzzle.value(m) != 0 {
                    members[n] = m;
                    n += 1;
                    reduced.set(m, None);
                    left &= !(1u128 << m.index());
                }
            }
            if count < floor + n {
                continue;
            }
            if self
                .find_alternative(&reduced, left, &members[..n], solution)
                .is_none()
            {
                *puzzle = reduced;
                clues = left;
                count -= n;
            }
        }
    }

    /// The first clue of `puzzle` (unique, solution `solution`), in reading order, whose
    /// removal alone keeps the solution unique; `None` when the puzzle is minimal.
    pub(super) fn removable_clue(&mut self, puzzle: &Grid, solution: &Grid) -> Option<Cell> {
        self.sets.prepare(solution);
        let clues = clue_bits(puzzle);
        for c in Cell::all() {
            if puzzle.value(c) == 0 {
                continue;
            }
            let mut reduced = *puzzle;
            reduced.set(c, None);
            let left = clues & !(1u128 << c.index());
            if self
                .find_alternative(&reduced, left, &[c], solution)
                .is_none()
            {
                return Some(c);
            }
        }
        None
    }

    /// The clues of `puzzle` (unique, solution `solution`) whose removal alone keeps the
    /// solution unique, as raw set bits.
    pub(super) fn removable_clues(&mut self, puzzle: &Grid, solution: &Grid) -> u128 {
        self.sets.prepare(solution);
        let clues = clue_bits(puzzle);
        let mut removable = 0u128;
        for c in Cell::all() {
            if puzzle.value(c) == 0 {
                continue;
            }
            let mut reduced = *puzzle;
            reduced.set(c, None);
            let left = clues & !(1u128 << c.index());
            if self
                .find_alternative(&reduced, left, &[c], solution)
                .is_none()
            {
                removable |= 1u128 << c.index();
            }
        }
        removable
    }

    /// True when `puzzle` has exactly one solution and no clue can be removed without losing
    /// that: a minimal puzzle.
    pub fn is_minimal(&mut self, puzzle: &Grid) -> bool {
        if puzzle.check_givens().is_err() {
            return false;
        }
        self.solver.solve_into(puzzle, 2, &mut self.outcome);
        if self.outcome.count != 1 {
            return false;
        }
        let solution = self.outcome.solution;
        self.removable_clue(puzzle, &solution).is_none()
    }

    /// For a uniquely solvable puzzle, a minimal puzzle whose clues are a subset of its
    /// clues (so with the same solution). Deterministic: clues are tried in reading order,
    /// each removed when the solution stays unique without it. The result is minimal because
    /// a clue that was needed when it was tried is still needed once more clues are gone.
    pub fn minimize(&mut self, puzzle: &Grid) -> Result<Minimized, MinimizeError> {
        puzzle.check_givens().map_err(MinimizeError::Invalid)?;
        self.solver.solve_into(puzzle, 2, &mut self.outcome);
        match self.outcome.count {
            0 => return Err(MinimizeError::NoSolution),
            1 => {}
            _ => return Err(MinimizeError::MultipleSolutions),
        }
        let solution = self.outcome.solution;
        self.sets.prepare(&solution);
        let mut p = *puzzle;
        let mut clues = clue_bits(&p);
        for c in Cell::all() {
            if p.value(c) == 0 {
                continue;
            }
            let mut reduced = p;
            reduced.set(c, None);
            let left = clues & !(1u128 << c.index());
            if self
                .find_alternative(&reduced, left, &[c], &solution)
                .is_none()
            {
                p = reduced;
                clues = left;
            }
        }
        Ok(Minimized {
            puzzle: p,
            solution,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::generator::{PuzzleRng, random_full_grid};
    use crate::core::solver::{SolveOutcome, Solver};

    /// Removing several clues at once: the sequence of single exclusions agrees with counting
    /// solutions, while excluding the solution's digits at all removed cells in one solve
    /// calls some non-unique puzzles unique.
    #[test]
    fn excluding_a_whole_orbit_at_once_misses_solutions() {
        let mut g = Generator::new();
        let mut solver = Solver::new();
        let mut out = SolveOutcome::default();
        let (mut checked, mut not_unique, mut one_shot_wrong) = (0, 0, 0);
        for i in 0..40 {
            let mut rng = PuzzleRng::for_puzzle(3, i);
            let s = random_full_grid(&mut rng);
            let mut p = s;
            g.dig(&mut p, &s, Symmetry::None, 30, &mut rng);
            let clues: Vec<Cell> = Cell::all().filter(|&c| p.value(c) != 0).collect();
            for k in [2usize, 4] {
                for start in (0..clues.len() - k).step_by(3) {
                    let removed = &clues[start..start + k];
                    let mut reduced = p;
                    let mut excluded = Vec::new();
                    for &c in removed {
                        reduced.set(c, None);
                        excluded.push((c, digit_at(&s, c)));
                    }
                    g.sets.clear();
                    g.sets.prepare(&s);
                    let unique_by_sequence = g
                        .find_alternative(&reduced, clue_bits(&reduced), removed, &s)
                        .is_none();
                    solver.solve_into(&reduced, 2, &mut out);
                    let unique_by_count = out.count == 1;
                    assert_eq!(unique_by_sequence, unique_by_count, "{reduced}");
                    solver.solve_excluding_into(&reduced, &excluded, 1, &mut out);
                    let unique_by_one_shot = out.count == 0;
                    checked += 1;
                    not_unique += usize::from(!unique_by_count);
                    if unique_by_one_shot != unique_by_count {
                        // It can only err one way: it finds a subset of the other solutions.
                        assert!(unique_by_one_shot && !unique_by_count);
                        one_shot_wrong += 1;
                    }
                }
            }
        }
        assert!(checked > 500 && not_unique > 50, "{checked} {not_unique}");
        assert!(
            one_shot_wrong > 0,
            "no case where the one-shot exclusion errs"
        );
    }

    #[test]
    fn known_sets_never_change_a_uniqueness_answer() {
        let mut g = Generator::new();
        let mut solver = Solver::new();
        let mut out = SolveOutcome::default();
        for i in 0..10 {
            let mut rng = PuzzleRng::for_puzzle(4, i);
            let s = random_full_grid(&mut rng);
            let mut p = s;
            g.dig(&mut p, &s, Symmetry::None, 0, &mut rng);
            // Sets recorded while digging are real: every clue is the only clue of one.
            for c in Cell::all().filter(|&c| p.value(c) != 0) {
                let mut r = p;
                r.set(c, None);
                let left = clue_bits(&r);
                let by_sets = g.sets.sets().iter().any(|&u| u & left == 0);
                solver.solve_into(&r, 2, &mut out);
                assert_eq!(out.count, 2, "a clue of a dug-out puzzle can go: {p}");
                if by_sets {
                    assert!(g.find_alternative(&r, left, &[c], &s).is_some());
                }
            }
        }
    }
}
