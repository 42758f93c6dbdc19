//! Validated, resolved settings, built from the command line before any work starts.

use std::path::{Path, PathBuf};

use crate::cli::{
    BenchArgs, ExplainArgs, ExplainFormatArg, FormatArg, GenerateArgs, InputFormatArg, LevelArg,
    MinimizeArgs, PageArg, RenderArgs, Shard, SolveArgs, SymmetryArg, VariantArg,
};
use crate::core::Grid;
use crate::core::generator::{ErRange, Symmetry, SymmetryChoice, Target};
use crate::core::geometry::Shape;
use crate::core::profile::{MAX_USES, TechniqueTarget, parse_techniques};
use crate::core::samurai::format::{self, SamuraiForm};
use crate::core::solver::Backend;
use crate::error::Error;
use crate::io::OutputFormat;
pub use crate::pipeline::bench::BenchConfig;
pub use crate::pipeline::generate::variant::VariantTarget;

/// Where input comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputSpec {
    /// Standard input.
    Stdin,
    /// A file.
    File(PathBuf),
}

impl InputSpec {
    /// The name used in messages: the path, or `<stdin>`.
    pub fn display_name(&self) -> String {
        match self {
            InputSpec::Stdin => "<stdin>".to_string(),
            InputSpec::File(p) => p.display().to_string(),
        }
    }
}

/// Where output goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OutputSpec {
    /// Standard output.
    Stdout,
    /// A file (written as `FILE.partial`, renamed when complete).
    File(PathBuf),
}

/// Record layout requested for the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputFormat {
    /// Detect from the first record.
    Auto,
    /// One puzzle per line.
    Line,
    /// CSV with a header.
    Csv,
    /// Nine-line grid blocks.
    Grid,
    /// Samurai records (`--variant samurai`), each in one of its three forms.
    Samurai,
}

/// Everything `solve` needs, checked.
#[derive(Clone, Debug)]
pub struct SolveConfig {
    /// Input.
    pub input: InputSpec,
    /// Output.
    pub output: OutputSpec,
    /// Worker threads; 0 = rayon's default (all cores, or `RAYON_NUM_THREADS`).
    pub threads: usize,
    /// Count solutions up to this (>= 1).
    pub limit: u32,
    /// Row encoding.
    pub format: OutputFormat,
    /// Write a header line.
    pub header: bool,
    /// Input record layout.
    pub input_format: InputFormat,
    /// Compare solutions with the input's solution column.
    pub check: bool,
    /// Progress bar and summary on stderr (progress only when stderr is a terminal).
    pub quiet: bool,
    /// Where to write the JSON summary.
    pub summary_json: Option<PathBuf>,
    /// Process only this shard of the input file.
    pub shard: Option<Shard>,
    /// Stop at the first record that is invalid or not uniquely solvable.
    pub strict: bool,
    /// How many `FILE:LINE:COL: reason` messages about bad records go to stderr before they
    /// are only counted (20 from the command line).
    pub max_messages: usize,
    /// Grade solved puzzles (the er, ep, ed, level and hardest columns).
    pub grade: bool,
    /// Work budget per graded puzzle, in work units.
    pub grade_budget: u64,
    /// Write the `steps` and `techniques` columns and count techniques in the summary.
    pub profile: bool,
    /// The grid shape (`--variant`).
    pub shape: Shape,
}

fn is_dash(p: &Path) -> bool {
    p.as_os_str() == "-"
}

impl SolveConfig {
    /// Builds and checks the settings.
    pub fn from_args(a: &SolveArgs) -> Result<SolveConfig, Error> {
        let (input, output) = input_and_output(&a.input, &a.run.output)?;
        if a.shard.is_some() && input == InputSpec::Stdin {
            return Err(Error::Usage(
                "--shard splits a file by byte ranges; it needs a file input, not stdin".into(),
            ));
        }
        let samurai = a.variant == VariantArg::Samurai;
        let input_format = variant_input_format(a.variant.shape(), a.input_format)?;
        if samurai && a.check {
            return Err(Error::Usage(
                "--check compares with a CSV solution column; samurai input has none".into(),
            ));
        }
        Ok(SolveConfig {
            input,
            output,
            threads: a.run.threads,
            limit: a.limit.max(1),
            format: output_format(a.run.format),
            header: !a.run.no_header,
            input_format,
            check: a.check,
            quiet: a.run.quiet,
            summary_json: a.run.summary_json.clone(),
            shard: a.shard,
            strict: a.strict,
            max_messages: crate::pipeline::MAX_DIAGS,
            grade: !a.no_grade,
            grade_budget: grade_budget(a.grade_budget, a.variant.shape()),
            profile: a.profile,
            shape: a.variant.shape(),
        })
    }
}

