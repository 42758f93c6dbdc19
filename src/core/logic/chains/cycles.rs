//! Static chains from one candidate: bidirectional cycles (X-, Y- and XY-cycles) and
//! forcing chains (forcing X-chains and forcing chains with X- and Y-links), the first
//! chaining level of Sudoku Explainer (`Chaining(false, false, false, 0)`,
//! `getLoopHintList`, `doUnaryChaining`, `doCycles`, `doForcingChains`).
//!
//! Links: "on" to "off" (a placed digit removes the cell's other candidates, with Y-links,
//! and its other places in the box, row and column) and "off" to "on" (a cell left with
//! one candidate, with Y-links; a house left with one place, with X-links), always on the
//! grid as it is (static chains).
//!
//! Three passes, as SE: X-links only (X-cycles, forcing X-chains), Y-links only (Y-cycles,
//! from bivalue cells only) and both (XY-cycles, forcing chains). From every candidate of
//! every cell with two or more candidates, in reading order:
//!
//! - *cycles*: a breadth-first search where "on" potentials are kept once but "off"
//!   potentials once per parent (unless the potential is one of that parent's ancestors);
//!   every "off" potential met from the second round on that implies the starting
//!   candidate closes a cycle. The cycle removes, from cells outside it, each digit seen by
//!   an "on" node of the cycle and by an "off" node of the same digit (the reversed cycle).
//! - *forcing chains*: a plain breadth-first search from the candidate assumed on (a chain
//!   reaching its "off": the candidate goes) and from it assumed off (reaching its "on":
//!   the digit is placed).
//!
//! A cycle's complexity is its number of distinct potentials, a forcing chain's its number
//! of potentials (both ends included).

use super::bivalue_memo::{BivalueMemo, bivalue_planes};
use super::board_reach::BoardReach;
use super::on_reach::{Graph, OnReach};
use super::plane_hints::{self, PlaneHints};
use super::plane_memo::{PlaneMemo, multi_cells};
use super::potentials::{
    Cands, Cause, Implied, Links, MAX_IMPLIED, NONE, cand_count, cand_of, cell_of, digit_of,
};
use super::trace::{self, ChainTrace, TraceKind};
use super::{Hint, Sink, rule_parents_of};
use crate::core::bitboard::DigitSet;
use crate::core::geometry::{Arr, CandBits, CellBits, Geometry, Size};
use crate::core::index::{Cell, Digit};
use crate::core::logic::{Budget, Technique, Tenths, length_bonus};

/// One potential of a static search: candidate, polarity, cause and the one parent.
#[derive(Clone, Copy, Debug)]
struct CNode {
    cand: u16,
    on: bool,
    cause: Cause,
    parent: u32,
    /// One bit per "off" ancestor (hashed): a quick filter for [`CycleScratch::is_ancestor_off`].
    bloom: u64,
}

/// The filter bit of an "off" candidate.
#[inline]
fn bloom_bit(cand: u16) -> u64 {
    1u64 << ((u32::from(cand).wrapping_mul(0x9E37_79B1) >> 26) & 63)
}

/// Working memory of the static searches, reused from candidate to candidate.
#[derive(Clone, Debug)]
pub(crate) struct CycleScratch<S: Size> {
    nodes: Vec<CNode>,
    on_idx: Vec<u32>,
    pend_on: Vec<u32>,
    pend_off: Vec<u32>,
    /// The next round's "on" potentials (cycles, which make them as they go).
    next_on: Vec<u32>,
    /// Cycles found: the closing "off" node and the cause of its link back to the start.
    found: Vec<(u32, Cause)>,
    /// Indexed "off" potentials, per digit and per cell. Those that imply nothing on this
    /// pass's links count as indexed from the start: they could only be leaves of the
    /// tree, no chain goes through them, and leaving them out spares most of the search's
    /// work (SE keeps them, to the same effect).
    off_planes: [S::Set; 9],
    off_cells: S::Cells<u16>,
    /// The candidates whose "off" implies nothing on this pass's links.
    dead_planes: [S::Set; 9],
    dead_cells: S::Cells<u16>,
    /// The "on" potentials each "off" one implies on the (static) grid, for the current
    /// pass.
    links: Links,
    /// For each start searched in this pass, the distance (in potentials, from its "on")
    /// at which the search met the "on" of each of its link partners (`links.get`), or
    /// `u8::MAX`; valid when `pstamp` is the pass number.
    pdist: Vec<[u8; MAX_IMPLIED]>,
    pstamp: Vec<u32>,
    /// The starts given partner distances this pass (`pstamp`).
    stamped: Vec<u16>,
    pass: u32,
    /// True when [`CycleScratch::unary`] notes what it reads in `read`: each "on"
    /// potential and the "off" ones it implies ([`super::board_reach`]).
    rec: bool,
    read: [S::Set; 9],
    /// The cells of the "on" potentials met (their other candidates are read, with
    /// Y-links).
    read_cells: S::Set,
    /// The X pass's hints per plane, for the nested searches.
    plane_hints: PlaneHints<S>,
    /// The hints an X pass found, being kept.
    found_hints: Vec<Hint<S>>,
    /// What each candidate's "on" reaches on the current pass's links, for collecting
    /// searches to skip the starts that can find nothing ([`super::on_reach`]).
    on_reach: OnReach<S>,
    /// Per pass: a copy of a board's links patched for the grid last searched from them
    /// (see [`CycleScratch::build_links_from`]). The pass of `active` has its copy in
    /// `links` (and `links`' own room in its place).
    patched: Vec<PatchedLinks<S>>,
    active: Option<usize>,
    /// Tests: the starts skipped because their search on the board before found nothing.
    #[cfg(test)]
    pub(crate) skipped_nothing: u64,
    /// Tests: per pass and start, true when its last record found only cycles removing
    /// nothing; and the starts skipped with such a record.
    #[cfg(test)]
    cycles_only: Vec<[bool; 3]>,
    #[cfg(test)]
    pub(crate) skipped_cycles_only: u64,
    /// Tests: the last round puts its "off" potentials in the tree as the others do.
    #[cfg(test)]
    full_last_round: bool,
    /// Tests: the chains from "off" are looked for at every candidate.
    #[cfg(test)]
    every_off_start: bool,
    /// Tests: the Y passes skipped on the word of [`super::bivalue_memo`].
    #[cfg(test)]
    y_skipped: u64,
    /// Tests: a search for chains alone makes its X pass even after the pass with both
    /// kinds of links found none as far as any chain can go.
    #[cfg(test)]
    pub(crate) keep_x_pass: bool,
    /// Tests: the X passes skipped so.
    #[cfg(test)]
    pub(crate) x_skipped: u64,
}

impl<S: Size> Default for CycleScratch<S> {
    fn default() -> Self {
        CycleScratch::new()
    }
}

/// A copy of a board's links, patched for a grid derived from that board.
#[derive(Clone, Debug)]
struct PatchedLinks<S: Size> {
    links: Links,
    /// The number of the board's copy of links it came from (0: none yet).
    from: u64,
    /// The candidates whose entries may differ from the board's.
    patched: [S::Set; 9],
}

/// The "off" potentials an "on" one implies, as sets (see
/// [`CycleScratch::implied_offs`]): the cell's other candidates, and the digit's places
/// among the cell's peers (each belongs to the first of the cell's houses holding it, in
/// SE's order).
struct Offs<S: Size> {
    c: usize,
    d: usize,
    others: u16,
    peers: S::Set,
}

impl<S: Size> Offs<S> {
    /// Whether candidate `q` is among them: its cause and its rank in SE's order.
    #[inline]
    fn find(&self, g: &Geometry<S>, q: u16) -> Option<(Cause, u32)> {
        let (qc, qd) = (cell_of(q), digit_of(q));
        if qc == self.c {
            return (qd != self.d && self.others & (1 << qd) != 0)
                .then_some((Cause::CELL, qd as u32));
        }
        let x = Cell::from_index(qc);
        if qd != self.d || !self.peers.contains(x) {
            return None;
        }
        let ids = g.cell_houses(Cell::from_index(self.c)).ids();
        let k = ids
            .iter()
            .position(|&h| g.house_set(usize::from(h)).contains(x))?;
        let cause = Cause::region(usize::from(ids[k]));
        Some((cause, (k as u32 + 1) * 1024 + qc as u32))
    }
}

/// Cycle and forcing chain passes: (Y-links, X-links).
const PASSES: [(bool, bool); 3] = [(false, true), (true, false), (true, true)];

