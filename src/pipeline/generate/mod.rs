//! `generate`: puzzles `lo..hi` of a run (all of `0..count`, or one shard), made by
//! per-worker scratch in ordered windows and written one row per puzzle in index order.
//!
//! The run loop ([`run`]) is shared by every variant: it drives any [`PuzzleWorker`]. Classic
//! puzzles come from [`GenerateWorker`] (a [`Generator`] and a rater); the other shapes'
//! from [`variant::VariantWorker`].
//!
//! Puzzle `i` depends only on the seed, `i` and the target (see
//! [`crate::core::generator`]), so the bytes are the same for any thread count, and the
//! shards of a run concatenate to the unsharded output. A puzzle that cannot be made within
//! `--max-attempts` stops the run with an error after the rows before it are written.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::config::{GenerateConfig, OutputSpec};
use crate::core::Cancel;
use crate::core::generator::{ErScore, GenerateError, Generator, Rate, Unrated};
use crate::core::grader::{Grader, Outcome, Rating};
use crate::core::grid::Grid;
use crate::core::profile::{NamedCount, TECHNIQUES, TechniqueTarget};
use crate::error::Error;
use crate::io::{Field, RowEncoder};

pub mod variant;

use super::RunEnd;
use super::engine::{Block, Engine, Writer};
use super::progress::Progress;
use super::records_run::{
    check_written, complete_output, open_output, output_name, write_error_path,
};
use super::solve::PROFILE_COLUMNS;
use super::summary::{GradeStats, LEVELS};

/// The output columns of `generate`, in order.
pub const GENERATE_COLUMNS: &[&str] = &[
    "index", "puzzle", "solution", "clues", "er", "ep", "ed", "level", "hardest", "symmetry",
];

/// The output columns of a run: [`GENERATE_COLUMNS`], with `steps` and `techniques` after
/// `hardest` (`--profile`) and `regions` after `puzzle` for Jigsaw.
pub fn generate_columns(cfg: &GenerateConfig) -> Vec<&'static str> {
    let mut c = GENERATE_COLUMNS.to_vec();
    if cfg.profile {
        let hardest = c
            .iter()
            .position(|&n| n == "hardest")
            .unwrap_or(c.len() - 1);
        c.splice(hardest + 1..hardest + 1, PROFILE_COLUMNS);
    }
    if cfg
        .variant
        .is_some_and(|v| v.shape == crate::core::geometry::Shape::Jigsaw)
    {
        c.insert(2, "regions");
    }
    c
}

/// A rater as `generate` uses it: rates puzzles ([`Rate`]), fills the rating columns and
/// counts ratings for the summary.
pub trait RowRater: Rate + Send {
    /// Fills `er`, `ep`, `ed`, `level`, `hardest` for `rating` (text in `bufs`).
    fn columns<'a>(
        rating: &'a Self::Rating,
        bufs: &'a mut [[u8; 8]; 3],
        fields: &mut [Field<'a>; 5],
    );

    /// Fills `steps` and `techniques` for `rating` (entries in `named`).
    fn profile_columns<'a>(
        _rating: &'a Self::Rating,
        _named: &'a mut [NamedCount; TECHNIQUES],
    ) -> [Field<'a>; 2] {
        [Field::Null; 2]
    }

    /// Counts `rating` in the summary's histogram, and its profile when `profile`.
    fn tally(rating: &Self::Rating, grades: &mut GradeStats, profile: bool);

    /// Makes ratings stop soon after `cancel` is set (raters without long searches need
    /// nothing).
    fn set_cancel(&mut self, _cancel: Cancel) {}
}

impl RowRater for Unrated {
    fn columns<'a>(_rating: &'a (), _bufs: &'a mut [[u8; 8]; 3], fields: &mut [Field<'a>; 5]) {
        *fields = [Field::Null; 5];
    }

    fn tally(_rating: &(), _grades: &mut GradeStats, _profile: bool) {}
}

