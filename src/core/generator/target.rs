//! What a generated puzzle must satisfy ([`Target`]), and how candidates are found:
//! fresh ones, and for ER targets a local search that steers toward the range.
//!
//! # Acceptance
//!
//! A candidate is accepted when its clue count is in range, it is minimal (if asked), and its
//! ER is in range (if asked). Without `minimal`, digging stops at `min_clues`, so clue ranges
//! above the natural 22-27 of dug-out puzzles are reached directly; with `minimal`, digging
//! always goes to the end and the clue range only filters.
//!
//! # Steering toward an ER range
//!
//! Random minimal puzzles are rarely very hard (ER >= 9.0 is well under one in a thousand),
//! and blind rejection throws every near miss away. With an ER range and [`Target::steer`],
//! each puzzle runs a small local search, entirely from its own random stream (so the result
//! still depends on `(seed, index)` only, never on other puzzles or threads):
//!
//! - candidates are fresh (new grid, dug out) until one with an exact ER (not a lower bound)
//!   misses the range by at most [`NEAR_MISS`] tenths; that near miss becomes the *current*
//!   candidate;
//! - each next candidate is then a *mutation* of the current one: remove one clue orbit (one
//!   time in three after adding a random one), then add orbits of the same solution until it
//!   is unique again, each at the first cell in a random order that is not forced (a "-1+k"
//!   neighbour, as in the vicinity searches of the Sudoku Players' Forum "hardest" hunts),
//!   and dig it out again so it is (orbit-)minimal;
//! - a mutant whose distance to the ER range is not larger than the current one's replaces
//!   it (sideways moves keep the search moving on plateaus of equal ER);
//! - after [`RESTART_AFTER`] candidates without getting closer, the search goes back to
//!   fresh candidates.
//!
//! A mutant costs less than a fresh candidate (no new grid, a short dig), and the
//! neighbours of a near miss are more often in range than random puzzles are when the range
//! is rare; for common ranges the search changes little.

use std::fmt;

use super::dig::clue_bits;
use super::rng::PuzzleRng;
use super::symmetry::{Symmetry, SymmetryChoice};
use super::{Generated, Generator, Rate, random_full_grid};
use crate::core::grid::Grid;
use crate::core::index::Cell;
use crate::core::profile::TechniqueTarget;

const ALL_CELLS: u128 = (1u128 << 81) - 1;

/// Most orbits a mutation adds to make the puzzle unique again.
pub const COVER_LIMIT: u32 = 6;

/// Repair steps for a symmetric candidate that is not minimal, before it is rejected.
pub const REPAIR_STEPS: u32 = 30;

/// How far (in tenths of ER) from the range a rejected fresh candidate may be for a local
/// search to start from it; farther ones are simply dropped.
pub const NEAR_MISS: u16 = 10;

/// Candidates tried without getting closer to the ER range before the local search restarts
/// from a fresh puzzle.
pub const RESTART_AFTER: u32 = 40;

/// An ER value in tenths (`93` is 9.3); `exact` is false when it is only a lower bound
/// (the rater ran out of budget).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ErScore {
    /// ER times ten.
    pub tenths: u16,
    /// False when the true ER may be higher.
    pub exact: bool,
}

impl fmt::Display for ErScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let prefix = if self.exact { "" } else { ">=" };
        write!(f, "{prefix}{}.{}", self.tenths / 10, self.tenths % 10)
    }
}

/// An inclusive range of ER in tenths; `max == ErRange::OPEN` leaves it open above.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ErRange {
    /// Smallest accepted ER, in tenths.
    pub min: u16,
    /// Largest accepted ER, in tenths, or [`ErRange::OPEN`].
    pub max: u16,
}

impl ErRange {
    /// The `max` of a range with no upper bound.
    pub const OPEN: u16 = u16::MAX;

    /// True when a puzzle rated `score` is surely in the range (a lower bound is in it only
    /// when the range is open above).
    pub fn contains(&self, score: ErScore) -> bool {
        score.tenths >= self.min
            && (self.max == ErRange::OPEN || (score.exact && score.tenths <= self.max))
    }

    /// The ER above which a rating needs not be exact for this range: `margin` tenths
    /// past its maximum (a rater may stop at a lower bound beyond it, see
    /// [`Rate::set_er_cap`]); `None` when the range is open above.
    pub fn cap(&self, margin: u16) -> Option<u16> {
        (self.max != ErRange::OPEN).then(|| self.max.saturating_add(margin))
    }

