//! What each candidate's "on" reaches through one pass's static links, worked out for
//! all the starts of the pass at once, so that the first chaining level
//! ([`super::cycles`]) skips the starts from which its search can find nothing.
//!
//! Without a length bound (a nested search collects every hint), the static search from
//! a start meets exactly the "on" potentials reachable from it: an "on" potential implies
//! the "off" of the cell's other candidates (with Y-links) and of the digit's places among
//! the cell's peers, and an "off" one implies the "on" potentials of its links. The search
//! offers something only if one of those "on" potentials other than the start
//!
//! - sees the start (same digit in a peer cell, or, with Y-links, another candidate of
//!   its cell): a forcing chain from the start "on" reaches its "off"; the start's link
//!   partners all see it, so this also covers a partner reached, which gives the forcing
//!   chain from the partner's candidate "off";
//! - or sees one of the start's link partners: only then can an "off" potential that
//!   implies the start close a cycle. The search turns each partner "off" in its first
//!   round, and a cycle closes at a partner only where the partner is not an ancestor of
//!   the potential that turns it off again; so a partner counts only if it is seen from
//!   what the start reaches through its other "off" potentials. And a cycle is offered
//!   only if it removes something: a candidate outside its cells that sees one of its
//!   "on" potentials and one of its "off" potentials of the candidate's digit. The
//!   cycle's "on" potentials reach each other, so they lie in the start's strongly
//!   connected component (below), and each "off" one lies between two of them; when no
//!   candidate sees such an "on" and such an "off" of its digit, no cycle through the
//!   start removes anything. On the random minimal puzzles graded at the first chaining
//!   level, this rules out about two starts in three of those the partners alone let
//!   through, and nearly all of those let through close only cycles that remove nothing.
//!
//! So a start whose reach has neither is skipped: its search would end with nothing
//! found, and the partners' distances it leaves unset read as "not reached", which is
//! what its search would have measured. The reach of every candidate comes from the
//! strongly connected components of the "on"-to-"on" graph (Tarjan's algorithm, run from
//! the starts as they are asked for): the reach of a component is its own candidates and
//! the reach of the components it points to, so each candidate's links are read once per
//! pass instead of once per start that meets it.
//!
//! A search keeping the best hint looks only so far: for cycles of up to `c` potentials
//! and chains of up to `h`. Its rounds meet the "on" potentials breadth first, one round
//! per "off"-"on" link pair, so the round that meets a potential is its distance from the
//! start in the graph; it runs `max(c, h) / 2` rounds, and a cycle of `2 * (n + 1)`
//! potentials closes at an "on" potential `n` rounds out. So a start the reach lets
//! through is walked breadth first over the same graph (sets of visit numbers, one word
//! per 64 candidates), and skipped unless, within those rounds,
//!
//! - an "on" potential sees the start within `h / 2 - 1` rounds (its chain, of
//!   `2 * (n + 1)` potentials for one `n` rounds out), or a link partner's "on" is met
//!   within the walk's rounds (its distance, which the partners' chains from "off"
//!   need; a partner sees the start, so it also counts in the first case). Another
//!   potential that sees the start only beyond the chain's rounds needs no search;
//! - or, within `c / 2 - 1` rounds, one sees a link partner `q`, two rounds out or more;
//!   or one round out, making with `q` a cycle of four potentials that removes
//!   something. On the random minimal puzzles graded at the first chaining level, in
//!   the pass with both kinds of links, about a third of the searches the reach lets
//!   through close only four-potential cycles that remove nothing (the naked pairs and
//!   X-wings already applied), and most of the rest find nothing within their bounds.
//!   The walk skips three in four of them, at a fraction of a search's cost.

use super::cycles::seen_outside;
use super::potentials::{Cands, Links, MAX_IMPLIED, NONE, cand_count, cand_of, cell_of, digit_of};
use crate::core::geometry::{CellBits, Geometry, Size};
use crate::core::index::Cell;
use crate::core::logic::Budget;

/// One pass's static links on a grid: the graph whose reach is worked out.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Graph<'a, S: Size> {
    pub(crate) g: &'a Geometry<S>,
    /// The grid.
    pub(crate) cur: &'a Cands<S>,
    /// What each "off" potential implies.
    pub(crate) links: &'a Links,
    /// Per digit, the candidates whose "off" implies nothing.
    pub(crate) dead: &'a [S::Set; 9],
    /// The same per cell, as digit bits.
    pub(crate) dead_cells: &'a S::Cells<u16>,
    /// With Y-links: an "on" potential also turns its cell's other candidates "off".
    pub(crate) y: bool,
}