/// Where `explain` takes its puzzle from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExplainSource {
    /// Given on the command line (a one-line record of the shape: 81 cells, 81 cells and
    /// 81 region ids for Jigsaw, or 405 cells for Samurai).
    Inline(String),
    /// The first puzzle on standard input.
    Stdin,
    /// The first puzzle of a file.
    File(PathBuf),
}

/// `explain` output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExplainFormat {
    /// Numbered steps and the ratings.
    Text,
    /// One JSON object.
    Json,
    /// One SVG picture per step, into a directory.
    Svg,
    /// One self-contained HTML page.
    Html,
}

/// Everything `explain` needs, checked.
#[derive(Clone, Debug)]
pub struct ExplainConfig {
    /// The puzzle's source.
    pub source: ExplainSource,
    /// Output format.
    pub format: ExplainFormat,
    /// Work budget in work units.
    pub budget: u64,
    /// The grid shape (`--variant`).
    pub shape: Shape,
    /// The output file (directory for SVG); `None`: standard output.
    pub output: Option<PathBuf>,
    /// Threads sharing the chain searches; 0 = rayon's default.
    pub threads: usize,
}

impl ExplainConfig {
    /// Builds the settings: an argument that reads as a puzzle (81 cells, optionally
    /// followed by a tail) is the puzzle itself; `-` is standard input; anything else is a
    /// file name.
    pub fn from_args(a: &ExplainArgs) -> Result<ExplainConfig, Error> {
        let shape = a.variant.shape();
        let line = a.puzzle.trim().as_bytes();
        // An argument that starts with the shape's cells is the puzzle itself (its errors,
        // say in a Jigsaw layout, are then reported as the record's); else a file name.
        let inline = match shape {
            Shape::Samurai => format::read_record(SamuraiForm::Line, &[line]).is_ok(),
            _ => Grid::parse_line(line.get(..81).unwrap_or(line)).is_ok(),
        };
        if a.format == ExplainFormatArg::Svg && a.output.as_deref().is_none_or(is_dash) {
            return Err(Error::Usage(
                "explain --format svg writes one picture per step: give a directory with -o DIR"
                    .into(),
            ));
        }
        let source = if a.puzzle == "-" {
            ExplainSource::Stdin
        } else if inline {
            ExplainSource::Inline(a.puzzle.trim().to_string())
        } else {
            ExplainSource::File(PathBuf::from(&a.puzzle))
        };
        Ok(ExplainConfig {
            source,
            format: match a.format {
                ExplainFormatArg::Text => ExplainFormat::Text,
                ExplainFormatArg::Json => ExplainFormat::Json,
                ExplainFormatArg::Svg => ExplainFormat::Svg,
                ExplainFormatArg::Html => ExplainFormat::Html,
            },
            budget: grade_budget(a.grade_budget, shape),
            shape,
            output: a.output.clone().filter(|o| !is_dash(o)),
            threads: a.threads,
        })
    }
}

impl BenchConfig {
    /// Builds and checks the settings.
    pub fn from_args(a: &BenchArgs) -> Result<BenchConfig, Error> {
        if a.grade && a.limit < 2 {
            return Err(Error::Usage(
                "--grade needs --limit 2 or more (grading needs to know the puzzle is unique)"
                    .into(),
            ));
        }
        let backend = a.backend.backend();
        if !backend.is_available() {
            let has: Vec<&str> = Backend::CONCRETE
                .iter()
                .filter(|b| b.is_available())
                .map(|b| b.name())
                .collect();
            return Err(Error::Usage(format!(
                "--backend {backend}: this CPU cannot run it (it has: {})",
                has.join(", ")
            )));
        }
        if backend != Backend::Auto && a.variant.shape() != Shape::Classic {
            return Err(Error::Usage(
                "--backend applies to classic puzzles only (the other variants have one solver)"
                    .into(),
            ));
        }
        let files = a
            .files
            .iter()
            .map(|p| {
                if is_dash(p) {
                    InputSpec::Stdin
                } else {
                    InputSpec::File(p.clone())
                }
            })
            .collect();
        Ok(BenchConfig {
            backend,
            files,
            rounds: a.rounds as usize,
            limit: a.limit,
            threads: a.threads,
            shape: a.variant.shape(),
            grade_budget: a
                .grade
                .then(|| grade_budget(a.grade_budget, a.variant.shape())),
        })
    }
}

