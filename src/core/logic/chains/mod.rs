//! The chaining techniques: bidirectional X-, Y- and XY-cycles, forcing X-chains and
//! forcing chains, Nishio, multiple (cell and region) forcing chains, dynamic forcing
//! chains and nested forcing chains, as Sudoku Explainer 1.2.1 rates them.
//!
//! The grader calls [`find`] once per chaining *level*, in SE's order (see [`ChainLevel`]);
//! `find` returns the step SE's `Chaining` producer would return first: SE collects every
//! hint of the level, sorts them by rating, then complexity (chain length), then kind
//! (`getSortKey`), and its solver applies the first. We search the same hints in the same
//! order but keep only the best so far, and cut every search short once what it could
//! still find can no longer beat it (the bound only prunes, it never changes the result).
//!
//! # Sudoku Explainer's chaining, as reproduced here
//!
//! From SE's `diuf/sudoku/solver/rules/chaining/` (`Chaining`, `ChainingHint`, `CycleHint`,
//! `ForcingChainHint`, `BinaryChainingHint`, `CellChainingHint`, `RegionChainingHint`,
//! `Potential`), in the SukakuExplainer fork that keeps SE 1.2.1's scale:
//!
//! - Levels, in solver order: `Chaining(false, false, false, 0)` (cycles and forcing
//!   chains, module `cycles`), aligned triple exclusion (run by the grader), then
//!   `Chaining(false, true, true, 0)` (Nishio), `Chaining(true, false, false, 0)`
//!   (multiple), `Chaining(true, true, false, 0)` (dynamic) and levels 1 to 4 of
//!   `Chaining(true, true, false, level)` (modules `forcing` and `nested`).
//! - Ratings: bidirectional X- or Y-cycle 6.5, forcing X-chain 6.6, XY-cycle and forcing
//!   chain 7.0, Nishio 7.5, multiple 8.0, dynamic 8.5, level 1 9.0, level `n >= 2`
//!   9.5 + 0.5 (n - 2); each plus [`super::length_bonus`] of the hint's complexity minus 2.
//! - Complexity: the number of distinct potentials among a chain's target and its
//!   ancestors, summed over the hint's chains, plus the complexities of the distinct nested
//!   chains among those ancestors.
//! - A chaining hint applies its removals, and places a digit when its result is an "on"
//!   potential (`ChainingHint.getCell`): such a step counts as a placement for EP.

mod bivalue_memo;
mod board_reach;
mod cycles;
mod forcing;
mod nested;
mod nested_basics;
mod on_reach;
mod plane_hints;
mod plane_memo;
mod potentials;
mod trace;

pub use trace::{
    ChainRecord, ChainTrace, NestedChain, NestedRecord, Potential, PotentialRecord, TraceKind,
    TracedChain, Via,
};

use potentials::{Cands, Cause, Counter, Run, cand_count, cand_of, cell_of, digit_of};

use std::sync::Mutex;

use super::{Board, Budget, Step, Technique, Tenths};
use crate::core::bitboard::DigitSet;
use crate::core::geometry::{CandBits, CellBits, Geometry, S81, Size};
use crate::core::index::{Cell, Digit};

/// One of Sudoku Explainer's chaining producers, in the order its solver tries them
/// (aligned triple exclusion, which is not a chain, sits between `Cycles` and `Nishio`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChainLevel {
    /// SE `Chaining(false, false, false, 0)`: bidirectional X-cycles and Y-cycles (6.5),
    /// forcing X-chains (6.6), forcing chains and bidirectional XY-cycles (7.0), plus length.
    Cycles,
    /// SE `Chaining(false, true, true, 0)`: Nishio forcing chains (7.5 + length).
    Nishio,
    /// SE `Chaining(true, false, false, 0)`: cell and region forcing chains (8.0 + length).
    Multiple,
    /// SE `Chaining(true, true, false, 0)`: dynamic forcing chains (8.5 + length).
    Dynamic,
    /// SE `Chaining(true, true, false, n)`, `n` in 1..=4: nested forcing chains
    /// (9.0, 9.5, 10.0, 10.5 + length).
    Nested(u8),
}

impl ChainLevel {
    /// The levels in the order the grader tries them.
    pub const ORDER: [ChainLevel; 8] = [
        ChainLevel::Cycles,
        ChainLevel::Nishio,
        ChainLevel::Multiple,
        ChainLevel::Dynamic,
        ChainLevel::Nested(1),
        ChainLevel::Nested(2),
        ChainLevel::Nested(3),
        ChainLevel::Nested(4),
    ];

    /// The lowest rating a step of this level can have (SE's base rating), in tenths.
    pub const fn base_rating(self) -> Tenths {
        match self {
            ChainLevel::Cycles => 65,
            ChainLevel::Nishio => 75,
            ChainLevel::Multiple => 80,
            ChainLevel::Dynamic => 85,
            ChainLevel::Nested(n) => 85 + 5 * n,
        }
    }
}

/// A chaining hint as SE builds it: its rating, complexity and sort key (what SE sorts
/// by), what it removes and places; for hints found inside a nested search, also the
/// outer chain's removals it relied on and a fingerprint of its chains.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hint<S: Size> {
    pub technique: Technique,
    pub difficulty: Tenths,
    pub complexity: u32,
    pub sort_key: u8,
    pub removals: [S::Set; 9],
    pub placement: Option<(Cell, Digit)>,
    pub cells: S::Set,
    pub digits: DigitSet,
    /// Nested searches only: the candidates the outer chain removed that this hint needs
    /// (SE `getRuleParents`).
    pub parents: S::Cands,
    /// Nested searches only: fingerprint of the chains (SE `FullChain`).
    pub sig: u64,
    /// Position in SE's order of generation, which breaks ties (0: the order of offers).
    pub generation: u64,
}

