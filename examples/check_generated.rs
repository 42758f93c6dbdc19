//! Checks a `sudoku-batch generate` CSV output (used by `scripts/check-generated.sh`): for
//! every row, with the exact solver and nothing of the generator's code,
//!
//! - the puzzle has exactly one solution, equal to the `solution` column;
//! - the `clues` column is the number of clues;
//! - the clue pattern has the symmetry named in the `symmetry` column (maps written out
//!   again here, independently of the library's tables);
//! - with `--minimal`, removing any one clue lets a second solution in.
//!
//!     cargo run --release --example check_generated -- FILE.csv [--minimal]
//!
//! Prints the counts and exits with 1 at the first failure, naming the row.
use std::process::ExitCode;

use rayon::prelude::*;
use sudoku_batch::core::{Cell, Grid, Solver};

fn image(sym: &str, r: usize, c: usize) -> Option<(usize, usize)> {
    Some(match sym {
        "none" => (r, c),
        "rot180" => (8 - r, 8 - c),
        "rot90" => (c, 8 - r),
        "mirror" => (r, 8 - c),
        "flip" => (8 - r, c),
        "diagonal" => (c, r),
        "antidiagonal" => (8 - c, 8 - r),
        _ => return None,
    })
}

fn check(row: &[String], minimal: bool, solver: &mut Solver) -> Result<(), String> {
    let p: Grid = row[1].parse().map_err(|e| format!("puzzle: {e}"))?;
    let s: Grid = row[2].parse().map_err(|e| format!("solution: {e}"))?;
    let o = solver.solve(&p, 2);
    if o.count != 1 {
        return Err(format!("{} solutions", o.count));
    }
    if o.solution != s || !s.is_solution_of(&p) {
        return Err("the solution column is not the solution".into());
    }
    if row[3] != p.clue_count().to_string() {
        return Err(format!(
            "clues column {} but {} clues",
            row[3],
            p.clue_count()
        ));
    }
    let v = p.values();
    for r in 0..9 {
        for c in 0..9 {
            let (r2, c2) = image(&row[9], r, c).ok_or(format!("symmetry '{}'", row[9]))?;
            if (v[r * 9 + c] == 0) != (v[r2 * 9 + c2] == 0) {
                return Err(format!(
                    "not {}: r{}c{} vs r{}c{}",
                    row[9],
                    r + 1,
                    c + 1,
                    r2 + 1,
                    c2 + 1
                ));
            }
        }
    }
    if minimal {
        for c in Cell::all().filter(|&c| p.value(c) != 0) {
            let mut q = p;
            q.set(c, None);
            if solver.solve(&q, 2).count != 2 {
                return Err(format!("not minimal: {c} can go"));
            }
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.iter().find(|a| !a.starts_with("--")) else {
        eprintln!("usage: check_generated FILE.csv [--minimal]");
        return ExitCode::from(2);
    };
    let minimal = args.iter().any(|a| a == "--minimal");
    let mut reader = match csv::Reader::from_path(path) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::from(2);
        }
    };
    let rows: Vec<Vec<String>> = match reader
        .records()
        .map(|r| r.map(|r| r.iter().map(str::to_string).collect()))
        .collect()
    {
        Ok(rows) => rows,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::from(2);
        }
    };
    let failure = rows
        .par_iter()
        .map_init(Solver::new, |solver, row| {
            check(row, minimal, solver)
                .err()
                .map(|e| format!("index {}: {e}", row[0]))
        })
        .find_first(Option::is_some)
        .flatten();
    if let Some(f) = failure {
        eprintln!("{path}: FAILED at {f}");
        return ExitCode::from(1);
    }
    let mut per_sym = std::collections::BTreeMap::new();
    for r in &rows {
        *per_sym.entry(r[9].clone()).or_insert(0u64) += 1;
    }
    println!(
        "{path}: {} puzzles checked: unique, solution column right, symmetric{} {per_sym:?}",
        rows.len(),
        if minimal { ", minimal" } else { "" }
    );
    ExitCode::SUCCESS
}
