//! CLI tests of `generate` and `minimize` on the real binary. Every generated puzzle is
//! checked with the exact solver (one solution, equal to the `solution` column; the clue
//! pattern has the named symmetry; with `--minimal`, no clue can go), and the bytes are the
//! same for any thread count and for a shard split.

use sudoku_batch::core::generator::Symmetry;
use sudoku_batch::core::{Cell, Grid, Solver};

mod common;
use common::*;

const GEN_HEADER: [&str; 10] = [
    "index", "puzzle", "solution", "clues", "er", "ep", "ed", "level", "hardest", "symmetry",
];

fn is_minimal(solver: &mut Solver, p: &Grid) -> bool {
    Cell::all().filter(|&c| p.value(c) != 0).all(|c| {
        let mut r = *p;
        r.set(c, None);
        solver.solve(&r, 2).count == 2
    })
}

/// Checks every row of a `generate` CSV output; returns the rows without the header.
fn check_generated(out: &str, first_index: u64, minimal: bool) -> Vec<Vec<String>> {
    let rows = csv_rows(out);
    assert_eq!(rows[0], GEN_HEADER);
    let mut solver = Solver::new();
    for (k, row) in rows[1..].iter().enumerate() {
        assert_eq!(row[0], (first_index + k as u64).to_string());
        let p: Grid = row[1].parse().expect("puzzle");
        let s: Grid = row[2].parse().expect("solution");
        let sym: Symmetry = row[9].parse().expect("symmetry");
        let o = solver.solve(&p, 2);
        assert_eq!(o.count, 1, "not unique: {}", row[1]);
        assert_eq!(o.solution, s);
        assert!(s.is_solution_of(&p));
        assert!(sym.holds(&p), "{} is not {sym}", row[1]);
        assert_eq!(row[3], p.clue_count().to_string());
        if minimal {
            assert!(is_minimal(&mut solver, &p), "not minimal: {}", row[1]);
        }
        // Ungraded: the rating columns are empty.
        assert!(row[4..9].iter().all(String::is_empty), "{row:?}");
    }
    rows[1..].to_vec()
}