impl<S: Size> Hint<S> {
    pub(crate) fn new(
        technique: Technique,
        difficulty: Tenths,
        complexity: u32,
        sort_key: u8,
    ) -> Hint<S> {
        Hint {
            technique,
            difficulty,
            complexity,
            sort_key,
            removals: [S::Set::EMPTY; 9],
            placement: None,
            cells: S::Set::EMPTY,
            digits: DigitSet::EMPTY,
            parents: S::Cands::NONE,
            sig: 0,
            generation: 0,
        }
    }

    /// Its place in SE's order of hints: rating, complexity, kind, then generation.
    #[inline]
    pub(super) fn key(&self) -> (Tenths, u32, u8, u64) {
        (
            self.difficulty,
            self.complexity,
            self.sort_key,
            self.generation,
        )
    }

    /// The removal of candidate `cand`.
    #[inline]
    pub(crate) fn remove_cand(&mut self, cand: u16) {
        self.removals[digit_of(cand)].insert(Cell::from_index(cell_of(cand)));
    }

    /// The placement of `digit` in `cell`: the cell's other candidates on `cur` go.
    pub(crate) fn place(&mut self, cur: &Cands<S>, cell: Cell, digit: Digit) {
        for e in cur.cells[cell.index()] {
            if e != digit {
                self.removals[e.index()].insert(cell);
            }
        }
        self.placement = Some((cell, digit));
    }
}

/// The largest chain length (complexity minus 2) whose bonus is at most `b` tenths:
/// 4, 6, 8, 12, 16, 24, 32, ... (see [`super::length_bonus`]), up to `u32::MAX / 8`.
/// Read from a table made at compile time: the searches ask for it at every start.
#[inline]
fn threshold(b: u32) -> u32 {
    THRESHOLDS[(b as usize).min(THRESHOLDS.len() - 1)]
}

/// [`threshold`] for 0 to 63 tenths; from there on it stays at `u32::MAX / 8`.
const THRESHOLDS: [u32; 64] = {
    let mut t = [0u32; 64];
    let mut ceil: u32 = 4;
    let mut odd = false;
    let mut b = 0;
    while b < 64 {
        t[b] = ceil;
        if ceil < u32::MAX / 8 {
            ceil = if odd {
                ceil.saturating_mul(4) / 3
            } else {
                ceil.saturating_mul(3) / 2
            };
            odd = !odd;
            if ceil > u32::MAX / 8 {
                ceil = u32::MAX / 8;
            }
        }
        b += 1;
    }
    assert!(t[63] == u32::MAX / 8, "the table reaches the cap");
    t
};

/// How many forcing chains a try's search gathers before it stops
/// ([`find_forcing_chain_within`]). Each search pays for building the links and the
/// reach's components; going on past the first chain shares that cost among several, but
/// a search that goes on to the end tests every start. On the random minimal puzzles rated
/// 6.6-9.0, 4 ran them 1.021x faster than 1 (2 and 3: no change; 5 and 6: 1.01-1.02x; 8
/// and 12: 1.00x; every chain: 0.967x).
const GATHER: u32 = 4;

/// Where a search sends its hints: either it keeps the best one (SE's sort order, the
/// first found among equals), or it collects them all (for a nested search).
#[derive(Clone, Debug)]
pub(crate) struct Sink<S: Size> {
    collect: bool,
    ctx: Option<Cands<S>>,
    best: Option<Hint<S>>,
    pub(crate) all: Vec<Hint<S>>,
    /// The generation the next hint offered without one gets.
    next: u64,
    /// True when the hints kept get their chains traced (`explain`).
    tracing: bool,
    /// The chains of the best hint (keep-the-best mode, tracing).
    trace: Option<ChainTrace>,
    /// The chains of each collected hint (collect mode, tracing), parallel to `all`.
    pub(crate) traces: Vec<ChainTrace>,
    /// Collecting for a nested search: per result (candidate, on or off), the best
    /// (difficulty, complexity, sort key) of the hints offered with it so far, valid where
    /// the stamp is `collected` ([`Sink::first_for`]).
    firsts: Vec<(u32, Tenths, u32, u8)>,
    collected: u32,
    /// Keeping the best: the search stops at the first hint kept ([`Sink::done`]).
    first: bool,
    /// Gathering ([`Sink::seek_several`]): every hint that beats the bound adds its removals
    /// to `gathered`, and the bound stays, up to [`GATHER`] hints.
    gather: bool,
    gathered: [S::Set; 9],
    /// How many hints were gathered.
    gathered_n: u32,
    /// Only forcing chains are offered, no cycles ([`find_forcing_chain_within`]).
    pub(crate) chains_only: bool,
    /// Region forcing chains only for a digit with two places in the house
    /// ([`find_multiple_within`]).
    pub(crate) regions_of_two: bool,
    /// Tests: make every hint, also those [`Sink::first_for`] would spare.
    #[cfg(test)]
    pub(crate) make_all: bool,
}

impl<S: Size> Sink<S> {
    pub(crate) fn new() -> Sink<S> {
        Sink {
            collect: false,
            ctx: None,
            best: None,
            all: Vec::with_capacity(1024),
            next: 1,
            tracing: false,
            trace: None,
            traces: Vec::new(),
            firsts: Vec::new(),
            collected: 0,
            first: false,
            gather: false,
            gathered: [S::Set::EMPTY; 9],
            gathered_n: 0,
            chains_only: false,
            regions_of_two: false,
            #[cfg(test)]
            make_all: false,
        }
    }

