//! CLI tests on the real binary: every `solve` flag and input format, stdin, output files,
//! exit codes, and byte-identical output for any thread count.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use sudoku_batch::core::Grid;

mod common;
use common::*;

/// Checks every row's status against an independent look at its solution.
fn check_rows(rows: &[Vec<String>]) {
    assert_eq!(rows[0], SOLVE_HEADER);
    for r in &rows[1..] {
        match r[3].as_str() {
            "solved" | "multiple" => {
                let p: Grid = r[2].parse().expect("puzzle");
                let s: Grid = r[5].parse().expect("solution");
                assert!(s.is_solution_of(&p), "bad solution in {r:?}");
                let n: u32 = r[4].parse().expect("count");
                assert_eq!(n == 1, r[3] == "solved");
                assert!(r[12].is_empty());
                if r[3] == "multiple" {
                    assert!(r[7..12].iter().all(String::is_empty), "{r:?}");
                }
            }
            "unsolvable" => assert!(r[4] == "0" && r[5].is_empty()),
            "invalid" => assert!(!r[12].is_empty(), "invalid row without reason: {r:?}"),
            other => panic!("unknown status {other}"),
        }
        if !r[7].is_empty() {
            // A rating (`3.2`, or `>=9.5` for a lower bound) and a level.
            for v in &r[7..10] {
                let x: f64 = v.trim_start_matches(">=").parse().expect("rating");
                assert!((1.0..=20.0).contains(&x), "{r:?}");
            }
            assert!(
                [
                    "easy",
                    "medium",
                    "hard",
                    "fiendish",
                    "diabolical",
                    "extreme"
                ]
                .contains(&r[10].as_str()),
                "{r:?}"
            );
        }
    }
}

#[test]
fn golden_mixed_file() {
    let o = run(&["solve", data("mixed.txt").to_str().unwrap(), "-q"]);
    let got = stdout(&o);
    let want = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/mixed.csv"),
    )
    .unwrap();
    assert_eq!(got, want);
    let rows = csv_rows(&got);
    check_rows(&rows);
    let statuses: Vec<&str> = rows[1..].iter().map(|r| r[3].as_str()).collect();
    assert_eq!(
        statuses,
        [
            "solved",
            "solved",
            "multiple",
            "unsolvable",
            "invalid",
            "invalid",
            "invalid",
            "invalid",
            "invalid",
            "invalid",
            "multiple",
            "solved"
        ]
    );
    let errors: Vec<&str> = rows[1..].iter().map(|r| r[12].as_str()).collect();
    assert_eq!(errors[4], "only 80 cells, expected 81");
    assert_eq!(errors[6], "invalid character 'x'");
    assert_eq!(errors[7], "digit 4 twice in row 1");
    assert_eq!(errors[8], "digit 4 twice in column 1");
    assert_eq!(errors[9], "digit 4 twice in box 1");
    assert_eq!(rows[1][13], "top1465 #1");
    // Messages on stderr say FILE:LINE:COL: reason.
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("mixed.txt:16:17: invalid character 'x'"),
        "{err}"
    );
    assert!(
        err.contains("mixed.txt:18:2: digit 4 twice in row 1"),
        "{err}"
    );
}

#[test]
fn sample_sets_solve_with_valid_solutions_and_known_counts() {
    for (file, status) in [
        ("17clue_200.txt", "solved"),
        ("top1465_100.txt", "solved"),
        ("hardest_100.txt", "solved"),
        ("random_minimal_200.txt", "solved"),
        ("serg_100.txt", "multiple"),
    ] {
        let out = stdout(&run(&[
            "solve",
            data(file).to_str().unwrap(),
            "-q",
            "--no-grade",
        ]));
        let rows = csv_rows(&out);
        check_rows(&rows);
        assert!(rows.len() > 100);
        assert!(rows[1..].iter().all(|r| r[3] == status), "{file}");
    }
}

