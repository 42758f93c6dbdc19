//! `generate --variant samurai|x|windoku|jigsaw`: one worker for every shape but the
//! classic grid, generic over the puzzle maker of the shape's family ([`VariantMaker`]).
//!
//! Puzzle `i` is drawn from the random stream of `(seed, i)` ([`rng_for`]): with
//! `--symmetry random` the symmetry is drawn first from that stream, and with an ER target
//! (`--level`, `--er`) candidates are drawn from it one after another until one is on target
//! (rejection; at most `--max-attempts`). Jigsaw puzzles get a random layout of nine
//! connected regions per candidate, or the `--regions` layout. So the bytes depend only on
//! the seed, the index and the options, never on threads or shards.
//!
//! Rows have the columns of classic `generate` (Jigsaw adds `regions` after `puzzle`); the
//! puzzle and the solution are the one-line forms `solve --variant ...` reads, and the
//! rating columns are those `solve` writes for the puzzle (the same grader and text, see
//! [`crate::pipeline::solve::rating_fields`]).

use std::sync::atomic::{AtomicU64, Ordering};

use rand_xoshiro::Xoshiro256PlusPlus;

use crate::config::GenerateConfig;
use crate::core::Cancel;
use crate::core::family::Family;
use crate::core::generator::layout::random_layout;
use crate::core::generator::rng::below;
use crate::core::generator::variant::VariantGenerator;
use crate::core::generator::{ErRange, ErScore, Symmetry, SymmetryChoice};
use crate::core::geometry::{Geometry, S81, S369, Shape};
use crate::core::grader::{Grader, Outcome, Rating};
use crate::core::jigsaw;
use crate::core::profile::{NamedCount, TECHNIQUES, TechniqueTarget};
use crate::core::samurai::generator::rng_for;
use crate::core::samurai::{SamuraiGenerator, SamuraiSymmetry};
use crate::io::{Field, RowEncoder};
use crate::pipeline::engine::Block;
use crate::pipeline::solve::{profile_fields, rating_fields};

use super::{Failure, GenerateStats, PuzzleWorker};

/// What a generated variant puzzle must satisfy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantTarget {
    /// The shape (not classic).
    pub shape: Shape,
    /// The clue-pattern symmetry.
    pub symmetry: SymmetryChoice,
    /// Accept only puzzles whose ER is in this range (needs grading). A lower bound (the
    /// budget ran out) is in a range only when the range is open above.
    pub er: Option<ErRange>,
    /// Conditions on the techniques of the grading path; `er` holds the ER range they
    /// imply.
    pub techniques: TechniqueTarget,
    /// Candidates to try for one puzzle before the run stops with an error.
    pub max_attempts: u64,
    /// Give up on a puzzle early, once its candidates' work (grading, plus a fixed charge
    /// per candidate made) passes this many units while none came within
    /// [`GIVE_UP_DISTANCE`] of the ER range: the target looks out of reach
    /// for the shape (a level its minimal puzzles almost never have). Work units are
    /// deterministic, so where a run stops depends only on its arguments.
    pub give_up_work: Option<u64>,
    /// Jigsaw: this fixed layout (zero-based region of each cell) instead of a random one
    /// per candidate.
    pub regions: Option<[u8; 81]>,
}

/// A made puzzle and its unique solution.
pub type Made<F> = (<F as Family>::Grid, <F as Family>::Grid);

/// Makes the puzzles of one family: a candidate from the random stream, on the geometry
/// (which a Jigsaw maker gives its layout).
pub trait VariantMaker: Send {
    /// The family of the puzzles.
    type F: Family;

    /// A maker with fresh scratch.
    fn new() -> Self;

    /// A candidate puzzle and its unique solution, with clue symmetry `symmetry`; `None`
    /// when none could be made (a Jigsaw whose layouts kept having no completed grid).
    fn make(
        &mut self,
        rng: &mut Xoshiro256PlusPlus,
        geo: &mut Geometry<Self::F>,
        target: &VariantTarget,
        symmetry: Symmetry,
    ) -> Option<Made<Self::F>>;
}

