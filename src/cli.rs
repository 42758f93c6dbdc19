//! The command line, defined with clap's derive API. The doc comments here are the help
//! text. Nothing is validated or resolved here beyond what clap checks; see
//! [`crate::config`] for that.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Process Sudoku puzzles in bulk, fast: solve and count, across all cores.
#[derive(Debug, Parser)]
#[command(name = "sudoku-batch", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve every puzzle in a file: one output row per input record, in input order.
    Solve(SolveArgs),
    /// Show how a puzzle is solved by human techniques, step by step, with each step's
    /// Sudoku Explainer rating, then the puzzle's ER/EP/ED.
    Explain(ExplainArgs),
    /// Time the solver in-process on whole files (single thread by default) and print
    /// puzzles/s, time per puzzle and guesses per puzzle, median of several rounds.
    Bench(BenchArgs),
    /// Generate uniquely solvable puzzles: random full grid, clues removed (with their
    /// symmetry partners) while the solution stays unique, graded, accepted when on target.
    /// The same seed gives the same bytes for any thread count and any shard split.
    Generate(GenerateArgs),
    /// For every uniquely solvable puzzle in a file, a minimal puzzle whose clues are a
    /// subset of its clues (same solution); deterministic.
    Minimize(MinimizeArgs),
    /// Draw puzzles: a printable PDF booklet (`-o book.pdf`), one SVG page (`-o page.svg`)
    /// or one SVG file per puzzle (`-o DIR/`). Reads any puzzle input, or the CSV/TSV/JSON
    /// Lines that `solve` and `generate` write (labels from their columns).
    Render(RenderArgs),
    /// Print a shell completion script to stdout.
    Completions {
        /// The shell to complete for.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff) to stdout.
    Man,
}

/// The options of every command that writes rows (`solve`, `generate`, `minimize`): where
/// the rows go and in what form, on how many threads, and what is said about the run.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Output file (`-` or absent: standard output). Rows go to FILE.partial, renamed to
    /// FILE when the run completes.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Worker threads (0 or absent: all cores, or RAYON_NUM_THREADS when set).
    #[arg(short = 'j', long = "threads", value_name = "N", default_value_t = 0)]
    pub threads: usize,

    /// Output format.
    #[arg(long, value_enum, default_value_t = FormatArg::Csv)]
    pub format: FormatArg,

    /// Leave out the header line (for streaming and for concatenating shards).
    #[arg(long)]
    pub no_header: bool,

    /// No progress bar and no summary on stderr.
    #[arg(short, long)]
    pub quiet: bool,

    /// Write the end-of-run summary as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub summary_json: Option<PathBuf>,
}

/// Options of `solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Input file, or `-` for standard input.
    #[arg(value_name = "INPUT")]
    pub input: PathBuf,

    /// Output, threads and reporting.
    #[command(flatten)]
    pub run: RunArgs,

    /// Count solutions up to N (2 means "two or more"; 1 stops at the first solution).
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..))]
    pub limit: u32,

    /// How records are laid out in the input.
    #[arg(long, value_enum, default_value_t = InputFormatArg::Auto)]
    pub input_format: InputFormatArg,

    /// Puzzle variant. `samurai`: five overlapping 9x9 grids; each record is a 405-cell
    /// line, five 81-cell lines, or a 21-line block of the 21x21 layout, recognised by its
    /// first line.
    #[arg(long, value_enum, default_value_t = VariantArg::Classic)]
    pub variant: VariantArg,

    /// Compare each solution with the input's solution column (CSV input); adds a `check`
    /// column: `ok`, `mismatch`, or empty when there is nothing to compare.
    #[arg(long)]
    pub check: bool,

    /// For curated collections: stop at the first record that is invalid or not uniquely
    /// solvable, with exit code 1 and its location (rows up to it stay in FILE.partial).
    #[arg(long)]
    pub strict: bool,

    /// Process only shard K of N (K from 0): the records that start in the K-th of N equal
    /// byte ranges of the input file. Line numbers stay global and only shard 0 writes the
    /// header, so concatenating the N outputs gives the bytes of one unsharded run.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<Shard>,

    /// Skip grading: leave the er, ep, ed, level and hardest columns empty.
    #[arg(long)]
    pub no_grade: bool,

    /// Add the technique profile of each graded puzzle: a `steps` column (steps of the
    /// grading path) and a `techniques` column (every technique the path used with its
    /// steps, in Sudoku Explainer's order: `Hidden single:41;Pointing:2`; an object in
    /// JSON Lines), after `hardest`. The summary counts, per technique, the puzzles that
    /// used it and its steps.
    #[arg(long, conflicts_with = "no_grade")]
    pub profile: bool,

    /// Work budget for grading one puzzle, in work units (deterministic; the default,
    /// 100,000,000, is about five seconds of work per 81 cells, enough for every known
    /// puzzle up to ER 11.9: a Samurai gets 369/81 of it). A puzzle that needs more gets a
    /// lower bound: `>=X`.
    #[arg(long, value_name = "UNITS")]
    pub grade_budget: Option<u64>,
}

