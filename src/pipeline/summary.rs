//! Run statistics and the end-of-run summary (a short text on stderr, or JSON).

use std::time::Duration;

use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::core::grader::{Rating, level_name};
use crate::core::logic::Technique;
use crate::core::profile::{Profile, TECHNIQUES};

/// Counts for a `solve` run; blocks keep their own and are merged in order.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
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
    /// Grading: puzzles per level (by ER), and per technique setting ER.
    pub grades: GradeStats,
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

/// The six levels, in order.
pub const LEVELS: [&str; 6] = [
    "easy",
    "medium",
    "hard",
    "fiendish",
    "diabolical",
    "extreme",
];

/// Grading counts: a histogram of levels, the puzzles whose rating is a lower bound, and
/// how often each technique was the hardest step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GradeStats {
    /// Puzzles graded.
    pub graded: u64,
    /// Graded puzzles per level, in the order of [`LEVELS`].
    pub levels: [u64; 6],
    /// Ratings that are lower bounds (budget spent, or beyond the implemented techniques).
    pub lower_bounds: u64,
    /// Per [`Technique`] (index in `Technique::ALL`): puzzles whose ER it set.
    pub hardest: [u64; Technique::ALL.len()],
    /// With `--profile`: per technique, the puzzles whose path used it and its steps.
    pub techniques: Option<Box<TechniqueTotals>>,
}

/// Per technique name (at the index in `Technique::ALL` of the first technique with that
/// name): graded puzzles whose path used it, and its steps over all of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TechniqueTotals {
    /// Puzzles that used the technique.
    pub puzzles: [u64; TECHNIQUES],
    /// Steps of the technique.
    pub steps: [u64; TECHNIQUES],
}

impl Default for TechniqueTotals {
    fn default() -> Self {
        TechniqueTotals {
            puzzles: [0; TECHNIQUES],
            steps: [0; TECHNIQUES],
        }
    }
}

impl TechniqueTotals {
    /// Counts one puzzle's profile.
    pub fn add(&mut self, p: &Profile) {
        let mut seen = 0u64;
        for &t in Technique::ALL {
            let n = p.count(t);
            if n == 0 {
                continue;
            }
            let slot = t.name_index();
            self.steps[slot] += u64::from(n);
            if seen & (1 << slot) == 0 {
                seen |= 1 << slot;
                self.puzzles[slot] += 1;
            }
        }
    }

    /// Adds another block's counts.
    pub fn merge(&mut self, o: &TechniqueTotals) {
        for (a, b) in self.puzzles.iter_mut().zip(o.puzzles) {
            *a += b;
        }
        for (a, b) in self.steps.iter_mut().zip(o.steps) {
            *a += b;
        }
    }

    /// `(name, puzzles, steps)` of every technique used, in SE's order.
    pub fn rows(&self) -> Vec<(&'static str, u64, u64)> {
        Technique::ALL
            .iter()
            .filter(|t| self.puzzles[t.index()] > 0)
            .map(|t| (t.name(), self.puzzles[t.index()], self.steps[t.index()]))
            .collect()
    }
}

impl Default for GradeStats {
    fn default() -> Self {
        GradeStats {
            graded: 0,
            levels: [0; 6],
            lower_bounds: 0,
            hardest: [0; Technique::ALL.len()],
            techniques: None,
        }
    }
}

impl GradeStats {
    /// Counts one rating.
    pub fn add(&mut self, r: &Rating) {
        self.graded += 1;
        let level = level_name(r.er);
        if let Some(i) = LEVELS.iter().position(|&l| l == level) {
            self.levels[i] += 1;
        }
        if !r.complete {
            self.lower_bounds += 1;
        } else if r.steps == 0 {
            // A full grid: nothing to count.
        } else if let Some(i) = Technique::ALL.iter().position(|&t| t == r.hardest) {
            self.hardest[i] += 1;
        }
    }

