//! The exact solver: counts the solutions of a classic 9x9 puzzle up to a limit and returns
//! the first one found, with the number of guesses it took.
//!
//! It propagates naked and hidden singles and both kinds of triads (box/line intersections,
//! along rows and along columns, and the rule that each holds exactly three digits) at every
//! node, over a band-oriented bitboard of the nine digits (the `kernel` module documents the
//! layout and the rules), and branches on a digit's placement pattern in a band or stack in
//! a depth-first search whose states are copied, never undone. The state is three cache
//! lines; the search keeps an explicit stack of them, built once per [`Solver`], so solving
//! allocates nothing.
//!
//! Three backends run the same kernel: AVX-512 intrinsics, AVX2 intrinsics, and portable
//! 128-bit vectors for any machine (NEON on ARM, SSE2 on x86-64, through the `wide` crate);
//! the fastest the CPU supports is chosen at run time. They give bit-identical results
//! (counts, solutions and guesses); see [`Backend`].
//!
//! Sources of the ideas (no code taken): the band layout is JCZSolve's (Zhouyundong and
//! champagne, the Enjoy Sudoku players' forum; also the `sudoku` crate); propagating triads
//! and counting guesses per binary branch follow Tom Dillon's tdoku and its design notes.

mod kernel;
mod portable;
mod shape;
#[cfg(target_arch = "x86_64")]
mod shape_avx512;

pub use shape::ShapeSolver;

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;

use super::cancel::Cancel;
use super::grid::Grid;
use super::index::{Cell, Digit};

/// What a solve found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveOutcome {
    /// Solutions found, capped at the limit that was asked for.
    pub count: u32,
    /// The first solution found (meaningful when `count > 0`).
    pub solution: Grid,
    /// Guesses made: the number of binary branching decisions. At each one the search
    /// asserts something propagation could not decide (a digit's placement pattern in a
    /// band or stack, or that a digit lies in a given triad, or late in the search a cell's
    /// candidate) and keeps the same state with the opposite assumption to explore later. Each decision counts once, whether or not its other side
    /// is ever explored (it is not when the limit is reached first). A choice among *k*
    /// alternatives can thus cost up to *k - 1* guesses, and a puzzle that propagation
    /// alone solves costs none. The count is deterministic: the same puzzle and limit give
    /// the same guesses on every run and with every [`Backend`].
    ///
    /// This is how tdoku counts its `num_guesses` (one per assert-or-negate branch), so
    /// the figures compare directly with its published guesses per puzzle.
    pub guesses: u64,
}

/// Which implementation of the kernel a [`Solver`] runs. All give the same results.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Backend {
    /// The fastest one this CPU supports: AVX-512, else AVX2, else portable.
    #[default]
    Auto,
    /// Portable 128-bit vector code (the `wide` crate) that runs on any machine: NEON on
    /// aarch64, SSE2 on x86-64, plain arrays where the target has no vector unit.
    Portable,
    /// AVX2 intrinsics (x86-64 only).
    Avx2,
    /// AVX-512F intrinsics (x86-64 only).
    Avx512,
}

impl Backend {
    /// The backends that name one implementation (every variant but [`Backend::Auto`]),
    /// fastest first.
    pub const CONCRETE: [Backend; 3] = [Backend::Avx512, Backend::Avx2, Backend::Portable];

    /// True when this backend can run on this machine.
    pub fn is_available(self) -> bool {
        match self {
            Backend::Auto | Backend::Portable => true,
            Backend::Avx2 => Engine::avx2().is_some(),
            Backend::Avx512 => Engine::avx512().is_some(),
        }
    }

    /// The backend a [`Solver::with_backend`] of this one runs on this machine (never
    /// [`Backend::Auto`]).
    pub fn resolve(self) -> Backend {
        Engine::resolve(self).backend()
    }

    /// The lower-case name the command line and the reports use: `auto`, `portable`,
    /// `avx2`, `avx512`.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Auto => "auto",
            Backend::Portable => "portable",
            Backend::Avx2 => "avx2",
            Backend::Avx512 => "avx512",
        }
    }
}

impl std::fmt::Display for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A backend resolved against the running CPU.
#[derive(Clone, Copy, Debug)]
enum Engine {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2(avx2::Avx2Token),
    #[cfg(target_arch = "x86_64")]
    Avx512(avx512::Avx512Token),
}

impl Engine {
    fn avx512() -> Option<Engine> {
        #[cfg(target_arch = "x86_64")]
        {
            avx512::Avx512Token::detect().map(Engine::Avx512)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            None
        }
    }

    fn avx2() -> Option<Engine> {
        #[cfg(target_arch = "x86_64")]
        {
            avx2::Avx2Token::detect().map(Engine::Avx2)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            None
        }
    }