/// The grader as `generate`'s rater: rates with a work budget per puzzle.
#[derive(Clone, Debug)]
pub struct Graded {
    grader: Grader,
    budget: u64,
}

impl Graded {
    /// A rater with a fresh grader and `budget` work units per puzzle.
    pub fn new(budget: u64) -> Graded {
        Graded {
            grader: Grader::new(),
            budget,
        }
    }
}

impl Rate for Graded {
    type Rating = Rating;

    fn rate(&mut self, puzzle: &Grid, solution: &Grid) -> Rating {
        let mut r = Rating::default();
        self.grader
            .rate(puzzle, Some(solution), self.budget, &mut r);
        r
    }

    /// ER, exact when the grading went to the end; none for an invalid grading (which a
    /// unique puzzle never gets: such a puzzle is rejected by an ER target).
    fn er(r: &Rating) -> Option<ErScore> {
        (r.outcome != Outcome::Invalid).then_some(ErScore {
            tenths: u16::from(r.er),
            exact: r.complete,
        })
    }

    fn technique_misses(r: &Rating, target: &TechniqueTarget) -> u16 {
        target.misses(r)
    }

    fn set_er_cap(&mut self, cap: Option<u16>) {
        self.grader.set_er_cap(cap);
    }
}

impl RowRater for Graded {
    fn columns<'a>(r: &'a Rating, bufs: &'a mut [[u8; 8]; 3], fields: &mut [Field<'a>; 5]) {
        super::solve::rating_fields(r, bufs, fields);
    }

    fn profile_columns<'a>(
        r: &'a Rating,
        named: &'a mut [NamedCount; TECHNIQUES],
    ) -> [Field<'a>; 2] {
        super::solve::profile_fields(r, named)
    }

    fn tally(r: &Rating, grades: &mut GradeStats, profile: bool) {
        if r.outcome != Outcome::Invalid {
            grades.add(r);
            if profile {
                grades.add_profile(&r.profile);
            }
        }
    }

    fn set_cancel(&mut self, cancel: Cancel) {
        self.grader.set_cancel(cancel);
    }
}

/// Counts for a `generate` run; blocks keep their own and are merged in order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct GenerateStats {
    /// Puzzles written.
    pub generated: u64,
    /// Candidates tried for them (each written puzzle counts itself too).
    pub tried: u64,
    /// Clues over all written puzzles.
    pub clues: u64,
    /// Grading: written puzzles per level, lower bounds, and the techniques that set ER.
    pub grades: GradeStats,
    /// The first puzzle that could not be made.
    #[serde(skip)]
    pub failure: Option<Failure>,
}

/// A puzzle that could not be made: the run stops there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// Its index.
    pub index: u64,
    /// Candidates tried for it (0 for an internal error).
    pub attempts: u64,
    /// What went wrong and what to change.
    pub message: String,
}

/// What a `generate` worker does: make puzzle `index` and append its row. One value per
/// worker thread, built once and reused ([`run`] drives it).
pub trait PuzzleWorker: Send {
    /// Makes puzzle `index` and appends its row to `block.out`, counting it in
    /// `block.stats`. On failure it sets `block.stats.failure` and makes nothing more in
    /// this block (the rows before it stay). `failed_at` is the smallest index that failed
    /// so far in the window (`u64::MAX` if none): a worker may give up a puzzle behind it,
    /// whose row would be dropped anyway.
    fn process(
        &mut self,
        index: u64,
        cfg: &GenerateConfig,
        enc: &RowEncoder,
        block: &mut Block<GenerateStats>,
        failed_at: &AtomicU64,
    );
}

impl GenerateStats {
    /// Adds another block's counts (keeps the first failure).
    pub fn merge(&mut self, o: &GenerateStats) {
        self.generated += o.generated;
        self.tried += o.tried;
        self.clues += o.clues;
        self.grades.merge(&o.grades);
        if self.failure.is_none() {
            self.failure.clone_from(&o.failure);
        }
    }
}

/// Per-worker scratch: the generator and the rater.
#[derive(Debug)]
pub struct GenerateWorker<R> {
    generator: Generator,
    rater: R,
    named: [NamedCount; TECHNIQUES],
}

