//! The simple techniques a nested forcing chain tries first where its links run dry (SE
//! `Chaining.getAdvancedPotentials`, before the chaining producers of [`super::nested`]):
//! pointing and claiming, hidden pairs, naked pairs and X-wings, in that order, stopping at
//! the first that gives anything. Each hint counts only if it needs some of the chain's
//! removals (its *rule parents*, SE `getRuleParents`): the board itself has none of these
//! techniques left, since the grader tries them before any chain.
//!
//! What they give depends on the chain's grid and the board it started from only, and most
//! grids are met again by other chains (two assumptions that imply each other, chains that
//! converge, the searches of the levels above on the same board): so it is kept per grid
//! while the board stays the same ([`Basics`]).

use std::collections::HashMap;

use super::potentials::{Cands, cand_of};
use crate::core::bitboard::DigitSet;
use crate::core::geometry::{Arr, CandBits, CellBits, FishSystem, Geometry, Size};
use crate::core::index::HouseKind;
use crate::core::logic::{Technique, combos};

/// A hint of one of the simple techniques: the candidates it removes and the chain's
/// removals it relies on (its rule parents).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Basic<S: Size> {
    pub(crate) removals: [S::Set; 9],
    pub(crate) parents: S::Cands,
    pub(crate) technique: Technique,
}

/// The most grids kept; past it the memory starts again (it only saves work).
const MAX_GRIDS: usize = 1 << 16;

/// What the simple techniques gave on the grids met on the present board: per grid (by
/// fingerprint) its places and the range of `hints` holding the hints of the first
/// technique that gave any (empty when none did).
#[derive(Clone, Debug)]
pub(crate) struct Basics<S: Size> {
    grids: HashMap<u64, ([S::Set; 9], u32, u32)>,
    hints: Vec<Basic<S>>,
}

impl<S: Size> Basics<S> {
    pub(crate) fn new() -> Basics<S> {
        Basics {
            grids: HashMap::new(),
            hints: Vec::new(),
        }
    }

    /// Forgets every grid (the board changed).
    pub(crate) fn clear(&mut self) {
        self.grids.clear();
        self.hints.clear();
    }

    /// The hints of the first simple technique that gives any on `cur` (fingerprint
    /// `hash`), for a chain that started from the board `src` (`empty`: the empty cells
    /// per house, `placed`: the digits placed per fish system), from memory or worked out.
    pub(crate) fn hints(
        &mut self,
        g: &Geometry<S>,
        cur: &Cands<S>,
        src: &Cands<S>,
        hash: u64,
        empty: &S::Houses<u8>,
        placed: &[[u8; 9]; 8],
    ) -> &[Basic<S>] {
        if let Some(&(planes, start, end)) = self.grids.get(&hash)
            && planes == cur.planes
        {
            return &self.hints[start as usize..end as usize];
        }
        if self.grids.len() >= MAX_GRIDS {
            self.clear();
        }
        let start = self.hints.len();
        find(g, cur, src, empty, placed, &mut self.hints);
        // A grid with the same fingerprint (not met yet) gives way.
        self.grids
            .insert(hash, (cur.planes, start as u32, self.hints.len() as u32));
        &self.hints[start..]
    }
}

/// Adds to `out` the hints of the first simple technique that gives any on `cur` (the
/// chain started from `src`).
fn find<S: Size>(
    g: &Geometry<S>,
    cur: &Cands<S>,
    src: &Cands<S>,
    empty: &S::Houses<u8>,
    placed: &[[u8; 9]; 8],
    out: &mut Vec<Basic<S>>,
) {
    // What the chain removed, per digit, and the cells that lost a candidate: each hint
    // below needs some of it (its rule parents), so only the houses it touches can give one.
    // `touched`: per house, the digits that lost a place there.
    let mut removed = [S::Set::EMPTY; 9];
    let mut lost = S::Set::EMPTY;
    let mut touched = S::Houses::<u16>::splat(0);
    for (d, (r, (s, c))) in removed
        .iter_mut()
        .zip(src.planes.iter().zip(&cur.planes))
        .enumerate()
    {
        *r = *s - *c;
        lost |= *r;
        for x in *r {
            for &h in g.cell_houses(x).ids() {
                touched[usize::from(h)] |= 1 << d;
            }
        }
    }
    let start = out.len();
    locking(g, out, cur, &removed, &touched);
    if out.len() > start {
        return;
    }
    hidden_pairs(g, out, cur, src, &touched, empty);
    if out.len() > start {
        return;
    }
    naked_pairs(g, out, cur, src, lost, &touched, empty);
    if out.len() > start {
        return;
    }
    for (k, sys) in g.fish_systems().iter().enumerate().take(8) {
        x_wings(g, sys, out, cur, &removed, &placed[k]);
    }
}