    /// With `--profile`, a table for the text summary: per technique used, the puzzles
    /// that used it, its steps, and the puzzles whose ER it set.
    pub fn technique_text(&self) -> Option<String> {
        let totals = self.techniques.as_ref()?;
        let rows = totals.rows();
        let width = rows.iter().map(|r| r.0.len()).max().unwrap_or(0).max(9);
        let mut t = format!(
            "{:<width$} {:>10} {:>12} {:>10}",
            "technique", "puzzles", "steps", "set ER"
        );
        for (name, puzzles, steps) in rows {
            let set_er: u64 = Technique::ALL
                .iter()
                .filter(|t| t.name() == name)
                .map(|t| self.hardest[t.index()])
                .sum();
            t.push_str(&format!(
                "\n{name:<width$} {puzzles:>10} {steps:>12} {set_er:>10}"
            ));
        }
        Some(t)
    }

    /// Counts the profile of a rating counted by [`GradeStats::add`] (`--profile`).
    pub fn add_profile(&mut self, p: &Profile) {
        self.techniques.get_or_insert_default().add(p);
    }

    /// Adds another block's counts.
    pub fn merge(&mut self, o: &GradeStats) {
        if let Some(t) = &o.techniques {
            self.techniques.get_or_insert_default().merge(t);
        }
        self.graded += o.graded;
        self.lower_bounds += o.lower_bounds;
        for (a, b) in self.levels.iter_mut().zip(o.levels) {
            *a += b;
        }
        for (a, b) in self.hardest.iter_mut().zip(o.hardest) {
            *a += b;
        }
    }
}

/// JSON: `{"graded": n, "lower_bounds": n, "levels": {"easy": n, ...},
/// "hardest_techniques": {"X-wing": n, ...}}` (techniques that never set ER are left out;
/// techniques sharing a name are added together); with `--profile` also
/// `"techniques": {"X-wing": {"puzzles": n, "steps": n}, ...}`.
impl Serialize for GradeStats {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct Levels<'a>(&'a [u64; 6]);
        impl Serialize for Levels<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut m = s.serialize_map(Some(6))?;
                for (l, n) in LEVELS.iter().zip(self.0) {
                    m.serialize_entry(l, n)?;
                }
                m.end()
            }
        }
        struct Hardest<'a>(&'a [u64; Technique::ALL.len()]);
        impl Serialize for Hardest<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut names: Vec<(&str, u64)> = Vec::new();
                for (t, &n) in Technique::ALL.iter().zip(self.0) {
                    if n == 0 {
                        continue;
                    }
                    match names.iter_mut().find(|(name, _)| *name == t.name()) {
                        Some(e) => e.1 += n,
                        None => names.push((t.name(), n)),
                    }
                }
                let mut m = s.serialize_map(Some(names.len()))?;
                for (name, n) in names {
                    m.serialize_entry(name, &n)?;
                }
                m.end()
            }
        }
        struct Totals<'a>(&'a TechniqueTotals);
        impl Serialize for Totals<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                #[derive(serde::Serialize)]
                struct Entry {
                    puzzles: u64,
                    steps: u64,
                }
                let rows = self.0.rows();
                let mut m = s.serialize_map(Some(rows.len()))?;
                for (name, puzzles, steps) in rows {
                    m.serialize_entry(name, &Entry { puzzles, steps })?;
                }
                m.end()
            }
        }
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("graded", &self.graded)?;
        m.serialize_entry("lower_bounds", &self.lower_bounds)?;
        m.serialize_entry("levels", &Levels(&self.levels))?;
        m.serialize_entry("hardest_techniques", &Hardest(&self.hardest))?;
        if let Some(t) = &self.techniques {
            m.serialize_entry("techniques", &Totals(t))?;
        }
        m.end()
    }
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
        self.grades.merge(&o.grades);
    }
}

/// The end-of-run summary of `solve`.
#[derive(Clone, Debug, serde::Serialize)]
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
    /// The classic solver's backend that ran (`avx512`, `avx2`, `portable`: the fastest
    /// this CPU has), or `generic` for the variants, which have one solver.
    pub backend: &'static str,
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
            backend: crate::core::solver::Backend::Auto.resolve().name(),
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
        t.push_str(&format!(
            "\n{:.2} s, {:.0} puzzles/s, {} thread{}, {:.2} guesses/puzzle, backend {}",
            self.elapsed_seconds,
            self.puzzles_per_second,
            self.threads,
            if self.threads == 1 { "" } else { "s" },
            if s.records > 0 {
                s.guesses as f64 / s.records as f64
            } else {
                0.0
            },
            self.backend
        ));
        t
    }

    /// The JSON form.
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }
}
