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

use std::collections::HashMap;

use super::board_reach::BoardReach;
use super::cycles::{self, mix};
use super::forcing::{self, Spec};
use super::potentials::{Cands, NONE, NestedInfo, Run, cand_of};
use super::trace::{NestedChain, Pending};
use super::{Engine, Hint, Sink};
use crate::core::bitboard::DigitSet;
use crate::core::geometry::{Arr, CandBits, CellBits, FishSystem, Geometry, Size};
use crate::core::index::{Digit, HouseKind};
use crate::core::logic::{Board, Budget, Technique, combos};

/// Working memory of the nested searches.
#[derive(Clone, Debug)]
pub(crate) struct Nest<S: Size> {
    /// Engine of the inner chaining searches.
    inner: Engine<S>,
    /// Collects the inner chaining hints.
    sink: Sink<S>,
    /// Nested chaining hints used so far in this search (complexity, fingerprint).
    pub(crate) table: Vec<NestedInfo>,
    /// Their chains, parallel to `table`, when tracing.
    pub(crate) traces: Vec<NestedChain>,
    /// Number of empty cells (no digit yet) per house.
    empty_count: S::Houses<u8>,
    /// Number of cells holding each digit, per fish system.
    placed: [[u8; 9]; 8],
    /// The collected hints taken in, in SE's order ([`taken_in`]).
    order: Vec<u32>,
    /// Fingerprints of the removals of the hints kept.
    seen: Vec<u64>,
    /// Grids met by the nested chaining searches on this board and the boards before it
    /// ([`Nest::prepare`]), by fingerprint: their places and the range of `memo` holding
    /// what was found on them.
    grids: HashMap<(u64, Inner), Vec<Grid<S>>>,
    /// The nested chaining hints found on those grids, in SE's order, equal removals once
    /// ([`taken_in`]), also those without rule parents on the board they were found from.
    memo: Vec<Memo<S>>,
    /// Their chains, parallel to `memo`, when tracing.
    memo_traces: Vec<NestedChain>,
    /// The present board (its candidates and placed digits, per digit).
    board: Option<[S::Set; 18]>,
    /// Counts the boards met since the hints kept were forgotten: the present board's
    /// number.
    board_number: u32,
    /// The present board's candidates, which the rule parents of a hint kept from an
    /// earlier board are cut down to, once needed.
    board_cands: Option<S::Cands>,
    /// What the first chaining level read on the board, for the nested first-level
    /// searches to skip the starts that read the same ([`super::board_reach`]).
    reach: BoardReach<S>,
    /// True when the outer chains are traced: each nested hint used then notes the grid
    /// and search it came from, so that its own chains can be found afterwards
    /// ([`super::trace::resolve`]), for the few hints the step's chains use.
    tracing: bool,
    /// Lent by the top-level searches for a nested search: the outcomes of the multiple
    /// (0) and dynamic (1) forcing chain searches on the board they ran on, so that the
    /// nested searches of those kinds on grids that came from it take the runs that read
    /// nothing that changed ([`forcing::Earlier`]).
    pub(crate) outer: [forcing::OutcomeCache<S>; 2],
    /// The boards of `outer`, when it holds a search's outcomes.
    pub(crate) outer_board: [Option<[S::Set; 9]>; 2],
    /// Tests: the kept hints read from an earlier board, those of them that lost rule
    /// parents, and those left without any.
    #[cfg(test)]
    earlier_read: [usize; 3],
}

/// The most nested hints kept from the boards before the present one; past it they are
/// forgotten when the board changes (they only save work). About 70 MB.
const MAX_MEMO: usize = 1 << 18;

/// A grid met by a nested search: its places, its hints' range in [`Nest::memo`], and the
/// number of the board they were found from ([`Nest::board_number`]).
type Grid<S> = ([<S as Size>::Set; 9], u32, u32, u32);

