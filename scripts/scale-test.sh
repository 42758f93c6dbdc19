#!/usr/bin/env bash
# Scale: solve a file of 20 million lines (made here, not committed) and record throughput and
# peak memory, showing that memory other than the mapped input stays bounded.
#
#   scripts/scale-test.sh [LINES] [THREADS]      (defaults: 20000000 and 2)
#
# The file is built under target/ by repeating ../shared/data/random_minimal_100k.txt (else
# data/random_minimal_200.txt). The run writes to /dev/null. Memory is sampled from
# /proc/PID/status every 100 ms: RssAnon (heap, stacks: what sudoku-batch allocates) and
# RssFile (pages of the mapped input that happen to be resident: the kernel can drop them at
# will). The same file is then piped through stdin, where nothing is mapped.
# FLAGS (default `--no-grade`) are added to both runs: grading 20 million puzzles takes
# hours on 2 cores; set FLAGS= to grade too.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
lines=${1:-20000000}
threads=${2:-2}
src=../shared/data/random_minimal_100k.txt
[ -r "$src" ] || src=data/random_minimal_200.txt
cargo build --release --quiet --bin sudoku-batch
big=target/scale-$lines.txt
if [ ! -s "$big" ]; then
  echo "scale-test: writing $big" >&2
  python3 - "$src" "$lines" "$big" <<'PY'
import sys
src, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
block = "".join(l for l in open(src) if l.strip())
per = block.count("\n")
with open(out, "w") as f:
    for _ in range(n // per):
        f.write(block)
    f.write("".join(block.splitlines(True)[: n % per]))
PY
fi
python3 - "$root/target/release/sudoku-batch" "$big" "$threads" "${FLAGS---no-grade}" <<'PY'
import os, subprocess, sys, time
binary, big, threads, flags = sys.argv[1:5]
flags = flags.split()
size = os.path.getsize(big)
lines = sum(1 for _ in open(big, "rb"))

def kb(pid, key):
    try:
        for l in open(f"/proc/{pid}/status"):
            if l.startswith(key + ":"):
                return int(l.split()[1])
    except OSError:
        pass
    return 0

def measure(label, cmd, stdin=None):
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    anon = filep = 0
    while p.poll() is None:
        anon = max(anon, kb(p.pid, "RssAnon"))
        filep = max(filep, kb(p.pid, "RssFile"))
        time.sleep(0.1)
    err = p.stderr.read().decode()
    dt = time.perf_counter() - t
    if p.returncode != 0:
        raise SystemExit(f"{label}: exit {p.returncode}: {err}")
    print(f"{label:<34} {lines:>11,} lines {dt:>8.1f} s {lines / dt:>10,.0f} puzzles/s "
          f"peak RssAnon {anon / 1024:>6.1f} MiB, peak RssFile {filep / 1024:>7.1f} MiB")

print(f"input: {big}, {size / 2**30:.2f} GiB, -j{threads} {' '.join(flags)}")
measure(f"solve FILE (mmap) -j{threads}", [binary, "solve", big, "-q", f"-j{threads}", "-o", "/dev/null", *flags])
with open(big, "rb") as f:
    measure(f"solve - (stdin) -j{threads}", [binary, "solve", "-", "-q", f"-j{threads}", "-o", "/dev/null", *flags], stdin=f)
PY