impl<R: RowRater> GenerateWorker<R> {
    /// A worker with a fresh generator and `rater`, both stopping soon after `cancel` is
    /// set.
    pub fn new(mut rater: R, cancel: Cancel) -> GenerateWorker<R> {
        let mut generator = Generator::new();
        generator.set_cancel(cancel);
        rater.set_cancel(cancel);
        GenerateWorker {
            generator,
            rater,
            named: [("", 0); TECHNIQUES],
        }
    }
}

impl<R: RowRater> PuzzleWorker for GenerateWorker<R> {
    fn process(
        &mut self,
        index: u64,
        cfg: &GenerateConfig,
        enc: &RowEncoder,
        block: &mut Block<GenerateStats>,
        _failed_at: &AtomicU64,
    ) {
        if block.stats.failure.is_some() {
            return;
        }
        let made = match self
            .generator
            .generate(&mut self.rater, &cfg.target, cfg.seed, index)
        {
            Ok(m) => m,
            // The engine drops this block: nothing to record.
            Err(e) if e.interrupted => return,
            Err(e) => {
                block.stats.tried += e.attempts;
                block.stats.failure = Some(Failure {
                    index: e.index,
                    attempts: e.attempts,
                    message: failure_message(&e),
                });
                return;
            }
        };
        let stats = &mut block.stats;
        stats.generated += 1;
        stats.tried += made.attempts;
        stats.clues += u64::from(made.clues);
        let puzzle = made.puzzle.to_line_bytes();
        let solution = made.solution.to_line_bytes();
        let mut bufs = [[0u8; 8]; 3];
        let mut rating = [Field::Null; 5];
        R::columns(&made.rating, &mut bufs, &mut rating);
        R::tally(&made.rating, &mut stats.grades, cfg.profile);
        let [er, ep, ed, level, hardest] = rating;
        let fields = [
            Field::Int(index),
            Field::Text(&puzzle),
            Field::Text(&solution),
            Field::Int(u64::from(made.clues)),
            er,
            ep,
            ed,
            level,
            hardest,
            Field::Text(made.symmetry.name().as_bytes()),
        ];
        if cfg.profile {
            let [steps, techniques] = R::profile_columns(&made.rating, &mut self.named);
            let mut all = [Field::Null; 12];
            all[..9].copy_from_slice(&fields[..9]);
            all[9] = steps;
            all[10] = techniques;
            all[11] = fields[9];
            enc.write_row(&mut block.out, &all);
        } else {
            enc.write_row(&mut block.out, &fields);
        }
    }
}

/// The end-of-run summary of `generate`.
#[derive(Clone, Debug, Serialize)]
pub struct GenerateSummary {
    /// Output name (`<stdout>` for standard output).
    pub output: String,
    /// The seed (give it with `--seed` to repeat the run).
    pub seed: u64,
    /// The indices made: `first..=last` (empty when nothing was asked).
    pub first_index: u64,
    /// One past the last index asked for.
    pub end_index: u64,
    /// Counts.
    #[serde(flatten)]
    pub stats: GenerateStats,
    /// The shape (`classic`, `samurai`, `x`, `windoku`, `jigsaw`).
    pub variant: &'static str,
    /// True when puzzles were graded.
    pub graded: bool,
    /// Wall-clock seconds.
    pub elapsed_seconds: f64,
    /// Puzzles written per second of wall-clock time.
    pub puzzles_per_second: f64,
    /// Candidates tried per written puzzle.
    pub tried_per_puzzle: f64,
    /// Worker threads.
    pub threads: usize,
    /// True if the run was interrupted.
    pub interrupted: bool,
}

