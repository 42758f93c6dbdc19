//! The grid shapes of one size as the commands see them: the type of a puzzle's cells, the
//! exact solver, and the one-line text form. [`S81`] is the family of the classic, X,
//! Windoku and Jigsaw grids (a [`Grid`] of 81 cells, solved by the classic solver on the
//! classic geometry and by [`ShapeSolver`] on the others), [`S369`] the Samurai family (a
//! [`SamuraiGrid`], solved by the [`SamuraiSolver`]).
//!
//! Commands are written once, generic over the family, with the geometry of the shape at
//! hand (see [`crate::core::geometry`]).

use std::fmt;

use super::cancel::Cancel;
use super::generator::Generator;
use super::geometry::{self, Geometry, S81, S369, Shape, Size};
use super::grid::Grid;
use super::samurai::{SamuraiGrid, SamuraiOutcome, SamuraiSolver};
use super::solver::{Backend, ShapeSolver, SolveOutcome, Solver};

/// What an exact solver found: solutions counted up to the limit, the first one, guesses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Solved<F: Family> {
    /// Solutions found, capped at the limit asked for.
    pub count: u32,
    /// The first solution found (meaningful when `count > 0`).
    pub solution: F::Grid,
    /// Branching decisions made (see [`SolveOutcome::guesses`]).
    pub guesses: u64,
}

/// The shapes of one [`Size`], as the commands use them.
pub trait Family: Size {
    /// A puzzle's (or solution's) cells.
    type Grid: Copy + Default + PartialEq + Eq + fmt::Debug + fmt::Display + Send + Sync + 'static;
    /// The exact solver(s), one per worker.
    type Solver: Default + fmt::Debug + Send;

    /// The shapes of this family.
    const SHAPES: &'static [Shape];

    /// The values of `grid`, one per cell (0 for empty).
    fn values(grid: &Self::Grid) -> &Self::Cells<u8>;

    /// The grid with these values (each 0-9).
    fn grid(values: &Self::Cells<u8>) -> Self::Grid;

    /// Counts the solutions of `puzzle` on `g` up to `limit`.
    fn solve(
        solver: &mut Self::Solver,
        g: &Geometry<Self>,
        puzzle: &Self::Grid,
        limit: u32,
        out: &mut Solved<Self>,
    );

    /// Makes `solver`'s later searches (solving and minimizing) give up soon after
    /// `cancel` is set; their results are then partial, to be thrown away.
    fn set_cancel(solver: &mut Self::Solver, cancel: Cancel);

    /// Makes `solver` run the classic solver's kernel with `backend` (see [`Backend`]);
    /// families whose solvers have a single implementation ignore it.
    fn set_backend(_solver: &mut Self::Solver, _backend: Backend) {}

    /// Appends the one-line text form (81 or 405 characters, `.` for empty cells).
    fn write_line(grid: &Self::Grid, out: &mut Vec<u8>);

    /// The geometry of `shape` (one of [`Family::SHAPES`]; a Jigsaw geometry starts with
    /// the boxes as regions, to be set per puzzle).
    fn geometry(shape: Shape) -> Geometry<Self>;

    /// Gives a Jigsaw geometry the layout `regions` (zero-based region of each cell); shapes
    /// without regions ignore it.
    fn set_layout(_geo: &mut Geometry<Self>, _regions: &[u8; 81]) {}

    /// The layout of a Jigsaw geometry (zero-based region of each cell); `None` for shapes
    /// without regions.
    fn layout(_geo: &Geometry<Self>) -> Option<[u8; 81]> {
        None
    }

    /// Number of clues of `grid`.
    fn clues(grid: &Self::Grid) -> usize {
        Self::values(grid)
            .as_ref()
            .iter()
            .filter(|&&v| v != 0)
            .count()
    }

    /// For a puzzle with exactly one solution on `g`, a minimal puzzle whose clues are a
    /// subset of its clues: clues are tried in cell order, each removed when the solution
    /// stays unique without it (the result is minimal, since a clue needed when it was
    /// tried is still needed once more clues are gone).
    fn minimize(solver: &mut Self::Solver, g: &Geometry<Self>, puzzle: &Self::Grid) -> Self::Grid {
        minimize_by_removal(solver, g, puzzle)
    }
}

/// [`Family::minimize`] by trying each clue in turn with the family's exact solver.
pub fn minimize_by_removal<F: Family>(
    solver: &mut F::Solver,
    g: &Geometry<F>,
    puzzle: &F::Grid,
) -> F::Grid {
    let mut values = *F::values(puzzle);
    let mut out = Solved::default();
    for i in 0..F::CELLS {
        let v = values[i];
        if v == 0 {
            continue;
        }
        values[i] = 0;
        F::solve(solver, g, &F::grid(&values), 2, &mut out);
        if out.count != 1 {
            values[i] = v;
        }
    }
    F::grid(&values)
}

/// The solvers of the 81-cell family.
#[derive(Debug, Default)]
pub struct Solvers81 {
    classic: Solver,
    shape: ShapeSolver,
    out: SolveOutcome,
    generator: Generator,
}

