//! An exact solver for any 81-cell geometry (X, Windoku, Jigsaw, or the classic grid
//! through its generic description): a depth-first search over digit planes.
//!
//! The state is one 81-bit plane per digit (the cells where the digit can still go, a placed
//! cell staying in its own digit's plane) and the set of placed cells. Propagation works on
//! whole planes at a time, over whatever houses the geometry has:
//!
//! - naked singles: cells in exactly one plane, found with two bit-sliced counters;
//! - hidden singles: a house whose digit has one cell left, among the houses that do not
//!   hold that digit yet;
//! - locked candidates, for every pair of houses that meet in two or more cells (box and
//!   line, region and line, diagonal and box, window and line...): when a digit's cells in
//!   one house all lie in another, it leaves the rest of the other. This runs only when
//!   singles are exhausted, before a guess.
//!
//! The last two come in two implementations ([`Steps`]) that reach the same fixpoint, so
//! counts, solutions and guesses are the same with either:
//!
//! - with AVX-512 (and VPOPCNTDQ), `shape_avx512` looks at every house, and every ordered
//!   pair of meeting houses, on every pass, eight at a time: a popcount per house for the
//!   singles, an emptiness test of the digit's cells in h \ b per pair (h, b) for locked
//!   candidates; placements then keep no record of what changed;
//! - otherwise the scalar steps look only at the houses whose cells for the digit changed
//!   since the last look (a placement changes its cell's houses for every digit, and every
//!   house for its own digit), and find the houses holding all of a digit's cells in a
//!   house as those holding its first and last cells.
//!
//! The search branches on a cell with the fewest candidates: a bivalue cell when there is
//! one, the one with the most open peers (its placement reaches furthest; this halves the
//! guesses on hard puzzles against taking the first), counting one guess per decision as
//! [`SolveOutcome::guesses`] describes. Nothing is
//! allocated per puzzle: the stack and the per-geometry tables are kept and reused (the
//! tables are rebuilt only when the geometry's houses change, as between Jigsaw layouts).
//! The classic grid has its own, much faster [`super::Solver`].

use crate::core::cancel::Cancel;
use crate::core::geometry::{Geometry, S81};
use crate::core::grid::Grid;

use rand_xoshiro::rand_core::Rng;

use super::SolveOutcome;
#[cfg(target_arch = "x86_64")]
use super::shape_avx512;
use crate::core::generator::rng::below;

pub(super) const ALL: u128 = (1u128 << 81) - 1;
/// At most this many houses (classic 27, X 29, Windoku 31, Jigsaw 27).
pub(super) const MAX_HOUSES: usize = 32;

/// Search state: the candidate cells of each digit, the placed cells, and per digit the
/// houses that do not hold it yet.
#[derive(Clone, Copy, Debug)]
pub(super) struct State {
    pub(super) planes: [u128; 9],
    pub(super) placed: u128,
    pub(super) open: [u32; 9],
    /// Per digit, the houses whose cells for the digit may have changed since hidden
    /// singles last looked at them.
    pub(super) dirty: [u32; 9],
    /// The same for locked candidates.
    pub(super) lc_dirty: [u32; 9],
}

/// At most this many ordered pairs of houses meeting in two or more cells (the vector
/// steps need their tables; a geometry with more, which none has, runs the scalar ones).
pub(super) const MAX_PAIRS: usize = 512;

/// 64-byte aligned, for vector loads.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub(super) struct A64<T>(pub(super) T);