impl GenerateSummary {
    fn new(
        cfg: &GenerateConfig,
        (lo, hi): (u64, u64),
        stats: GenerateStats,
        elapsed: Duration,
        threads: usize,
        interrupted: bool,
    ) -> GenerateSummary {
        let secs = elapsed.as_secs_f64();
        let n = stats.generated as f64;
        GenerateSummary {
            output: output_name(&cfg.output),
            seed: cfg.seed,
            first_index: lo,
            end_index: hi,
            variant: cfg.variant.map_or("classic", |v| v.shape.name()),
            graded: cfg.grade,
            elapsed_seconds: secs,
            puzzles_per_second: if secs > 0.0 { n / secs } else { 0.0 },
            tried_per_puzzle: if n > 0.0 { stats.tried as f64 / n } else { 0.0 },
            stats,
            threads,
            interrupted,
        }
    }

    /// The short text form for stderr.
    pub fn text(&self) -> String {
        let s = &self.stats;
        let mut t = format!(
            "{} puzzles generated ({} candidates tried, {:.2} per puzzle), seed {}",
            s.generated, s.tried, self.tried_per_puzzle, self.seed
        );
        if s.generated > 0 {
            t.push_str(&format!(
                ", {:.2} clues on average",
                s.clues as f64 / s.generated as f64
            ));
        }
        t.push_str(&format!(
            "\n{:.2} s, {:.0} puzzles/s, {} thread{}",
            self.elapsed_seconds,
            self.puzzles_per_second,
            self.threads,
            if self.threads == 1 { "" } else { "s" }
        ));
        let g = &s.grades;
        if g.graded > 0 {
            t.push_str("\nlevels:");
            for (i, (l, n)) in LEVELS.iter().zip(g.levels).enumerate() {
                t.push_str(&format!("{} {n} {l}", if i == 0 { "" } else { "," }));
            }
            if g.lower_bounds > 0 {
                t.push_str(&format!(" ({} lower bounds)", g.lower_bounds));
            }
            if let Some(table) = g.technique_text() {
                t.push('\n');
                t.push_str(&table);
            }
        }
        t
    }

    /// The JSON form.
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }
}

/// The indices this run makes: all of `0..count`, or shard K of N:
/// `K*count/N .. (K+1)*count/N`.
pub fn index_range(cfg: &GenerateConfig) -> (u64, u64) {
    match cfg.shard {
        None => (0, cfg.count),
        Some(s) => {
            let cut = |k: u64| (u128::from(cfg.count) * u128::from(k) / u128::from(s.count)) as u64;
            (cut(s.index), cut(s.index + 1))
        }
    }
}

/// The message for a puzzle that could not be made.
fn failure_message(e: &GenerateError) -> String {
    format!(
        "{e}. The target is too narrow for --max-attempts {}: widen --level/--er/--clues, \
         drop --minimal or a symmetry, or raise --max-attempts",
        e.target.max_attempts
    )
}

/// Makes puzzles `base .. base + n` on `engine`'s workers as a stream of blocks
/// ([`Engine::stream`]): `done(end, block, spare)` gets each block's rows and counts in
/// order, with `end` the index (from `base`) after its last puzzle, may put the block in
/// `spare` for reuse, and returns false to stop. A puzzle that cannot be made, or whose
/// worker panics (a bug), records a [`Failure`] in its block; workers may give up the
/// puzzles behind the first failure. An `extreme` puzzle or a steered target that takes
/// seconds holds back only the rows behind it, not the other workers. Returns true when
/// every block was handed on.
pub fn make_stream<W: PuzzleWorker>(
    engine: &Engine<W>,
    cfg: &GenerateConfig,
    enc: &RowEncoder,
    base: u64,
    n: usize,
    mut done: impl FnMut(usize, Block<GenerateStats>, &mut Vec<Block<GenerateStats>>) -> bool,
) -> bool {
    let size = n.div_ceil(engine.threads() * 64).clamp(1, 16);
    let failed_at = AtomicU64::new(u64::MAX);
    engine.stream(
        n,
        size,
        |w: &mut W, i, block| {
            w.process(base + i as u64, cfg, enc, block, &failed_at);
            if let Some(f) = &block.stats.failure {
                failed_at.fetch_min(f.index, Ordering::Relaxed);
            }
        },
        |i, block| {
            let index = base + i as u64;
            block.stats.failure = Some(Failure {
                index,
                attempts: 0,
                message: format!("puzzle {index}: internal error while generating it"),
            });
        },
        |first, block, spare| done((first + size).min(n), block, spare),
    )
}

