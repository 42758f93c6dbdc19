//! The working parts shared by every chain search: the candidate grid a chain runs on
//! ([`Cands`]), *potentials* (a candidate assumed true, "on", or false, "off") stored as
//! nodes of a run ([`Node`], [`Run`]) with links to the potentials they were deduced from,
//! the two implication rules, and the count of a chain's ancestors that sets its length.
//!
//! A potential is addressed by its candidate number `cell * 9 + digit index` (`0..729` on
//! 81-cell shapes, `0..3321` on Samurai) and its on/off flag. As in Sudoku Explainer's `Potential`, a node keeps its *parents*:
//! the first one is the potential the implication came from; a dynamic chain adds "hidden"
//! parents (the earlier removals that left a cell with two candidates, or a house with two
//! places), and a nested chain adds the removals an inner technique relied on. A node
//! stores its hidden parents as a 9-bit mask (digits of its cell, or places in its house)
//! and looks them up in the run's index of "off" nodes, so no node owns a list.
//!
//! ```text
//! Node (16 bytes): cand u16 | on u8 | cause u8 | hidden u16 | lb u16 | parent u32 | extra u32
//!   cause: 0 assumption, 1 cell (naked single), 2 advanced (a nested technique; parents
//!          listed in Run::adv_parents), 3 + h the house with id h (hidden single)
//!   lb:    a lower bound of the ancestor count (1 + the largest bound among the parents)
//! ```

use crate::core::bitboard::DigitSet;
use crate::core::geometry::{Arr, CandBits, CellBits, Geometry, Size};
use crate::core::index::{Cell, Digit};
use crate::core::logic::{Board, Technique};

/// "No node".
pub(crate) const NONE: u32 = u32::MAX;

/// Number of candidates of size `S` (cells times 9 digits).
#[inline]
pub(crate) const fn cand_count<S: Size>() -> usize {
    9 * S::CELLS
}

/// The cell of a candidate number.
#[inline]
pub(crate) fn cell_of(cand: u16) -> usize {
    cand as usize / 9
}

/// The digit index (`0..9`) of a candidate number.
#[inline]
pub(crate) fn digit_of(cand: u16) -> usize {
    cand as usize % 9
}

/// The candidate number of a cell index and digit index.
#[inline]
pub(crate) fn cand_of(cell: usize, d: usize) -> u16 {
    (cell * 9 + d) as u16
}

/// Why a potential holds, as in SE's `Potential.Cause`: the assumption, the cell's other
/// candidates (naked single rule), the digit's other places in a house of the potential's
/// cell (hidden single rule: SE's box, row or column cause, here the house itself, since a
/// cell of another shape may lie in two rows or a diagonal), or a nested technique.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Cause(u8);

impl Cause {
    /// The assumption a chain starts from.
    pub(crate) const ASSUMPTION: Cause = Cause(0);
    /// The cell's other candidates (naked single rule).
    pub(crate) const CELL: Cause = Cause(1);
    /// A removal by a nested technique.
    pub(crate) const ADVANCED: Cause = Cause(2);

    /// The digit's other places in house `h` (an id of the geometry, below 253).
    #[inline]
    pub(crate) const fn region(h: usize) -> Cause {
        Cause(3 + h as u8)
    }

    /// For a region cause, its house id.
    #[inline]
    pub(crate) fn house(self) -> Option<usize> {
        (self.0 >= 3).then(|| (self.0 - 3) as usize)
    }
}

/// The candidate grid a chain runs on: per cell its candidates, per digit its places, in
/// sync. A dynamic chain removes from a copy of it as it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Cands<S: Size> {
    /// Candidates of each cell (empty for solved cells).
    pub cells: S::Cells<DigitSet>,
    /// Places of each digit.
    pub planes: [S::Set; 9],
    /// Places of each digit in each house (`[digit][house]`, bit `i` = the house's `i`-th
    /// cell), kept in sync for the hidden single rule.
    pub hpos: [S::Houses<u16>; 9],
}

impl<S: Size> Cands<S> {
    /// The candidates of `board`.
    pub(crate) fn from_board(g: &Geometry<S>, board: &Board<S>) -> Cands<S> {
        let mut cells = S::Cells::splat(DigitSet::EMPTY);
        for c in g.cells() {
            cells[c.index()] = board.candidates(c);
        }
        let mut planes = [S::Set::EMPTY; 9];
        for d in Digit::all() {
            planes[d.index()] = board.plane(d);
        }
        let mut hpos = [S::Houses::splat(0u16); 9];
        for c in g.cells() {
            let ch = g.cell_houses(c);
            for d in cells[c.index()] {
                for (&h, &i) in ch.ids().iter().zip(ch.positions()) {
                    hpos[d.index()][h as usize] |= 1 << i;
                }
            }
        }
        Cands {
            cells,
            planes,
            hpos,
        }
    }

