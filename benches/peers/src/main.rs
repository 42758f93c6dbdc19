//! Times sudoku-batch's solver against the `sudoku` crate 0.8 (a Rust port of JCZSolve) on
//! the same puzzle files, single thread, in two modes:
//!
//! - `unique`: count up to 2 solutions (ours: limit 2; the crate: `Sudoku::solution()`,
//!   which also proves uniqueness);
//! - `first`: stop at the first solution (ours: limit 1; the crate: `some_solution()`).
//!
//! All solvers get the same pre-parsed puzzles. The file is cut into chunks; each round
//! times every chunk with the crate and each of our backends back to back (rotating which
//! goes first), so load from other processes hits all alike. Times are the thread's CPU
//! time. The table gives, per backend, the median over rounds of each rate and of the
//! per-round ratio ours / crate, and our guesses per puzzle (deterministic). It also checks
//! that the solvers agree on every puzzle.
//!
//! Usage: `sudoku-batch-peers [--rounds N] [--max N] [--backend B[,B...]|all]
//! [--mode unique|first|both] [--tsv] FILE...`; `all` is every backend this CPU has.
//! `--tsv` prints one line per file, mode and program instead of the table:
//! `file puzzles mode program rate guesses` (tab-separated; the crate's guesses are `-`).

use std::process::ExitCode;
use std::time::Duration;

use sudoku::Sudoku;
use sudoku_batch::core::solver::Backend;
use sudoku_batch::core::{Grid, SolveOutcome, Solver};

/// CPU time used by this thread so far.
fn thread_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant the kernel knows.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return Duration::ZERO;
    }
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Unique,
    First,
}

struct Args {
    rounds: usize,
    max: usize,
    backends: Vec<Backend>,
    modes: Vec<Mode>,
    tsv: bool,
    files: Vec<String>,
}

