//! `solve --variant samurai` on the real binary: every record form, statuses, valid
//! solutions, invalid rows with reasons, stdin, formats, thread counts and usage errors.

use std::path::{Path, PathBuf};
use std::process::Output;

use sudoku_batch::core::samurai::format;

mod common;
use common::{SOLVE_HEADER, col, csv_rows, run, run_stdin, stdout};

/// `solve --variant samurai FILE -q` with `extra` arguments.
fn solve_samurai(file: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "solve",
        "--variant",
        "samurai",
        file.to_str().unwrap(),
        "-q",
    ];
    args.extend_from_slice(extra);
    run(&args)
}

/// A file under `data/samurai`.
fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data/samurai")
        .join(name)
}

#[test]
fn mixed_file_gives_one_row_per_record_with_valid_solutions() {
    let path = data("mixed.txt");
    let o = solve_samurai(&path, &[]);
    let rows = csv_rows(&stdout(&o));
    // The columns of classic solve, rating columns included.
    assert_eq!(rows[0], SOLVE_HEADER);
    let (error, tail) = (col(&rows[0], "error"), col(&rows[0], "tail"));
    let got: Vec<(&str, &str, &str)> = rows[1..]
        .iter()
        .map(|r| (r[0].as_str(), r[3].as_str(), r[4].as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("2", "solved", "1"),
            ("4", "solved", "1"),
            ("11", "solved", "1"),
            ("32", "multiple", "2"),
            ("33", "unsolvable", "0"),
            ("34", "invalid", ""),
            ("35", "invalid", ""),
            ("36", "solved", "1"),
        ]
    );
    for r in &rows[1..] {
        if r[3] == "invalid" {
            assert!(r[5].is_empty() && !r[error].is_empty());
            continue;
        }
        assert_eq!(r[2].len(), 405, "puzzle column");
        let (puzzle, _) = format::parse_line(r[2].as_bytes()).expect("puzzle column");
        if r[3] == "unsolvable" {
            assert!(r[5].is_empty());
            continue;
        }
        let (solution, _) = format::parse_line(r[5].as_bytes()).expect("solution column");
        assert!(solution.is_solution_of(&puzzle), "line {}", r[0]);
        assert!(r[6].parse::<u64>().is_ok());
    }
    // Tails pass through, from the 405-cell line and from the first of five CRLF lines.
    assert_eq!(rows[1][tail], "seed=2024;index=1;symmetry=rot180");
    assert_eq!(rows[2][tail], "seed=2024;index=4;symmetry=diagonal");
    // Reasons in the row and FILE:LINE:COL on stderr.
    assert_eq!(
        rows[6][error],
        "shared cell g1r7c7 = g3r1c1 is '5' in grid 1 but '.' in grid 3"
    );
    assert_eq!(rows[7][error], "only 300 cells, expected 405");
    // Ratings for the unique puzzles: line 36 needs a hidden pair (ER 3.4), line 2 region
    // forcing chains (ER 8.2); non-unique ones get none.
    let rating = |r: &Vec<String>| {
        ["er", "ep", "ed", "level", "hardest"].map(|c| r[col(&rows[0], c)].clone())
    };
    assert_eq!(
        rating(&rows[8]),
        ["3.4", "1.2", "1.2", "hard", "Hidden pair"]
    );
    assert_eq!(
        rating(&rows[1]),
        ["8.2", "1.2", "1.2", "diabolical", "Region forcing chains"]
    );
    assert_eq!(rating(&rows[4]), ["", "", "", "", ""]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("mixed.txt:34:163: shared cell g1r7c7"),
        "{err}"
    );
    assert!(err.contains("mixed.txt:35:301: only 300 cells"), "{err}");
}