/// A file large enough to span several windows of records.
fn big_input(dir: &Path) -> PathBuf {
    let mut text = String::new();
    for _ in 0..25 {
        for f in [
            "17clue_200.txt",
            "serg_100.txt",
            "mixed.txt",
            "random_minimal_200.txt",
        ] {
            text.push_str(&std::fs::read_to_string(data(f)).unwrap());
        }
    }
    let p = dir.join("big.txt");
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn same_bytes_for_any_thread_count_and_for_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let big = big_input(dir.path());
    let b = big.to_str().unwrap();
    // Grading is covered by its own tests below; here the rows of 12,800 records.
    let one = stdout(&run(&["solve", b, "-j1", "-q", "--no-grade"]));
    let two = stdout(&run(&["solve", b, "-j2", "-q", "--no-grade"]));
    let four = stdout(&run(&["solve", b, "--threads", "4", "-q", "--no-grade"]));
    assert_eq!(one, two);
    assert_eq!(one, four);
    let piped = stdout(&run_stdin(
        &["solve", "-", "-j2", "-q", "--no-grade"],
        &std::fs::read(&big).unwrap(),
    ));
    assert_eq!(one, piped);
    assert!(one.lines().count() > 10_000);
    // RAYON_NUM_THREADS is honoured when -j is absent.
    let env1 = bin()
        .args(["solve", b, "-q", "--no-grade"])
        .env("RAYON_NUM_THREADS", "1")
        .output()
        .unwrap();
    assert_eq!(stdout(&env1), one);
}

#[test]
fn output_formats_and_no_header() {
    let f = data("mixed.txt");
    let f = f.to_str().unwrap();
    let tsv = stdout(&run(&["solve", f, "-q", "--format", "tsv"]));
    assert!(
        tsv.starts_with(
            "line\tid\tpuzzle\tstatus\tsolutions\tsolution\tguesses\ter\tep\ted\tlevel\thardest\terror\ttail\n"
        )
    );
    assert_eq!(tsv.lines().count(), 13);
    let jsonl = stdout(&run(&["solve", f, "-q", "--format", "jsonl"]));
    let rows: Vec<serde_json::Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect();
    assert_eq!(rows.len(), 12);
    assert_eq!(rows[0]["line"], 3);
    assert_eq!(rows[0]["status"], "solved");
    assert_eq!(rows[0]["solutions"], 1);
    assert_eq!(rows[0]["tail"], "top1465 #1");
    assert_eq!(rows[4]["status"], "invalid");
    assert!(rows[4]["solution"].is_null());
    let no_header = stdout(&run(&["solve", f, "-q", "--no-header"]));
    assert_eq!(no_header.lines().count(), 12);
    assert!(no_header.starts_with("3,"));
}