/// Samurai puzzles from the [`SamuraiGenerator`].
#[derive(Debug)]
pub struct SamuraiMaker(SamuraiGenerator);

/// The Samurai form of a clue-pattern symmetry (the same seven, by name).
fn samurai_symmetry(s: Symmetry) -> SamuraiSymmetry {
    s.name().parse().unwrap_or(SamuraiSymmetry::None)
}

impl VariantMaker for SamuraiMaker {
    type F = S369;

    fn new() -> SamuraiMaker {
        SamuraiMaker(SamuraiGenerator::new())
    }

    fn make(
        &mut self,
        rng: &mut Xoshiro256PlusPlus,
        _geo: &mut Geometry<S369>,
        _target: &VariantTarget,
        symmetry: Symmetry,
    ) -> Option<Made<S369>> {
        let made = self.0.generate_with(rng, samurai_symmetry(symmetry));
        Some((made.puzzle, made.solution))
    }
}

/// X, Windoku and Jigsaw puzzles from the [`VariantGenerator`].
#[derive(Debug)]
pub struct GridMaker(VariantGenerator);

/// How far (in tenths of ER) from the range every candidate of a puzzle must stay for the
/// early give-up ([`VariantTarget::give_up_work`]). Far enough that a range some puzzles of
/// the shape reach is not given up by bad luck: Samurai `--er ..4.4` (about one puzzle in
/// fifteen) can see fifteen candidates in a row at 6.6, 2.2 away; minimal X puzzles never
/// come nearer than ER 4.5 to `easy` (3.0 away), Samurai ones than 6.6 (5.1 away).
pub const GIVE_UP_DISTANCE: u16 = 25;

/// What making one candidate of `shape` costs, in grading work units (about 50 ns each;
/// measured with `generate --variant SHAPE --no-grade -j1`: X 0.5 ms, Windoku 0.4 ms, Jigsaw
/// 1.2 ms, Samurai 2.9 ms). The early give-up counts it with the grading work, so it comes
/// after about the same time whether grading is long or, stopped early by the ER cap, short.
fn make_work(shape: Shape) -> u64 {
    match shape {
        Shape::Samurai => 58_000,
        Shape::Jigsaw => 23_000,
        Shape::Windoku => 8_000,
        _ => 10_000,
    }
}

/// Layouts drawn for one Jigsaw candidate before giving up (a layout has no completed grid
/// rarely; twenty in a row do not happen in practice).
const LAYOUT_TRIES: usize = 20;

impl VariantMaker for GridMaker {
    type F = S81;

    fn new() -> GridMaker {
        GridMaker(VariantGenerator::new())
    }

    fn make(
        &mut self,
        rng: &mut Xoshiro256PlusPlus,
        geo: &mut Geometry<S81>,
        target: &VariantTarget,
        symmetry: Symmetry,
    ) -> Option<Made<S81>> {
        if target.shape != Shape::Jigsaw {
            return self
                .0
                .generate(geo, rng, symmetry)
                .map(|m| (m.puzzle, m.solution));
        }
        for _ in 0..LAYOUT_TRIES {
            let layout = match &target.regions {
                Some(r) => *r,
                None => random_layout(rng),
            };
            S81::set_layout(geo, &layout);
            if let Some(m) = self.0.generate(geo, rng, symmetry) {
                return Some((m.puzzle, m.solution));
            }
            if target.regions.is_some() {
                // A fixed layout without a completed grid never gets one.
                return None;
            }
        }
        None
    }
}

/// Per-worker scratch: the target, the maker, the geometry, the grader and the row buffers.
#[derive(Debug)]
pub struct VariantWorker<M: VariantMaker> {
    target: VariantTarget,
    maker: M,
    geo: Geometry<M::F>,
    grader: Grader<M::F>,
    puzzle: Vec<u8>,
    solution: Vec<u8>,
    regions: Vec<u8>,
    named: [NamedCount; TECHNIQUES],
    cancel: Cancel,
}