impl<S: Size> CycleScratch<S> {
    /// Fresh scratch.
    pub(crate) fn new() -> CycleScratch<S> {
        let n = cand_count::<S>();
        CycleScratch {
            nodes: Vec::with_capacity(32 * n),
            on_idx: vec![NONE; n],
            pend_on: Vec::with_capacity(n),
            pend_off: Vec::with_capacity(32 * n),
            next_on: Vec::with_capacity(n),
            found: Vec::with_capacity(256),
            off_planes: [S::Set::EMPTY; 9],
            off_cells: S::Cells::splat(0),
            dead_planes: [S::Set::EMPTY; 9],
            dead_cells: S::Cells::splat(0),
            links: Links::new(n),
            pdist: vec![[u8::MAX; MAX_IMPLIED]; n],
            pstamp: vec![0; n],
            stamped: Vec::with_capacity(n),
            pass: 0,
            rec: false,
            read: [S::Set::EMPTY; 9],
            read_cells: S::Set::EMPTY,
            plane_hints: PlaneHints::default(),
            found_hints: Vec::new(),
            patched: (0..PASSES.len())
                .map(|_| PatchedLinks {
                    links: Links::new(0),
                    from: 0,
                    patched: [S::Set::EMPTY; 9],
                })
                .collect(),
            active: None,
            #[cfg(test)]
            skipped_nothing: 0,
            #[cfg(test)]
            cycles_only: vec![[false; 3]; cand_count::<S>()],
            #[cfg(test)]
            skipped_cycles_only: 0,
            #[cfg(test)]
            full_last_round: false,
            #[cfg(test)]
            every_off_start: false,
            #[cfg(test)]
            y_skipped: 0,
            #[cfg(test)]
            keep_x_pass: false,
            #[cfg(test)]
            x_skipped: 0,
            on_reach: OnReach::new(),
        }
    }

    /// The digits whose X-pass hints on `cur` are kept ([`super::plane_hints`]).
    #[cfg(test)]
    pub(crate) fn plane_hints_known(&self, cur: &Cands<S>, multi: S::Set) -> DigitSet {
        self.plane_hints.known(cur, multi)
    }

    /// Forgets the X pass's hints kept per plane (a new puzzle).
    pub(crate) fn forget_planes(&mut self) {
        self.plane_hints.forget();
    }

    fn reset(&mut self) {
        for n in &self.nodes {
            self.on_idx[n.cand as usize] = NONE;
        }
        self.off_cells = self.dead_cells;
        self.off_planes = self.dead_planes;
        self.nodes.clear();
        self.pend_on.clear();
        self.pend_off.clear();
        self.next_on.clear();
        self.found.clear();
    }

    #[inline(always)]
    fn push(&mut self, cand: u16, on: bool, cause: Cause, parent: u32) -> u32 {
        let i = self.nodes.len() as u32;
        let up = if parent == NONE {
            0
        } else {
            self.nodes[parent as usize].bloom
        };
        self.nodes.push(CNode {
            cand,
            on,
            cause,
            parent,
            bloom: if on { up } else { up | bloom_bit(cand) },
        });
        i
    }

    /// Builds this pass's links on `cur` and notes the candidates whose "off" implies
    /// nothing.
    fn build_links(&mut self, g: &Geometry<S>, cur: &Cands<S>, y: bool, x: bool) {
        self.build_links_for(g, cur, y, x, DigitSet::ALL);
    }

    /// [`CycleScratch::build_links`] with the X-links of `x_digits` only: the other
    /// digits' candidates imply nothing (an X pass that leaves those digits out, with
    /// nothing keeping its links).
    fn build_links_for(
        &mut self,
        g: &Geometry<S>,
        cur: &Cands<S>,
        y: bool,
        x: bool,
        x_digits: DigitSet,
    ) {
        self.reset();
        self.park_links();
        // The live candidates (their "off" implies something) are the fewer: the cells'
        // dead digits are their candidates less those.
        let live_planes = self.links.build_for(g, cur, y, x, x_digits);
        for c in 0..S::CELLS {
            self.dead_cells[c] = cur.cells[c].bits();
        }
        for (d, (dead, (&plane, &live))) in self
            .dead_planes
            .iter_mut()
            .zip(cur.planes.iter().zip(&live_planes))
            .enumerate()
        {
            *dead = plane - live;
            for c in live {
                self.dead_cells[c.index()] &= !(1 << d);
            }
        }
        self.off_cells = self.dead_cells;
        self.off_planes = self.dead_planes;
    }

    /// Puts the links of the active pass's patched copy back in their place.
    fn park_links(&mut self) {
        if let Some(p) = self.active.take() {
            std::mem::swap(&mut self.links, &mut self.patched[p].links);
        }
    }

    /// [`CycleScratch::build_links`] for pass `pass` from the links of a board `cur` came
    /// from (`base`, copy number `number`, with `base_dead` its candidates whose "off"
    /// implies nothing): only the candidates of `changed` (a superset of those whose links
    /// differ) are worked out again. The pass's patched copy of those links serves again
    /// (the nested searches run hundreds of times per board): only the entries patched for
    /// the grid before are copied back from the board's.
    #[allow(clippy::too_many_arguments)]
    fn build_links_from(
        &mut self,
        g: &Geometry<S>,
        cur: &Cands<S>,
        y: bool,
        x: bool,
        pass: usize,
        (base, number): (&Links, u64),
        base_dead: &[S::Set; 9],
        changed: &[S::Set; 9],
    ) {
        self.reset();
        self.park_links();
        let k = &mut self.patched[pass];
        if k.from == number {
            for (d, (was, now)) in k.patched.iter().zip(changed).enumerate() {
                for cell in *was - *now {
                    k.links.copy_entry(base, cand_of(cell.index(), d));
                }
            }
        } else {
            k.links.copy_from(base);
            k.from = number;
        }
        k.patched = *changed;
        std::mem::swap(&mut self.links, &mut k.links);
        self.active = Some(pass);
        for d in 0..9 {
            self.dead_planes[d] = (base_dead[d] & cur.planes[d]) - changed[d];
            for cell in changed[d] {
                let q = cand_of(cell.index(), d);
                self.links.rebuild(g, cur, q, y, x);
                if cur.planes[d].contains(cell) && self.links.get(q).is_empty() {
                    self.dead_planes[d].insert(cell);
                }
            }
        }
        self.dead_cells = S::Cells::splat(0);
        for (d, p) in self.dead_planes.iter().enumerate() {
            for cell in *p {
                self.dead_cells[cell.index()] |= 1 << d;
            }
        }
        self.off_cells = self.dead_cells;
        self.off_planes = self.dead_planes;
    }

    /// Adds a new "off" potential to the tree and indexes it; returns its node.
    #[inline(always)]
    fn index_off(&mut self, cand: u16, cause: Cause, p: u32) -> u32 {
        let i = self.push(cand, false, cause, p);
        self.off_planes[digit_of(cand)].insert(Cell::from_index(cell_of(cand)));
        self.off_cells[cell_of(cand)] |= 1 << digit_of(cand);
        i
    }

    /// Indexes a new "off" potential and queues it.
    #[inline(always)]
    fn register_off(&mut self, cand: u16, cause: Cause, p: u32) {
        let i = self.index_off(cand, cause, p);
        self.pend_off.push(i);
    }

    /// The "off" potentials the "on" node `p` implies (SE `getOnToOff`), as sets: the
    /// cell's other candidates (with Y-links) and the digit's other places in the cell's
    /// houses (classic: box, row, column).
    #[inline]
    fn implied_offs(&self, g: &Geometry<S>, cur: &Cands<S>, p: u32, y: bool) -> Offs<S> {
        let pc = self.nodes[p as usize].cand;
        let (c, d) = (cell_of(pc), digit_of(pc));
        let others = if y {
            cur.cells[c].bits() & !(1 << d)
        } else {
            0
        };
        let cell = Cell::from_index(c);
        let mut plane = cur.planes[d];
        plane.remove(cell);
        Offs {
            c,
            d,
            others,
            peers: plane & g.peers(cell),
        }
    }

    /// Indexes and queues, in SE's order, the "off" potentials of `o` not met yet: the
    /// cell's, then each house's in the cell's house order.
    #[inline]
    fn register_new(&mut self, g: &Geometry<S>, o: &Offs<S>, p: u32) {
        self.each_new(g, o, p, |sc, cand, cause, p| {
            sc.register_off(cand, cause, p)
        });
    }

