#!/usr/bin/env bash
# End-to-end throughput of `solve` on a file of one million lines, and what reading, parsing
# and writing cost on top of solving.
#
#   scripts/bench-pipeline.sh [SOURCE_FILE] [LINES]
#
# Builds a LINES-line file (default 1,000,000) by repeating SOURCE_FILE (default
# ../shared/data/random_minimal_100k.txt, else data/random_minimal_200.txt) under target/,
# then alternates, ROUNDS times (default 3):
#   - `sudoku-batch bench -j1` (in-process: solving only, puzzles parsed before the clock),
#   - `sudoku-batch solve FILE --no-grade -j1 -o out.csv` and `... -j2 ...` (end to end).
# Prints the medians, the -j2/-j1 speed-up (wall clock), and the overhead of the pipeline at
# -j1 as (end-to-end CPU time - solving time) / solving time, where the end-to-end CPU time is
# the process's user+system time (reader, workers and writer threads together) and the
# solving time is what `bench` measured for the same puzzles. CPU time is far less disturbed
# than wall time by other work on a shared machine. (Grading is left out: it is work, not
# overhead; add GRADE=1 to time `solve` with grading as well.)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
src=${1:-}
if [ -z "$src" ]; then
  src=../shared/data/random_minimal_100k.txt
  [ -r "$src" ] || src=data/random_minimal_200.txt
fi
lines=${2:-1000000}
rounds=${ROUNDS:-3}
cargo build --release --quiet --bin sudoku-batch
bin=target/release/sudoku-batch
big=target/bench-pipeline-$(basename "$src" .txt)-$lines.txt
if [ ! -s "$big" ]; then
  python3 - "$src" "$lines" "$big" <<'PY'
import sys
src, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
lines = [l for l in open(src) if l.strip() and not l.startswith('#')]
with open(out, 'w') as f:
    for i in range(n):
        f.write(lines[i % len(lines)])
PY
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
python3 - "$bin" "$big" "$rounds" "$out" "${GRADE:-0}" <<'PY'
import json, os, resource, statistics, subprocess, sys, time
bin, big, rounds, out, grade = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5] == "1"
n = sum(1 for _ in open(big))
flags = [] if grade else ["--no-grade"]

def timed(cmd):
    """Wall seconds and CPU seconds (user + system) of a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, check=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

solve_only, j1, j2, cpu1 = [], [], [], []
for r in range(rounds):
    rep = json.loads(subprocess.run([bin, "bench", big, "--rounds", "1", "--json", "-j1"],
                                    check=True, capture_output=True).stdout)
    solve_only.append(rep["files"][0]["median_pps"])
    w1, c1 = timed([bin, "solve", big, "-j1", "-q", "-o", f"{out}/out.csv"] + flags)
    w2, _ = timed([bin, "solve", big, "-j2", "-q", "-o", f"{out}/out.csv"] + flags)
    j1.append(n / w1); j2.append(n / w2); cpu1.append(c1)
    print(f"round {r+1}/{rounds}: solve-only {solve_only[-1]:.0f}/s, -j1 {j1[-1]:.0f}/s "
          f"({c1:.2f} s CPU), -j2 {j2[-1]:.0f}/s", file=sys.stderr)
so, a, b, c = statistics.median(solve_only), statistics.median(j1), statistics.median(j2), statistics.median(cpu1)
solve_secs = n / so
print(f"file: {big} ({n} lines){'' if not grade else ', with grading'}")
print(f"solving only, 1 thread (bench):  {so:>10.0f} puzzles/s  ({solve_secs:.2f} s)")
print(f"solve end to end, -j1:           {a:>10.0f} puzzles/s  ({c:.2f} s CPU)")
print(f"solve end to end, -j2:           {b:>10.0f} puzzles/s")
print(f"-j2 / -j1 speed-up (wall):       {b / a:>10.2f}x  (per round: {', '.join(f'{y/x:.2f}' for x, y in zip(j1, j2))})")
print(f"pipeline overhead at -j1 (CPU):  {100 * (c / solve_secs - 1):>9.1f}%  of solving time (read + parse + write)")
print(f"pipeline overhead at -j1 (wall): {100 * (so / a - 1):>9.1f}%")
PY