impl<M: VariantMaker> VariantWorker<M> {
    /// A worker making puzzles for `target`, with fresh scratch; it stops between
    /// candidates, and its grader within milliseconds, soon after `cancel` is set.
    pub fn new(target: VariantTarget, cancel: Cancel) -> VariantWorker<M> {
        let mut grader = Grader::new();
        grader.set_cancel(cancel);
        // A candidate more than GIVE_UP_DISTANCE above a bounded range is rejected and
        // counts as far off whatever its exact ER: grading may stop at a lower bound past
        // that (same puzzles, less work).
        grader.set_er_cap(target.er.and_then(|r| r.cap(GIVE_UP_DISTANCE)));
        VariantWorker {
            target,
            maker: M::new(),
            geo: M::F::geometry(target.shape),
            grader,
            cancel,
            puzzle: Vec::with_capacity(405),
            solution: Vec::with_capacity(405),
            regions: Vec::with_capacity(81),
            named: [("", 0); TECHNIQUES],
        }
    }
}

/// The ER of a rating as a target sees it.
fn er_score(r: &Rating) -> ErScore {
    ErScore {
        tenths: u16::from(r.er),
        exact: r.complete,
    }
}

impl<M: VariantMaker> PuzzleWorker for VariantWorker<M> {
    fn process(
        &mut self,
        index: u64,
        cfg: &GenerateConfig,
        enc: &RowEncoder,
        block: &mut Block<GenerateStats>,
        failed_at: &AtomicU64,
    ) {
        if block.stats.failure.is_some() {
            return;
        }
        let target = self.target;
        let mut rng = rng_for(cfg.seed, index);
        let symmetry = match target.symmetry {
            SymmetryChoice::Fixed(s) => s,
            SymmetryChoice::Random => Symmetry::NON_TRIVIAL[below(&mut rng, 6) as usize],
        };
        let mut attempts = 0;
        let mut closest: Option<ErScore> = None;
        let mut work = 0u64;
        let mut technique_misses = 0u64;
        let (puzzle, solution, grade) = loop {
            if self.cancel.requested() || failed_at.load(Ordering::Relaxed) < index {
                // The block is dropped (interrupted, or behind a failed puzzle): nothing
                // to record.
                return;
            }
            attempts += 1;
            let Some((puzzle, solution)) =
                self.maker.make(&mut rng, &mut self.geo, &target, symmetry)
            else {
                block.stats.tried += attempts;
                block.stats.failure = Some(Failure {
                    index,
                    attempts,
                    message: format!(
                        "puzzle {index}: no {} grid could be completed{}",
                        target.shape.name(),
                        if target.regions.is_some() {
                            " on the --regions layout (it has no solution grid)".to_string()
                        } else {
                            format!(" on {LAYOUT_TRIES} random layouts")
                        }
                    ),
                });
                return;
            };
            let grade = cfg.grade.then(|| {
                let mut r = Rating::default();
                self.grader.rate_values(
                    &self.geo,
                    M::F::values(&puzzle),
                    Some(M::F::values(&solution)),
                    cfg.grade_budget,
                    &mut r,
                );
                r
            });
            let (Some(range), Some(g)) = (target.er, &grade) else {
                break (puzzle, solution, grade);
            };
            let score = er_score(g);
            let misses = target.techniques.misses(g);
            if range.contains(score) && misses == 0 {
                break (puzzle, solution, grade);
            }
            if range.contains(score) {
                technique_misses += 1;
            }
            if closest.is_none_or(|c| range.distance(score) < range.distance(c)) {
                closest = Some(score);
            }
            work = work.saturating_add(g.work + make_work(target.shape));
            let hopeless = target.give_up_work.is_some_and(|w| work > w)
                && closest.is_none_or(|c| range.distance(c) > GIVE_UP_DISTANCE);
            if attempts >= target.max_attempts || hopeless {
                block.stats.tried += attempts;
                block.stats.failure = Some(Failure {
                    index,
                    attempts,
                    message: failure_message(
                        index,
                        attempts,
                        range,
                        (closest, technique_misses),
                        &target,
                        hopeless,
                    ),
                });
                return;
            }
        };
        let stats = &mut block.stats;
        stats.generated += 1;
        stats.tried += attempts;
        let clues = M::F::clues(&puzzle) as u64;
        stats.clues += clues;
        self.puzzle.clear();
        M::F::write_line(&puzzle, &mut self.puzzle);
        self.solution.clear();
        M::F::write_line(&solution, &mut self.solution);
        let mut bufs = [[0u8; 8]; 3];
        let mut rating = [Field::Null; 5];
        let mut profile = [Field::Null; 2];
        if let Some(g) = &grade {
            if g.outcome != Outcome::Invalid {
                stats.grades.add(g);
                if cfg.profile {
                    stats.grades.add_profile(&g.profile);
                }
            }
            rating_fields(g, &mut bufs, &mut rating);
            if cfg.profile {
                profile = profile_fields(g, &mut self.named);
            }
        }
        let [er, ep, ed, level, hardest] = rating;
        let mut fields = [Field::Null; 13];
        fields[0] = Field::Int(index);
        fields[1] = Field::Text(&self.puzzle);
        let mut k = 2;
        if let Some(layout) = M::F::layout(&self.geo) {
            self.regions.clear();
            jigsaw::write_regions(&layout, &mut self.regions);
            fields[k] = Field::Text(&self.regions);
            k += 1;
        }
        for f in [
            Field::Text(&self.solution),
            Field::Int(clues),
            er,
            ep,
            ed,
            level,
            hardest,
        ] {
            fields[k] = f;
            k += 1;
        }
        if cfg.profile {
            fields[k..k + 2].copy_from_slice(&profile);
            k += 2;
        }
        fields[k] = Field::Text(symmetry.name().as_bytes());
        k += 1;
        enc.write_row(&mut block.out, &fields[..k]);
    }
}