#[test]
fn generated_puzzles_are_unique_symmetric_and_minimal() {
    for (sym, n) in [
        ("none", "150"),
        ("rot180", "40"),
        ("rot90", "6"),
        ("mirror", "30"),
        ("flip", "30"),
        ("diagonal", "30"),
        ("antidiagonal", "30"),
        ("random", "30"),
    ] {
        let out = stdout(&run(&[
            "generate",
            "-n",
            n,
            "--no-grade",
            "--seed",
            "12",
            "--symmetry",
            sym,
            "--minimal",
            "-q",
        ]));
        let rows = check_generated(&out, 0, true);
        assert_eq!(rows.len().to_string(), n);
        if sym != "random" {
            assert!(rows.iter().all(|r| r[9] == sym), "{sym}");
        } else {
            assert!(rows.iter().all(|r| r[9] != "none"));
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_bytes_for_any_thread_count_and_shard_split() {
    let args = |extra: &[&str]| {
        let mut v = vec![
            "generate",
            "-n",
            "100",
            "--no-grade",
            "--seed",
            "42",
            "--symmetry",
            "random",
            "--minimal",
            "-q",
        ];
        v.extend_from_slice(extra);
        stdout(&run(&v))
    };
    let one = args(&["-j", "1"]);
    let two = args(&["-j", "2"]);
    assert_eq!(one, two);
    let mut joined = String::new();
    for k in ["0/3", "1/3", "2/3"] {
        joined.push_str(&args(&["--shard", k, "-j", "2"]));
    }
    assert_eq!(joined, one);
    // Shard 1 of 3 holds indices 33..66, without a header.
    let shard = args(&["--shard", "1/3"]);
    assert!(shard.starts_with("33,"));
    assert_eq!(shard.lines().count(), 33);
    check_generated(&format!("{}\n{shard}", GEN_HEADER.join(",")), 33, true);
    assert_ne!(
        one,
        stdout(&run(&[
            "generate",
            "-n",
            "100",
            "--no-grade",
            "--seed",
            "43",
            "-q"
        ]))
    );
}

#[test]
fn a_drawn_seed_is_printed_and_repeats_the_run() {
    let first = run(&["generate", "-n", "20", "--no-grade"]);
    let out = stdout(&first);
    let err = String::from_utf8_lossy(&first.stderr);
    let seed = err
        .split("seed ")
        .nth(1)
        .and_then(|s| s.split(|c: char| !c.is_ascii_digit()).next())
        .expect("seed in the summary");
    assert!(err.contains("20 puzzles generated"), "{err}");
    let again = stdout(&run(&[
        "generate",
        "-n",
        "20",
        "--no-grade",
        "--seed",
        seed,
        "-q",
    ]));
    assert_eq!(out, again);
}

#[test]
fn formats_header_output_file_and_summary_json() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p.tsv");
    let summary = dir.path().join("s.json");
    let o = run(&[
        "generate",
        "-n",
        "7",
        "--no-grade",
        "--seed",
        "3",
        "--format",
        "tsv",
        "-o",
        out.to_str().unwrap(),
        "--summary-json",
        summary.to_str().unwrap(),
        "-q",
    ]);
    assert!(o.status.success());
    assert!(o.stdout.is_empty() && o.stderr.is_empty());
    let tsv = std::fs::read_to_string(&out).unwrap();
    assert!(tsv.starts_with(&GEN_HEADER.join("\t")));
    assert_eq!(tsv.lines().count(), 8);
    assert!(!dir.path().join("p.tsv.partial").exists());
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    assert_eq!(json["generated"], 7);
    assert_eq!(json["seed"], 3);
    assert_eq!(json["tried"], 7);
    assert!(json["grades"]["graded"] == 0, "{json}");
    let csv = stdout(&run(&[
        "generate",
        "-n",
        "7",
        "--no-grade",
        "--seed",
        "3",
        "-q",
    ]));
    assert_eq!(csv.replace(',', "\t"), tsv);

    let jsonl = stdout(&run(&[
        "generate",
        "-n",
        "3",
        "--no-grade",
        "--seed",
        "3",
        "--format",
        "jsonl",
        "-q",
    ]));
    let lines: Vec<serde_json::Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[2]["index"], 2);
    assert!(lines[0]["er"].is_null());
    assert_eq!(lines[0]["symmetry"], "none");
    let bare = stdout(&run(&[
        "generate",
        "-n",
        "3",
        "--no-grade",
        "--seed",
        "3",
        "--no-header",
        "-q",
    ]));
    assert_eq!(
        bare,
        csv.lines().skip(1).take(3).collect::<Vec<_>>().join("\n") + "\n"
    );
}

#[test]
fn clue_ranges_without_minimal_stop_digging_at_their_floor() {
    let out = stdout(&run(&[
        "generate",
        "-n",
        "30",
        "--no-grade",
        "--seed",
        "9",
        "--clues",
        "32..33",
        "--symmetry",
        "rot180",
        "-q",
    ]));
    for row in check_generated(&out, 0, false) {
        let n: u8 = row[3].parse().unwrap();
        assert!((32..=33).contains(&n), "{n}");
    }
}

#[test]
fn a_target_too_narrow_stops_with_a_clear_message() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p.csv");
    let o = run(&[
        "generate",
        "-n",
        "5",
        "--no-grade",
        "--seed",
        "1",
        "--minimal",
        "--clues",
        "17..18",
        "--max-attempts",
        "20",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("puzzle 0: no candidate met the target in 20 attempts")
            && err.contains("20 with a clue count outside 17..18")
            && err.contains("raise --max-attempts"),
        "{err}"
    );
    assert!(!out.exists());
    for bad in [
        &["generate", "--clues", "..16"][..],
        &["generate", "--er", "9..8"],
        &["generate", "--no-grade", "--level", "extreme"],
    ] {
        let o = run(bad);
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
    }
}

fn minimize_rows(out: &str) -> Vec<Vec<String>> {
    let rows = csv_rows(out);
    assert_eq!(rows[0], ["line", "puzzle", "minimal", "clues", "error"]);
    rows[1..].to_vec()
}

#[test]
fn minimize_strips_added_clues_and_explains_refusals() {
    let mut solver = Solver::new();
    // 17-clue puzzles are minimal; add the first row of each solution to make them not.
    let text = std::fs::read_to_string(data("17clue_200.txt")).unwrap();
    let mut input = String::from("# puzzles with redundant clues\n");
    let mut originals = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#')).take(40) {
        let p: Grid = line[..81].parse().unwrap();
        let s = solver.solve(&p, 2).solution;
        let mut q = p;
        for c in 0..9 {
            q.set(Cell::new(c), s.digit(Cell::new(c)));
        }
        input.push_str(&format!("{q}\n"));
        originals.push((q, s));
    }
    let path = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(path.path(), &input).unwrap();
    let p = path.path().to_str().unwrap();
    let one = stdout(&run(&["minimize", p, "-j", "1", "-q"]));
    let two = stdout(&run(&["minimize", p, "-j", "2", "-q"]));
    assert_eq!(one, two);
    let rows = minimize_rows(&one);
    assert_eq!(rows.len(), originals.len());
    for (k, (row, (q, s))) in rows.iter().zip(&originals).enumerate() {
        assert_eq!(row[0], (k + 2).to_string());
        assert_eq!(row[1], q.to_string());
        let m: Grid = row[2].parse().unwrap();
        assert!(Cell::all().all(|c| m.value(c) == 0 || m.value(c) == q.value(c)));
        let o = solver.solve(&m, 2);
        assert_eq!((o.count, o.solution), (1, *s));
        assert!(is_minimal(&mut solver, &m));
        assert_eq!(row[3], m.clue_count().to_string());
        assert!(row[4].is_empty());
    }
    // The same through stdin, and for an already minimal puzzle.
    let via_stdin = stdout(&run_stdin(&["minimize", "-", "-q"], input.as_bytes()));
    assert_eq!(via_stdin, one);
    let first17 = text.lines().next().unwrap();
    let rows = minimize_rows(&stdout(&run_stdin(
        &["minimize", "-", "-q"],
        format!("{first17}\n").as_bytes(),
    )));
    assert_eq!(rows[0][2], first17[..81]);
    assert_eq!(rows[0][3], "17");
}

