//! Forcing chains from every candidate of every cell: Nishio, multiple (cell and region)
//! forcing chains, dynamic forcing chains and, through [`super::nested`], nested forcing
//! chains. Sudoku Explainer's `Chaining.getMultipleChainsHintList`, `doBinaryChaining`,
//! `doRegionChainings` and `doChaining`.
//!
//! [`chain`] deduces everything that follows from one assumption: "on" potentials first
//! (each implies "off" ones), then one "off" potential at a time (each may imply "on"
//! ones), until nothing is left or a potential would be both on and off (a
//! contradiction). A *dynamic* chain removes every "off" potential it processes from its
//! copy of the grid, so later cells and houses may be left with one candidate or place;
//! the removals that made it so become hidden parents of the implied potential. At a
//! nested level, when nothing is left, simpler techniques (and lower chaining levels) run
//! on the chain's grid and their removals continue the chain ([`super::nested`]).
//!
//! From each cell (in reading order) with three or more candidates, or two for the
//! dynamic levels, and each of its candidates (in digit order):
//!
//! - *contradiction* (dynamic, Nishio): the candidate on (or off) leads to a contradiction,
//!   so it is off (or on);
//! - *double* (dynamic, cells of three or more): a potential implied both by the candidate
//!   on and by it off;
//! - *region* (not Nishio): for the digit's places in each house (box, row, column; two
//!   places, or more for the multiple levels), first met at this cell: a potential implied
//!   by every place;
//! - *cell* (not Nishio; after all candidates of the cell): a potential implied by every
//!   candidate of the cell.
//!
//! The hint's complexity is the sum, over its chains, of the distinct potentials among the
//! chain's target and its ancestors (plus nested chains).
//!
//! A search first needs only each run's *outcome* (what it reaches, as sets); the full run,
//! with its parents, is made when a hint is to be built. A static run's outcome is worked
//! out as a set ([`closure`]), taking in whole the outcomes of the runs already known that
//! it reaches; a dynamic run's takes the full run, and one without nesting is kept with its
//! outcome ([`KeptRuns`]), so that a hint needs it made only once.

use super::nested::Nest;
use super::plane_memo::{PlaneMemo, multi_cells};
use super::potentials::{
    Cands, Cause, Counter, Implied, KeptRuns, Links, MAX_IMPLIED, NONE, NestedInfo, Run,
    cand_count, cand_of, cell_of, digit_of, off_to_on, on_to_off,
};
use super::trace::{self, NestedChain};
use super::{ChainLevel, Engine, Hint, Sink, rule_parents_of};
use crate::core::bitboard::DigitSet;
use crate::core::geometry::{CellBits, Geometry, Size};
use crate::core::index::{Cell, Digit};
use crate::core::logic::{Budget, Technique, Tenths, length_bonus};

/// Runs in an [`Engine`]: nine for the candidates of a cell, one for the "off"
/// assumption, nine for the places of a house.
pub(crate) const RUNS: usize = 19;
const OFF_RUN: usize = 9;

/// How a chain links potentials.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mode {
    /// Y-links (naked single rule); off for Nishio.
    pub y: bool,
    /// Dynamic: processed "off" potentials leave the chain's grid.
    pub dynamic: bool,
    /// Nesting level (0: none).
    pub level: u8,
}

/// One of SE's `Chaining(multiple, dynamic, nishio, level)` producers (all but the first
/// level).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Spec {
    pub multiple: bool,
    pub dynamic: bool,
    pub nishio: bool,
    pub level: u8,
    pub base: Tenths,
    cell_technique: Technique,
    region_technique: Technique,
    binary_technique: Technique,
}

impl Spec {
    /// The producer of a chaining level (none for the first level, see [`super::cycles`]).
    pub(crate) fn of(level: ChainLevel) -> Option<Spec> {
        let all = |t: Technique, multiple, dynamic, nishio, level: u8| Spec {
            multiple,
            dynamic,
            nishio,
            level,
            base: t.base_rating(),
            cell_technique: t,
            region_technique: t,
            binary_technique: t,
        };
        Some(match level {
            ChainLevel::Cycles => return None,
            ChainLevel::Nishio => all(Technique::NishioForcingChain, false, true, true, 0),
            ChainLevel::Multiple => Spec {
                region_technique: Technique::RegionForcingChain,
                ..all(Technique::CellForcingChain, true, false, false, 0)
            },
            ChainLevel::Dynamic => all(Technique::DynamicForcingChain, true, true, false, 0),
            ChainLevel::Nested(1) => all(Technique::DynamicForcingChainPlus, true, true, false, 1),
            ChainLevel::Nested(2) => all(Technique::NestedForcingChain2, true, true, false, 2),
            ChainLevel::Nested(3) => all(Technique::NestedForcingChain3, true, true, false, 3),
            ChainLevel::Nested(4) => all(Technique::NestedForcingChain4, true, true, false, 4),
            ChainLevel::Nested(_) => return None,
        })
    }

    /// The dynamic level-0 producer (SE `Chaining(true, true, false, 0)`), as nested level
    /// 4 uses it.
    pub(crate) fn dynamic() -> Spec {
        Spec::of(ChainLevel::Dynamic).unwrap_or(Spec {
            multiple: true,
            dynamic: true,
            nishio: false,
            level: 0,
            base: 85,
            cell_technique: Technique::DynamicForcingChain,
            region_technique: Technique::DynamicForcingChain,
            binary_technique: Technique::DynamicForcingChain,
        })
    }

    /// The static multiple producer (SE `Chaining(true, false, false, 0)`), as nested level
    /// 3 uses it.
    pub(crate) fn multiple() -> Spec {
        Spec {
            multiple: true,
            dynamic: false,
            nishio: false,
            level: 0,
            base: 80,
            cell_technique: Technique::CellForcingChain,
            region_technique: Technique::RegionForcingChain,
            binary_technique: Technique::CellForcingChain,
        }
    }

    fn mode(&self) -> Mode {
        Mode {
            y: !self.nishio,
            dynamic: self.dynamic,
            level: self.level,
        }
    }
}