/// Options of `explain`.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The puzzle: 81 cells on the command line, `-` for standard input, or a file (its
    /// first puzzle is explained).
    #[arg(value_name = "PUZZLE|-|FILE")]
    pub puzzle: String,

    /// Output format.
    #[arg(long, value_enum, default_value_t = ExplainFormatArg::Text)]
    pub format: ExplainFormatArg,

    /// Where to write: a file (text, json, html; default standard output), or for `svg` the
    /// directory that gets one picture per step (`step-001.svg`, ...).
    #[arg(short, long, value_name = "FILE|DIR")]
    pub output: Option<PathBuf>,

    /// Puzzle variant (`samurai`: a 405-cell line on the command line, or the first samurai
    /// record of the input in any of its three forms).
    #[arg(long, value_enum, default_value_t = VariantArg::Classic)]
    pub variant: VariantArg,

    /// Work budget in work units (see `solve --grade-budget`).
    #[arg(long, value_name = "UNITS")]
    pub grade_budget: Option<u64>,

    /// Threads that share the puzzle's chain searches (0 or absent: all cores, or
    /// RAYON_NUM_THREADS when set). The explanation is the same for any number.
    #[arg(short = 'j', long = "threads", value_name = "N", default_value_t = 0)]
    pub threads: usize,
}

/// `explain --format` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ExplainFormatArg {
    /// Numbered steps, one per line, then the ratings.
    Text,
    /// One JSON object: the steps and the ratings.
    Json,
    /// One SVG picture per step (needs `-o DIR`): the candidates before the step, what it
    /// uses highlighted, what it removes struck, what it places marked, chains as arrows.
    Svg,
    /// One self-contained HTML page (no network access) with the steps to page through
    /// and the same pictures.
    Html,
}

/// Options of `bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Puzzle files (any input format; invalid records are skipped and counted).
    #[arg(value_name = "FILES", required = true)]
    pub files: Vec<PathBuf>,

    /// Timed rounds per file (after one untimed warm-up round); the median is reported.
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    pub rounds: u32,

    /// Count solutions up to N (2: uniqueness check; 1: first solution).
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..))]
    pub limit: u32,

    /// Worker threads.
    #[arg(short = 'j', long = "threads", value_name = "N", default_value_t = 1)]
    pub threads: usize,

    /// Print the report as JSON (for scripts such as bench-compare.sh).
    #[arg(long)]
    pub json: bool,

    /// Also grade every puzzle with exactly one solution, as `solve` does (the timed work is
    /// then solving and grading). Needs `--limit` 2 or more, to know which are unique.
    #[arg(long)]
    pub grade: bool,

    /// Work budget per puzzle when grading (as `solve --grade-budget`).
    #[arg(long, value_name = "UNITS", requires = "grade")]
    pub grade_budget: Option<u64>,

    /// Puzzle variant (`samurai`: files of samurai records in any of their three forms).
    #[arg(long, value_enum, default_value_t = VariantArg::Classic)]
    pub variant: VariantArg,

    /// Solver backend to time (classic puzzles): `auto` is the fastest this CPU has; naming
    /// one the CPU lacks is a usage error that lists those it has.
    #[arg(long, value_enum, default_value_t = BackendArg::Auto)]
    pub backend: BackendArg,
}

/// The classic solver's backends (see `core::solver::Backend`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BackendArg {
    /// The fastest this CPU supports: AVX-512, else AVX2, else portable.
    Auto,
    /// AVX-512F intrinsics (x86-64).
    Avx512,
    /// AVX2 intrinsics (x86-64).
    Avx2,
    /// Portable 128-bit vectors: NEON on ARM, SSE2 on x86-64 (any machine).
    Portable,
}