    /// How far `score` is from the range, in tenths (0 inside; 1 for a lower bound that may or
    /// may not be inside).
    pub fn distance(&self, score: ErScore) -> u16 {
        if self.contains(score) {
            0
        } else if score.tenths < self.min {
            self.min - score.tenths
        } else if score.tenths > self.max {
            score.tenths - self.max
        } else {
            1
        }
    }
}

impl fmt::Display for ErRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}..", self.min / 10, self.min % 10)?;
        if self.max != ErRange::OPEN {
            write!(f, "{}.{}", self.max / 10, self.max % 10)?;
        }
        Ok(())
    }
}

/// What a generated puzzle must satisfy, and how hard to try.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    /// The clue-pattern symmetry.
    pub symmetry: SymmetryChoice,
    /// Fewest clues accepted (without `minimal`, digging stops here).
    pub min_clues: u8,
    /// Most clues accepted.
    pub max_clues: u8,
    /// Accept only minimal puzzles (no clue can go without losing uniqueness).
    pub minimal: bool,
    /// Accept only puzzles whose ER is in this range (needs a rater that gives ER).
    pub er: Option<ErRange>,
    /// Candidates to try for one puzzle before giving up with a [`GenerateError`].
    pub max_attempts: u64,
    /// With an ER range or technique conditions: steer by local search instead of
    /// rejecting blindly.
    pub steer: bool,
    /// Conditions on the techniques of the grading path (needs a rater that profiles);
    /// `er` should hold the ER range they imply ([`TechniqueTarget::er_range`]), which is
    /// what the search steers by.
    pub techniques: TechniqueTarget,
}

impl Default for Target {
    fn default() -> Self {
        Target {
            symmetry: SymmetryChoice::default(),
            min_clues: 0,
            max_clues: 81,
            minimal: false,
            er: None,
            max_attempts: 100_000,
            steer: true,
            techniques: TechniqueTarget::default(),
        }
    }
}

/// Why candidates were rejected, counted over the attempts for one puzzle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rejections {
    /// Clue count outside the range.
    pub clues: u64,
    /// Not minimal (a clue could go).
    pub not_minimal: u64,
    /// ER outside the range.
    pub rating: u64,
    /// ER in range but the technique conditions not met.
    pub techniques: u64,
    /// Mutations that lost uniqueness (local search only).
    pub mutation_failed: u64,
}

/// No candidate met the target within the allowed attempts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenerateError {
    /// The puzzle index that failed.
    pub index: u64,
    /// Candidates tried.
    pub attempts: u64,
    /// Why they were rejected.
    pub rejections: Rejections,
    /// The rated candidate closest to the ER range, if any was rated.
    pub closest: Option<ErScore>,
    /// The target that was not met.
    pub target: Target,
    /// True when the attempts stopped because a stop was requested, not because the
    /// target was out of reach.
    pub interrupted: bool,
}

impl fmt::Display for GenerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = &self.target;
        let r = &self.rejections;
        if self.interrupted {
            return write!(
                f,
                "puzzle {}: interrupted after {} attempts",
                self.index, self.attempts
            );
        }
        write!(
            f,
            "puzzle {}: no candidate met the target in {} attempts",
            self.index, self.attempts
        )?;
        let mut parts = Vec::new();
        if r.clues > 0 {
            parts.push(format!(
                "{} with a clue count outside {}..{}",
                r.clues, t.min_clues, t.max_clues
            ));
        }
        if r.not_minimal > 0 {
            parts.push(format!("{} not minimal", r.not_minimal));
        }
        if r.rating > 0 {
            let range = t.er.map(|e| e.to_string()).unwrap_or_default();
            parts.push(format!("{} with ER outside {range}", r.rating));
        }
        if r.techniques > 0 {
            parts.push(format!(
                "{} with ER in range but not {}",
                r.techniques,
                t.techniques.describe()
            ));
        }
        if r.mutation_failed > 0 {
            parts.push(format!("{} mutations not unique", r.mutation_failed));
        }
        if !parts.is_empty() {
            write!(f, " ({})", parts.join(", "))?;
        }
        if let Some(c) = self.closest {
            write!(f, "; the closest ER was {c}")?;
        }
        Ok(())
    }
}

impl std::error::Error for GenerateError {}

/// A candidate puzzle: unique and dug out.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    puzzle: Grid,
    solution: Grid,
    symmetry: Symmetry,
}

impl Target {
    fn floor(&self) -> usize {
        if self.minimal {
            0
        } else {
            usize::from(self.min_clues)
        }
    }
}