    /// Calls `f` on each "off" potential of `o` not met yet, in SE's order: the cell's,
    /// then each house's in the cell's house order.
    #[inline(always)]
    fn each_new(
        &mut self,
        g: &Geometry<S>,
        o: &Offs<S>,
        p: u32,
        mut f: impl FnMut(&mut Self, u16, Cause, u32),
    ) {
        let mut fresh = o.others & !self.off_cells[o.c];
        while fresh != 0 {
            let e = fresh.trailing_zeros() as usize;
            fresh &= fresh - 1;
            f(self, cand_of(o.c, e), Cause::CELL, p);
        }
        let new = o.peers - self.off_planes[o.d];
        if new.is_empty() {
            return;
        }
        let mut seen = S::Set::EMPTY;
        for &h in g.cell_houses(Cell::from_index(o.c)).ids() {
            let hs = g.house_set(usize::from(h));
            for x in (new & hs) - seen {
                f(
                    self,
                    cand_of(x.index(), o.d),
                    Cause::region(usize::from(h)),
                    p,
                );
            }
            seen |= hs;
        }
    }

    /// True when the "off" potential `cand` is `p` or one of its ancestors (SE `isParent`
    /// looks at the ancestors; `p` itself is "on" so never equal).
    #[inline]
    fn is_ancestor_off(&self, p: u32, cand: u16) -> bool {
        if self.nodes[p as usize].bloom & bloom_bit(cand) == 0 {
            return false;
        }
        let mut i = self.nodes[p as usize].parent;
        while i != NONE {
            let n = &self.nodes[i as usize];
            if n.cand == cand && !n.on {
                return true;
            }
            i = n.parent;
        }
        false
    }

    /// SE `doCycles` and `doForcingChains` from `start` assumed on, as one search.
    ///
    /// Both of SE's searches build the same tree of "on" potentials: `doCycles` keeps an
    /// "off" potential once per parent (unless it is one of that parent's ancestors) while
    /// `doForcingChains` keeps it once, but a repeated "off" potential only implies "on"
    /// ones already met. So one breadth-first search suffices; a cycle closes wherever an
    /// "off" potential (repeated or not, not an ancestor of its parent) implies the start,
    /// from the second round on, in the order SE meets them. Cycles go to `found` (the
    /// closing "off" node, unindexed, and the cause of its link to the start), up to
    /// `cycle_len` potentials; the first "off" of the start itself within `chain_len`
    /// potentials (0: none wanted) is returned as the forcing chain's target.
    #[allow(clippy::too_many_arguments)]
    fn unary(
        &mut self,
        g: &Geometry<S>,
        cur: &Cands<S>,
        start: u16,
        y: bool,
        cycle_len: u32,
        chain_len: u32,
        budget: &mut Budget,
    ) -> Option<u32> {
        self.reset();
        if self.rec {
            self.read = [S::Set::EMPTY; 9];
            self.read_cells = S::Set::EMPTY;
        }
        let root = self.push(start, true, Cause::ASSUMPTION, NONE);
        self.on_idx[start as usize] = root;
        self.pend_on.push(root);
        // "Off" potentials that imply the start (links are symmetric: those the start's
        // "off" implies), with the cause of that link.
        let mut closers = [Implied::default(); MAX_IMPLIED];
        let n_closers = {
            let l = self.links.get(start);
            closers[..l.len()].copy_from_slice(l);
            l.len()
        };
        // Where an "on" potential must be to turn a closer "off": among the closer's
        // peers with its digit, or (Y-links) in its cell.
        let mut near_closers = [S::Set::EMPTY; 9];
        let mut closer_cells = S::Set::EMPTY;
        for cl in &closers[..n_closers] {
            let cell = Cell::from_index(cell_of(cl.cand));
            near_closers[digit_of(cl.cand)] |= g.peers(cell);
            closer_cells.insert(cell);
        }
        let mut target = NONE;
        let mut round = 0u32;
        let mut partner_dist = [u8::MAX; MAX_IMPLIED];
        let mut n_offs = 0u64;
        // The last round's "off" potentials (there is one last round at most).
        let mut last_offs = [S::Set::EMPTY; 9];
        while !self.pend_on.is_empty() {
            round += 1;
            // What this round finds has `2 * round` potentials.
            let want_cycle = round >= 2 && 2 * round <= cycle_len && n_closers > 0;
            let want_chain = target == NONE && 2 * round <= chain_len;
            if !want_chain && 2 * round > cycle_len {
                break;
            }
            // No round after this one: its "off" potentials only measure how far the
            // partners are (below), so they are gathered as sets, not put in the tree.
            let last =
                2 * (round + 1) > cycle_len && (target != NONE || 2 * (round + 1) > chain_len);
            #[cfg(test)]
            let last = last && !self.full_last_round;
            let mut k = 0;
            while k < self.pend_on.len() {
                let p = self.pend_on[k];
                k += 1;
                let o = self.implied_offs(g, cur, p, y);
                let cell = Cell::from_index(o.c);
                if self.rec {
                    self.read[o.d] |= o.peers;
                    self.read[o.d].insert(cell);
                    self.read_cells.insert(cell);
                }
                if want_chain
                    && target == NONE
                    && let Some((cause, _)) = o.find(g, start)
                {
                    target = self.push(start, false, cause, p);
                }
                if want_cycle
                    && (near_closers[o.d].contains(cell) || (y && closer_cells.contains(cell)))
                {
                    // Closing "off" potentials, in the order SE meets them.
                    let mut hits = [(0u32, 0usize, Cause::ASSUMPTION); MAX_IMPLIED];
                    let mut nh = 0;
                    for (j, cl) in closers[..n_closers].iter().enumerate() {
                        if let Some((cause, rank)) = o.find(g, cl.cand) {
                            hits[nh] = (rank, j, cause);
                            nh += 1;
                        }
                    }
                    hits[..nh].sort_unstable_by_key(|h| h.0);
                    for &(_, j, cause) in &hits[..nh] {
                        let q = closers[j].cand;
                        if !self.is_ancestor_off(p, q) {
                            let e = self.push(q, false, cause, p);
                            self.found.push((e, closers[j].cause()));
                        }
                    }
                }
                if last {
                    last_offs[o.d] |= o.peers;
                    let mut others = o.others;
                    while others != 0 {
                        let e = others.trailing_zeros() as usize;
                        others &= others - 1;
                        last_offs[e].insert(cell);
                    }
                    continue;
                }
                // Each new "off" potential is indexed and its "on" ones made at once, for
                // the next round: the same potentials in the same order as when all the
                // round's "off" potentials are expanded after it.
                let dist = (2 * round).min(254) as u8;
                self.each_new(g, &o, p, |sc, cand, cause, p| {
                    let e = sc.index_off(cand, cause, p);
                    n_offs += 1;
                    let (links, n) = sc.links.entry(cand);
                    for imp in &links[..n] {
                        if sc.on_idx[imp.cand as usize] == NONE {
                            let i = sc.push(imp.cand, true, imp.cause(), e);
                            sc.on_idx[imp.cand as usize] = i;
                            sc.next_on.push(i);
                            if let Some(k) =
                                closers[..n_closers].iter().position(|c| c.cand == imp.cand)
                            {
                                partner_dist[k] = dist;
                            }
                        }
                    }
                });
            }
            if last {
                // The new "off" potentials (as many as the tree would have taken in) and
                // the partners whose "on" one of them implies, not met before.
                for (d, offs) in last_offs.iter_mut().enumerate() {
                    *offs = *offs - self.off_planes[d];
                    n_offs += u64::from(offs.len());
                }
                let dist = (2 * round).min(254) as u8;
                for (k, cl) in closers[..n_closers].iter().enumerate() {
                    if self.on_idx[cl.cand as usize] == NONE
                        && self.links.get(cl.cand).iter().any(|q| {
                            last_offs[digit_of(q.cand)].contains(Cell::from_index(cell_of(q.cand)))
                        })
                    {
                        partner_dist[k] = dist;
                    }
                }
            }
            std::mem::swap(&mut self.pend_on, &mut self.next_on);
            self.next_on.clear();
            if !budget.charge(n_offs / 4 + 1) {
                return None;
            }
            n_offs = 0;
        }
        self.pdist[start as usize] = partner_dist;
        self.pstamp[start as usize] = self.pass;
        self.stamped.push(start);
        if self.rec && y {
            // The other candidates of the "on" potentials' cells.
            for (r, p) in self.read.iter_mut().zip(&cur.planes) {
                *r |= self.read_cells & *p;
            }
        }
        Some(target)
    }

