//! What the X pass of the first chaining level found on a digit's plane, for the nested
//! searches that collect every hint.
//!
//! The X pass ([`super::cycles`]: X-cycles and forcing X-chains) follows X-links only, so
//! what it finds from the candidates of digit `d` depends on nothing but `d`'s plane, on
//! which of its cells hold another candidate too (the starts), and, for a nested search,
//! on the starting grid of the outer chain (the rule parents, [`super::rule_parents_of`],
//! look at `d`'s removed places only) — see [`super::plane_memo`], which remembers the
//! planes where a best-hint search found nothing. The one thing of such a hint that reads
//! the other digits is a placement's removals (the cell's other candidates), worked out
//! again when the hint is taken.
//!
//! A nested search runs the first level on each grid where an outer chain runs dry,
//! hundreds of thousands of times for a monster, and nearly every plane it meets was met
//! before: the chains of a step differ on few digits. So the hints found on each plane are
//! kept while the outer chains' starting grid is the same, and a plane met again gives them
//! without a search. The hints go to the sink in the order the search offers them (each
//! start's cycles and chain from "on", in candidate order, then the chains from "off"), so
//! the collected hints are exactly those of a search.

use std::collections::HashMap;

use super::Hint;
use super::cycles::mix;
use super::potentials::{Cands, cand_count, digit_of};
use crate::core::bitboard::DigitSet;
use crate::core::geometry::{CellBits, Size};
use crate::core::index::Digit;

/// The most hints kept; past it the memory starts again (it only saves work).
const MAX_KEPT: usize = 1 << 16;

/// A plane met: the digit, its plane and starts, and the range of its hints.
type Entry<S> = (u8, <S as Size>::Set, <S as Size>::Set, u32, u32);

/// The X pass's hints per plane met, for one starting grid.
#[derive(Clone, Debug)]
pub(crate) struct PlaneHints<S: Size> {
    /// The starting grid (the sink's context) the hints are for.
    ctx: Option<[S::Set; 9]>,
    /// By fingerprint: the planes met and the range of `hints` found on each.
    index: HashMap<u64, Vec<Entry<S>>>,
    hints: Vec<Hint<S>>,
}

impl<S: Size> Default for PlaneHints<S> {
    fn default() -> Self {
        PlaneHints {
            ctx: None,
            index: HashMap::new(),
            hints: Vec::new(),
        }
    }
}

/// A fingerprint of digit `d`'s plane and starts.
fn key<S: Size>(d: usize, plane: S::Set, starts: S::Set) -> u64 {
    let mut h = mix(0x706c_616e, d as u64);
    for w in 0..<S::Set as CellBits>::WORDS {
        h = mix(h, plane.word(w));
        h = mix(h, starts.word(w));
    }
    h
}

/// The digit of the start of an X-pass hint (from its generation: the start, then a rank).
fn digit_of_hint<S: Size>(h: &Hint<S>) -> usize {
    let start = ((h.generation - 1) >> 10) as usize % cand_count::<S>();
    digit_of(start as u16)
}

/// The order in which the X pass offers its hints: every start's cycles and chain from
/// "on" by generation (start, then rank), then the chains from "off" (the ones that place
/// a digit) by generation. A start's chains share its last generation (the rank is capped,
/// so SE's order among equals is the order of offers): a stable sort keeps them as offered.
pub(crate) fn order<S: Size>(h: &Hint<S>) -> (bool, u64) {
    (h.placement.is_some(), h.generation)
}

impl<S: Size> PlaneHints<S> {
    /// Forgets everything (a new puzzle: the work a rating charges never depends on the
    /// puzzles rated before it).
    pub(crate) fn forget(&mut self) {
        self.ctx = None;
        self.index.clear();
        self.hints.clear();
    }

    /// Readies the memory for a search whose starting grid is `ctx`: what was kept for
    /// another one goes.
    pub(crate) fn begin(&mut self, ctx: &Cands<S>) {
        if self.ctx != Some(ctx.planes) || self.hints.len() > MAX_KEPT {
            self.forget();
            self.ctx = Some(ctx.planes);
        }
    }

    /// The digits whose plane (and starts, `multi` being the cells of two candidates or
    /// more) on `cur` are known.
    pub(crate) fn known(&self, cur: &Cands<S>, multi: S::Set) -> DigitSet {
        let mut out = DigitSet::EMPTY;
        for (d, &p) in cur.planes.iter().enumerate() {
            if self.find(d, p, p & multi).is_some() {
                out.insert(Digit::from_index(d));
            }
        }
        out
    }

    fn find(&self, d: usize, plane: S::Set, starts: S::Set) -> Option<(u32, u32)> {
        self.index
            .get(&key::<S>(d, plane, starts))?
            .iter()
            .find(|e| usize::from(e.0) == d && e.1 == plane && e.2 == starts)
            .map(|e| (e.3, e.4))
    }