#[test]
fn minimize_reports_bad_records_and_counts_them() {
    let serg = std::fs::read_to_string(data("serg_100.txt")).unwrap();
    let multiple = serg.lines().next().unwrap();
    let input = format!(
        "{multiple}\n12345678.........9{}\n11{}\nnot a puzzle\n",
        ".".repeat(63),
        ".".repeat(79)
    );
    let o = run_stdin(&["minimize", "-"], input.as_bytes());
    let rows = minimize_rows(&stdout(&o));
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[0][4], "the puzzle has several solutions");
    assert!(rows[0][2].is_empty() && rows[0][3].is_empty());
    assert_eq!(rows[1][4], "the puzzle has no solution");
    assert_eq!(rows[2][4], "invalid givens: digit 1 twice in row 1");
    assert!(rows[3][1].is_empty() && rows[3][4].contains("invalid character"));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("<stdin>:3:2: invalid givens: digit 1 twice in row 1"),
        "{err}"
    );
    assert!(err.contains("<stdin>:4:1: invalid character 'n'"), "{err}");
    assert!(
        err.contains("4 records: 0 minimized (0 already minimal, 0 clues removed), 1 multiple, 1 unsolvable, 2 invalid"),
        "{err}"
    );
    let o = run(&["minimize", "/nonexistent/file.txt"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn graded_puzzles_carry_the_ratings_solve_gives_and_meet_the_level() {
    for (target, level) in [
        (&["--level", "medium"][..], Some("medium")),
        (&["--er", "..1.5"], Some("easy")),
        (&["--level", "hard", "--blind"], Some("hard")),
        (&[], None),
    ] {
        let mut args = vec!["generate", "-n", "25", "--seed", "5", "--minimal", "-q"];
        args.extend_from_slice(target);
        let one = stdout(&run(&[&args[..], &["-j", "1"]].concat()));
        let two = stdout(&run(&[&args[..], &["-j", "2"]].concat()));
        assert_eq!(one, two, "{target:?}");
        let rows = csv_rows(&one);
        assert_eq!(rows[0], GEN_HEADER);
        let mut solver = Solver::new();
        for row in &rows[1..] {
            let p: Grid = row[1].parse().unwrap();
            assert_eq!(solver.solve(&p, 2).count, 1);
            assert!(is_minimal(&mut solver, &p));
            assert!(!row[4].is_empty() && !row[7].is_empty(), "{row:?}");
            if let Some(l) = level {
                assert_eq!(row[7], l, "{row:?}");
            }
        }
        // `solve` rates each puzzle the same way.
        let puzzles: String = rows[1..].iter().map(|r| format!("{}\n", r[1])).collect();
        let solved = csv_rows(&stdout(&run_stdin(
            &["solve", "-", "-q"],
            puzzles.as_bytes(),
        )));
        let col = |name: &str| solved[0].iter().position(|c| c == name).unwrap();
        for (g, s) in rows[1..].iter().zip(&solved[1..]) {
            assert_eq!(s[col("status")], "solved");
            assert_eq!(s[col("solution")], g[2]);
            for (k, name) in [
                (4, "er"),
                (5, "ep"),
                (6, "ed"),
                (7, "level"),
                (8, "hardest"),
            ] {
                assert_eq!(g[k], s[col(name)], "{name} of {}", g[1]);
            }
        }
    }
}

#[test]
fn the_graded_summary_counts_levels() {
    let dir = tempfile::tempdir().unwrap();
    let summary = dir.path().join("s.json");
    let o = run(&[
        "generate",
        "-n",
        "40",
        "--seed",
        "4",
        "--summary-json",
        summary.to_str().unwrap(),
    ]);
    let rows = csv_rows(&stdout(&o));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    let levels = &json["grades"]["levels"];
    for l in [
        "easy",
        "medium",
        "hard",
        "fiendish",
        "diabolical",
        "extreme",
    ] {
        let n = rows[1..].iter().filter(|r| r[7] == l).count();
        assert_eq!(levels[l], n, "{l}");
    }
    assert_eq!(json["grades"]["graded"], 40);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("levels: "), "{err}");
}
