//! The grader's ratings do not move when its searches get faster: `solve` on fixed samples
//! of every shape gives, byte for byte, the `er`, `ep`, `ed`, `level` and `hardest`
//! columns that the build before the speed work of issue 24 gave (commit 0d097c4). The
//! samples: the first 2,000 lines of the shared `random_minimal_100k.txt`, X, Windoku and
//! Jigsaw puzzles from `generate --seed 3` (rows whose rating was a budget lower bound left
//! out, since a cheaper search may finish where the old one ran out), and Samurai puzzles
//! from `generate --variant samurai --seed 11`.

mod common;
use common::{csv_rows, run, stdout};

use std::path::{Path, PathBuf};

fn golden(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/ratings")
        .join(name)
}

/// The named columns of CSV rows, header first.
fn columns(rows: &[Vec<String>], names: &[&str]) -> Vec<Vec<String>> {
    let idx: Vec<usize> = names
        .iter()
        .map(|n| rows[0].iter().position(|h| h == n).expect(n))
        .collect();
    rows[1..]
        .iter()
        .map(|r| idx.iter().map(|&k| r[k].clone()).collect())
        .collect()
}

fn check(variant: &str) {
    let input = golden(&format!("{variant}.txt"));
    let expected_text = std::fs::read_to_string(golden(&format!("{variant}.expected.csv")))
        .expect("expected ratings");
    let expected = csv_rows(&expected_text);
    let names: Vec<&str> = expected[0].iter().map(String::as_str).collect();
    let out = stdout(&run(&[
        "solve",
        "--variant",
        variant,
        input.to_str().expect("utf-8 path"),
        "-j",
        "2",
    ]));
    let got = columns(&csv_rows(&out), &names);
    let want = &expected[1..];
    assert_eq!(got.len(), want.len(), "{variant}: row count");
    assert!(want.len() >= 20, "{variant}: sample too small");
    let mut wrong = Vec::new();
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        if g != w {
            wrong.push(format!("row {}: got {g:?}, want {w:?}", i + 1));
        }
    }
    assert!(
        wrong.is_empty(),
        "{variant}: {} of {} ratings changed:\n{}",
        wrong.len(),
        want.len(),
        wrong.join("\n")
    );
}

#[test]
fn classic_ratings_are_those_of_the_build_before() {
    check("classic");
}

#[test]
fn x_ratings_are_those_of_the_build_before() {
    check("x");
}

#[test]
fn windoku_ratings_are_those_of_the_build_before() {
    check("windoku");
}

#[test]
fn jigsaw_ratings_are_those_of_the_build_before() {
    check("jigsaw");
}

#[test]
fn samurai_ratings_are_those_of_the_build_before() {
    check("samurai");
}