#[test]
fn the_three_fixture_forms_solve_to_the_golden_solutions() {
    let golden: Vec<String> = std::fs::read_to_string(data("solutions.txt"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    let mut got = Vec::new();
    for f in ["lines.txt", "five_lines.txt", "blocks.txt"] {
        let o = solve_samurai(&data(f), &[]);
        for r in &csv_rows(&stdout(&o))[1..] {
            assert_eq!(r[3], "solved", "{f} line {}", r[0]);
            got.push(format!("{}:{}:{}", r[2], r[4], r[5]));
        }
    }
    assert_eq!(got, golden);
}

#[test]
fn invalid_records_become_rows_and_the_batch_goes_on() {
    let path = data("invalid.txt");
    let o = solve_samurai(&path, &[]);
    let rows = csv_rows(&stdout(&o));
    assert_eq!(rows.len(), 1 + 15);
    let error = col(&rows[0], "error");
    assert!(
        rows[1..]
            .iter()
            .all(|r| r[3] == "invalid" && !r[error].is_empty())
    );
    // A duplicate digit keeps the puzzle in the row, like classic solve.
    let dup = rows
        .iter()
        .find(|r| r[error].starts_with("digit 1 twice"))
        .unwrap();
    assert_eq!(dup[2].len(), 405);
    // At most 20 messages, all located.
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        err.lines().filter(|l| l.contains("invalid.txt:")).count(),
        15
    );
}

#[test]
fn stdin_thread_counts_and_formats_give_the_same_rows() {
    let path = data("mixed.txt");
    let one = stdout(&solve_samurai(&path, &["-j1"]));
    let two = stdout(&solve_samurai(&path, &["-j2"]));
    let ungraded = stdout(&solve_samurai(&path, &["--no-grade"]));
    let rows = csv_rows(&ungraded);
    let level = col(&rows[0], "level");
    assert!(rows[1..].iter().all(|r| r[level].is_empty()));
    assert_eq!(one, two);
    let bytes = std::fs::read(&path).unwrap();
    let piped = stdout(&run_stdin(
        &["solve", "--variant", "samurai", "-", "-q"],
        &bytes,
    ));
    assert_eq!(one, piped);
    let jsonl = stdout(&solve_samurai(&path, &["--format", "jsonl"]));
    let first: serde_json::Value = serde_json::from_str(jsonl.lines().next().unwrap()).unwrap();
    assert_eq!(first["status"], "solved");
    assert_eq!(first["puzzle"].as_str().map(str::len), Some(405));
    let tsv = stdout(&solve_samurai(&path, &["--format", "tsv", "--no-header"]));
    assert_eq!(tsv.lines().count(), 8);
    assert!(tsv.lines().all(|l| l.split('\t').count() == 14));
    assert!(tsv.starts_with("2\t"));
}

#[test]
fn limit_counts_samurai_solutions_up_to_n() {
    let p = data("multiple.txt");
    for (limit, want) in [("1", "1"), ("2", "2"), ("3", "3")] {
        let rows = csv_rows(&stdout(&solve_samurai(&p, &["--limit", limit])));
        assert_eq!(rows[1][4], want, "limit {limit}");
        let status = if want == "1" { "solved" } else { "multiple" };
        assert_eq!(rows[1][3], status);
    }
}

#[test]
fn strict_stops_at_the_first_problem() {
    let p = data("mixed.txt");
    let o = solve_samurai(&p, &["--strict"]);
    assert_eq!(o.status.code(), Some(1));
    let rows = csv_rows(&String::from_utf8_lossy(&o.stdout));
    assert_eq!(rows.last().unwrap()[0], "32");
}

#[test]
fn classic_only_options_are_usage_errors_with_samurai() {
    let p = data("lines.txt");
    let p = p.to_str().unwrap();
    for extra in [&["--input-format", "line"][..], &["--check"]] {
        let mut args = vec!["solve", "--variant", "samurai", p];
        args.extend_from_slice(extra);
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{extra:?}");
        assert!(!o.stderr.is_empty());
    }
}

#[test]
fn stdin_records_cut_across_read_chunks_give_the_file_rows() {
    // Many records of every form: stdin arrives in pieces that cut records anywhere.
    let one = std::fs::read(data("mixed.txt")).unwrap();
    let mut big = Vec::new();
    for _ in 0..60 {
        big.extend_from_slice(&one);
    }
    let dir = std::env::temp_dir().join(format!("samurai-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("big.txt");
    std::fs::write(&file, &big).unwrap();
    let from_file = stdout(&solve_samurai(&file, &["--no-grade"]));
    let from_stdin = stdout(&run_stdin(
        &["solve", "--variant", "samurai", "-", "-q", "--no-grade"],
        &big,
    ));
    assert_eq!(from_file, from_stdin);
    assert_eq!(csv_rows(&from_file).len(), 1 + 60 * 8);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn explain_shows_the_samurai_solving_path() {
    let logic = data("logic.txt");
    let text = stdout(&run(&[
        "explain",
        "--variant",
        "samurai",
        logic.to_str().unwrap(),
    ]));
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("Puzzle: "));
    assert!(lines[1].trim_start().starts_with("1. [1."), "{text}");
    assert!(lines[1].contains(": g"), "{text}");
    assert_eq!(
        lines.last().unwrap(),
        &"ER 2.6, EP 1.2, ED 1.2 (hard); hardest step: Pointing"
    );
    // The puzzle on the command line, as JSON.
    let first = std::fs::read_to_string(&logic).unwrap();
    let line = first.lines().find(|l| !l.starts_with('#')).unwrap();
    let json = stdout(&run(&[
        "explain",
        "--variant",
        "samurai",
        &line[..405],
        "--format",
        "json",
    ]));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["level"], "hard");
    assert_eq!(v["er"], 2.6);
    assert_eq!(v["outcome"], "complete");
    let steps = v["steps"].as_array().unwrap();
    assert!(steps.len() > 200, "{}", steps.len());
    assert_eq!(steps[0]["step"], 1);
    assert!(
        steps
            .iter()
            .all(|s| s["text"].as_str().is_some_and(|t| t.contains(": g")))
    );
    // A puzzle that needs chains: rated exactly, the chain steps named.
    let chains = stdout(&run(&[
        "explain",
        "--variant",
        "samurai",
        data("lines.txt").to_str().unwrap(),
    ]));
    assert!(
        chains.contains("ER 9.2, EP 1.2, ED 1.2 (extreme); hardest step: Dynamic forcing chains"),
        "{chains}"
    );
    assert!(!chains.contains(">="), "{chains}");
    // Not exactly one solution, or a broken record: a usage error (exit 2).
    for bad in ["multiple.txt", "unsolvable.txt", "invalid.txt"] {
        let o = run(&[
            "explain",
            "--variant",
            "samurai",
            data(bad).to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(!o.stderr.is_empty());
    }
}

#[test]
fn bench_times_samurai_files() {
    let o = run(&[
        "bench",
        "--variant",
        "samurai",
        data("lines.txt").to_str().unwrap(),
        data("mixed.txt").to_str().unwrap(),
        "--rounds",
        "1",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let files = v["files"].as_array().unwrap();
    assert_eq!(files[0]["puzzles"], 4);
    assert_eq!(files[0]["skipped"], 0);
    assert_eq!(files[0]["solutions_per_puzzle"], 1.0);
    // mixed.txt: 6 valid records (one of them with two solutions), 2 invalid ones skipped.
    assert_eq!(files[1]["puzzles"], 6);
    assert_eq!(files[1]["skipped"], 2);
    assert!(files[1]["median_pps"].as_f64().unwrap() > 0.0);
}