/// A hint removing `elim`'s `d` because `d` is off in `parent_cells`.
fn push_digit<S: Size>(
    out: &mut Vec<Basic<S>>,
    d: usize,
    elim: S::Set,
    parent_cells: S::Set,
    technique: Technique,
) {
    let mut parents = S::Cands::NONE;
    for x in parent_cells {
        parents.set(cand_of(x.index(), d));
    }
    let mut removals = [S::Set::EMPTY; 9];
    removals[d] = elim;
    out.push(Basic {
        removals,
        parents,
        technique,
    });
}

/// Pointing and claiming (SE `Locking(false)`) whose rule parents are not empty: the
/// chain removed some of the digit's places in the first house outside the second.
fn locking<S: Size>(
    g: &Geometry<S>,
    out: &mut Vec<Basic<S>>,
    cur: &Cands<S>,
    removed_planes: &[S::Set; 9],
    touched: &S::Houses<u16>,
) {
    for runs in g.lock_runs() {
        if runs.is_empty() {
            continue;
        }
        for (d, &removed) in removed_planes.iter().enumerate() {
            if removed.is_empty() {
                continue;
            }
            let plane = cur.planes[d];
            for lr in runs {
                let h1 = usize::from(lr.first);
                if touched[h1] & 1 << d == 0 {
                    continue;
                }
                let r1 = g.house_set(h1);
                let pos = plane & r1;
                if pos.len() < 2 {
                    continue;
                }
                for &(_, h2) in g.lock_run_pairs(lr) {
                    let r2 = g.house_set(h2 as usize);
                    if !(pos - r2).is_empty() {
                        continue;
                    }
                    let elim = (plane & r2) - r1;
                    if elim.is_empty() {
                        continue;
                    }
                    let parent_cells = (removed & r1) - r2;
                    if parent_cells.is_empty() {
                        continue;
                    }
                    let t = if matches!(g.house(h1).kind, HouseKind::Box | HouseKind::Region) {
                        Technique::Pointing
                    } else {
                        Technique::Claiming
                    };
                    push_digit(out, d, elim, parent_cells, t);
                }
            }
        }
    }
}

/// Hidden pairs (SE `HiddenSet(2, false)`) whose rule parents are not empty: a place of
/// one of the pair's digits in the house was removed by the chain.
fn hidden_pairs<S: Size>(
    g: &Geometry<S>,
    out: &mut Vec<Basic<S>>,
    cur: &Cands<S>,
    src: &Cands<S>,
    touched_digits: &S::Houses<u16>,
    empty: &S::Houses<u8>,
) {
    for &h in g.order_bcr() {
        let hi = h as usize;
        let touched = touched_digits[hi];
        if empty[hi] <= 4 || touched == 0 {
            continue;
        }
        let hs = g.house_set(hi);
        let mut pos = [S::Set::EMPTY; 9];
        let mut allowed = 0u16;
        for (d, p) in pos.iter_mut().enumerate() {
            *p = cur.planes[d] & hs;
            if p.len() == 2 {
                allowed |= 1 << d;
            }
        }
        if allowed & touched == 0 {
            continue;
        }
        for &mask in combos(2) {
            if mask & !allowed != 0 || mask & touched == 0 {
                continue;
            }
            let d1 = mask.trailing_zeros() as usize;
            let d2 = (mask & (mask - 1)).trailing_zeros() as usize;
            let union = pos[d1] | pos[d2];
            if union.len() != 2 {
                continue;
            }
            let mut removals = [S::Set::EMPTY; 9];
            let mut worth = false;
            for (e, r) in removals.iter_mut().enumerate() {
                if e != d1 && e != d2 {
                    *r = cur.planes[e] & union;
                    worth |= !r.is_empty();
                }
            }
            if !worth {
                continue;
            }
            let mut parents = S::Cands::NONE;
            for e in [d1, d2] {
                for x in (src.planes[e] & hs) - union {
                    parents.set(cand_of(x.index(), e));
                }
            }
            if parents.none() {
                continue;
            }
            out.push(Basic {
                removals,
                parents,
                technique: Technique::HiddenPair,
            });
        }
    }
}