    /// Keep-the-best mode.
    fn reset_best(&mut self) {
        self.first = false;
        self.gather = false;
        self.chains_only = false;
        self.regions_of_two = false;
        self.collect = false;
        self.ctx = None;
        self.best = None;
        self.all.clear();
        self.next = 1;
        self.trace = None;
        self.traces.clear();
    }

    /// Keep-the-best mode, stopping at the first hint rated `max` or less (of
    /// `technique`'s kind): the best kept is a bound no hint reaches, which any such hint
    /// sorts before ([`Sink::take_first`]).
    fn seek_first(&mut self, technique: Technique, max: Tenths) {
        self.reset_best();
        self.first = true;
        let mut bound = Hint::new(technique, max, u32::MAX / 4, u8::MAX);
        bound.generation = u64::MAX;
        self.best = Some(bound);
    }

    /// Like [`Sink::seek_first`], but the search goes on to the [`GATHER`]th hint: every
    /// hint rated `max` or less that it offers adds its removals (a placement's too: the
    /// cell's other candidates) to what [`Sink::take_gathered`] gives, and the bound stays
    /// `max`.
    fn seek_several(&mut self, technique: Technique, max: Tenths) {
        self.seek_first(technique, max);
        self.first = false;
        self.gather = true;
        self.gathered = [S::Set::EMPTY; 9];
        self.gathered_n = 0;
    }

    /// True when gathering ([`Sink::seek_several`]) and something was gathered.
    #[inline]
    pub(crate) fn gathered_any(&self) -> bool {
        self.gather && self.gathered_n > 0
    }

    /// After a search begun with [`Sink::seek_several`] (`ok`: it ran to its end within the
    /// budget): writes what it gathered to `step` as one step of the bound's technique and
    /// rating (removals only), if anything, and leaves keep-the-best mode.
    fn take_gathered(&mut self, ok: bool, step: &mut Step<S>) -> bool {
        let bound = self.best.filter(|_| ok && self.gathered_any());
        if let Some(b) = bound {
            step.reset(b.technique);
            step.difficulty = b.difficulty;
            step.eliminations = self.gathered;
        }
        self.reset_best();
        bound.is_some()
    }

    /// After a search begun with [`Sink::seek_first`] (`ok`: it ran to its end or to its
    /// first hint, within the budget): writes the hint it found to `step`, if any, and
    /// leaves keep-the-best mode.
    fn take_first(&mut self, ok: bool, step: &mut Step<S>) -> bool {
        let found = self.best.filter(|h| ok && h.generation != u64::MAX);
        self.reset_best();
        found.is_some_and(|h| {
            write_step(&h, step);
            true
        })
    }

    /// Collect-all mode, with `ctx` the outer chain's starting grid (for rule parents).
    pub(crate) fn reset_collect(&mut self, ctx: &Cands<S>) {
        self.collected = self.collected.wrapping_add(1);
        if self.collected == 0 {
            self.firsts.iter_mut().for_each(|f| f.0 = 0);
            self.collected = 1;
        }
        self.first = false;
        self.gather = false;
        self.chains_only = false;
        self.regions_of_two = false;
        self.collect = true;
        self.ctx = Some(*ctx);
        self.best = None;
        self.all.clear();
        self.next = 1;
        self.trace = None;
        self.traces.clear();
    }

    /// True when the hints kept need their chains ([`Sink::keep_trace`]).
    #[inline]
    pub(crate) fn tracing(&self) -> bool {
        self.tracing
    }

    /// The chains of the hint [`Sink::offer`] kept last.
    pub(crate) fn keep_trace(&mut self, t: ChainTrace) {
        if self.collect {
            self.traces.push(t);
        } else {
            self.trace = Some(t);
        }
    }

    /// True when the search may stop: it wants the first hint kept, and has one, or it
    /// gathered [`GATHER`] hints.
    #[inline]
    pub(crate) fn done(&self) -> bool {
        (self.gather && self.gathered_n >= GATHER)
            || self.first && self.best.is_some_and(|b| b.generation != u64::MAX)
    }

    /// True when keeping the best hint (not collecting).
    #[inline]
    pub(crate) fn keeps_best(&self) -> bool {
        !self.collect
    }

    /// True when a best hint is kept (keeping the best: something was found).
    #[inline]
    pub(crate) fn has_best(&self) -> bool {
        self.best.is_some()
    }

    /// The outer chain's starting grid when collecting for a nested search.
    #[inline]
    pub(crate) fn context(&self) -> Option<&Cands<S>> {
        self.ctx.as_ref()
    }

    /// True when a hint with this key, offered next, would be kept.
    #[inline]
    pub(crate) fn wants(&self, difficulty: Tenths, complexity: u32, sort_key: u8) -> bool {
        self.wants_at(difficulty, complexity, sort_key, self.next)
    }

    /// True when a hint with this key and generation would be kept.
    #[inline]
    pub(crate) fn wants_at(
        &self,
        difficulty: Tenths,
        complexity: u32,
        sort_key: u8,
        generation: u64,
    ) -> bool {
        match &self.best {
            _ if self.collect => true,
            None => true,
            Some(b) => (difficulty, complexity, sort_key, generation) < b.key(),
        }
    }

    /// The largest complexity a hint of base rating `base` and sort key `sort_key` may have
    /// and still be kept.
    pub(crate) fn limit(&self, base: Tenths, sort_key: u8) -> u32 {
        let b = match &self.best {
            _ if self.collect => return u32::MAX,
            None => return u32::MAX,
            Some(b) => b,
        };
        if base > b.difficulty {
            return 0;
        }
        let allowed = u32::from(b.difficulty - base);
        let strict = if allowed >= 1 {
            threshold(allowed - 1) + 2
        } else {
            0
        };
        let same = if sort_key < b.sort_key {
            b.complexity
        } else {
            b.complexity.saturating_sub(1)
        };
        strict.max(same.min(threshold(allowed).saturating_add(2)))
    }