/// A nested chaining hint kept for a grid met again: what [`add_offs`] and the nested
/// table need of it.
#[derive(Clone, Copy, Debug)]
struct Memo<S: Size> {
    removals: [S::Set; 9],
    parents: S::Cands,
    info: NestedInfo,
    technique: Technique,
}

impl<S: Size> Nest<S> {
    pub(crate) fn new() -> Nest<S> {
        Nest {
            inner: Engine::new(),
            sink: Sink::new(),
            table: Vec::with_capacity(4096),
            traces: Vec::new(),
            empty_count: S::Houses::splat(0),
            placed: [[0; 9]; 8],
            order: Vec::with_capacity(1024),
            seen: Vec::with_capacity(1024),
            grids: HashMap::new(),
            memo: Vec::new(),
            memo_traces: Vec::new(),
            board: None,
            board_number: 0,
            board_cands: None,
            reach: BoardReach::new(true),
            tracing: false,
            outer: [
                forcing::OutcomeCache::outcomes_only(),
                forcing::OutcomeCache::outcomes_only(),
            ],
            outer_board: [None; 2],
            #[cfg(test)]
            earlier_read: [0; 3],
        }
    }

    /// Traces (or not) the chains of the nested hints from now on.
    pub(crate) fn set_tracing(&mut self, on: bool) {
        if self.tracing != on {
            // The hints kept have no chains to find, or chains no longer wanted.
            self.forget();
        }
        self.tracing = on;
    }

    /// Forgets the hints kept for the grids met.
    pub(crate) fn forget(&mut self) {
        self.grids.clear();
        self.memo.clear();
        self.memo_traces.clear();
        self.board = None;
    }

    /// Forgets everything kept, also the first level's reach on the boards before (a new
    /// puzzle).
    pub(crate) fn forget_all(&mut self) {
        self.forget();
        self.reach.forget();
        self.inner.cyc.forget_planes();
    }

    /// Sets up for a search on `board`.
    pub(crate) fn prepare(&mut self, g: &Geometry<S>, board: &Board<S>) {
        self.table.clear();
        self.traces.clear();
        let mut planes = [S::Set::EMPTY; 18];
        for d in Digit::all() {
            planes[d.index()] = board.plane(d);
            planes[9 + d.index()] = board.placed(d);
        }
        if self.board != Some(planes) {
            // The hints of the grids met on the boards before stay right on this one when
            // it has no candidate they lacked (see [`inner_hints`]); the traced ones are
            // for the boards they were met on.
            let fewer = self
                .board
                .is_some_and(|old| (0..9).all(|d| (planes[d] - old[d]).is_empty()));
            if !fewer || self.tracing || self.memo.len() > MAX_MEMO {
                self.forget();
            }
            self.board = Some(planes);
            self.board_number = self.board_number.wrapping_add(1);
            self.board_cands = None;
        }
        for (h, d) in g.houses().iter().enumerate() {
            self.empty_count[h] = (board.empty() & d.set).len() as u8;
        }
        for (k, sys) in g.fish_systems().iter().enumerate().take(8) {
            for d in Digit::all() {
                self.placed[k][d.index()] = (board.placed(d) & sys.cells).len() as u8;
            }
        }
    }
}

/// Adds the removals of one hint to the chain as advanced "off" potentials with `parents`
/// (unless already there).
fn add_offs<S: Size>(
    run: &mut Run<S>,
    removals: &[S::Set; 9],
    parents: &S::Cands,
    nested: u32,
    technique: Technique,
) {
    let mut all = S::Set::EMPTY;
    for s in removals {
        all |= *s;
    }
    for c in all {
        for (d, s) in removals.iter().enumerate() {
            if s.contains(c) {
                let cand = cand_of(c.index(), d);
                if run.off_idx[cand as usize] == NONE {
                    run.add_advanced(cand, parents, nested, technique);
                }
            }
        }
    }
}

/// [`add_offs`] for one digit `d`: `elim` loses `d` because `d` is off in `parent_cells`.
fn add_digit_offs<S: Size>(
    run: &mut Run<S>,
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
    add_offs(run, &removals, &parents, NONE, technique);
}

