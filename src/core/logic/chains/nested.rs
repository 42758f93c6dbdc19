//! Nested forcing chains: what a dynamic chain of level 1 to 4 deduces when its own links
//! run dry (Sudoku Explainer `Chaining.getAdvancedPotentials`).
//!
//! On the chain's grid (the puzzle minus the candidates the chain has removed so far), SE
//! tries, in order, and stops at the first that gives anything: pointing and claiming,
//! hidden pairs, naked pairs, X-wings; then at level 2 the first chaining level (cycles
//! and forcing chains), at level 3 also the multiple forcing chains, and at level 4 (in
//! place of both) the dynamic forcing chains. Each hint found counts only if it needs
//! some of the chain's removals (its *rule parents*, SE `getRuleParents`); its removals
//! then join the chain as "off" potentials whose parents are those removals, and a
//! chaining hint's own complexity is added to the chain's (once per distinct nested
//! chain). The chaining hints are taken in SE's order (sorted by rating, complexity and
//! kind, equal removals kept once).

use super::cycles::{self, mix};
use super::forcing::{self, Spec};
use super::potentials::{Bits, Cands, NONE, NestedInfo, Run};
use super::{Engine, Hint, Sink};
use crate::core::bitboard::{CellSet, DigitSet};
use crate::core::index::{Digit, HOUSE_SETS};
use crate::core::logic::singles::BOX_COL_ROW;
use crate::core::logic::{Board, Budget, combos};

/// Working memory of the nested searches.
#[derive(Clone, Debug)]
pub(crate) struct Nest {
    /// Engine of the inner chaining searches.
    inner: Engine,
    /// Collects the inner chaining hints.
    sink: Sink,
    /// Nested chaining hints used so far in this search (complexity, fingerprint).
    pub(crate) table: Vec<NestedInfo>,
    /// Number of empty cells (no digit yet) per house.
    empty_count: [u8; 27],
    /// Number of cells holding each digit.
    placed: [u8; 9],
    /// Order of the collected hints.
    order: Vec<u32>,
    /// Fingerprints of the removals of the hints kept.
    seen: Vec<u64>,
}

impl Nest {
    pub(crate) fn new() -> Nest {
        Nest {
            inner: Engine::new(),
            sink: Sink::new(),
            table: Vec::with_capacity(4096),
            empty_count: [0; 27],
            placed: [0; 9],
            order: Vec::with_capacity(1024),
            seen: Vec::with_capacity(1024),
        }
    }

    /// Sets up for a search on `board`.
    pub(crate) fn prepare(&mut self, board: &Board) {
        self.table.clear();
        for (h, set) in HOUSE_SETS.iter().enumerate() {
            self.empty_count[h] = (board.empty() & *set).len() as u8;
        }
        for d in Digit::all() {
            self.placed[d.index()] = board.placed(d).len() as u8;
        }
    }
}

/// Adds the removals of one hint to the chain as advanced "off" potentials with `parents`
/// (unless already there).
fn add_offs(run: &mut Run, removals: &[CellSet; 9], parents: &Bits, nested: u32) {
    let mut all = CellSet::EMPTY;
    for s in removals {
        all |= *s;
    }
    for c in all {
        for (d, s) in removals.iter().enumerate() {
            if s.contains(c) {
                let cand = (c.index() * 9 + d) as u16;
                if run.off_idx[cand as usize] == NONE {
                    run.add_advanced(cand, parents, nested);
                }
            }
        }
    }
}

/// [`add_offs`] for one digit `d`: `elim` loses `d` because `d` is off in `parent_cells`.
fn add_digit_offs(run: &mut Run, d: usize, elim: CellSet, parent_cells: CellSet) {
    let mut parents = Bits::EMPTY;
    for x in parent_cells {
        parents.set((x.index() * 9 + d) as u16);
    }
    let mut removals = [CellSet::EMPTY; 9];
    removals[d] = elim;
    add_offs(run, &removals, &parents, NONE);
}