    /// Collecting for a nested search: false when a hint with the same result (`cand` on
    /// or off), offered before, sorts no later than one with this difficulty, complexity
    /// and sort key would. Such a hint has the same removals as that one and comes after
    /// it, so the nested search drops it ([`nested`]'s hints count once per removals):
    /// it need not be made. True otherwise, noting the key.
    pub(crate) fn first_for(
        &mut self,
        cand: u16,
        on: bool,
        difficulty: Tenths,
        complexity: u32,
        sort_key: u8,
    ) -> bool {
        #[cfg(test)]
        if self.make_all {
            return true;
        }
        if !self.collect || self.ctx.is_none() {
            return true;
        }
        let i = usize::from(cand) * 2 + usize::from(on);
        if self.firsts.len() <= i {
            self.firsts
                .resize(2 * cand_count::<S>().max(i / 2 + 1), (0, 0, 0, 0));
        }
        let f = &mut self.firsts[i];
        if f.0 == self.collected && (f.1, f.2, f.3) <= (difficulty, complexity, sort_key) {
            return false;
        }
        *f = (self.collected, difficulty, complexity, sort_key);
        true
    }

    /// Offers a hint: kept if it beats the best so far (or always, when collecting). A
    /// hint without a generation gets the next one. True when it was kept.
    #[inline]
    pub(crate) fn offer(&mut self, h: &Hint<S>) -> bool {
        let generation = if h.generation == 0 {
            self.next += 1;
            self.next - 1
        } else {
            h.generation
        };
        if self.collect {
            self.all.push(*h);
            true
        } else if self.wants_at(h.difficulty, h.complexity, h.sort_key, generation) {
            if self.gather {
                // The bound stays; the removals add up.
                for (g, r) in self.gathered.iter_mut().zip(&h.removals) {
                    *g |= *r;
                }
                self.gathered_n += 1;
            } else {
                self.best = Some(Hint { generation, ..*h });
            }
            true
        } else {
            false
        }
    }
}

/// Adds to `out` the candidates removed between `ctx` (the outer chain's start) and `cur`
/// that a potential with this cause relied on (SE `ChainingHint.collectRuleParents`): for a
/// naked single, the cell's removed candidates; for a hidden single, the digit's removed
/// places in the house.
#[inline]
pub(crate) fn rule_parents_of<S: Size>(
    g: &Geometry<S>,
    ctx: &Cands<S>,
    cur: &Cands<S>,
    cand: u16,
    cause: Cause,
    out: &mut S::Cands,
) {
    let (c, d) = (cell_of(cand), digit_of(cand));
    if cause == Cause::CELL {
        for e in ctx.cells[c] - cur.cells[c] {
            out.set(cand_of(c, e.index()));
        }
    } else if let Some(h) = cause.house() {
        let h = g.house_set(h);
        for x in (ctx.planes[d] - cur.planes[d]) & h {
            out.set(cand_of(x.index(), d));
        }
    }
}

/// The searches' working memory at one nesting depth.
#[derive(Clone, Debug)]
pub(crate) struct Engine<S: Size> {
    /// Runs: one per candidate of the cell being examined, one for the "off" assumption,
    /// and one per other place of a house (region chains).
    pub(crate) runs: Vec<Run<S>>,
    pub(crate) cyc: cycles::CycleScratch<S>,
    pub(crate) counter: Counter,
    /// Links of a static search.
    pub(crate) links: potentials::Links,
    /// Outcomes of the runs of a search.
    pub(crate) cache: forcing::OutcomeCache<S>,
    /// Potentials still to take in turn, while working out a static run's outcome.
    pub(crate) stack: Vec<u16>,
}

impl<S: Size> Engine<S> {
    fn new() -> Engine<S> {
        let n = cand_count::<S>();
        Engine {
            runs: (0..forcing::RUNS).map(|_| Run::new()).collect(),
            cyc: cycles::CycleScratch::new(),
            counter: Counter::new(n),
            links: potentials::Links::new(n),
            cache: forcing::OutcomeCache::new(),
            stack: Vec::with_capacity(n),
        }
    }
}

/// Runs independent jobs, on any threads and in any order; each job writes only its own
/// result. The pipeline implements it (with rayon) to spread one puzzle's chain search over
/// the worker threads ([`find_spread`]); nothing in `core` starts a thread.
pub trait Spread: Sync + std::fmt::Debug {
    /// Runs `job(0)`, ..., `job(jobs - 1)` and returns when all are done.
    fn spread(&self, jobs: usize, job: &(dyn Fn(usize) + Sync));
}

/// How many parts (ranges of cells) a spread search is cut into: fixed, so that its result
/// and the work it charges do not depend on how many threads run the parts.
pub const PARTS: usize = 16;

/// The parts run in waves (the parts of a wave side by side), each wave bounded by the best
/// hint of the waves before it, so that the parts do little more work than one search
/// would: a part prunes what cannot beat that bound (the first wave is part 0 alone).
const WAVES: [std::ops::Range<usize>; 4] = [0..1, 1..6, 6..11, 11..16];

/// One part of a spread search: its own working memory, best hint and budget.
#[derive(Clone, Debug)]
struct Part<S: Size> {
    eng: Engine<S>,
    nest: nested::Nest<S>,
    sink: Sink<S>,
    budget: Budget,
    ok: bool,
}