/// The advanced potentials of a dynamic chain at `level` whose grid is now `cur` (it
/// started from `src`), added to `run`. Returns how many hints gave potentials (0: the
/// chain is over), or `None` when the budget ran out.
pub(crate) fn advanced<S: Size>(
    g: &Geometry<S>,
    run: &mut Run<S>,
    cur: &Cands<S>,
    src: &Cands<S>,
    level: u8,
    nest: &mut Nest<S>,
    budget: &mut Budget,
) -> Option<usize> {
    if !budget.charge(40) {
        return None;
    }
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
    let n = locking(g, run, cur, &removed, &touched);
    if n > 0 {
        return Some(n);
    }
    let n = hidden_pairs(g, run, cur, src, &touched, &nest.empty_count);
    if n > 0 {
        return Some(n);
    }
    let n = naked_pairs(g, run, cur, src, lost, &touched, &nest.empty_count);
    if n > 0 {
        return Some(n);
    }
    let mut n = 0;
    for (k, sys) in g.fish_systems().iter().enumerate().take(8) {
        n += x_wings(g, sys, run, cur, &removed, &nest.placed[k]);
    }
    if n > 0 {
        return Some(n);
    }
    if level >= 2 {
        return chain_hints(g, run, cur, src, level, nest, budget);
    }
    Some(0)
}

/// A fingerprint of a grid's places.
fn grid_hash<S: Size>(planes: &[S::Set; 9]) -> u64 {
    let mut h = 0x6a09_e667_u64;
    for (d, p) in planes.iter().enumerate() {
        for w in 0..<S::Set as CellBits>::WORDS {
            h = mix(h, p.word(w) ^ (d as u64) << 58);
        }
    }
    h
}

/// The nested chaining searches: SE's first chaining level (cycles and forcing chains),
/// multiple forcing chains, dynamic forcing chains.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Inner {
    Cycles,
    Multiple,
    Dynamic,
}

/// The nested chaining hints of level `level` on `cur` (SE: the chaining producers of
/// `getAdvancedPotentials`: at level 2 the first chaining level, at level 3 also multiple
/// forcing chains when that finds nothing, at level 4 dynamic forcing chains), added to
/// `run` as advanced potentials; returns how many gave potentials, or `None` when the
/// budget ran out.
fn chain_hints<S: Size>(
    g: &Geometry<S>,
    run: &mut Run<S>,
    cur: &Cands<S>,
    src: &Cands<S>,
    level: u8,
    nest: &mut Nest<S>,
    budget: &mut Budget,
) -> Option<usize> {
    if level >= 4 {
        return inner_hints(g, run, cur, src, Inner::Dynamic, nest, budget);
    }
    let n = inner_hints(g, run, cur, src, Inner::Cycles, nest, budget)?;
    if n > 0 || level == 2 {
        return Some(n);
    }
    inner_hints(g, run, cur, src, Inner::Multiple, nest, budget)
}