/// The geometry's tables, kept between puzzles.
#[derive(Clone, Debug)]
pub(super) struct Tables {
    pub(super) houses: [u128; MAX_HOUSES],
    pub(super) n_houses: usize,
    /// The houses of each cell, as a bit mask over house ids.
    pub(super) cell_houses: [u32; 81],
    /// The peers of each cell.
    pub(super) peers: [u128; 81],
    /// The houses' low and high 64 bits (zero past `n_houses`), for the vector steps.
    pub(super) house_lo: A64<[u64; MAX_HOUSES]>,
    pub(super) house_hi: A64<[u64; MAX_HOUSES]>,
    /// The ordered pairs (h, b) of houses meeting in two or more cells, for locked
    /// candidates: when a digit has no cell in `out` = h \ b, it leaves `elim` = b \ h.
    /// Padded to a multiple of eight with pairs that never apply (`out` everything,
    /// `elim` nothing).
    pub(super) n_pairs: usize,
    pub(super) out_lo: A64<[u64; MAX_PAIRS]>,
    pub(super) out_hi: A64<[u64; MAX_PAIRS]>,
    pub(super) elim_lo: A64<[u64; MAX_PAIRS]>,
    pub(super) elim_hi: A64<[u64; MAX_PAIRS]>,
    /// Whether the pairs fit in the tables.
    pub(super) pairs_fit: bool,
}

impl Default for Tables {
    fn default() -> Tables {
        Tables {
            houses: [0; MAX_HOUSES],
            n_houses: 0,
            cell_houses: [0; 81],
            peers: [0; 81],
            house_lo: A64([0; MAX_HOUSES]),
            house_hi: A64([0; MAX_HOUSES]),
            n_pairs: 0,
            out_lo: A64([0; MAX_PAIRS]),
            out_hi: A64([0; MAX_PAIRS]),
            elim_lo: A64([0; MAX_PAIRS]),
            elim_hi: A64([0; MAX_PAIRS]),
            pairs_fit: false,
        }
    }
}

impl Tables {
    /// Whether these tables describe `g`.
    fn matches(&self, g: &Geometry<S81>) -> bool {
        let hs = g.houses();
        hs.len() == self.n_houses
            && hs
                .iter()
                .zip(&self.houses)
                .all(|(h, &mask)| h.set.bits() == mask)
    }

    fn build(&mut self, g: &Geometry<S81>) {
        let hs = g.houses();
        debug_assert!(hs.len() <= MAX_HOUSES);
        self.n_houses = hs.len().min(MAX_HOUSES);
        self.houses = [0; MAX_HOUSES];
        self.cell_houses = [0; 81];
        for (id, h) in hs.iter().take(MAX_HOUSES).enumerate() {
            let mask = h.set.bits();
            self.houses[id] = mask;
            let mut m = mask;
            while m != 0 {
                let c = m.trailing_zeros() as usize;
                m &= m - 1;
                self.cell_houses[c] |= 1 << id;
            }
        }
        for c in 0..81 {
            let mut p = 0;
            let mut hm = self.cell_houses[c];
            while hm != 0 {
                p |= self.houses[hm.trailing_zeros() as usize];
                hm &= hm - 1;
            }
            self.peers[c] = p & !(1u128 << c);
        }
        for (h, &mask) in self.houses.iter().enumerate() {
            self.house_lo.0[h] = mask as u64;
            self.house_hi.0[h] = (mask >> 64) as u64;
        }
        let n = self.n_houses;
        let mut k = 0;
        self.pairs_fit = true;
        for h in 0..n {
            for b in 0..n {
                let (x, y) = (self.houses[h], self.houses[b]);
                if b == h || (x & y).count_ones() < 2 {
                    continue;
                }
                if k == MAX_PAIRS {
                    self.pairs_fit = false;
                    return;
                }
                let (out, elim) = (x & !y, y & !x);
                self.out_lo.0[k] = out as u64;
                self.out_hi.0[k] = (out >> 64) as u64;
                self.elim_lo.0[k] = elim as u64;
                self.elim_hi.0[k] = (elim >> 64) as u64;
                k += 1;
            }
        }
        while k % 8 != 0 {
            self.out_lo.0[k] = u64::MAX;
            self.out_hi.0[k] = u64::MAX;
            self.elim_lo.0[k] = 0;
            self.elim_hi.0[k] = 0;
            k += 1;
        }
        self.n_pairs = k;
    }
}