    /// SE `doForcingChains` from `start` assumed on (`start_on`) or off: the node reaching
    /// the opposite of the start, if any within `max_len` potentials.
    #[allow(clippy::too_many_arguments)]
    fn forcing(
        &mut self,
        g: &Geometry<S>,
        cur: &Cands<S>,
        start: u16,
        start_on: bool,
        y: bool,
        max_len: u32,
        budget: &mut Budget,
    ) -> Option<Result<u32, bool>> {
        self.reset();
        if start_on {
            let root = self.push(start, true, Cause::ASSUMPTION, NONE);
            self.on_idx[start as usize] = root;
            self.pend_on.push(root);
        } else {
            self.register_off(start, Cause::ASSUMPTION, NONE);
        }
        // Potentials of the layer being processed are at distance `layer` from the start;
        // what they imply has `layer + 2` potentials in its chain.
        let mut layer = 0u32;
        while !self.pend_on.is_empty() || !self.pend_off.is_empty() {
            if !self.pend_on.is_empty() {
                if layer + 2 > max_len {
                    return Some(Err(true));
                }
                let mut k = 0;
                let mut target = NONE;
                while k < self.pend_on.len() && target == NONE {
                    let p = self.pend_on[k];
                    k += 1;
                    let o = self.implied_offs(g, cur, p, y);
                    if start_on && let Some((cause, _)) = o.find(g, start) {
                        target = self.push(start, false, cause, p);
                        break;
                    }
                    self.register_new(g, &o, p);
                }
                if target != NONE {
                    return Some(Ok(target));
                }
                self.pend_on.clear();
                layer += 1;
            }
            if !budget.charge(self.pend_off.len() as u64 / 4 + 1) {
                return None;
            }
            if !self.pend_off.is_empty() {
                if layer + 2 > max_len {
                    return Some(Err(true));
                }
                let mut k = 0;
                while k < self.pend_off.len() {
                    let e = self.pend_off[k];
                    k += 1;
                    let ec = self.nodes[e as usize].cand;
                    let (links, n) = self.links.entry(ec);
                    for &imp in &links[..n] {
                        if !start_on && imp.cand == start {
                            let i = self.push(imp.cand, true, imp.cause(), e);
                            return Some(Ok(i));
                        }
                        if self.on_idx[imp.cand as usize] == NONE {
                            let i = self.push(imp.cand, true, imp.cause(), e);
                            self.on_idx[imp.cand as usize] = i;
                            self.pend_on.push(i);
                        }
                    }
                }
                self.pend_off.clear();
                layer += 1;
            }
        }
        Some(Err(false))
    }

    /// Number of potentials from node `i` up to the start, both included.
    /// The potentials from the root to node `i`, for a trace.
    fn path(&self, mut i: u32) -> Vec<(u16, bool, Cause)> {
        let mut v = Vec::new();
        while i != NONE {
            let n = &self.nodes[i as usize];
            v.push((n.cand, n.on, n.cause));
            i = n.parent;
        }
        v.reverse();
        v
    }

    fn depth(&self, mut i: u32) -> u32 {
        let mut n = 0;
        while i != NONE {
            n += 1;
            i = self.nodes[i as usize].parent;
        }
        n
    }
}