impl<S: Size> Graph<'_, S> {
    /// Calls `f` on each "off" potential the "on" potential of `v` implies that implies
    /// something: the cell's other candidates (with Y-links), the digit's places among
    /// the cell's peers.
    #[inline]
    fn each_live_off(&self, v: u16, mut f: impl FnMut(u16)) {
        self.any_live_off(v, |q| {
            f(q);
            false
        });
    }

    /// True when `f` is true of one of the "off" potentials of [`Graph::each_live_off`],
    /// asked in the same order, stopping at the first.
    #[inline]
    fn any_live_off(&self, v: u16, mut f: impl FnMut(u16) -> bool) -> bool {
        let (c, d) = (cell_of(v), digit_of(v));
        let cell = Cell::from_index(c);
        if self.y {
            let mut others = self.cur.cells[c].bits() & !self.dead_cells[c] & !(1 << d);
            while others != 0 {
                let e = others.trailing_zeros() as usize;
                others &= others - 1;
                if f(cand_of(c, e)) {
                    return true;
                }
            }
        }
        ((self.cur.planes[d] & self.g.peers(cell)) - self.dead[d])
            .into_iter()
            .any(|x| f(cand_of(x.index(), d)))
    }
}

/// The reach of the "on" potentials of one pass's static links.
#[derive(Clone, Debug)]
pub(crate) struct OnReach<S: Size> {
    /// The pass whose graph `node` and `succ` describe.
    pass: u32,
    /// Per candidate: its state in the walk of the graph.
    node: Vec<Node>,
    /// The successors ("on" potentials two links away) of the candidates visited.
    succ: Vec<u16>,
    /// Tarjan's stack of visited candidates not yet in a component.
    stack: Vec<u16>,
    /// The depth-first walk (Tarjan's), one frame per candidate being visited.
    walk: Vec<Frame>,
    /// Per component: what its "on" potentials reach.
    reach: Vec<Reach<S>>,
    /// Per component: the last component whose reach took it in, plus one.
    taken_by: Vec<u32>,
    /// Per component: the range of its candidates in `members`.
    span: Vec<(u32, u32)>,
    /// The candidates of the components, each component's together.
    members: Vec<u16>,
    /// Per component: whether a cycle within it may remove something, once worked out
    /// ([`OnReach::cycles_may_remove`]).
    removes: Vec<Option<bool>>,
    /// Visits numbered so far in this pass.
    visits: u32,
    /// Per visited candidate (by visit number): the set of its successors' visit numbers,
    /// `stride` words each, made on first use in the pass `row_pass` holds.
    succ_bits: Vec<u64>,
    row_pass: Vec<u32>,
    stride: usize,
    /// The visited candidates, by visit number.
    order: Vec<u16>,
    /// The rounds of the last breadth-first walk ([`OnReach::rounds_from`]), `stride`
    /// words each, and a set of candidates being worked on.
    levels: Vec<u64>,
    scratch_bits: Vec<u64>,
}

/// When a bounded walk stops ([`OnReach::rounds_from`]): at a round up to `seer_rounds`
/// meeting any of the potentials marked, after them at one meeting a partner (by visit
/// number).
struct Stop {
    seer_rounds: u32,
    partners: [usize; MAX_IMPLIED],
    n: usize,
}

/// Rounds beyond which a walk is not worth it: the reach alone decides.
const MAX_ROUNDS: u32 = 40;

/// A candidate being visited in the depth-first walk: its successors still to take
/// (`pos..to` in `succ`), its visit number and the lowest visit number it reaches.
#[derive(Clone, Copy, Debug)]
struct Frame {
    v: u16,
    pos: u32,
    to: u32,
    number: u32,
    low: u32,
}

/// A candidate's state in the walk of one pass's graph.
#[derive(Clone, Copy, Debug, Default)]
struct Node {
    /// The pass of its visit (the other fields are valid when equal).
    pass: u32,
    /// Its visit number.
    number: u32,
    /// Its component in `reach`, or [`NONE`] while on the stack.
    comp: u32,
    /// The range of its successors in `succ`.
    from: u32,
    to: u32,
}