/// SE `doChaining`: fills `run` with what follows from `start` assumed on (`start_on`) or
/// off, on grid `src`. False when the budget ran out.
#[allow(clippy::too_many_arguments)]
pub(crate) fn chain<S: Size>(
    g: &Geometry<S>,
    run: &mut Run<S>,
    src: &Cands<S>,
    mode: Mode,
    links: &Links,
    start: u16,
    start_on: bool,
    mut nest: Option<&mut Nest<S>>,
    budget: &mut Budget,
) -> bool {
    run.reset(start, start_on);
    // A static chain reads the grid as it is (and its links from `links`); a dynamic one
    // works on a copy.
    let mut work = if mode.dynamic { Some(*src) } else { None };
    let (mut io, mut ioff) = (0usize, 0usize);
    let mut out = [Implied::default(); MAX_IMPLIED];
    loop {
        if io < run.ons.len() {
            let p = run.ons[io];
            io += 1;
            let pc = run.nodes[p as usize].cand;
            let (c, d) = (cell_of(pc), digit_of(pc));
            let cur = work.as_ref().unwrap_or(src);
            // What the "on" potential turns off, as sets (SE `getOnToOff` order: the
            // cell's other candidates, then the digit's places in the cell's houses).
            let others = if mode.y {
                cur.cells[c].bits() & !(1 << d)
            } else {
                0
            };
            let cell = Cell::from_index(c);
            let mut plane = cur.planes[d];
            plane.remove(cell);
            let peers = plane & g.peers(cell);
            if others & run.on_cells[c] != 0 || !(peers & run.on_planes[d]).is_empty() {
                // A contradiction: take the potentials one by one, in order.
                let mut hit: Option<(u16, Cause)> = None;
                on_to_off(g, cur, pc, mode.y, |q, cause| {
                    if hit.is_some() {
                        return;
                    }
                    if run.on_idx[q as usize] != NONE {
                        hit = Some((q, cause));
                    } else if run.off_idx[q as usize] == NONE {
                        run.add(g, q, false, cause, 0, p);
                    }
                });
                if let Some((q, cause)) = hit {
                    let t = run.push(g, q, false, cause, 0, p);
                    run.contradiction = Some((run.on_idx[q as usize], t));
                    break;
                }
            } else {
                let mut fresh = others & !run.off_cells[c];
                while fresh != 0 {
                    let e = fresh.trailing_zeros() as usize;
                    fresh &= fresh - 1;
                    run.add(g, cand_of(c, e), false, Cause::CELL, 0, p);
                }
                let new = peers - run.off_planes[d];
                if !new.is_empty() {
                    let mut seen = S::Set::EMPTY;
                    for &h in g.cell_houses(cell).ids() {
                        let hs = g.house_set(h as usize);
                        for x in (new & hs) - seen {
                            let cause = Cause::region(h as usize);
                            run.add(g, cand_of(x.index(), d), false, cause, 0, p);
                        }
                        seen |= hs;
                    }
                }
            }
        } else if ioff < run.offs.len() {
            let p = run.offs[ioff];
            ioff += 1;
            let pc = run.nodes[p as usize].cand;
            // A static chain reads its links in place (a copy of a few entries would
            // cost a call to `memcpy` for every "off" potential).
            let implied: &[Implied] = match work.as_mut() {
                Some(w) => {
                    let n = off_to_on(g, w, src, pc, mode.y, true, &mut out);
                    w.remove(g, pc);
                    &out[..n]
                }
                None => links.get(pc),
            };
            let mut stop = false;
            for imp in implied {
                let (q, cause) = (imp.cand, imp.cause());
                if run.off_idx[q as usize] != NONE {
                    let t = run.push(g, q, true, cause, imp.hidden, p);
                    run.contradiction = Some((t, run.off_idx[q as usize]));
                    stop = true;
                    break;
                }
                if run.on_idx[q as usize] == NONE {
                    run.add(g, q, true, cause, imp.hidden, p);
                }
            }
            if stop {
                break;
            }
        } else if mode.level > 0 {
            let Some(nest) = nest.as_deref_mut() else {
                break;
            };
            let cur = work.as_ref().unwrap_or(src);
            match super::nested::advanced(g, run, cur, src, mode.level, nest, budget) {
                None => return false,
                Some(0) => break,
                Some(_) => {}
            }
        } else {
            break;
        }
    }
    budget.charge(run.nodes.len() as u64 / 2 + 2)
}

/// Keeps in `a` only the candidates also in `b` (per-digit planes).
#[inline]
fn and_with<T: CellBits>(a: &mut [T; 9], b: &[T; 9]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x &= *y;
    }
}

/// [`and_with`], and whether anything is left in `a`.
#[inline]
fn and_left<T: CellBits>(a: &mut [T; 9], b: &[T; 9]) -> bool {
    let mut left = T::EMPTY;
    for (x, y) in a.iter_mut().zip(b) {
        *x &= *y;
        left |= *x;
    }
    !left.is_empty()
}

/// True when no plane holds a cell.
#[inline]
fn is_empty<T: CellBits>(a: &[T; 9]) -> bool {
    a.iter().all(|p| p.is_empty())
}

/// True when candidate `q` is in the planes.
#[inline]
fn has<T: CellBits>(a: &[T; 9], q: u16) -> bool {
    a[digit_of(q)].contains(Cell::from_index(cell_of(q)))
}

/// The chains of one hint: the runs and their target nodes.
type Parts<'a, S> = [(&'a Run<S>, u32)];

/// The complexity of a hint made of `parts` if it is at most `limit` (SE `getComplexity`).
fn complexity<S: Size>(
    g: &Geometry<S>,
    counter: &mut Counter,
    table: &[NestedInfo],
    parts: &Parts<'_, S>,
    limit: u32,
) -> Option<u32> {
    let lb: u32 = parts
        .iter()
        .map(|&(r, t)| u32::from(r.nodes[t as usize].lb))
        .sum();
    if lb > limit {
        return None;
    }
    counter.begin();
    let mut flat = 0u32;
    for &(r, t) in parts {
        let left = limit - flat;
        let n = counter.count(g, r, table, t, left);
        if n > left {
            return None;
        }
        flat += n;
    }
    let total = flat.saturating_add(counter.nested_complexity());
    (total <= limit).then_some(total)
}

/// For a nested search: the rule parents and fingerprint of a hint made of `parts`;
/// `root` is the cause given to the assumptions (cell and region hints rely on the cell
/// or house they start from).
fn nested_parents<S: Size>(
    g: &Geometry<S>,
    counter: &mut Counter,
    ctx: &Cands<S>,
    cur: &Cands<S>,
    parts: &Parts<'_, S>,
    root: Cause,
    hint: &mut Hint<S>,
) {
    let mut sig = 0x0f0f_u64;
    for &(r, t) in parts {
        let mut acc = 0u64;
        counter.walk(g, r, t, |n| {
            acc = acc.wrapping_add(super::cycles::mix(
                1,
                u64::from(n.cand) << 1 | u64::from(n.on),
            ));
            if n.on {
                let cause = if n.cause == Cause::ASSUMPTION {
                    root
                } else {
                    n.cause
                };
                rule_parents_of(g, ctx, cur, n.cand, cause, &mut hint.parents);
            }
        });
        sig = super::cycles::mix(sig, acc);
    }
    hint.sig = sig;
}