    /// Its candidates, as a set.
    pub(crate) fn cand_set(&self) -> S::Cands {
        let mut set = S::Cands::NONE;
        for c in 0..S::CELLS {
            for d in self.cells[c] {
                set.set(cand_of(c, d.index()));
            }
        }
        set
    }

    /// Its candidates, as candidate numbers in increasing order.
    pub(crate) fn list(&self) -> Vec<u16> {
        (0..S::CELLS)
            .flat_map(|c| self.cells[c].iter().map(move |d| cand_of(c, d.index())))
            .collect()
    }

    /// The grid holding the candidates of `list` (see [`Cands::list`]).
    pub(crate) fn from_list(g: &Geometry<S>, list: &[u16]) -> Cands<S> {
        let mut planes = [S::Set::EMPTY; 9];
        for &q in list {
            planes[digit_of(q)].insert(Cell::from_index(cell_of(q)));
        }
        let mut cells = S::Cells::splat(DigitSet::EMPTY);
        let mut hpos = [S::Houses::splat(0u16); 9];
        for &q in list {
            let (c, d) = (cell_of(q), digit_of(q));
            cells[c].insert(Digit::from_index(d));
            let ch = g.cell_houses(Cell::from_index(c));
            for (&h, &i) in ch.ids().iter().zip(ch.positions()) {
                hpos[d][h as usize] |= 1 << i;
            }
        }
        Cands {
            cells,
            planes,
            hpos,
        }
    }

    /// Removes the candidate.
    #[inline]
    pub(crate) fn remove(&mut self, g: &Geometry<S>, cand: u16) {
        let (c, d) = (cell_of(cand), digit_of(cand));
        let cell = Cell::from_index(c);
        self.planes[d].remove(cell);
        self.cells[c].remove(Digit::from_index(d));
        let ch = g.cell_houses(cell);
        for (&h, &i) in ch.ids().iter().zip(ch.positions()) {
            self.hpos[d][h as usize] &= !(1 << i);
        }
    }
}

/// One potential of a run.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    /// Candidate number.
    pub cand: u16,
    /// True for "on" (the digit is in the cell), false for "off".
    pub on: bool,
    /// Why it holds.
    pub cause: Cause,
    /// Hidden parents: digits of the cell (cause `CELL`) or places of the house (region
    /// causes) whose removal the implication needed; looked up among the run's off nodes.
    pub hidden: u16,
    /// Lower bound of the number of ancestors (this node included).
    pub lb: u16,
    /// First parent, or [`NONE`] for the assumption and for advanced nodes.
    pub parent: u32,
    /// For advanced nodes, the index of their [`Adv`] entry.
    pub extra: u32,
}

/// The parents and nested chain of an advanced node.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Adv {
    /// First parent in [`Run::adv_parents`].
    pub start: u32,
    /// Number of parents.
    pub len: u32,
    /// The nested chaining hint the removal came from (index into the nested table), or
    /// [`NONE`] for a removal by a simple technique.
    pub nested: u32,
    /// The technique that made the removal.
    pub technique: Technique,
}

/// A nested chaining hint, as far as the outer chain's length needs it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NestedInfo {
    /// Its complexity (ancestor count summed over its chains).
    pub complexity: u32,
    /// A fingerprint of its chains, standing for SE's `FullChain` equality.
    pub sig: u64,
}

/// All potentials deduced from one assumption: the nodes in the order they were found,
/// the index of on and off nodes by candidate, and the outcome.
#[derive(Clone, Debug)]
pub(crate) struct Run<S: Size> {
    /// Nodes in creation order (including contradiction endpoints, which are not indexed).
    pub nodes: Vec<Node>,
    /// On node of each candidate, or [`NONE`].
    pub on_idx: Vec<u32>,
    /// Off node of each candidate, or [`NONE`].
    pub off_idx: Vec<u32>,
    /// Indexed on nodes in creation order (SE's `toOn` set order; also the pending queue).
    pub ons: Vec<u32>,
    /// Indexed off nodes in creation order.
    pub offs: Vec<u32>,
    /// Parents of advanced nodes.
    pub adv: Vec<Adv>,
    /// Flat list of advanced parents (node indices).
    pub adv_parents: Vec<u32>,
    /// Candidates with an on node, per digit.
    pub on_planes: [S::Set; 9],
    /// Candidates with an off node, per digit.
    pub off_planes: [S::Set; 9],
    /// Digits with an on node, per cell.
    pub on_cells: S::Cells<u16>,
    /// Digits with an off node, per cell.
    pub off_cells: S::Cells<u16>,
    /// The two nodes of the first contradiction met (the on and the off version of one
    /// candidate), if any.
    pub contradiction: Option<(u32, u32)>,
    /// True for a run restored from [`KeptRuns`]: its nodes, order, index by candidate and
    /// contradiction are the run's, its planes and cell masks are empty.
    pub restored: bool,
}