/// The candidates the "on" potentials of a component reach (its own included).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Reach<S: Size> {
    /// Per digit.
    pub(crate) planes: [S::Set; 9],
    /// The cells with a candidate reached, and those with two or more.
    any: S::Set,
    multi: S::Set,
}

impl<S: Size> Reach<S> {
    /// Works out `any` and `multi` from `planes`.
    #[inline]
    fn count_cells(&mut self) {
        let (mut any, mut multi) = (S::Set::EMPTY, S::Set::EMPTY);
        for p in &self.planes {
            multi |= any & *p;
            any |= *p;
        }
        self.any = any;
        self.multi = multi;
    }
}

impl<S: Size> Default for OnReach<S> {
    fn default() -> Self {
        OnReach::new()
    }
}

impl<S: Size> OnReach<S> {
    /// Nothing worked out yet.
    pub(crate) fn new() -> OnReach<S> {
        let n = cand_count::<S>();
        OnReach {
            pass: 0,
            node: vec![Node::default(); n],
            succ: Vec::with_capacity(8 * n),
            stack: Vec::with_capacity(n),
            walk: Vec::with_capacity(n),
            reach: Vec::with_capacity(n),
            taken_by: Vec::with_capacity(n),
            span: Vec::with_capacity(n),
            members: Vec::with_capacity(n),
            removes: Vec::with_capacity(n),
            visits: 0,
            succ_bits: vec![0; n * n.div_ceil(64)],
            stride: n.div_ceil(64),
            row_pass: vec![0; n],
            order: Vec::with_capacity(n),
            levels: vec![0; (MAX_ROUNDS as usize + 2) * n.div_ceil(64)],
            scratch_bits: vec![0; n.div_ceil(64)],
        }
    }

    /// Forgets the graph: a new pass (new links) begins.
    pub(crate) fn begin_pass(&mut self) {
        self.pass = self.pass.wrapping_add(1);
        if self.pass == 0 {
            self.node.iter_mut().for_each(|n| n.pass = 0);
            self.row_pass.iter_mut().for_each(|p| *p = 0);
            self.pass = 1;
        }
        self.succ.clear();
        self.reach.clear();
        self.taken_by.clear();
        self.span.clear();
        self.members.clear();
        self.removes.clear();
        self.order.clear();
        self.visits = 0;
    }