/// The hints of one nested search `kind` on `cur`, added to `run` (see [`chain_hints`]).
///
/// Many chains reach the same grid (two assumptions that imply each other, chains that
/// converge, the searches of the levels above on the same board), and what a nested search
/// finds on a grid depends on that grid and the starting grid only. So the hints found on a
/// grid are kept, and a grid met again gets them without searching: the same potentials,
/// with the same parents and nested chains, in the same order.
///
/// They are also kept across the grader's steps, while the board only loses candidates
/// ([`Nest::prepare`]): a hint's rule parents are the candidates of the starting grid
/// missing from `cur` that the hint relies on ([`super::rule_parents_of`]), so on a board
/// `src` with fewer candidates (still holding `cur`) they are those found on the earlier
/// board that `src` still has. A hint left without any is not taken in; the hints found on
/// `cur`, their order and which of them are equal do not depend on the board.
fn inner_hints<S: Size>(
    g: &Geometry<S>,
    run: &mut Run<S>,
    cur: &Cands<S>,
    src: &Cands<S>,
    kind: Inner,
    nest: &mut Nest<S>,
    budget: &mut Budget,
) -> Option<usize> {
    debug_assert!(
        nest.board.is_some_and(|b| b[..9] == src.planes),
        "the nested hints kept are for the board the search starts from"
    );
    let key = cur.planes;
    let h = (grid_hash::<S>(&key), kind);
    if let Some(&(_, start, end, number)) = nest
        .grids
        .get(&h)
        .and_then(|l| l.iter().find(|e| e.0 == key))
    {
        return Some(take_kept(run, nest, src, start..end, number));
    }
    let start = nest.memo.len() as u32;
    if kind == Inner::Cycles && !nest.reach.is_for(src) {
        // The board's own first-level search, recording what each start reads.
        nest.reach.begin(src, true);
        nest.sink.reset_collect(src);
        let (eng, sink) = (&mut nest.inner, &mut nest.sink);
        if !cycles::search(
            g,
            src,
            &mut eng.cyc,
            sink,
            None,
            Some(&mut nest.reach),
            budget,
        ) {
            nest.reach.forget();
            return None;
        }
        nest.reach.end(src);
    }
    let reach = (kind == Inner::Cycles).then_some(&mut nest.reach);
    let k = if kind == Inner::Dynamic { 1 } else { 0 };
    let outer = nest.outer_board[k].map(|b| (&nest.outer[k], b));
    let ok = inner_search(
        g,
        cur,
        src,
        kind,
        &mut nest.inner,
        &mut nest.sink,
        reach,
        outer,
        budget,
    );
    if !ok {
        return None;
    }
    keep_chain_hints(nest, cur, kind);
    let (end, number) = (nest.memo.len() as u32, nest.board_number);
    nest.grids
        .entry(h)
        .or_default()
        .push((key, start, end, number));
    Some(take_kept(run, nest, src, start..end, number))
}

/// Adds to `run` the kept hints `range` of [`Nest::memo`], found from board `number`, as
/// advanced potentials, each with its rule parents on the present board `src` (see
/// [`inner_hints`]); returns how many had any (the others are not taken in).
fn take_kept<S: Size>(
    run: &mut Run<S>,
    nest: &mut Nest<S>,
    src: &Cands<S>,
    range: std::ops::Range<u32>,
    number: u32,
) -> usize {
    let earlier = number != nest.board_number;
    let mut used = 0;
    for m in range.start as usize..range.end as usize {
        let e = nest.memo[m];
        let mut parents = e.parents;
        if earlier {
            parents.intersect_with(nest.board_cands.get_or_insert_with(|| src.cand_set()));
            #[cfg(test)]
            {
                nest.earlier_read[0] += 1;
                nest.earlier_read[1] += usize::from(parents != e.parents);
                nest.earlier_read[2] += usize::from(parents.none() && !e.parents.none());
            }
        }
        if parents.none() {
            continue;
        }
        let id = nest.table.len() as u32;
        nest.table.push(e.info);
        if nest.tracing {
            let t = nest.memo_traces[m].clone();
            nest.traces.push(t);
        }
        add_offs(run, &e.removals, &parents, id, e.technique);
        used += 1;
    }
    used
}