/// The advanced potentials of a dynamic chain at `level` whose grid is now `cur` (it
/// started from `src`), added to `run`. Returns how many hints gave potentials (0: the
/// chain is over), or `None` when the budget ran out.
pub(crate) fn advanced(
    run: &mut Run,
    cur: &Cands,
    src: &Cands,
    level: u8,
    nest: &mut Nest,
    budget: &mut Budget,
) -> Option<usize> {
    if !budget.charge(40) {
        return None;
    }
    let n = locking(run, cur, src);
    if n > 0 {
        return Some(n);
    }
    let n = hidden_pairs(run, cur, src, &nest.empty_count);
    if n > 0 {
        return Some(n);
    }
    let n = naked_pairs(run, cur, src, &nest.empty_count);
    if n > 0 {
        return Some(n);
    }
    let n = x_wings(run, cur, src, &nest.placed);
    if n > 0 {
        return Some(n);
    }
    if (2..4).contains(&level) {
        nest.sink.reset_collect(src);
        if !cycles::search(cur, &mut nest.inner.cyc, &mut nest.sink, budget) {
            return None;
        }
        let n = take_chain_hints(run, nest);
        if n > 0 {
            return Some(n);
        }
        if level == 3 {
            nest.sink.reset_collect(src);
            if !forcing::search(
                cur,
                Spec::multiple(),
                &mut nest.inner,
                None,
                &mut nest.sink,
                budget,
            ) {
                return None;
            }
            return Some(take_chain_hints(run, nest));
        }
    } else if level >= 4 {
        nest.sink.reset_collect(src);
        if !forcing::search(
            cur,
            Spec::dynamic(),
            &mut nest.inner,
            None,
            &mut nest.sink,
            budget,
        ) {
            return None;
        }
        return Some(take_chain_hints(run, nest));
    }
    Some(0)
}

/// A fingerprint of a hint's removals (SE compares chaining hints by their removals).
fn removal_sig(h: &Hint) -> u64 {
    let mut s = 0x1234_u64;
    for (d, set) in h.removals.iter().enumerate() {
        let b = set.bits();
        s = mix(s, (b as u64) ^ (d as u64) << 60);
        s = mix(s, (b >> 64) as u64);
    }
    s
}

/// Turns the collected chaining hints into advanced potentials, in SE's order (sorted,
/// equal removals once); returns how many hints gave potentials.
fn take_chain_hints(run: &mut Run, nest: &mut Nest) -> usize {
    let hints = &nest.sink.all;
    nest.order.clear();
    nest.order.extend(0..hints.len() as u32);
    nest.order.sort_unstable_by_key(|&i| {
        let h = &hints[i as usize];
        (h.difficulty, h.complexity, h.sort_key, i)
    });
    nest.seen.clear();
    let mut used = 0;
    for k in 0..nest.order.len() {
        let h = &nest.sink.all[nest.order[k] as usize];
        let rs = removal_sig(h);
        if nest.seen.contains(&rs) {
            continue;
        }
        nest.seen.push(rs);
        if h.parents.is_empty() {
            continue;
        }
        let id = nest.table.len() as u32;
        nest.table.push(NestedInfo {
            complexity: h.complexity,
            sig: h.sig,
        });
        add_offs(run, &h.removals, &h.parents, id);
        used += 1;
    }
    used
}

/// The house of kind `k` (0 box, 1 column, 2 row in [`PAIRS`]) numbered `i`.
#[inline]
fn house_set(kind: u8, i: usize) -> CellSet {
    match kind {
        0 => HOUSE_SETS[18 + i],
        1 => HOUSE_SETS[9 + i],
        _ => HOUSE_SETS[i],
    }
}

/// SE `Locking` house-kind pairs: (box, column), (box, row), (column, box), (row, box).
const PAIRS: [(u8, u8); 4] = [(0, 1), (0, 2), (1, 0), (2, 0)];