    fn resolve(backend: Backend) -> Engine {
        let engine = match backend {
            Backend::Portable => None,
            Backend::Avx2 => Engine::avx2(),
            Backend::Auto | Backend::Avx512 => Engine::avx512().or_else(Engine::avx2),
        };
        engine.unwrap_or(Engine::Portable)
    }

    fn backend(self) -> Backend {
        match self {
            Engine::Portable => Backend::Portable,
            #[cfg(target_arch = "x86_64")]
            Engine::Avx2(_) => Backend::Avx2,
            #[cfg(target_arch = "x86_64")]
            Engine::Avx512(_) => Backend::Avx512,
        }
    }
}

/// The search state: candidates of the nine digits, band by band (layout in `kernel`).
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(C, align(64))]
struct State {
    w: [u32; 48],
}

const _: () = assert!(
    std::mem::size_of::<State>() == 192,
    "State is meant to stay three cache lines"
);

impl State {
    const ZERO: State = State { w: [0; 48] };

    /// Every digit possible in every cell.
    const FULL: State = {
        let mut w = [0; 48];
        let mut i = 0;
        while i < 36 {
            if i % 4 != 3 {
                w[i] = kernel::ALL;
            }
            i += 1;
        }
        State { w }
    };
}

/// Depth of the search stack: one pending state per guess on the current path, and each
/// guess fixes one more cell.
const STACK_LEN: usize = 81;

/// The exact solver. Build one per worker and reuse it: it owns its search stack (15 KiB,
/// allocated once by [`Solver::new`]) and allocates nothing while solving.
#[derive(Clone)]
pub struct Solver {
    engine: Engine,
    stack: Box<[State; STACK_LEN]>,
    solution: State,
    cancel: Cancel,
}

impl std::fmt::Debug for Solver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solver")
            .field("backend", &self.backend())
            .finish_non_exhaustive()
    }
}

impl Default for Solver {
    fn default() -> Solver {
        Solver::new()
    }
}

impl Solver {
    /// A solver using the fastest backend this CPU supports.
    pub fn new() -> Solver {
        Solver::with_backend(Backend::Auto)
    }

    /// A solver using `backend` when this machine supports it; else the fastest one it does
    /// (asking for AVX-512 on an AVX2 machine gives AVX2, anything unavailable at worst the
    /// portable backend). [`Solver::backend`] tells which runs; see also
    /// [`Backend::is_available`].
    pub fn with_backend(backend: Backend) -> Solver {
        Solver {
            engine: Engine::resolve(backend),
            stack: Box::new([State::ZERO; STACK_LEN]),
            solution: State::ZERO,
            cancel: Cancel::NEVER,
        }
    }

    /// Runs later searches with `backend` (resolved as [`Solver::with_backend`] does).
    pub fn set_backend(&mut self, backend: Backend) {
        self.engine = Engine::resolve(backend);
    }

    /// Makes every later search give up soon after `cancel` is set (its count is then
    /// partial: throw it away).
    pub fn set_cancel(&mut self, cancel: Cancel) {
        self.cancel = cancel;
    }

    /// The backend this solver runs (never [`Backend::Auto`]).
    pub fn backend(&self) -> Backend {
        self.engine.backend()
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
        out.count = 0;
        out.guesses = 0;
        out.solution = Grid::EMPTY;
        let mut root = State::FULL;
        let mut fixed = State::ZERO;
        let Some(givens) = place_givens(puzzle, &mut fixed) else {
            return;
        };
        for &(c, d) in excluded {
            let i = c.index();
            root.w[4 * d.index() + i / 27] &= !(1 << (i % 27));
        }
        let params = kernel::Params {
            limit: limit.max(1),
            dive: givens >= DIVE_GIVENS,
            cancel: self.cancel,
        };
        let found = match self.engine {
            Engine::Portable => portable::search(
                &mut self.stack[..],
                &root,
                &fixed,
                params,
                &mut self.solution,
            ),
            #[cfg(target_arch = "x86_64")]
            Engine::Avx2(token) => avx2::search(
                token,
                &mut self.stack[..],
                &root,
                &fixed,
                params,
                &mut self.solution,
            ),
            #[cfg(target_arch = "x86_64")]
            Engine::Avx512(token) => avx512::search(
                token,
                &mut self.stack[..],
                &root,
                &fixed,
                params,
                &mut self.solution,
            ),
        };
        out.count = found.count;
        out.guesses = found.guesses;
        if found.count > 0 {
            out.solution = to_grid(&self.solution);
        }
    }

    /// Convenience wrapper around [`Solver::solve_into`].
    pub fn solve(&mut self, puzzle: &Grid, limit: u32) -> SolveOutcome {
        let mut out = SolveOutcome::default();
        self.solve_into(puzzle, limit, &mut out);
        out
    }
}

