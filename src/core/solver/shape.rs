//! An exact solver for any 81-cell geometry (X, Windoku, Jigsaw, or the classic grid): a
//! plain depth-first search with naked and hidden singles over the geometry's houses.
//!
//! This is the simple first version; the classic grid has its own, much faster
//! [`super::Solver`].

use crate::core::geometry::{Geometry, S81};
use crate::core::grid::Grid;
use crate::core::index::{Cell, Digit};

use super::SolveOutcome;

/// Search state: the candidate cells of each digit and the values placed.
#[derive(Clone, Copy, Debug)]
struct State {
    planes: [u128; 9],
    values: [u8; 81],
    open: u128,
}

/// An exact solver for 81-cell geometries; keep one per worker.
#[derive(Clone, Debug, Default)]
pub struct ShapeSolver {
    stack: Vec<(State, Cell, u16)>,
}

const ALL: u128 = (1u128 << 81) - 1;

impl ShapeSolver {
    /// A solver.
    pub fn new() -> ShapeSolver {
        ShapeSolver {
            stack: Vec::with_capacity(128),
        }
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
        *out = SolveOutcome::default();
        let mut s = State {
            planes: [ALL; 9],
            values: [0; 81],
            open: ALL,
        };
        for c in Cell::all() {
            if let Some(d) = puzzle.digit(c) {
                if s.planes[d.index()] & (1u128 << c.index()) == 0 {
                    return;
                }
                place(g, &mut s, c, d);
            }
        }
        self.stack.clear();
        let mut cur = s;
        loop {
            match propagate(g, &mut cur) {
                None => {}
                Some(true) => {
                    if out.count == 0 {
                        out.solution = Grid::from_values(cur.values).unwrap_or_default();
                    }
                    out.count += 1;
                    if out.count >= limit.max(1) {
                        return;
                    }
                }
                Some(false) => {
                    // Branch on the open cell with the fewest candidates.
                    let mut best = (10u32, Cell::new(0), 0u16);
                    let mut open = cur.open;
                    while open != 0 {
                        let i = open.trailing_zeros() as usize;
                        open &= open - 1;
                        let mut m = 0u16;
                        for d in 0..9 {
                            if cur.planes[d] >> i & 1 != 0 {
                                m |= 1 << d;
                            }
                        }
                        let n = m.count_ones();
                        if n < best.0 {
                            best = (n, Cell::new(i as u8), m);
                        }
                    }
                    let (_, c, m) = best;
                    let d = m.trailing_zeros() as usize;
                    let rest = m & (m - 1);
                    if rest != 0 {
                        out.guesses += 1;
                        self.stack.push((cur, c, rest));
                    }
                    place(g, &mut cur, c, Digit::from_index(d));
                    continue;
                }
            }
            // Backtrack.
            let Some((st, c, m)) = self.stack.pop() else {
                return;
            };
            cur = st;
            let d = m.trailing_zeros() as usize;
            let rest = m & (m - 1);
            if rest != 0 {
                out.guesses += 1;
                self.stack.push((st, c, rest));
            }
            place(g, &mut cur, c, Digit::from_index(d));
        }
    }
}

fn place(g: &Geometry<S81>, s: &mut State, c: Cell, d: Digit) {
    let bit = 1u128 << c.index();
    s.values[c.index()] = d.get();
    s.open &= !bit;
    for p in s.planes.iter_mut() {
        *p &= !bit;
    }
    s.planes[d.index()] &= !g.peers(c).bits();
}

/// Singles until none is left: `None` on a contradiction, `Some(true)` when solved,
/// `Some(false)` when a branch is needed.
fn propagate(g: &Geometry<S81>, s: &mut State) -> Option<bool> {
    loop {
        if s.open == 0 {
            return Some(true);
        }
        let mut any = 0u128;
        for p in &s.planes {
            any |= p;
        }
        if s.open & !any != 0 {
            return None;
        }
        let mut progress = false;
        // Naked singles.
        let (mut one, mut two) = (0u128, 0u128);
        for p in &s.planes {
            two |= one & p;
            one |= p;
        }
        let singles = one & !two & s.open;
        if singles != 0 {
            let i = singles.trailing_zeros() as usize;
            let d = (0..9).find(|&d| s.planes[d] >> i & 1 != 0)?;
            place(g, s, Cell::new(i as u8), Digit::from_index(d));
            continue;
        }
        // Hidden singles.
        for h in g.houses() {
            let hs = h.set.bits();
            for d in 0..9 {
                let p = s.planes[d] & hs;
                let placed = h.cells.iter().any(|c| s.values[c.index()] == d as u8 + 1);
                if placed {
                    continue;
                }
                if p == 0 {
                    return None;
                }
                if p & (p - 1) == 0 {
                    let i = p.trailing_zeros() as usize;
                    place(g, s, Cell::new(i as u8), Digit::from_index(d));
                    progress = true;
                }
            }
        }
        if !progress {
            return Some(false);
        }
    }
}
