#!/usr/bin/env python3
"""Speed of the Python package against the CLI, on the same machine and thread count.

1. ``solve(grade=False)`` of a (N, 81) ``uint8`` array against ``sudoku-batch solve
   --no-grade`` on the same puzzles as a text file (output to a file), alternating, median
   of ``--rounds`` runs each: puzzles per second and the ratio Python/CLI, and the CPU
   seconds of each (which a busy machine disturbs less than the wall clock).
2. ``Solver.solve`` per call against the in-process Rust time for the same puzzles
   (``sudoku-batch bench``, one thread): the per-call overhead in microseconds.

Run it with the package installed (``scripts/python-test.sh`` leaves a virtual
environment in target/py-venv):

    target/py-venv/bin/python scripts/python-speed.py [--puzzles FILE] [-n 1000000] [-j 2]

The default puzzles are ../shared/data/random_minimal_100k.txt, repeated up to n lines
(the data set of scripts/bench-pipeline.sh).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import sudoku_batch as sb

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def read_lines(path: str, n: int) -> list[str]:
    with open(path) as f:
        base = [ln.strip() for ln in f if ln.strip() and not ln.startswith("#")]
    reps = -(-n // len(base))
    return (base * reps)[:n]


def to_cells(lines: list[str]) -> np.ndarray:
    raw = np.frombuffer("".join(lines).encode(), dtype=np.uint8).reshape(len(lines), 81)
    cells = raw - ord("0")
    cells[raw == ord(".")] = 0
    return cells.astype(np.uint8)


def cpu(who: int) -> float:
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime


def time_cli(binary: str, path: str, out: str, threads: int) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one CLI run."""
    c = cpu(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(
        [binary, "solve", path, "--no-grade", "-q", "-j", str(threads), "-o", out],
        check=True,
    )
    return time.perf_counter() - t, cpu(resource.RUSAGE_CHILDREN) - c


def time_python(cells: np.ndarray, threads: int) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one solve() call (the uint8 array's copy included)."""
    c = cpu(resource.RUSAGE_SELF)
    t = time.perf_counter()
    r = sb.solve(cells, grade=False, threads=threads)
    elapsed = time.perf_counter() - t, cpu(resource.RUSAGE_SELF) - c
    assert len(r) == len(cells)
    del r
    return elapsed


def solver_overhead(binary: str, path: str, count: int) -> dict:
    lines = read_lines(path, count)
    solver = sb.Solver()
    for p in lines[:1000]:
        solver.solve(p)
    rounds = []
    for _ in range(5):
        t = time.perf_counter()
        for p in lines:
            solver.solve(p)
        rounds.append((time.perf_counter() - t) / len(lines))
    per_call_str = statistics.median(rounds)
    blines = [p.encode() for p in lines]
    rounds = []
    for _ in range(5):
        t = time.perf_counter()
        for p in blines:
            solver.solve(p)
        rounds.append((time.perf_counter() - t) / len(lines))
    per_call_bytes = statistics.median(rounds)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(lines) + "\n")
        name = f.name
    try:
        out = subprocess.run(
            [binary, "bench", name, "--rounds", "5", "--json"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    finally:
        os.unlink(name)
    report = json.loads(out)
    rust = report["files"][0]
    per_puzzle_rust = rust["median_us_per_puzzle"] / 1e6
    # An empty string: the whole call path (argument, record, row, result) with no solving.
    rounds = []
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(count):
            solver.solve("")
        rounds.append((time.perf_counter() - t) / count)
    per_call_empty = statistics.median(rounds)
    return {
        "puzzles": len(lines),
        "solver_solve_str_us": per_call_str * 1e6,
        "solver_solve_bytes_us": per_call_bytes * 1e6,
        "rust_solve_us": per_puzzle_rust * 1e6,
        "overhead_str_us": (per_call_str - per_puzzle_rust) * 1e6,
        "overhead_bytes_us": (per_call_bytes - per_puzzle_rust) * 1e6,
        "empty_record_call_us": per_call_empty * 1e6,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--puzzles",
        default=os.path.join(ROOT, "..", "shared", "data", "random_minimal_100k.txt"),
    )
    ap.add_argument("-n", type=int, default=1_000_000)
    ap.add_argument("-j", "--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--solver-puzzles", type=int, default=100_000)
    ap.add_argument("--binary", default=os.path.join(ROOT, "target", "release", "sudoku-batch"))
    args = ap.parse_args()

    lines = read_lines(args.puzzles, args.n)
    cells = to_cells(lines)
    work = tempfile.mkdtemp(prefix="sb-speed-", dir=os.path.join(ROOT, "target"))
    path = os.path.join(work, "puzzles.txt")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    out = os.path.join(work, "out.csv")
    # Warm-up (page cache, first-touch allocations), then alternate.
    time_cli(args.binary, path, out, args.threads)
    time_python(cells, args.threads)
    cli, py = [], []
    for _ in range(args.rounds):
        cli.append(time_cli(args.binary, path, out, args.threads))
        py.append(time_python(cells, args.threads))
    os.unlink(out)
    os.unlink(path)
    os.rmdir(work)
    cli_rate = args.n / statistics.median(w for w, _ in cli)
    py_rate = args.n / statistics.median(w for w, _ in py)
    cli_cpu = statistics.median(c for _, c in cli)
    py_cpu = statistics.median(c for _, c in py)
    result = {
        "puzzles": args.n,
        "threads": args.threads,
        "rounds": args.rounds,
        "cli_puzzles_per_second": round(cli_rate),
        "python_puzzles_per_second": round(py_rate),
        "ratio_python_over_cli": round(py_rate / cli_rate, 3),
        "cli_cpu_seconds": round(cli_cpu, 3),
        "python_cpu_seconds": round(py_cpu, 3),
        "cpu_ratio_cli_over_python": round(cli_cpu / py_cpu, 3),
        "round_ratios": [round(c[0] / p[0], 3) for c, p in zip(cli, py)],
        "cli_seconds": [round(w, 3) for w, _ in cli],
        "python_seconds": [round(w, 3) for w, _ in py],
        "solver": {
            k: (round(v, 3) if isinstance(v, float) else v)
            for k, v in solver_overhead(
                args.binary, args.puzzles, args.solver_puzzles
            ).items()
        },
    }
    json.dump(result, sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    main()