impl<S: Size> Default for Run<S> {
    fn default() -> Self {
        Run::new()
    }
}

impl<S: Size> Run<S> {
    /// An empty run with room for a full grid of potentials.
    pub(crate) fn new() -> Run<S> {
        let n = cand_count::<S>();
        Run {
            nodes: Vec::with_capacity(2 * n + 8),
            on_idx: vec![NONE; n],
            off_idx: vec![NONE; n],
            ons: Vec::with_capacity(n),
            offs: Vec::with_capacity(n),
            adv: Vec::with_capacity(256),
            adv_parents: Vec::with_capacity(4096),
            on_planes: [S::Set::EMPTY; 9],
            off_planes: [S::Set::EMPTY; 9],
            on_cells: S::Cells::splat(0),
            off_cells: S::Cells::splat(0),
            contradiction: None,
            restored: false,
        }
    }

    /// Clears the run and adds the assumption.
    pub(crate) fn reset(&mut self, start: u16, on: bool) {
        self.clear();
        let i = self.nodes.len() as u32;
        self.nodes.push(Node {
            cand: start,
            on,
            cause: Cause::ASSUMPTION,
            hidden: 0,
            lb: 1,
            parent: NONE,
            extra: NONE,
        });
        self.index(i);
    }

    /// Makes this the run of candidate `i` that `kept` holds: its nodes are indexed in the
    /// order they were made, all but a contradiction's endpoint (the last node).
    pub(crate) fn restore(&mut self, kept: &KeptRuns, i: usize) {
        self.clear();
        let (nodes, contradiction) = kept.get(i);
        self.nodes.extend_from_slice(nodes);
        let indexed = nodes.len() - usize::from(contradiction.is_some());
        // Only the index by candidate and the order: the planes and cell masks serve a
        // run being made, and a restored run is complete (see `Run::restored`).
        for (k, n) in nodes[..indexed].iter().enumerate() {
            let k = k as u32;
            if n.on {
                self.on_idx[n.cand as usize] = k;
                self.ons.push(k);
            } else {
                self.off_idx[n.cand as usize] = k;
                self.offs.push(k);
            }
        }
        self.contradiction = contradiction;
        self.restored = true;
    }

    /// Empties the run.
    fn clear(&mut self) {
        // A restored run has no cell masks to empty.
        let made = !self.restored;
        for &n in self.ons.iter().chain(self.offs.iter()) {
            let c = self.nodes[n as usize].cand;
            self.on_idx[c as usize] = NONE;
            self.off_idx[c as usize] = NONE;
            if made {
                self.on_cells[cell_of(c)] = 0;
                self.off_cells[cell_of(c)] = 0;
            }
        }
        self.restored = false;
        self.nodes.clear();
        self.ons.clear();
        self.offs.clear();
        self.adv.clear();
        self.adv_parents.clear();
        self.on_planes = [S::Set::EMPTY; 9];
        self.off_planes = [S::Set::EMPTY; 9];
        self.contradiction = None;
    }

    /// Indexes node `i` as the on or off node of its candidate.
    #[inline]
    fn index(&mut self, i: u32) {
        let n = self.nodes[i as usize];
        let (c, d) = (cell_of(n.cand), digit_of(n.cand));
        let cell = Cell::from_index(c);
        if n.on {
            self.on_idx[n.cand as usize] = i;
            self.on_planes[d].insert(cell);
            self.on_cells[c] |= 1 << d;
            self.ons.push(i);
        } else {
            self.off_idx[n.cand as usize] = i;
            self.off_planes[d].insert(cell);
            self.off_cells[c] |= 1 << d;
            self.offs.push(i);
        }
    }

    /// Adds and indexes a node; returns its index.
    #[inline]
    pub(crate) fn add(
        &mut self,
        g: &Geometry<S>,
        cand: u16,
        on: bool,
        cause: Cause,
        hidden: u16,
        parent: u32,
    ) -> u32 {
        let i = self.push(g, cand, on, cause, hidden, parent);
        self.index(i);
        i
    }