/// Builds the hint of `technique` whose result is potential `target` (on: the digit is
/// placed and the cell's other candidates go; off: the candidate goes), made of `parts`,
/// and offers it if worth it and good enough.
#[allow(clippy::too_many_arguments)]
fn offer<S: Size>(
    g: &Geometry<S>,
    src: &Cands<S>,
    spec: &Spec,
    technique: Technique,
    sort_key: u8,
    target: (u16, bool),
    parts: &Parts<'_, S>,
    root: Cause,
    counter: &mut Counter,
    tables: (&[NestedInfo], &[NestedChain]),
    sink: &mut Sink<S>,
) {
    let (table, traces) = tables;
    let (cand, on) = target;
    let (c, d) = (cell_of(cand), digit_of(cand));
    let cell = Cell::from_index(c);
    // An "on" result removes the cell's other candidates: worth it only if it has some.
    if on && src.cells[c].bits() & !(1 << d) == 0 {
        return;
    }
    let limit = sink.limit(spec.base, sort_key);
    let Some(cx) = complexity(g, counter, table, parts, limit) else {
        return;
    };
    let difficulty = spec.base + length_bonus(cx.saturating_sub(2));
    if !sink.wants(difficulty, cx, sort_key) || !sink.first_for(cand, on, difficulty, cx, sort_key)
    {
        return;
    }
    let mut hint = Hint::<S>::new(technique, difficulty, cx, sort_key);
    if on {
        hint.place(src, cell, Digit::from_index(d));
    } else {
        hint.remove_cand(cand);
    }
    for &(r, t) in parts {
        let n = &r.nodes[t as usize];
        hint.cells.insert(Cell::from_index(cell_of(n.cand)));
        hint.digits.insert(Digit::from_index(digit_of(n.cand)));
    }
    hint.cells.insert(cell);
    if let Some(ctx) = sink.context() {
        let ctx = *ctx;
        nested_parents(g, counter, &ctx, src, parts, root, &mut hint);
    }
    if sink.offer(&hint) && sink.tracing() {
        let mut b = trace::Builder::new(traces);
        for &(r, t) in parts {
            b.run_chain(g, r, t);
        }
        sink.keep_trace(b.finish(trace::kind_of(sort_key, root)));
    }
}

/// What a run deduced, as sets, and whether it met a contradiction: all that is needed
/// to know whether a hint may come from it. The full run (with its parents) is rebuilt
/// only when a hint is to be made.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Outcome<S: Size> {
    on: [S::Set; 9],
    off: [S::Set; 9],
    contradiction: bool,
}

impl<S: Size> Outcome<S> {
    fn empty() -> Outcome<S> {
        Outcome {
            on: [S::Set::EMPTY; 9],
            off: [S::Set::EMPTY; 9],
            contradiction: false,
        }
    }

    fn of(run: &Run<S>) -> Outcome<S> {
        debug_assert!(!run.restored, "a restored run has no planes");
        Outcome {
            on: run.on_planes,
            off: run.off_planes,
            contradiction: run.contradiction.is_some(),
        }
    }
}

/// The outcomes of the "on" runs met during one search, by candidate (a run is the same
/// wherever SE starts it: from its cell, or from another place of a house).
#[derive(Clone, Debug)]
pub(crate) struct OutcomeCache<S: Size> {
    outs: Vec<Outcome<S>>,
    stamp: Vec<u32>,
    generation: u32,
    /// The runs themselves (nodes and contradiction), where kept: dynamic runs without
    /// nesting, whose hints need them again ([`Run::restore`]).
    runs: KeptRuns,
    /// `generation` where `runs` holds the run of the outcome.
    kept: Vec<u32>,
}

impl<S: Size> OutcomeCache<S> {
    /// A cache with room for the runs of a search ([`KeptRuns`]): 48 nodes a candidate,
    /// about what the dynamic search of a hard puzzle keeps (the runs that meet a
    /// contradiction have about 150).
    pub(crate) fn new() -> OutcomeCache<S> {
        OutcomeCache::with_room(48 * cand_count::<S>())
    }

    /// A cache that keeps outcomes only (no runs).
    pub(crate) fn outcomes_only() -> OutcomeCache<S> {
        OutcomeCache::with_room(0)
    }

    fn with_room(room: usize) -> OutcomeCache<S> {
        OutcomeCache {
            outs: vec![Outcome::empty(); cand_count::<S>()],
            stamp: vec![0; cand_count::<S>()],
            generation: 0,
            runs: KeptRuns::new(cand_count::<S>(), room),
            kept: vec![0; cand_count::<S>()],
        }
    }

    /// Keeps the nodes and contradiction of `run`, the run of candidate `i`.
    fn keep_run(&mut self, i: usize, run: &Run<S>) {
        if self.runs.keep(i, run) {
            self.kept[i] = self.generation;
        }
    }

    /// Keeps the run of candidate `i` that `other` keeps, if it does.
    fn keep_from(&mut self, i: usize, other: &OutcomeCache<S>) {
        if other.kept[i] == other.generation && self.runs.keep_from(i, &other.runs) {
            self.kept[i] = self.generation;
        }
    }

    /// True when `runs` keeps the run of candidate `i`.
    fn kept(&self, i: usize) -> bool {
        self.kept[i] == self.generation
    }

    /// Takes in every outcome `other` holds.
    pub(crate) fn absorb(&mut self, other: &OutcomeCache<S>) {
        for i in 0..self.outs.len() {
            if other.stamp[i] == other.generation {
                self.outs[i] = other.outs[i];
                self.stamp[i] = self.generation;
            }
        }
    }

    /// Forgets every outcome.
    pub(crate) fn clear(&mut self) {
        self.runs.clear();
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.kept.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
        }
    }
}

/// The outcomes of the runs of the same level's search on an earlier board (the present
/// grid less nothing it did not have), for the runs that read nothing that changed.
///
/// A dynamic run (no nesting) reads, for each of its potentials, its cell's candidates
/// and the digit's places in the cell's houses, on the grid as the run has changed it so
/// far: when none of its potentials shares a cell with a removed candidate, or a house
/// with a removed candidate of its digit ([`Earlier::dynamic`]), the run is the same.
///
/// A static run reads, for each "on" potential, the cell's other candidates and the
/// digit's places among its peers (the "off" potentials it implies), and for each "off"
/// potential its links; all of these are in its outcome. When none of its potentials is a
/// candidate whose links changed ([`super::board_reach::changed_links`]), the run on the
/// present grid takes the same potentials, less the removed candidates it turned off
/// (which had no links, so implied nothing), and meets the same contradiction, if any: its
/// outcome is the earlier one without them.
pub(crate) struct Earlier<'a, S: Size> {
    cache: &'a OutcomeCache<S>,
    /// The candidates whose links changed since.
    changed: [S::Set; 9],
    /// The candidates removed since.
    removed: [S::Set; 9],
}