/// Row, column and box of each cell.
const CELL_HOUSES: [[u8; 3]; 81] = {
    let mut t = [[0; 3]; 81];
    let mut i = 0;
    while i < 81 {
        let (r, c) = (i / 9, i % 9);
        t[i] = [r as u8, c as u8, (3 * (r / 3) + c / 3) as u8];
        i += 1;
    }
    t
};

/// Puzzles with at least this many givens are searched in dive mode (see
/// `kernel::Params::dive`). Unique puzzles that propagation cannot finish have about 17 to
/// 27 givens (minimal ones rarely more); one with this many givens that still needs a guess
/// almost always has several solutions, and then diving reaches them in fewer guesses. The
/// mode only changes the order of the search, never its results (count and, for a unique
/// puzzle, the solution).
const DIVE_GIVENS: usize = 30;

/// Sets one bit per given in `fixed` (in its digit's band word). Returns the number of
/// givens, or `None` when two givens break a rule (a digit twice in a house).
fn place_givens(puzzle: &Grid, fixed: &mut State) -> Option<usize> {
    let mut givens = 0;
    let mut seen = [[0u16; 9]; 3];
    for (i, &v) in puzzle.values().iter().enumerate() {
        if v == 0 {
            continue;
        }
        let d = (v - 1) as usize % 9;
        let m = 1u16 << d;
        let [r, c, b] = CELL_HOUSES[i];
        let (r, c, b) = (r as usize, c as usize, b as usize);
        if (seen[0][r] | seen[1][c] | seen[2][b]) & m != 0 {
            return None;
        }
        givens += 1;
        seen[0][r] |= m;
        seen[1][c] |= m;
        seen[2][b] |= m;
        fixed.w[4 * d + i / 27] |= 1 << (i % 27);
    }
    Some(givens)
}

/// Reads the grid off a solved state (each cell's only candidate).
fn to_grid(s: &State) -> Grid {
    let mut v = [0u8; 81];
    for d in 0..9 {
        for b in 0..3 {
            let mut m = s.w[4 * d + b];
            while m != 0 {
                let i = 27 * b + m.trailing_zeros() as usize;
                m &= m - 1;
                if let Some(cell) = v.get_mut(i) {
                    *cell = d as u8 + 1;
                }
            }
        }
    }
    // Values are 0..=9 by construction.
    Grid::from_values(v).unwrap_or_default()
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

    /// The state with one candidate per cell, `v[i]` (1..=9) at cell `i`.
    fn assignment(v: &[u8; 81]) -> State {
        let mut s = State::ZERO;
        for (i, &x) in v.iter().enumerate() {
            s.w[4 * (x as usize - 1) + i / 27] |= 1 << (i % 27);
        }
        s
    }

    #[test]
    fn full_assignments_are_valid_grids_exactly_when_they_keep_the_rules() {
        use kernel::Lanes;
        let valid = |v: &[u8; 81]| kernel::is_valid_grid(portable::Portable::load(&assignment(v)));
        let sol = Solver::new().solve(&Grid::EMPTY, 1).solution;
        let good = *sol.values();
        assert!(valid(&good));
        // Rows and columns right, boxes wrong: row r is 1..=9 shifted by r.
        let mut latin = [0u8; 81];
        for (i, x) in latin.iter_mut().enumerate() {
            *x = ((i / 9 + i % 9) % 9) as u8 + 1;
        }
        assert!(!valid(&latin));
        // Swapping two cells of a row keeps the rows, breaks columns (and boxes).
        let mut v = good;
        v.swap(0, 8);
        assert!(!valid(&v));
        // Swapping two cells of a column keeps the columns, breaks rows.
        let mut v = good;
        v.swap(4, 76);
        assert!(!valid(&v));
        // Swapping two rows of a band keeps rows, columns and boxes.
        let mut v = good;
        for c in 0..9 {
            v.swap(c, 9 + c);
        }
        assert!(valid(&v));
        // Swapping r1c1 and r2c2 (same box, so different digits) breaks rows and columns.
        let mut v = good;
        v.swap(0, 10);
        assert!(!valid(&v));
    }

    #[test]
    fn conflicting_givens_have_no_solution() {
        let mut v = [0u8; 81];
        v[0] = 5;
        v[1] = 5;
        let g = Grid::from_values(v).unwrap();
        assert_eq!(Solver::new().solve(&g, 2).count, 0);
    }

    #[test]
    fn backends_resolve_to_what_the_cpu_has() {
        assert_eq!(
            Solver::with_backend(Backend::Portable).backend(),
            Backend::Portable
        );
        let auto = Solver::new().backend();
        assert_ne!(auto, Backend::Auto);
        assert!(auto.is_available());
        for b in [Backend::Avx2, Backend::Avx512] {
            let got = Solver::with_backend(b).backend();
            if b.is_available() {
                assert_eq!(got, b);
            } else {
                assert!(got.is_available());
            }
        }
        if Backend::Avx512.is_available() {
            assert_eq!(auto, Backend::Avx512);
        }
    }
}
