//! Puzzles of the 81-cell variants (X, Windoku, Jigsaw): a random completed grid of the
//! geometry, then clues removed an orbit at a time in random order while the solution
//! stays unique.
//!
//! The classic grid has its own generator (unavoidable sets, steering toward hard targets,
//! see [`super::target`]); the variants use this plainer one with the [`ShapeSolver`]:
//!
//! - the completed grid is a [`ShapeSolver::random_solution`] of the empty grid (for
//!   Jigsaw, of the layout at hand; a layout with no completed grid is reported as `None`,
//!   and the caller draws another);
//! - a clue goes when no solution has another digit in its cell
//!   ([`ShapeSolver::solve_excluding_into`]), so every puzzle has exactly one solution;
//! - the clue pattern keeps the chosen [`Symmetry`] (a symmetry of the pattern, not of the
//!   houses, so every symmetry is allowed on every shape); with [`Symmetry::None`] the
//!   puzzle is minimal (no single clue can go), with a symmetry no orbit can go.

use rand_xoshiro::rand_core::Rng;

use super::symmetry::Symmetry;
use crate::core::generator::rng::below;
use crate::core::geometry::{Geometry, S81};
use crate::core::grid::Grid;
use crate::core::index::{Cell, Digit};
use crate::core::solver::{ShapeSolver, SolveOutcome};

/// Guesses allowed for filling an empty grid. X and Windoku grids fill with a handful; a
/// Jigsaw layout that has not filled by then is dropped for another (the search can take
/// very long to prove that a layout has no completed grid).
const FILL_GUESSES: u64 = 5_000;

/// A puzzle with its unique solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MadeVariant {
    /// The puzzle.
    pub puzzle: Grid,
    /// Its one solution.
    pub solution: Grid,
}

/// Makes puzzles of an 81-cell geometry; keep one per worker (nothing is allocated per
/// puzzle).
#[derive(Clone, Debug, Default)]
pub struct VariantGenerator {
    solver: ShapeSolver,
    out: SolveOutcome,
}

impl VariantGenerator {
    /// A generator.
    pub fn new() -> VariantGenerator {
        VariantGenerator::default()
    }

    /// A puzzle of `g` drawn from `rng` with clue pattern symmetry `symmetry`; `None` when
    /// no completed grid of the geometry was found within a few thousand guesses (some
    /// Jigsaw layouts have none).
    pub fn generate<R: Rng>(
        &mut self,
        g: &Geometry<S81>,
        rng: &mut R,
        symmetry: Symmetry,
    ) -> Option<MadeVariant> {
        let solution = self
            .solver
            .random_solution(g, &Grid::EMPTY, FILL_GUESSES, rng)?;
        let puzzle = self.dig(g, &solution, rng, symmetry);
        Some(MadeVariant { puzzle, solution })
    }

    /// Removes clues from the completed grid `solution` in random order, an orbit at a
    /// time, keeping each removal after which the solution is still the only one.
    pub fn dig<R: Rng>(
        &mut self,
        g: &Geometry<S81>,
        solution: &Grid,
        rng: &mut R,
        symmetry: Symmetry,
    ) -> Grid {
        let mut order: [u8; 81] = std::array::from_fn(|i| i as u8);
        for i in (1..81).rev() {
            order.swap(i, below(rng, i as u32 + 1) as usize);
        }
        let mut puzzle = *solution;
        let mut visited = 0u128;
        for &k in &order {
            let cell = Cell::new(k);
            if visited >> k & 1 != 0 {
                continue;
            }
            let orbit = symmetry.orbit(cell);
            for &c in orbit.cells() {
                visited |= 1 << c.index();
                puzzle.set(c, None);
            }
            // The orbit can go when no solution differs from `solution` in one of its
            // cells: test each cell with the cells after it still empty and the ones
            // before it given (a solution differing there differs at its first cell).
            let mut unique = true;
            for &c in orbit.cells() {
                let Some(d) = solution.digit(c) else {
                    continue;
                };
                self.solver.solve_excluding_into(
                    g,
                    &puzzle,
                    (c.index(), d.index()),
                    1,
                    &mut self.out,
                );
                puzzle.set(c, Some(d));
                if self.out.count != 0 {
                    unique = false;
                    break;
                }
            }
            for &c in orbit.cells() {
                let keep: Option<Digit> = if unique { None } else { solution.digit(c) };
                puzzle.set(c, keep);
            }
        }
        puzzle
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::generator::layout::random_layout;
    use crate::core::geometry;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn check(g: &Geometry<S81>, made: &MadeVariant, symmetry: Symmetry) {
        let mut s = ShapeSolver::new();
        let mut out = SolveOutcome::default();
        s.solve_into(g, &made.puzzle, 2, &mut out);
        assert_eq!(out.count, 1);
        assert_eq!(out.solution, made.solution);
        assert!(symmetry.holds(&made.puzzle));
        if symmetry == Symmetry::None {
            // Minimal: every clue is needed.
            for c in Cell::all() {
                if made.puzzle.digit(c).is_some() {
                    let mut p = made.puzzle;
                    p.set(c, None);
                    s.solve_into(g, &p, 2, &mut out);
                    assert_eq!(out.count, 2, "clue {c} could go");
                }
            }
        }
    }

    #[test]
    fn puzzles_are_unique_symmetric_minimal_and_reproducible() {
        let mut maker = VariantGenerator::new();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        for g in [geometry::x(), geometry::windoku()] {
            for sym in [Symmetry::None, Symmetry::Rot180, Symmetry::Rot90] {
                let made = maker
                    .generate(g, &mut rng, sym)
                    .expect("X and Windoku fill");
                check(g, &made, sym);
            }
        }
        let mut jigsaws = 0;
        while jigsaws < 3 {
            let layout = random_layout(&mut rng);
            let g = Geometry::new_jigsaw(&layout).expect("a layout");
            if let Some(made) = maker.generate(&g, &mut rng, Symmetry::None) {
                check(&g, &made, Symmetry::None);
                jigsaws += 1;
            }
        }
        let a = maker.generate(
            geometry::x(),
            &mut Xoshiro256PlusPlus::seed_from_u64(4),
            Symmetry::None,
        );
        let b = maker.generate(
            geometry::x(),
            &mut Xoshiro256PlusPlus::seed_from_u64(4),
            Symmetry::None,
        );
        assert_eq!(a, b);
    }
}