/// Runs `generate` with a worker made by `make_worker` for every thread (given the run's
/// [`Cancel`] token, set by `interrupt`).
pub fn run<W: PuzzleWorker>(
    cfg: &GenerateConfig,
    make_worker: impl Fn(Cancel) -> W,
    interrupt: Arc<AtomicBool>,
) -> Result<(GenerateSummary, RunEnd), Error> {
    let start = Instant::now();
    let (lo, hi) = index_range(cfg);
    let sink = open_output(&cfg.output)?;
    let out_path = write_error_path(&sink, &cfg.output);
    let enc = RowEncoder::new(cfg.format, generate_columns(cfg));
    let mut header = Vec::new();
    if cfg.header && cfg.shard.is_none_or(|s| s.index == 0) {
        enc.write_header(&mut header);
    }
    let engine = Engine::new(cfg.threads, Arc::clone(&interrupt), make_worker)
        .map_err(|e| Error::Usage(format!("cannot start worker threads: {e}")))?;
    let mut writer: Writer<GenerateStats> = Writer::spawn(sink, header);
    let progress = Progress::new(!cfg.quiet, Some(hi - lo), "puzzles");
    let mut stats = GenerateStats::default();
    // Rows go to the writer in batches, at least every quarter second; the vectors (and
    // the blocks in them) come back for reuse.
    let mut batch = Vec::new();
    let mut vecs: Vec<Vec<Block<GenerateStats>>> = Vec::new();
    let mut sent = Instant::now();
    let mut made = 0u64;
    let complete = make_stream(
        &engine,
        cfg,
        &enc,
        lo,
        (hi - lo) as usize,
        |end, block, give| {
            while let Some(mut v) = writer.try_take_blocks() {
                give.append(&mut v);
                vecs.push(v);
            }
            stats.merge(&block.stats);
            made = end as u64;
            let failed = block.stats.failure.is_some();
            batch.push(block);
            if failed || batch.len() >= 64 || sent.elapsed() >= Duration::from_millis(250) {
                let full = std::mem::replace(&mut batch, vecs.pop().unwrap_or_default());
                writer.send(full);
                sent = Instant::now();
                let tried = format!("puzzles ({} tried)", stats.tried);
                progress.update(made, stats.generated, &tried);
            }
            !failed && !writer.failed()
        },
    );
    if !batch.is_empty() {
        writer.send(batch);
    }
    let end = if !complete && stats.failure.is_none() && !writer.failed() {
        RunEnd::Interrupted
    } else {
        RunEnd::Completed
    };
    let tried = format!("puzzles ({} tried)", stats.tried);
    progress.update(made, stats.generated, &tried);
    progress.finish();
    let (sink, write_result) = writer.finish();
    if check_written(write_result, &out_path)? {
        let s = GenerateSummary::new(cfg, (lo, hi), stats, start.elapsed(), 0, true);
        return Ok((s, RunEnd::BrokenPipe));
    }
    if let Some(f) = &stats.failure {
        return Err(Error::Usage(format!(
            "{} (the {} rows before it were written{})",
            f.message,
            stats.generated,
            match &cfg.output {
                OutputSpec::File(p) => format!(" to {}", out_path_partial(p).display()),
                OutputSpec::Stdout => String::new(),
            }
        )));
    }
    complete_output(sink, &end, &out_path)?;
    let interrupted = end != RunEnd::Completed;
    let s = GenerateSummary::new(
        cfg,
        (lo, hi),
        stats,
        start.elapsed(),
        engine.threads(),
        interrupted,
    );
    Ok((s, end))
}

fn out_path_partial(p: &std::path::Path) -> std::path::PathBuf {
    crate::io::output::partial_path(p)
}
