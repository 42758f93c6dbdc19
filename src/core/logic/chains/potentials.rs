//! The working parts shared by every chain search: the candidate grid a chain runs on
//! ([`Cands`]), *potentials* (a candidate assumed true, "on", or false, "off") stored as
//! nodes of a run ([`Node`], [`Run`]) with links to the potentials they were deduced from,
//! the two implication rules, and the count of a chain's ancestors that sets its length.
//!
//! A potential is addressed by its candidate number `cell * 9 + digit index` (`0..729`)
//! and its on/off flag. As in Sudoku Explainer's `Potential`, a node keeps its *parents*:
//! the first one is the potential the implication came from; a dynamic chain adds "hidden"
//! parents (the earlier removals that left a cell with two candidates, or a house with two
//! places), and a nested chain adds the removals an inner technique relied on. A node
//! stores its hidden parents as a 9-bit mask (digits of its cell, or places in its house)
//! and looks them up in the run's index of "off" nodes, so no node owns a list.
//!
//! ```text
//! Node (16 bytes): cand u16 | on u8 | cause u8 | hidden u16 | lb u16 | parent u32 | extra u32
//!   cause: 0 assumption, 1 cell (naked single), 2 box, 3 row, 4 column (hidden single),
//!          5 advanced (a nested technique; parents listed in Run::adv_parents)
//!   lb:    a lower bound of the ancestor count (1 + the largest bound among the parents)
//! ```

use crate::core::bitboard::{CellSet, DigitSet};
use crate::core::index::{Cell, Digit, HOUSE_CELLS, HOUSE_SETS};
use crate::core::logic::Board;

/// "No node".
pub(crate) const NONE: u32 = u32::MAX;

/// Number of candidates (81 cells times 9 digits).
pub(crate) const CANDS: usize = 729;

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

/// Why a potential holds, as in SE's `Potential.Cause`; for the three region causes, also
/// which house of the potential's cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Cause {
    /// The assumption a chain starts from.
    Assumption = 0,
    /// The cell's other candidates (naked single rule).
    Cell = 1,
    /// The digit's other places in the box (hidden single rule).
    Block = 2,
    /// ... in the row.
    Row = 3,
    /// ... in the column.
    Column = 4,
    /// A removal by a nested technique.
    Advanced = 5,
}

impl Cause {
    /// The house index (rows 0..9, columns 9..18, boxes 18..27) of a region cause for
    /// `cell`.
    #[inline]
    pub(crate) fn house(self, cell: usize) -> usize {
        match self {
            Cause::Row => cell / 9,
            Cause::Column => 9 + cell % 9,
            _ => 18 + (cell / 27) * 3 + (cell % 9) / 3,
        }
    }

    /// The region causes in SE's order of houses: box, row, column.
    pub(crate) const REGIONS: [Cause; 3] = [Cause::Block, Cause::Row, Cause::Column];
}

/// The three houses of each cell as sets: `[box, row, column]`.
pub(crate) static CELL_HOUSES: [[CellSet; 3]; 81] = {
    let mut t = [[CellSet::EMPTY; 3]; 81];
    let mut c = 0;
    while c < 81 {
        let (r, col) = (c / 9, c % 9);
        let b = (r / 3) * 3 + col / 3;
        t[c] = [HOUSE_SETS[18 + b], HOUSE_SETS[r], HOUSE_SETS[9 + col]];
        c += 1;
    }
    t
};

/// A set of the 729 potentials of one polarity, one bit per candidate number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bits(pub [u64; 12]);

impl Bits {
    /// No candidate.
    pub(crate) const EMPTY: Bits = Bits([0; 12]);

    /// Adds `cand`.
    #[inline]
    pub(crate) fn set(&mut self, cand: u16) {
        self.0[cand as usize >> 6] |= 1 << (cand & 63);
    }

    /// True when empty.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The candidates in increasing order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = u16> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros();
                w &= w - 1;
                Some((i as u32 * 64 + b) as u16)
            })
        })
    }
}

/// The candidate grid a chain runs on: per cell its candidates, per digit its places, in
/// sync. A dynamic chain removes from a copy of it as it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Cands {
    /// Candidates of each cell (empty for solved cells).
    pub cells: [DigitSet; 81],
    /// Places of each digit.
    pub planes: [CellSet; 9],
    /// Places of each digit in each house (`[digit][house]`, bit `i` = the house's `i`-th
    /// cell), kept in sync for the hidden single rule.
    pub hpos: [[u16; 27]; 9],
}