/// The input (`-`: stdin) and output (`-` or none: stdout) of a record run; a usage error
/// when the output is the input file.
fn input_and_output(
    input: &Path,
    output: &Option<PathBuf>,
) -> Result<(InputSpec, OutputSpec), Error> {
    let input = if is_dash(input) {
        InputSpec::Stdin
    } else {
        InputSpec::File(input.to_path_buf())
    };
    let output = output_spec(output);
    if let (InputSpec::File(i), OutputSpec::File(o)) = (&input, &output) {
        let same = match (i.canonicalize(), o.canonicalize()) {
            (Ok(a), Ok(b)) => a == b,
            _ => i == o,
        };
        if same {
            return Err(Error::Usage(format!(
                "output {} is the input file; choose another output",
                o.display()
            )));
        }
    }
    Ok((input, output))
}

/// What `render` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenderTarget {
    /// A PDF booklet.
    Pdf,
    /// One SVG page.
    SvgPage,
    /// A directory of SVG files, one per puzzle.
    SvgDir,
}

/// Everything `render` needs, checked.
#[derive(Clone, Debug)]
pub struct RenderConfig {
    /// Where puzzles come from.
    pub input: InputSpec,
    /// The output file or directory.
    pub output: PathBuf,
    /// What kind of output.
    pub target: RenderTarget,
    /// The grid shape.
    pub shape: Shape,
    /// Puzzles per page: 1, 2, 4 or 6.
    pub per_page: usize,
    /// Page size.
    pub page: crate::render::draw::PageSize,
    /// Page title.
    pub title: String,
    /// Label fields, lower case, in order (empty: no labels).
    pub label: Vec<String>,
    /// Also draw the solutions.
    pub solutions: bool,
    /// Draw at most this many puzzles.
    pub max: Option<usize>,
    /// No summary.
    pub quiet: bool,
}

impl RenderConfig {
    /// Builds and checks the settings: the output's kind from its name (`.pdf`, `.svg`, a
    /// trailing `/` or an existing directory).
    pub fn from_args(a: &RenderArgs) -> Result<RenderConfig, Error> {
        let out = &a.output;
        let name = out.to_string_lossy();
        let ext = out
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        let target = if name.ends_with('/') || out.is_dir() {
            RenderTarget::SvgDir
        } else if ext.as_deref() == Some("pdf") {
            RenderTarget::Pdf
        } else if ext.as_deref() == Some("svg") {
            RenderTarget::SvgPage
        } else {
            return Err(Error::Usage(format!(
                "cannot tell what to write from {name}: name a .pdf file, a .svg file, or a directory (DIR/)"
            )));
        };
        let input = if is_dash(&a.input) {
            InputSpec::Stdin
        } else {
            InputSpec::File(a.input.clone())
        };
        if let InputSpec::File(i) = &input
            && target != RenderTarget::SvgDir
            && i.canonicalize()
                .ok()
                .is_some_and(|i| out.canonicalize().ok() == Some(i))
        {
            return Err(Error::Usage(format!(
                "output {name} is the input file; choose another output"
            )));
        }
        let label: Vec<String> = a
            .label
            .split(',')
            .map(|f| f.trim().to_ascii_lowercase())
            .filter(|f| !f.is_empty() && f != "none")
            .collect();
        Ok(RenderConfig {
            input,
            output: out.clone(),
            target,
            shape: a.variant.shape(),
            per_page: a.per_page.parse().unwrap_or(4),
            page: match a.page {
                PageArg::A4 => crate::render::draw::PageSize::A4,
                PageArg::Letter => crate::render::draw::PageSize::LETTER,
            },
            title: a.title.clone(),
            label,
            solutions: a.solutions,
            max: a.max,
            quiet: a.quiet,
        })
    }
}