impl BackendArg {
    /// The solver backend.
    pub fn backend(self) -> crate::core::solver::Backend {
        use crate::core::solver::Backend;
        match self {
            BackendArg::Auto => Backend::Auto,
            BackendArg::Avx512 => Backend::Avx512,
            BackendArg::Avx2 => Backend::Avx2,
            BackendArg::Portable => Backend::Portable,
        }
    }
}

/// Options of `generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Number of puzzles to generate (their indices are 0..N).
    #[arg(short = 'n', long = "count", value_name = "N", default_value_t = 1)]
    pub count: u64,

    /// Seed of the run (default: a random one, printed in the summary). Puzzle `i` depends
    /// only on the seed, `i` and the targets.
    #[arg(long, value_name = "SEED")]
    pub seed: Option<u64>,

    /// Skip grading: the rating columns stay empty (fastest). Not with --level, --er or
    /// the technique targets.
    #[arg(long, conflicts_with_all = ["level", "er", "technique", "hardest", "max_technique", "profile"])]
    pub no_grade: bool,

    /// Accept only puzzles of this level (by ER: easy <= 1.5, medium <= 2.5, hard <= 4.4,
    /// fiendish <= 6.2, diabolical <= 8.9, extreme >= 9.0).
    #[arg(long, value_enum, conflicts_with = "er")]
    pub level: Option<LevelArg>,

    /// Accept only puzzles whose ER is in MIN..MAX (one decimal; `9.0..` has no upper
    /// bound, `..2.5` no lower one, `8.3` means 8.3..8.3).
    #[arg(long, value_name = "MIN..MAX", value_parser = parse_er_range)]
    pub er: Option<(u16, Option<u16>)>,

    /// Accept only puzzles whose grading path uses each of these techniques (a
    /// comma-separated list; names as `explain` prints them, any case, or short forms such
    /// as `x-wing`, `xy-wing`, `ur1`, `bug1`, `ape`, `nishio`; `ur` stands for every unique
    /// rectangle type). Steers like --er.
    #[arg(long, value_name = "NAME[,NAME...]")]
    pub technique: Option<String>,

    /// Accept only puzzles whose hardest step (the one that set ER) is this technique.
    /// Steers like --er.
    #[arg(long, value_name = "NAME")]
    pub hardest: Option<String>,

    /// Accept only puzzles that need nothing harder than this technique: every technique
    /// on the grading path has a base rating no higher than its (`--max-technique
    /// xy-wing`: singles, locked candidates, subsets, fish up to swordfish, XY-wing).
    #[arg(long, value_name = "NAME")]
    pub max_technique: Option<String>,

    /// Add the `steps` and `techniques` columns of `solve --profile` (after `hardest`) and
    /// per-technique counts to the summary.
    #[arg(long)]
    pub profile: bool,

    /// Symmetry of the clue pattern (`random`: one of the six others, drawn per puzzle).
    #[arg(long, value_enum, default_value_t = SymmetryArg::None)]
    pub symmetry: SymmetryArg,

    /// Accept only puzzles with MIN..MAX clues (`30..`, `..24`, `25`). Without --minimal,
    /// clue removal stops at MIN.
    #[arg(long, value_name = "MIN..MAX", value_parser = parse_clue_range)]
    pub clues: Option<(u8, u8)>,

    /// Accept only minimal puzzles: no clue can be removed without losing uniqueness (with
    /// no symmetry every generated puzzle already is).
    #[arg(long)]
    pub minimal: bool,

    /// Candidates to try for one puzzle before the run stops with an error saying the
    /// target is too narrow [default: 200000]. Without it, a --variant target that no
    /// candidate comes near (within 2.5 of ER) stops early, after about ten seconds of
    /// work; give it to insist.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_attempts: Option<u64>,

    /// With --level or --er: try fresh candidates only, rejecting those off target, instead
    /// of steering by local search around near misses (for comparison; slower for rare
    /// targets).
    #[arg(long)]
    pub blind: bool,

    /// Work budget for grading one candidate, in work units (as `solve --grade-budget`).
    /// A candidate that needs more gets a lower bound `>=X`, which meets an ER target only
    /// when the target has no upper bound.
    #[arg(long, value_name = "UNITS")]
    pub grade_budget: Option<u64>,

    /// Puzzle variant. Every variant but classic is dug until no clue orbit can go and
    /// takes --symmetry (of the clue pattern), --level/--er (by rejection, with
    /// --max-attempts) and --minimal with no symmetry (every such puzzle is minimal), not
    /// --clues. `samurai` rows hold 405-cell lines; `jigsaw` rows carry a `regions`
    /// column after `puzzle` (a random layout of nine connected regions per puzzle, or
    /// --regions).
    #[arg(long, value_enum, default_value_t = VariantArg::Classic)]
    pub variant: VariantArg,

    /// With `--variant jigsaw`: every puzzle on this layout, 81 region ids `1`-`9` in
    /// reading order (nine regions of nine cells).
    #[arg(long, value_name = "LAYOUT")]
    pub regions: Option<String>,

    /// Make only shard K of N (K from 0): the puzzles with indices K*n/N .. (K+1)*n/N - 1.
    /// Only shard 0 writes the header, so concatenating the N outputs gives the bytes of
    /// one unsharded run.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<Shard>,

    /// Output, threads and reporting.
    #[command(flatten)]
    pub run: RunArgs,
}

