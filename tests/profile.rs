//! Technique profiles (`solve --profile`): the profile of every puzzle of the reference
//! rated sets agrees with the steps `explain` takes, its counts add up to `steps`, and the
//! columns and summary come out as documented in every format.

mod common;

use std::collections::BTreeMap;

use common::{col, csv_rows, data, run, stdout};
use sudoku_batch::core::grader::{DEFAULT_BUDGET, Grader, Rating};
use sudoku_batch::core::logic::Technique;
use sudoku_batch::core::{Grid, Solver};

/// The puzzles of a rated set (first column).
fn puzzles(name: &str) -> Vec<Grid> {
    std::fs::read_to_string(data(name))
        .unwrap()
        .lines()
        .map(|l| l.split('\t').next().unwrap().parse().unwrap())
        .collect()
}

/// For each puzzle: the profile of `rate` against the steps of `explain`, same budget.
fn check_agreement(puzzles: &[Grid], budget: u64) -> usize {
    let mut grader = Grader::new();
    let mut solver = Solver::new();
    let mut steps = Vec::new();
    let mut incomplete = 0;
    for p in puzzles {
        let solution = solver.solve(p, 2).solution;
        let mut r = Rating::default();
        grader.rate(p, Some(&solution), budget, &mut r);
        let e = grader.explain(p, Some(&solution), budget, &mut steps);
        assert_eq!(r, e, "rate and explain disagree on {p}");
        assert_eq!(r.profile.steps(), r.steps, "{p}");
        assert_eq!(steps.len(), r.steps as usize, "{p}");
        for &t in Technique::ALL {
            let n = steps.iter().filter(|s| s.technique == t).count();
            assert_eq!(r.profile.count(t) as usize, n, "{t:?} in {p}");
        }
        if !r.complete {
            incomplete += 1;
        }
    }
    incomplete
}

/// Splits a chunk of puzzles over two threads.
fn check_in_parallel(puzzles: Vec<Grid>, budget: u64) -> usize {
    let half = puzzles.len() / 2;
    let (a, b) = puzzles.split_at(half);
    std::thread::scope(|s| {
        let h = s.spawn(|| check_agreement(a, budget));
        check_agreement(b, budget) + h.join().unwrap()
    })
}

#[test]
fn profiles_agree_with_explain_on_every_reference_puzzle() {
    // The newspaper-style set at the default budget: every one is rated to the end.
    let exchange = puzzles("rated/se121_exchange_503.tsv");
    assert_eq!(exchange.len(), 503);
    assert_eq!(check_in_parallel(exchange, DEFAULT_BUDGET), 0);
    // The hardest 170 with a hundredth of it (the test stays short): whether the path
    // ends or stops at the budget, the profile counts the steps explain shows.
    let mut hardest = puzzles("rated/se121_18clue_hardest_117.tsv");
    hardest.extend(puzzles("rated/se121_eleven_53.tsv"));
    assert_eq!(hardest.len(), 170);
    check_in_parallel(hardest, 1_000_000);
}

/// Explain's steps of `puzzle` through the binary, added up per technique name in SE's
/// order, in the CSV form of the `techniques` column.
fn explained_profile(puzzle: &str) -> (String, usize) {
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&run(&["explain", "--format", "json", puzzle]))).unwrap();
    let mut counts: BTreeMap<usize, (&str, usize)> = BTreeMap::new();
    let steps = json["steps"].as_array().unwrap();
    for s in steps {
        let name = s["technique"].as_str().unwrap();
        let first = Technique::ALL
            .iter()
            .position(|t| t.name() == name)
            .unwrap_or_else(|| panic!("unknown technique name {name}"));
        counts
            .entry(first)
            .or_insert((Technique::ALL[first].name(), 0))
            .1 += 1;
    }
    let text: Vec<String> = counts.values().map(|(n, c)| format!("{n}:{c}")).collect();
    (text.join(";"), steps.len())
}