/// The work budget per graded puzzle: `--grade-budget`, or by default
/// [`DEFAULT_BUDGET`](crate::core::grader::DEFAULT_BUDGET) per 81 cells of the shape (a
/// Samurai, with 369 cells, gets 369/81 of it: its steps are searched over a grid four and a
/// half times as large).
pub fn grade_budget(given: Option<u64>, shape: Shape) -> u64 {
    given.unwrap_or_else(|| crate::core::grader::default_budget(shape))
}

fn input_format(f: InputFormatArg) -> InputFormat {
    match f {
        InputFormatArg::Auto => InputFormat::Auto,
        InputFormatArg::Line => InputFormat::Line,
        InputFormatArg::Csv => InputFormat::Csv,
        InputFormatArg::Grid => InputFormat::Grid,
    }
}

fn output_spec(o: &Option<PathBuf>) -> OutputSpec {
    match o {
        None => OutputSpec::Stdout,
        Some(p) if is_dash(p) => OutputSpec::Stdout,
        Some(p) => OutputSpec::File(p.clone()),
    }
}

fn output_format(f: FormatArg) -> OutputFormat {
    match f {
        FormatArg::Csv => OutputFormat::Csv,
        FormatArg::Tsv => OutputFormat::Tsv,
        FormatArg::Jsonl => OutputFormat::Jsonl,
    }
}

/// Everything `generate` needs, checked.
#[derive(Clone, Debug)]
pub struct GenerateConfig {
    /// Puzzles in the whole run (indices `0..count`).
    pub count: u64,
    /// The run's seed.
    pub seed: u64,
    /// True when the seed was drawn at random (it is printed in the summary).
    pub seed_drawn: bool,
    /// Grade puzzles (fill the rating columns, allow ER targets).
    pub grade: bool,
    /// Work budget per grading.
    pub grade_budget: u64,
    /// Write the `steps` and `techniques` columns and count techniques in the summary.
    pub profile: bool,
    /// What a puzzle must satisfy.
    pub target: Target,
    /// Output.
    pub output: OutputSpec,
    /// Worker threads; 0 = rayon's default.
    pub threads: usize,
    /// Row encoding.
    pub format: OutputFormat,
    /// Write a header line (shard 0 only).
    pub header: bool,
    /// Make only this shard of the indices.
    pub shard: Option<Shard>,
    /// No progress bar and no summary.
    pub quiet: bool,
    /// Where to write the JSON summary.
    pub summary_json: Option<PathBuf>,
    /// Every `--variant` but classic: what the puzzles must satisfy (`target` is then
    /// unused).
    pub variant: Option<VariantTarget>,
}

/// The ER range of a level, in tenths (the thresholds of `level` in `solve`).
pub fn level_range(level: LevelArg) -> ErRange {
    let (min, max) = match level {
        LevelArg::Easy => (0, 15),
        LevelArg::Medium => (16, 25),
        LevelArg::Hard => (26, 44),
        LevelArg::Fiendish => (45, 62),
        LevelArg::Diabolical => (63, 89),
        LevelArg::Extreme => (90, ErRange::OPEN),
    };
    ErRange { min, max }
}