/// For each cell, its three houses (box, row, column) as house indices and its position
/// in each.
static CELL_HIDX: [[(u8, u8); 3]; 81] = {
    let mut t = [[(0u8, 0u8); 3]; 81];
    let mut c = 0;
    while c < 81 {
        let (r, col) = (c / 9, c % 9);
        let b = (r / 3) * 3 + col / 3;
        t[c] = [
            ((18 + b) as u8, ((r % 3) * 3 + col % 3) as u8),
            (r as u8, col as u8),
            ((9 + col) as u8, r as u8),
        ];
        c += 1;
    }
    t
};

impl Cands {
    /// The candidates of `board`.
    pub(crate) fn from_board(board: &Board) -> Cands {
        let mut cells = [DigitSet::EMPTY; 81];
        for c in Cell::all() {
            cells[c.index()] = board.candidates(c);
        }
        let mut planes = [CellSet::EMPTY; 9];
        for d in Digit::all() {
            planes[d.index()] = board.plane(d);
        }
        let mut hpos = [[0u16; 27]; 9];
        for (c, cs) in cells.iter().enumerate() {
            for d in *cs {
                for &(h, i) in &CELL_HIDX[c] {
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

    /// Removes the candidate.
    #[inline]
    pub(crate) fn remove(&mut self, cand: u16) {
        let (c, d) = (cell_of(cand), digit_of(cand));
        self.planes[d].remove(Cell::new(c as u8));
        self.cells[c].remove(Digit::from_index(d));
        for &(h, i) in &CELL_HIDX[c] {
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
    /// Hidden parents: digits of the cell (cause `Cell`) or places of the house (region
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
pub(crate) struct Run {
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
    pub on_planes: [CellSet; 9],
    /// Candidates with an off node, per digit.
    pub off_planes: [CellSet; 9],
    /// Digits with an on node, per cell.
    pub on_cells: [u16; 81],
    /// Digits with an off node, per cell.
    pub off_cells: [u16; 81],
    /// The two nodes of the first contradiction met (the on and the off version of one
    /// candidate), if any.
    pub contradiction: Option<(u32, u32)>,
}

impl Default for Run {
    fn default() -> Self {
        Run::new()
    }
}

impl Run {
    /// An empty run with room for a full grid of potentials.
    pub(crate) fn new() -> Run {
        Run {
            nodes: Vec::with_capacity(2 * CANDS + 8),
            on_idx: vec![NONE; CANDS],
            off_idx: vec![NONE; CANDS],
            ons: Vec::with_capacity(CANDS),
            offs: Vec::with_capacity(CANDS),
            adv: Vec::with_capacity(256),
            adv_parents: Vec::with_capacity(4096),
            on_planes: [CellSet::EMPTY; 9],
            off_planes: [CellSet::EMPTY; 9],
            on_cells: [0; 81],
            off_cells: [0; 81],
            contradiction: None,
        }
    }

    /// Clears the run and adds the assumption.
    pub(crate) fn reset(&mut self, start: u16, on: bool) {
        for &n in self.ons.iter().chain(self.offs.iter()) {
            let c = self.nodes[n as usize].cand;
            self.on_idx[c as usize] = NONE;
            self.off_idx[c as usize] = NONE;
            self.on_cells[cell_of(c)] = 0;
            self.off_cells[cell_of(c)] = 0;
        }
        self.nodes.clear();
        self.ons.clear();
        self.offs.clear();
        self.adv.clear();
        self.adv_parents.clear();
        self.on_planes = [CellSet::EMPTY; 9];
        self.off_planes = [CellSet::EMPTY; 9];
        self.contradiction = None;
        self.add(start, on, Cause::Assumption, 0, NONE);
    }

    /// Adds and indexes a node; returns its index.
    #[inline]
    pub(crate) fn add(
        &mut self,
        cand: u16,
        on: bool,
        cause: Cause,
        hidden: u16,
        parent: u32,
    ) -> u32 {
        let i = self.push(cand, on, cause, hidden, parent);
        let (c, d) = (cell_of(cand), digit_of(cand));
        if on {
            self.on_idx[cand as usize] = i;
            self.on_planes[d].insert(Cell::new(c as u8));
            self.on_cells[c] |= 1 << d;
            self.ons.push(i);
        } else {
            self.off_idx[cand as usize] = i;
            self.off_planes[d].insert(Cell::new(c as u8));
            self.off_cells[c] |= 1 << d;
            self.offs.push(i);
        }
        i
    }

    /// Adds a node without indexing it (a contradiction's endpoint); returns its index.
    #[inline]
    pub(crate) fn push(
        &mut self,
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
            self.for_hidden(cand, cause, hidden, |n| {
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
    /// (candidate numbers, each with an off node in this run), from nested hint `nested`.
    pub(crate) fn add_advanced(&mut self, cand: u16, parents: &Bits, nested: u32) -> u32 {
        let start = self.adv_parents.len() as u32;
        let mut lb = 0u16;
        for p in parents.iter() {
            let n = self.off_idx[p as usize];
            if n != NONE {
                self.adv_parents.push(n);
                lb = lb.max(self.nodes[n as usize].lb);
            }
        }
        let len = self.adv_parents.len() as u32 - start;
        let a = self.adv.len() as u32;
        self.adv.push(Adv { start, len, nested });
        let i = self.add(cand, false, Cause::Advanced, 0, NONE);
        let node = &mut self.nodes[i as usize];
        node.extra = a;
        node.lb = lb.saturating_add(1);
        i
    }

    /// Calls `f` on each hidden parent of a node with these fields.
    #[inline]
    fn for_hidden(&self, cand: u16, cause: Cause, hidden: u16, mut f: impl FnMut(&Node)) {
        let (c, d) = (cell_of(cand), digit_of(cand));
        let mut m = hidden;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            let pc = match cause {
                Cause::Cell => cand_of_cell_digit(c, i),
                _ => {
                    let h = cause.house(c);
                    cand_of_cell_digit(HOUSE_CELLS[h][i].index(), d)
                }
            };
            let n = self.off_idx[pc as usize];
            if n != NONE {
                f(&self.nodes[n as usize]);
            }
        }
    }

    /// Pushes the parents of node `i` on `stack`.
    #[inline]
    pub(crate) fn push_parents(&self, i: u32, stack: &mut Vec<u32>) {
        let n = &self.nodes[i as usize];
        if n.parent != NONE {
            stack.push(n.parent);
        }
        if n.cause == Cause::Advanced {
            let a = self.adv[n.extra as usize];
            stack
                .extend_from_slice(&self.adv_parents[a.start as usize..(a.start + a.len) as usize]);
        } else if n.hidden != 0 {
            let (c, d) = (cell_of(n.cand), digit_of(n.cand));
            let mut m = n.hidden;
            while m != 0 {
                let k = m.trailing_zeros() as usize;
                m &= m - 1;
                let pc = match n.cause {
                    Cause::Cell => cand_of_cell_digit(c, k),
                    _ => cand_of_cell_digit(HOUSE_CELLS[n.cause.house(c)][k].index(), d),
                };
                let p = self.off_idx[pc as usize];
                if p != NONE {
                    stack.push(p);
                }
            }
        }
    }
}

#[inline]
fn cand_of_cell_digit(cell: usize, d: usize) -> u16 {
    (cell * 9 + d) as u16
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

impl Default for Counter {
    fn default() -> Self {
        Counter::new()
    }
}

impl Counter {
    /// A counter for runs of up to a full grid of potentials.
    pub(crate) fn new() -> Counter {
        Counter {
            stamp: vec![0; 2 * CANDS + 64],
            generation: 0,
            stack: Vec::with_capacity(2 * CANDS + 64),
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

    /// The number of distinct potentials among `target` and its ancestors in `run`,
    /// stopping early (with a result above `limit`) once it exceeds `limit`.
    pub(crate) fn count(
        &mut self,
        run: &Run,
        table: &[NestedInfo],
        target: u32,
        limit: u32,
    ) -> u32 {
        if self.stamp.len() < run.nodes.len() {
            self.stamp.resize(run.nodes.len(), 0);
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
        }
        let g = self.generation;
        self.stack.clear();
        self.stack.push(target);
        let mut n = 0u32;
        while let Some(i) = self.stack.pop() {
            let s = &mut self.stamp[i as usize];
            if *s == g {
                continue;
            }
            *s = g;
            n += 1;
            if n > limit {
                return n;
            }
            let node = &run.nodes[i as usize];
            if node.cause == Cause::Advanced {
                let a = run.adv[node.extra as usize];
                if a.nested != NONE {
                    let info = table[a.nested as usize];
                    if !self.nested.iter().any(|&(s, _)| s == info.sig) {
                        self.nested.push((info.sig, info.complexity));
                    }
                }
            }
            run.push_parents(i, &mut self.stack);
        }
        n
    }

    /// Calls `f` on every distinct ancestor of `target` (itself included).
    pub(crate) fn walk(&mut self, run: &Run, target: u32, mut f: impl FnMut(&Node)) {
        if self.stamp.len() < run.nodes.len() {
            self.stamp.resize(run.nodes.len(), 0);
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
        }
        let g = self.generation;
        self.stack.clear();
        self.stack.push(target);
        while let Some(i) = self.stack.pop() {
            let s = &mut self.stamp[i as usize];
            if *s == g {
                continue;
            }
            *s = g;
            f(&run.nodes[i as usize]);
            run.push_parents(i, &mut self.stack);
        }
    }
}

/// The "off" potentials an "on" potential implies (SE `Chaining.getOnToOff`), in SE's
/// order: with `y`, the cell's other candidates; then the digit's other places in the box,
/// then in the row and in the column outside the box.
#[inline]
pub(crate) fn on_to_off(cur: &Cands, cand: u16, y: bool, mut f: impl FnMut(u16, Cause)) {
    let (c, d) = (cell_of(cand), digit_of(cand));
    if y {
        let mut others = cur.cells[c].bits() & !(1 << d);
        while others != 0 {
            let e = others.trailing_zeros() as usize;
            others &= others - 1;
            f(cand_of_cell_digit(c, e), Cause::Cell);
        }
    }
    let mut plane = cur.planes[d];
    plane.remove(Cell::new(c as u8));
    let [bx, row, col] = CELL_HOUSES[c];
    for x in plane & bx {
        f(cand_of_cell_digit(x.index(), d), Cause::Block);
    }
    for x in (plane & row) - bx {
        f(cand_of_cell_digit(x.index(), d), Cause::Row);
    }
    for x in (plane & col) - bx {
        f(cand_of_cell_digit(x.index(), d), Cause::Column);
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
    /// Cause (cell or region).
    pub cause: u8,
    /// Hidden parents mask.
    pub hidden: u16,
}

impl Implied {
    /// The cause as a [`Cause`].
    #[inline]
    pub(crate) fn cause(&self) -> Cause {
        match self.cause {
            1 => Cause::Cell,
            2 => Cause::Block,
            3 => Cause::Row,
            _ => Cause::Column,
        }
    }
}

/// The "on" potentials an "off" potential implies (SE `Chaining.getOffToOn`), in SE's
/// order: with `y`, the cell's other candidate when it has two; with `x`, the digit's other
/// place in the box, row and column that hold two places. Duplicates are dropped (the
/// first kept). `src` is the grid before the chain started: candidates it has and `cur`
/// lacks are the hidden parents (always none in a static chain, where `cur == src`).
/// Returns the number written to `out`.
#[inline]
pub(crate) fn off_to_on(
    cur: &Cands,
    src: &Cands,
    cand: u16,
    y: bool,
    x: bool,
    out: &mut [Implied; 4],
) -> usize {
    let (c, d) = (cell_of(cand), digit_of(cand));
    let mut n = 0;
    if y {
        let cs = cur.cells[c];
        if two_bits(cs.bits()) && cs.contains(Digit::from_index(d)) {
            let other = (cs.bits() & !(1 << d)).trailing_zeros() as usize;
            out[n] = Implied {
                cand: cand_of_cell_digit(c, other),
                cause: Cause::Cell as u8,
                hidden: (src.cells[c] - cs).bits(),
            };
            n += 1;
        }
    }
    if x {
        for (k, cause) in Cause::REGIONS.iter().enumerate() {
            let (h, i) = CELL_HIDX[c][k];
            let pos = cur.hpos[d][h as usize];
            let me = 1u16 << i;
            if !two_bits(pos) || pos & me == 0 {
                continue;
            }
            let other = HOUSE_CELLS[h as usize][(pos & !me).trailing_zeros() as usize].index();
            let oc = cand_of_cell_digit(other, d);
            if out[..n].iter().any(|i| i.cand == oc) {
                continue;
            }
            out[n] = Implied {
                cand: oc,
                cause: *cause as u8,
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
    table: Vec<[Implied; 4]>,
    count: Vec<u8>,
}

impl Default for Links {
    fn default() -> Self {
        Links::new()
    }
}

impl Links {
    /// An empty table.
    pub(crate) fn new() -> Links {
        Links {
            table: vec![[Implied::default(); 4]; CANDS],
            count: vec![0; CANDS],
        }
    }

    /// Fills the table for grid `cur` with Y-links `y` and X-links `x`.
    pub(crate) fn build(&mut self, cur: &Cands, y: bool, x: bool) {
        for c in 0..81usize {
            let cs = cur.cells[c];
            for d in 0..9usize {
                let i = c * 9 + d;
                self.count[i] = if cs.contains(Digit::from_index(d)) {
                    off_to_on(cur, cur, i as u16, y, x, &mut self.table[i]) as u8
                } else {
                    0
                };
            }
        }
    }

    /// What the "off" potential of `cand` implies.
    #[inline]
    pub(crate) fn get(&self, cand: u16) -> &[Implied] {
        let i = cand as usize;
        &self.table[i][..self.count[i] as usize]
    }
}
