//! Helpers shared by the tests that run the real binary: running it, finding the data
//! samples, reading its CSV output, and starting a long run to interrupt.

#![allow(dead_code)] // each test crate uses its own subset

pub mod alloc;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

/// The `sudoku-batch` binary built for these tests.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
}

/// A file under the repository's `data/`.
pub fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name)
}

/// The header `solve` writes (classic and samurai alike), spelled out here so that the
/// tests check the binary against a fixed list, not against the code that writes it.
pub const SOLVE_HEADER: [&str; 14] = [
    "line",
    "id",
    "puzzle",
    "status",
    "solutions",
    "solution",
    "guesses",
    "er",
    "ep",
    "ed",
    "level",
    "hardest",
    "error",
    "tail",
];

/// Runs the binary with `args`.
pub fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("run sudoku-batch")
}

/// Runs the binary with `args`, feeding `input` on stdin from another thread.
pub fn run_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait");
    feeder.join().expect("feeder");
    out
}

/// Stdout of a successful run (fails the test, showing stderr, otherwise).
pub fn stdout(o: &Output) -> String {
    assert!(
        o.status.success(),
        "exit {:?}, stderr: {}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout.clone()).expect("utf-8 output")
}

/// Parses CSV output into rows of fields (header included).
pub fn csv_rows(s: &str) -> Vec<Vec<String>> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(s.as_bytes())
        .records()
        .map(|r| r.expect("csv").iter().map(str::to_string).collect())
        .collect()
}

/// Index of column `name` in a header row.
pub fn col(header: &[String], name: &str) -> usize {
    header
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("no column {name} in {header:?}"))
}

/// `copies` copies of the hardest sample puzzles in `dir/hard.txt`: a run over them is
/// still going when a test interrupts it.
pub fn hard_input(dir: &Path, copies: usize) -> PathBuf {
    let hard = std::fs::read_to_string(data("hardest_100.txt")).unwrap();
    let p = dir.join("hard.txt");
    std::fs::write(&p, hard.repeat(copies)).unwrap();
    p
}

/// Starts `solve INPUT -j1 -o OUT` on hard puzzles with a small grading budget (these
/// puzzles need nested chains, a full budget each), stderr piped: a run to interrupt.
pub fn spawn_slow_solve(input: &Path, out: &Path) -> Child {
    bin()
        .args([
            "solve",
            input.to_str().unwrap(),
            "-j1",
            "--grade-budget",
            "100000",
            "-o",
            out.to_str().unwrap(),
        ])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Sends signal `sig` (`TERM`, `INT`, ...) to `child`.
pub fn signal(child: &Child, sig: &str) {
    let sent = Command::new("kill")
        .args([&format!("-{sig}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
}