/// Options of `minimize`.
#[derive(Debug, Args)]
pub struct MinimizeArgs {
    /// Input file, or `-` for standard input (read like `solve` reads it).
    #[arg(value_name = "INPUT")]
    pub input: PathBuf,

    /// Output, threads and reporting.
    #[command(flatten)]
    pub run: RunArgs,

    /// How records are laid out in the input.
    #[arg(long, value_enum, default_value_t = InputFormatArg::Auto)]
    pub input_format: InputFormatArg,

    /// Puzzle variant (read as `solve --variant` reads it).
    #[arg(long, value_enum, default_value_t = VariantArg::Classic)]
    pub variant: VariantArg,
}

/// Options of `render`.
#[derive(Debug, Args)]
pub struct RenderArgs {
    /// Input file, or `-` for standard input: puzzles in any input format, or rows written
    /// by `solve`/`generate` (CSV, TSV or JSON Lines; the `puzzle`, `solution`, `regions`
    /// columns and the label fields are taken from them).
    #[arg(value_name = "INPUT")]
    pub input: PathBuf,

    /// Where to draw: `FILE.pdf` (a booklet), `FILE.svg` (one page), or a directory
    /// (`DIR/`, or an existing directory: one SVG file per puzzle).
    #[arg(short, long, value_name = "FILE|DIR/")]
    pub output: PathBuf,

    /// Puzzle variant (read as `solve --variant` reads it; drawn with its extra houses).
    #[arg(long, value_enum, default_value_t = VariantArg::Classic)]
    pub variant: VariantArg,

    /// Puzzles per page (PDF and SVG page).
    #[arg(long, value_name = "N", default_value = "4", value_parser = ["1", "2", "4", "6"])]
    pub per_page: String,

    /// Page size.
    #[arg(long, value_enum, default_value_t = PageArg::A4)]
    pub page: PageArg,

    /// Title printed on every page (and the PDF's document title).
    #[arg(long, value_name = "TEXT", default_value = "")]
    pub title: String,

    /// Fields of each puzzle's label, in order, comma separated: `number` (position in the
    /// booklet), `index`, `id`, `line`, `level`, `er`, `ep`, `ed`, `clues`, `hardest`, or
    /// any other input column; fields the input lacks are left out. `none`: no labels.
    #[arg(long, value_name = "FIELDS", default_value = "number,level,er")]
    pub label: String,

    /// Also draw the solutions: on pages at the back of the booklet, in the same order
    /// (SVG: `PAGE-solutions.svg`, or `solution-N.svg` files beside the puzzles). Taken
    /// from the input's `solution` column, else solved.
    #[arg(long)]
    pub solutions: bool,

    /// Draw at most N puzzles.
    #[arg(long, value_name = "N")]
    pub max: Option<usize>,

    /// No summary on stderr.
    #[arg(short, long)]
    pub quiet: bool,
}

/// `render --page` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PageArg {
    /// ISO A4 (210 x 297 mm).
    A4,
    /// US Letter (8.5 x 11 in).
    Letter,
}

/// `--level` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LevelArg {
    /// ER <= 1.5.
    Easy,
    /// ER 1.6 - 2.5.
    Medium,
    /// ER 2.6 - 4.4.
    Hard,
    /// ER 4.5 - 6.2.
    Fiendish,
    /// ER 6.3 - 8.9.
    Diabolical,
    /// ER >= 9.0.
    Extreme,
}

