//! Rates puzzle files with the grader and compares with reference Sudoku Explainer ratings.
//!
//! ```text
//! cargo run --release --example rate -- [--budget N] [--mismatches] [--steps]
//!     [--band-by reference|ours] [--bands X,Y,...] [--cpu-time] [--summary] FILE...
//! ```
//!
//! Each FILE holds one puzzle per line, optionally followed by tab-separated reference
//! `ER EP ED` (the `rated/*.tsv` format). For files with references it prints, per file,
//! the share of puzzles whose ER, EP, ED match exactly, within 0.1 and within 0.5, and a
//! confusion table of levels (reference by row, ours by column); with `--mismatches`, every
//! puzzle whose ER differs. Without references it prints each puzzle with its ratings.
//! Always prints the time spent grading and puzzles per second (one thread), and a table per
//! ER band: puzzles, exact share, lower bounds, puzzles/s and the slowest puzzle.
//!
//! `--band-by ours` bands by our ER even when the file has references (default: the
//! reference ER when given, else ours). `--bands 2.0,4.5,6.5,9.0` replaces the default bands
//! by these upper bounds (here <=2.0, 2.1-4.5, 4.6-6.5, 6.6-9.0, >9.0). `--cpu-time` times
//! grading on the thread's CPU clock instead of the wall clock. `--summary` leaves out the
//! per-puzzle lines of files without references (`scripts/bench-grade.sh` uses all four).

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

fn band_index(bands: &[(u8, u8, String)], er: u8) -> usize {
    bands
        .iter()
        .position(|&(lo, hi, _)| (lo..=hi).contains(&er))
        .unwrap_or(0)
}

/// Bands from ascending upper bounds in ER (`2.0,4.5`: <=2.0, 2.1-4.5, >4.5).
fn parse_bands(list: &str) -> Option<Vec<(u8, u8, String)>> {
    let mut bounds = Vec::new();
    for v in list.split(',') {
        let t = parse_tenths(v)?;
        if bounds.last().is_some_and(|&b| t <= b) || t >= 250 {
            return None;
        }
        bounds.push(t);
    }
    let shown = |t: u8| Shown::new(t, false).to_string();
    let mut bands = Vec::new();
    let mut lo = 0u8;
    for &hi in &bounds {
        let name = if lo == 0 {
            format!("<={}", shown(hi))
        } else {
            format!("{}-{}", shown(lo), shown(hi))
        };
        bands.push((lo, hi, name));
        lo = hi + 1;
    }
    bands.push((lo, 255, format!(">{}", shown(lo - 1))));
    Some(bands)
}

/// Time on the calling thread's CPU clock.
fn thread_cpu_time() -> std::time::Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec for the call.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    std::time::Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
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
    let mut band_by_ours = false;
    let mut bands_def: Vec<(u8, u8, String)> = BANDS
        .iter()
        .map(|&(lo, hi, n)| (lo, hi, n.to_string()))
        .collect();
    let mut cpu_time = false;
    let mut summary = false;
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
            "--band-by" => match args.next().as_deref() {
                Some("ours") => band_by_ours = true,
                Some("reference") => band_by_ours = false,
                v => {
                    eprintln!("--band-by: expected `reference` or `ours`, got {v:?}");
                    std::process::exit(2);
                }
            },
            "--bands" => match args.next().as_deref().and_then(parse_bands) {
                Some(b) => bands_def = b,
                None => {
                    eprintln!("--bands: expected ascending ER upper bounds, e.g. 2.0,4.5,6.5,9.0");
                    std::process::exit(2);
                }
            },
            "--cpu-time" => cpu_time = true,
            "--summary" => summary = true,
            _ => files.push(a),
        }
    }
    let mut grader = Grader::new();
    // As `solve` rates without a profile (`--steps` explains, so it follows every step).
    grader.set_shortcut(true);
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
        let mut bands: Vec<Band> = vec![Band::default(); bands_def.len()];
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
            let (t0, c0) = if cpu_time {
                (None, thread_cpu_time())
            } else {
                (Some(Instant::now()), std::time::Duration::ZERO)
            };
            if show_steps {
                rating = grader.explain(&puzzle, Some(&sol.solution), budget, &mut steps);
            } else {
                grader.rate(&puzzle, Some(&sol.solution), budget, &mut rating);
            }
            let dt = match t0 {
                Some(t0) => t0.elapsed(),
                None => thread_cpu_time().saturating_sub(c0),
            };
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
            // Bands by the reference ER when there is one (unless `--band-by ours`), else by
            // ours.
            let band_er = match refs.first() {
                Some(&r) if !band_by_ours => r,
                _ => rating.er,
            };
            let b = &mut bands[band_index(&bands_def, band_er)];
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
            } else if !summary {
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
        println!(
            "  by ER band ({}):",
            if band_by_ours {
                "our ER"
            } else {
                "reference ER when given"
            }
        );
        println!(
            "  {:>9} {:>8} {:>9} {:>7} {:>10} {:>10}  slowest puzzle",
            "ER", "puzzles", "exact", "lower", "puzzles/s", "slowest s"
        );
        for (name, b) in bands_def.iter().map(|b| &b.2).zip(&bands) {
            if b.n == 0 {
                continue;
            }
            // Without references the exact share means nothing: `-` when banding by ours,
            // 0.0% as before otherwise.
            let exact = if with_ref || !band_by_ours {
                format!("{:.1}%", if with_ref { pct(b.exact, b.n) } else { 0.0 })
            } else {
                "-".to_string()
            };
            println!(
                "  {name:>9} {:>8} {exact:>9} {:>7} {:>10.1} {:>10.3}  {}",
                b.n,
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