impl<'a, S: Size> Earlier<'a, S> {
    /// For static runs on `cur`, which came from `board`.
    pub(crate) fn static_runs(
        g: &Geometry<S>,
        cache: &'a OutcomeCache<S>,
        board: &[S::Set; 9],
        cur: &Cands<S>,
        y: bool,
    ) -> Earlier<'a, S> {
        let mut removed = *board;
        for (r, c) in removed.iter_mut().zip(&cur.planes) {
            *r = *r - *c;
        }
        Earlier {
            cache,
            changed: super::board_reach::changed_links(g, board, cur, y, true),
            removed,
        }
    }

    /// For dynamic runs (no nesting) on `cur`, which came from `board`: every candidate
    /// sharing a cell with a removed one, or a house with a removed one of its digit,
    /// counts as changed (so no run that is taken has a removed candidate).
    pub(crate) fn dynamic(
        g: &Geometry<S>,
        cache: &'a OutcomeCache<S>,
        board: &[S::Set; 9],
        cur: &Cands<S>,
    ) -> Earlier<'a, S> {
        let mut lost = S::Set::EMPTY;
        let mut changed = [S::Set::EMPTY; 9];
        for (d, (b, c)) in board.iter().zip(&cur.planes).enumerate() {
            for x in *b - *c {
                lost.insert(x);
                changed[d] |= g.peers(x);
                changed[d].insert(x);
            }
        }
        for ch in &mut changed {
            *ch |= lost;
        }
        Earlier {
            cache,
            changed,
            removed: [S::Set::EMPTY; 9],
        }
    }

    /// Writes to `out` the outcome of the run of `cand` on the present grid, when the
    /// earlier one tells; false when it does not.
    #[inline]
    fn outcome_into(&self, cand: u16, out: &mut Outcome<S>) -> bool {
        let i = cand as usize;
        if self.cache.stamp[i] != self.cache.generation {
            return false;
        }
        let o = &self.cache.outs[i];
        for d in 0..9 {
            if !((o.on[d] | o.off[d]) & self.changed[d]).is_empty() {
                return false;
            }
        }
        for d in 0..9 {
            out.on[d] = o.on[d];
            out.off[d] = o.off[d] - self.removed[d];
        }
        out.contradiction = o.contradiction;
        true
    }
}

/// How to run a chain: the geometry, grid, links, mode, nesting and budget of one search.
struct Ctx<'a, 'n, S: Size> {
    g: &'a Geometry<S>,
    src: &'a Cands<S>,
    mode: Mode,
    links: &'a Links,
    nest: Option<&'n mut Nest<S>>,
    budget: &'a mut Budget,
    /// Outcomes worked out beforehand (a spread search), looked up first.
    shared: Option<&'a OutcomeCache<S>>,
    /// The same search's outcomes on an earlier board (static runs).
    earlier: Option<&'a Earlier<'a, S>>,
    /// The potentials still to take in turn, for [`closure`].
    stack: &'a mut Vec<u16>,
    /// False where no hint is made from this cache's runs ([`outcomes`]).
    keep_runs: bool,
}

impl<'a, 'n, S: Size> Ctx<'a, 'n, S> {
    /// Sets up a search with `spec` on `src`: the static links built (static levels), the
    /// outcome cache emptied.
    #[allow(clippy::too_many_arguments)]
    fn prepare(
        g: &'a Geometry<S>,
        src: &'a Cands<S>,
        spec: Spec,
        links: &'a mut Links,
        cache: &mut OutcomeCache<S>,
        stack: &'a mut Vec<u16>,
        nest: Option<&'n mut Nest<S>>,
        budget: &'a mut Budget,
        shared: Option<&'a OutcomeCache<S>>,
        earlier: Option<&'a Earlier<'a, S>>,
    ) -> Self {
        let mode = spec.mode();
        if !spec.dynamic {
            links.build(g, src, mode.y, true);
        }
        cache.clear();
        Ctx {
            g,
            src,
            mode,
            links,
            nest,
            budget,
            shared,
            earlier,
            stack,
            keep_runs: true,
        }
    }

    /// Makes `buf` hold the full run of `cand` assumed on (`held` tracks what `buf`
    /// holds), from `cache` if it keeps it. False when the budget ran out.
    fn exact(
        &mut self,
        cand: u16,
        buf: &mut Run<S>,
        held: &mut u16,
        cache: &OutcomeCache<S>,
    ) -> bool {
        if *held == cand {
            return true;
        }
        *held = u16::MAX;
        let i = usize::from(cand);
        if cache.kept(i) {
            buf.restore(&cache.runs, i);
            // The same charge as making it.
            if !self.budget.charge(cache.runs.len(i) as u64 / 2 + 2) {
                return false;
            }
            *held = cand;
            return true;
        }
        if !chain(
            self.g,
            buf,
            self.src,
            self.mode,
            self.links,
            cand,
            true,
            self.nest.as_deref_mut(),
            self.budget,
        ) {
            return false;
        }
        *held = cand;
        true
    }

    /// The outcome of the run of `cand` assumed on, from the cache or by running it in
    /// `buf`. `None` when the budget ran out.
    fn outcome(
        &mut self,
        cand: u16,
        buf: &mut Run<S>,
        held: &mut u16,
        cache: &mut OutcomeCache<S>,
    ) -> Option<Outcome<S>> {
        self.outcome_ref(cand, buf, held, cache).copied()
    }

    /// [`Ctx::outcome`], borrowed from where it is kept (no copy: most look-ups are hits).
    fn outcome_ref<'c>(
        &mut self,
        cand: u16,
        buf: &mut Run<S>,
        held: &mut u16,
        cache: &'c mut OutcomeCache<S>,
    ) -> Option<&'c Outcome<S>>
    where
        'a: 'c,
    {
        let i = cand as usize;
        if let Some(sh) = self.shared
            && sh.stamp[i] == sh.generation
        {
            return Some(&sh.outs[i]);
        }
        if cache.stamp[i] != cache.generation && !self.work_out(cand, buf, held, cache) {
            return None;
        }
        Some(&cache.outs[i])
    }

    /// Works out the outcome of the run of `cand` assumed on into `cache` (not there yet).
    /// False when the budget ran out.
    fn work_out(
        &mut self,
        cand: u16,
        buf: &mut Run<S>,
        held: &mut u16,
        cache: &mut OutcomeCache<S>,
    ) -> bool {
        let i = cand as usize;
        if let Some(e) = self.earlier
            && e.outcome_into(cand, &mut cache.outs[i])
        {
            if self.keeps_runs() {
                cache.keep_from(i, e.cache);
            }
        } else {
            let closed = if self.mode.dynamic || self.mode.level > 0 {
                false
            } else {
                // A static run: its closure, from those already known.
                let (o, work) = closure(
                    self.g,
                    self.src,
                    self.mode.y,
                    self.links,
                    cand,
                    cache,
                    self.stack,
                );
                if !self.budget.charge(work / 2 + 2) {
                    return false;
                }
                let ok = !o.contradiction;
                if ok {
                    cache.outs[i] = o;
                }
                ok
            };
            if !closed {
                // A contradiction stops a run where SE's order meets it: run it.
                if !self.exact(cand, buf, held, cache) {
                    return false;
                }
                if self.keeps_runs() {
                    cache.keep_run(i, buf);
                }
                cache.outs[i] = Outcome::of(buf);
            }
        }
        cache.stamp[i] = cache.generation;
        true
    }

    /// The outcome of the run of `cand` assumed on, if already worked out.
    fn known<'c>(&self, cand: u16, cache: &'c OutcomeCache<S>) -> Option<&'c Outcome<S>>
    where
        'a: 'c,
    {
        let i = cand as usize;
        match self.shared {
            Some(sh) if sh.stamp[i] == sh.generation => Some(&sh.outs[i]),
            _ => (cache.stamp[i] == cache.generation).then(|| &cache.outs[i]),
        }
    }

    /// True when the runs are kept with their outcomes (dynamic runs without nesting: the
    /// hints they give need them again, and making one costs much more than copying it).
    fn keeps_runs(&self) -> bool {
        self.keep_runs && self.mode.dynamic && self.mode.level == 0
    }

    /// The nested hints table of the current search, and their chains when traced.
    fn tables(&self) -> (&[NestedInfo], &[NestedChain]) {
        match self.nest.as_deref() {
            Some(n) => (&n.table, &n.traces),
            None => (&[], &[]),
        }
    }
}