    /// Adds a node without indexing it (a contradiction's endpoint); returns its index.
    #[inline]
    pub(crate) fn push(
        &mut self,
        g: &Geometry<S>,
        cand: u16,
        on: bool,
        cause: Cause,
        hidden: u16,
        parent: u32,
    ) -> u32 {
        let i = self.nodes.len() as u32;
        let mut lb = if parent == NONE {
            0
        } else {
            self.nodes[parent as usize].lb
        };
        if hidden != 0 {
            self.for_hidden(g, cand, cause, hidden, |n| {
                lb = lb.max(n.lb);
            });
        }
        self.nodes.push(Node {
            cand,
            on,
            cause,
            hidden,
            lb: lb.saturating_add(1),
            parent,
            extra: NONE,
        });
        i
    }

    /// Adds and indexes an advanced off node whose parents are the off nodes of `parents`
    /// (candidate numbers, each with an off node in this run), from nested hint `nested`
    /// (or [`NONE`]) of `technique`.
    pub(crate) fn add_advanced(
        &mut self,
        cand: u16,
        parents: &S::Cands,
        nested: u32,
        technique: Technique,
    ) -> u32 {
        let start = self.adv_parents.len() as u32;
        let mut lb = 0u16;
        for p in parents.cands() {
            let n = self.off_idx[p as usize];
            if n != NONE {
                self.adv_parents.push(n);
                lb = lb.max(self.nodes[n as usize].lb);
            }
        }
        let len = self.adv_parents.len() as u32 - start;
        let a = self.adv.len() as u32;
        self.adv.push(Adv {
            start,
            len,
            nested,
            technique,
        });
        let i = self.nodes.len() as u32;
        self.nodes.push(Node {
            cand,
            on: false,
            cause: Cause::ADVANCED,
            hidden: 0,
            lb: lb.saturating_add(1),
            parent: NONE,
            extra: a,
        });
        self.index(i);
        i
    }

    /// The candidate of the `k`-th hidden parent of a node with these fields.
    #[inline]
    fn hidden_cand(g: &Geometry<S>, cand: u16, cause: Cause, k: usize) -> u16 {
        let (c, d) = (cell_of(cand), digit_of(cand));
        match cause.house() {
            Some(h) => cand_of(g.house(h).cells[k].index(), d),
            None => cand_of(c, k),
        }
    }

    /// Calls `f` on each hidden parent of a node with these fields.
    #[inline]
    fn for_hidden(
        &self,
        g: &Geometry<S>,
        cand: u16,
        cause: Cause,
        hidden: u16,
        mut f: impl FnMut(&Node),
    ) {
        let mut m = hidden;
        while m != 0 {
            let k = m.trailing_zeros() as usize;
            m &= m - 1;
            let n = self.off_idx[Self::hidden_cand(g, cand, cause, k) as usize];
            if n != NONE {
                f(&self.nodes[n as usize]);
            }
        }
    }

    /// Pushes the parents of node `i` on `stack`.
    #[inline]
    pub(crate) fn push_parents(&self, g: &Geometry<S>, i: u32, stack: &mut Vec<u32>) {
        let n = &self.nodes[i as usize];
        if n.parent != NONE {
            stack.push(n.parent);
        }
        if n.cause == Cause::ADVANCED {
            let a = self.adv[n.extra as usize];
            stack
                .extend_from_slice(&self.adv_parents[a.start as usize..(a.start + a.len) as usize]);
        } else if n.hidden != 0 {
            let mut m = n.hidden;
            while m != 0 {
                let k = m.trailing_zeros() as usize;
                m &= m - 1;
                let p = self.off_idx[Self::hidden_cand(g, n.cand, n.cause, k) as usize];
                if p != NONE {
                    stack.push(p);
                }
            }
        }
    }
}

/// Where a kept run's nodes are in [`KeptRuns::nodes`], and its contradiction.
#[derive(Clone, Copy, Debug, Default)]
struct Span {
    start: u32,
    len: u32,
    contradiction: Option<(u32, u32)>,
}

/// Runs without advanced nodes (no nesting), one per candidate, kept as their nodes and
/// contradictions: all [`Run::restore`] needs to make one again, for much less than making
/// it. The nodes of all of them are in one buffer of fixed room, emptied with
/// [`KeptRuns::clear`]; a run that does not fit is not kept (it is made again when
/// needed), so keeping runs never allocates.
#[derive(Clone, Debug)]
pub(crate) struct KeptRuns {
    nodes: Vec<Node>,
    spans: Vec<Span>,
}