/// Runs nested search `kind` on `cur` (the chain started from `src`) on its own, collecting
/// every hint into `sink` (also for tracing a nested hint afterwards), with `reach` for the
/// first chaining level when there is one, and with `outer` (the outcomes of the same
/// kind's search on a board, and that board), the runs that read nothing changed since it
/// are taken from there. False when the budget ran out.
#[allow(clippy::too_many_arguments)]
pub(crate) fn inner_search<S: Size>(
    g: &Geometry<S>,
    cur: &Cands<S>,
    src: &Cands<S>,
    kind: Inner,
    eng: &mut Engine<S>,
    sink: &mut Sink<S>,
    reach: Option<&mut BoardReach<S>>,
    outer: Option<(&forcing::OutcomeCache<S>, [S::Set; 9])>,
    budget: &mut Budget,
) -> bool {
    sink.reset_collect(src);
    match kind {
        Inner::Cycles => {
            let Some(r) = reach else {
                return cycles::search(g, cur, &mut eng.cyc, sink, None, None, budget);
            };
            r.begin(cur, false);
            let ok = cycles::search(g, cur, &mut eng.cyc, sink, None, Some(&mut *r), budget);
            r.end(cur);
            ok
        }
        Inner::Multiple | Inner::Dynamic => {
            let earlier = outer
                .filter(|(_, b)| super::board_reach::came_from(cur, b))
                .map(|(cache, b)| match kind {
                    Inner::Dynamic => forcing::Earlier::dynamic(g, cache, &b, cur),
                    _ => forcing::Earlier::static_runs(g, cache, &b, cur, true),
                });
            forcing::search(
                g,
                cur,
                0..S::CELLS,
                if kind == Inner::Dynamic {
                    Spec::dynamic()
                } else {
                    Spec::multiple()
                },
                eng,
                None,
                None,
                earlier.as_ref(),
                None,
                sink,
                budget,
            )
        }
    }
}

impl Inner {
    /// The kind noted in a [`Pending`].
    pub(crate) fn from_u8(k: u8) -> Inner {
        match k {
            0 => Inner::Cycles,
            1 => Inner::Multiple,
            _ => Inner::Dynamic,
        }
    }
}

/// A fingerprint of a hint's removals (SE compares chaining hints by their removals).
fn removal_sig<S: Size>(h: &Hint<S>) -> u64 {
    let mut s = 0x1234_u64;
    for (d, set) in h.removals.iter().enumerate() {
        s = mix(s, set.word(0) ^ (d as u64) << 60);
        for w in 1..<S::Set as CellBits>::WORDS {
            s = mix(s, set.word(w));
        }
    }
    s
}

/// The collected chaining hints `hints` a nested chain may take in, as indices into
/// `order`, in SE's order: sorted by rating, complexity, kind and place, equal removals
/// once (`seen`: working memory). It takes in those with rule parents.
fn taken_in<S: Size>(hints: &[Hint<S>], order: &mut Vec<u32>, seen: &mut Vec<u64>) {
    order.clear();
    order.extend(0..hints.len() as u32);
    // Equal hints in SE's order: the first chaining level gives each its place (not the
    // order it offers them in); the other levels offer them in that order.
    order.sort_unstable_by_key(|&i| {
        let h = &hints[i as usize];
        (h.difficulty, h.complexity, h.sort_key, h.generation, i)
    });
    seen.clear();
    order.retain(|&i| {
        let h = &hints[i as usize];
        let rs = removal_sig(h);
        if seen.contains(&rs) {
            return false;
        }
        seen.push(rs);
        true
    });
}

/// Keeps the collected chaining hints found on `cur` in [`Nest::memo`], in SE's order
/// (sorted, equal removals once: [`taken_in`]), with their chains when tracing.
fn keep_chain_hints<S: Size>(nest: &mut Nest<S>, cur: &Cands<S>, kind: Inner) {
    taken_in(&nest.sink.all, &mut nest.order, &mut nest.seen);
    for &i in &nest.order {
        let h = &nest.sink.all[i as usize];
        nest.memo.push(Memo {
            removals: h.removals,
            parents: h.parents,
            info: NestedInfo {
                complexity: h.complexity,
                sig: h.sig,
            },
            technique: h.technique,
        });
        if nest.tracing {
            nest.memo_traces.push(NestedChain::pending(
                h.technique,
                h.difficulty,
                Pending {
                    grid: cur.list(),
                    kind: kind as u8,
                    sig: h.sig,
                    index: i,
                },
            ));
        }
    }
}