fn parse_backend(s: &str) -> Option<Backend> {
    [Backend::Auto]
        .into_iter()
        .chain(Backend::CONCRETE)
        .find(|b| b.name() == s)
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        rounds: 5,
        max: usize::MAX,
        backends: vec![Backend::Auto],
        modes: vec![Mode::Unique, Mode::First],
        tsv: false,
        files: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(s) = it.next() {
        match s.as_str() {
            "--rounds" => {
                a.rounds = it
                    .next()
                    .and_then(|v| v.parse().ok())
                    .filter(|&n| n > 0)
                    .ok_or("--rounds needs a positive number")?;
            }
            "--max" => {
                a.max = it
                    .next()
                    .and_then(|v| v.parse().ok())
                    .filter(|&n| n > 0)
                    .ok_or("--max needs a positive number")?;
            }
            "--backend" | "--backends" => {
                let v = it.next().ok_or("--backend needs a value")?;
                a.backends = if v == "all" {
                    Backend::CONCRETE
                        .into_iter()
                        .filter(|b| b.is_available())
                        .collect()
                } else {
                    v.split(',')
                        .map(|x| {
                            parse_backend(x)
                                .ok_or("--backend is auto, portable, avx2, avx512 or all")
                        })
                        .collect::<Result<_, _>>()?
                };
                if let Some(b) = a.backends.iter().find(|b| !b.is_available()) {
                    return Err(format!("this CPU cannot run the {b} backend"));
                }
            }
            "--mode" => {
                a.modes = match it.next().as_deref() {
                    Some("unique") => vec![Mode::Unique],
                    Some("first") => vec![Mode::First],
                    Some("both") => vec![Mode::Unique, Mode::First],
                    _ => return Err("--mode is unique, first or both".into()),
                };
            }
            "--tsv" => a.tsv = true,
            "-h" | "--help" => {
                return Err(
                    "usage: sudoku-batch-peers [--rounds N] [--max N] [--backend B,...|all] \
                     [--mode unique|first|both] [--tsv] FILE..."
                        .into(),
                );
            }
            _ => a.files.push(s),
        }
    }
    if a.files.is_empty() {
        return Err("no puzzle file given".into());
    }
    Ok(a)
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Times our solver on a chunk; returns CPU seconds and a checksum.
fn time_ours(solver: &mut Solver, chunk: &[Grid], limit: u32, sink: &mut u64) -> f64 {
    let mut out = SolveOutcome::default();
    let t0 = thread_time();
    for g in chunk {
        solver.solve_into(g, limit, &mut out);
        *sink = sink.wrapping_add(out.count as u64 + out.solution.values()[80] as u64);
    }
    (thread_time() - t0).as_secs_f64()
}

/// Times the crate on a chunk; returns CPU seconds and a checksum.
fn time_crate(chunk: &[Sudoku], mode: Mode, sink: &mut u64) -> f64 {
    let t0 = thread_time();
    for &s in chunk {
        let r = match mode {
            Mode::Unique => s.solution(),
            Mode::First => s.some_solution(),
        };
        *sink = sink.wrapping_add(r.map_or(0, |s| s.to_bytes()[80] as u64 + 1));
    }
    (thread_time() - t0).as_secs_f64()
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let mut solvers: Vec<Solver> = args
        .backends
        .iter()
        .map(|&b| Solver::with_backend(b))
        .collect();
    if !args.tsv {
        let names: Vec<&str> = solvers.iter().map(|s| s.backend().name()).collect();
        println!(
            "sudoku-batch solver (backends {}) vs sudoku crate 0.8, single thread, CPU time, \
             median of {} rounds",
            names.join(", "),
            args.rounds
        );
        println!();
        println!(
            "| file | puzzles | mode | backend | ours/s | crate/s | ours/crate | guesses/puzzle | no guess |"
        );
        println!("|---|---:|---|---|---:|---:|---:|---:|---:|");
    }
    let mut failed = false;
    let mut sink = 0u64;
    for path in &args.files {
        let text = match std::fs::read(path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{path}: {e}");
                failed = true;
                continue;
            }
        };
        let mut ours = Vec::new();
        let mut theirs = Vec::new();
        for line in text.split(|&b| b == b'\n') {
            if ours.len() >= args.max {
                break;
            }
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            if line.is_empty() || line[0] == b'#' || line.len() < 81 {
                continue;
            }
            let Ok((g, _)) = Grid::parse_line(&line[..81]) else {
                continue;
            };
            let Ok(s) = Sudoku::from_bytes_slice(g.values()) else {
                continue;
            };
            ours.push(g);
            theirs.push(s);
        }
        let name = std::path::Path::new(path)
            .file_name()
            .map_or(path.clone(), |n| n.to_string_lossy().into_owned());
        let n = ours.len();
        if n == 0 {
            eprintln!("{path}: no puzzles");
            continue;
        }
        for &mode in &args.modes {
            let limit = if mode == Mode::Unique { 2 } else { 1 };
            let mode_name = if mode == Mode::Unique {
                "unique"
            } else {
                "first"
            };
            // Agreement check and guess statistics (not timed).
            let mut guesses = vec![0u64; solvers.len()];
            let mut no_guess = vec![0usize; solvers.len()];
            for (k, solver) in solvers.iter_mut().enumerate() {
                let mut disagree = 0usize;
                let mut out = SolveOutcome::default();
                for (g, &s) in ours.iter().zip(&theirs) {
                    solver.solve_into(g, limit, &mut out);
                    guesses[k] += out.guesses;
                    no_guess[k] += (out.guesses == 0) as usize;
                    let ok = match mode {
                        Mode::Unique => match s.solution() {
                            Some(sol) => out.count == 1 && out.solution.values() == &sol.to_bytes(),
                            None => out.count != 1,
                        },
                        Mode::First => {
                            (s.some_solution().is_some() == (out.count == 1))
                                && (out.count == 0 || out.solution.is_solution_of(g))
                        }
                    };
                    disagree += (!ok) as usize;
                }
                if disagree > 0 {
                    eprintln!(
                        "{name}: {disagree} puzzles where the solvers disagree ({mode_name}, {})",
                        solver.backend()
                    );
                    failed = true;
                }
            }
            let chunk = 1000.max(n / 50);
            // Program 0 is the crate, 1.. our backends.
            let programs = solvers.len() + 1;
            let mut rates: Vec<Vec<f64>> = vec![Vec::new(); programs];
            let mut ratios: Vec<Vec<f64>> = vec![Vec::new(); programs];
            for round in 0..args.rounds {
                let mut t = vec![0.0; programs];
                for (i, (a, b)) in ours.chunks(chunk).zip(theirs.chunks(chunk)).enumerate() {
                    for j in 0..programs {
                        let p = (i + round + j) % programs;
                        t[p] += if p == 0 {
                            time_crate(b, mode, &mut sink)
                        } else {
                            time_ours(&mut solvers[p - 1], a, limit, &mut sink)
                        };
                    }
                }
                for p in 0..programs {
                    rates[p].push(n as f64 / t[p]);
                    ratios[p].push(t[0] / t[p]);
                }
            }
            if args.tsv {
                println!(
                    "{name}\t{n}\t{mode_name}\tcrate\t{:.0}\t-",
                    median(&mut rates[0])
                );
            }
            for (k, solver) in solvers.iter().enumerate() {
                let g = guesses[k] as f64 / n as f64;
                if args.tsv {
                    println!(
                        "{name}\t{n}\t{mode_name}\t{}\t{:.0}\t{g:.2}",
                        solver.backend(),
                        median(&mut rates[k + 1])
                    );
                } else {
                    println!(
                        "| {name} | {n} | {} | {} | {:.0} | {:.0} | {:.2} | {g:.2} | {:.1}% |",
                        if mode == Mode::Unique {
                            "unique (limit 2)"
                        } else {
                            "first (limit 1)"
                        },
                        solver.backend(),
                        median(&mut rates[k + 1]),
                        median(&mut rates[0]),
                        median(&mut ratios[k + 1]),
                        100.0 * no_guess[k] as f64 / n as f64,
                    );
                }
            }
        }
    }
    // Keep the checksums alive so nothing is optimized away.
    if sink == 42 {
        eprintln!();
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