#[test]
fn csv_inputs_with_ids_and_check() {
    let sol = "468931527751624839392578461134756298289413675675289314846192753513867942927345186";
    let p = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
    let wrong = format!("5{}", &sol[1..]);
    // Kaggle layout.
    let kaggle = format!("quizzes,solutions\n{p},{sol}\n{p},{wrong}\n");
    let out = stdout(&run_stdin(
        &["solve", "-", "-q", "--check"],
        kaggle.as_bytes(),
    ));
    let rows = csv_rows(&out);
    assert_eq!(rows[0].last().unwrap(), "check");
    assert_eq!((rows[1][0].as_str(), rows[1][14].as_str()), ("2", "ok"));
    assert_eq!(rows[2][14], "mismatch");
    // id,puzzle,solution,clues,difficulty with quoting and a BOM.
    let idcsv = format!(
        "\u{feff}id,puzzle,solution,clues,difficulty\n\"a,1\",{p},{sol},17,9.0\nb2,\"{p}\",,17,1\n"
    );
    let out = stdout(&run_stdin(
        &["solve", "-", "-q", "--check"],
        idcsv.as_bytes(),
    ));
    let rows = csv_rows(&out);
    assert_eq!(rows[1][1], "a,1");
    assert_eq!(rows[1][14], "ok");
    assert_eq!(rows[2][1], "b2");
    assert_eq!(rows[2][3], "solved");
    assert_eq!(rows[2][14], "");
    // Regression: comment lines before a CSV header count in the line numbers.
    let commented = format!("# a comment\n\nid,puzzle\nx,{p}\n");
    let rows = csv_rows(&stdout(&run_stdin(
        &["solve", "-", "-q"],
        commented.as_bytes(),
    )));
    assert_eq!((rows[1][0].as_str(), rows[1][1].as_str()), ("4", "x"));
    // Forced CSV on a headerless file reads the first column.
    let out = stdout(&run_stdin(
        &["solve", "-", "-q", "--input-format", "csv"],
        format!("{p},x\n").as_bytes(),
    ));
    assert_eq!(csv_rows(&out)[1][3], "solved");
    // A CSV record whose puzzle field is bad is an invalid row, and the batch goes on.
    let bad = format!("puzzle\n{}\n{p}\n", &p[..50]);
    let rows = csv_rows(&stdout(&run_stdin(&["solve", "-", "-q"], bad.as_bytes())));
    assert_eq!(
        (rows[1][3].as_str(), rows[2][3].as_str()),
        ("invalid", "solved")
    );
}

#[test]
fn grid_blocks_detected_and_forced() {
    let f = data("grids.txt");
    let out = stdout(&run(&["solve", f.to_str().unwrap(), "-q"]));
    let rows = csv_rows(&out);
    check_rows(&rows);
    let st: Vec<(&str, &str)> = rows[1..]
        .iter()
        .map(|r| (r[0].as_str(), r[3].as_str()))
        .collect();
    assert_eq!(
        st,
        [
            ("2", "solved"),
            ("14", "solved"),
            ("24", "invalid"),
            ("36", "invalid")
        ]
    );
    let forced = stdout(&run(&[
        "solve",
        f.to_str().unwrap(),
        "-q",
        "--input-format",
        "grid",
    ]));
    assert_eq!(forced, out);
    // Forcing line format on grids makes every line an invalid record.
    let lines = stdout(&run(&[
        "solve",
        f.to_str().unwrap(),
        "-q",
        "--input-format",
        "line",
    ]));
    assert!(csv_rows(&lines)[1..].iter().all(|r| r[3] == "invalid"));
}

#[test]
fn limit_counts_up_to_n() {
    let empty = format!("{}\n", ".".repeat(81));
    for (limit, want) in [("1", "1"), ("2", "2"), ("1000", "1000")] {
        let out = stdout(&run_stdin(
            &["solve", "-", "-q", "--limit", limit],
            empty.as_bytes(),
        ));
        assert_eq!(csv_rows(&out)[1][4], want);
    }
    let o = run(&["solve", "-", "--limit", "0"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn output_file_is_written_through_partial_and_summary_json() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.csv");
    let sum = dir.path().join("s.json");
    let o = run(&[
        "solve",
        data("mixed.txt").to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--summary-json",
        sum.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    assert!(o.stdout.is_empty());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("12 records: 3 solved, 2 multiple, 1 unsolvable, 6 invalid"),
        "{err}"
    );
    assert!(!dir.path().join("out.csv.partial").exists());
    let golden = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/mixed.csv"),
    )
    .unwrap();
    assert_eq!(std::fs::read_to_string(&out).unwrap(), golden);
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&sum).unwrap()).unwrap();
    assert_eq!(s["records"], 12);
    assert_eq!(s["solved"], 3);
    assert_eq!(s["multiple"], 2);
    assert_eq!(s["unsolvable"], 1);
    assert_eq!(s["invalid"], 6);
    assert_eq!(s["interrupted"], false);
    assert!(s["threads"].as_u64().unwrap() >= 1);
    assert!(s["puzzles_per_second"].as_f64().unwrap() > 0.0);
}