/// Pointing and claiming (SE `Locking(false)`) whose rule parents are not empty: the
/// chain removed some of the digit's places in the first house outside the second.
fn locking(run: &mut Run, cur: &Cands, src: &Cands) -> usize {
    let mut used = 0;
    for (k1, k2) in PAIRS {
        for d in 0..9 {
            let removed = src.planes[d] - cur.planes[d];
            if removed.is_empty() {
                continue;
            }
            let plane = cur.planes[d];
            for i1 in 0..9 {
                let r1 = house_set(k1, i1);
                let pos = plane & r1;
                if pos.len() < 2 || (removed & r1).is_empty() {
                    continue;
                }
                for i2 in 0..9 {
                    let r2 = house_set(k2, i2);
                    if (r1 & r2).is_empty() || !(pos - r2).is_empty() {
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
                    add_digit_offs(run, d, elim, parent_cells);
                    used += 1;
                }
            }
        }
    }
    used
}

/// Hidden pairs (SE `HiddenSet(2, false)`) whose rule parents are not empty: a place of
/// one of the pair's digits in the house was removed by the chain.
fn hidden_pairs(run: &mut Run, cur: &Cands, src: &Cands, empty: &[u8; 27]) -> usize {
    let mut used = 0;
    for &h in &BOX_COL_ROW {
        let hi = h.index();
        if empty[hi] <= 4 {
            continue;
        }
        let hs = HOUSE_SETS[hi];
        let mut pos = [CellSet::EMPTY; 9];
        let mut allowed = 0u16;
        let mut touched = 0u16;
        for (d, p) in pos.iter_mut().enumerate() {
            *p = cur.planes[d] & hs;
            if p.len() == 2 {
                allowed |= 1 << d;
            }
            if !((src.planes[d] - cur.planes[d]) & hs).is_empty() {
                touched |= 1 << d;
            }
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
            let mut removals = [CellSet::EMPTY; 9];
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
            let mut parents = Bits::EMPTY;
            for e in [d1, d2] {
                for x in (src.planes[e] & hs) - union {
                    parents.set((x.index() * 9 + e) as u16);
                }
            }
            if parents.is_empty() {
                continue;
            }
            add_offs(run, &removals, &parents, NONE);
            used += 1;
        }
    }
    used
}

/// Naked pairs (SE `NakedSet(2)`) whose rule parents are not empty: one of the two cells
/// lost a candidate to the chain.
fn naked_pairs(run: &mut Run, cur: &Cands, src: &Cands, empty: &[u8; 27]) -> usize {
    let mut used = 0;
    for &h in &BOX_COL_ROW {
        let hi = h.index();
        if empty[hi] < 4 {
            continue;
        }
        let cells = h.cells();
        let mut allowed = 0u16;
        let mut touched = 0u16;
        for (i, c) in cells.iter().enumerate() {
            let cs = cur.cells[c.index()];
            if cs.len() == 2 {
                allowed |= 1 << i;
            }
            if src.cells[c.index()] != cs {
                touched |= 1 << i;
            }
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
            let mut members = CellSet::EMPTY;
            members.insert(a);
            members.insert(b);
            let others = HOUSE_SETS[hi] - members;
            let mut removals = [CellSet::EMPTY; 9];
            let mut worth = false;
            for e in union {
                removals[e.index()] = cur.planes[e.index()] & others;
                worth |= !removals[e.index()].is_empty();
            }
            if !worth {
                continue;
            }
            let mut parents = Bits::EMPTY;
            for x in [a, b] {
                for e in src.cells[x.index()] - union {
                    parents.set((x.index() * 9 + e.index()) as u16);
                }
            }
            if parents.is_empty() {
                continue;
            }
            add_offs(run, &removals, &parents, NONE);
            used += 1;
        }
    }
    used
}

/// X-wings (SE `Fisherman(2)`) whose rule parents are not empty: the chain removed a
/// place of the digit in a base line outside the cover lines.
fn x_wings(run: &mut Run, cur: &Cands, src: &Cands, placed: &[u8; 9]) -> usize {
    let mut used = 0;
    // Columns as base lines first, then rows.
    for cols in [true, false] {
        let line = |i: usize| {
            if cols {
                HOUSE_SETS[9 + i]
            } else {
                HOUSE_SETS[i]
            }
        };
        let cover_line = |i: usize| {
            if cols {
                HOUSE_SETS[i]
            } else {
                HOUSE_SETS[9 + i]
            }
        };
        for &mask in combos(2) {
            let i1 = mask.trailing_zeros() as usize;
            let i2 = (mask & (mask - 1)).trailing_zeros() as usize;
            let bases = line(i1) | line(i2);
            for (d, &n) in placed.iter().enumerate() {
                if n + 4 > 9 {
                    continue;
                }
                let removed = (src.planes[d] - cur.planes[d]) & bases;
                if removed.is_empty() {
                    continue;
                }
                let plane = cur.planes[d];
                let p1 = plane & line(i1);
                let p2 = plane & line(i2);
                if p1.len() < 2 || p2.len() < 2 {
                    continue;
                }
                // Cover lines: the cross lines holding the places.
                let mut cover = 0u16;
                for x in p1 | p2 {
                    let cl = if cols { x.row() } else { x.col() };
                    cover |= 1 << cl;
                }
                if cover.count_ones() != 2 {
                    continue;
                }
                let c1 = cover.trailing_zeros() as usize;
                let c2 = (cover & (cover - 1)).trailing_zeros() as usize;
                let covers = cover_line(c1) | cover_line(c2);
                let elim = (plane & covers) - bases;
                if elim.is_empty() {
                    continue;
                }
                let parent_cells = removed - covers;
                if parent_cells.is_empty() {
                    continue;
                }
                add_digit_offs(run, d, elim, parent_cells);
                used += 1;
            }
        }
    }
    used
}