/// The outcome of the static run of `start` assumed on, over `links`, as a set: every
/// potential it reaches (the closure of the start under the static implications), and
/// whether the closure holds a candidate both on and off; with the number of potentials
/// taken in turn, for the budget.
///
/// A static run that meets no contradiction takes in its whole closure, in whatever order,
/// so its outcome is the closure; one that meets a contradiction stops where SE's order
/// meets it, and only a full run gives that (the caller runs it when the closure holds a
/// contradiction, which is exactly when the run meets one). Where the closure reaches the
/// "on" potential of a candidate whose own closure is in `cache` (and holds no
/// contradiction), that closure is taken in whole instead of being worked out again: the
/// runs of a search share most of their potentials.
fn closure<S: Size>(
    g: &Geometry<S>,
    src: &Cands<S>,
    y: bool,
    links: &Links,
    start: u16,
    cache: &OutcomeCache<S>,
    stack: &mut Vec<u16>,
) -> (Outcome<S>, u64) {
    let mut o = Outcome::<S>::empty();
    let (sc, sd) = (cell_of(start), digit_of(start));
    o.on[sd].insert(Cell::from_index(sc));
    stack.clear();
    stack.push(start);
    let mut work = 0u64;
    while let Some(p) = stack.pop() {
        work += 1;
        let (c, d) = (cell_of(p), digit_of(p));
        let cell = Cell::from_index(c);
        // The "off" potentials it implies and has not met yet, taken in digit order: the
        // cell's other candidates below `d`, the digit's places among the peers, the
        // cell's other candidates above `d`.
        let mut others = 0u16;
        if y {
            for e in src.cells[c] {
                let e = e.index();
                if e != d && !o.off[e].contains(cell) {
                    others |= 1 << e;
                }
            }
        }
        let peers = (src.planes[d] & g.peers(cell)) - o.off[d];
        let below = others & ((1 << d) - 1);
        for e in DigitSet::from_bits(below) {
            o.off[e.index()].insert(cell);
            take_off(cand_of(c, e.index()), links, cache, &mut o, stack);
        }
        o.off[d] |= peers;
        for x in peers {
            take_off(cand_of(x.index(), d), links, cache, &mut o, stack);
        }
        for e in DigitSet::from_bits(others & !below) {
            o.off[e.index()].insert(cell);
            take_off(cand_of(c, e.index()), links, cache, &mut o, stack);
        }
        work += u64::from(others.count_ones()) + peers.len() as u64;
    }
    o.contradiction = meets(&o.on, &o.off);
    (o, work)
}

/// [`closure`]: takes in what the "off" potential `q` implies, or the closure of a run
/// already known where it reaches one.
#[inline(always)]
fn take_off<S: Size>(
    q: u16,
    links: &Links,
    cache: &OutcomeCache<S>,
    o: &mut Outcome<S>,
    stack: &mut Vec<u16>,
) {
    for imp in links.get(q) {
        let (qc, qd) = (cell_of(imp.cand), digit_of(imp.cand));
        let qcell = Cell::from_index(qc);
        if o.on[qd].contains(qcell) {
            continue;
        }
        let i = imp.cand as usize;
        if cache.stamp[i] == cache.generation && !cache.outs[i].contradiction {
            let k = &cache.outs[i];
            for d2 in 0..9 {
                o.on[d2] |= k.on[d2];
                o.off[d2] |= k.off[d2];
            }
        } else {
            o.on[qd].insert(qcell);
            stack.push(imp.cand);
        }
    }
}

/// True when the two sets of planes share a candidate.
#[inline]
fn meets<T: CellBits>(a: &[T; 9], b: &[T; 9]) -> bool {
    a.iter().zip(b).any(|(x, y)| !(*x & *y).is_empty())
}