/// An exact solver for 81-cell geometries; keep one per worker.
#[derive(Clone, Debug)]
pub struct ShapeSolver {
    stack: Vec<(State, u8, u16)>,
    tables: Box<Tables>,
    cancel: Cancel,
    /// Set when the CPU runs the AVX-512 steps.
    #[cfg(target_arch = "x86_64")]
    avx512: Option<shape_avx512::Token>,
}

impl Default for ShapeSolver {
    fn default() -> ShapeSolver {
        ShapeSolver::new()
    }
}

impl ShapeSolver {
    /// A solver (with the AVX-512 steps when the CPU has them).
    pub fn new() -> ShapeSolver {
        ShapeSolver {
            stack: Vec::with_capacity(128),
            tables: Box::default(),
            cancel: Cancel::NEVER,
            #[cfg(target_arch = "x86_64")]
            avx512: shape_avx512::Token::detect(),
        }
    }

    /// The same solver with the scalar steps only (to compare the two in tests).
    #[cfg(test)]
    fn scalar() -> ShapeSolver {
        ShapeSolver {
            #[cfg(target_arch = "x86_64")]
            avx512: None,
            ..ShapeSolver::new()
        }
    }

    /// Makes every later search give up soon after `cancel` is set (its count is then
    /// partial: throw it away).
    pub fn set_cancel(&mut self, cancel: Cancel) {
        self.cancel = cancel;
    }

    /// Counts the solutions of `puzzle` on `g` up to `limit`, keeping the first one and the
    /// guesses made (one per branching decision).
    pub fn solve_into(
        &mut self,
        g: &Geometry<S81>,
        puzzle: &Grid,
        limit: u32,
        out: &mut SolveOutcome,
    ) {
        let pick = |m: u16| m.trailing_zeros() as usize;
        self.search(g, puzzle, None, limit, u64::MAX, out, pick);
    }

    /// As [`ShapeSolver::solve_into`] on the puzzle with digit `digit` (0-8) removed from
    /// the candidates of cell `cell`: with limit 1, whether the puzzle has a solution
    /// other than one with that digit there (how the generator tests that a clue can go).
    pub fn solve_excluding_into(
        &mut self,
        g: &Geometry<S81>,
        puzzle: &Grid,
        (cell, digit): (usize, usize),
        limit: u32,
        out: &mut SolveOutcome,
    ) {
        let pick = |m: u16| m.trailing_zeros() as usize;
        self.search(g, puzzle, Some((cell, digit)), limit, u64::MAX, out, pick);
    }

    /// A solution of `puzzle` on `g` drawn at random: the search tries the candidates of
    /// each branch cell in an order drawn from `rng`. `None` when there is none, or when
    /// none was found within `max_guesses` guesses (proving that a Jigsaw layout has no
    /// completed grid can take a very long search; a caller draws another layout).
    pub fn random_solution<R: Rng>(
        &mut self,
        g: &Geometry<S81>,
        puzzle: &Grid,
        max_guesses: u64,
        rng: &mut R,
    ) -> Option<Grid> {
        let mut out = SolveOutcome::default();
        self.search(g, puzzle, None, 1, max_guesses, &mut out, |m: u16| {
            let mut m = m;
            for _ in 0..below(rng, m.count_ones()) {
                m &= m - 1;
            }
            m.trailing_zeros() as usize
        });
        (out.count > 0).then_some(out.solution)
    }