/// The message for a variant puzzle whose ER target was not met: after `--max-attempts`,
/// or given up early (`hopeless`) because no candidate came near the range.
fn failure_message(
    index: u64,
    attempts: u64,
    range: ErRange,
    (closest, technique_misses): (Option<ErScore>, u64),
    target: &VariantTarget,
    hopeless: bool,
) -> String {
    let name = target.shape.name();
    let closest = closest.map(|c| format!("the closest ER was {c}"));
    let techniques = if target.techniques.is_empty() {
        String::new()
    } else {
        format!(
            " ({technique_misses} in range but not {})",
            target.techniques.describe()
        )
    };
    if hopeless {
        format!(
            "puzzle {index}: ER in {range} looks out of reach for {name} puzzles: none of \
             {attempts} candidates came within {}.{} of it{}. Choose another --level/--er, or \
             give --max-attempts (up to {}) to keep trying",
            GIVE_UP_DISTANCE / 10,
            GIVE_UP_DISTANCE % 10,
            closest.map_or(String::new(), |c| format!(" ({c})")),
            target.max_attempts
        )
    } else {
        format!(
            "puzzle {index}: no {name} candidate had ER in {range}{} in {attempts} \
             attempts{techniques}{}. The target is too narrow for --max-attempts {}: widen \
             --level/--er{} or raise --max-attempts",
            if target.techniques.is_empty() {
                String::new()
            } else {
                format!(" and {}", target.techniques.describe())
            },
            closest.map_or(String::new(), |c| format!("; {c}")),
            target.max_attempts,
            if target.techniques.is_empty() {
                ""
            } else {
                " or the technique targets,"
            }
        )
    }
}