/// A cheap 64-bit mix for fingerprints.
#[inline]
pub(crate) fn mix(h: u64, v: u64) -> u64 {
    (h ^ v.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .rotate_left(27)
        .wrapping_mul(0x94D0_49BB_1331_11EB)
}

/// Runs SE's first chaining level on `cur` and offers every hint to `sink`. False when
/// the budget ran out.
///
/// The forcing chains from a candidate assumed off are not searched one by one: from
/// "off", a chain first reaches the "on" of the candidate's link partners, so its shortest
/// length is two plus the shortest distance from a partner's "on" to the candidate's "on",
/// which the searches from the partners measured (in full when collecting, so a
/// candidate none of them reached has no such chain). Only a chain that exists (and, when
/// keeping the best hint, is good enough to be kept) is searched again, for its path, after
/// every candidate's cycles and chains from "on". Hints carry their place in SE's order
/// (their generation), so ties resolve as in SE, and a collecting sink's hints sort by it.
///
/// With a `memo` (keeping the best hint), the X pass skips the digits it vouches for, and
/// when that pass finds nothing, it remembers every digit's plane ([`super::plane_memo`]).
/// With a `reach` ([`super::board_reach`]), the search skips the starts whose search would
/// read the same as on the board it records, in the passes that found nothing there (a
/// grid derived from that board: a nested search's, or the next step's), and, recording
/// (collecting every hint, so that each start looks without bounds), notes what each
/// start it searches reads and finds, for the grid to become the board;
/// recording on a grid from that board, it also skips the starts that read nothing changed
/// and found nothing there. Every pass skips the starts whose "on"
/// reaches nothing a hint needs ([`super::on_reach`]; keeping the best, nothing within
/// the search's bounds), except in a collecting search that records (the nested
/// searches skip what it records, so it searches every start).
#[allow(clippy::too_many_arguments)]
pub(crate) fn search<S: Size>(
    g: &Geometry<S>,
    cur: &Cands<S>,
    sc: &mut CycleScratch<S>,
    sink: &mut Sink<S>,
    memos: Option<(&mut PlaneMemo<S>, &mut BivalueMemo<S>)>,
    mut reach: Option<&mut BoardReach<S>>,
    budget: &mut Budget,
) -> bool {
    let (mut memo, mut y_memo) = memos.unzip();
    let best_mode = sink.keeps_best();
    debug_assert!(
        !best_mode || !reach.as_deref().is_some_and(BoardReach::recording),
        "a search that records collects every hint (its records say it looked without bounds)"
    );
    let multi = if memo.is_some() && best_mode {
        multi_cells(cur)
    } else {
        S::Set::EMPTY
    };
    let skip = match memo.as_deref() {
        Some(m) if best_mode => m.clean(cur, multi),
        _ => DigitSet::EMPTY,
    };
    // Collecting for a nested search (not recording, not tracing): the X pass takes the
    // hints of the planes met before ([`super::plane_hints`]).
    let keep_planes = match sink.context() {
        Some(ctx)
            if !best_mode
                && !sink.tracing()
                && !reach.as_deref().is_some_and(BoardReach::recording) =>
        {
            sc.plane_hints.begin(ctx);
            true
        }
        _ => false,
    };
    let (multi_x, known) = if keep_planes {
        let m = multi_cells(cur);
        (m, sc.plane_hints.known(cur, m))
    } else {
        (S::Set::EMPTY, DigitSet::EMPTY)
    };
    // Any forcing chain will do: the pass with both kinds of links first.
    let order: [usize; 3] = if sink.chains_only {
        [2, 0, 1]
    } else {
        [0, 1, 2]
    };
    // Seeking any forcing chain (a try's search): once the pass with both kinds of links
    // looked as far as any chain can go (a chain's potentials are distinct, so it has at
    // most two per candidate) and found none, the X pass finds none either: its links
    // are some of that pass's, so each of its chains is one of that pass's.
    let mut none_at_all = false;
    for pi in order {
        let skip_x = pi == 0 && none_at_all;
        #[cfg(test)]
        let skip_x = skip_x && !sc.keep_x_pass;
        if skip_x {
            #[cfg(test)]
            {
                sc.x_skipped += 1;
            }
            continue;
        }
        let (y, x) = PASSES[pi];
        // Digits whose X pass is known to find nothing, or known (the X pass only).
        let skip = if pi == 0 {
            skip | known
        } else {
            DigitSet::EMPTY
        };
        if pi == 0 && keep_planes && known == DigitSet::ALL {
            take_planes(cur, sc, sink, multi_x, known, sink.all.len());
            continue;
        }
        let cycle_base: Tenths = if x && y { 70 } else { 65 };
        let key = if x && y {
            4
        } else if y {
            3
        } else {
            2
        };
        let chain_base: Tenths = if x && y { 70 } else { 66 };
        // The shortest cycle or chain has four potentials.
        if (sink.chains_only || sink.limit(cycle_base, key) < 4)
            && (!x || sink.limit(chain_base, key) < 4)
        {
            continue;
        }
        let exhaustive = sink.chains_only
            && x
            && y
            && sink.limit(chain_base, key) >= 2 * cur.planes.iter().map(|p| p.len()).sum::<u32>();
        // The Y pass, keeping the best: its cells of two candidates, and the length it
        // looks for, when a memory may vouch for it ([`super::bivalue_memo`]).
        let y_pass = match y_memo.as_deref() {
            Some(m) if y && !x && best_mode => {
                let pairs = bivalue_planes(cur);
                let len = sink.limit(cycle_base, key);
                if m.finds_nothing(&pairs, len) {
                    #[cfg(test)]
                    {
                        sc.y_skipped += 1;
                    }
                    continue;
                }
                Some((pairs, len))
            }
            _ => None,
        };
        // Whether a start of this pass found something: a chain, a cycle that removes
        // something, or a cycle not looked at for that because it cannot beat the best.
        let mut pass_found = false;
        // Hints offered before this pass (collecting).
        let offered_before = sink.all.len();
        let recording = match reach.as_deref_mut() {
            Some(r) => {
                r.pass_start(g, cur, pi, y, x);
                match r.board_links(pi) {
                    Some((links, number, dead, changed)) => {
                        sc.build_links_from(g, cur, y, x, pi, (links, number), dead, changed)
                    }
                    None => sc.build_links(g, cur, y, x),
                }
                r.keep_links(pi, &sc.links, &sc.dead_planes);
                r.recording()
            }
            None => {
                // Nothing keeps the links: the X pass builds those of the digits it
                // searches (an X-link stays on its digit).
                let x_digits = if pi == 0 { !skip } else { DigitSet::ALL };
                sc.build_links_for(g, cur, y, x, x_digits);
                false
            }
        };
        sc.rec = recording;
        // A start whose reach cannot find anything is skipped ([`super::on_reach`]), not
        // recorded. A collecting search that records (for the nested searches on its
        // board, which skip what it records) searches every start instead.
        let use_reach = best_mode || !recording;
        if use_reach {
            sc.on_reach.begin_pass();
        }
        sc.pass = sc.pass.wrapping_add(1);
        if sc.pass == 0 {
            sc.pstamp.iter_mut().for_each(|p| *p = 0);
            sc.pass = 1;
        }
        sc.stamped.clear();
        let n_cands = cand_count::<S>() as u64;
        let generation =
            |start: u16, k: u64| ((pi as u64 * n_cands + u64::from(start)) << 10 | k.min(1020)) + 1;
        for c in 0..S::CELLS {
            let cs = cur.cells[c];
            if cs.len() < 2 || (cs.len() > 2 && !x) {
                continue;
            }
            for d in cs {
                let start = cand_of(c, d.index());
                if skip.contains(d) {
                    // Not searched, so nothing it read is known any more.
                    if let Some(r) = reach.as_deref_mut() {
                        r.drop_read(pi, start);
                    }
                    continue;
                }
                // SE `doUnaryChaining`: cycles, then the chain from the start on, then the
                // chain from it off (found after every start, below); the hints' generations
                // keep that order.
                let cycle_len = if sink.chains_only {
                    0
                } else {
                    sink.limit(cycle_base, key)
                };
                let chain_len = if x { sink.limit(chain_base, key) } else { 0 };
                if cycle_len < 4 && chain_len < 4 {
                    if let Some(r) = reach.as_deref_mut() {
                        r.drop_read(pi, start);
                    }
                    continue;
                }
                if reach.as_deref().is_some_and(|r| r.unchanged(pi, start)) {
                    continue;
                }
                // Recording on a grid from the board: a start whose search there found
                // nothing and read nothing changed since finds nothing again. Nor did it
                // meet a link partner's "on" (with X-links; a search without bounds goes
                // on from there to the start's "off", a chain), so it leaves no partner
                // distance for the chains from "off" either.
                if reach.as_deref().is_some_and(|r| r.found_nothing(pi, start)) {
                    #[cfg(test)]
                    {
                        sc.skipped_nothing += 1;
                        sc.skipped_cycles_only += u64::from(sc.cycles_only[start as usize][pi]);
                    }
                    continue;
                }
                if use_reach {
                    let graph = Graph {
                        g,
                        cur,
                        links: &sc.links,
                        dead: &sc.dead_planes,
                        dead_cells: &sc.dead_cells,
                        y,
                    };
                    // Bounded when keeping the best (a collecting search looks as far
                    // as the start reaches).
                    let bounds = (cycle_len != u32::MAX && chain_len != u32::MAX)
                        .then_some((cycle_len, chain_len));
                    let Some(may) = sc.on_reach.may_find(&graph, start, x, bounds, budget) else {
                        return false;
                    };
                    if !may {
                        if let Some(r) = reach.as_deref_mut() {
                            r.drop_read(pi, start);
                        }
                        continue;
                    }
                }
                let Some(t_on) = sc.unary(g, cur, start, y, cycle_len, chain_len, budget) else {
                    return false;
                };
                // A cycle that removes nothing is never offered: a start whose cycles
                // all remove nothing, with no chain, is recorded as finding nothing.
                let mut found = t_on != NONE;
                // (Chains only: the search closed no cycle, its length being 0.)
                for k in 0..sc.found.len() {
                    let (e, cause) = sc.found[k];
                    found |= offer_cycle(
                        g,
                        cur,
                        sc,
                        start,
                        e,
                        cause,
                        x,
                        y,
                        generation(start, k as u64),
                        sink,
                        recording,
                    );
                }
                pass_found |= found;
                if t_on != NONE {
                    offer_chain(g, cur, sc, start, t_on, x, y, generation(start, 1021), sink);
                    if sink.done() {
                        return true;
                    }
                }
                if recording && let Some(r) = reach.as_deref_mut() {
                    r.record_read(pi, start, &sc.read, found);
                    #[cfg(test)]
                    {
                        sc.cycles_only[start as usize][pi] = !found && !sc.found.is_empty();
                    }
                }
            }
        }
        if !x {
            if let (Some(m), Some((pairs, len))) = (y_memo.as_deref_mut(), y_pass.as_ref())
                && !pass_found
            {
                m.record(pairs, *len);
            }
            if let Some(r) = reach.as_deref_mut() {
                r.pass_end(pi, quiet_pass(sink, offered_before));
            }
            continue;
        }
        // Forcing chains from a candidate assumed off, from the partners' distances (a
        // digit the memory skipped has none this pass: its candidates offered nothing).
        // Only a link partner of a start given distances has one to read, so those are
        // the candidates looked at, in order.
        let mut partners = S::Cands::NONE;
        for &b in &sc.stamped {
            for p in sc.links.get(b) {
                partners.set(p.cand);
            }
        }
        #[cfg(test)]
        if sc.every_off_start {
            for c in 0..S::CELLS {
                for d in cur.cells[c] {
                    partners.set(cand_of(c, d.index()));
                }
            }
        }
        for start in partners.cands() {
            if cur.cells[cell_of(start)].len() < 2 {
                continue;
            }
            let mut best = u32::MAX;
            for p in sc.links.get(start) {
                let b = p.cand as usize;
                if sc.pstamp[b] != sc.pass {
                    continue;
                }
                let Some(k) = sc.links.get(p.cand).iter().position(|q| q.cand == start) else {
                    continue;
                };
                let dist = sc.pdist[b][k];
                if dist != u8::MAX {
                    best = best.min(u32::from(dist));
                }
            }
            if best == u32::MAX {
                continue;
            }
            let complexity = best + 2;
            let difficulty = chain_base + length_bonus(complexity - 2);
            let gen_ = generation(start, 1022);
            if !sink.wants_at(difficulty, complexity, key, gen_) {
                continue;
            }
            // The search finds that length (and the path SE's search takes).
            match sc.forcing(g, cur, start, false, y, complexity, budget) {
                None => return false,
                Some(Ok(t)) => {
                    offer_chain(g, cur, sc, start, t, x, y, gen_, sink);
                    if sink.done() {
                        return true;
                    }
                }
                Some(Err(_)) => {}
            }
        }
        none_at_all |= exhaustive;
        // Gathering (a try's search): the first pass that found something is enough.
        if sink.gathered_any() {
            return true;
        }
        if pi == 0 && keep_planes {
            take_planes(cur, sc, sink, multi_x, known, offered_before);
        }
        if pi == 0
            && !sink.has_best()
            && let Some(m) = memo.as_deref_mut()
        {
            // The X pass found nothing, with nothing to beat: no digit offers a hint.
            for d in Digit::all() {
                m.record(d, cur, multi);
            }
        }
        if let Some(r) = reach.as_deref_mut() {
            r.pass_end(pi, quiet_pass(sink, offered_before));
        }
    }
    true
}

/// Keeps the hints the X pass offered since `offered_before` (from the digits not
/// `known`) for their planes, and adds those of the `known` digits' planes, all in the
/// order the X pass offers them.
fn take_planes<S: Size>(
    cur: &Cands<S>,
    sc: &mut CycleScratch<S>,
    sink: &mut Sink<S>,
    multi: S::Set,
    known: DigitSet,
    offered_before: usize,
) {
    sc.found_hints.clear();
    sc.found_hints
        .extend_from_slice(&sink.all[offered_before..]);
    sc.plane_hints
        .keep_and_take(cur, multi, known, &sc.found_hints, &mut sink.all);
    sink.all[offered_before..].sort_by_key(plane_hints::order);
}

/// True when the pass now ending, collecting (as a recording search does), offered nothing
/// since `offered_before`.
fn quiet_pass<S: Size>(sink: &Sink<S>, offered_before: usize) -> bool {
    sink.all.len() == offered_before
}

/// The candidates of `cand`'s digit, outside `cells`, that see `cand`: a cycle on `cells`
/// removes those seen from one of its "on" potentials and one of its "off" ones.
#[inline]
pub(super) fn seen_outside<S: Size>(
    g: &Geometry<S>,
    cur: &Cands<S>,
    cand: u16,
    cells: S::Set,
) -> S::Set {
    (g.peers(Cell::from_index(cell_of(cand))) & cur.planes[digit_of(cand)]) - cells
}

/// Builds the cycle closed by "off" node `e` (its link back to `start` has `cause`) and
/// offers it (SE `createCycleHint`). Returns false when the cycle removes nothing (worked
/// out when it is wanted, or always with `measure`), true otherwise.
#[allow(clippy::too_many_arguments)]
fn offer_cycle<S: Size>(
    g: &Geometry<S>,
    cur: &Cands<S>,
    sc: &CycleScratch<S>,
    start: u16,
    e: u32,
    cause: Cause,
    x: bool,
    y: bool,
    generation: u64,
    sink: &mut Sink<S>,
    measure: bool,
) -> bool {
    // The closing "on" repeats the start: the distinct potentials are `e` and its
    // ancestors.
    let complexity = sc.depth(e);
    let (technique, base, key) = if x && y {
        (Technique::BidirectionalCycle, 70, 4)
    } else if y {
        (Technique::YCycle, 65, 3)
    } else {
        (Technique::XCycle, 65, 2)
    };
    let difficulty = base + length_bonus(complexity.saturating_sub(2));
    let wanted = sink.wants_at(difficulty, complexity, key, generation);
    if !wanted && !measure {
        return true;
    }
    // Cells of the cycle.
    let mut cells = S::Set::EMPTY;
    let mut digits = DigitSet::EMPTY;
    let sc_cell = Cell::from_index(cell_of(start));
    cells.insert(sc_cell);
    let mut i = e;
    while i != NONE {
        let n = &sc.nodes[i as usize];
        cells.insert(Cell::from_index(cell_of(n.cand)));
        digits.insert(Digit::from_index(digit_of(n.cand)));
        i = n.parent;
    }
    // Cancellations seen from the "on" nodes (forward) and from the "off" nodes (which
    // are "on" in the reversed cycle); the closing node counts as "on", the start itself
    // is not visited (it equals the closing node).
    let mut forw = [S::Set::EMPTY; 9];
    let mut back = [S::Set::EMPTY; 9];
    let mut add = |cand: u16, on: bool| {
        let hit = seen_outside(g, cur, cand, cells);
        if on {
            forw[digit_of(cand)] |= hit;
        } else {
            back[digit_of(cand)] |= hit;
        }
    };
    add(start, true);
    let mut i = e;
    while i != NONE {
        let n = &sc.nodes[i as usize];
        if n.parent == NONE {
            break;
        }
        add(n.cand, n.on);
        i = n.parent;
    }
    let mut removals = [S::Set::EMPTY; 9];
    let mut any = false;
    for d in 0..9 {
        removals[d] = forw[d] & back[d];
        any |= !removals[d].is_empty();
    }
    if !any || !wanted {
        return any;
    }
    let mut hint = Hint::<S>::new(technique, difficulty, complexity, key);
    hint.generation = generation;
    hint.removals = removals;
    hint.cells = cells;
    hint.digits = digits;
    if let Some(ctx) = sink.context() {
        // Rule parents (SE `collectRuleParents` on the cycle and its reverse): every
        // potential of the cycle but the start, each by its own cause.
        let mut parents = S::Cands::NONE;
        let mut sig = mix(0x5eed, u64::from(start) << 1 | 1);
        rule_parents_of(g, ctx, cur, start, cause, &mut parents);
        let mut i = e;
        while i != NONE {
            let n = &sc.nodes[i as usize];
            sig = mix(sig, u64::from(n.cand) << 1 | u64::from(n.on));
            if n.parent != NONE {
                rule_parents_of(g, ctx, cur, n.cand, n.cause, &mut parents);
            }
            i = n.parent;
        }
        hint.parents = parents;
        hint.sig = sig;
    }
    if sink.offer(&hint) && sink.tracing() {
        let mut steps = sc.path(e);
        steps.push((start, true, cause));
        sink.keep_trace(ChainTrace {
            kind: TraceKind::Cycle,
            chains: vec![trace::path(steps)],
            nested: Vec::new(),
        });
    }
    true
}

/// Offers the forcing chain ending at node `t` (SE `createForcingChainHint`).
#[allow(clippy::too_many_arguments)]
fn offer_chain<S: Size>(
    g: &Geometry<S>,
    cur: &Cands<S>,
    sc: &CycleScratch<S>,
    start: u16,
    t: u32,
    x: bool,
    y: bool,
    generation: u64,
    sink: &mut Sink<S>,
) {
    let complexity = sc.depth(t);
    let (technique, base, key) = if x && y {
        (Technique::ForcingChain, 70, 4)
    } else {
        (Technique::ForcingXChain, 66, 2)
    };
    let difficulty = base + length_bonus(complexity.saturating_sub(2));
    if !sink.wants_at(difficulty, complexity, key, generation) {
        return;
    }
    let target = sc.nodes[t as usize];
    let (c, d) = (cell_of(start), digit_of(start));
    let cell = Cell::from_index(c);
    let digit = Digit::from_index(d);
    let mut hint = Hint::<S>::new(technique, difficulty, complexity, key);
    hint.generation = generation;
    if target.on {
        hint.place(cur, cell, digit);
    } else {
        hint.removals[d].insert(cell);
    }
    let mut i = t;
    while i != NONE {
        let n = &sc.nodes[i as usize];
        hint.cells.insert(Cell::from_index(cell_of(n.cand)));
        hint.digits.insert(Digit::from_index(digit_of(n.cand)));
        i = n.parent;
    }
    if let Some(ctx) = sink.context() {
        let mut parents = S::Cands::NONE;
        let mut sig = mix(0xc4a1, 0);
        let mut i = t;
        while i != NONE {
            let n = &sc.nodes[i as usize];
            sig = mix(sig, u64::from(n.cand) << 1 | u64::from(n.on));
            if n.on && n.parent != NONE {
                rule_parents_of(g, ctx, cur, n.cand, n.cause, &mut parents);
            }
            i = n.parent;
        }
        hint.parents = parents;
        hint.sig = sig;
    }
    if sink.offer(&hint) && sink.tracing() {
        sink.keep_trace(ChainTrace {
            kind: TraceKind::Forcing,
            chains: vec![trace::path(sc.path(t))],
            nested: Vec::new(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::bitboard::CellSet;
    use crate::core::geometry::S81;
    use crate::core::logic::chains::board_reach::changed_links;
    use crate::core::logic::testutil::{board_from_line, cg, thinned};
    use rand::{RngExt, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// A puzzle whose grids, thinned at random, serve the searches' tests.
    const THINNED_FROM: &str =
        "..3..6.8....1..2......7...4..9..8.6..3..4...1.7.2.....3....5.....5...6..98.....5.";

    /// The starts of a pass on `cur` in search order: every candidate of a cell of two
    /// or more (with X-links), of a cell of two (without).
    fn starts(cur: &Cands<S81>, x: bool) -> Vec<u16> {
        (0..81)
            .filter(|&c| cur.cells[c].len() == 2 || (x && cur.cells[c].len() > 2))
            .flat_map(|c| cur.cells[c].into_iter().map(move |d| cand_of(c, d.index())))
            .collect()
    }

    /// True when the search just made from `start` (its chain's target `t_on`) found
    /// nothing: no chain, no cycle that removes something (those that remove nothing are
    /// never offered) and (X-links, whose chains from "off" they serve) no partner's
    /// distance.
    fn found_nothing(
        sc: &CycleScratch<S81>,
        cur: &Cands<S81>,
        start: u16,
        x: bool,
        y: bool,
        t_on: u32,
    ) -> bool {
        let removing = sc.found.iter().any(|&(e, cause)| {
            let mut sink = Sink::new();
            offer_cycle(cg(), cur, sc, start, e, cause, x, y, 1, &mut sink, true)
        });
        !removing
            && t_on == NONE
            && (!x || sc.pdist[usize::from(start)].iter().all(|&p| p == u8::MAX))
    }

    /// What two searches' hints are compared by: what they do, how they rate, and their
    /// place in SE's order.
    #[allow(clippy::type_complexity)]
    fn hint_key(
        h: &Hint<S81>,
    ) -> (
        Technique,
        Tenths,
        u32,
        u64,
        [CellSet; 9],
        Option<(Cell, Digit)>,
    ) {
        (
            h.technique,
            h.difficulty,
            h.complexity,
            h.generation,
            h.removals,
            h.placement,
        )
    }

    /// Calls `f(sc, cur, (y, x), start, round, rng)` on every start of every pass of
    /// `rounds` grids with candidates removed at random, as a nested chain's grid is (many
    /// cells and houses left with two, so many links), with the pass's links built and
    /// its reach begun.
    fn each_thinned_start(
        seed: u64,
        rounds: usize,
        mut f: impl FnMut(
            &mut CycleScratch<S81>,
            &Cands<S81>,
            (bool, bool),
            u16,
            usize,
            &mut Xoshiro256PlusPlus,
        ),
    ) {
        let board = board_from_line(THINNED_FROM);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut sc = CycleScratch::<S81>::new();
        for round in 0..rounds {
            let next = thinned(&board, rng.random_range(5..40), &mut rng);
            let cur = Cands::from_board(cg(), &next);
            for (y, x) in PASSES {
                sc.build_links(cg(), &cur, y, x);
                sc.on_reach.begin_pass();
                for start in starts(&cur, x) {
                    f(&mut sc, &cur, (y, x), start, round, &mut rng);
                }
            }
        }
    }

    /// The graph of the pass whose links `sc` holds.
    fn graph_of<'a>(
        links: &'a Links,
        (dead, dead_cells): (&'a [CellSet; 9], &'a [u16; 81]),
        cur: &'a Cands<S81>,
        y: bool,
    ) -> Graph<'a, S81> {
        Graph {
            g: cg(),
            cur,
            links,
            dead,
            dead_cells,
            y,
        }
    }

    #[test]
    fn a_start_whose_reach_cannot_find_anything_finds_nothing() {
        let (mut skipped, mut kept, mut found) = (0, 0, 0);
        // Starts skipped although their search closes cycles (which remove nothing).
        let mut skipped_closing = 0;
        each_thinned_start(5, 400, |sc, cur, (y, x), start, round, _| {
            let mut budget = Budget::UNLIMITED;
            let graph = graph_of(&sc.links, (&sc.dead_planes, &sc.dead_cells), cur, y);
            let reach = *sc.on_reach.reach(&graph, start, &mut budget).unwrap();
            let may = sc
                .on_reach
                .may_find(&graph, start, x, None, &mut budget)
                .unwrap();
            // The Y pass looks for cycles only.
            let chain_len = if x { u32::MAX } else { 0 };
            let t_on = sc
                .unary(cg(), cur, start, y, u32::MAX, chain_len, &mut budget)
                .unwrap();
            // The reach is what the search meets: its "on" potentials.
            let mut met = [CellSet::EMPTY; 9];
            for n in sc.nodes.iter().filter(|n| n.on) {
                met[digit_of(n.cand)].insert(Cell::from_index(cell_of(n.cand)));
            }
            assert_eq!(met, reach.planes, "round {round} start {start}");
            let nothing = found_nothing(sc, cur, start, x, y, t_on);
            assert!(
                may || nothing,
                "round {round} start {start} skipped wrongly"
            );
            match (may, nothing) {
                (false, _) => skipped += 1,
                (true, false) => found += 1,
                (true, true) => kept += 1,
            }
            if !may && !sc.found.is_empty() {
                skipped_closing += 1;
            }
        });
        // Both kinds met, many times: the test says something.
        assert!(
            skipped > 1000 && found > 100 && skipped_closing > 150,
            "{skipped} {found} {kept} {skipped_closing}"
        );
    }

    #[test]
    fn a_start_that_cannot_find_anything_within_the_bounds_finds_nothing() {
        // As above, with the bounds of a search keeping the best hint: a start the walk
        // within the bounds skips finds, within them, no chain, no cycle that removes
        // something, and (X-links) no partner's distance.
        // Starts the reach lets through that the walk skips; of those, the ones whose
        // search closes cycles (removing nothing), and those skipped for want of a
        // chain within the bounds although the reach holds one.
        let (mut walked_out, mut closing, mut far_chain, mut found) = (0, 0, 0, 0);
        each_thinned_start(9, 1000, |sc, cur, (y, x), start, round, rng| {
            let cycle_len = rng.random_range(4..=14);
            // The Y pass looks for cycles only.
            let chain_len = if x { rng.random_range(4..=14) } else { 0 };
            let mut budget = Budget::UNLIMITED;
            let graph = graph_of(&sc.links, (&sc.dead_planes, &sc.dead_cells), cur, y);
            let reach = sc.on_reach.may_find(&graph, start, x, None, &mut budget);
            let bounds = Some((cycle_len, chain_len));
            let may = sc.on_reach.may_find(&graph, start, x, bounds, &mut budget);
            let (reach, may) = (reach.unwrap(), may.unwrap());
            let chain_reached = x && sc.on_reach.reach_sees_start(&graph, start);
            assert!(
                reach || !may,
                "round {round} start {start}: walked, not reached"
            );
            let t_on = sc
                .unary(cg(), cur, start, y, cycle_len, chain_len, &mut budget)
                .unwrap();
            let nothing = found_nothing(sc, cur, start, x, y, t_on);
            assert!(
                may || nothing,
                "round {round} start {start} bounds {bounds:?} skipped wrongly"
            );
            found += u64::from(may && !nothing);
            if reach && !may {
                walked_out += 1;
                closing += u64::from(!sc.found.is_empty());
                far_chain += u64::from(chain_reached);
            }
        });
        // Each kind of skip met many times, and hints found: the test says something.
        assert!(
            walked_out > 2000 && closing > 50 && far_chain > 1500 && found > 10000,
            "{walked_out} {closing} {far_chain} {found}"
        );
    }

    #[test]
    fn the_last_round_measures_the_partners_as_the_full_tree_does() {
        // What a search reports (cycles closed, the chain's target, the partners'
        // distances, the work charged) is the same whether its last round puts its "off"
        // potentials in the tree or only gathers them, at every bound.
        let board = board_from_line(THINNED_FROM);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        let (mut short, mut full) = (CycleScratch::<S81>::new(), CycleScratch::<S81>::new());
        full.full_last_round = true;
        let outcome = |sc: &CycleScratch<S81>, t: u32, start: u16| {
            let cycles: Vec<_> = sc
                .found
                .iter()
                .map(|&(e, cause)| (sc.path(e), cause))
                .collect();
            let chain = (t != NONE).then(|| sc.path(t));
            (cycles, chain, sc.pdist[usize::from(start)])
        };
        let (mut searches, mut partners_last) = (0, 0);
        for round in 0..40 {
            let next = thinned(&board, rng.random_range(10..70), &mut rng);
            let cur = Cands::from_board(cg(), &next);
            for (y, x) in PASSES {
                short.build_links(cg(), &cur, y, x);
                full.build_links(cg(), &cur, y, x);
                for start in starts(&cur, x) {
                    for (cycle_len, chain_len) in [(4, 4), (4, 6), (6, 6), (8, 0), (7, 9), (10, 10)]
                    {
                        let chain_len = if x { chain_len } else { 0 };
                        let (mut b1, mut b2) = (Budget::new(u64::MAX), Budget::new(u64::MAX));
                        let t1 = short.unary(cg(), &cur, start, y, cycle_len, chain_len, &mut b1);
                        let t2 = full.unary(cg(), &cur, start, y, cycle_len, chain_len, &mut b2);
                        let (t1, t2) = (t1.unwrap(), t2.unwrap());
                        let o = outcome(&full, t2, start);
                        assert_eq!(
                            outcome(&short, t1, start),
                            o,
                            "round {round} start {start} bounds {cycle_len} {chain_len}"
                        );
                        assert_eq!(b1.spent(), b2.spent(), "round {round} start {start}");
                        searches += 1;
                        let deepest = cycle_len.max(chain_len) & !1;
                        partners_last += o.2.iter().filter(|&&p| u32::from(p) == deepest).count();
                    }
                }
            }
        }
        // Many partners measured in a last round: the test says something.
        assert!(
            searches > 50_000 && partners_last > 400,
            "{searches} {partners_last}"
        );
    }

    #[test]
    fn the_passes_the_memories_vouch_for_find_nothing_better() {
        use super::super::bivalue_memo::BivalueMemo;
        use crate::core::logic::Board;
        use crate::core::logic::testutil::random_minimal;
        // Along the paths of random minimal puzzles (the best step applied, and now and
        // then a few candidates thinned at random), the grader's search keeping the X
        // and Y passes' memories of one puzzle finds the best hint a fresh search finds.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(24);
        let mut kept = CycleScratch::<S81>::new();
        let (mut steps, mut found) = (0, 0);
        for (_, start) in random_minimal(120) {
            let mut board: Board = start;
            let mut x_memo = PlaneMemo::<S81>::default();
            let mut y_memo = BivalueMemo::<S81>::default();
            for _ in 0..40 {
                if board.is_solved() {
                    break;
                }
                let cur = Cands::from_board(cg(), &board);
                let mut budget = Budget::UNLIMITED;
                let mut sink = Sink::<S81>::new();
                sink.reset_best();
                assert!(search(
                    cg(),
                    &cur,
                    &mut kept,
                    &mut sink,
                    Some((&mut x_memo, &mut y_memo)),
                    None,
                    &mut budget,
                ));
                let mut fresh_sink = Sink::<S81>::new();
                fresh_sink.reset_best();
                assert!(search(
                    cg(),
                    &cur,
                    &mut CycleScratch::<S81>::new(),
                    &mut fresh_sink,
                    None,
                    None,
                    &mut budget,
                ));
                let best = sink.best.as_ref().map(hint_key);
                assert_eq!(best, fresh_sink.best.as_ref().map(hint_key), "step {steps}");
                steps += 1;
                match sink.best {
                    Some(h) => {
                        found += 1;
                        board.apply(
                            cg(),
                            &crate::core::logic::Step {
                                eliminations: h.removals,
                                placement: h.placement,
                                ..Default::default()
                            },
                        );
                        if rng.random_range(0..3) == 0 {
                            board = thinned(&board, rng.random_range(1..3), &mut rng);
                        }
                    }
                    None => board = thinned(&board, rng.random_range(1..6), &mut rng),
                }
            }
        }
        let skipped = kept.y_skipped;
        assert!(
            steps > 3000 && found > 1000 && skipped > 300,
            "{steps} steps, {found} found, {skipped} Y passes skipped"
        );
    }

    #[test]
    fn skipping_the_starts_that_found_nothing_on_the_board_before_keeps_the_step() {
        use super::super::board_reach::BoardReach;
        use crate::core::logic::Board;
        // Puzzles whose hardest step is a forcing chain, an X-chain, a cycle. Each round
        // collects every hint of the first level on the board (as the nested searches
        // do), both by a search that records what it read from one board to the next
        // ([`super::board_reach`]) and by a fresh one, compares them, applies the best,
        // and sometimes removes a few more candidates at random or moves to another
        // puzzle (a board that did not come from the one before).
        let lines = [
            "...3.246...6......54.....8....5..8.91.....7......8..2..8..1....3......1..9..486..",
            "2.7.........7.1.2......8.1.....26...72.8..3...5..9...183...29.........3.......7.4",
            "19.....4....982...........5..4...8......4..7...8.271..5..3.1...3.........6..7..91",
            "8...5..62.69........7...3.4.52....7......4......2.1....1..3.7..9....2.5.....6.4.3",
        ];
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut kept = CycleScratch::<S81>::new();
        let mut reach = BoardReach::<S81>::new(false);
        let (mut kept_sink, mut fresh_sink) = (Sink::<S81>::new(), Sink::<S81>::new());
        let (mut steps, mut moves, mut hints) = (0, 0, 0);
        for round in 0..30 {
            for line in lines {
                let mut board: Board = board_from_line(line);
                moves += 1;
                for _ in 0..40 {
                    let cur = Cands::from_board(cg(), &board);
                    let mut budget = Budget::UNLIMITED;
                    kept_sink.reset_collect(&cur);
                    reach.begin(&cur, true);
                    assert!(search(
                        cg(),
                        &cur,
                        &mut kept,
                        &mut kept_sink,
                        None,
                        Some(&mut reach),
                        &mut budget,
                    ));
                    reach.end(&cur);
                    // Tracing: the plain search, without the hints kept per plane.
                    fresh_sink.reset_collect(&cur);
                    fresh_sink.tracing = true;
                    let mut fresh = CycleScratch::<S81>::new();
                    assert!(search(
                        cg(),
                        &cur,
                        &mut fresh,
                        &mut fresh_sink,
                        None,
                        None,
                        &mut budget,
                    ));
                    let a: Vec<_> = kept_sink.all.iter().map(hint_key).collect();
                    let b: Vec<_> = fresh_sink.all.iter().map(hint_key).collect();
                    assert_eq!(a, b, "round {round}, step {steps}: {line}");
                    hints += a.len();
                    let Some(h) = kept_sink.all.iter().min_by_key(|h| h.key()) else {
                        break;
                    };
                    let step = crate::core::logic::Step {
                        eliminations: h.removals,
                        placement: h.placement,
                        ..Default::default()
                    };
                    steps += 1;
                    board.apply(cg(), &step);
                    if rng.random_range(0..2) == 0 {
                        board = thinned(&board, rng.random_range(1..4), &mut rng);
                    }
                }
            }
        }
        let skipped = kept.skipped_nothing;
        let cycles_only = kept.skipped_cycles_only;
        eprintln!(
            "{steps} steps, {hints} hints, {skipped} starts skipped, {cycles_only} of them with cycles"
        );
        assert!(
            steps > 2000
                && moves == 120
                && hints > 50_000
                && skipped > 100_000
                && cycles_only > 10_000,
            "{steps} steps, {skipped} starts skipped, {cycles_only} of them with cycles"
        );
    }

    #[test]
    fn the_chains_from_off_looked_for_are_those_of_every_candidate() {
        // The chains from a candidate "off" are looked for only at the link partners of
        // the starts given distances in the pass. Collecting every hint on grids with
        // candidates removed at random (many links, as a nested chain's grid has) finds
        // the same hints, in the same order, as looking at every candidate.
        let board = board_from_line(THINNED_FROM);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(17);
        let (mut some, mut every) = (CycleScratch::<S81>::new(), CycleScratch::<S81>::new());
        every.every_off_start = true;
        let (mut some_sink, mut every_sink) = (Sink::<S81>::new(), Sink::<S81>::new());
        // A chain from "off" places its candidate; the other hints remove.
        let mut placing = 0;
        for round in 0..1000 {
            let next = thinned(&board, rng.random_range(5..40), &mut rng);
            let cur = Cands::from_board(cg(), &next);
            for (sc, sink) in [(&mut some, &mut some_sink), (&mut every, &mut every_sink)] {
                sink.reset_collect(&cur);
                let mut budget = Budget::UNLIMITED;
                assert!(search(cg(), &cur, sc, sink, None, None, &mut budget));
            }
            let got: Vec<_> = some_sink.all.iter().map(hint_key).collect();
            let want: Vec<_> = every_sink.all.iter().map(hint_key).collect();
            assert_eq!(got, want, "round {round}");
            placing += want.iter().filter(|k| k.5.is_some()).count();
        }
        assert!(placing > 1500, "{placing} hints from 'off'");
    }

    #[test]
    fn links_worked_out_from_a_board_are_the_links() {
        let line =
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
        let board = board_from_line(line);
        let b = Cands::from_board(cg(), &board);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let (mut fresh, mut derived) = (CycleScratch::<S81>::new(), CycleScratch::<S81>::new());
        for _ in 0..200 {
            let next = thinned(&board, rng.random_range(1..10), &mut rng);
            let cur = Cands::from_board(cg(), &next);
            for (pi, (y, x)) in PASSES.into_iter().enumerate() {
                fresh.build_links(cg(), &b, y, x);
                let (base, base_dead) = (fresh.links.clone(), fresh.dead_planes);
                let changed = changed_links(cg(), &b.planes, &cur, y, x);
                // The board's links of each pass are the same each time: the patched
                // copy of the grid before serves again.
                let number = pi as u64 + 1;
                derived.build_links_from(
                    cg(),
                    &cur,
                    y,
                    x,
                    pi,
                    (&base, number),
                    &base_dead,
                    &changed,
                );
                fresh.build_links(cg(), &cur, y, x);
                assert_eq!(fresh.dead_planes, derived.dead_planes);
                assert_eq!(fresh.dead_cells, derived.dead_cells);
                for c in 0..81 {
                    for d in cur.cells[c] {
                        let q = cand_of(c, d.index());
                        let key = |l: &Links| -> Vec<(u16, u8, u16)> {
                            l.get(q)
                                .iter()
                                .map(|i| (i.cand, i.cause, i.hidden))
                                .collect()
                        };
                        assert_eq!(key(&fresh.links), key(&derived.links));
                    }
                }
            }
        }
    }
}