    /// What the "on" potential of `start` reaches in `graph`, `start` included. None when
    /// the budget ran out.
    pub(crate) fn reach(
        &mut self,
        graph: &Graph<'_, S>,
        start: u16,
        budget: &mut Budget,
    ) -> Option<&Reach<S>> {
        if self.node[usize::from(start)].pass != self.pass {
            self.visit(graph, start);
            let mut work = 1u64;
            // The frame being walked is held here, off the walk, until it descends.
            'frames: while let Some(mut f) = self.walk.pop() {
                while f.pos < f.to {
                    let w = self.succ[f.pos as usize];
                    f.pos += 1;
                    let wn = self.node[usize::from(w)];
                    if wn.pass != self.pass {
                        work += 1;
                        self.walk.push(f);
                        self.visit(graph, w);
                        continue 'frames;
                    } else if wn.comp == NONE && wn.number < f.low {
                        f.low = wn.number;
                    }
                }
                if let Some(p) = self.walk.last_mut() {
                    p.low = p.low.min(f.low);
                }
                if f.low == f.number {
                    self.close_component(f.v, graph.y);
                }
            }
            if !budget.charge(work / 4 + 1) {
                return None;
            }
        }
        Some(&self.reach[self.node[usize::from(start)].comp as usize])
    }

    /// True when the static search from `start` may find something (see the module's
    /// doc), forcing chains only when `chains`; None when the budget ran out. A partner
    /// `q` seen counts only if it is seen from what the start reaches through its "off"
    /// potentials other than `q` itself: a cycle closes at `q` only where `q` is not an
    /// ancestor of the potential that turns it off, and the search turns `q` off in its
    /// first round.
    ///
    /// With `bounds` (the longest cycle and chain the search looks for, in potentials),
    /// a start the reach lets through is also walked within those lengths (see the
    /// module's doc): the bounded search finds nothing, and measures no partner's
    /// distance, where the walk finds nothing.
    pub(crate) fn may_find(
        &mut self,
        graph: &Graph<'_, S>,
        start: u16,
        chains: bool,
        bounds: Option<(u32, u32)>,
        budget: &mut Budget,
    ) -> Option<bool> {
        self.reach(graph, start, budget)?;
        let k = self.node[usize::from(start)].comp as usize;
        let (g, y) = (graph.g, graph.y);
        let chain = chains && reaches_start(g, &self.reach[k], start, y);
        let Some((cycle_len, chain_len)) = bounds else {
            return Some(chain || self.cycles_may_close(graph, start, k));
        };
        // The search meets "on" potentials up to half its longest length from the start
        // (a cycle of `2 * (n + 1)` potentials closes at one `n` rounds out), and
        // measures the partners' distances that far.
        let far = cycle_len.max(chain_len) / 2;
        let cycle_rounds = if cycle_len >= 4 { cycle_len / 2 - 1 } else { 0 };
        if far > MAX_ROUNDS {
            // Too far to walk: the reach decides, about cycles only if the search looks
            // for some (a search for chains alone, as a try's, does not).
            return Some(chain || cycle_rounds > 0 && self.cycles_may_close(graph, start, k));
        }
        // A chain, or a partner's distance: an "on" potential that sees the start. The
        // rounds walked stay for the cycles.
        let walked = if chain {
            self.seeing(graph, start, false);
            // An "on" potential `r` rounds out that sees the start makes a chain of
            // `2 * (r + 1)` potentials; beyond that length only a partner counts (its
            // distance), up to the search's last round.
            let mut stop = Stop {
                seer_rounds: (chain_len / 2).saturating_sub(1),
                partners: [0; MAX_IMPLIED],
                n: 0,
            };
            for q in graph.links.get(start) {
                let n = self.node[usize::from(q.cand)];
                if n.pass == self.pass {
                    stop.partners[stop.n] = (n.number - 1) as usize;
                    stop.n += 1;
                }
            }
            let Some(met) = self.rounds_from(start, far, Some(&stop)) else {
                return Some(true);
            };
            Some(met)
        } else {
            None
        };
        if cycle_rounds == 0 || !self.cycles_may_close(graph, start, k) {
            return Some(false);
        }
        let met = match walked {
            Some(met) => met.min(cycle_rounds),
            None => self.rounds_from(start, cycle_rounds, None).unwrap_or(0),
        };
        let w = self.words();
        // The "on" potentials that see a link partner of the start.
        for (i, q) in graph.links.get(start).iter().enumerate() {
            self.seeing(graph, q.cand, i > 0);
        }
        if (2..=cycle_rounds.min(met)).any(|r| {
            let level = self.level(r, w);
            level
                .iter()
                .zip(&self.scratch_bits[..w])
                .any(|(a, b)| a & b != 0)
        }) {
            return Some(true);
        }
        // One round out: the cycle has four potentials, whose removals are worked out.
        if met == 0 {
            return Some(false);
        }
        Some(four_cycle_removes(graph, start))
    }

    /// Tests: true when the reach of `start` (asked for) holds an "on" potential that
    /// sees it.
    #[cfg(test)]
    pub(crate) fn reach_sees_start(&self, graph: &Graph<'_, S>, start: u16) -> bool {
        let k = self.node[usize::from(start)].comp as usize;
        reaches_start(graph.g, &self.reach[k], start, graph.y)
    }

    /// True when a cycle through `start` (in component `k`) may remove something, from
    /// the reach alone (see [`OnReach::may_find`]).
    fn cycles_may_close(&mut self, graph: &Graph<'_, S>, start: u16, k: usize) -> bool {
        let (g, y) = (graph.g, graph.y);
        let reach = &self.reach[k];
        let partners = graph.links.get(start);
        if !partners
            .iter()
            .any(|p| sees_partner(g, reach, start, p.cand, y))
        {
            return false;
        }
        // Worked out once per component, and cheaper than the reach avoiding a partner.
        let removes = self.removes[k].unwrap_or_else(|| self.cycles_may_remove(graph, k));
        self.removes[k] = Some(removes);
        removes
            && partners.iter().any(|p| {
                let q = p.cand;
                sees_partner(g, reach, start, q, y) && self.sees_partner_avoiding(graph, start, q)
            })
    }

    /// The words of a set of the candidates visited so far (by visit number).
    #[inline]
    fn words(&self) -> usize {
        (self.visits as usize).div_ceil(64)
    }

    /// Round `r`'s "on" potentials of the last [`OnReach::rounds_from`], `w` words.
    #[inline]
    fn level(&self, r: u32, w: usize) -> &[u64] {
        let at = r as usize * self.stride;
        &self.levels[at..at + w]
    }

    /// Walks the graph breadth first from `start`, as its search meets the "on"
    /// potentials round by round (a potential `n` links of "off" and "on" out is met in
    /// round `n`), for up to `rounds` rounds, keeping each round's potentials (as sets of
    /// visit numbers) in `levels`, and returns how many rounds met any. With `stop`, it
    /// stops at the first round that meets one of `scratch_bits`, up to its
    /// `seer_rounds`, or one of its `partners` after them: `None`. All of the start's
    /// reach was visited, so its successors' sets can be made.
    fn rounds_from(&mut self, start: u16, rounds: u32, stop: Option<&Stop>) -> Option<u32> {
        let (w, stride) = (self.words(), self.stride);
        // The potentials met so far, after the rounds (a spare row).
        let seen_at = (rounds as usize + 1) * stride;
        let (levels, seen) = self.levels.split_at_mut(seen_at);
        let seen = &mut seen[..w];
        seen.iter_mut().for_each(|x| *x = 0);
        levels[..w].iter_mut().for_each(|x| *x = 0);
        let s = (self.node[usize::from(start)].number - 1) as usize;
        levels[s / 64] |= 1 << (s % 64);
        seen[s / 64] |= 1 << (s % 64);
        for r in 1..=rounds as usize {
            let (done, next) = levels.split_at_mut(r * stride);
            let prev = &done[(r - 1) * stride..(r - 1) * stride + w];
            let next = &mut next[..w];
            next.iter_mut().for_each(|x| *x = 0);
            for (i, &word) in prev.iter().enumerate() {
                let mut m = word;
                while m != 0 {
                    let v = i * 64 + m.trailing_zeros() as usize;
                    m &= m - 1;
                    if self.row_pass[v] != self.pass {
                        // The successors' set, made on first use (all are visited).
                        self.row_pass[v] = self.pass;
                        let n = self.node[usize::from(self.order[v])];
                        let row = &mut self.succ_bits[v * stride..(v + 1) * stride];
                        row.iter_mut().for_each(|x| *x = 0);
                        for &s in &self.succ[n.from as usize..n.to as usize] {
                            let j = (self.node[usize::from(s)].number - 1) as usize;
                            row[j / 64] |= 1 << (j % 64);
                        }
                    }
                    let row = &self.succ_bits[v * stride..v * stride + w];
                    for (n, &x) in next.iter_mut().zip(row) {
                        *n |= x;
                    }
                }
            }
            let (mut any, mut hit) = (0, 0);
            for ((n, v), t) in next.iter_mut().zip(seen.iter_mut()).zip(&self.scratch_bits) {
                *n &= !*v;
                *v |= *n;
                any |= *n;
                hit |= *n & *t;
            }
            if let Some(st) = stop {
                let met = if r as u32 <= st.seer_rounds {
                    hit != 0
                } else {
                    st.partners[..st.n]
                        .iter()
                        .any(|&j| next[j / 64] >> (j % 64) & 1 != 0)
                };
                if met {
                    return None;
                }
            }
            if any == 0 {
                return Some(r as u32 - 1);
            }
        }
        Some(rounds)
    }

    /// Adds to `scratch_bits` (cleared first unless `keep`) the visited candidates that
    /// see `v` (see [`sees`]).
    fn seeing(&mut self, graph: &Graph<'_, S>, v: u16, keep: bool) {
        let w = self.words();
        if !keep {
            self.scratch_bits[..w].iter_mut().for_each(|x| *x = 0);
        }
        let (c, d) = (cell_of(v), digit_of(v));
        let cell = Cell::from_index(c);
        let mut add = |x: u16| {
            let n = self.node[usize::from(x)];
            if n.pass == self.pass {
                let i = (n.number - 1) as usize;
                self.scratch_bits[i / 64] |= 1 << (i % 64);
            }
        };
        for x in graph.cur.planes[d] & graph.g.peers(cell) {
            add(cand_of(x.index(), d));
        }
        if graph.y {
            let mut others = graph.cur.cells[c].bits() & !(1 << d);
            while others != 0 {
                add(cand_of(c, others.trailing_zeros() as usize));
                others &= others - 1;
            }
        }
    }

    /// False when no cycle through the "on" potentials of component `k` can remove
    /// anything. A cycle's "on" potentials all reach each other, so they are in one
    /// component; each of its "off" potentials is implied by one of them and implies
    /// another. The cycle removes a candidate (outside its cells) that sees an "on"
    /// potential and an "off" potential of its digit in the cycle ([`super::cycles`]), so
    /// some candidate must see both an "on" potential of the component and an "off"
    /// potential between two of its "on" potentials, of its own digit.
    fn cycles_may_remove(&self, graph: &Graph<'_, S>, k: usize) -> bool {
        let (from, to) = self.span[k];
        let members = &self.members[from as usize..to as usize];
        // One "on" potential cannot make a cycle: a cycle has two at least.
        if members.len() < 2 {
            return false;
        }
        let (g, cur) = (graph.g, graph.cur);
        // Per digit, the candidates that see an "on" potential of the component (seeing
        // is symmetric: they are the peers of its cells).
        let mut seen_on = [S::Set::EMPTY; 9];
        for &v in members {
            seen_on[digit_of(v)] |= g.peers(Cell::from_index(cell_of(v)));
        }
        for (s, &plane) in seen_on.iter_mut().zip(&cur.planes) {
            *s &= plane;
        }
        // An "off" potential implied by one of them that implies another, seen by one of
        // those candidates. The geometry is tested first: it is cheaper than the links.
        members.iter().any(|&v| {
            graph.any_live_off(v, |w| {
                !(g.peers(Cell::from_index(cell_of(w))) & seen_on[digit_of(w)]).is_empty()
                    && graph
                        .links
                        .get(w)
                        .iter()
                        .any(|i| self.node[usize::from(i.cand)].comp as usize == k)
            })
        })
    }

    /// True when what the "on" potentials the start's "off" potentials other than `q`
    /// imply reach (all visited with the start) sees `q` ([`sees_partner`]). Seeing is
    /// one candidate of the union, so each component reached is asked in turn, and the
    /// first that sees `q` answers.
    fn sees_partner_avoiding(&self, graph: &Graph<'_, S>, start: u16, q: u16) -> bool {
        graph.any_live_off(start, |r| {
            r != q
                && graph.links.get(r).iter().any(|i| {
                    let k = self.node[usize::from(i.cand)].comp as usize;
                    sees_partner(graph.g, &self.reach[k], start, q, graph.y)
                })
        })
    }

    /// Numbers candidate `v`, lists its successors and puts it on the walk and the stack.
    fn visit(&mut self, graph: &Graph<'_, S>, v: u16) {
        self.visits += 1;
        let from = self.succ.len() as u32;
        // A link back to `v` itself (its cell's or house's other place) adds nothing.
        graph.each_live_off(v, |q| {
            for i in graph.links.get(q) {
                if i.cand != v {
                    self.succ.push(i.cand);
                }
            }
        });
        let to = self.succ.len() as u32;
        self.node[usize::from(v)] = Node {
            pass: self.pass,
            number: self.visits,
            comp: NONE,
            from,
            to,
        };
        self.stack.push(v);
        self.walk.push(Frame {
            v,
            pos: from,
            to,
            number: self.visits,
            low: self.visits,
        });
        self.order.push(v);
    }

    /// Pops the component whose root is `v` off the stack and works out its reach. With
    /// `y` false (X-links only), every potential a candidate reaches has its digit, so
    /// only that digit's plane is worked out, and the cells counted (`any`, `multi`) are
    /// left empty: only searches with Y-links read them.
    fn close_component(&mut self, v: u16, y: bool) {
        let k = self.reach.len();
        self.reach.push(Reach {
            planes: [S::Set::EMPTY; 9],
            any: S::Set::EMPTY,
            multi: S::Set::EMPTY,
        });
        self.taken_by.push(0);
        self.removes.push(None);
        let (done, new) = self.reach.split_at_mut(k);
        let new = &mut new[0];
        let base = self.stack.iter().rposition(|&m| m == v).unwrap_or(0);
        let from = self.members.len() as u32;
        // (Pushed one by one: most components have one candidate, too few to copy.)
        for &m in &self.stack[base..] {
            self.node[usize::from(m)].comp = k as u32;
            new.planes[digit_of(m)].insert(Cell::from_index(cell_of(m)));
            self.members.push(m);
        }
        let mark = k as u32 + 1;
        for &m in &self.stack[base..] {
            let n = self.node[usize::from(m)];
            for &w in &self.succ[n.from as usize..n.to as usize] {
                let cw = self.node[usize::from(w)].comp as usize;
                // A component reached before (not this one), taken in once.
                if cw < k && self.taken_by[cw] != mark {
                    self.taken_by[cw] = mark;
                    if y {
                        for (r, o) in new.planes.iter_mut().zip(&done[cw].planes) {
                            *r |= *o;
                        }
                    } else {
                        let d = digit_of(v);
                        new.planes[d] |= done[cw].planes[d];
                    }
                }
            }
        }
        if y {
            new.count_cells();
        }
        self.span.push((from, self.members.len() as u32));
        self.stack.truncate(base);
    }
}