impl KeptRuns {
    /// Room for the runs of `cands` candidates, `room` nodes in all.
    pub(crate) fn new(cands: usize, room: usize) -> KeptRuns {
        KeptRuns {
            nodes: Vec::with_capacity(room),
            spans: vec![Span::default(); cands],
        }
    }

    /// Forgets every run (which run is kept is the caller's to track).
    pub(crate) fn clear(&mut self) {
        self.nodes.clear();
    }

    /// Keeps `run` (which has no advanced nodes) as the run of candidate `i`; false when
    /// there is no room left for it.
    pub(crate) fn keep<S: Size>(&mut self, i: usize, run: &Run<S>) -> bool {
        debug_assert!(run.adv.is_empty());
        self.push(i, &run.nodes, run.contradiction)
    }

    /// Keeps the run of candidate `i` that `other` keeps; false when there is no room left
    /// for it.
    pub(crate) fn keep_from(&mut self, i: usize, other: &KeptRuns) -> bool {
        let (nodes, contradiction) = other.get(i);
        self.push(i, nodes, contradiction)
    }

    /// The nodes and contradiction kept for candidate `i` (the caller knows it is kept).
    fn get(&self, i: usize) -> (&[Node], Option<(u32, u32)>) {
        let sp = self.spans[i];
        let start = sp.start as usize;
        (
            &self.nodes[start..start + sp.len as usize],
            sp.contradiction,
        )
    }

    fn push(&mut self, i: usize, nodes: &[Node], contradiction: Option<(u32, u32)>) -> bool {
        if self.nodes.len() + nodes.len() > self.nodes.capacity() {
            return false;
        }
        let start = self.nodes.len() as u32;
        self.nodes.extend_from_slice(nodes);
        self.spans[i] = Span {
            start,
            len: nodes.len() as u32,
            contradiction,
        };
        true
    }

    /// Number of nodes of the run of candidate `i`.
    pub(crate) fn len(&self, i: usize) -> usize {
        self.spans[i].len as usize
    }
}

/// Counts ancestors (SE `ChainingHint.getAncestorCount`) with a stamp per node, and
/// gathers the nested chains met on the way.
#[derive(Clone, Debug)]
pub(crate) struct Counter {
    stamp: Vec<u32>,
    generation: u32,
    stack: Vec<u32>,
    /// Fingerprints of the nested hints met since [`Counter::begin`], with their
    /// complexities.
    nested: Vec<(u64, u32)>,
}

impl Counter {
    /// A counter for runs of up to `cands` candidates' potentials.
    pub(crate) fn new(cands: usize) -> Counter {
        Counter {
            stamp: vec![0; 2 * cands + 64],
            generation: 0,
            stack: Vec::with_capacity(2 * cands + 64),
            nested: Vec::with_capacity(64),
        }
    }

    /// Starts a hint: forgets the nested chains met so far.
    #[inline]
    pub(crate) fn begin(&mut self) {
        self.nested.clear();
    }

    /// The sum of the complexities of the distinct nested chains met since
    /// [`Counter::begin`] (SE `getNestedComplexity`).
    pub(crate) fn nested_complexity(&self) -> u32 {
        self.nested.iter().map(|&(_, c)| c).sum()
    }

    /// Starts a walk over a run of `len` nodes: a fresh stamp.
    #[inline]
    fn start(&mut self, len: usize) -> u32 {
        if self.stamp.len() < len {
            self.stamp.resize(len, 0);
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
        }
        self.stack.clear();
        self.generation
    }

    /// The number of distinct potentials among `target` and its ancestors in `run`,
    /// stopping early (with a result above `limit`) once it exceeds `limit`.
    pub(crate) fn count<S: Size>(
        &mut self,
        g: &Geometry<S>,
        run: &Run<S>,
        table: &[NestedInfo],
        target: u32,
        limit: u32,
    ) -> u32 {
        let gen_ = self.start(run.nodes.len());
        self.stack.push(target);
        let mut n = 0u32;
        while let Some(i) = self.stack.pop() {
            let s = &mut self.stamp[i as usize];
            if *s == gen_ {
                continue;
            }
            *s = gen_;
            n += 1;
            if n > limit {
                return n;
            }
            let node = &run.nodes[i as usize];
            if node.cause == Cause::ADVANCED {
                let a = run.adv[node.extra as usize];
                if a.nested != NONE {
                    let info = table[a.nested as usize];
                    if !self.nested.iter().any(|&(s, _)| s == info.sig) {
                        self.nested.push((info.sig, info.complexity));
                    }
                }
            }
            run.push_parents(g, i, &mut self.stack);
        }
        n
    }