/// Runs one chaining producer of the multiple/dynamic family on `src` and offers every
/// hint to `sink`. False when the budget ran out.
///
/// Only the cells of `cells` are searched from; `shared` holds outcomes of runs worked out
/// beforehand ([`outcomes`]), if any, and `earlier` those of the same search on an earlier
/// board ([`Earlier`]). With a `memo` (Nishio, which offers contradictions
/// only, each run keeping to its start's digit), the digits it vouches for are skipped, and
/// those whose runs meet no contradiction are remembered ([`super::plane_memo`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn search<S: Size>(
    g: &Geometry<S>,
    src: &Cands<S>,
    cells: std::ops::Range<usize>,
    spec: Spec,
    eng: &mut Engine<S>,
    nest: Option<&mut Nest<S>>,
    shared: Option<&OutcomeCache<S>>,
    earlier: Option<&Earlier<'_, S>>,
    mut memo: Option<&mut PlaneMemo<S>>,
    sink: &mut Sink<S>,
    budget: &mut Budget,
) -> bool {
    if !spec.nishio {
        memo = None;
    }
    let multi = if memo.is_some() {
        multi_cells(src)
    } else {
        S::Set::EMPTY
    };
    let skip = match memo.as_deref() {
        Some(m) => m.clean(src, multi),
        None => DigitSet::EMPTY,
    };
    // Digits of the starts whose runs met a contradiction.
    let mut contradicted = DigitSet::EMPTY;
    let Engine {
        runs,
        counter,
        links,
        cache,
        stack,
        ..
    } = eng;
    let mode = spec.mode();
    let mut cx = Ctx::prepare(
        g, src, spec, links, cache, stack, nest, budget, shared, earlier,
    );
    let (value_runs, rest) = runs.split_at_mut(OFF_RUN);
    let (off_run, region_runs) = rest.split_at_mut(1);
    let off_run = &mut off_run[0];
    let mut held_values = [u16::MAX; OFF_RUN];
    let mut held_regions = [u16::MAX; RUNS - OFF_RUN - 1];
    for c in cells {
        // Wanting the first hint: the one kept ends the search.
        if sink.done() {
            return true;
        }
        let cs = src.cells[c];
        let card = cs.len();
        if !(card > 2 || (card > 1 && spec.dynamic)) {
            continue;
        }
        // What every candidate of the cell implies (cell forcing chains).
        let mut cell_on = [S::Set::EMPTY; 9];
        let mut cell_off = [S::Set::EMPTY; 9];
        // The "on" outcomes of the cell's candidates, worked out first where they tell
        // which "off" runs can give nothing ([`off_run_needed`]).
        let ons_first = spec.dynamic && mode.y && mode.level == 0;
        if ons_first {
            for (vi, v) in cs.iter().enumerate() {
                let start = cand_of(c, v.index());
                if cx
                    .outcome_ref(start, &mut value_runs[vi], &mut held_values[vi], cache)
                    .is_none()
                {
                    return false;
                }
            }
        }
        for (vi, v) in cs.iter().enumerate() {
            if skip.contains(v) {
                continue;
            }
            let start = cand_of(c, v.index());
            let Some(o_on) = cx.outcome(start, &mut value_runs[vi], &mut held_values[vi], cache)
            else {
                return false;
            };
            if vi == 0 {
                cell_on = o_on.on;
                cell_off = o_on.off;
            } else {
                and_with(&mut cell_on, &o_on.on);
                and_with(&mut cell_off, &o_on.off);
            }
            let mut off_ran = false;
            if spec.dynamic {
                let double = card >= 3 && sink.limit(spec.base, 1) >= 2;
                // The partner's outcome where it costs no run that a hint may need again:
                // the cell's other candidate (its run goes where it would), one known, or
                // any without nesting (the run is kept with the outcome).
                let partner = match off_partner(g, src, start, mode.y) {
                    Some(p) if card == 2 && mode.y => {
                        let wi = 1 - vi;
                        let Some(o) =
                            cx.outcome_ref(p, &mut value_runs[wi], &mut held_values[wi], cache)
                        else {
                            return false;
                        };
                        Some(o)
                    }
                    Some(p) if mode.level == 0 => {
                        let mut held = u16::MAX;
                        let Some(o) = cx.outcome_ref(p, off_run, &mut held, cache) else {
                            return false;
                        };
                        Some(o)
                    }
                    Some(p) => cx.known(p, cache),
                    None => None,
                };
                off_ran = match partner {
                    Some(p) => {
                        p.contradiction
                            || double && (meets(&o_on.on, &p.on) || meets(&o_on.off, &p.off))
                    }
                    None => {
                        let mut ons = [None; 9];
                        if ons_first {
                            for (w, x) in cs.iter().enumerate() {
                                ons[w] = cx.known(cand_of(c, x.index()), cache);
                            }
                        }
                        off_run_needed(&ons[..card as usize], vi, double)
                    }
                };
                if off_ran {
                    if !chain(
                        g,
                        off_run,
                        src,
                        mode,
                        cx.links,
                        start,
                        false,
                        cx.nest.as_deref_mut(),
                        cx.budget,
                    ) {
                        return false;
                    }
                } else {
                    // It meets no contradiction and nothing of it can make a hint.
                    off_run.reset(start, false);
                }
            }
            if o_on.contradiction || off_run.contradiction.is_some() {
                contradicted.insert(v);
            }
            if spec.dynamic {
                // Contradictions (SE sort key 7).
                if o_on.contradiction {
                    if !cx.exact(start, &mut value_runs[vi], &mut held_values[vi], cache) {
                        return false;
                    }
                    let on_run = &value_runs[vi];
                    if let Some((a, b)) = on_run.contradiction {
                        let parts = [(on_run, a), (on_run, b)];
                        offer(
                            g,
                            src,
                            &spec,
                            spec.binary_technique,
                            7,
                            (start, false),
                            &parts,
                            Cause::ASSUMPTION,
                            counter,
                            cx.tables(),
                            sink,
                        );
                    }
                }
                if let Some((a, b)) = off_run.contradiction {
                    let parts = [(&*off_run, a), (&*off_run, b)];
                    offer(
                        g,
                        src,
                        &spec,
                        spec.binary_technique,
                        7,
                        (start, true),
                        &parts,
                        Cause::ASSUMPTION,
                        counter,
                        cx.tables(),
                        sink,
                    );
                }
            }
            if card >= 3
                && off_ran
                && !spec.nishio
                && sink.limit(spec.base, 1) >= 2
                && (meets(&o_on.on, &off_run.on_planes) || meets(&o_on.off, &off_run.off_planes))
            {
                // Double forcing chains (sort key 1).
                if !cx.exact(start, &mut value_runs[vi], &mut held_values[vi], cache) {
                    return false;
                }
                let on_run = &value_runs[vi];
                for &i in &on_run.ons {
                    let q = on_run.nodes[i as usize].cand;
                    let j = off_run.on_idx[q as usize];
                    if j != NONE {
                        let parts = [(on_run, i), (&*off_run, j)];
                        offer(
                            g,
                            src,
                            &spec,
                            spec.binary_technique,
                            1,
                            (q, true),
                            &parts,
                            Cause::ASSUMPTION,
                            counter,
                            cx.tables(),
                            sink,
                        );
                    }
                }
                for &i in &on_run.offs {
                    let q = on_run.nodes[i as usize].cand;
                    let j = off_run.off_idx[q as usize];
                    if j != NONE {
                        let parts = [(on_run, i), (&*off_run, j)];
                        offer(
                            g,
                            src,
                            &spec,
                            spec.binary_technique,
                            1,
                            (q, false),
                            &parts,
                            Cause::ASSUMPTION,
                            counter,
                            cx.tables(),
                            sink,
                        );
                    }
                }
            }
            if !spec.nishio {
                let ok = regions(
                    &mut cx,
                    &spec,
                    c,
                    v,
                    vi,
                    &o_on,
                    value_runs,
                    &mut held_values,
                    region_runs,
                    &mut held_regions,
                    cache,
                    counter,
                    sink,
                );
                if !ok {
                    return false;
                }
            }
        }
        if !spec.nishio
            && (card == 2 || (spec.multiple && card > 2))
            && sink.limit(spec.base, 5) >= card
        {
            // Cell forcing chains (sort key 5).
            let k = card as usize;
            let (on_int, off_int) = (cell_on, cell_off);
            if is_empty(&on_int) && is_empty(&off_int) {
                continue;
            }
            for (vi, v) in cs.iter().enumerate() {
                let start = cand_of(c, v.index());
                if !cx.exact(start, &mut value_runs[vi], &mut held_values[vi], cache) {
                    return false;
                }
            }
            for (bits, on) in [(on_int, true), (off_int, false)] {
                if is_empty(&bits) {
                    continue;
                }
                let order = if on {
                    &value_runs[0].ons
                } else {
                    &value_runs[0].offs
                };
                for &i in order {
                    let q = value_runs[0].nodes[i as usize].cand;
                    if !has(&bits, q) {
                        continue;
                    }
                    let mut parts: [(&Run<S>, u32); 9] = [(&value_runs[0], 0); 9];
                    for (m, r) in value_runs[..k].iter().enumerate() {
                        let idx = if on {
                            r.on_idx[q as usize]
                        } else {
                            r.off_idx[q as usize]
                        };
                        parts[m] = (r, idx);
                    }
                    offer(
                        g,
                        src,
                        &spec,
                        spec.cell_technique,
                        5,
                        (q, on),
                        &parts[..k],
                        Cause::CELL,
                        counter,
                        cx.tables(),
                        sink,
                    );
                }
            }
        }
    }
    if let Some(m) = memo {
        for d in Digit::all() {
            if !skip.contains(d) && !contradicted.contains(d) {
                m.record(d, src, multi);
            }
        }
    }
    true
}