    /// The search: `pick` chooses the digit to try next among a branch cell's remaining
    /// candidates; it stops (with the solutions found so far) after `max_guesses` guesses.
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        g: &Geometry<S81>,
        puzzle: &Grid,
        exclude: Option<(usize, usize)>,
        limit: u32,
        max_guesses: u64,
        out: &mut SolveOutcome,
        mut pick: impl FnMut(u16) -> usize,
    ) {
        *out = SolveOutcome::default();
        if !self.tables.matches(g) {
            self.tables.build(g);
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(token) = self.avx512
            && self.tables.pairs_fit
        {
            shape_avx512::run(
                token,
                self,
                puzzle,
                exclude,
                limit,
                max_guesses,
                out,
                &mut pick,
            );
            return;
        }
        self.run::<Scalar>(puzzle, exclude, limit, max_guesses, out, &mut pick);
    }

    /// The search with the steps `K`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn run<K: Steps>(
        &mut self,
        puzzle: &Grid,
        exclude: Option<(usize, usize)>,
        limit: u32,
        max_guesses: u64,
        out: &mut SolveOutcome,
        pick: &mut impl FnMut(u16) -> usize,
    ) {
        let t = &self.tables;
        let all_houses = if t.n_houses == 32 {
            u32::MAX
        } else {
            (1u32 << t.n_houses) - 1
        };
        let mut s = State {
            planes: [ALL; 9],
            placed: 0,
            open: [all_houses; 9],
            dirty: [all_houses; 9],
            lc_dirty: [all_houses; 9],
        };
        for (c, &v) in puzzle.values().iter().enumerate() {
            if v != 0 {
                let d = usize::from(v - 1);
                if s.planes[d] >> c & 1 == 0 {
                    return;
                }
                place::<K>(t, &mut s, c, d);
            }
        }
        if let Some((c, d)) = exclude
            && c < 81
            && d < 9
        {
            s.planes[d] &= !(1u128 << c);
        }
        self.stack.clear();
        let limit = limit.max(1);
        let mut cur = s;
        loop {
            match propagate::<K>(t, &mut cur) {
                Verdict::Contradiction => {}
                Verdict::Solved => {
                    if out.count == 0 {
                        out.solution = solution_of(&cur);
                    }
                    out.count += 1;
                    if out.count >= limit {
                        return;
                    }
                }
                Verdict::Open => {
                    let (c, m) = branch_cell(t, &cur);
                    let d = pick(m);
                    let rest = m & !(1 << d);
                    if rest != 0 {
                        out.guesses += 1;
                        if self.cancel.requested_at(out.guesses) {
                            return;
                        }
                        self.stack.push((cur, c as u8, rest));
                    }
                    place::<K>(t, &mut cur, c, d);
                    continue;
                }
            }
            // Backtrack: the next digit of the latest branch.
            if out.guesses >= max_guesses {
                return;
            }
            let Some(top) = self.stack.last_mut() else {
                return;
            };
            let (st, c, m) = *top;
            let d = pick(m);
            let rest = m & !(1 << d);
            if rest != 0 {
                out.guesses += 1;
                if self.cancel.requested_at(out.guesses) {
                    return;
                }
                top.2 = rest;
            } else {
                self.stack.pop();
            }
            cur = st;
            place::<K>(t, &mut cur, usize::from(c), d);
        }
    }
}

enum Verdict {
    Contradiction,
    Solved,
    Open,
}

/// The two propagation steps after naked singles, as one implementation does them: hidden
/// singles and locked candidates. Every implementation reaches the same fixpoint (the
/// rules only remove candidates, and a rule that applies still applies, or finds a
/// contradiction, once more are gone), so the search tree, the guesses and the first
/// solution do not depend on which one runs.
pub(super) trait Steps {
    /// Whether [`State::dirty`] and [`State::lc_dirty`] are kept up to date (only the
    /// scalar steps read them).
    const TRACK: bool;

    /// Places the hidden singles of the open houses; `None` on a contradiction (an open
    /// house without a cell for a digit), else whether anything was placed.
    fn hidden(t: &Tables, s: &mut State) -> Option<bool>;

    /// One pass of locked candidates; whether it removed anything.
    fn locked(t: &Tables, s: &mut State) -> bool;
}

/// The steps in plain scalar code, over the houses that changed since they last looked.
pub(super) struct Scalar;

impl Steps for Scalar {
    const TRACK: bool = true;