impl GenerateConfig {
    /// Builds and checks the settings; draws a seed when none is given.
    pub fn from_args(a: &GenerateArgs) -> Result<GenerateConfig, Error> {
        let er = match (a.level, a.er) {
            (Some(l), _) => Some(level_range(l)),
            (None, Some((min, max))) => Some(ErRange {
                min,
                max: max.unwrap_or(ErRange::OPEN),
            }),
            (None, None) => None,
        };
        if a.no_grade && er.is_some() {
            return Err(Error::Usage(
                "--level and --er need grading; drop --no-grade".into(),
            ));
        }
        let techniques = technique_target(a)?;
        let er = with_technique_range(er, &techniques)?;
        let (min_clues, max_clues) = a.clues.unwrap_or((0, 81));
        let symmetry = match a.symmetry {
            SymmetryArg::None => SymmetryChoice::Fixed(Symmetry::None),
            SymmetryArg::Rot180 => SymmetryChoice::Fixed(Symmetry::Rot180),
            SymmetryArg::Rot90 => SymmetryChoice::Fixed(Symmetry::Rot90),
            SymmetryArg::Mirror => SymmetryChoice::Fixed(Symmetry::Mirror),
            SymmetryArg::Flip => SymmetryChoice::Fixed(Symmetry::Flip),
            SymmetryArg::Diagonal => SymmetryChoice::Fixed(Symmetry::Diagonal),
            SymmetryArg::Antidiagonal => SymmetryChoice::Fixed(Symmetry::AntiDiagonal),
            SymmetryArg::Random => SymmetryChoice::Random,
        };
        let variant = if a.variant == VariantArg::Classic {
            if a.regions.is_some() {
                return Err(Error::Usage(
                    "--regions gives a Jigsaw layout: it needs --variant jigsaw".into(),
                ));
            }
            None
        } else {
            Some(variant_target(a, er, techniques, symmetry)?)
        };
        let (seed, seed_drawn) = match a.seed {
            Some(s) => (s, false),
            None => (rand::random::<u64>(), true),
        };
        Ok(GenerateConfig {
            count: a.count,
            seed,
            seed_drawn,
            grade: !a.no_grade,
            grade_budget: grade_budget(a.grade_budget, a.variant.shape()),
            profile: a.profile,
            target: Target {
                symmetry,
                min_clues,
                max_clues,
                minimal: a.minimal,
                er,
                max_attempts: a.max_attempts.unwrap_or(DEFAULT_MAX_ATTEMPTS),
                steer: !a.blind,
                techniques,
            },
            output: output_spec(&a.run.output),
            threads: a.run.threads,
            format: output_format(a.run.format),
            header: !a.run.no_header,
            shard: a.shard,
            quiet: a.run.quiet,
            summary_json: a.run.summary_json.clone(),
            variant,
        })
    }
}

/// The technique conditions of `--technique`, `--hardest` and `--max-technique`.
fn technique_target(a: &GenerateArgs) -> Result<TechniqueTarget, Error> {
    let parse = |opt: &str, list: &str| {
        parse_techniques(list).map_err(|e| Error::Usage(format!("--{opt}: {e}")))
    };
    let one = |opt: &str, name: &Option<String>| -> Result<_, Error> {
        match name {
            None => Ok(None),
            Some(n) if n.contains(',') => Err(Error::Usage(format!(
                "--{opt} takes one technique name, not a list ('{n}')"
            ))),
            Some(n) => Ok(Some(parse(opt, n)?[0])),
        }
    };
    let mut t = TechniqueTarget {
        hardest: one("hardest", &a.hardest)?,
        max: one("max-technique", &a.max_technique)?,
        ..TechniqueTarget::default()
    };
    if let Some(list) = &a.technique {
        let sets = parse("technique", list)?;
        if sets.len() > MAX_USES {
            return Err(Error::Usage(format!(
                "--technique takes at most {MAX_USES} names, not {}",
                sets.len()
            )));
        }
        t.uses[..sets.len()].copy_from_slice(&sets);
    }
    if let Some(why) = t.conflict() {
        return Err(Error::Usage(format!(
            "no puzzle can meet these targets: {why}"
        )));
    }
    Ok(t)
}

/// The ER range of `--level`/`--er` narrowed to the range that the technique conditions
/// imply (a puzzle whose hardest step is an X-wing has ER 3.2); an error when the two do
/// not meet.
fn with_technique_range(
    er: Option<ErRange>,
    t: &TechniqueTarget,
) -> Result<Option<ErRange>, Error> {
    let Some(implied) = t.er_range() else {
        return Ok(er);
    };
    let Some(given) = er else {
        return Ok(Some(implied));
    };
    let both = ErRange {
        min: given.min.max(implied.min),
        max: given.max.min(implied.max),
    };
    if both.min > both.max {
        return Err(Error::Usage(format!(
            "no puzzle can meet these targets: {} means ER in {implied}, outside the ER \
             range {given} of --level/--er",
            t.describe()
        )));
    }
    Ok(Some(both))
}