    /// Calls `f` on every distinct ancestor of `target` (itself included).
    pub(crate) fn walk<S: Size>(
        &mut self,
        g: &Geometry<S>,
        run: &Run<S>,
        target: u32,
        mut f: impl FnMut(&Node),
    ) {
        let gen_ = self.start(run.nodes.len());
        self.stack.push(target);
        while let Some(i) = self.stack.pop() {
            let s = &mut self.stamp[i as usize];
            if *s == gen_ {
                continue;
            }
            *s = gen_;
            f(&run.nodes[i as usize]);
            run.push_parents(g, i, &mut self.stack);
        }
    }
}

/// The "off" potentials an "on" potential implies (SE `Chaining.getOnToOff`), in SE's
/// order: with `y`, the cell's other candidates; then the digit's other places in the
/// cell's houses in cause order, each house without the cells of the houses before it (on
/// the classic grid: the box, then the row and the column outside the box).
#[inline]
pub(crate) fn on_to_off<S: Size>(
    g: &Geometry<S>,
    cur: &Cands<S>,
    cand: u16,
    y: bool,
    mut f: impl FnMut(u16, Cause),
) {
    let (c, d) = (cell_of(cand), digit_of(cand));
    if y {
        let mut others = cur.cells[c].bits() & !(1 << d);
        while others != 0 {
            let e = others.trailing_zeros() as usize;
            others &= others - 1;
            f(cand_of(c, e), Cause::CELL);
        }
    }
    let mut plane = cur.planes[d];
    let cell = Cell::from_index(c);
    plane.remove(cell);
    let mut seen = S::Set::EMPTY;
    for &h in g.cell_houses(cell).ids() {
        let hs = g.house_set(h as usize);
        for x in (plane & hs) - seen {
            f(cand_of(x.index(), d), Cause::region(h as usize));
        }
        seen |= hs;
    }
}

/// True when `x` has exactly two bits set (without a population count, which the
/// baseline x86-64 target lacks).
#[inline]
pub(crate) fn two_bits(x: u16) -> bool {
    let y = x & x.wrapping_sub(1);
    y != 0 && y & y.wrapping_sub(1) == 0
}

/// One "on" potential implied by an "off" one, with its cause and hidden parents.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Implied {
    /// Candidate number.
    pub cand: u16,
    /// Cause (cell or region), as [`Cause`]'s code.
    pub cause: u8,
    /// Hidden parents mask.
    pub hidden: u16,
}

impl Implied {
    /// The cause as a [`Cause`].
    #[inline]
    pub(crate) fn cause(&self) -> Cause {
        Cause(self.cause)
    }
}

/// Most potentials one "off" potential implies: the cell's other candidate, and the other
/// place in each house of the cell.
pub(crate) const MAX_IMPLIED: usize = 1 + crate::core::geometry::MAX_CELL_HOUSES;

/// The "on" potentials an "off" potential implies (SE `Chaining.getOffToOn`), in SE's
/// order: with `y`, the cell's other candidate when it has two; with `x`, the digit's other
/// place in each house of the cell (cause order) that holds two places. Duplicates are
/// dropped (the first kept). `src` is the grid before the chain started: candidates it has
/// and `cur` lacks are the hidden parents (always none in a static chain, where `cur ==
/// src`). Returns the number written to `out`.
#[inline(always)]
pub(crate) fn off_to_on<S: Size>(
    g: &Geometry<S>,
    cur: &Cands<S>,
    src: &Cands<S>,
    cand: u16,
    y: bool,
    x: bool,
    out: &mut [Implied; MAX_IMPLIED],
) -> usize {
    let (c, d) = (cell_of(cand), digit_of(cand));
    let mut n = 0;
    if y {
        let cs = cur.cells[c];
        if two_bits(cs.bits()) && cs.contains(Digit::from_index(d)) {
            let other = (cs.bits() & !(1 << d)).trailing_zeros() as usize;
            out[n] = Implied {
                cand: cand_of(c, other),
                cause: Cause::CELL.0,
                hidden: (src.cells[c] - cs).bits(),
            };
            n += 1;
        }
    }
    if x {
        let ch = g.cell_houses(Cell::from_index(c));
        for (&h, &i) in ch.ids().iter().zip(ch.positions()) {
            let pos = cur.hpos[d][h as usize];
            let me = 1u16 << i;
            if !two_bits(pos) || pos & me == 0 {
                continue;
            }
            let other = g.house(h as usize).cells[(pos & !me).trailing_zeros() as usize].index();
            let oc = cand_of(other, d);
            if out[..n].iter().any(|i| i.cand == oc) {
                continue;
            }
            out[n] = Implied {
                cand: oc,
                cause: Cause::region(h as usize).0,
                hidden: src.hpos[d][h as usize] & !pos,
            };
            n += 1;
        }
    }
    n
}