/// Naked pairs (SE `NakedSet(2)`) whose rule parents are not empty: one of the two cells
/// lost a candidate to the chain.
fn naked_pairs<S: Size>(
    g: &Geometry<S>,
    out: &mut Vec<Basic<S>>,
    cur: &Cands<S>,
    src: &Cands<S>,
    lost: S::Set,
    touched: &S::Houses<u16>,
    empty: &S::Houses<u8>,
) {
    for &h in g.order_bcr() {
        let hi = h as usize;
        if empty[hi] < 4 || touched[hi] == 0 {
            continue;
        }
        let cells = &g.house(hi).cells;
        let mut allowed = 0u16;
        let mut touched = 0u16;
        for (i, c) in cells.iter().enumerate() {
            let cs = cur.cells[c.index()];
            if cs.len() == 2 {
                allowed |= 1 << i;
            }
            if lost.contains(*c) {
                touched |= 1 << i;
            }
        }
        if allowed & touched == 0 {
            continue;
        }
        for &mask in combos(2) {
            if mask & !allowed != 0 || mask & touched == 0 {
                continue;
            }
            let i = mask.trailing_zeros() as usize;
            let j = (mask & (mask - 1)).trailing_zeros() as usize;
            let (a, b) = (cells[i], cells[j]);
            let union: DigitSet = cur.cells[a.index()] | cur.cells[b.index()];
            if union.len() != 2 {
                continue;
            }
            let mut members = S::Set::EMPTY;
            members.insert(a);
            members.insert(b);
            let others = g.house_set(hi) - members;
            let mut removals = [S::Set::EMPTY; 9];
            let mut worth = false;
            for e in union {
                removals[e.index()] = cur.planes[e.index()] & others;
                worth |= !removals[e.index()].is_empty();
            }
            if !worth {
                continue;
            }
            let mut parents = S::Cands::NONE;
            for x in [a, b] {
                for e in src.cells[x.index()] - union {
                    parents.set(cand_of(x.index(), e.index()));
                }
            }
            if parents.none() {
                continue;
            }
            out.push(Basic {
                removals,
                parents,
                technique: Technique::NakedPair,
            });
        }
    }
}

/// X-wings (SE `Fisherman(2)`) whose rule parents are not empty: the chain removed a
/// place of the digit in a base line outside the cover lines.
fn x_wings<S: Size>(
    g: &Geometry<S>,
    sys: &FishSystem<S>,
    out: &mut Vec<Basic<S>>,
    cur: &Cands<S>,
    removed_planes: &[S::Set; 9],
    placed: &[u8; 9],
) {
    // Per digit that may have an X-wing (a removal in the grid, at most five placed): the
    // lines holding a removal, and each line's places as a mask of cross lines.
    let mut digits = 0u16;
    let mut removal_lines = [[0u16; 9]; 2];
    let mut masks = [[[0u16; 9]; 9]; 2];
    for (d, &n) in placed.iter().enumerate() {
        let r = removed_planes[d] & sys.cells;
        if n + 4 > 9 || r.is_empty() {
            continue;
        }
        digits |= 1 << d;
        for x in r {
            let at = sys.at[x.index()];
            removal_lines[0][d] |= 1 << (at & 15);
            removal_lines[1][d] |= 1 << (at >> 4);
        }
        for x in cur.planes[d] & sys.cells {
            let at = sys.at[x.index()];
            let (row, col) = (usize::from(at >> 4), usize::from(at & 15));
            masks[0][d][col] |= 1 << row;
            masks[1][d][row] |= 1 << col;
        }
    }
    if digits == 0 {
        return;
    }
    // Per orientation and base line, the digits with two places there. SE's order is
    // columns as base lines first, then rows, then the pairs of lines in `combos` order
    // (by the second line, then the first), then the digits.
    let mut twos = [[0u16; 9]; 2];
    for (t, masks) in twos.iter_mut().zip(&masks) {
        for (d, lines) in masks.iter().enumerate() {
            if digits & 1 << d == 0 {
                continue;
            }
            for (i, m) in lines.iter().enumerate() {
                if m.count_ones() == 2 {
                    t[i] |= 1 << d;
                }
            }
        }
    }
    for o in 0..2 {
        // Base lines and cross lines.
        let (base, cross) = if o == 0 {
            (&sys.cols, &sys.rows)
        } else {
            (&sys.rows, &sys.cols)
        };
        let line = |lines: &[u8; 9], i: usize| g.house_set(lines[i] as usize);
        for i2 in 1..9 {
            if twos[o][i2] == 0 {
                continue;
            }
            for i1 in 0..i2 {
                let mut ds = twos[o][i1] & twos[o][i2];
                while ds != 0 {
                    let d = ds.trailing_zeros() as usize;
                    ds &= ds - 1;
                    // Two places in each base line, on the same two cross lines.
                    let cover = masks[o][d][i1];
                    if masks[o][d][i2] != cover || removal_lines[o][d] & (1 << i1 | 1 << i2) == 0 {
                        continue;
                    }
                    let bases = line(base, i1) | line(base, i2);
                    let c1 = cover.trailing_zeros() as usize;
                    let c2 = (cover & (cover - 1)).trailing_zeros() as usize;
                    let covers = line(cross, c1) | line(cross, c2);
                    let elim = (cur.planes[d] & covers) - bases;
                    let parent_cells = (removed_planes[d] & bases) - covers;
                    if elim.is_empty() || parent_cells.is_empty() {
                        continue;
                    }
                    push_digit(out, d, elim, parent_cells, Technique::XWing);
                }
            }
        }
    }
}
