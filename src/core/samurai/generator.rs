//! Samurai puzzle generation: a random complete samurai grid from randomised exact search,
//! then clue removal in random order (a whole symmetry orbit of the 21x21 layout at a time),
//! keeping a removal only while the solution stays unique. The result is minimal for its
//! symmetry: no orbit of clues can go without losing uniqueness.
//!
//! Each puzzle's randomness comes from `(seed, index)` alone ([`rng_for`]: a
//! `Xoshiro256PlusPlus` seeded through SplitMix64), so the same pair gives the same puzzle on
//! any machine, thread count or shard split.
//!
//! Uniqueness after removing an orbit `c1..ck` from a unique puzzle with solution `S`: any
//! other solution differs from `S` in some first `ci`; so the puzzle stays unique exactly when,
//! for every `i`, the puzzle with `c1..c(i-1)` kept, `ci..ck` removed and `S[ci]` excluded at
//! `ci` has no solution. Each such test is a quick "prove there is none" search.

use std::fmt;
use std::str::FromStr;

use rand::{Rng, SeedableRng};
use rand_xoshiro::{SplitMix64, Xoshiro256PlusPlus};

use super::solver::{SamuraiOutcome, SamuraiSolver};
use super::{SamuraiCell, SamuraiGrid};
use crate::core::generator::rng::below;

/// Symmetries of the 21x21 layout that generated clue patterns can keep. The names are those
/// of the classic generator.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SamuraiSymmetry {
    /// No symmetry.
    #[default]
    None,
    /// Half-turn about the centre: (r, c) and (20-r, 20-c).
    Rot180,
    /// Quarter-turns: (r, c), (c, 20-r), (20-r, 20-c), (20-c, r).
    Rot90,
    /// Left-right mirror: (r, c) and (r, 20-c).
    Mirror,
    /// Top-bottom flip: (r, c) and (20-r, c).
    Flip,
    /// Main diagonal: (r, c) and (c, r).
    Diagonal,
    /// Anti-diagonal: (r, c) and (20-c, 20-r).
    Antidiagonal,
}

impl SamuraiSymmetry {
    /// Every symmetry, in the order of the names.
    pub const ALL: [SamuraiSymmetry; 7] = [
        SamuraiSymmetry::None,
        SamuraiSymmetry::Rot180,
        SamuraiSymmetry::Rot90,
        SamuraiSymmetry::Mirror,
        SamuraiSymmetry::Flip,
        SamuraiSymmetry::Diagonal,
        SamuraiSymmetry::Antidiagonal,
    ];

