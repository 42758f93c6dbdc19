//! `generate --variant samurai` on the real binary: every puzzle has exactly one solution by
//! the samurai solver (the `solution` column), keeps its digits and has the named symmetry;
//! the bytes are the same for any thread count and any shard split; the ratings are those
//! `solve --variant samurai` gives the same puzzles; ER targets are met by rejection; options
//! the samurai generator cannot honour are usage errors.

use std::path::PathBuf;

use sudoku_batch::core::samurai::format::{self, SamuraiForm};
use sudoku_batch::core::samurai::{SamuraiGrid, SamuraiSolver, SamuraiSymmetry};

mod common;
use common::{csv_rows, run, stdout};

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("samurai-generate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

const HEADER: [&str; 10] = [
    "index", "puzzle", "solution", "clues", "er", "ep", "ed", "level", "hardest", "symmetry",
];

fn grid(line: &str) -> SamuraiGrid {
    assert_eq!(line.len(), 405, "{line}");
    format::read_record(SamuraiForm::Line, &[line.as_bytes()])
        .expect("a 405-cell line")
        .0
}

fn generate(args: &[&str]) -> String {
    let mut all = vec!["generate", "--variant", "samurai", "-q"];
    all.extend_from_slice(args);
    stdout(&run(&all))
}

/// Checks every row (header first); returns the rows without the header.
fn check(out: &str, first_index: u64) -> Vec<Vec<String>> {
    let rows = csv_rows(out);
    assert_eq!(rows[0], HEADER);
    let mut solver = SamuraiSolver::new();
    for (i, row) in rows[1..].iter().enumerate() {
        assert_eq!(row.len(), HEADER.len());
        assert_eq!(row[0], (first_index + i as u64).to_string());
        let puzzle = grid(&row[1]);
        let solution = grid(&row[2]);
        assert!(solution.is_full());
        assert!(solution.is_solution_of(&puzzle), "row {i}: digits kept");
        let out = solver.solve(&puzzle, 2);
        assert_eq!(out.count, 1, "row {i}: exactly one solution");
        assert_eq!(out.solution, solution, "row {i}");
        assert_eq!(row[3], puzzle.clue_count().to_string());
        let sym: SamuraiSymmetry = row[9].parse().expect("a symmetry name");
        assert!(sym.holds_for(&puzzle), "row {i}: {sym}");
    }
    rows[1..].to_vec()
}

#[test]
fn puzzles_are_unique_keep_their_solution_and_are_graded() {
    let out = generate(&["-n", "8", "--seed", "11", "-j", "1"]);
    let rows = check(&out, 0);
    assert_eq!(rows.len(), 8);
    for r in &rows {
        assert_eq!(r[9], "none");
        assert!(!r[4].is_empty() && !r[7].is_empty(), "graded: {r:?}");
    }
    // --no-grade leaves the rating columns empty and changes nothing else.
    let plain = csv_rows(&generate(&["-n", "8", "--seed", "11", "--no-grade"]));
    for (a, b) in plain[1..].iter().zip(&rows) {
        assert_eq!(a[..4], b[..4]);
        assert!(a[4..9].iter().all(String::is_empty), "{a:?}");
        assert_eq!(a[9], b[9]);
    }
}

#[test]
fn symmetries_hold_and_random_draws_per_puzzle() {
    for sym in ["rot180", "rot90", "mirror", "diagonal"] {
        let out = generate(&["-n", "3", "--seed", "2", "--symmetry", sym, "--no-grade"]);
        for r in check(&out, 0) {
            assert_eq!(r[9], sym);
        }
    }
    let out = generate(&[
        "-n",
        "8",
        "--seed",
        "2",
        "--symmetry",
        "random",
        "--no-grade",
    ]);
    let rows = check(&out, 0);
    assert!(rows.iter().all(|r| r[9] != "none"));
    let first = &rows[0][9];
    assert!(rows.iter().any(|r| &r[9] != first), "one symmetry for all");
}

#[test]
fn same_bytes_for_any_thread_count() {
    // More than one block of 64, so two workers really share the run.
    let args = |j: &'static str| ["-n", "140", "--seed", "5", "--no-grade", "-j", j];
    let one = run(&["generate", "--variant", "samurai", "-q"]
        .into_iter()
        .chain(args("1"))
        .collect::<Vec<_>>());
    let two = run(&["generate", "--variant", "samurai", "-q"]
        .into_iter()
        .chain(args("2"))
        .collect::<Vec<_>>());
    let one = stdout(&one);
    assert_eq!(one, stdout(&two));
    assert_eq!(csv_rows(&one).len(), 141);
}

#[test]
fn shards_concatenate_to_the_whole_run() {
    let whole = generate(&["-n", "10", "--seed", "8", "--symmetry", "rot180"]);
    let mut joined = String::new();
    for k in 0..3 {
        let shard = format!("{k}/3");
        joined.push_str(&generate(&[
            "-n",
            "10",
            "--seed",
            "8",
            "--symmetry",
            "rot180",
            "--shard",
            &shard,
        ]));
    }
    assert_eq!(joined, whole);
    check(&whole, 0);
    // A shard's rows carry their global indices.
    let tail = generate(&["-n", "10", "--seed", "8", "--shard", "2/3", "--no-header"]);
    assert!(tail.starts_with("6,"), "{tail}");
}

/// Generates 12 puzzles and solves them back with the same grading budget (`None`: the
/// default); the ratings must agree. Returns how many rows were lower bounds (`>=`).
fn generate_and_solve_back(budget: Option<&str>) -> usize {
    let mut args = vec!["-n", "12", "--seed", "21", "--symmetry", "random"];
    let mut solve_args = vec!["solve", "--variant", "samurai", "-q"];
    if let Some(b) = budget {
        args.extend(["--grade-budget", b]);
        solve_args.extend(["--grade-budget", b]);
    }
    let out = generate(&args);
    let rows = check(&out, 0);
    let input = temp(&format!("puzzles-{}.txt", budget.unwrap_or("default")));
    let lines: String = rows.iter().map(|r| format!("{}\n", r[1])).collect();
    std::fs::write(&input, lines).expect("write puzzles");
    solve_args.push(input.to_str().expect("utf-8 path"));
    let solved = csv_rows(&stdout(&run(&solve_args)));
    let col = |name: &str| solved[0].iter().position(|h| h == name).expect(name);
    let (er, hardest) = (col("er"), col("hardest"));
    assert_eq!(solved.len(), rows.len() + 1);
    let mut lower_bounds = 0;
    for (g, s) in rows.iter().zip(&solved[1..]) {
        assert_eq!(s[col("status")], "solved");
        assert_eq!(s[col("solution")], g[2]);
        assert_eq!(g[4..9], s[er..=hardest], "{}", g[1]);
        if s[er].starts_with(">=") {
            assert_eq!(s[hardest], "", "a lower bound names no hardest step: {g:?}");
            lower_bounds += 1;
        }
    }
    let _ = std::fs::remove_file(&input);
    lower_bounds
}

#[test]
fn ratings_are_those_of_solve() {
    // At the default samurai budget every one of these is rated exactly ...
    assert_eq!(generate_and_solve_back(None), 0);
    // ... and a small budget gives `>=` lower bounds, the same in both commands.
    assert!(generate_and_solve_back(Some("20000")) > 0);
}

#[test]
fn er_targets_are_met_by_rejection() {
    let out = generate(&["-n", "2", "--seed", "4", "--er", "..4.4"]);
    for r in check(&out, 0) {
        assert_ne!(r[7], "beyond", "{r:?}");
        let er: f64 = r[4].parse().expect("an exact ER");
        assert!(er <= 4.4, "{r:?}");
    }
    let summary = temp("summary.json");
    let o = run(&[
        "generate",
        "--variant",
        "samurai",
        "-q",
        "-n",
        "3",
        "--seed",
        "4",
        "--level",
        "extreme",
        "--max-attempts",
        "3",
        "-o",
        temp("never.csv").to_str().expect("utf-8 path"),
        "--summary-json",
        summary.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("puzzle 0: no samurai candidate had ER in 9.0.. in 3 attempts"),
        "{err}"
    );
    assert!(err.contains("--max-attempts 3"), "{err}");
}

#[test]
fn minimal_is_accepted_without_symmetry() {
    let a = generate(&["-n", "2", "--seed", "6", "--minimal", "--no-grade"]);
    let b = generate(&["-n", "2", "--seed", "6", "--no-grade"]);
    assert_eq!(a, b);
}

#[test]
fn unsupported_options_are_usage_errors() {
    for (args, says) in [
        (&["--clues", "30..40"][..], "--clues is not supported"),
        // Clap checks the classic range before the variant is known: still exit 2.
        (&["--clues", "90..100"], "not a clue count"),
        (
            &["--minimal", "--symmetry", "rot180"],
            "--minimal with a symmetry",
        ),
    ] {
        let mut all = vec!["generate", "--variant", "samurai", "-n", "1"];
        all.extend_from_slice(args);
        let o = run(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn the_summary_counts_levels_and_names_the_variant() {
    let summary = temp("counts.json");
    let out = generate(&[
        "-n",
        "6",
        "--seed",
        "3",
        "--summary-json",
        summary.to_str().expect("utf-8 path"),
    ]);
    let rows = check(&out, 0);
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&summary).expect("summary written"))
            .expect("JSON summary");
    assert_eq!(json["variant"], "samurai");
    assert_eq!(json["generated"], 6);
    let clues: u64 = rows
        .iter()
        .map(|r| r[3].parse::<u64>().expect("clues"))
        .sum();
    assert_eq!(json["clues"], clues);
    let beyond = rows.iter().filter(|r| r[7] == "beyond").count();
    assert_eq!(json["grades"]["lower_bounds"], beyond as u64);
    assert_eq!(json["grades"]["graded"], 6);
    let _ = std::fs::remove_file(&summary);
}