impl<S: Size> Part<S> {
    /// Readies the part for a run on `board`: its budget is what is left of `whole`.
    fn ready(&mut self, g: &Geometry<S>, board: &Board<S>, whole: &Budget, tracing: bool) {
        self.budget = whole.part();
        self.nest.set_tracing(tracing);
        self.nest.prepare(g, board);
    }
}

/// The cells part `k` of a spread search searches from.
fn part_cells<S: Size>(k: usize) -> std::ops::Range<usize> {
    k * S::CELLS / PARTS..(k + 1) * S::CELLS / PARTS
}

/// Working memory of the chain searches, built once per worker and reused.
#[derive(Debug)]
pub struct ChainScratch<S: Size = S81> {
    eng: Engine<S>,
    nest: nested::Nest<S>,
    sink: Sink<S>,
    /// The parts of a spread search (made when first needed).
    parts: Vec<Mutex<Part<S>>>,
    /// The outcomes the parts of a spread search worked out, for all of them.
    shared: forcing::OutcomeCache<S>,
    /// Digits on which the X pass of the first level finds nothing.
    x_memo: plane_memo::PlaneMemo<S>,
    /// The cells of two candidates on which the Y pass of the first level finds nothing.
    y_memo: bivalue_memo::BivalueMemo<S>,
    /// Digits on which Nishio forcing chains meet no contradiction.
    nishio_memo: plane_memo::PlaneMemo<S>,
    /// The outcomes of the last multiple and the last dynamic forcing chains searches,
    /// and their boards.
    earlier: [forcing::OutcomeCache<S>; 2],
    earlier_board: [Option<[S::Set; 9]>; 2],
    /// The outcomes of the last search of [`find_multiple_within`], and its board.
    within: forcing::OutcomeCache<S>,
    within_board: Option<[S::Set; 9]>,
}

impl<S: Size> Clone for ChainScratch<S> {
    fn clone(&self) -> Self {
        ChainScratch {
            eng: self.eng.clone(),
            nest: self.nest.clone(),
            sink: self.sink.clone(),
            parts: Vec::new(),
            shared: self.shared.clone(),
            x_memo: self.x_memo,
            y_memo: self.y_memo,
            nishio_memo: self.nishio_memo,
            earlier: self.earlier.clone(),
            earlier_board: self.earlier_board,
            within: self.within.clone(),
            within_board: self.within_board,
        }
    }
}

impl<S: Size> Default for ChainScratch<S> {
    fn default() -> Self {
        ChainScratch::new()
    }
}

impl<S: Size> ChainScratch<S> {
    /// Forgets what the nested searches kept for the board of the last search. Each
    /// rating starts with this, so that its work (and what the budget lets it reach) does
    /// not depend on the puzzles rated before it.
    pub fn forget(&mut self) {
        self.nest.forget_all();
        self.x_memo.forget();
        self.y_memo.forget();
        self.nishio_memo.forget();
        self.earlier_board = [None; 2];
        self.within_board = None;
        for p in &self.parts {
            p.lock()
                .unwrap_or_else(|e| e.into_inner())
                .nest
                .forget_all();
        }
    }

    /// Fresh scratch.
    pub fn new() -> ChainScratch<S> {
        ChainScratch {
            eng: Engine::new(),
            nest: nested::Nest::new(),
            sink: Sink::new(),
            parts: Vec::new(),
            shared: forcing::OutcomeCache::outcomes_only(),
            x_memo: plane_memo::PlaneMemo::default(),
            y_memo: bivalue_memo::BivalueMemo::default(),
            nishio_memo: plane_memo::PlaneMemo::default(),
            earlier: [forcing::OutcomeCache::new(), forcing::OutcomeCache::new()],
            earlier_board: [None; 2],
            within: forcing::OutcomeCache::new(),
            within_board: None,
        }
    }
}

/// True when [`find`] searches `level` (all of SE 1.2.1's levels are implemented).
pub fn supports(level: ChainLevel) -> bool {
    match level {
        ChainLevel::Nested(n) => (1..=4).contains(&n),
        _ => true,
    }
}

/// The easiest chaining step of `level` on `board`, written to `step`; false when there is
/// none or when `budget` ran out (check [`Budget::exhausted`] to tell them apart).
pub fn find<S: Size>(
    g: &Geometry<S>,
    board: &Board<S>,
    level: ChainLevel,
    scratch: &mut ChainScratch<S>,
    budget: &mut Budget,
    step: &mut Step<S>,
) -> bool {
    find_spread(g, board, level, scratch, budget, step, None)
}

/// Forcing chains of the first chaining level (forcing X-chains, or forcing chains with
/// both kinds of links; no cycle) rated `max` or less: the removals of the first four
/// (`GATHER`) that the search meets, all in the first of its passes to find any (a
/// placement counts as the removal of its cell's other candidates), written to `step` as
/// one step rated `max`. Each is a chain of the board, so a try that takes chains in any
/// order may take them all at once. False when there is none or the budget ran out.
pub fn find_forcing_chain_within<S: Size>(
    g: &Geometry<S>,
    board: &Board<S>,
    max: Tenths,
    scratch: &mut ChainScratch<S>,
    budget: &mut Budget,
    step: &mut Step<S>,
) -> bool {
    let src = Cands::from_board(g, board);
    scratch.sink.seek_several(Technique::ForcingChain, max);
    scratch.sink.chains_only = true;
    let ok = cycles::search(
        g,
        &src,
        &mut scratch.eng.cyc,
        &mut scratch.sink,
        None,
        None,
        budget,
    );
    scratch.sink.take_gathered(ok, step)
}