    /// The name used on the command line: `none`, `rot180`, `rot90`, `mirror`, `flip`,
    /// `diagonal`, `antidiagonal`.
    pub const fn name(self) -> &'static str {
        match self {
            SamuraiSymmetry::None => "none",
            SamuraiSymmetry::Rot180 => "rot180",
            SamuraiSymmetry::Rot90 => "rot90",
            SamuraiSymmetry::Mirror => "mirror",
            SamuraiSymmetry::Flip => "flip",
            SamuraiSymmetry::Diagonal => "diagonal",
            SamuraiSymmetry::Antidiagonal => "antidiagonal",
        }
    }

    /// The images of layout position `(r, c)` under the symmetry group, `(r, c)` first.
    /// Repeats are possible (a cell on an axis is its own partner).
    fn images(self, r: usize, c: usize) -> ([(usize, usize); 4], usize) {
        let n = 20;
        let one = |p| ([p, p, p, p], 1);
        match self {
            SamuraiSymmetry::None => one((r, c)),
            SamuraiSymmetry::Rot180 => ([(r, c), (n - r, n - c), (r, c), (r, c)], 2),
            SamuraiSymmetry::Rot90 => ([(r, c), (c, n - r), (n - r, n - c), (n - c, r)], 4),
            SamuraiSymmetry::Mirror => ([(r, c), (r, n - c), (r, c), (r, c)], 2),
            SamuraiSymmetry::Flip => ([(r, c), (n - r, c), (r, c), (r, c)], 2),
            SamuraiSymmetry::Diagonal => ([(r, c), (c, r), (r, c), (r, c)], 2),
            SamuraiSymmetry::Antidiagonal => ([(r, c), (n - c, n - r), (r, c), (r, c)], 2),
        }
    }

    /// The orbit of `cell`: the distinct cells it maps to, `cell` first, written into `out`;
    /// returns how many (1, 2 or 4).
    pub fn orbit(self, cell: SamuraiCell, out: &mut [SamuraiCell; 4]) -> usize {
        let (imgs, n) = self.images(cell.layout_row(), cell.layout_col());
        let mut k = 0;
        for &(r, c) in &imgs[..n] {
            // The samurai shape maps onto itself under every symmetry listed.
            let Some(x) = SamuraiCell::at(r, c) else {
                continue;
            };
            if !out[..k].contains(&x) {
                out[k] = x;
                k += 1;
            }
        }
        k
    }

    /// True when `grid`'s filled cells form a pattern that this symmetry maps onto itself.
    pub fn holds_for(self, grid: &SamuraiGrid) -> bool {
        let mut orbit = [SamuraiCell::new(0); 4];
        SamuraiCell::all().all(|c| {
            let n = self.orbit(c, &mut orbit);
            let filled = grid.value(c) != 0;
            orbit[..n].iter().all(|&o| (grid.value(o) != 0) == filled)
        })
    }
}

impl fmt::Display for SamuraiSymmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for SamuraiSymmetry {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        SamuraiSymmetry::ALL
            .into_iter()
            .find(|sym| sym.name() == s)
            .ok_or_else(|| {
                format!(
                    "unknown symmetry '{s}' (expected none, rot180, rot90, mirror, flip, \
                     diagonal or antidiagonal)"
                )
            })
    }
}

/// The random generator for puzzle `index` of a run with `seed`: `Xoshiro256PlusPlus` seeded
/// (through SplitMix64) from a key that mixes both. Portable and stable across versions.
pub fn rng_for(seed: u64, index: u64) -> Xoshiro256PlusPlus {
    let a = SplitMix64::seed_from_u64(seed).next_u64();
    let b = SplitMix64::seed_from_u64(index ^ 0xd1b5_4a32_d192_ed03).next_u64();
    Xoshiro256PlusPlus::seed_from_u64(a ^ b)
}

/// A generated puzzle with its unique solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GeneratedSamurai {
    /// The puzzle (exactly one solution).
    pub puzzle: SamuraiGrid,
    /// Its solution.
    pub solution: SamuraiGrid,
}

impl GeneratedSamurai {
    /// Number of givens (each shared cell once).
    pub fn clues(&self) -> usize {
        self.puzzle.clue_count()
    }
}

/// Generates unique-solution samurai puzzles. Holds its solver and scratch; keep one per
/// worker and reuse it (nothing is allocated per puzzle).
#[derive(Clone, Debug)]
pub struct SamuraiGenerator {
    solver: SamuraiSolver,
    order: [u16; 369],
}

impl Default for SamuraiGenerator {
    fn default() -> Self {
        SamuraiGenerator::new()
    }
}

impl SamuraiGenerator {
    /// A generator ready to use.
    pub fn new() -> SamuraiGenerator {
        SamuraiGenerator {
            solver: SamuraiSolver::new(),
            order: std::array::from_fn(|i| i as u16),
        }
    }

    /// Puzzle number `index` of the run with `seed`, with clue pattern symmetry `symmetry`.
    pub fn generate(
        &mut self,
        seed: u64,
        index: u64,
        symmetry: SamuraiSymmetry,
    ) -> GeneratedSamurai {
        let mut rng = rng_for(seed, index);
        self.generate_with(&mut rng, symmetry)
    }

