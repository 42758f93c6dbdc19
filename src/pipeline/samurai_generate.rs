//! `generate --variant samurai`: the worker that makes samurai puzzles for the shared
//! `generate` run loop ([`super::generate::run`]).
//!
//! Puzzle `i` comes from [`SamuraiGenerator`] fed by the random stream of `(seed, i)`
//! ([`rng_for`]): with `--symmetry random` the symmetry is drawn first from that stream, and
//! with an ER target (`--level`, `--er`) candidates are drawn from it one after another
//! until one is on target (blind rejection; at most `--max-attempts`). So the bytes depend
//! only on the seed, the index and the options, never on threads or shards.
//!
//! Rows have the columns of classic `generate`; the puzzle and the solution are 405-cell
//! lines (the form `solve --variant samurai` reads), and the rating columns are those
//! `solve --variant samurai` writes for the puzzle (the same grader and text, see
//! [`super::solve::rating_fields`]).

use crate::config::GenerateConfig;
use crate::core::generator::{ErRange, ErScore};
use crate::core::geometry::{self, S369};
use crate::core::grader::{Grader, Outcome, Rating};
use crate::core::samurai::generator::rng_for;
use crate::core::samurai::solver::below;
use crate::core::samurai::{SamuraiGenerator, SamuraiSymmetry};
use crate::io::{Field, RowEncoder};

use super::engine::Block;
use super::generate::{Failure, GenerateStats, PuzzleWorker};
use super::solve::rating_fields;

/// The clue-pattern symmetry of samurai puzzles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SamuraiSymmetryChoice {
    /// Always this symmetry.
    Fixed(SamuraiSymmetry),
    /// One of the six symmetries other than `none`, drawn for every puzzle from its own
    /// random stream.
    Random,
}

/// What a generated samurai puzzle must satisfy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SamuraiTarget {
    /// The clue-pattern symmetry.
    pub symmetry: SamuraiSymmetryChoice,
    /// Accept only puzzles whose ER is in this range (needs grading). A lower bound (the
    /// budget ran out) is in a range only when the range is open above.
    pub er: Option<ErRange>,
    /// Candidates to try for one puzzle before the run stops with an error.
    pub max_attempts: u64,
}

/// Per-worker scratch: the target, the generator, the grader and the row buffers.
#[derive(Debug)]
pub struct SamuraiGenerateWorker {
    target: SamuraiTarget,
    generator: SamuraiGenerator,
    grader: Grader<S369>,
    puzzle: Vec<u8>,
    solution: Vec<u8>,
}

impl SamuraiGenerateWorker {
    /// A worker making puzzles for `target`, with a fresh generator and grader.
    pub fn new(target: SamuraiTarget) -> SamuraiGenerateWorker {
        SamuraiGenerateWorker {
            target,
            generator: SamuraiGenerator::new(),
            grader: Grader::new(),
            puzzle: Vec::with_capacity(405),
            solution: Vec::with_capacity(405),
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

impl PuzzleWorker for SamuraiGenerateWorker {
    fn process(
        &mut self,
        index: u64,
        cfg: &GenerateConfig,
        enc: &RowEncoder,
        block: &mut Block<GenerateStats>,
    ) {
        if block.stats.failure.is_some() {
            return;
        }
        let target = self.target;
        let mut rng = rng_for(cfg.seed, index);
        let symmetry = match target.symmetry {
            SamuraiSymmetryChoice::Fixed(s) => s,
            SamuraiSymmetryChoice::Random => SamuraiSymmetry::ALL[1 + below(&mut rng, 6) as usize],
        };
        let mut attempts = 0;
        let mut closest: Option<ErScore> = None;
        let (made, grade) = loop {
            attempts += 1;
            let made = self.generator.generate_with(&mut rng, symmetry);
            let grade = cfg.grade.then(|| {
                let mut r = Rating::default();
                self.grader.rate_values(
                    geometry::samurai(),
                    made.puzzle.values(),
                    Some(made.solution.values()),
                    cfg.grade_budget,
                    &mut r,
                );
                r
            });
            let (Some(range), Some(g)) = (target.er, &grade) else {
                break (made, grade);
            };
            let score = er_score(g);
            if range.contains(score) {
                break (made, grade);
            }
            if closest.is_none_or(|c| range.distance(score) < range.distance(c)) {
                closest = Some(score);
            }
            if attempts >= target.max_attempts {
                block.stats.tried += attempts;
                block.stats.failure = Some(Failure {
                    index,
                    attempts,
                    message: failure_message(index, attempts, range, closest, &target),
                });
                return;
            }
        };
        let stats = &mut block.stats;
        stats.generated += 1;
        stats.tried += attempts;
        let clues = made.clues() as u64;
        stats.clues += clues;
        self.puzzle.clear();
        made.puzzle.write_line(&mut self.puzzle);
        self.solution.clear();
        made.solution.write_line(&mut self.solution);
        let mut bufs = [[0u8; 8]; 3];
        let mut rating = [Field::Null; 5];
        if let Some(g) = &grade {
            if g.outcome != Outcome::Invalid {
                stats.grades.add(g);
            }
            rating_fields(g, &mut bufs, &mut rating);
        }
        let [er, ep, ed, level, hardest] = rating;
        enc.write_row(
            &mut block.out,
            &[
                Field::Int(index),
                Field::Text(&self.puzzle),
                Field::Text(&self.solution),
                Field::Int(clues),
                er,
                ep,
                ed,
                level,
                hardest,
                Field::Text(symmetry.name().as_bytes()),
            ],
        );
    }
}

/// The message for a samurai puzzle whose ER target was not met.
fn failure_message(
    index: u64,
    attempts: u64,
    range: ErRange,
    closest: Option<ErScore>,
    target: &SamuraiTarget,
) -> String {
    let mut m =
        format!("puzzle {index}: no samurai candidate had ER in {range} in {attempts} attempts");
    if let Some(c) = closest {
        m.push_str(&format!("; the closest ER was {c}"));
    }
    m.push_str(&format!(
        ". The target is too narrow for --max-attempts {}: widen --level/--er or raise \
         --max-attempts",
        target.max_attempts
    ));
    m
}
