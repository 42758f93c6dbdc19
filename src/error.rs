//! Error types. Messages say what went wrong and where; every error here ends a run with
//! exit code 2 (bad records are not errors: they become `invalid` rows).

use std::io;
use std::path::PathBuf;

/// A fault that stops a run.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The input could not be opened or read.
    #[error("cannot read {}: {source}", path.display())]
    Input {
        /// The input path (`-` for stdin).
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// The output could not be created or written.
    #[error("cannot write {}: {source}", path.display())]
    Output {
        /// The output path (`-` for stdout).
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// Settings that do not make sense together.
    #[error("{0}")]
    Usage(String),
    /// Ctrl-C or SIGTERM came before the first record could be read.
    #[error("interrupted while waiting for the first input; nothing was written")]
    Interrupted,
}

impl Error {
    /// The process exit code for this error (design.md: 2 for usage and I/O errors).
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Interrupted => 130,
            _ => 2,
        }
    }
}