/// `--symmetry` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SymmetryArg {
    /// No constraint.
    None,
    /// Half-turn: (r, c) and (8-r, 8-c) are clues together.
    Rot180,
    /// Quarter-turn: (r, c), (c, 8-r), (8-r, 8-c), (8-c, r) together.
    Rot90,
    /// Left-right mirror: (r, c) and (r, 8-c).
    Mirror,
    /// Top-bottom flip: (r, c) and (8-r, c).
    Flip,
    /// Main diagonal: (r, c) and (c, r).
    Diagonal,
    /// Anti-diagonal: (r, c) and (8-c, 8-r).
    Antidiagonal,
    /// One of the six above, drawn per puzzle.
    Random,
}

/// Splits `MIN..MAX`, `MIN..`, `..MAX` or a single value into its two ends.
fn split_range(s: &str) -> (&str, &str) {
    match s.split_once("..") {
        Some((a, b)) => (a.trim(), b.trim()),
        None => (s.trim(), s.trim()),
    }
}

/// Parses an ER range `MIN..MAX` (one decimal) into tenths; `None` for an open upper end.
pub fn parse_er_range(s: &str) -> Result<(u16, Option<u16>), String> {
    let (a, b) = split_range(s);
    let tenths = |t: &str| -> Result<u16, String> {
        let v: f64 = t
            .parse()
            .map_err(|_| format!("'{t}' is not a number (expected e.g. 7.5..9.0)"))?;
        if !(0.0..=20.0).contains(&v) {
            return Err(format!("ER {t} is outside 0.0..20.0"));
        }
        let x = v * 10.0;
        if (x - x.round()).abs() > 1e-6 {
            return Err(format!("ER {t} has more than one decimal"));
        }
        Ok(x.round() as u16)
    };
    let min = if a.is_empty() { 0 } else { tenths(a)? };
    let max = if b.is_empty() { None } else { Some(tenths(b)?) };
    if a.is_empty() && b.is_empty() {
        return Err("an ER range needs at least one end (e.g. 9.0..)".into());
    }
    if max.is_some_and(|m| m < min) {
        return Err(format!("empty ER range '{s}': MIN is above MAX"));
    }
    Ok((min, max))
}

/// Parses a clue range `MIN..MAX` (`30..`, `..24`, `25`).
pub fn parse_clue_range(s: &str) -> Result<(u8, u8), String> {
    let (a, b) = split_range(s);
    let count = |t: &str| -> Result<u8, String> {
        t.parse::<u8>()
            .ok()
            .filter(|&n| n <= 81)
            .ok_or_else(|| format!("'{t}' is not a clue count 0..81"))
    };
    if a.is_empty() && b.is_empty() {
        return Err("a clue range needs at least one end (e.g. 22..26)".into());
    }
    let min = if a.is_empty() { 0 } else { count(a)? };
    let max = if b.is_empty() { 81 } else { count(b)? };
    if max < min {
        return Err(format!("empty clue range '{s}': MIN is above MAX"));
    }
    if max < 17 {
        return Err(format!(
            "no uniquely solvable puzzle has fewer than 17 clues (asked for at most {max})"
        ));
    }
    Ok((min, max))
}

/// A shard of a run: `index` of `count` (`K/N` on the command line, K from 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// K, from 0.
    pub index: u64,
    /// N, at least 1.
    pub count: u64,
}

/// Parses `K/N` with `0 <= K < N`.
pub fn parse_shard(s: &str) -> Result<Shard, String> {
    let (k, n) = s
        .split_once('/')
        .ok_or_else(|| format!("expected K/N (e.g. 0/4), got '{s}'"))?;
    let index: u64 = k
        .trim()
        .parse()
        .map_err(|_| format!("shard index '{k}' is not a whole number"))?;
    let count: u64 = n
        .trim()
        .parse()
        .map_err(|_| format!("shard count '{n}' is not a whole number"))?;
    if count == 0 {
        return Err("shard count must be at least 1".into());
    }
    if index >= count {
        return Err(format!(
            "shard index {index} must be below the count {count} (K counts from 0)"
        ));
    }
    Ok(Shard { index, count })
}

/// `--format` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// Comma-separated values with a header.
    Csv,
    /// Tab-separated values with a header.
    Tsv,
    /// One JSON object per line.
    Jsonl,
}

