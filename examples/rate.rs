//! Rates puzzle files with the grader and compares with reference Sudoku Explainer ratings.
//!
//! ```text
//! cargo run --release --example rate -- [--budget N] [--mismatches] [--steps] FILE...
//! ```
//!
//! Each FILE holds one puzzle per line, optionally followed by tab-separated reference
//! `ER EP ED` (the `rated/*.tsv` format). For files with references it prints, per file,
//! the share of puzzles whose ER, EP, ED match exactly, within 0.1 and within 0.5, and a
//! confusion table of levels (reference by row, ours by column); with `--mismatches`, every
//! puzzle whose ER differs. Without references it prints each puzzle with its ratings.
//! Always prints the time spent grading and puzzles per second (one thread).

use std::time::Instant;

use sudoku_batch::core::grader::{DEFAULT_BUDGET, Grader, Rating, Shown, level_name};
use sudoku_batch::core::logic::Step;
use sudoku_batch::core::{Grid, SolveOutcome, Solver};

const LEVELS: [&str; 6] = [
    "easy",
    "medium",
    "hard",
    "fiendish",
    "diabolical",
    "extreme",
];

fn parse_tenths(s: &str) -> Option<u8> {
    let v: f64 = s.trim().parse().ok()?;
    Some((v * 10.0).round() as u8)
}

struct Stats {
    n: usize,
    exact: [usize; 3],
    within1: [usize; 3],
    within5: [usize; 3],
    confusion: [[usize; 6]; 6],
    incomplete: usize,
}

fn level_index(t: u8) -> usize {
    LEVELS.iter().position(|&l| l == level_name(t)).unwrap_or(5)
}

fn pct(a: usize, n: usize) -> f64 {
    if n == 0 {
        0.0
    } else {
        100.0 * a as f64 / n as f64
    }
}

/// ER bands reported (tenths, inclusive), as `scripts/bench-grade.sh` and issue reports
/// use them.
const BANDS: [(u8, u8, &str); 8] = [
    (0, 20, "<=2.0"),
    (21, 45, "2.1-4.5"),
    (46, 65, "4.6-6.5"),
    (66, 90, "6.6-9.0"),
    (91, 100, "9.1-10.0"),
    (101, 110, "10.1-11.0"),
    (111, 115, "11.1-11.5"),
    (116, 255, ">=11.6"),
];

fn band_index(er: u8) -> usize {
    BANDS
        .iter()
        .position(|&(lo, hi, _)| (lo..=hi).contains(&er))
        .unwrap_or(0)
}

/// Puzzles, exact ratings, lower bounds, time and slowest puzzle of one ER band.
#[derive(Clone, Default)]
struct Band {
    n: usize,
    exact: usize,
    lower: usize,
    time: std::time::Duration,
    slowest: (std::time::Duration, String),
}