    #[inline(always)]
    fn hidden(t: &Tables, s: &mut State) -> Option<bool> {
        let mut progress = false;
        for d in 0..9 {
            let mut open = s.open[d] & s.dirty[d];
            s.dirty[d] = 0;
            while open != 0 {
                let h = open.trailing_zeros() as usize;
                open &= open - 1;
                let x = s.planes[d] & t.houses[h];
                if x == 0 {
                    return None;
                }
                if x & (x - 1) == 0 {
                    place::<Self>(t, s, x.trailing_zeros() as usize, d);
                    open &= s.open[d];
                    progress = true;
                }
            }
        }
        Some(progress)
    }

    #[inline(always)]
    fn locked(t: &Tables, s: &mut State) -> bool {
        let mut progress = false;
        for d in 0..9 {
            let mut open = s.open[d] & s.lc_dirty[d];
            s.lc_dirty[d] = 0;
            let mut p = s.planes[d];
            while open != 0 {
                let h = open.trailing_zeros() as usize;
                open &= open - 1;
                let x = p & t.houses[h];
                if x & x.wrapping_sub(1) == 0 {
                    // Empty, or a hidden single: the singles see to it.
                    continue;
                }
                // The houses holding all of x hold its first and last cells.
                let first = x.trailing_zeros() as usize;
                let last = 127 - x.leading_zeros() as usize;
                let mut common = t.cell_houses[first] & t.cell_houses[last] & !(1u32 << h);
                while common != 0 {
                    let b = common.trailing_zeros() as usize;
                    common &= common - 1;
                    if x & !t.houses[b] == 0 {
                        p &= !(t.houses[b] & !t.houses[h]);
                    }
                }
            }
            if p != s.planes[d] {
                s.planes[d] = p;
                s.dirty[d] = u32::MAX;
                s.lc_dirty[d] = u32::MAX;
                progress = true;
            }
        }
        progress
    }
}

/// Places digit `d` (0-8) in cell `c`: the cell leaves the other digits' planes and the
/// digit leaves the cell's peers.
#[inline(always)]
pub(super) fn place<K: Steps>(t: &Tables, s: &mut State, c: usize, d: usize) {
    let bit = 1u128 << c;
    let houses = t.cell_houses[c];
    for e in 0..9 {
        s.planes[e] &= !bit;
        if K::TRACK {
            s.dirty[e] |= houses;
            s.lc_dirty[e] |= houses;
        }
    }
    s.planes[d] = (s.planes[d] & !t.peers[c]) | bit;
    s.placed |= bit;
    s.open[d] &= !houses;
    if K::TRACK {
        // The digit left the cell's peers, in houses all over the grid.
        s.dirty[d] = u32::MAX;
        s.lc_dirty[d] = u32::MAX;
    }
}

fn solution_of(s: &State) -> Grid {
    let mut values = [0u8; 81];
    for (d, &p) in s.planes.iter().enumerate() {
        let mut m = p;
        while m != 0 {
            values[m.trailing_zeros() as usize] = d as u8 + 1;
            m &= m - 1;
        }
    }
    Grid::from_values(values).unwrap_or_default()
}

/// Singles until none is left, then one pass of locked candidates (and singles again if
/// it eliminated anything).
#[inline(always)]
fn propagate<K: Steps>(t: &Tables, s: &mut State) -> Verdict {
    loop {
        // Naked singles, and cells without candidates.
        let unplaced = ALL & !s.placed;
        if unplaced == 0 {
            return Verdict::Solved;
        }
        let (mut one, mut two) = (0u128, 0u128);
        for &p in &s.planes {
            two |= one & p;
            one |= p;
        }
        if unplaced & !one != 0 {
            return Verdict::Contradiction;
        }
        let singles = unplaced & one & !two;
        if singles != 0 {
            for d in 0..9 {
                let mut m = singles & s.planes[d];
                while m != 0 {
                    let c = m.trailing_zeros() as usize;
                    m &= m - 1;
                    if s.planes[d] >> c & 1 == 0 {
                        // An earlier single of this batch took it: a contradiction.
                        return Verdict::Contradiction;
                    }
                    place::<K>(t, s, c, d);
                }
            }
            continue;
        }
        match K::hidden(t, s) {
            None => return Verdict::Contradiction,
            Some(true) => continue,
            Some(false) => {}
        }
        if !K::locked(t, s) {
            return Verdict::Open;
        }
    }
}