/// `--variant` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum VariantArg {
    /// Classic 9x9 Sudoku.
    Classic,
    /// Samurai Sudoku: five 9x9 grids, the centre sharing a box with each corner grid.
    Samurai,
    /// X (diagonal) Sudoku: both main diagonals hold 1-9 too.
    X,
    /// Windoku (hyper Sudoku): four extra 3x3 windows (top-left cells r2c2, r2c6, r6c2,
    /// r6c6) hold 1-9 too.
    Windoku,
    /// Jigsaw Sudoku: nine irregular regions in place of the boxes, given with each puzzle
    /// (81 region ids 1-9 after the cells, nine lines of ids after a grid block, or a CSV
    /// `regions` column).
    Jigsaw,
}

impl VariantArg {
    /// The grid shape.
    pub fn shape(self) -> crate::core::geometry::Shape {
        use crate::core::geometry::Shape;
        match self {
            VariantArg::Classic => Shape::Classic,
            VariantArg::Samurai => Shape::Samurai,
            VariantArg::X => Shape::X,
            VariantArg::Windoku => Shape::Windoku,
            VariantArg::Jigsaw => Shape::Jigsaw,
        }
    }
}

/// `--input-format` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum InputFormatArg {
    /// Detect from the first record: CSV header, 81-cell lines, or nine-line grids.
    Auto,
    /// One puzzle per line: 81 cells, then an optional tail.
    Line,
    /// CSV with a header naming the puzzle column (quizzes, puzzle, question).
    Csv,
    /// Nine-line grid blocks, with or without `|`, `+` and `-` separators.
    Grid,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    fn solve(args: &[&str]) -> SolveArgs {
        let mut v = vec!["sudoku-batch", "solve"];
        v.extend_from_slice(args);
        match Cli::try_parse_from(v).unwrap().command {
            Command::Solve(s) => s,
            c => panic!("not solve: {c:?}"),
        }
    }

    #[test]
    fn definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn solve_defaults() {
        let s = solve(&["in.txt"]);
        assert_eq!(s.input, PathBuf::from("in.txt"));
        assert_eq!(
            (s.run.threads, s.limit, s.run.format),
            (0, 2, FormatArg::Csv)
        );
        assert_eq!(s.input_format, InputFormatArg::Auto);
        assert!(!s.run.no_header && !s.check && !s.run.quiet);
        assert!(s.run.output.is_none() && s.run.summary_json.is_none());
        assert!(!s.no_grade);
        assert_eq!(s.grade_budget, None);
    }

    #[test]
    fn grading_flags_parse() {
        let s = solve(&["x", "--no-grade", "--grade-budget", "1000"]);
        assert!(s.no_grade);
        assert_eq!(s.grade_budget, Some(1000));
        assert!(
            Cli::try_parse_from(["sudoku-batch", "solve", "x", "--grade-budget", "-1"]).is_err()
        );
    }

    #[test]
    fn explain_flags_parse() {
        let Command::Explain(e) = Cli::try_parse_from([
            "sudoku-batch",
            "explain",
            "-",
            "--format",
            "json",
            "--grade-budget",
            "50",
        ])
        .unwrap()
        .command
        else {
            panic!("not explain")
        };
        assert_eq!(e.puzzle, "-");
        assert_eq!(e.format, ExplainFormatArg::Json);
        assert_eq!(e.grade_budget, Some(50));
        let Command::Explain(d) = Cli::try_parse_from(["sudoku-batch", "explain", "p.txt"])
            .unwrap()
            .command
        else {
            panic!("not explain")
        };
        assert_eq!(d.format, ExplainFormatArg::Text);
        assert_eq!(d.variant, VariantArg::Classic);
        assert!(Cli::try_parse_from(["sudoku-batch", "explain"]).is_err());
        assert!(Cli::try_parse_from(["sudoku-batch", "explain", "x", "--format", "xml"]).is_err());
    }

    #[test]
    fn each_solve_flag_parses() {
        let s = solve(&[
            "-",
            "-o",
            "out.csv",
            "-j",
            "3",
            "--limit",
            "1",
            "--format",
            "jsonl",
            "--no-header",
            "--input-format",
            "grid",
            "--check",
            "-q",
            "--summary-json",
            "s.json",
        ]);
        assert_eq!(s.input, PathBuf::from("-"));
        assert_eq!(s.run.output, Some(PathBuf::from("out.csv")));
        assert_eq!(
            (s.run.threads, s.limit, s.run.format),
            (3, 1, FormatArg::Jsonl)
        );
        assert_eq!(s.input_format, InputFormatArg::Grid);
        assert!(s.run.no_header && s.check && s.run.quiet);
        assert_eq!(s.run.summary_json, Some(PathBuf::from("s.json")));
        assert_eq!(
            solve(&["x", "--threads", "2", "--output", "o"]).run.threads,
            2
        );
        assert_eq!(solve(&["x", "--format", "tsv"]).run.format, FormatArg::Tsv);
        assert_eq!(
            solve(&["x", "--input-format", "csv"]).input_format,
            InputFormatArg::Csv
        );
        assert_eq!(
            solve(&["x", "--input-format", "line"]).input_format,
            InputFormatArg::Line
        );
    }

    #[test]
    fn variant_parses() {
        assert_eq!(solve(&["x"]).variant, VariantArg::Classic);
        assert_eq!(
            solve(&["x", "--variant", "samurai"]).variant,
            VariantArg::Samurai
        );
        assert!(
            Cli::try_parse_from(["sudoku-batch", "solve", "x", "--variant", "killer"]).is_err()
        );
    }

    #[test]
    fn bad_values_are_usage_errors() {
        for bad in [
            &["solve", "x", "--limit", "0"][..],
            &["solve", "x", "--format", "xml"],
            &["solve", "x", "-j", "many"],
            &["solve"],
        ] {
            let mut v = vec!["sudoku-batch"];
            v.extend_from_slice(bad);
            assert!(Cli::try_parse_from(v).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn shard_parses_and_is_checked() {
        assert_eq!(
            solve(&["x", "--shard", "2/5"]).shard,
            Some(Shard { index: 2, count: 5 })
        );
        for bad in ["5/5", "1/0", "x/2", "3", "-1/2"] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn bench_flags_parse() {
        let Command::Bench(b) = Cli::try_parse_from([
            "sudoku-batch",
            "bench",
            "a.txt",
            "b.txt",
            "--rounds",
            "3",
            "--limit",
            "1",
            "-j",
            "2",
            "--json",
        ])
        .unwrap()
        .command
        else {
            panic!("not bench")
        };
        assert_eq!(b.files.len(), 2);
        assert_eq!(b.variant, VariantArg::Classic);
        assert_eq!(b.backend, BackendArg::Auto);
        assert_eq!((b.rounds, b.limit, b.threads, b.json), (3, 1, 2, true));
        assert!(Cli::try_parse_from(["sudoku-batch", "bench"]).is_err());
    }

    #[test]
    fn bench_backend_parses() {
        for (name, want) in [
            ("auto", BackendArg::Auto),
            ("avx512", BackendArg::Avx512),
            ("avx2", BackendArg::Avx2),
            ("portable", BackendArg::Portable),
        ] {
            let Command::Bench(b) =
                Cli::try_parse_from(["sudoku-batch", "bench", "a.txt", "--backend", name])
                    .unwrap()
                    .command
            else {
                panic!("not bench")
            };
            assert_eq!(b.backend, want);
            assert_eq!(b.backend.backend().name(), name);
        }
        assert!(
            Cli::try_parse_from(["sudoku-batch", "bench", "a.txt", "--backend", "scalar"]).is_err()
        );
    }

    #[test]
    fn completions_and_man_parse() {
        assert!(matches!(
            Cli::try_parse_from(["sudoku-batch", "completions", "bash"])
                .unwrap()
                .command,
            Command::Completions { .. }
        ));
        assert!(matches!(
            Cli::try_parse_from(["sudoku-batch", "man"])
                .unwrap()
                .command,
            Command::Man
        ));
    }

    fn generate(args: &[&str]) -> GenerateArgs {
        let mut v = vec!["sudoku-batch", "generate"];
        v.extend_from_slice(args);
        match Cli::try_parse_from(v).unwrap().command {
            Command::Generate(g) => g,
            c => panic!("not generate: {c:?}"),
        }
    }

    #[test]
    fn generate_defaults() {
        let g = generate(&[]);
        assert_eq!(
            (g.count, g.seed, g.run.threads, g.run.format),
            (1, None, 0, FormatArg::Csv)
        );
        assert_eq!(g.symmetry, SymmetryArg::None);
        assert!(!g.no_grade && !g.minimal && !g.run.no_header && !g.run.quiet && !g.blind);
        assert!(g.level.is_none() && g.er.is_none() && g.clues.is_none());
        assert_eq!(g.max_attempts, None);
        assert_eq!(g.grade_budget, None);
        assert!(g.run.output.is_none() && g.shard.is_none() && g.run.summary_json.is_none());
        assert_eq!(g.variant, VariantArg::Classic);
        assert_eq!(
            generate(&["--variant", "samurai"]).variant,
            VariantArg::Samurai
        );
    }

    #[test]
    fn each_generate_flag_parses() {
        let g = generate(&[
            "-n",
            "50",
            "--seed",
            "7",
            "--level",
            "diabolical",
            "--symmetry",
            "rot90",
            "--clues",
            "22..26",
            "--minimal",
            "--max-attempts",
            "99",
            "--grade-budget",
            "5000",
            "-o",
            "out.csv",
            "-j",
            "2",
            "--format",
            "jsonl",
            "--no-header",
            "--shard",
            "1/3",
            "-q",
            "--summary-json",
            "s.json",
        ]);
        assert_eq!((g.count, g.seed, g.run.threads), (50, Some(7), 2));
        assert_eq!(g.level, Some(LevelArg::Diabolical));
        assert_eq!(g.symmetry, SymmetryArg::Rot90);
        assert_eq!(g.clues, Some((22, 26)));
        assert!(g.minimal && g.run.no_header && g.run.quiet);
        assert_eq!((g.max_attempts, g.grade_budget), (Some(99), Some(5000)));
        assert_eq!(g.run.output, Some(PathBuf::from("out.csv")));
        assert_eq!(g.run.format, FormatArg::Jsonl);
        assert_eq!(g.shard, Some(Shard { index: 1, count: 3 }));
        assert_eq!(g.run.summary_json, Some(PathBuf::from("s.json")));
        let g = generate(&[
            "--count",
            "3",
            "--er",
            "7.1..8",
            "--symmetry",
            "random",
            "--blind",
        ]);
        assert!(g.blind);
        assert_eq!((g.count, g.er), (3, Some((71, Some(80)))));
        assert_eq!(g.symmetry, SymmetryArg::Random);
        assert!(generate(&["--no-grade"]).no_grade);
    }

    #[test]
    fn generate_ranges_parse_and_are_checked() {
        assert_eq!(parse_er_range("9.0.."), Ok((90, None)));
        assert_eq!(parse_er_range("..2.5"), Ok((0, Some(25))));
        assert_eq!(parse_er_range("8.3"), Ok((83, Some(83))));
        for bad in ["..", "x..2", "9..8", "1.25..2", "30.."] {
            assert!(parse_er_range(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_clue_range("22..26"), Ok((22, 26)));
        assert_eq!(parse_clue_range("30.."), Ok((30, 81)));
        assert_eq!(parse_clue_range("..24"), Ok((0, 24)));
        assert_eq!(parse_clue_range("25"), Ok((25, 25)));
        for bad in ["..", "26..22", "..16", "90", "a..b"] {
            assert!(parse_clue_range(bad).is_err(), "{bad}");
        }
        for bad in [
            &["generate", "--no-grade", "--level", "easy"][..],
            &["generate", "--level", "easy", "--er", "1.0..2.0"],
            &["generate", "--symmetry", "rot45"],
            &["generate", "--max-attempts", "0"],
            &["generate", "-n", "-1"],
        ] {
            let mut v = vec!["sudoku-batch"];
            v.extend_from_slice(bad);
            assert!(Cli::try_parse_from(v).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn each_minimize_flag_parses() {
        let Command::Minimize(m) = Cli::try_parse_from([
            "sudoku-batch",
            "minimize",
            "in.txt",
            "-o",
            "out.tsv",
            "-j",
            "2",
            "--format",
            "tsv",
            "--no-header",
            "--input-format",
            "line",
            "-q",
            "--summary-json",
            "s.json",
        ])
        .unwrap()
        .command
        else {
            panic!("not minimize")
        };
        assert_eq!(m.input, PathBuf::from("in.txt"));
        assert_eq!(m.run.output, Some(PathBuf::from("out.tsv")));
        assert_eq!((m.run.threads, m.run.format), (2, FormatArg::Tsv));
        assert_eq!(m.input_format, InputFormatArg::Line);
        assert!(m.run.no_header && m.run.quiet);
        assert_eq!(m.run.summary_json, Some(PathBuf::from("s.json")));
        assert!(Cli::try_parse_from(["sudoku-batch", "minimize"]).is_err());
    }
}
