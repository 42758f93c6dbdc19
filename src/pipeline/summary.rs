//! Run statistics and the end-of-run summary (a short text on stderr, or JSON).

use std::time::Duration;

use serde::Serialize;

/// Counts for a `solve` run; blocks keep their own and are merged in order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SolveStats {
    /// Records read.
    pub records: u64,
    /// Exactly one solution.
    pub solved: u64,
    /// Two or more solutions (up to the limit).
    pub multiple: u64,
    /// No solution.
    pub unsolvable: u64,
    /// Not a valid puzzle record.
    pub invalid: u64,
    /// Branching decisions over all records.
    pub guesses: u64,
    /// With `--check`: solutions equal to the input's solution column.
    pub check_ok: u64,
    /// With `--check`: solutions different from the input's solution column (or a solution
    /// column that is not a grid).
    pub check_mismatch: u64,
    /// With `--strict`: the first record that is not uniquely solvable.
    #[serde(skip)]
    pub first_problem: Option<Problem>,
}

/// A record that stops a `--strict` run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// 1-based line.
    pub line: u64,
    /// 1-based column.
    pub col: usize,
    /// What is wrong with it.
    pub message: String,
}

impl SolveStats {
    /// Adds another block's counts.
    pub fn merge(&mut self, o: &SolveStats) {
        self.records += o.records;
        self.solved += o.solved;
        self.multiple += o.multiple;
        self.unsolvable += o.unsolvable;
        self.invalid += o.invalid;
        self.guesses += o.guesses;
        self.check_ok += o.check_ok;
        self.check_mismatch += o.check_mismatch;
        if self.first_problem.is_none() {
            self.first_problem.clone_from(&o.first_problem);
        }
    }
}

/// The end-of-run summary of `solve`.
#[derive(Clone, Debug, Serialize)]
pub struct SolveSummary {
    /// Input name (`<stdin>` for standard input).
    pub input: String,
    /// Output name (`<stdout>` for standard output).
    pub output: String,
    /// Counts.
    #[serde(flatten)]
    pub stats: SolveStats,
    /// Wall-clock seconds.
    pub elapsed_seconds: f64,
    /// Records per second of wall-clock time.
    pub puzzles_per_second: f64,
    /// Worker threads.
    pub threads: usize,
    /// Solution count limit.
    pub limit: u32,
    /// True if the run was interrupted before the end of the input.
    pub interrupted: bool,
}

impl SolveSummary {
    /// Builds the summary.
    pub fn new(
        input: String,
        output: String,
        stats: SolveStats,
        elapsed: Duration,
        threads: usize,
        limit: u32,
        interrupted: bool,
    ) -> SolveSummary {
        let secs = elapsed.as_secs_f64();
        SolveSummary {
            input,
            output,
            puzzles_per_second: if secs > 0.0 {
                stats.records as f64 / secs
            } else {
                0.0
            },
            stats,
            elapsed_seconds: secs,
            threads,
            limit,
            interrupted,
        }
    }

    /// The short text form for stderr.
    pub fn text(&self) -> String {
        let s = &self.stats;
        let mut t = format!(
            "{} records: {} solved, {} multiple, {} unsolvable, {} invalid",
            s.records, s.solved, s.multiple, s.unsolvable, s.invalid
        );
        if s.check_ok + s.check_mismatch > 0 {
            t.push_str(&format!(
                "; check: {} ok, {} mismatch",
                s.check_ok, s.check_mismatch
            ));
        }
        t.push_str(&format!(
            "\n{:.2} s, {:.0} puzzles/s, {} thread{}, {:.2} guesses/puzzle",
            self.elapsed_seconds,
            self.puzzles_per_second,
            self.threads,
            if self.threads == 1 { "" } else { "s" },
            if s.records > 0 {
                s.guesses as f64 / s.records as f64
            } else {
                0.0
            }
        ));
        t
    }

    /// The JSON form.
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }
}
