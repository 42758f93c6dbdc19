//! Validated, resolved settings, built from the command line before any work starts.

use std::path::{Path, PathBuf};

use crate::cli::{
    BenchArgs, ExplainArgs, ExplainFormatArg, FormatArg, InputFormatArg, Shard, SolveArgs,
};
use crate::core::Grid;
use crate::error::Error;
use crate::io::OutputFormat;
pub use crate::pipeline::bench::BenchConfig;

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
}

fn is_dash(p: &Path) -> bool {
    p.as_os_str() == "-"
}

impl SolveConfig {
    /// Builds and checks the settings.
    pub fn from_args(a: &SolveArgs) -> Result<SolveConfig, Error> {
        let input = if is_dash(&a.input) {
            InputSpec::Stdin
        } else {
            InputSpec::File(a.input.clone())
        };
        let output = match &a.output {
            None => OutputSpec::Stdout,
            Some(p) if is_dash(p) => OutputSpec::Stdout,
            Some(p) => OutputSpec::File(p.clone()),
        };
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
        if a.shard.is_some() && input == InputSpec::Stdin {
            return Err(Error::Usage(
                "--shard splits a file by byte ranges; it needs a file input, not stdin".into(),
            ));
        }
        Ok(SolveConfig {
            input,
            output,
            threads: a.threads,
            limit: a.limit.max(1),
            format: match a.format {
                FormatArg::Csv => OutputFormat::Csv,
                FormatArg::Tsv => OutputFormat::Tsv,
                FormatArg::Jsonl => OutputFormat::Jsonl,
            },
            header: !a.no_header,
            input_format: match a.input_format {
                InputFormatArg::Auto => InputFormat::Auto,
                InputFormatArg::Line => InputFormat::Line,
                InputFormatArg::Csv => InputFormat::Csv,
                InputFormatArg::Grid => InputFormat::Grid,
            },
            check: a.check,
            quiet: a.quiet,
            summary_json: a.summary_json.clone(),
            shard: a.shard,
            strict: a.strict,
            max_messages: crate::pipeline::MAX_DIAGS,
            grade: !a.no_grade,
            grade_budget: a.grade_budget,
        })
    }
}

/// Where `explain` takes its puzzle from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExplainSource {
    /// Given on the command line.
    Inline(Grid),
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
}

impl ExplainConfig {
    /// Builds the settings: an argument that reads as a puzzle (81 cells, optionally
    /// followed by a tail) is the puzzle itself; `-` is standard input; anything else is a
    /// file name.
    pub fn from_args(a: &ExplainArgs) -> Result<ExplainConfig, Error> {
        let source = if a.puzzle == "-" {
            ExplainSource::Stdin
        } else if let Ok((g, _)) = Grid::parse_line(a.puzzle.trim().as_bytes()) {
            ExplainSource::Inline(g)
        } else {
            ExplainSource::File(PathBuf::from(&a.puzzle))
        };
        Ok(ExplainConfig {
            source,
            format: match a.format {
                ExplainFormatArg::Text => ExplainFormat::Text,
                ExplainFormatArg::Json => ExplainFormat::Json,
            },
            budget: a.grade_budget,
        })
    }
}

impl BenchConfig {
    /// Builds and checks the settings.
    pub fn from_args(a: &BenchArgs) -> Result<BenchConfig, Error> {
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
            files,
            rounds: a.rounds as usize,
            limit: a.limit,
            threads: a.threads,
        })
    }
}
