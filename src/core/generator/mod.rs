//! Puzzle generation: random full grids, clue removal with symmetry, and difficulty
//! targeting; and `minimize` for existing puzzles.
//!
//! One puzzle is made from its own random stream ([`PuzzleRng`], fixed by `(seed, index)`),
//! so a batch comes out the same whatever the thread count:
//!
//! ```text
//! (seed, index) ─► full grid ─► dig orbits in random order ─► clue count / minimal? ─► rate ─► in range? ─► done
//!                  (full_grid)   (dig: unique after each)                             (Rate)      │ no
//!                        ▲                                                                        ▼
//!                        └──────────── fresh candidate, or a mutation of the best so far (target) ◄┘
//! ```
//!
//! - [`full_grid`]: a random solution grid by randomised exact search.
//! - [`dig`]: removing clues while the solution stays unique; minimality; [`Generator::minimize`].
//! - [`symmetry`]: the clue-pattern symmetries and their orbits.
//! - [`target`]: acceptance by clue count, minimality and ER range, and the local search that
//!   steers toward hard targets.
//! - [`unavoidable`]: unavoidable sets of a solution, which spare many uniqueness solves.
//! - [`rng`]: the per-puzzle random stream.
//! - [`variant`]: the plainer generator of the X, Windoku and Jigsaw grids, and [`layout`]:
//!   random Jigsaw layouts of nine connected regions.
//!
//! Grading is pluggable: anything implementing [`Rate`] rates accepted candidates, and
//! [`Unrated`] skips grading. Nothing here allocates per puzzle; keep one [`Generator`] per
//! worker.
//!
//! ```
//! use sudoku_batch::core::generator::{Generator, Target, Unrated};
//! use sudoku_batch::core::Solver;
//!
//! let mut generator = Generator::new();
//! let target = Target { minimal: true, ..Target::default() };
//! let made = generator.generate(&mut Unrated, &target, 7, 0).unwrap();
//! assert_eq!(Solver::new().solve(&made.puzzle, 2).count, 1);
//! assert_eq!(made.puzzle.clue_count(), usize::from(made.clues));
//! ```

pub mod dig;
pub mod full_grid;
pub mod layout;
pub mod rng;
pub mod symmetry;
pub mod target;
pub mod unavoidable;
pub mod variant;

pub use dig::{MinimizeError, Minimized};
pub use full_grid::random_full_grid;
pub use rng::PuzzleRng;
pub use symmetry::{Orbit, Symmetry, SymmetryChoice, UnknownSymmetry};
pub use target::{ErRange, ErScore, GenerateError, Rejections, Target};

use super::cancel::Cancel;
use super::grid::Grid;
use super::profile::TechniqueTarget;
use super::solver::{SolveOutcome, Solver};

/// A grader as the generator sees it: rates a uniquely solvable puzzle.
pub trait Rate {
    /// What the rater reports for a puzzle (written out with the puzzle).
    type Rating;

    /// Rates `puzzle`, whose unique solution is `solution`.
    fn rate(&mut self, puzzle: &Grid, solution: &Grid) -> Self::Rating;

    /// The ER of a rating, for targeting; `None` when the rater gives no ER.
    fn er(rating: &Self::Rating) -> Option<ErScore>;

    /// How far a rating is from meeting technique conditions (0: it meets them; see
    /// [`TechniqueTarget::misses`]). Raters that do not profile meet none.
    fn technique_misses(_rating: &Self::Rating, _target: &TechniqueTarget) -> u16 {
        1
    }

    /// Tells the rater that ratings above `cap` (tenths of ER) need not be exact: it may
    /// stop early with a lower bound above `cap` (see
    /// [`Grader::set_er_cap`](crate::core::grader::Grader::set_er_cap)). `None`: every
    /// rating exact.
    fn set_er_cap(&mut self, _cap: Option<u16>) {}
}

/// The rater that does not rate (`--no-grade`): every rating is `()`, with no ER.
#[derive(Clone, Copy, Debug, Default)]
pub struct Unrated;

impl Rate for Unrated {
    type Rating = ();
    #[inline]
    fn rate(&mut self, _puzzle: &Grid, _solution: &Grid) {}
    #[inline]
    fn er(_rating: &()) -> Option<ErScore> {
        None
    }
}

/// A generated puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Generated<R> {
    /// The puzzle: uniquely solvable, with the clue pattern of `symmetry`.
    pub puzzle: Grid,
    /// Its unique solution.
    pub solution: Grid,
    /// Number of clues.
    pub clues: u8,
    /// The symmetry of the clue pattern (the one drawn, for `random`).
    pub symmetry: Symmetry,
    /// What the rater said.
    pub rating: R,
    /// Candidates tried for this puzzle, the accepted one included.
    pub attempts: u64,
}

/// Generates puzzles. Holds the solver and scratch; keep one per worker and reuse it.
#[derive(Clone, Debug, Default)]
pub struct Generator {
    solver: Solver,
    outcome: SolveOutcome,
    sets: unavoidable::UnavoidableSets,
    cancel: Cancel,
}

impl Generator {
    /// A generator ready to use.
    pub fn new() -> Generator {
        Generator::default()
    }

    /// Makes [`Generator::generate`] stop between candidates soon after `cancel` is set
    /// (with a [`GenerateError`] whose `interrupted` is true), and its solver give up.
    pub fn set_cancel(&mut self, cancel: Cancel) {
        self.cancel = cancel;
        self.solver.set_cancel(cancel);
    }
}