/// The first multiple forcing chain (SE `Chaining(true, false, false, 0)`) rated `max` or
/// less that the level's search meets on `board`, in `step`: a cell forcing chain, or a
/// region forcing chain of a digit with two places in the house (see the grader's try to
/// end a rating early, which takes these: a later board keeps them, where SE searches a
/// region of more places only from its first place's cell, and only when that cell has
/// three candidates or more). False when there is none or the budget ran out. The search
/// takes the outcomes of the runs that read nothing changed from its own last search, or
/// from the grader's last search of that level, when `board` came from theirs; its
/// outcomes are kept apart from the grader's, whose next search reads them.
pub fn find_multiple_within<S: Size>(
    g: &Geometry<S>,
    board: &Board<S>,
    max: Tenths,
    scratch: &mut ChainScratch<S>,
    budget: &mut Budget,
    step: &mut Step<S>,
) -> bool {
    let Some(spec) = forcing::Spec::of(ChainLevel::Multiple) else {
        return false;
    };
    let src = Cands::from_board(g, board);
    let ChainScratch {
        eng,
        sink,
        earlier,
        earlier_board,
        within,
        within_board,
        ..
    } = scratch;
    sink.seek_first(Technique::CellForcingChain, max);
    sink.regions_of_two = true;
    let from = [(&*within, *within_board), (&earlier[0], earlier_board[0])]
        .into_iter()
        .find_map(|(cache, b)| {
            let b = b?;
            board_reach::came_from(&src, &b).then_some((cache, b))
        });
    let before = from.map(|(cache, b)| forcing::Earlier::static_runs(g, cache, &b, &src, true));
    let ok = forcing::search(
        g,
        &src,
        0..S::CELLS,
        spec,
        eng,
        None,
        None,
        before.as_ref(),
        None,
        sink,
        budget,
    );
    std::mem::swap(&mut eng.cache, within);
    *within_board = ok.then_some(src.planes);
    sink.take_first(ok, step)
}

/// Writes hint `h` as `step`.
fn write_step<S: Size>(h: &Hint<S>, step: &mut Step<S>) {
    step.reset(h.technique);
    step.difficulty = h.difficulty;
    step.eliminations = h.removals;
    step.placement = h.placement;
    step.cells = h.cells;
    step.digits = h.digits;
    step.size = h.complexity.min(u32::from(u16::MAX)) as u16;
}

/// [`find`], with the forcing chain levels (Nishio and above) cut into [`PARTS`] ranges of
/// cells run by `spread`, when given: the same step, the same work charged, whatever
/// threads run the parts. Each part keeps its own best hint (a part prunes only by its own
/// best, so the parts together do more work than one search); the best of the parts, the
/// earliest part among equals, is the one the whole search keeps, since a search keeps
/// the first of equal hints in cell order. The budget is checked per part against what was
/// left, then charged with their sum.
pub fn find_spread<S: Size>(
    g: &Geometry<S>,
    board: &Board<S>,
    level: ChainLevel,
    scratch: &mut ChainScratch<S>,
    budget: &mut Budget,
    step: &mut Step<S>,
    spread: Option<&dyn Spread>,
) -> bool {
    let src = Cands::from_board(g, board);
    scratch.sink.reset_best();
    let ok = match level {
        // The grader's own search does not record what each start reads for the next
        // step to skip ([`board_reach`]): its reads span most of the board, so that on
        // the random minimal puzzles rated 6.6-9.0 and on the forum's hardest it let
        // fewer than one start in 200 be skipped; recording cost 2-4% of the time on the
        // former and nothing measurable on the latter.
        ChainLevel::Cycles => cycles::search(
            g,
            &src,
            &mut scratch.eng.cyc,
            &mut scratch.sink,
            Some((&mut scratch.x_memo, &mut scratch.y_memo)),
            None,
            budget,
        ),
        _ => {
            let Some(spec) = forcing::Spec::of(level) else {
                return false;
            };
            if let Some(sp) = spread {
                search_parts(g, board, &src, spec, scratch, budget, sp)
            } else {
                scratch.nest.prepare(g, board);
                // A nested search borrows the outcomes of the top-level multiple and
                // dynamic searches for its inner searches of those kinds.
                let lend = spec.level > 0;
                if lend {
                    std::mem::swap(&mut scratch.earlier, &mut scratch.nest.outer);
                    scratch.nest.outer_board = scratch.earlier_board;
                }
                let nest = lend.then_some(&mut scratch.nest);
                let memo = spec.nishio.then_some(&mut scratch.nishio_memo);
                // Multiple and dynamic forcing chains take the outcomes of their search on
                // the last board where they were searched, when this one came from it.
                let k = match level {
                    ChainLevel::Multiple => Some(0),
                    ChainLevel::Dynamic => Some(1),
                    _ => None,
                };
                let earlier = k.and_then(|k| {
                    let (cache, b) = (&scratch.earlier[k], scratch.earlier_board[k]?);
                    board_reach::came_from(&src, &b).then(|| match k {
                        0 => forcing::Earlier::static_runs(g, cache, &b, &src, true),
                        _ => forcing::Earlier::dynamic(g, cache, &b, &src),
                    })
                });
                let ok = forcing::search(
                    g,
                    &src,
                    0..S::CELLS,
                    spec,
                    &mut scratch.eng,
                    nest,
                    None,
                    earlier.as_ref(),
                    memo,
                    &mut scratch.sink,
                    budget,
                );
                if lend {
                    std::mem::swap(&mut scratch.earlier, &mut scratch.nest.outer);
                    scratch.nest.outer_board = [None; 2];
                }
                if let Some(k) = k {
                    // This search's outcomes are the next one's earlier ones.
                    std::mem::swap(&mut scratch.eng.cache, &mut scratch.earlier[k]);
                    scratch.earlier_board[k] = ok.then_some(src.planes);
                }
                ok
            }
        }
    };
    if !ok {
        return false;
    }
    let Some(h) = scratch.sink.best else {
        return false;
    };
    write_step(&h, step);
    true
}

