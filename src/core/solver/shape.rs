//! An exact solver for any 81-cell geometry (X, Windoku, Jigsaw, or the classic grid
//! through its generic description): a depth-first search over digit planes.
//!
//! The state is one 81-bit plane per digit (the cells where the digit can still go, a placed
//! cell staying in its own digit's plane) and the set of placed cells. Propagation works on
//! whole planes at a time, over whatever houses the geometry has:
//!
//! - naked singles: cells in exactly one plane, found with two bit-sliced counters;
//! - hidden singles: a house whose digit has one cell left, checked only for the houses
//!   that do not hold that digit yet and whose cells for it changed since the last look
//!   (a placement changes its cell's houses for every digit, and every house for its own
//!   digit);
//! - locked candidates, for every pair of houses that meet in two or more cells (box and
//!   line, region and line, diagonal and box, window and line...): when a digit's cells in
//!   one house all lie in another, it leaves the rest of the other (the houses common to
//!   the cells are the AND of their house masks). This runs only when singles are
//!   exhausted, before a guess, and again only on houses that changed.
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
use crate::core::generator::rng::below;

const ALL: u128 = (1u128 << 81) - 1;
/// At most this many houses (classic 27, X 29, Windoku 31, Jigsaw 27).
const MAX_HOUSES: usize = 32;

/// Search state: the candidate cells of each digit, the placed cells, and per digit the
/// houses that do not hold it yet.
#[derive(Clone, Copy, Debug)]
struct State {
    planes: [u128; 9],
    placed: u128,
    open: [u32; 9],
    /// Per digit, the houses whose cells for the digit may have changed since hidden
    /// singles last looked at them.
    dirty: [u32; 9],
    /// The same for locked candidates.
    lc_dirty: [u32; 9],
}

/// The geometry's tables, kept between puzzles.
#[derive(Clone, Debug)]
struct Tables {
    houses: [u128; MAX_HOUSES],
    n_houses: usize,
    /// The houses of each cell, as a bit mask over house ids.
    cell_houses: [u32; 81],
    /// The peers of each cell.
    peers: [u128; 81],
}

impl Default for Tables {
    fn default() -> Tables {
        Tables {
            houses: [0; MAX_HOUSES],
            n_houses: 0,
            cell_houses: [0; 81],
            peers: [0; 81],
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
    }
}

/// An exact solver for 81-cell geometries; keep one per worker.
#[derive(Clone, Debug, Default)]
pub struct ShapeSolver {
    stack: Vec<(State, u8, u16)>,
    tables: Tables,
    cancel: Cancel,
}

impl ShapeSolver {
    /// A solver.
    pub fn new() -> ShapeSolver {
        ShapeSolver {
            stack: Vec::with_capacity(128),
            tables: Tables::default(),
            cancel: Cancel::NEVER,
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
                place(t, &mut s, c, d);
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
            match propagate(t, &mut cur) {
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
                    place(t, &mut cur, c, d);
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
            place(t, &mut cur, usize::from(c), d);
        }
    }
}

enum Verdict {
    Contradiction,
    Solved,
    Open,
}

#[inline]
fn place(t: &Tables, s: &mut State, c: usize, d: usize) {
    let bit = 1u128 << c;
    let houses = t.cell_houses[c];
    for d in 0..9 {
        s.planes[d] &= !bit;
        s.dirty[d] |= houses;
        s.lc_dirty[d] |= houses;
    }
    s.planes[d] = (s.planes[d] & !t.peers[c]) | bit;
    s.placed |= bit;
    s.open[d] &= !houses;
    // The digit left the cell's peers, in houses all over the grid.
    s.dirty[d] = u32::MAX;
    s.lc_dirty[d] = u32::MAX;
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

/// Singles until none is left, then one round of locked candidates (and singles again if
/// it eliminated anything).
fn propagate(t: &Tables, s: &mut State) -> Verdict {
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
                    place(t, s, c, d);
                }
            }
            continue;
        }
        // Hidden singles in the houses that still miss the digit.
        let mut progress = false;
        for d in 0..9 {
            let mut open = s.open[d] & s.dirty[d];
            s.dirty[d] = 0;
            while open != 0 {
                let h = open.trailing_zeros() as usize;
                open &= open - 1;
                let x = s.planes[d] & t.houses[h];
                if x == 0 {
                    return Verdict::Contradiction;
                }
                if x & (x - 1) == 0 {
                    let c = x.trailing_zeros() as usize;
                    place(t, s, c, d);
                    open &= s.open[d];
                    progress = true;
                }
            }
        }
        if progress {
            continue;
        }
        // Locked candidates: when a digit's cells in an open house all lie in other
        // houses too (the houses common to those cells), it leaves the rest of them.
        for d in 0..9 {
            let mut open = s.open[d] & s.lc_dirty[d];
            s.lc_dirty[d] = 0;
            let mut p = s.planes[d];
            while open != 0 {
                let h = open.trailing_zeros() as usize;
                open &= open - 1;
                let x = p & t.houses[h];
                let mut common = !(1u32 << h);
                let mut m = x;
                while m != 0 && common != 0 {
                    common &= t.cell_houses[m.trailing_zeros() as usize];
                    m &= m - 1;
                }
                while common != 0 {
                    let b = common.trailing_zeros() as usize;
                    common &= common - 1;
                    let elim = p & t.houses[b] & !t.houses[h];
                    if elim != 0 {
                        p &= !elim;
                        progress = true;
                    }
                }
            }
            if p != s.planes[d] {
                s.planes[d] = p;
                s.dirty[d] = u32::MAX;
                s.lc_dirty[d] = u32::MAX;
            }
        }
        if !progress {
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
