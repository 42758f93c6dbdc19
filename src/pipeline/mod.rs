//! The pipeline: wires input sources, record splitting, rayon workers and the ordered writer
//! together for each subcommand. [`engine`] is the machinery (ordered windows of blocks,
//! the writer thread, window pacing); [`records_run`] is the run loop of the commands that
//! read records, which [`solve`] and [`minimize`] plug into (generic over the shape family,
//! [`shape`] reads the records of each shape); [`generate`] runs over puzzle indices instead (one worker for the
//! classic grid, one generic worker for the other shapes); [`bench`](mod@bench) and [`explain`] work in-process on a few puzzles; [`summary`] and
//! [`progress`] report. [`memory`] runs the same workers over puzzles held in memory (the
//! Python bindings).

pub mod bench;
pub mod engine;
pub mod explain;
mod explain_chains;
mod explain_draw;
pub mod generate;
pub mod memory;
pub mod minimize;
pub mod progress;
pub mod records_run;
pub mod render;
pub mod shape;
pub mod solve;
pub mod summary;

use std::io::Write;

use engine::Diag;

/// What the binary needs of a finished run's summary to report it.
pub trait RunReport {
    /// The short text form for stderr.
    fn text(&self) -> String;
    /// The JSON form (`--summary-json`).
    fn json(&self) -> String;
    /// Records (or puzzles) done, for the message of an interrupted run.
    fn done(&self) -> u64;
}

impl RunReport for summary::SolveSummary {
    fn text(&self) -> String {
        summary::SolveSummary::text(self)
    }
    fn json(&self) -> String {
        summary::SolveSummary::json(self)
    }
    fn done(&self) -> u64 {
        self.stats.records
    }
}

impl RunReport for generate::GenerateSummary {
    fn text(&self) -> String {
        generate::GenerateSummary::text(self)
    }
    fn json(&self) -> String {
        generate::GenerateSummary::json(self)
    }
    fn done(&self) -> u64 {
        self.stats.generated
    }
}

impl RunReport for minimize::MinimizeSummary {
    fn text(&self) -> String {
        minimize::MinimizeSummary::text(self)
    }
    fn json(&self) -> String {
        minimize::MinimizeSummary::json(self)
    }
    fn done(&self) -> u64 {
        self.stats.records
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// `--strict` met a record that is invalid or not uniquely solvable; the output holds
    /// the rows up to and including it.
    Strict(summary::Problem),
    /// All input was processed and the output completed.
    Completed,
    /// Ctrl-C or SIGTERM: the output holds the complete rows of a prefix of the input.
    Interrupted,
    /// The reader of our output went away (`| head`): a quiet, successful end.
    BrokenPipe,
}

/// How many record messages go to stderr before they are only counted.
pub const MAX_DIAGS: usize = 20;

/// Prints `FILE:LINE:COL: message` for the first `max` bad records (normally
/// [`MAX_DIAGS`]), then counts.
#[derive(Debug)]
pub struct DiagPrinter {
    name: String,
    max: usize,
    printed: usize,
    more: u64,
}

impl DiagPrinter {
    /// A printer for input `name` that prints at most `max` messages.
    pub fn new(name: String, max: usize) -> DiagPrinter {
        DiagPrinter {
            name,
            max,
            printed: 0,
            more: 0,
        }
    }

    /// Prints (or counts) one message.
    pub fn print(&mut self, d: &Diag) {
        if self.printed < self.max {
            self.printed += 1;
            let _ = writeln!(
                std::io::stderr(),
                "{}:{}:{}: {}",
                self.name,
                d.line,
                d.col,
                d.message
            );
        } else {
            self.more += 1;
        }
    }

    /// Prints the count of messages not shown.
    pub fn finish(&self) {
        if self.more > 0 && self.max > 0 {
            let _ = writeln!(
                std::io::stderr(),
                "{}: {} more invalid records not shown",
                self.name,
                self.more
            );
        }
    }
}
