//! Helpers shared by the integration tests that run the real binary: run it, take its
//! standard output (asserting success), and read CSV rows. A test file uses them with
//! `mod common;`.

use std::process::{Command, Output};

/// The `sudoku-batch` binary built for the tests.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
}

/// Runs the binary with `args` and waits for it.
pub fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("run sudoku-batch")
}

/// The standard output of a successful run (fails the test with stderr otherwise).
pub fn stdout(o: &Output) -> String {
    assert!(
        o.status.success(),
        "exit {:?}, stderr: {}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout.clone()).expect("utf-8 output")
}

/// Every CSV record of `s`, header included.
pub fn csv_rows(s: &str) -> Vec<Vec<String>> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(s.as_bytes())
        .records()
        .map(|r| r.expect("csv").iter().map(str::to_string).collect())
        .collect()
}