/// The forcing chain search of `spec` on `src` cut into [`PARTS`] run by `sp`; the best
/// hint goes to `scratch.sink`.
fn search_parts<S: Size>(
    g: &Geometry<S>,
    board: &Board<S>,
    src: &Cands<S>,
    spec: forcing::Spec,
    scratch: &mut ChainScratch<S>,
    budget: &mut Budget,
    sp: &dyn Spread,
) -> bool {
    while scratch.parts.len() < PARTS {
        scratch.parts.push(Mutex::new(Part {
            eng: Engine::new(),
            nest: nested::Nest::new(),
            sink: Sink::new(),
            budget: Budget::UNLIMITED,
            ok: true,
        }));
    }
    let tracing = scratch.sink.tracing;
    // First the outcome of every candidate's run, the bulk of the work, all parts side by
    // side; then the search, in waves, every part reading all those outcomes.
    let whole = *budget;
    let parts = &scratch.parts;
    sp.spread(PARTS, &|k| {
        let mut guard = parts[k].lock().unwrap_or_else(|e| e.into_inner());
        let p = &mut *guard;
        p.ready(g, board, &whole, tracing);
        let nest = (spec.level > 0).then_some(&mut p.nest);
        p.ok = forcing::outcomes(
            g,
            src,
            part_cells::<S>(k),
            spec,
            &mut p.eng,
            nest,
            &mut p.budget,
        );
    });
    scratch.shared.clear();
    let mut ok = true;
    for part in &scratch.parts {
        let p = part.lock().unwrap_or_else(|e| e.into_inner());
        ok &= p.ok;
        ok &= budget.absorb(&p.budget);
        scratch.shared.absorb(&p.eng.cache);
    }
    if !ok {
        return false;
    }
    for wave in WAVES {
        let whole = *budget;
        let bound = scratch.sink.best;
        let parts = &scratch.parts;
        let shared = &scratch.shared;
        sp.spread(wave.len(), &|i| {
            let k = wave.start + i;
            let mut guard = parts[k].lock().unwrap_or_else(|e| e.into_inner());
            let p = &mut *guard;
            p.ready(g, board, &whole, tracing);
            p.sink.reset_best();
            // The bound came from an earlier part: it wins ties (generation 0).
            p.sink.best = bound.map(|h| Hint { generation: 0, ..h });
            p.sink.tracing = tracing;
            let nest = (spec.level > 0).then_some(&mut p.nest);
            p.ok = forcing::search(
                g,
                src,
                part_cells::<S>(k),
                spec,
                &mut p.eng,
                nest,
                Some(shared),
                None,
                None,
                &mut p.sink,
                &mut p.budget,
            );
        });
        for part in &scratch.parts[wave] {
            let mut p = part.lock().unwrap_or_else(|e| e.into_inner());
            ok &= p.ok;
            ok &= budget.absorb(&p.budget);
            // A part that found nothing better still holds the bound (generation 0).
            let Some(h) = p.sink.best.filter(|h| h.generation != 0) else {
                continue;
            };
            let key = |h: &Hint<S>| (h.difficulty, h.complexity, h.sort_key);
            if scratch.sink.best.as_ref().is_none_or(|b| key(&h) < key(b)) {
                scratch.sink.best = Some(h);
                scratch.sink.trace = p.sink.trace.take();
            }
        }
        if !ok {
            return false;
        }
    }
    ok
}

/// The step [`find`] gives for `level` on `board`, written to `step`, with its chains: the
/// same search, run again with tracing on (slower; for `explain`), spread as
/// [`find_spread`] when `spread` is given. `None` when there is no step or the budget ran
/// out.
pub fn trace<S: Size>(
    g: &Geometry<S>,
    board: &Board<S>,
    level: ChainLevel,
    scratch: &mut ChainScratch<S>,
    budget: &mut Budget,
    step: &mut Step<S>,
    spread: Option<&dyn Spread>,
) -> Option<ChainTrace> {
    scratch.sink.tracing = true;
    scratch.nest.set_tracing(true);
    let found = find_spread(g, board, level, scratch, budget, step, spread);
    scratch.sink.tracing = false;
    scratch.nest.set_tracing(false);
    let mut t = scratch.sink.trace.take();
    if let Some(t) = t.as_mut() {
        trace::resolve(g, &Cands::from_board(g, board), t);
    }
    scratch.sink.reset_best();
    scratch.nest.prepare(g, board);
    if found { t } else { None }
}