#[test]
fn quiet_hides_the_summary() {
    let o = run(&["solve", data("17clue_200.txt").to_str().unwrap(), "-q"]);
    assert!(o.status.success());
    assert!(o.stderr.is_empty());
}

#[test]
fn io_faults_exit_2_with_a_clear_message() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nope.txt");
    let o = run(&["solve", missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read"));
    let o = run(&["solve", dir.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("is a directory"));
    let o = run(&[
        "solve",
        data("mixed.txt").to_str().unwrap(),
        "-o",
        dir.path().join("no/such/dir/out.csv").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot write"));
    // Output on the input itself is refused before anything is touched.
    let copy = dir.path().join("in.txt");
    std::fs::copy(data("mixed.txt"), &copy).unwrap();
    let o = run(&[
        "solve",
        copy.to_str().unwrap(),
        "-o",
        copy.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        std::fs::read(&copy).unwrap(),
        std::fs::read(data("mixed.txt")).unwrap()
    );
}

#[test]
fn empty_input_gives_a_header_only() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    let out = stdout(&run(&["solve", empty.to_str().unwrap(), "-q"]));
    assert_eq!(out.lines().count(), 1);
    let out = stdout(&run_stdin(&["solve", "-", "-q", "--no-header"], b""));
    assert!(out.is_empty());
    let out = stdout(&run_stdin(&["solve", "-", "-q"], b"# only a comment\n\n"));
    assert_eq!(out.lines().count(), 1);
}

#[test]
fn closed_pipe_ends_quietly_with_success() {
    let dir = tempfile::tempdir().unwrap();
    let big = big_input(dir.path());
    let mut child = bin()
        .args(["solve", big.to_str().unwrap(), "--no-grade"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 100];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("Broken pipe"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[cfg(unix)]
#[test]
fn interrupt_leaves_a_partial_file_of_complete_rows_and_exits_130() {
    let dir = tempfile::tempdir().unwrap();
    // Hard puzzles, many of them, so the run is still going when the signal comes.
    let input = hard_input(dir.path(), 600);
    let out = dir.path().join("out.csv");
    std::fs::write(&out, "an earlier result\n").unwrap();
    let child = spawn_slow_solve(&input, &out);
    std::thread::sleep(std::time::Duration::from_millis(700));
    signal(&child, "INT");
    let o = child.wait_with_output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("interrupted"));
    // The earlier result is untouched; the partial file holds complete rows only.
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "an earlier result\n"
    );
    let partial = std::fs::read_to_string(dir.path().join("out.csv.partial")).unwrap();
    assert!(partial.ends_with('\n'));
    let rows = csv_rows(&partial);
    assert!(rows.len() < 60_001, "the run was not interrupted");
    check_rows(&rows);
    for (i, r) in rows[1..].iter().enumerate() {
        assert_eq!(r[0], (i + 1).to_string());
        assert_eq!(r.len(), 14);
    }
}

#[test]
fn completions_and_man_page() {
    let o = stdout(&run(&["completions", "bash"]));
    assert!(o.contains("sudoku-batch"));
    let o = stdout(&run(&["man"]));
    assert!(o.contains(".TH"));
    let o = run(&["--version"]);
    assert!(o.status.success());
    let o = run(&["solve", "--help"]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("--limit"));
}

#[test]
fn shards_concatenate_to_the_bytes_of_one_run() {
    let dir = tempfile::tempdir().unwrap();
    // Lines with invalid records, comments and a CRLF line, and grid blocks: both formats.
    let big = big_input(dir.path());
    let grids = data("grids.txt");
    let csv_in = dir.path().join("in.csv");
    let mut csv_text = String::from("id,puzzle,solution\n");
    for (i, l) in std::fs::read_to_string(data("17clue_200.txt"))
        .unwrap()
        .lines()
        .enumerate()
    {
        csv_text.push_str(&format!("\"q{i}\",{l},\n"));
    }
    std::fs::write(&csv_in, csv_text).unwrap();
    for input in [&big, &grids, &csv_in] {
        let f = input.to_str().unwrap();
        let whole = run(&["solve", f, "-q", "--no-grade"]);
        let whole = stdout(&whole);
        for n in [1u32, 2, 3, 8] {
            let mut joined = String::new();
            for k in 0..n {
                let shard = format!("{k}/{n}");
                joined.push_str(&stdout(&run(&[
                    "solve",
                    f,
                    "-q",
                    "--shard",
                    &shard,
                    "-j1",
                    "--no-grade",
                ])));
            }
            assert_eq!(joined, whole, "{f} in {n} shards");
        }
    }
    let o = run_stdin(&["solve", "-", "--shard", "0/2"], b"");
    assert_eq!(o.status.code(), Some(2));
    let o = run(&["solve", big.to_str().unwrap(), "--shard", "2/2"]);
    assert_eq!(o.status.code(), Some(2));
}

/// The SE reference ratings of `data/rated_exchange_60.tsv` travel in the tail.
fn reference(tail: &str) -> Vec<f64> {
    tail.split('\t')
        .map(|v| v.parse().expect("rating"))
        .collect()
}

#[test]
fn grading_columns_agree_with_sudoku_explainer() {
    let out = stdout(&run(&[
        "solve",
        data("rated_exchange_60.tsv").to_str().unwrap(),
        "-q",
    ]));
    let rows = csv_rows(&out);
    check_rows(&rows);
    let mut exact = 0;
    for r in &rows[1..] {
        let want = reference(&r[13]);
        let er = &r[7];
        if let Some(bound) = er.strip_prefix(">=") {
            // A lower bound (a technique not implemented yet): never above SE's rating,
            // and no technique is named as the hardest.
            assert!(bound.parse::<f64>().unwrap() <= want[0] + 1e-9, "{r:?}");
            assert!(r[11].is_empty(), "{r:?}");
        } else {
            let got: Vec<f64> = r[7..10].iter().map(|v| v.parse().unwrap()).collect();
            assert_eq!(got, want, "{r:?}");
            assert!(!r[11].is_empty());
            exact += 1;
        }
    }
    assert!(exact >= 20, "{exact} exact ratings");
}

#[test]
fn grading_gives_the_same_bytes_for_any_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(data("rated_exchange_60.tsv")).unwrap();
    let f = dir.path().join("rated.txt");
    std::fs::write(&f, text.repeat(3)).unwrap();
    let f = f.to_str().unwrap();
    let one = stdout(&run(&["solve", f, "-j1", "-q"]));
    let two = stdout(&run(&["solve", f, "-j2", "-q"]));
    assert_eq!(one, two);
    assert_eq!(one.lines().count(), 181);
}

#[test]
fn no_grade_and_grade_budget() {
    let f = data("rated_exchange_60.tsv");
    let f = f.to_str().unwrap();
    let rows = csv_rows(&stdout(&run(&["solve", f, "-q", "--no-grade"])));
    assert!(
        rows[1..]
            .iter()
            .all(|r| r[7..12].iter().all(String::is_empty))
    );
    // A tiny budget: every rating is a lower bound.
    let rows = csv_rows(&stdout(&run(&["solve", f, "-q", "--grade-budget", "3"])));
    check_rows(&rows);
    assert!(rows[1..].iter().all(|r| r[7].starts_with(">=")), "{rows:?}");
    let bad = run(&["solve", f, "--grade-budget", "lots"]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn summary_shows_levels_and_hardest_techniques() {
    let dir = tempfile::tempdir().unwrap();
    let sum = dir.path().join("s.json");
    let o = run(&[
        "solve",
        data("rated_exchange_60.tsv").to_str().unwrap(),
        "-o",
        dir.path().join("out.csv").to_str().unwrap(),
        "--summary-json",
        sum.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("levels: "), "{err}");
    assert!(err.contains(" easy,"), "{err}");
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&sum).unwrap()).unwrap();
    let g = &s["grades"];
    assert_eq!(g["graded"], 60);
    let levels: u64 = g["levels"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(levels, 60);
    let hardest: u64 = g["hardest_techniques"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(hardest + g["lower_bounds"].as_u64().unwrap(), 60);
    assert!(g["hardest_techniques"]["Hidden single"].as_u64().unwrap() > 0);
}

const POINTING: &str =
    "4.2.........54..67...6.92..3.7....9....1.8....5....8.4..82.3...62..94.........9.5";

#[test]
fn explain_prints_numbered_steps_and_the_ratings() {
    let text = stdout(&run(&["explain", POINTING]));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], format!("Puzzle: {POINTING}"));
    assert!(
        lines[1].starts_with(" 1. [1.2] Hidden single in box "),
        "{text}"
    );
    assert!(lines.iter().any(|l| l.contains("] Pointing: ")), "{text}");
    assert_eq!(
        *lines.last().unwrap(),
        "ER 2.6, EP 1.2, ED 1.2 (hard); hardest step: Pointing"
    );
    // The same from stdin and from a file.
    let piped = run_stdin(&["explain", "-"], format!("{POINTING}\n").as_bytes());
    assert_eq!(stdout(&piped), text);
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("p.txt");
    std::fs::write(&f, format!("# one puzzle\n{POINTING} tail\n")).unwrap();
    assert_eq!(stdout(&run(&["explain", f.to_str().unwrap()])), text);
}

#[test]
fn explain_json_lists_steps_with_placements_and_eliminations() {
    let out = stdout(&run(&["explain", POINTING, "--format", "json"]));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["er"], 2.6);
    assert_eq!(v["ep"], 1.2);
    assert_eq!(v["ed"], 1.2);
    assert_eq!(v["level"], "hard");
    assert_eq!(v["outcome"], "complete");
    let steps = v["steps"].as_array().unwrap();
    assert_eq!(steps[0]["step"], 1);
    let pointing = steps
        .iter()
        .find(|s| s["technique"] == "Pointing")
        .expect("a pointing step");
    assert!(!pointing["eliminations"].as_array().unwrap().is_empty());
    assert!(pointing["eliminations"][0].as_str().unwrap().contains("<>"));
    let placements: usize = steps
        .iter()
        .map(|s| s["placements"].as_array().unwrap().len())
        .sum();
    assert_eq!(placements, POINTING.bytes().filter(|&b| b == b'.').count());
}

#[test]
fn explain_is_the_same_on_any_number_of_threads() {
    // ER 10.1, nested forcing chains (data/rated_hardest_20.tsv): its chain searches are
    // spread over the threads.
    let p = "..............1..2..3.4.56............753.....2......8......3...8...2..1.1..5.7..";
    let one = stdout(&run(&["explain", p, "-j1", "--format", "json"]));
    let two = stdout(&run(&["explain", p, "-j2", "--format", "json"]));
    let three = stdout(&run(&["explain", p, "-j3", "--format", "json"]));
    assert_eq!(one, two);
    assert_eq!(one, three);
    let v: serde_json::Value = serde_json::from_str(&one).unwrap();
    assert_eq!(v["er"], 10.1);
    assert_eq!(v["outcome"], "complete");
    // What is drawn is the same too.
    let text = stdout(&run(&["explain", p, "-j1"]));
    assert_eq!(stdout(&run(&["explain", p, "-j2"])), text);
    assert!(text.contains("| chain: "), "{text}");
}

#[test]
fn explain_rejects_what_it_cannot_explain() {
    for bad in [
        // Two 4s in row 1.
        format!("44{}", &POINTING[2..]),
        // Several solutions.
        format!("{}.", &POINTING[..80]).replace('4', "."),
    ] {
        let o = run(&["explain", &bad]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(!o.stderr.is_empty());
    }
    let o = run(&["explain", "/no/such/file"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("/no/such/file"));
}

#[test]
fn bench_reports_what_solve_does_per_file_and_grades_the_unique_ones() {
    let files = [data("random_minimal_200.txt"), data("serg_100.txt")];
    let o = run(&[
        "bench",
        files[0].to_str().unwrap(),
        files[1].to_str().unwrap(),
        "--rounds",
        "2",
        "--grade",
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["graded"], true);
    assert_eq!(v["rounds"], 2);
    for (f, path) in v["files"].as_array().unwrap().iter().zip(&files) {
        // The same puzzles through `solve`: guesses, solution counts and graded puzzles agree.
        let s = run(&["solve", path.to_str().unwrap()]);
        let rows = csv_rows(&stdout(&s));
        let n = rows.len() - 1;
        let guesses: u64 = rows[1..].iter().map(|r| r[6].parse::<u64>().unwrap()).sum();
        let solutions: u64 = rows[1..].iter().map(|r| r[4].parse::<u64>().unwrap()).sum();
        let unique = rows[1..].iter().filter(|r| r[3] == "solved").count();
        let bounds = rows[1..].iter().filter(|r| r[7].starts_with(">=")).count();
        assert_eq!(f["puzzles"], n as u64);
        assert_eq!(f["rates"].as_array().unwrap().len(), 2);
        assert!(f["median_pps"].as_f64().unwrap() > 0.0);
        let close = |a: &serde_json::Value, b: f64| (a.as_f64().unwrap() - b).abs() < 1e-9;
        assert!(close(&f["guesses_per_puzzle"], guesses as f64 / n as f64));
        assert!(close(
            &f["solutions_per_puzzle"],
            solutions as f64 / n as f64
        ));
        assert_eq!(f["graded"], unique as u64);
        assert_eq!(f["lower_bounds"], bounds as u64);
    }
    // Grading needs the uniqueness check.
    let o = run(&[
        "bench",
        files[0].to_str().unwrap(),
        "--grade",
        "--limit",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--limit 2"));
}

#[test]
fn bench_runs_each_backend_the_cpu_has_and_names_it() {
    use sudoku_batch::core::solver::Backend;
    let file = data("top1465_100.txt");
    let mut guesses = Vec::new();
    for b in Backend::CONCRETE {
        let o = run(&[
            "bench",
            file.to_str().unwrap(),
            "--rounds",
            "1",
            "--backend",
            b.name(),
            "--json",
        ]);
        if !b.is_available() {
            // A backend the CPU lacks is a usage error that lists those it has.
            assert_eq!(o.status.code(), Some(2));
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(err.contains(b.name()) && err.contains("portable"), "{err}");
            continue;
        }
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["backend"], b.name());
        guesses.push(v["files"][0]["guesses_per_puzzle"].as_f64().unwrap());
        let text = run(&[
            "bench",
            file.to_str().unwrap(),
            "--rounds",
            "1",
            "--backend",
            b.name(),
        ]);
        assert!(stdout(&text).contains(&format!("backend {}", b.name())));
    }
    // Every backend makes the same guesses.
    assert!(guesses.windows(2).all(|w| w[0] == w[1]), "{guesses:?}");
    // Auto names the backend it resolved to.
    let o = run(&["bench", file.to_str().unwrap(), "--rounds", "1", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["backend"], Backend::Auto.resolve().name());
}

#[test]
fn solve_summary_json_names_the_backend() {
    use sudoku_batch::core::solver::Backend;
    let dir = tempfile::tempdir().unwrap();
    let sum = dir.path().join("s.json");
    let o = run(&[
        "solve",
        data("17clue_200.txt").to_str().unwrap(),
        "-q",
        "--summary-json",
        sum.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&sum).unwrap()).unwrap();
    assert_eq!(s["backend"], Backend::Auto.resolve().name());
}