#[test]
fn solve_profile_columns_match_what_explain_prints() {
    // Every 25th puzzle of the newspaper set (ER 1.2 to 9.3) and a few of the hardest.
    let text = std::fs::read_to_string(data("rated/se121_exchange_503.tsv")).unwrap();
    let mut sample: Vec<&str> = text
        .lines()
        .step_by(25)
        .map(|l| l.split('\t').next().unwrap())
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    sample
        .push("4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........");
    std::fs::write(&input, sample.join("\n")).unwrap();
    let out = stdout(&run(&["solve", input.to_str().unwrap(), "--profile", "-q"]));
    let rows = csv_rows(&out);
    let h = &rows[0];
    // The two columns come right after `hardest`.
    let hardest = col(h, "hardest");
    assert_eq!(h[hardest + 1], "steps");
    assert_eq!(h[hardest + 2], "techniques");
    assert_eq!(h[hardest + 3], "error");
    let (steps, techniques) = (col(h, "steps"), col(h, "techniques"));
    assert_eq!(rows.len(), sample.len() + 1);
    for (row, puzzle) in rows[1..].iter().zip(&sample) {
        let (expected, n) = explained_profile(puzzle);
        assert_eq!(row[techniques], expected, "{puzzle}");
        assert_eq!(row[steps], n.to_string(), "{puzzle}");
        // The counts add up to `steps`.
        let sum: usize = row[techniques]
            .split(';')
            .map(|e| e.rsplit_once(':').unwrap().1.parse::<usize>().unwrap())
            .sum();
        assert_eq!(sum, n);
        // The hardest technique is one of those used.
        assert!(
            row[techniques].contains(&format!("{}:", row[hardest])),
            "{row:?}"
        );
    }
}

#[test]
fn profile_in_json_lines_and_summary() {
    let dir = tempfile::tempdir().unwrap();
    let summary = dir.path().join("summary.json");
    let input = data("top1465_100.txt");
    let out = stdout(&run(&[
        "solve",
        input.to_str().unwrap(),
        "--profile",
        "--format",
        "jsonl",
        "-q",
        "--summary-json",
        summary.to_str().unwrap(),
    ]));
    let mut totals: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    let mut all_steps = 0;
    for line in out.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let steps = v["steps"].as_u64().unwrap();
        let t = v["techniques"].as_object().unwrap();
        let sum: u64 = t.values().map(|n| n.as_u64().unwrap()).sum();
        assert_eq!(sum, steps, "{line}");
        all_steps += steps;
        for (name, n) in t {
            let e = totals.entry(name.clone()).or_default();
            e.0 += 1;
            e.1 += n.as_u64().unwrap();
        }
    }
    assert!(all_steps > 5000);
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    let per = s["grades"]["techniques"].as_object().unwrap();
    assert_eq!(per.len(), totals.len());
    for (name, (puzzles, steps)) in &totals {
        assert_eq!(per[name]["puzzles"].as_u64(), Some(*puzzles), "{name}");
        assert_eq!(per[name]["steps"].as_u64(), Some(*steps), "{name}");
    }
    // The technique that set ER is still counted as before.
    let hardest: u64 = s["grades"]["hardest_techniques"]
        .as_object()
        .unwrap()
        .values()
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(hardest, 100);
    // The text summary has the table.
    let o = run(&["solve", input.to_str().unwrap(), "--profile", "-o", "-"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("technique") && err.contains("set ER"), "{err}");
    assert!(err.contains("Hidden single"), "{err}");
}

#[test]
fn profile_with_the_other_columns_and_shapes() {
    // Jigsaw adds regions after puzzle; --check adds check at the end.
    let jigsaw = data("variants/jigsaw.txt");
    let out = stdout(&run(&[
        "solve",
        jigsaw.to_str().unwrap(),
        "--variant",
        "jigsaw",
        "--profile",
        "-q",
    ]));
    let rows = csv_rows(&out);
    let h = &rows[0];
    assert_eq!(h[3], "regions");
    assert_eq!(h[col(h, "hardest") + 1], "steps");
    for r in &rows[1..] {
        if r[col(h, "status")] == "solved" {
            assert!(!r[col(h, "techniques")].is_empty(), "{r:?}");
        }
    }
    // Samurai.
    let samurai = data("samurai/logic.txt");
    {
        let out = stdout(&run(&[
            "solve",
            samurai.to_str().unwrap(),
            "--variant",
            "samurai",
            "--profile",
            "-q",
        ]));
        let rows = csv_rows(&out);
        let h = &rows[0];
        for r in &rows[1..] {
            let steps: u64 = r[col(h, "steps")].parse().unwrap();
            let sum: u64 = r[col(h, "techniques")]
                .split(';')
                .map(|e| e.rsplit_once(':').unwrap().1.parse::<u64>().unwrap())
                .sum();
            assert_eq!(steps, sum);
        }
    }
    // Unsolvable and invalid rows leave both columns empty.
    let out = stdout(&run(&[
        "solve",
        data("mixed.txt").to_str().unwrap(),
        "--profile",
        "-q",
    ]));
    let rows = csv_rows(&out);
    let h = &rows[0];
    for r in &rows[1..] {
        if r[col(h, "status")] != "solved" {
            assert_eq!(r[col(h, "steps")], "");
            assert_eq!(r[col(h, "techniques")], "");
        }
    }
    // A profile needs grading.
    let o = run(&[
        "solve",
        data("mixed.txt").to_str().unwrap(),
        "--profile",
        "--no-grade",
    ]);
    assert_eq!(o.status.code(), Some(2));
}