/// The chaining level whose search finds steps of `technique`, if it is a chaining one.
pub fn level_of(technique: Technique) -> Option<ChainLevel> {
    Some(match technique {
        Technique::XCycle
        | Technique::YCycle
        | Technique::ForcingXChain
        | Technique::ForcingChain
        | Technique::BidirectionalCycle => ChainLevel::Cycles,
        Technique::NishioForcingChain => ChainLevel::Nishio,
        Technique::CellForcingChain | Technique::RegionForcingChain => ChainLevel::Multiple,
        Technique::DynamicForcingChain => ChainLevel::Dynamic,
        Technique::DynamicForcingChainPlus => ChainLevel::Nested(1),
        Technique::NestedForcingChain2 => ChainLevel::Nested(2),
        Technique::NestedForcingChain3 => ChainLevel::Nested(3),
        Technique::NestedForcingChain4 => ChainLevel::Nested(4),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::logic::length_bonus;

    #[test]
    fn levels_have_se_base_ratings() {
        let r: Vec<Tenths> = ChainLevel::ORDER.iter().map(|l| l.base_rating()).collect();
        assert_eq!(r, [65, 75, 80, 85, 90, 95, 100, 105]);
    }

    #[test]
    fn thresholds_match_the_length_bonus() {
        // SE's loop (`getLengthDifficulty`'s ceilings), capped as the table is.
        let mut ceil: u64 = 4;
        let mut odd = false;
        for b in 0..200u32 {
            assert_eq!(
                u64::from(threshold(b)),
                ceil.min(u64::from(u32::MAX / 8)),
                "{b}"
            );
            ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 }.min(u64::from(u32::MAX));
            odd = !odd;
        }
        for b in 0..12u32 {
            let t = threshold(b);
            assert_eq!(u32::from(length_bonus(t)), b, "{t}");
            assert_eq!(u32::from(length_bonus(t + 1)), b + 1, "{t}");
        }
    }

    #[test]
    fn the_limit_keeps_exactly_the_better_hints() {
        let mut s: Sink<S81> = Sink::new();
        s.reset_best();
        assert_eq!(s.limit(85, 1), u32::MAX);
        let mut h: Hint<S81> = Hint::new(Technique::DynamicForcingChain, 85 + 3, 13, 5);
        h.removals[0].insert(Cell::new(0));
        s.offer(&h);
        for base in [80u8, 85, 90] {
            for key in [1u8, 5, 7] {
                let lim = s.limit(base, key);
                for c in 2..200u32 {
                    let d = base + length_bonus(c - 2);
                    assert_eq!(c <= lim, s.wants(d, c, key), "base {base} key {key} c {c}");
                }
            }
        }
    }

    #[test]
    fn a_try_gathers_chains_that_remove_false_candidates_only() {
        use crate::core::geometry::classic;
        use crate::core::logic::testutil;
        // The boards of SE's paths on puzzles rated 8.0-9.0, searched for forcing chains
        // of the first level rated up to the ERs at which the grader's tries look for
        // them: what is gathered holds the first chain the search meets, and removes no
        // candidate of the solution.
        let mut sc = ChainScratch::<S81>::new();
        let (mut searches, mut found, mut more) = (0, 0, 0);
        for (line, sol, path) in testutil::er8_paths(10) {
            for board in path {
                if board.is_solved() {
                    break;
                }
                for max in [72, 75, 80, 85, 90] {
                    searches += 1;
                    let mut budget = Budget::new(u64::MAX);
                    let mut step = Step::default();
                    let got = find_forcing_chain_within(
                        classic(),
                        &board,
                        max,
                        &mut sc,
                        &mut budget,
                        &mut step,
                    );
                    // The first chain alone.
                    let src = Cands::from_board(classic(), &board);
                    sc.sink.seek_first(Technique::ForcingChain, max);
                    sc.sink.chains_only = true;
                    let mut budget = Budget::new(u64::MAX);
                    let ok = cycles::search(
                        classic(),
                        &src,
                        &mut sc.eng.cyc,
                        &mut sc.sink,
                        None,
                        None,
                        &mut budget,
                    );
                    let mut first = Step::default();
                    assert_eq!(got, sc.sink.take_first(ok, &mut first), "{line} {max}");
                    if !got {
                        continue;
                    }
                    found += 1;
                    // A placement's chain removes its cell's other candidates.
                    for d in 0..9 {
                        let (all, one) = (step.eliminations[d], first.eliminations[d]);
                        assert!((one - all).is_empty(), "{line} {max}");
                        for c in all {
                            assert_ne!(sol.digit(c).map(|x| x.index()), Some(d), "{line} {max}");
                        }
                    }
                    more += usize::from(step.eliminations != first.eliminations);
                }
            }
        }
        // 4,145, 2,976 and 2,819 when this was written.
        assert!(
            searches > 3000 && found > 2000 && more > 500,
            "{searches} searches, {found} found, {more} gathered more than the first"
        );
    }

    #[test]
    fn a_search_for_any_chain_skips_the_x_pass_only_where_it_finds_nothing() {
        use crate::core::geometry::classic;
        use crate::core::logic::testutil;
        // The boards of SE's paths on puzzles rated 8.0-9.0, searched for any forcing
        // chain of the first level rated up to the ERs at which the grader's tries look
        // for one, with and without the X pass after the pass with both kinds of links
        // found none as far as any chain can go: the same steps.
        let (mut skip, mut keep) = (ChainScratch::<S81>::new(), ChainScratch::<S81>::new());
        keep.eng.cyc.keep_x_pass = true;
        let (mut boards, mut chains) = (0, 0);
        for (line, _, path) in testutil::er8_paths(10) {
            for board in path {
                if board.is_solved() {
                    break;
                }
                boards += 1;
                for max in [72, 75, 80, 85, 90] {
                    let mut out = [Step::default(), Step::default()];
                    let mut found = [false; 2];
                    for (i, sc) in [&mut skip, &mut keep].into_iter().enumerate() {
                        let mut budget = Budget::new(u64::MAX);
                        found[i] = find_forcing_chain_within(
                            classic(),
                            &board,
                            max,
                            sc,
                            &mut budget,
                            &mut out[i],
                        );
                    }
                    assert_eq!(found[0], found[1], "{line} {max}");
                    if found[0] {
                        assert_eq!(out[0], out[1], "{line} {max}");
                        chains += 1;
                    }
                }
            }
        }
        let skipped = skip.eng.cyc.x_skipped;
        // 829 boards, 2,976 chains, 743 X passes skipped when this was written.
        assert!(
            boards > 700 && chains > 2000 && skipped > 600,
            "{boards} boards, {chains} chains, {skipped} X passes skipped"
        );
        assert_eq!(keep.eng.cyc.x_skipped, 0);
    }
}