/// True when candidate `v` sees candidate `w` (another one): the same digit in peer
/// cells, or (`y`: with Y-links) another digit in the same cell.
#[inline]
fn sees<S: Size>(g: &Geometry<S>, v: u16, w: u16, y: bool) -> bool {
    let (cv, dv, cw, dw) = (cell_of(v), digit_of(v), cell_of(w), digit_of(w));
    if cv == cw {
        y && dv != dw
    } else {
        dv == dw && g.peers(Cell::from_index(cv)).contains(Cell::from_index(cw))
    }
}

/// True when a cycle of four potentials `start` "on", `b` "off", `p` "on", `q` "off"
/// removes something: `q` a link partner of `start`, `b` an "off" potential `start`
/// implies other than `q` (an ancestor of `p` is not turned off again), `p` an "on"
/// potential `b` implies, other than `start`, that sees `q`; it removes a candidate
/// outside its cells that sees one of its "on" potentials and one of its "off" ones of
/// its digit, as [`super::cycles`] works out a cycle's removals. These `p` are the
/// start's first round, so the triples are listed from the links directly.
// Rarely true: kept out of the walk's code.
#[inline(never)]
fn four_cycle_removes<S: Size>(graph: &Graph<'_, S>, start: u16) -> bool {
    let (g, cur) = (graph.g, graph.cur);
    let partners = graph.links.get(start);
    graph.any_live_off(start, |b| {
        graph.links.get(b).iter().any(|i| {
            let p = i.cand;
            p != start
                && partners.iter().any(|q| {
                    let q = q.cand;
                    if q == b || !sees(g, p, q, graph.y) {
                        return false;
                    }
                    let mut cells = S::Set::EMPTY;
                    for v in [start, b, p, q] {
                        cells.insert(Cell::from_index(cell_of(v)));
                    }
                    let seen_by = |v: u16| seen_outside(g, cur, v, cells);
                    [start, p].iter().any(|&on| {
                        [b, q].iter().any(|&off| {
                            digit_of(on) == digit_of(off)
                                && !(seen_by(on) & seen_by(off)).is_empty()
                        })
                    })
                })
        })
    })
}