impl Generator {
    /// Generates puzzle `index` of a run with `seed`: the result depends on `(seed, index)`,
    /// `target` and the rater only. Fails when `target.max_attempts` candidates were tried
    /// without meeting the target.
    #[allow(
        clippy::result_large_err,
        reason = "the error (with the target it missed) is made once per failed run, and the \
                  Ok value, two grids and a rating, is as large"
    )]
    pub fn generate<R: Rate>(
        &mut self,
        rater: &mut R,
        target: &Target,
        seed: u64,
        index: u64,
    ) -> Result<Generated<R::Rating>, GenerateError> {
        let mut rng = PuzzleRng::for_puzzle(seed, index);
        // `random` draws the symmetry once per puzzle, so every symmetry gets its share
        // whatever its cost.
        let symmetry = match target.symmetry {
            SymmetryChoice::Fixed(s) => s,
            SymmetryChoice::Random => Symmetry::NON_TRIVIAL[rng.below(6) as usize],
        };
        // Known sets only spare solves, but the repair picks cells from them: start empty so
        // the result cannot depend on what this generator made before.
        self.sets.clear();
        let steering = target.steer && (target.er.is_some() || !target.techniques.is_empty());
        // A candidate more than NEAR_MISS above a bounded range never starts or continues a
        // local search (its distance is larger than any current one's), so its exact ER is
        // not needed: the rater may stop at a lower bound past that, which spares the
        // searches for its hardest steps. What is accepted and how the search moves stay
        // the same.
        rater.set_er_cap(target.er.and_then(|r| r.cap(NEAR_MISS)));
        let mut rejections = Rejections::default();
        let mut closest: Option<(u16, ErScore)> = None;
        let mut current: Option<(Candidate, u16)> = None;
        let mut stale = 0u32;
        let mut attempts = 0u64;
        let mut interrupted = false;
        while attempts < target.max_attempts {
            if self.cancel.requested() {
                interrupted = true;
                break;
            }
            attempts += 1;
            let cand = match current {
                Some((ref cur, _)) if steering && stale < RESTART_AFTER => {
                    match self.mutate(cur, target, &mut rng) {
                        Some(c) => c,
                        None => {
                            rejections.mutation_failed += 1;
                            stale += 1;
                            continue;
                        }
                    }
                }
                _ => {
                    current = None;
                    stale = 0;
                    self.fresh(symmetry, target, &mut rng)
                }
            };
            let mut cand = cand;
            if target.minimal && !self.make_minimal(&mut cand, &mut rng) {
                rejections.not_minimal += 1;
                stale += 1;
                continue;
            }
            let clues = cand.puzzle.clue_count();
            if clues < usize::from(target.min_clues) || clues > usize::from(target.max_clues) {
                rejections.clues += 1;
                stale += 1;
                continue;
            }
            let rating = rater.rate(&cand.puzzle, &cand.solution);
            let score = R::er(&rating);
            let misses = if target.techniques.is_empty() {
                0
            } else {
                R::technique_misses(&rating, &target.techniques)
            };
            // No ER range, or a rater without ER: nothing to filter on by ER.
            let er_distance = match (target.er, score) {
                (Some(range), Some(score)) => range.distance(score),
                _ => 0,
            };
            let d = er_distance + misses;
            let accepted = d == 0;
            if !accepted {
                if er_distance > 0 {
                    rejections.rating += 1;
                } else {
                    rejections.techniques += 1;
                }
                if let Some(score) = score {
                    if closest.is_none_or(|(cd, _)| d < cd) {
                        closest = Some((d, score));
                    }
                    if steering {
                        match current {
                            Some((_, cd)) if d > cd => stale += 1,
                            Some((_, cd)) => {
                                stale = if d < cd { 0 } else { stale + 1 };
                                current = Some((cand, d));
                            }
                            None if d <= NEAR_MISS && score.exact => {
                                current = Some((cand, d));
                            }
                            None => {}
                        }
                    }
                }
            }
            if accepted {
                return Ok(Generated {
                    puzzle: cand.puzzle,
                    solution: cand.solution,
                    clues: clues as u8,
                    symmetry: cand.symmetry,
                    rating,
                    attempts,
                });
            }
        }
        Err(GenerateError {
            index,
            attempts,
            rejections,
            closest: closest.map(|(_, s)| s),
            target: *target,
            interrupted,
        })
    }

    /// Makes a dug-out candidate minimal, keeping its symmetry; false when that failed.
    ///
    /// Without symmetry digging already leaves a minimal puzzle. With symmetry, a kept orbit
    /// may hold a clue `x` that could go on its own (the orbit as a whole could not). A
    /// repair step removes the whole orbit of such an `x`, adds orbits of the solution until
    /// the puzzle is unique again ([`Generator::cover`]), and digs it out. The step is kept
    /// when the new puzzle has no more removable clues than the old one (a hill climb on
    /// that number). After [`REPAIR_STEPS`] steps the candidate is given up.
    fn make_minimal(&mut self, cand: &mut Candidate, rng: &mut PuzzleRng) -> bool {
        if cand.symmetry == Symmetry::None {
            return true;
        }
        let symmetry = cand.symmetry;
        let solution = cand.solution;
        let mut bad = self.removable_clues(&cand.puzzle, &solution);
        let mut steps = 0;
        while bad != 0 {
            if steps == REPAIR_STEPS {
                return false;
            }
            steps += 1;
            let x = Cell::new(rng.pick_bit(bad).unwrap_or(0) as u8);
            let orbit = symmetry.orbit(x);
            let mut p = cand.puzzle;
            for &m in orbit.cells() {
                p.set(m, None);
            }
            if !self.cover(&mut p, &solution, symmetry, orbit.cells(), rng) {
                continue;
            }
            self.dig(&mut p, &solution, symmetry, 0, rng);
            let bad_p = self.removable_clues(&p, &solution);
            if bad_p.count_ones() <= bad.count_ones() {
                cand.puzzle = p;
                bad = bad_p;
            }
        }
        true
    }

    /// Makes `q` (the clues of `solution` minus the orbit `removed` of a unique puzzle, plus
    /// perhaps some more clues of `solution`) unique again by adding orbits of `solution`:
    /// each time the orbit of the first cell, in a random order, that is not forced (see
    /// [`Generator::first_unforced`]), so each addition rules out some other solution.
    /// False when that takes more than [`COVER_LIMIT`] orbits or needs the removed orbit.
    fn cover(
        &mut self,
        q: &mut Grid,
        solution: &Grid,
        symmetry: Symmetry,
        removed: &[Cell],
        rng: &mut PuzzleRng,
    ) -> bool {
        let mut skip = 0u128;
        for &m in removed {
            skip |= 1u128 << m.index();
        }
        let mut order = [0u8; 81];
        for (i, o) in order.iter_mut().enumerate() {
            *o = i as u8;
        }
        rng.shuffle(&mut order);
        for _ in 0..=COVER_LIMIT {
            // Any other solution differs from `solution` inside the removed orbit.
            if self
                .find_alternative(q, clue_bits(q), removed, solution)
                .is_none()
            {
                return true;
            }
            let Some(e) = self.first_unforced(q, solution, &order, skip, symmetry) else {
                return false;
            };
            for &m in symmetry.orbit(e).cells() {
                q.set(m, solution.digit(m));
            }
        }
        false
    }

    /// A fresh candidate: a new full grid, dug out under `symmetry`.
    fn fresh(&mut self, symmetry: Symmetry, target: &Target, rng: &mut PuzzleRng) -> Candidate {
        let solution = random_full_grid(rng);
        let mut puzzle = solution;
        self.dig(&mut puzzle, &solution, symmetry, target.floor(), rng);
        Candidate {
            puzzle,
            solution,
            symmetry,
        }
    }

    /// A neighbour of `cur` (see the module docs), dug out again; `None` when the change
    /// lost uniqueness.
    fn mutate(
        &mut self,
        cur: &Candidate,
        target: &Target,
        rng: &mut PuzzleRng,
    ) -> Option<Candidate> {
        let symmetry = cur.symmetry;
        let mut puzzle = cur.puzzle;
        let solution = cur.solution;
        let clues = clue_bits(&puzzle);
        let c = Cell::new(rng.pick_bit(clues)? as u8);
        // Remove the orbit of `c` (after adding a random orbit, one time in three), then add
        // orbits until the puzzle is unique again.
        self.sets.prepare(&solution);
        let removed = symmetry.orbit(c);
        if rng.chance(1, 3) {
            let e = Cell::new(rng.pick_bit(ALL_CELLS & !clues)? as u8);
            for &m in symmetry.orbit(e).cells() {
                puzzle.set(m, solution.digit(m));
            }
        }
        for &m in removed.cells() {
            puzzle.set(m, None);
        }
        if !self.cover(&mut puzzle, &solution, symmetry, removed.cells(), rng) {
            return None;
        }
        self.dig(&mut puzzle, &solution, symmetry, target.floor(), rng);
        Some(Candidate {
            puzzle,
            solution,
            symmetry,
        })
    }
}