/// A candidate whose dynamic "on" run takes in the same potentials as the "off" run of
/// `start`, stage by stage, and meets a contradiction exactly when it does, at any level:
/// the other place of `start`'s digit in a house where it has two, or (with the cell's
/// links, `y`) the other candidate of a cell of two. "`start` off" implies "`p` on" and
/// the reverse, so both runs take in the closure of the two under the links, then the
/// nested hints found on the grid at its end (a function of that grid), and so on; a
/// contradiction is met within the same stage of both.
fn off_partner<S: Size>(g: &Geometry<S>, src: &Cands<S>, start: u16, y: bool) -> Option<u16> {
    let (c, d) = (cell_of(start), digit_of(start));
    let cs = src.cells[c];
    if y && cs.len() == 2 {
        let other = (cs.bits() & !(1 << d)).trailing_zeros() as usize;
        return Some(cand_of(c, other));
    }
    let me = Cell::from_index(c);
    for &h in g.cell_houses(me).ids() {
        let mut pos = src.planes[d] & g.house_set(h as usize);
        if pos.len() == 2 {
            pos.remove(me);
            let other = pos.first()?;
            return Some(cand_of(other.index(), d));
        }
    }
    None
}

/// Without nesting, with the cell's links: false when the dynamic run of the `vi`th
/// candidate of a cell assumed off (the cell's candidates' "on" outcomes are `ons`) can
/// neither meet a contradiction nor, with `double` (double forcing chains still wanted),
/// share a potential with that candidate's "on" run, so that no hint can come from it.
///
/// Without nesting the closure grows with what is assumed, and "`w` on" implies "`v` off"
/// for every other candidate `w` of the cell: so "`v` off" takes in only potentials that
/// every such `w`'s run without a contradiction takes in, and meets no contradiction when
/// there is one.
fn off_run_needed<S: Size>(ons: &[Option<&Outcome<S>>], vi: usize, double: bool) -> bool {
    let Some(mine) = ons.get(vi).copied().flatten() else {
        return true;
    };
    // What every other candidate's run without a contradiction implies.
    let mut bound: Option<Outcome<S>> = None;
    for (w, o) in ons.iter().enumerate() {
        let Some(o) = o else {
            return true;
        };
        if w == vi || o.contradiction {
            continue;
        }
        match &mut bound {
            None => bound = Some(**o),
            Some(b) => {
                and_with(&mut b.on, &o.on);
                and_with(&mut b.off, &o.off);
            }
        }
    }
    match bound {
        None => true,
        Some(b) => double && (meets(&mine.on, &b.on) || meets(&mine.off, &b.off)),
    }
}

/// Works out, into `eng.cache` (cleared first), the outcome of the run of every candidate
/// of the cells of `cells` that have two candidates or more, as [`search`] with `spec`
/// would: the first half of a spread search, whose parts then share what all of them
/// found. False when the budget ran out.
pub(crate) fn outcomes<S: Size>(
    g: &Geometry<S>,
    src: &Cands<S>,
    cells: std::ops::Range<usize>,
    spec: Spec,
    eng: &mut Engine<S>,
    nest: Option<&mut Nest<S>>,
    budget: &mut Budget,
) -> bool {
    let Engine {
        runs,
        links,
        cache,
        stack,
        ..
    } = eng;
    let mut cx = Ctx::prepare(g, src, spec, links, cache, stack, nest, budget, None, None);
    // The parts' searches take these outcomes from the shared cache and empty their own:
    // a run kept here would never be restored.
    cx.keep_runs = false;
    let mut held = u16::MAX;
    for c in cells {
        let cs = src.cells[c];
        if cs.len() < 2 {
            continue;
        }
        for v in cs {
            let start = cand_of(c, v.index());
            if cx.outcome(start, &mut runs[0], &mut held, cache).is_none() {
                return false;
            }
        }
    }
    true
}