/// Candidates per puzzle when `--max-attempts` is not given.
pub const DEFAULT_MAX_ATTEMPTS: u64 = 200_000;

/// Work (making and grading candidates, in units of about 50 ns: about ten seconds of one
/// core) after which a
/// variant puzzle whose candidates never came within
/// [`GIVE_UP_DISTANCE`](crate::pipeline::generate::variant::GIVE_UP_DISTANCE) of the ER
/// range stops the run, when `--max-attempts` is not given.
pub const GIVE_UP_WORK: u64 = 200_000_000;

/// The target of `generate --variant samurai|x|windoku|jigsaw`; options these generators
/// cannot honour are usage errors.
fn variant_target(
    a: &GenerateArgs,
    er: Option<ErRange>,
    techniques: TechniqueTarget,
    symmetry: SymmetryChoice,
) -> Result<VariantTarget, Error> {
    let name = a.variant.shape().name();
    let unsupported = |what: &str, why: &str| {
        Err(Error::Usage(format!(
            "{what} is not supported with --variant {name}: {why}"
        )))
    };
    if a.clues.is_some() {
        return unsupported(
            "--clues",
            "these puzzles are dug until no clue (orbit) can go, so their clue count is \
             not steered",
        );
    }
    if a.minimal && a.symmetry != SymmetryArg::None {
        return unsupported(
            "--minimal with a symmetry",
            "these puzzles are minimal for their symmetry (no orbit of clues can go), \
             not clue by clue; with --symmetry none every puzzle is minimal",
        );
    }
    let regions = match &a.regions {
        None => None,
        Some(_) if a.variant != VariantArg::Jigsaw => {
            return Err(Error::Usage(
                "--regions gives a Jigsaw layout: it needs --variant jigsaw".into(),
            ));
        }
        Some(text) => Some(
            crate::core::jigsaw::parse_regions(text.as_bytes())
                .map_err(|e| Error::Usage(format!("--regions: {e}")))?,
        ),
    };
    Ok(VariantTarget {
        shape: a.variant.shape(),
        symmetry,
        er,
        techniques,
        max_attempts: a.max_attempts.unwrap_or(DEFAULT_MAX_ATTEMPTS),
        give_up_work: a.max_attempts.is_none().then_some(GIVE_UP_WORK),
        regions,
    })
}

/// Everything `minimize` needs, checked.
#[derive(Clone, Debug)]
pub struct MinimizeConfig {
    /// Input.
    pub input: InputSpec,
    /// Output.
    pub output: OutputSpec,
    /// Worker threads; 0 = rayon's default.
    pub threads: usize,
    /// Row encoding.
    pub format: OutputFormat,
    /// Write a header line.
    pub header: bool,
    /// Input record layout.
    pub input_format: InputFormat,
    /// No progress bar and no summary.
    pub quiet: bool,
    /// Where to write the JSON summary.
    pub summary_json: Option<PathBuf>,
    /// The grid shape (`--variant`).
    pub shape: Shape,
}

impl MinimizeConfig {
    /// Builds and checks the settings.
    pub fn from_args(a: &MinimizeArgs) -> Result<MinimizeConfig, Error> {
        let (input, output) = input_and_output(&a.input, &a.run.output)?;
        Ok(MinimizeConfig {
            input,
            output,
            threads: a.run.threads,
            format: output_format(a.run.format),
            header: !a.run.no_header,
            input_format: variant_input_format(a.variant.shape(), a.input_format)?,
            quiet: a.run.quiet,
            summary_json: a.run.summary_json.clone(),
            shape: a.variant.shape(),
        })
    }
}

/// The record format of a record run of `shape` under `--input-format`: Samurai records
/// have forms of their own (a usage error to choose one); the other shapes read the classic
/// forms.
fn variant_input_format(shape: Shape, f: InputFormatArg) -> Result<InputFormat, Error> {
    if shape == Shape::Samurai {
        if f != InputFormatArg::Auto {
            return Err(Error::Usage(
                "--input-format applies to 9x9 shapes; samurai records are recognised by \
                 their form (405-cell line, five 81-cell lines, or 21-line block)"
                    .into(),
            ));
        }
        return Ok(InputFormat::Samurai);
    }
    Ok(input_format(f))
}