/// Pointing and claiming (SE `Locking(false)`) whose rule parents are not empty: the
/// chain removed some of the digit's places in the first house outside the second.
fn locking<S: Size>(
    g: &Geometry<S>,
    run: &mut Run<S>,
    cur: &Cands<S>,
    removed_planes: &[S::Set; 9],
    touched: &S::Houses<u16>,
) -> usize {
    let mut used = 0;
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
                    add_digit_offs(run, d, elim, parent_cells, t);
                    used += 1;
                }
            }
        }
    }
    used
}

/// Hidden pairs (SE `HiddenSet(2, false)`) whose rule parents are not empty: a place of
/// one of the pair's digits in the house was removed by the chain.
fn hidden_pairs<S: Size>(
    g: &Geometry<S>,
    run: &mut Run<S>,
    cur: &Cands<S>,
    src: &Cands<S>,
    touched_digits: &S::Houses<u16>,
    empty: &S::Houses<u8>,
) -> usize {
    let mut used = 0;
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
            add_offs(run, &removals, &parents, NONE, Technique::HiddenPair);
            used += 1;
        }
    }
    used
}

/// Naked pairs (SE `NakedSet(2)`) whose rule parents are not empty: one of the two cells
/// lost a candidate to the chain.
fn naked_pairs<S: Size>(
    g: &Geometry<S>,
    run: &mut Run<S>,
    cur: &Cands<S>,
    src: &Cands<S>,
    lost: S::Set,
    touched: &S::Houses<u16>,
    empty: &S::Houses<u8>,
) -> usize {
    let mut used = 0;
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
            add_offs(run, &removals, &parents, NONE, Technique::NakedPair);
            used += 1;
        }
    }
    used
}