/// True when a candidate of `reach` other than `start` sees `start` (`y`: with Y-links, a
/// cell's candidates see each other): only then can the forcing chain from the start
/// "on" reach its "off".
fn reaches_start<S: Size>(g: &Geometry<S>, reach: &Reach<S>, start: u16, y: bool) -> bool {
    let cell0 = Cell::from_index(cell_of(start));
    // Another candidate of the start's cell is reached when the cell has two.
    !(reach.planes[digit_of(start)] & g.peers(cell0)).is_empty()
        || (y && reach.multi.contains(cell0))
}

/// True when a candidate of `reach` other than `start` sees `start`'s link partner `q`
/// (`y`: with Y-links, a cell's candidates see each other).
fn sees_partner<S: Size>(g: &Geometry<S>, reach: &Reach<S>, start: u16, q: u16, y: bool) -> bool {
    let (c0, d0) = (cell_of(start), digit_of(start));
    let (cp, dp) = (cell_of(q), digit_of(q));
    let cellp = Cell::from_index(cp);
    let mut seeing = reach.planes[dp] & g.peers(cellp);
    if dp == d0 {
        seeing.remove(Cell::from_index(c0));
    }
    // A partner in the start's cell is its cell's other candidate (a cell of two), so only
    // the start is there to see it.
    !seeing.is_empty()
        || (y
            && cp != c0
            && (reach.multi.contains(cellp)
                || (reach.any.contains(cellp) && !reach.planes[dp].contains(cellp))))
}
