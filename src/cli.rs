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
    /// Print a shell completion script to stdout.
    Completions {
        /// The shell to complete for.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff) to stdout.
    Man,
}

/// Options of `solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Input file, or `-` for standard input.
    #[arg(value_name = "INPUT")]
    pub input: PathBuf,

    /// Output file (`-` or absent: standard output). Rows go to FILE.partial, renamed to
    /// FILE when the run completes.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Worker threads (0 or absent: all cores, or RAYON_NUM_THREADS when set).
    #[arg(short = 'j', long = "threads", value_name = "N", default_value_t = 0)]
    pub threads: usize,

    /// Count solutions up to N (2 means "two or more"; 1 stops at the first solution).
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..))]
    pub limit: u32,

    /// Output format.
    #[arg(long, value_enum, default_value_t = FormatArg::Csv)]
    pub format: FormatArg,

    /// Leave out the header line (for streaming and for concatenating shards).
    #[arg(long)]
    pub no_header: bool,

    /// How records are laid out in the input.
    #[arg(long, value_enum, default_value_t = InputFormatArg::Auto)]
    pub input_format: InputFormatArg,

    /// Compare each solution with the input's solution column (CSV input); adds a `check`
    /// column: `ok`, `mismatch`, or empty when there is nothing to compare.
    #[arg(long)]
    pub check: bool,

    /// No progress bar and no summary on stderr.
    #[arg(short, long)]
    pub quiet: bool,

    /// Write the end-of-run summary as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub summary_json: Option<PathBuf>,

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

    /// Work budget for grading one puzzle, in work units (deterministic; the default is
    /// about one second of work). A puzzle that needs more gets a lower bound: `>=X`.
    #[arg(long, value_name = "UNITS", default_value_t = crate::core::grader::DEFAULT_BUDGET)]
    pub grade_budget: u64,
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

    /// Work budget in work units (see `solve --grade-budget`).
    #[arg(long, value_name = "UNITS", default_value_t = crate::core::grader::DEFAULT_BUDGET)]
    pub grade_budget: u64,
}

/// `explain --format` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ExplainFormatArg {
    /// Numbered steps, one per line, then the ratings.
    Text,
    /// One JSON object: the steps and the ratings.
    Json,
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
        assert_eq!((s.threads, s.limit, s.format), (0, 2, FormatArg::Csv));
        assert_eq!(s.input_format, InputFormatArg::Auto);
        assert!(!s.no_header && !s.check && !s.quiet);
        assert!(s.output.is_none() && s.summary_json.is_none());
        assert!(!s.no_grade);
        assert_eq!(s.grade_budget, crate::core::grader::DEFAULT_BUDGET);
    }

    #[test]
    fn grading_flags_parse() {
        let s = solve(&["x", "--no-grade", "--grade-budget", "1000"]);
        assert!(s.no_grade);
        assert_eq!(s.grade_budget, 1000);
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
        assert_eq!(e.grade_budget, 50);
        let Command::Explain(d) = Cli::try_parse_from(["sudoku-batch", "explain", "p.txt"])
            .unwrap()
            .command
        else {
            panic!("not explain")
        };
        assert_eq!(d.format, ExplainFormatArg::Text);
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
        assert_eq!(s.output, Some(PathBuf::from("out.csv")));
        assert_eq!((s.threads, s.limit, s.format), (3, 1, FormatArg::Jsonl));
        assert_eq!(s.input_format, InputFormatArg::Grid);
        assert!(s.no_header && s.check && s.quiet);
        assert_eq!(s.summary_json, Some(PathBuf::from("s.json")));
        assert_eq!(solve(&["x", "--threads", "2", "--output", "o"]).threads, 2);
        assert_eq!(solve(&["x", "--format", "tsv"]).format, FormatArg::Tsv);
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
        assert_eq!((b.rounds, b.limit, b.threads, b.json), (3, 1, 2, true));
        assert!(Cli::try_parse_from(["sudoku-batch", "bench"]).is_err());
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
}