/// The "on" potentials each "off" potential implies on a grid that does not change (a
/// static chain): [`off_to_on`] for every candidate, computed once per search.
#[derive(Clone, Debug)]
pub(crate) struct Links {
    table: Vec<[Implied; MAX_IMPLIED]>,
    count: Vec<u8>,
}

impl Links {
    /// An empty table for `cands` candidates.
    pub(crate) fn new(cands: usize) -> Links {
        Links {
            table: vec![[Implied::default(); MAX_IMPLIED]; cands],
            count: vec![0; cands],
        }
    }

    /// Fills the table for grid `cur` with Y-links `y` and X-links `x`: every entry as
    /// [`off_to_on`] makes it (no hidden parents: the grid is the chain's own). The links
    /// are worked out by cell of two candidates, then by house holding a digit twice, in
    /// the cause order every cell's houses follow ([`Geometry::order_brc`]), so each
    /// entry comes out in SE's order.
    pub(crate) fn build<S: Size>(&mut self, g: &Geometry<S>, cur: &Cands<S>, y: bool, x: bool) {
        self.build_for(g, cur, y, x, DigitSet::ALL);
    }

    /// [`Links::build`] with the X-links of `x_digits` only (the entries of the other
    /// digits' candidates hold their Y-links alone). Returns, per digit, the candidates
    /// whose entry is not empty (their "off" implies something).
    pub(crate) fn build_for<S: Size>(
        &mut self,
        g: &Geometry<S>,
        cur: &Cands<S>,
        y: bool,
        x: bool,
        x_digits: DigitSet,
    ) -> [S::Set; 9] {
        self.count.fill(0);
        let mut live = [S::Set::EMPTY; 9];
        if y {
            for c in 0..S::CELLS {
                let bits = cur.cells[c].bits();
                if two_bits(bits) {
                    let (da, db) = (
                        bits.trailing_zeros() as usize,
                        (bits & (bits - 1)).trailing_zeros() as usize,
                    );
                    let (a, b) = (cand_of(c, da), cand_of(c, db));
                    self.add(a, b, Cause::CELL);
                    self.add(b, a, Cause::CELL);
                    live[da].insert(Cell::from_index(c));
                    live[db].insert(Cell::from_index(c));
                }
            }
        }
        if x {
            for &h in g.order_brc() {
                let (h, cells) = (usize::from(h), &g.house(usize::from(h)).cells);
                for d in x_digits {
                    let d = d.index();
                    let pos = cur.hpos[d][h];
                    if two_bits(pos) {
                        let ca = cells[pos.trailing_zeros() as usize];
                        let cb = cells[(pos & (pos - 1)).trailing_zeros() as usize];
                        let (a, b) = (cand_of(ca.index(), d), cand_of(cb.index(), d));
                        self.add(a, b, Cause::region(h));
                        self.add(b, a, Cause::region(h));
                        live[d].insert(ca);
                        live[d].insert(cb);
                    }
                }
            }
        }
        live
    }

    /// Adds `cand` to the entry of `at` with `cause`, unless it is there already.
    #[inline]
    fn add(&mut self, at: u16, cand: u16, cause: Cause) {
        let i = usize::from(at);
        let n = usize::from(self.count[i]);
        if self.table[i][..n].iter().all(|e| e.cand != cand) {
            self.table[i][n] = Implied {
                cand,
                cause: cause.0,
                hidden: 0,
            };
            self.count[i] += 1;
        }
    }

    /// Fills the entry of `cand` alone (as [`Links::build`] would).
    pub(crate) fn rebuild<S: Size>(
        &mut self,
        g: &Geometry<S>,
        cur: &Cands<S>,
        cand: u16,
        y: bool,
        x: bool,
    ) {
        let i = usize::from(cand);
        self.count[i] = if cur.cells[cell_of(cand)].contains(Digit::from_index(digit_of(cand))) {
            off_to_on(g, cur, cur, cand, y, x, &mut self.table[i]) as u8
        } else {
            0
        };
    }