impl Family for S81 {
    type Grid = Grid;
    type Solver = Solvers81;
    const SHAPES: &'static [Shape] = &[Shape::Classic, Shape::X, Shape::Windoku, Shape::Jigsaw];

    #[inline]
    fn values(grid: &Grid) -> &[u8; 81] {
        grid.values()
    }

    fn grid(values: &[u8; 81]) -> Grid {
        Grid::from_values(*values).unwrap_or_default()
    }

    fn set_backend(s: &mut Solvers81, backend: Backend) {
        s.classic.set_backend(backend);
    }

    fn set_cancel(s: &mut Solvers81, cancel: Cancel) {
        s.classic.set_cancel(cancel);
        s.shape.set_cancel(cancel);
        s.generator.set_cancel(cancel);
    }

    fn solve(
        s: &mut Solvers81,
        g: &Geometry<S81>,
        puzzle: &Grid,
        limit: u32,
        out: &mut Solved<S81>,
    ) {
        if g.shape() == Shape::Classic {
            s.classic.solve_into(puzzle, limit, &mut s.out);
        } else {
            s.shape.solve_into(g, puzzle, limit, &mut s.out);
        }
        *out = Solved {
            count: s.out.count,
            solution: s.out.solution,
            guesses: s.out.guesses,
        };
    }

    fn write_line(grid: &Grid, out: &mut Vec<u8>) {
        out.extend_from_slice(&grid.to_line_bytes());
    }

    fn set_layout(geo: &mut Geometry<S81>, regions: &[u8; 81]) {
        // Consecutive puzzles often share a layout: rebuild only when it changes.
        if geo.shape() == Shape::Jigsaw && geo.regions() != *regions {
            // A bad layout leaves the geometry as it was; layouts here were checked.
            let _ = geo.set_regions(regions);
        }
    }

    fn layout(geo: &Geometry<S81>) -> Option<[u8; 81]> {
        (geo.shape() == Shape::Jigsaw).then(|| geo.regions())
    }

    fn minimize(s: &mut Solvers81, g: &Geometry<S81>, puzzle: &Grid) -> Grid {
        if g.shape() == Shape::Classic {
            // The generator's minimize spares most solves with unavoidable sets.
            match s.generator.minimize(puzzle) {
                Ok(m) => m.puzzle,
                Err(_) => *puzzle,
            }
        } else {
            minimize_by_removal(s, g, puzzle)
        }
    }

    fn geometry(shape: Shape) -> Geometry<S81> {
        match shape {
            Shape::X => geometry::x().clone(),
            Shape::Windoku => geometry::windoku().clone(),
            Shape::Jigsaw => {
                let boxes: [u8; 81] =
                    std::array::from_fn(|c| super::index::Cell::new(c as u8).box_index());
                Geometry::new_jigsaw(&boxes).unwrap_or_else(|_| geometry::classic().clone())
            }
            _ => geometry::classic().clone(),
        }
    }
}

/// The solver of the Samurai family.
#[derive(Debug, Default)]
pub struct Solvers369 {
    solver: SamuraiSolver,
    out: SamuraiOutcome,
}

impl Family for S369 {
    type Grid = SamuraiGrid;
    type Solver = Solvers369;
    const SHAPES: &'static [Shape] = &[Shape::Samurai];

    #[inline]
    fn values(grid: &SamuraiGrid) -> &[u8; 369] {
        grid.values()
    }

    fn grid(values: &[u8; 369]) -> SamuraiGrid {
        SamuraiGrid::from_values(*values).unwrap_or_default()
    }

    fn set_cancel(s: &mut Solvers369, cancel: Cancel) {
        s.solver.set_cancel(cancel);
    }

    fn solve(
        s: &mut Solvers369,
        _g: &Geometry<S369>,
        puzzle: &SamuraiGrid,
        limit: u32,
        out: &mut Solved<S369>,
    ) {
        s.solver.solve_into(puzzle, limit, &mut s.out);
        *out = Solved {
            count: s.out.count,
            solution: s.out.solution,
            guesses: s.out.guesses,
        };
    }

    fn write_line(grid: &SamuraiGrid, out: &mut Vec<u8>) {
        grid.write_line(out);
    }

    fn geometry(_shape: Shape) -> Geometry<S369> {
        geometry::samurai().clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_families_solve_through_one_interface() {
        fn check<F: Family>(shape: Shape, puzzle: &F::Grid) -> Solved<F> {
            let g = F::geometry(shape);
            let mut s = F::Solver::default();
            let mut out = Solved::default();
            F::solve(&mut s, &g, puzzle, 2, &mut out);
            out
        }
        let p: Grid =
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
                .parse()
                .unwrap();
        let classic = check::<S81>(Shape::Classic, &p);
        let jigsaw = check::<S81>(Shape::Jigsaw, &p);
        assert_eq!((classic.count, jigsaw.count), (1, 1));
        assert_eq!(classic.solution, jigsaw.solution);
        let empty = check::<S369>(Shape::Samurai, &SamuraiGrid::EMPTY);
        assert_eq!(empty.count, 2);
        let mut line = Vec::new();
        S369::write_line(&empty.solution, &mut line);
        assert_eq!(line.len(), 405);
    }
}
