//! Faults a long unattended run can meet: a full disk, signals, an input truncated while it
//! is being read, `--strict` on a collection with a bad record. Each must end with a clear
//! message, the exit code of design.md, and complete rows only.

#![cfg(unix)]

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

mod common;
use common::*;

/// Every line of `text` after the header is a complete row of nine fields, numbered as
/// records of `hard.txt`-style input (one puzzle per line, from line 1).
fn assert_complete_rows(text: &str) {
    assert!(
        text.is_empty() || text.ends_with('\n'),
        "a row was cut: {text:?}"
    );
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(text.as_bytes());
    for (i, rec) in rdr.records().enumerate() {
        let rec = rec.expect("well-formed row");
        assert_eq!(rec.len(), 14);
        assert_eq!(rec[0].parse::<usize>().unwrap(), i + 1);
        assert_eq!(&rec[3], "solved");
    }
}

#[test]
fn full_disk_is_an_error_with_exit_2() {
    for args in [
        &["-o", "/dev/full"][..],
        &[], // stdout redirected to /dev/full below
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let o = bin()
            .args(["solve", data("17clue_200.txt").to_str().unwrap(), "-q"])
            .args(args)
            .stdout(Stdio::from(full))
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("cannot write") && err.contains("No space left"),
            "{err}"
        );
    }
    assert!(!Path::new("/dev/full.partial").exists());
}

#[test]
fn sigterm_behaves_like_ctrl_c() {
    let dir = tempfile::tempdir().unwrap();
    let input = hard_input(dir.path(), 600);
    let out = dir.path().join("out.csv");
    let child = spawn_slow_solve(&input, &out);
    std::thread::sleep(Duration::from_millis(700));
    signal(&child, "TERM");
    let o = child.wait_with_output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!out.exists());
    let partial = std::fs::read_to_string(dir.path().join("out.csv.partial")).unwrap();
    assert_complete_rows(&partial);
}

#[test]
fn input_truncated_while_read_stops_with_exit_2_and_complete_rows() {
    let dir = tempfile::tempdir().unwrap();
    let input = hard_input(dir.path(), 600);
    let out = dir.path().join("out.csv");
    let child = spawn_slow_solve(&input, &out);
    std::thread::sleep(Duration::from_millis(500));
    std::fs::OpenOptions::new()
        .write(true)
        .open(&input)
        .unwrap()
        .set_len(1000)
        .unwrap();
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("truncated") || err.contains("shrank"), "{err}");
    assert!(!out.exists());
    let partial = std::fs::read_to_string(dir.path().join("out.csv.partial")).unwrap();
    assert_complete_rows(&partial);
}

#[test]
fn strict_stops_at_the_first_bad_record_with_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.csv");
    let o = bin()
        .args([
            "solve",
            data("mixed.txt").to_str().unwrap(),
            "--strict",
            "-q",
        ])
        .args(["-o", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("mixed.txt:8:1: strict: puzzle has more than one solution"),
        "{err}"
    );
    let rows = std::fs::read_to_string(dir.path().join("out.csv.partial")).unwrap();
    let lines: Vec<&str> = rows.lines().collect();
    assert_eq!(
        lines.len(),
        4,
        "header, two solved rows, the bad one: {rows}"
    );
    assert!(lines[3].starts_with("8,"));
    // A clean collection passes strict mode.
    let o = bin()
        .args([
            "solve",
            data("17clue_200.txt").to_str().unwrap(),
            "--strict",
            "-q",
        ])
        .args(["-o", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 201);
    // An invalid record stops it too, with its column.
    let bad = dir.path().join("bad.txt");
    let p = std::fs::read_to_string(data("17clue_200.txt")).unwrap();
    let mut lines: Vec<String> = p.lines().take(50).map(str::to_string).collect();
    lines[30].replace_range(5..6, "x");
    std::fs::write(&bad, lines.join("\n")).unwrap();
    let o = bin()
        .args(["solve", bad.to_str().unwrap(), "--strict", "-q", "-j2"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("bad.txt:31:6: strict: invalid character 'x'")
    );
    assert_eq!(String::from_utf8_lossy(&o.stdout).lines().count(), 32);
}

/// Records longer than 1 MiB (a runaway line, an unterminated CSV quote) are invalid rows,
/// the same from a file and from a stream, and the records after them are read normally.
#[test]
fn oversized_records_are_invalid_rows_and_memory_stays_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let p = std::fs::read_to_string(data("17clue_200.txt")).unwrap();
    let p = p.lines().next().unwrap();
    let text = format!(
        "{p}\n{}\n{p}\n{p} {}\n{p}\n",
        "5".repeat(3_000_000),
        "x".repeat(2_000_000)
    );
    let f = dir.path().join("long.txt");
    std::fs::write(&f, &text).unwrap();
    let from_file = bin()
        .args(["solve", f.to_str().unwrap(), "-q"])
        .output()
        .unwrap();
    assert!(from_file.status.success());
    let from_stdin = run_stdin(&["solve", "-", "-q"], text.as_bytes());
    assert_eq!(from_file.stdout, from_stdin.stdout);
    let out = String::from_utf8(from_file.stdout).unwrap();
    let statuses: Vec<&str> = out
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(3).unwrap())
        .collect();
    assert_eq!(
        statuses,
        ["solved", "invalid", "solved", "invalid", "solved"]
    );
    assert!(out.contains("2,,,invalid,,,,,,,,,record longer than 1 MiB,"));
    // `minimize` reads records through the same loop: the same rows from a file and a
    // stream, the long records refused with the reason.
    let from_file = run(&["minimize", f.to_str().unwrap(), "-q"]);
    let from_stdin = run_stdin(&["minimize", "-", "-q"], text.as_bytes());
    assert_eq!(from_file.stdout, from_stdin.stdout);
    let rows = csv_rows(&stdout(&from_file));
    assert_eq!(rows.len(), 6);
    let errors: Vec<&str> = rows[1..].iter().map(|r| r[4].as_str()).collect();
    assert_eq!(
        errors,
        [
            "",
            "record longer than 1 MiB",
            "",
            "record longer than 1 MiB",
            ""
        ]
    );
}

/// The empty grid, puzzles with 1-16 clues, huge solution counts and deep searches all
/// finish, and a count that reached `--limit` says so (`solutions` = the limit).
#[test]
fn pathological_puzzles_finish_and_report_the_limit() {
    let o = bin()
        .args(["solve", data("pathological.txt").to_str().unwrap(), "-q"])
        .args(["--limit", "1000000", "-j2"])
        .output()
        .unwrap();
    assert!(o.status.success());
    let mut rdr = csv::Reader::from_reader(o.stdout.as_slice());
    let rows: Vec<csv::StringRecord> = rdr.records().map(Result::unwrap).collect();
    let got: Vec<(&str, &str)> = rows.iter().map(|r| (&r[3], &r[4])).collect();
    assert_eq!(
        got,
        [
            ("multiple", "1000000"),
            ("multiple", "1000000"),
            ("multiple", "1000000"),
            ("multiple", "17204"),
            ("unsolvable", "0"),
            ("solved", "1"),
            ("solved", "1"),
            ("solved", "1"),
        ]
    );
    for r in &rows {
        if !r[5].is_empty() {
            let p: sudoku_batch::core::Grid = r[2].parse().unwrap();
            let s: sudoku_batch::core::Grid = r[5].parse().unwrap();
            assert!(s.is_solution_of(&p));
        }
    }
}