    /// A puzzle drawn from `rng`.
    pub fn generate_with<R: Rng>(
        &mut self,
        rng: &mut R,
        symmetry: SamuraiSymmetry,
    ) -> GeneratedSamurai {
        // The empty samurai always has solutions, so this search always succeeds.
        let solution = self
            .solver
            .random_solution(&SamuraiGrid::EMPTY, rng)
            .unwrap_or_default();
        let puzzle = self.remove_clues(solution, rng, symmetry);
        GeneratedSamurai { puzzle, solution }
    }

    /// Removes clues from the complete grid `solution` in random order, an orbit at a time,
    /// keeping each removal that leaves the solution unique.
    pub fn remove_clues<R: Rng>(
        &mut self,
        solution: SamuraiGrid,
        rng: &mut R,
        symmetry: SamuraiSymmetry,
    ) -> SamuraiGrid {
        // Fisher-Yates shuffle of the visiting order.
        for (i, o) in self.order.iter_mut().enumerate() {
            *o = i as u16;
        }
        for i in (1..369).rev() {
            let j = below(rng, i as u32 + 1) as usize;
            self.order.swap(i, j);
        }
        let mut puzzle = solution;
        let mut visited = [false; 369];
        let mut orbit = [SamuraiCell::new(0); 4];
        let mut out = SamuraiOutcome::default();
        for k in 0..369 {
            let cell = SamuraiCell::new(self.order[k]);
            if visited[cell.index()] {
                continue;
            }
            let n = symmetry.orbit(cell, &mut orbit);
            for &c in &orbit[..n] {
                visited[c.index()] = true;
            }
            for &c in &orbit[..n] {
                puzzle.set(c, None);
            }
            let mut unique = true;
            for &c in &orbit[..n] {
                let Some(d) = solution.digit(c) else {
                    continue;
                };
                self.solver
                    .solve_excluding_into(&puzzle, &[(c, d)], 1, &mut out);
                // Keep ci for the following tests (the first difference is at a later cell).
                puzzle.set(c, Some(d));
                if out.count != 0 {
                    unique = false;
                    break;
                }
            }
            if unique {
                for &c in &orbit[..n] {
                    puzzle.set(c, None);
                }
            } else {
                for &c in &orbit[..n] {
                    puzzle.set(c, solution.digit(c));
                }
            }
        }
        puzzle
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orbits_stay_on_the_samurai_shape() {
        let mut orbit = [SamuraiCell::new(0); 4];
        for sym in SamuraiSymmetry::ALL {
            for c in SamuraiCell::all() {
                let n = sym.orbit(c, &mut orbit);
                assert!(n >= 1 && orbit[0] == c, "{sym} {c}");
            }
        }
        // The centre cell is fixed by every symmetry; a corner has four images under rot90.
        let centre = SamuraiCell::at(10, 10).unwrap();
        assert_eq!(SamuraiSymmetry::Rot90.orbit(centre, &mut orbit), 1);
        assert_eq!(
            SamuraiSymmetry::Rot90.orbit(SamuraiCell::new(0), &mut orbit),
            4
        );
        assert_eq!(
            "rot90".parse::<SamuraiSymmetry>(),
            Ok(SamuraiSymmetry::Rot90)
        );
        assert!("spiral".parse::<SamuraiSymmetry>().is_err());
    }

    #[test]
    fn generated_puzzles_are_unique_symmetric_and_reproducible() {
        let mut g = SamuraiGenerator::new();
        let mut s = SamuraiSolver::new();
        for (i, sym) in [SamuraiSymmetry::None, SamuraiSymmetry::Rot90]
            .into_iter()
            .enumerate()
        {
            let a = g.generate(42, i as u64, sym);
            let out = s.solve(&a.puzzle, 2);
            assert_eq!(out.count, 1);
            assert_eq!(out.solution, a.solution);
            assert!(sym.holds_for(&a.puzzle));
            assert_eq!(g.generate(42, i as u64, sym), a);
        }
    }
}
