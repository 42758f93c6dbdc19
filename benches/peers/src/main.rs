//! Times sudoku-batch's solver against the `sudoku` crate 0.8 (a Rust port of JCZSolve) on
//! the same puzzle files, single thread, in two modes:
//!
//! - `unique`: count up to 2 solutions (ours: limit 2; the crate: `Sudoku::solution()`,
//!   which also proves uniqueness);
//! - `first`: stop at the first solution (ours: limit 1; the crate: `some_solution()`).
//!
//! Both solvers get the same pre-parsed puzzles. The file is cut into chunks; each round
//! times every chunk with both solvers back to back (alternating which goes first), so load
//! from other processes hits both alike. Times are the thread's CPU time. The table gives
//! the median over rounds of each rate and of the per-round ratio ours / crate, and our
//! guesses per puzzle (deterministic). It also checks that both agree on every puzzle.
//!
//! Usage: `sudoku-batch-peers [--rounds N] [--max N] [--backend auto|portable|avx2|avx512] FILE...`

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
    backend: Backend,
    files: Vec<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        rounds: 5,
        max: usize::MAX,
        backend: Backend::Auto,
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
            "--backend" => {
                a.backend = match it.next().as_deref() {
                    Some("auto") => Backend::Auto,
                    Some("portable") => Backend::Portable,
                    Some("avx2") => Backend::Avx2,
                    Some("avx512") => Backend::Avx512,
                    _ => return Err("--backend is auto, portable, avx2 or avx512".into()),
                };
            }
            "-h" | "--help" => {
                return Err(
                    "usage: sudoku-batch-peers [--rounds N] [--max N] [--backend B] FILE..."
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
    let mut solver = Solver::with_backend(args.backend);
    println!(
        "sudoku-batch solver (backend {:?}) vs sudoku crate 0.8, single thread, CPU time, \
         median of {} rounds",
        solver.backend(),
        args.rounds
    );
    println!();
    println!(
        "| file | puzzles | mode | ours/s | crate/s | ours/crate | guesses/puzzle | no guess |"
    );
    println!("|---|---:|---|---:|---:|---:|---:|---:|");
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
        // Agreement check and guess statistics (not timed).
        for mode in [Mode::Unique, Mode::First] {
            let limit = if mode == Mode::Unique { 2 } else { 1 };
            let mut guesses = 0u64;
            let mut no_guess = 0usize;
            let mut disagree = 0usize;
            let mut out = SolveOutcome::default();
            for (g, &s) in ours.iter().zip(&theirs) {
                solver.solve_into(g, limit, &mut out);
                guesses += out.guesses;
                no_guess += (out.guesses == 0) as usize;
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
                eprintln!("{name}: {disagree} puzzles where the solvers disagree ({mode_name})",
                    mode_name = if mode == Mode::Unique { "unique" } else { "first" });
                failed = true;
            }
            let limit_u = limit;
            let chunk = 1000.max(n / 50);
            let mut ours_rate = Vec::new();
            let mut crate_rate = Vec::new();
            let mut ratio = Vec::new();
            for round in 0..args.rounds {
                let (mut t_ours, mut t_crate) = (0.0, 0.0);
                for (i, (a, b)) in ours.chunks(chunk).zip(theirs.chunks(chunk)).enumerate() {
                    if (i + round) % 2 == 0 {
                        t_ours += time_ours(&mut solver, a, limit_u, &mut sink);
                        t_crate += time_crate(b, mode, &mut sink);
                    } else {
                        t_crate += time_crate(b, mode, &mut sink);
                        t_ours += time_ours(&mut solver, a, limit_u, &mut sink);
                    }
                }
                let (ro, rc) = (n as f64 / t_ours, n as f64 / t_crate);
                ours_rate.push(ro);
                crate_rate.push(rc);
                ratio.push(ro / rc);
            }
            println!(
                "| {name} | {n} | {} | {:.0} | {:.0} | {:.2} | {:.2} | {:.1}% |",
                if mode == Mode::Unique {
                    "unique (limit 2)"
                } else {
                    "first (limit 1)"
                },
                median(&mut ours_rate),
                median(&mut crate_rate),
                median(&mut ratio),
                guesses as f64 / n as f64,
                100.0 * no_guess as f64 / n as f64,
            );
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
