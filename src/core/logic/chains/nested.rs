//! Nested forcing chains: what a dynamic chain of level 1 to 4 deduces when its own links
//! run dry (Sudoku Explainer `Chaining.getAdvancedPotentials`).
//!
//! On the chain's grid (the puzzle minus the candidates the chain has removed so far), SE
//! tries, in order, and stops at the first that gives anything: pointing and claiming,
//! hidden pairs, naked pairs, X-wings ([`super::nested_basics`], kept per grid while the
//! board stays the same); then at level 2 the first chaining level (cycles
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
use super::nested_basics::Basics;
use super::potentials::{Cands, NONE, NestedInfo, Run, cand_of};
use super::trace::{NestedChain, Pending};
use super::{Engine, Hint, Sink};
use crate::core::geometry::{Arr, CandBits, CellBits, Geometry, Size};
use crate::core::index::Digit;
use crate::core::logic::{Board, Budget, Technique};

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
    /// What the simple techniques gave on the grids met on this board.
    basics: Basics<S>,
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
            basics: Basics::new(),
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
            // What the simple techniques give relies on the board (the rule parents).
            self.basics.clear();
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
    debug_assert!(
        nest.board.is_some_and(|b| b[..9] == src.planes),
        "the simple hints kept are for the board the chain starts from"
    );
    let hash = grid_hash::<S>(&cur.planes);
    let found = nest
        .basics
        .hints(g, cur, src, hash, &nest.empty_count, &nest.placed);
    if !found.is_empty() {
        for b in found {
            add_offs(run, &b.removals, &b.parents, NONE, b.technique);
        }
        return Some(found.len());
    }
    if level >= 2 {
        return chain_hints(g, run, cur, src, level, nest, hash, budget);
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
#[allow(clippy::too_many_arguments)]
fn chain_hints<S: Size>(
    g: &Geometry<S>,
    run: &mut Run<S>,
    cur: &Cands<S>,
    src: &Cands<S>,
    level: u8,
    nest: &mut Nest<S>,
    hash: u64,
    budget: &mut Budget,
) -> Option<usize> {
    if level >= 4 {
        return inner_hints(g, run, cur, src, Inner::Dynamic, nest, hash, budget);
    }
    let n = inner_hints(g, run, cur, src, Inner::Cycles, nest, hash, budget)?;
    if n > 0 || level == 2 {
        return Some(n);
    }
    inner_hints(g, run, cur, src, Inner::Multiple, nest, hash, budget)
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
#[allow(clippy::too_many_arguments)]
fn inner_hints<S: Size>(
    g: &Geometry<S>,
    run: &mut Run<S>,
    cur: &Cands<S>,
    src: &Cands<S>,
    kind: Inner,
    nest: &mut Nest<S>,
    hash: u64,
    budget: &mut Budget,
) -> Option<usize> {
    debug_assert!(
        nest.board.is_some_and(|b| b[..9] == src.planes),
        "the nested hints kept are for the board the search starts from"
    );
    let key = cur.planes;
    let h = (hash, kind);
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
    order.sort_unstable_by_key(|&i| (hints[i as usize].key(), i));
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

    /// The grid where the dynamic chain (no nesting) from `v` assumed on (`on`) or off first
    /// runs dry, as a nested chain meets it: the board less what the chain turned off, with
    /// the chain in `run`. `None` when the chain meets a contradiction.
    fn dry_grid(
        board: &crate::core::logic::Board,
        src: &Cands<crate::core::geometry::S81>,
        v: u16,
        on: bool,
        run: &mut Run<crate::core::geometry::S81>,
    ) -> Option<Cands<crate::core::geometry::S81>> {
        use crate::core::geometry::S81;
        use crate::core::index::Cell;
        use crate::core::logic::chains::forcing::{Mode, chain};
        use crate::core::logic::chains::potentials::{Links, cand_count, cell_of, digit_of};
        let mode = Mode {
            y: true,
            dynamic: true,
            level: 0,
        };
        let links = Links::new(cand_count::<S81>());
        let mut budget = Budget::UNLIMITED;
        assert!(chain(
            cg(),
            run,
            src,
            mode,
            &links,
            v,
            on,
            None,
            &mut budget
        ));
        if run.contradiction.is_some() {
            return None;
        }
        let mut dry = *board;
        for &i in &run.offs {
            let q = run.nodes[i as usize].cand;
            dry.eliminate(Cell::from_index(cell_of(q)), Digit::from_index(digit_of(q)));
        }
        Some(Cands::from_board(cg(), &dry))
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

    /// The simple techniques' hints on `cur` for a chain from `src`, on `nest`'s board:
    /// from what the nest keeps, or (`fresh`) from a memory of its own.
    fn simple_hints(
        nest: &mut Nest<crate::core::geometry::S81>,
        cur: &Cands<crate::core::geometry::S81>,
        src: &Cands<crate::core::geometry::S81>,
        fresh: bool,
    ) -> Vec<super::super::nested_basics::Basic<crate::core::geometry::S81>> {
        let mut own = Basics::new();
        let basics = if fresh { &mut own } else { &mut nest.basics };
        let h = grid_hash::<crate::core::geometry::S81>(&cur.planes);
        basics
            .hints(cg(), cur, src, h, &nest.empty_count, &nest.placed)
            .to_vec()
    }

    /// The simple techniques' hints kept per grid ([`Basics`]) are those found afresh on
    /// it, in the same order, whether the grid is met for the first time among others or
    /// again; and a board that lost a candidate forgets them ([`Nest::prepare`]): their
    /// rule parents are the removals from the board the chain started from.
    #[test]
    fn simple_hints_kept_per_grid_are_those_found_afresh_on_the_board() {
        use crate::core::geometry::S81;
        use crate::core::index::Cell;
        use crate::core::logic::chains::potentials::{cell_of, digit_of};
        let g = cg();
        let mut techniques = HashMap::new();
        let mut forgotten = 0;
        for line in [
            "..3..6.8....1..2......7...4..9..8.6..3..4...1.7.2.....3....5.....5...6..98.....5.",
            "....56.....71....3...7...1...1....4..4.....7287....9....23....4.....85..9...6....",
            "....5.7...5.1....6..82...1..4....3....6....9......1.625...4......29....8.7...3...",
            "1.3.5......67......8...1..4....7..18.9...84.....6...9.3.....8...1...2.4....5..2..",
        ] {
            let board = board_from_line(line);
            let src = Cands::from_board(g, &board);
            let mut nest = Nest::<S81>::new();
            nest.prepare(g, &board);
            // The grids where the dynamic chains of the board first run dry (the board less
            // what each turned off), as a nested chain meets them.
            let mut grids = Vec::new();
            let mut run = Run::<S81>::new();
            for v in src.list() {
                for on in [true, false] {
                    grids.extend(dry_grid(&board, &src, v, on, &mut run));
                }
            }
            for round in 0..2 {
                for cur in &grids {
                    let kept = simple_hints(&mut nest, cur, &src, false);
                    let fresh = simple_hints(&mut nest, cur, &src, true);
                    assert_eq!(kept, fresh, "round {round}");
                    for b in &kept {
                        *techniques.entry(b.technique).or_insert(0) += 1;
                    }
                }
            }
            // The board loses a rule parent of a hint kept: the hint on the new board has
            // other parents (or none), and the nest gives what is found afresh there.
            for cur in &grids {
                let was = simple_hints(&mut nest, cur, &src, false);
                let Some(p) = was.first().and_then(|b| b.parents.cands().next()) else {
                    continue;
                };
                let mut fewer = board;
                fewer.eliminate(Cell::from_index(cell_of(p)), Digit::from_index(digit_of(p)));
                let src2 = Cands::from_board(g, &fewer);
                nest.prepare(g, &fewer);
                let now = simple_hints(&mut nest, cur, &src2, false);
                assert_eq!(now, simple_hints(&mut nest, cur, &src2, true));
                assert_ne!(now, was);
                forgotten += 1;
                nest.prepare(g, &board);
            }
        }
        for t in [
            Technique::Pointing,
            Technique::Claiming,
            Technique::HiddenPair,
            Technique::NakedPair,
            Technique::XWing,
        ] {
            assert!(
                techniques.get(&t).is_some_and(|&n| n >= 8),
                "{t:?}: {techniques:?}"
            );
        }
        assert!(forgotten >= 20, "{forgotten}");
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
        use crate::core::logic::chains::potentials::{cell_of, digit_of};
        let g = cg();
        let board = board_from_line(
            "..3..6.8....1..2......7...4..9..8.6..3..4...1.7.2.....3....5.....5...6..98.....5.",
        );
        let src = Cands::from_board(g, &board);
        let mut budget = Budget::UNLIMITED;
        let mut kept = Nest::<S81>::new();
        let mut fresh = Nest::<S81>::new();
        let mut start = Run::<S81>::new();
        let mut boards = 0;
        for v in src.list().into_iter().step_by(3) {
            let Some(cur) = dry_grid(&board, &src, v, true, &mut start) else {
                continue;
            };
            let hash = grid_hash::<S81>(&cur.planes);
            for kind in [Inner::Cycles, Inner::Multiple, Inner::Dynamic] {
                kept.forget_all();
                kept.prepare(g, &board);
                let mut run = start.clone();
                assert!(
                    inner_hints(g, &mut run, &cur, &src, kind, &mut kept, hash, &mut budget)
                        .is_some()
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
                    let n =
                        inner_hints(g, &mut run, &cur, &next_src, kind, nest, hash, &mut budget);
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