/// SE `doRegionChainings` for candidate `v` of cell `c` (its outcome is `o_on`, its run
/// goes in `value_runs[vi]` when needed).
#[allow(clippy::too_many_arguments)]
fn regions<S: Size>(
    cx: &mut Ctx<'_, '_, S>,
    spec: &Spec,
    c: usize,
    v: Digit,
    vi: usize,
    o_on: &Outcome<S>,
    value_runs: &mut [Run<S>],
    held_values: &mut [u16; OFF_RUN],
    region_runs: &mut [Run<S>],
    held_regions: &mut [u16; RUNS - OFF_RUN - 1],
    cache: &mut OutcomeCache<S>,
    counter: &mut Counter,
    sink: &mut Sink<S>,
) -> bool {
    let d = v.index();
    let me = Cell::from_index(c);
    let src = cx.src;
    let g = cx.g;
    for &hid in g.cell_houses(me).ids() {
        let cause = Cause::region(hid as usize);
        let h = g.house_set(hid as usize);
        let pos: S::Set = src.planes[d] & h;
        let n = pos.len();
        if !(n == 2 || (spec.multiple && n > 2)) || pos.first() != Some(me) {
            continue;
        }
        if n > 2 && sink.regions_of_two {
            continue;
        }
        if sink.limit(spec.base, 6) < n {
            continue;
        }
        // What every place of the digit in the house implies. Once nothing is left, the
        // remaining chains cannot change the outcome (SE runs them, to no effect).
        let mut on_int = o_on.on;
        let mut off_int = o_on.off;
        let mut m = 0;
        let mut left = true;
        for x in pos {
            if x == me {
                continue;
            }
            let start = cand_of(x.index(), d);
            let Some(o) = cx.outcome_ref(start, &mut region_runs[m], &mut held_regions[m], cache)
            else {
                return false;
            };
            left = and_left(&mut on_int, &o.on) | and_left(&mut off_int, &o.off);
            m += 1;
            if !left {
                break;
            }
        }
        if !left {
            continue;
        }
        // A hint: the full runs are needed.
        if !cx.exact(
            cand_of(c, d),
            &mut value_runs[vi],
            &mut held_values[vi],
            cache,
        ) {
            return false;
        }
        let mut j = 0;
        for x in pos {
            if x == me {
                continue;
            }
            if !cx.exact(
                cand_of(x.index(), d),
                &mut region_runs[j],
                &mut held_regions[j],
                cache,
            ) {
                return false;
            }
            j += 1;
        }
        let on_run = &value_runs[vi];
        for (bits, on) in [(on_int, true), (off_int, false)] {
            if is_empty(&bits) {
                continue;
            }
            let order = if on { &on_run.ons } else { &on_run.offs };
            for &i in order {
                let q = on_run.nodes[i as usize].cand;
                if !has(&bits, q) {
                    continue;
                }
                // Chains in the order of the house's places (ours is the first).
                let mut parts: [(&Run<S>, u32); 9] = [(on_run, i); 9];
                for (j, r) in region_runs[..m].iter().enumerate() {
                    let idx = if on {
                        r.on_idx[q as usize]
                    } else {
                        r.off_idx[q as usize]
                    };
                    parts[j + 1] = (r, idx);
                }
                offer(
                    g,
                    src,
                    spec,
                    spec.region_technique,
                    6,
                    (q, on),
                    &parts[..m + 1],
                    cause,
                    counter,
                    cx.tables(),
                    sink,
                );
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::geometry::S81;
    use crate::core::logic::testutil::{board_from_line, cg, thinned};
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn a_kept_dynamic_run_restores_to_the_run() {
        let g = cg();
        let board = board_from_line(
            "..3..6.8....1..2......7...4..9..8.6..3..4...1.7.2.....3....5.....5...6..98.....5.",
        );
        // Fewer candidates, so that many runs meet a contradiction.
        let board = thinned(&board, 60, &mut Xoshiro256PlusPlus::seed_from_u64(3));
        let src = Cands::from_board(g, &board);
        let mode = Mode {
            y: true,
            dynamic: true,
            level: 0,
        };
        let links = Links::new(cand_count::<S81>());
        let (mut made, mut restored) = (Run::<S81>::new(), Run::<S81>::new());
        let mut kept = KeptRuns::new(cand_count::<S81>(), 4 * cand_count::<S81>());
        let mut contradictions = 0;
        for start in src.list() {
            for on in [true, false] {
                let mut budget = Budget::UNLIMITED;
                assert!(chain(
                    g,
                    &mut made,
                    &src,
                    mode,
                    &links,
                    start,
                    on,
                    None,
                    &mut budget
                ));
                kept.clear();
                assert!(kept.keep(usize::from(start), &made));
                // Over whatever the buffer held before.
                restored.restore(&kept, usize::from(start));
                assert_eq!(restored.nodes.len(), made.nodes.len());
                for (a, b) in restored.nodes.iter().zip(&made.nodes) {
                    assert_eq!(
                        (a.cand, a.on, a.lb, a.parent),
                        (b.cand, b.on, b.lb, b.parent)
                    );
                }
                assert_eq!(restored.on_idx, made.on_idx);
                assert_eq!(restored.off_idx, made.off_idx);
                assert_eq!(restored.ons, made.ons);
                assert_eq!(restored.offs, made.offs);
                assert!(restored.restored && !made.restored);
                assert_eq!(restored.contradiction, made.contradiction);
                contradictions += usize::from(made.contradiction.is_some());
            }
        }
        assert!(contradictions > 20, "{contradictions}");
    }

    /// The facts that let a search skip "off" runs ([`off_partner`], [`off_run_needed`]):
    /// "`v` off" takes in what its partner's "on" run takes in and meets a contradiction
    /// exactly when it does (also with nesting), and, without nesting, only what every
    /// other candidate's run of the cell without a contradiction takes in, without meeting
    /// a contradiction when there is one.
    #[test]
    fn an_off_run_is_its_partners_on_run_and_within_its_cells_other_runs() {
        let g = cg();
        let board = board_from_line(
            "..3..6.8....1..2......7...4..9..8.6..3..4...1.7.2.....3....5.....5...6..98.....5.",
        );
        let links = Links::new(cand_count::<S81>());
        let (mut off, mut on) = (Run::<S81>::new(), Run::<S81>::new());
        let mut nest = Nest::<S81>::new();
        let (mut partners, mut bounded, mut contradictions) = ([0; 2], 0, 0);
        for (seed, level, y) in [(3, 0, true), (4, 0, false), (5, 0, true), (3, 2, true)] {
            let board = thinned(&board, 40, &mut Xoshiro256PlusPlus::seed_from_u64(seed));
            let src = Cands::from_board(g, &board);
            nest.forget_all();
            nest.prepare(g, &board);
            let mode = Mode {
                y,
                dynamic: true,
                level,
            };
            let mut run = |r: &mut Run<S81>, start: u16, start_on: bool| {
                let mut budget = Budget::UNLIMITED;
                let nest = (level > 0).then_some(&mut nest);
                assert!(chain(
                    g,
                    r,
                    &src,
                    mode,
                    &links,
                    start,
                    start_on,
                    nest,
                    &mut budget
                ));
                (r.on_planes, r.off_planes, r.contradiction.is_some())
            };
            for v in src.list() {
                if level > 0 && off_partner(g, &src, v, y).is_none() {
                    continue;
                }
                let got = run(&mut off, v, false);
                contradictions += usize::from(got.2);
                if let Some(p) = off_partner(g, &src, v, y) {
                    let want = run(&mut on, p, true);
                    // Equal sets when neither stops early; a contradiction in both.
                    assert_eq!(got.2, want.2, "{v} off, {p} on");
                    if !got.2 {
                        assert_eq!((got.0, got.1), (want.0, want.1), "{v} off, {p} on");
                    }
                    partners[usize::from(level > 0)] += 1;
                }
                if level > 0 || !y {
                    continue;
                }
                let c = cell_of(v);
                for e in src.cells[c] {
                    let w = cand_of(c, e.index());
                    if w == v {
                        continue;
                    }
                    let other = run(&mut on, w, true);
                    if other.2 {
                        continue;
                    }
                    assert!(!got.2, "{v} off meets a contradiction, {w} on does not");
                    for d in 0..9 {
                        assert!((got.0[d] - other.0[d]).is_empty(), "{v} off, {w} on");
                        assert!((got.1[d] - other.1[d]).is_empty(), "{v} off, {w} on");
                    }
                    bounded += 1;
                }
            }
        }
        assert!(
            partners[0] > 80 && partners[1] > 20 && bounded > 200,
            "{partners:?} {bounded}"
        );
        assert!(contradictions > 20, "{contradictions}");
    }
}