/// X-wings (SE `Fisherman(2)`) whose rule parents are not empty: the chain removed a
/// place of the digit in a base line outside the cover lines.
fn x_wings<S: Size>(
    g: &Geometry<S>,
    sys: &FishSystem<S>,
    run: &mut Run<S>,
    cur: &Cands<S>,
    removed_planes: &[S::Set; 9],
    placed: &[u8; 9],
) -> usize {
    let mut used = 0;
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
        return 0;
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
                    add_digit_offs(run, d, elim, parent_cells, Technique::XWing);
                    used += 1;
                }
            }
        }
    }
    used
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::logic::Budget;
    use crate::core::logic::testutil::{board_from_line, cg, thinned};
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// What a nested chain takes in from the hints of a search ([`taken_in`], those with
    /// rule parents, as [`take_kept`] takes them).
    type Taken<S> = Vec<(
        [<S as Size>::Set; 9],
        <S as Size>::Cands,
        u32,
        u64,
        Technique,
    )>;

    fn taken<S: Size>(sink: &Sink<S>) -> Taken<S> {
        let (mut order, mut seen) = (Vec::new(), Vec::new());
        taken_in(&sink.all, &mut order, &mut seen);
        order
            .iter()
            .map(|&i| &sink.all[i as usize])
            .filter(|h| !h.parents.none())
            .map(|h| (h.removals, h.parents, h.complexity, h.sig, h.technique))
            .collect()
    }

    #[test]
    fn nested_searches_make_only_the_hints_that_can_be_taken_in() {
        // ER 11.9: a board whose nested searches find many hints.
        let line =
            "..3..6.8....1..2......7...4..9..8.6..3..4...1.7.2.....3....5.....5...6..98.....5.";
        let board = board_from_line(line);
        let src = Cands::from_board(cg(), &board);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        let (mut spared, mut made) = (0, 0);
        for round in 0..12 {
            let cur = Cands::from_board(cg(), &thinned(&board, 4 + round, &mut rng));
            for kind in [Inner::Multiple, Inner::Dynamic] {
                let mut runs = [Vec::new(), Vec::new()];
                for (all, out) in [true, false].into_iter().zip(&mut runs) {
                    let mut eng = Engine::new();
                    let mut sink = Sink::new();
                    sink.make_all = all;
                    let mut budget = Budget::UNLIMITED;
                    assert!(inner_search(
                        cg(),
                        &cur,
                        &src,
                        kind,
                        &mut eng,
                        &mut sink,
                        None,
                        None,
                        &mut budget
                    ));
                    if all {
                        made += sink.all.len();
                    } else {
                        spared += made - sink.all.len();
                        made = 0;
                    }
                    *out = taken(&sink);
                }
                assert_eq!(runs[0], runs[1], "round {round}, {kind:?}");
            }
        }
        assert!(spared > 100, "only {spared} hints spared");
    }

    /// The hints kept from the boards before ([`inner_hints`]) give every chain the same
    /// potentials, parents and nested table as searching again: chains of levels 2 to 4
    /// on a board losing candidates step by step, run with one nest kept throughout and
    /// with a nest that forgets at each board. Each next board places the candidate that
    /// most chains turn on before nesting, or loses the one they most turn off (as a step
    /// of the grader does, so that chains meet the grids of the board before again).
    #[test]
    fn hints_kept_from_earlier_boards_give_the_chains_of_a_new_search() {
        use crate::core::geometry::S81;
        use crate::core::index::Cell;
        use crate::core::logic::chains::forcing::{Mode, chain};
        use crate::core::logic::chains::potentials::cell_of;
        use crate::core::logic::chains::potentials::{Links, cand_count};
        let g = cg();
        let mut board = board_from_line(
            "..3..6.8....1..2......7...4..9..8.6..3..4...1.7.2.....3....5.....5...6..98.....5.",
        );
        let links = Links::new(cand_count::<S81>());
        let (mut kept, mut fresh) = (Nest::<S81>::new(), Nest::<S81>::new());
        let (mut a, mut b) = (Run::<S81>::new(), Run::<S81>::new());
        let mut runs = 0;
        let mut turned = [
            vec![0u32; cand_count::<S81>()],
            vec![0u32; cand_count::<S81>()],
        ];
        for (step, level) in [2u8, 3, 2, 4, 3, 2, 3, 2].into_iter().enumerate() {
            if step > 0 {
                let on = step % 2 == 1;
                let t = &mut turned[usize::from(on)];
                let most = (0..t.len()).max_by_key(|&q| t[q]).unwrap();
                let (cell, d) = (Cell::from_index(most / 9), Digit::from_index(most % 9));
                if on {
                    board.place(g, cell, d);
                } else {
                    board.eliminate(cell, d);
                }
                turned.iter_mut().for_each(|t| t.fill(0));
            }
            let src = Cands::from_board(g, &board);
            kept.prepare(g, &board);
            fresh.forget_all();
            fresh.prepare(g, &board);
            let mode = Mode {
                y: true,
                dynamic: true,
                level,
            };
            // What the chains turn on and off before nesting, for the next board.
            let plain = Mode { level: 0, ..mode };
            for v in src.list() {
                let mut budget = Budget::UNLIMITED;
                assert!(chain(
                    g,
                    &mut a,
                    &src,
                    plain,
                    &links,
                    v,
                    true,
                    None,
                    &mut budget
                ));
                for n in &a.nodes[1..] {
                    if src.cells[cell_of(n.cand)].len() > 1 {
                        turned[usize::from(n.on)][usize::from(n.cand)] += 1;
                    }
                }
            }
            let stride = if level == 4 { 7 } else { 1 };
            for v in src.list().into_iter().step_by(stride) {
                for on in [true, false] {
                    for (run, nest) in [(&mut a, &mut kept), (&mut b, &mut fresh)] {
                        let mut budget = Budget::UNLIMITED;
                        assert!(chain(
                            g,
                            run,
                            &src,
                            mode,
                            &links,
                            v,
                            on,
                            Some(nest),
                            &mut budget
                        ));
                    }
                    let what = format!("board {step}, level {level}, {v} {on}");
                    assert_eq!(format!("{:?}", a.nodes), format!("{:?}", b.nodes), "{what}");
                    assert_eq!(format!("{:?}", a.adv), format!("{:?}", b.adv), "{what}");
                    assert_eq!(a.adv_parents, b.adv_parents, "{what}");
                    assert_eq!(a.contradiction, b.contradiction, "{what}");
                    runs += 1;
                }
            }
            let tables = |n: &Nest<S81>| format!("{:?}", n.table);
            assert_eq!(tables(&kept), tables(&fresh), "board {step}");
        }
        assert!(fresh.earlier_read == [0; 3]);
        let read = kept.earlier_read[0];
        assert!(
            runs > 2000 && read > 300,
            "{runs} chains, {read} hints kept read"
        );
    }

    /// A hint kept from an earlier board keeps, on a board without some of the candidates
    /// it relied on, only the rule parents still there, and is not taken in when none is
    /// left, as a search on the new board finds: for grids where dynamic chains run dry,
    /// each kind of nested search, every board that loses all the parents of one hint.
    #[test]
    fn a_hint_kept_from_an_earlier_board_loses_the_parents_gone_since() {
        use crate::core::geometry::S81;
        use crate::core::index::Cell;
        use crate::core::logic::chains::forcing::{Mode, chain};
        use crate::core::logic::chains::potentials::{Links, cand_count, cell_of, digit_of};
        let g = cg();
        let board = board_from_line(
            "..3..6.8....1..2......7...4..9..8.6..3..4...1.7.2.....3....5.....5...6..98.....5.",
        );
        let src = Cands::from_board(g, &board);
        let links = Links::new(cand_count::<S81>());
        let mode = Mode {
            y: true,
            dynamic: true,
            level: 0,
        };
        let mut kept = Nest::<S81>::new();
        let mut fresh = Nest::<S81>::new();
        let mut start = Run::<S81>::new();
        let mut boards = 0;
        for v in src.list().into_iter().step_by(3) {
            let mut budget = Budget::UNLIMITED;
            assert!(chain(
                g,
                &mut start,
                &src,
                mode,
                &links,
                v,
                true,
                None,
                &mut budget
            ));
            if start.contradiction.is_some() {
                continue;
            }
            // The grid where the chain runs dry: the board less what it turned off.
            let mut dry = board;
            for &i in &start.offs {
                let q = start.nodes[i as usize].cand;
                dry.eliminate(Cell::from_index(cell_of(q)), Digit::from_index(digit_of(q)));
            }
            let cur = Cands::from_board(g, &dry);
            for kind in [Inner::Cycles, Inner::Multiple, Inner::Dynamic] {
                kept.forget_all();
                kept.prepare(g, &board);
                let mut run = start.clone();
                assert!(
                    inner_hints(g, &mut run, &cur, &src, kind, &mut kept, &mut budget).is_some()
                );
                let Some(hint) = kept.memo.iter().find(|m| !m.parents.none()) else {
                    continue;
                };
                // The board less every rule parent of that hint.
                let mut next = board;
                for q in hint.parents.cands() {
                    next.eliminate(Cell::from_index(cell_of(q)), Digit::from_index(digit_of(q)));
                }
                let next_src = Cands::from_board(g, &next);
                kept.prepare(g, &next);
                fresh.forget_all();
                fresh.prepare(g, &next);
                let mut got = Vec::new();
                for nest in [&mut kept, &mut fresh] {
                    let mut run = start.clone();
                    let n = inner_hints(g, &mut run, &cur, &next_src, kind, nest, &mut budget);
                    got.push(format!(
                        "{n:?} {:?} {:?} {:?} {:?}",
                        run.nodes, run.adv, run.adv_parents, nest.table
                    ));
                }
                assert_eq!(got[0], got[1], "{v}, {kind:?}");
                boards += 1;
            }
        }
        let [read, cut, emptied] = kept.earlier_read;
        assert!(
            boards > 50 && cut > boards && emptied >= boards,
            "{boards} boards, {read} hints kept read, {cut} cut, {emptied} emptied"
        );
    }
}