    /// Makes this table a copy of `base`, in the room it has.
    pub(crate) fn copy_from(&mut self, base: &Links) {
        self.table.clear();
        self.table.extend_from_slice(&base.table);
        self.count.clear();
        self.count.extend_from_slice(&base.count);
    }

    /// Copies the entry of `cand` from `base`.
    #[inline]
    pub(crate) fn copy_entry(&mut self, base: &Links, cand: u16) {
        let i = usize::from(cand);
        self.table[i] = base.table[i];
        self.count[i] = base.count[i];
    }

    /// What the "off" potential of `cand` implies.
    #[inline]
    pub(crate) fn get(&self, cand: u16) -> &[Implied] {
        let i = cand as usize;
        &self.table[i][..self.count[i] as usize]
    }

    /// The "on" potentials `cand`'s "off" implies, as a copy of its entry and their
    /// number (for a caller that changes what holds the table meanwhile).
    #[inline]
    pub(crate) fn entry(&self, cand: u16) -> ([Implied; MAX_IMPLIED], usize) {
        let i = cand as usize;
        (self.table[i], usize::from(self.count[i]).min(MAX_IMPLIED))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::geometry::{self, S81, S369};
    use crate::core::logic::Board;
    use rand::{RngExt, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// Builds the links of many grids of `g` (thinned more and more from the full grid,
    /// which starts again now and then) and compares every entry with [`off_to_on`].
    /// Returns the number of links compared.
    fn compare_built<S: Size>(g: &Geometry<S>, rng: &mut Xoshiro256PlusPlus) -> usize {
        let full = Board::<S>::from_values(g, &S::Cells::splat(0));
        let mut board = full;
        let mut links = Links::new(cand_count::<S>());
        let mut compared = 0;
        for round in 0..80 {
            if round % 20 == 0 {
                board = full;
            }
            for _ in 0..rng.random_range(0..S::CELLS) {
                let cell = Cell::from_index(rng.random_range(0..S::CELLS));
                let digits: Vec<_> = board.candidates(cell).into_iter().collect();
                if digits.len() > 1 {
                    board.eliminate(cell, digits[rng.random_range(0..digits.len())]);
                }
            }
            let cur = Cands::from_board(g, &board);
            // All X-links, then those of some digits only: the others' entries hold their
            // Y-links alone.
            let some = DigitSet::from_bits(rng.random_range(0..1u16 << 9));
            for (y, x, x_digits) in [(false, true), (true, false), (true, true)]
                .into_iter()
                .flat_map(|(y, x)| [(y, x, DigitSet::ALL), (y, x, some)])
            {
                links.build_for(g, &cur, y, x, x_digits);
                for c in 0..S::CELLS {
                    for d in 0..9 {
                        let q = cand_of(c, d);
                        let mut want = [Implied::default(); MAX_IMPLIED];
                        let x = x && x_digits.contains(Digit::from_index(d));
                        let n = if cur.cells[c].contains(Digit::from_index(d)) {
                            off_to_on(g, &cur, &cur, q, y, x, &mut want)
                        } else {
                            0
                        };
                        let got: Vec<_> = links
                            .get(q)
                            .iter()
                            .map(|i| (i.cand, i.cause, i.hidden))
                            .collect();
                        let want: Vec<_> = want[..n]
                            .iter()
                            .map(|i| (i.cand, i.cause, i.hidden))
                            .collect();
                        assert_eq!(
                            got, want,
                            "round {round} candidate {q} links {y} {x} ({x_digits:?})"
                        );
                        compared += n;
                    }
                }
            }
        }
        compared
    }

    #[test]
    fn links_built_by_house_are_those_of_each_candidate_in_se_order() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
        let line = include_str!("../../../../data/variants/jigsaw.txt")
            .lines()
            .find(|l| !l.starts_with('#') && !l.trim().is_empty())
            .expect("a jigsaw puzzle");
        let ids = line
            .split_whitespace()
            .nth(1)
            .expect("region ids")
            .as_bytes();
        let regions: [u8; 81] = std::array::from_fn(|c| ids[c] - b'1');
        let jigsaw = Geometry::new_jigsaw(&regions).expect("a layout");
        for g in [
            geometry::classic(),
            geometry::x(),
            geometry::windoku(),
            &jigsaw,
        ] {
            assert!(compare_built::<S81>(g, &mut rng) > 10_000);
        }
        assert!(compare_built::<S369>(geometry::samurai(), &mut rng) > 40_000);
    }
}