fn main() {
    let mut budget = DEFAULT_BUDGET;
    let mut mismatches = false;
    let mut show_steps = false;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--budget" => {
                budget = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(DEFAULT_BUDGET)
            }
            "--mismatches" => mismatches = true,
            "--steps" => show_steps = true,
            _ => files.push(a),
        }
    }
    let mut grader = Grader::new();
    let mut solver = Solver::new();
    let mut sol = SolveOutcome::default();
    let mut rating = Rating::default();
    let mut steps: Vec<Step> = Vec::new();
    for file in files {
        let text = match std::fs::read_to_string(&file) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{file}: {e}");
                std::process::exit(2);
            }
        };
        let mut stats = Stats {
            n: 0,
            exact: [0; 3],
            within1: [0; 3],
            within5: [0; 3],
            confusion: [[0; 6]; 6],
            incomplete: 0,
        };
        let mut with_ref = false;
        let mut grading = std::time::Duration::ZERO;
        let mut slowest = (std::time::Duration::ZERO, String::new());
        let mut work = 0u64;
        let mut per_level = [(0usize, std::time::Duration::ZERO); 6];
        let mut bands: Vec<Band> = vec![Band::default(); BANDS.len()];
        for line in text.lines() {
            let line = line.trim_end();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut fields = line.split(['\t', ' ', ',']).filter(|f| !f.is_empty());
            let Some(p) = fields.next() else { continue };
            let Ok(puzzle) = p.parse::<Grid>() else {
                eprintln!("{file}: bad puzzle {p}");
                continue;
            };
            let refs: Vec<u8> = fields.filter_map(parse_tenths).collect();
            solver.solve_into(&puzzle, 2, &mut sol);
            if sol.count != 1 {
                eprintln!("{file}: {p} has {} solutions", sol.count);
                continue;
            }
            let t0 = Instant::now();
            if show_steps {
                rating = grader.explain(&puzzle, Some(&sol.solution), budget, &mut steps);
            } else {
                grader.rate(&puzzle, Some(&sol.solution), budget, &mut rating);
            }
            let dt = t0.elapsed();
            grading += dt;
            if dt > slowest.0 {
                slowest = (dt, p.to_string());
            }
            stats.n += 1;
            work += rating.work;
            let li = level_index(rating.er);
            per_level[li].0 += 1;
            per_level[li].1 += dt;
            if !rating.complete {
                stats.incomplete += 1;
            }
            let ours = [rating.er, rating.ep, rating.ed];
            // Bands by the reference ER when there is one, else by ours.
            let band_er = refs.first().copied().unwrap_or(rating.er);
            let b = &mut bands[band_index(band_er)];
            b.n += 1;
            b.time += dt;
            b.lower += usize::from(!rating.complete);
            b.exact += usize::from(refs.len() >= 3 && ours[..] == refs[..3]);
            if dt >= b.slowest.0 {
                b.slowest = (dt, p.to_string());
            }
            if refs.len() >= 3 {
                with_ref = true;
                for k in 0..3 {
                    let d = (i32::from(ours[k]) - i32::from(refs[k])).abs();
                    if d == 0 {
                        stats.exact[k] += 1;
                    }
                    if d <= 1 {
                        stats.within1[k] += 1;
                    }
                    if d <= 5 {
                        stats.within5[k] += 1;
                    }
                }
                stats.confusion[level_index(refs[0])][level_index(rating.er)] += 1;
                if mismatches && (ours[0] != refs[0] || ours[1] != refs[1] || ours[2] != refs[2]) {
                    println!(
                        "{p}\tref {}/{}/{}\tours {}/{}/{}\t{}\t{:?}",
                        Shown::new(refs[0], false),
                        Shown::new(refs[1], false),
                        Shown::new(refs[2], false),
                        Shown::new(rating.er, !rating.complete),
                        Shown::new(rating.ep, !rating.complete),
                        Shown::new(rating.ed, !rating.complete),
                        rating.hardest.name(),
                        rating.outcome
                    );
                }
            } else {
                println!(
                    "{p}\t{}\t{}\t{}\t{}\t{}",
                    Shown::new(rating.er, !rating.complete),
                    Shown::new(rating.ep, !rating.complete),
                    Shown::new(rating.ed, !rating.complete),
                    rating.level(),
                    rating.hardest.name()
                );
            }
            if show_steps {
                for (i, s) in steps.iter().enumerate() {
                    println!(
                        "  {:3}. [{}] {}",
                        i + 1,
                        Shown::new(s.difficulty, false),
                        s.display(sudoku_batch::core::geometry::classic())
                    );
                }
            }
        }
        println!("== {file}: {} puzzles", stats.n);
        if with_ref {
            for (k, name) in ["ER", "EP", "ED"].iter().enumerate() {
                println!(
                    "  {name}: exact {:6.2}%  within 0.1 {:6.2}%  within 0.5 {:6.2}%",
                    pct(stats.exact[k], stats.n),
                    pct(stats.within1[k], stats.n),
                    pct(stats.within5[k], stats.n)
                );
            }
            println!("  levels (rows: reference, columns: ours)");
            print!("  {:>11}", "");
            for l in LEVELS {
                print!(" {l:>10}");
            }
            println!();
            for (i, row) in stats.confusion.iter().enumerate() {
                print!("  {:>11}", LEVELS[i]);
                for v in row {
                    print!(" {v:>10}");
                }
                println!();
            }
        }
        let secs = grading.as_secs_f64();
        println!(
            "  incomplete (budget or stuck): {}; work {} units; grading time {:.3} s, {:.0} puzzles/s; slowest {:.3} s ({})",
            stats.incomplete,
            work,
            secs,
            if secs > 0.0 {
                stats.n as f64 / secs
            } else {
                0.0
            },
            slowest.0.as_secs_f64(),
            slowest.1
        );
        println!("  by ER band (reference ER when given):");
        println!(
            "  {:>9} {:>8} {:>9} {:>7} {:>10} {:>10}  slowest puzzle",
            "ER", "puzzles", "exact", "lower", "puzzles/s", "slowest s"
        );
        for (name, b) in BANDS.iter().map(|b| b.2).zip(&bands) {
            if b.n == 0 {
                continue;
            }
            println!(
                "  {name:>9} {:>8} {:>8.1}% {:>7} {:>10.1} {:>10.3}  {}",
                b.n,
                if with_ref { pct(b.exact, b.n) } else { 0.0 },
                b.lower,
                b.n as f64 / b.time.as_secs_f64().max(1e-9),
                b.slowest.0.as_secs_f64(),
                b.slowest.1
            );
        }
        print!("  puzzles/s by our level:");
        for (l, (n, t)) in LEVELS.iter().zip(per_level) {
            if n > 0 {
                print!(" {l} {:.0} ({n})", n as f64 / t.as_secs_f64().max(1e-9));
            }
        }
        println!();
    }
}
