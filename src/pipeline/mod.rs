//! The pipeline: wires input sources, record splitting, rayon workers and the ordered writer
//! together for each subcommand. See [`engine`] for the machinery and [`solve`] for `solve`.

pub mod bench;
pub mod engine;
pub mod explain;
pub mod progress;
pub mod solve;
pub mod summary;

use std::io::Write;

use engine::Diag;

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// All input was processed and the output completed.
    Completed,
    /// Ctrl-C or SIGTERM: the output holds the complete rows of a prefix of the input.
    Interrupted,
    /// The reader of our output went away (`| head`): a quiet, successful end.
    BrokenPipe,
}

/// How many record messages go to stderr before they are only counted.
pub const MAX_DIAGS: usize = 20;

/// Prints `FILE:LINE:COL: message` for the first [`MAX_DIAGS`] bad records, then counts.
#[derive(Debug)]
pub struct DiagPrinter {
    name: String,
    printed: usize,
    more: u64,
}

impl DiagPrinter {
    /// A printer for input `name`.
    pub fn new(name: String) -> DiagPrinter {
        DiagPrinter {
            name,
            printed: 0,
            more: 0,
        }
    }

    /// Prints (or counts) one message.
    pub fn print(&mut self, d: &Diag) {
        if self.printed < MAX_DIAGS {
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
        if self.more > 0 {
            let _ = writeln!(
                std::io::stderr(),
                "{}: {} more invalid records not shown",
                self.name,
                self.more
            );
        }
    }
}