/// The unplaced cell to branch on and its candidates: the bivalue cell with the most open
/// peers if there is one, else the first cell with the fewest candidates.
fn branch_cell(t: &Tables, s: &State) -> (usize, u16) {
    let unplaced = ALL & !s.placed;
    let (mut one, mut two, mut three) = (0u128, 0u128, 0u128);
    for &p in &s.planes {
        three |= two & p;
        two |= one & p;
        one |= p;
    }
    let bivalue = unplaced & two & !three;
    let c = if bivalue != 0 {
        // The bivalue cell with the most open peers: its placement reaches furthest.
        let (mut best, mut most) = (bivalue.trailing_zeros() as usize, 0);
        let mut m = bivalue;
        while m != 0 {
            let c = m.trailing_zeros() as usize;
            m &= m - 1;
            let n = (t.peers[c] & unplaced).count_ones();
            if n > most {
                (best, most) = (c, n);
            }
        }
        best
    } else {
        let mut best = (10, 0);
        let mut m = unplaced;
        while m != 0 {
            let c = m.trailing_zeros() as usize;
            m &= m - 1;
            let n = s.planes.iter().filter(|&&p| p >> c & 1 != 0).count();
            if n < best.0 {
                best = (n, c);
            }
        }
        best.1
    };
    let mut cands = 0u16;
    for (d, &p) in s.planes.iter().enumerate() {
        cands |= ((p >> c & 1) as u16) << d;
    }
    (c, cands)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::geometry;
    use crate::core::solver::Solver;

    fn puzzles() -> Vec<Grid> {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/data/");
        let mut v = Vec::new();
        for f in ["serg_100.txt", "top1465_100.txt", "17clue_200.txt"] {
            let text = std::fs::read_to_string(format!("{dir}{f}")).expect(f);
            for line in text.lines().filter_map(|l| l.get(..81)) {
                if let Ok(g) = line.parse::<Grid>() {
                    // The puzzle, and with a third of its clues gone (many solutions).
                    let mut fewer = g;
                    for c in crate::core::index::Cell::all().filter(|c| c.index() % 3 == 0) {
                        fewer.set(c, None);
                    }
                    v.extend([g, fewer]);
                }
            }
        }
        v
    }

    #[test]
    fn scalar_and_vector_steps_agree_on_every_shape() {
        let boxes: [u8; 81] = std::array::from_fn(|c| (c / 27 * 3 + c % 9 / 3) as u8);
        // Regions that are not connected: each a diagonal pattern across the grid.
        let scattered: [u8; 81] =
            std::array::from_fn(|c| ((c % 9 + 3 * (c / 9 % 3) + c / 27) % 9) as u8);
        let shapes = [
            geometry::x().clone(),
            geometry::windoku().clone(),
            Geometry::new_jigsaw(&boxes).expect("boxes"),
            Geometry::new_jigsaw(&scattered).expect("a layout"),
        ];
        let (mut a, mut b) = (ShapeSolver::new(), ShapeSolver::scalar());
        let mut classic = Solver::new();
        let (mut x, mut y, mut z) = Default::default();
        for p in puzzles() {
            for (i, g) in shapes.iter().enumerate() {
                for limit in [1, 2, 100] {
                    a.solve_into(g, &p, limit, &mut x);
                    b.solve_into(g, &p, limit, &mut y);
                    assert_eq!(
                        (x.count, x.solution, x.guesses),
                        (y.count, y.solution, y.guesses),
                        "{p} on shape {i}, limit {limit}"
                    );
                    if i == 2 {
                        classic.solve_into(&p, limit, &mut z);
                        assert_eq!(x.count, z.count, "{p} as standard Jigsaw, limit {limit}");
                    }
                }
            }
        }
    }
}