    /// Keeps `found`, the hints the X pass found on `cur` from the digits not in `known`,
    /// and appends to `out` those kept for the digits in `known`.
    pub(crate) fn keep_and_take(
        &mut self,
        cur: &Cands<S>,
        multi: S::Set,
        known: DigitSet,
        found: &[Hint<S>],
        out: &mut Vec<Hint<S>>,
    ) {
        for (d, &plane) in cur.planes.iter().enumerate() {
            let starts = plane & multi;
            if known.contains(Digit::from_index(d)) {
                let Some((a, b)) = self.find(d, plane, starts) else {
                    continue;
                };
                for h in &self.hints[a as usize..b as usize] {
                    let mut h = *h;
                    if let Some((cell, digit)) = h.placement {
                        // The cell's other candidates, on this grid.
                        h.removals = [S::Set::EMPTY; 9];
                        h.place(cur, cell, digit);
                    }
                    out.push(h);
                }
            } else {
                let a = self.hints.len() as u32;
                self.hints
                    .extend(found.iter().filter(|h| digit_of_hint(*h) == d));
                let b = self.hints.len() as u32;
                self.index
                    .entry(key::<S>(d, plane, starts))
                    .or_default()
                    .push((d as u8, plane, starts, a, b));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Sink;
    use super::super::cycles::{self, CycleScratch};
    use super::super::potentials::cand_of;
    use super::*;
    use crate::core::geometry::S81;
    use crate::core::logic::testutil::{board_from_line, cg};
    use crate::core::logic::{Budget, Technique};
    use rand::{RngExt, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// The hints a collecting first-level search gives on `cur`, in the order offered;
    /// `plain`: a search that keeps no planes' hints (a tracing one).
    fn search(
        sc: &mut CycleScratch<S81>,
        ctx: &Cands<S81>,
        cur: &Cands<S81>,
        plain: bool,
    ) -> Vec<Hint<S81>> {
        let mut sink = Sink::new();
        sink.reset_collect(ctx);
        sink.tracing = plain;
        let mut budget = Budget::UNLIMITED;
        assert!(cycles::search(
            cg(),
            cur,
            sc,
            &mut sink,
            None,
            None,
            &mut budget
        ));
        sink.all
    }

    /// Hints as text.
    fn text(hints: &[Hint<S81>]) -> Vec<String> {
        hints.iter().map(|h| format!("{h:?}")).collect()
    }

    /// [`search`]'s hints as text.
    fn collect(
        sc: &mut CycleScratch<S81>,
        ctx: &Cands<S81>,
        cur: &Cands<S81>,
        plain: bool,
    ) -> Vec<String> {
        text(&search(sc, ctx, cur, plain))
    }

    /// True for a forcing X-chain that places a digit.
    fn x_placement(h: &Hint<S81>) -> bool {
        h.technique == Technique::ForcingXChain && h.placement.is_some()
    }

    #[test]
    fn planes_met_again_give_the_hints_a_search_gives() {
        // An ER 11.x puzzle of the forum's hardest list: its grids hold X-cycles and
        // forcing X-chains.
        let line =
            "....56.....71....3...7...1...1....4..4.....7287....9....23....4.....85..9...6....";
        let ctx = Cands::from_board(cg(), &board_from_line(line));
        // Candidates of three digits to take out: the other planes repeat from grid to
        // grid, and their placements' cells lose other candidates.
        let pool: Vec<u16> = ctx.list().into_iter().filter(|q| q % 9 % 4 == 0).collect();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut warm = CycleScratch::<S81>::new();
        let (mut hints, mut placements, mut known) = (0, 0, 0);
        let mut bases = Vec::new();
        for _ in 0..150 {
            let mut cur = ctx;
            for _ in 0..rng.random_range(1..5) {
                let q = pool[rng.random_range(0..pool.len())];
                let (c, d) = (q as usize / 9, q as usize % 9);
                if cur.cells[c].len() > 2 && cur.cells[c].contains(Digit::from_index(d)) {
                    cur.remove(cg(), q);
                }
            }
            let multi = super::super::plane_memo::multi_cells(&cur);
            known += warm.plane_hints_known(&cur, multi).len();
            let fresh = search(&mut CycleScratch::new(), &ctx, &cur, true);
            assert_eq!(text(&fresh), collect(&mut warm, &ctx, &cur, false));
            let n = fresh.iter().filter(|h| x_placement(h)).count();
            if n > 0 {
                bases.push(cur);
            }
            hints += fresh.len();
            placements += n;
        }
        // A placement whose cell loses another candidate: its plane is the same, its
        // removals are not.
        let mut checked = 0;
        for base in &bases {
            for h in search(&mut CycleScratch::new(), &ctx, base, true) {
                let Some((cell, digit)) = h.placement else {
                    continue;
                };
                let cs = base.cells[cell.index()];
                if !x_placement(&h) || cs.len() < 3 {
                    continue;
                }
                let Some(other) = cs.iter().find(|&e| e != digit) else {
                    continue;
                };
                let mut cur = *base;
                cur.remove(cg(), cand_of(cell.index(), other.index()));
                let mut warm = CycleScratch::new();
                collect(&mut warm, &ctx, base, false);
                let fresh = collect(&mut CycleScratch::new(), &ctx, &cur, true);
                assert_eq!(fresh, collect(&mut warm, &ctx, &cur, false));
                checked += 1;
            }
        }
        assert!(checked > 0);
        // The memory was used, on grids with hints of both kinds.
        assert!(known > 600, "{known} planes known");
        assert!(
            hints > 150 && placements > 0,
            "{hints} hints, {placements} placements"
        );
    }
}
