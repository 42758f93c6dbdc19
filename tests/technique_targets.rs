//! `generate --technique`, `--hardest` and `--max-technique`: every row meets the target
//! when its puzzle is solved back, names are accepted in every documented spelling, and
//! impossible or unknown targets are usage errors.

mod common;

use common::{col, csv_rows, run, stdout};
use sudoku_batch::core::logic::Technique;
use sudoku_batch::core::profile::technique_by_name;

/// Generates with `args` (plus `--profile -q`) and returns the rows, header first.
fn generate(args: &[&str]) -> Vec<Vec<String>> {
    let mut all = vec!["generate", "--profile", "-q"];
    all.extend_from_slice(args);
    csv_rows(&stdout(&run(&all)))
}

/// Solves the generated puzzles back with `solve --profile` (variant `variant`) and
/// returns its rows, header first.
fn solve_back(rows: &[Vec<String>], variant: &str) -> Vec<Vec<String>> {
    let h = &rows[0];
    let p = col(h, "puzzle");
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    let lines: Vec<String> = rows[1..]
        .iter()
        .map(|r| match h.iter().position(|c| c == "regions") {
            Some(g) => format!("{}{}", r[p], r[g]),
            None => r[p].clone(),
        })
        .collect();
    std::fs::write(&input, lines.join("\n")).unwrap();
    csv_rows(&stdout(&run(&[
        "solve",
        input.to_str().unwrap(),
        "--variant",
        variant,
        "--profile",
        "-q",
    ])))
}

/// The names in a `techniques` cell.
fn used(cell: &str) -> Vec<String> {
    cell.split(';')
        .filter(|e| !e.is_empty())
        .map(|e| e.rsplit_once(':').unwrap().0.to_string())
        .collect()
}

#[test]
fn hardest_x_wing_rows_are_x_wing_when_solved_back() {
    let rows = generate(&["-n", "30", "--hardest", "x-wing", "--seed", "1"]);
    assert_eq!(rows.len(), 31);
    let back = solve_back(&rows, "classic");
    let (h, hb) = (&rows[0], &back[0]);
    for (r, b) in rows[1..].iter().zip(&back[1..]) {
        assert_eq!(r[col(h, "hardest")], "X-wing");
        assert_eq!(b[col(hb, "status")], "solved");
        assert_eq!(b[col(hb, "hardest")], "X-wing", "{b:?}");
        assert_eq!(b[col(hb, "er")], "3.2");
        // The profile generate wrote is the one solve finds.
        assert_eq!(r[col(h, "techniques")], b[col(hb, "techniques")]);
        assert_eq!(r[col(h, "steps")], b[col(hb, "steps")]);
    }
}

#[test]
fn hardest_with_level_symmetry_and_minimal() {
    let rows = generate(&[
        "-n",
        "4",
        "--hardest",
        "XY-wing",
        "--symmetry",
        "rot180",
        "--minimal",
        "--level",
        "hard",
        "--seed",
        "3",
    ]);
    let back = solve_back(&rows, "classic");
    let (h, hb) = (&rows[0], &back[0]);
    for (r, b) in rows[1..].iter().zip(&back[1..]) {
        assert_eq!(r[col(h, "symmetry")], "rot180");
        assert_eq!(b[col(hb, "hardest")], "XY-wing");
        assert_eq!(b[col(hb, "level")], "hard");
    }
}

#[test]
fn technique_lists_are_all_on_the_path() {
    let rows = generate(&[
        "-n",
        "5",
        "--technique",
        "naked pair,Pointing",
        "--seed",
        "2",
    ]);
    let back = solve_back(&rows, "classic");
    let hb = &back[0];
    for b in &back[1..] {
        let u = used(&b[col(hb, "techniques")]);
        assert!(u.contains(&"Naked pair".to_string()), "{u:?}");
        assert!(u.contains(&"Pointing".to_string()), "{u:?}");
    }
}

#[test]
fn max_technique_allows_nothing_harder() {
    let rows = generate(&["-n", "20", "--max-technique", "pointing", "--seed", "4"]);
    let back = solve_back(&rows, "classic");
    let hb = &back[0];
    let allowed = Technique::Pointing.base_rating();
    for b in &back[1..] {
        for name in used(&b[col(hb, "techniques")]) {
            let t = technique_by_name(&name).unwrap();
            assert!(t.max_base().unwrap() <= allowed, "{name} in {b:?}");
        }
    }
}

#[test]
fn technique_targets_on_other_shapes() {
    for variant in ["x", "windoku", "jigsaw"] {
        let rows = generate(&[
            "-n",
            "2",
            "--variant",
            variant,
            "--technique",
            "hidden pair",
            "--seed",
            "5",
        ]);
        assert_eq!(rows.len(), 3, "{variant}");
        let back = solve_back(&rows, variant);
        let hb = &back[0];
        for b in &back[1..] {
            assert!(
                used(&b[col(hb, "techniques")]).contains(&"Hidden pair".to_string()),
                "{variant}: {b:?}"
            );
        }
    }
}

#[test]
fn same_bytes_for_any_thread_count() {
    let args = |t: &'static str| {
        vec![
            "generate",
            "-n",
            "12",
            "--hardest",
            "ur1",
            "--seed",
            "9",
            "-q",
            "--threads",
            t,
        ]
    };
    let one = stdout(&run(&args("1")));
    let two = stdout(&run(&args("2")));
    assert_eq!(one, two);
    assert!(one.contains("Unique rectangle type 1"));
}

#[test]
fn unknown_and_impossible_targets_are_usage_errors() {
    let o = run(&["generate", "--hardest", "frobnicate"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("unknown technique 'frobnicate'"), "{err}");
    assert!(err.contains("X-wing") && err.contains("ur1"), "{err}");

    let o = run(&["generate", "--hardest", "x-wing", "--level", "fiendish"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("no puzzle can meet these targets"), "{err}");

    let o = run(&[
        "generate",
        "--technique",
        "swordfish",
        "--max-technique",
        "x-wing",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("harder than --max-technique"));

    let o = run(&["generate", "--hardest", "x-wing,xy-wing"]);
    assert_eq!(o.status.code(), Some(2));

    let o = run(&["generate", "--hardest", "x-wing", "--no-grade"]);
    assert_eq!(o.status.code(), Some(2));
}
