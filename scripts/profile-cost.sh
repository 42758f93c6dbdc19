#!/usr/bin/env bash
# What `solve --profile` costs: times `solve` with and without `--profile` on the same file,
# alternating, and prints the median of each and their ratio (with / without).
#
#   scripts/profile-cost.sh [FILE] [ROUNDS]
#
# Default FILE: the first 20,000 puzzles of ../shared/data/random_minimal_100k.txt; ROUNDS 7.
# Threads: THREADS (default 2). Output goes to /dev/null (the rows' bytes are written, which
# is where the extra columns cost). Needs an idle machine: check with `ps` first.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
rounds=${2:-7}
threads=${THREADS:-2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -n "${1:-}" ]; then
  input=$1
else
  head -n 20000 ../shared/data/random_minimal_100k.txt > "$tmp/input.txt"
  input=$tmp/input.txt
fi
cargo build --release --quiet
bin=target/release/sudoku-batch
secs() { # secs ARGS...: wall seconds of one run
  local start end
  start=$(date +%s.%N)
  "$bin" solve "$input" -o /dev/null -q -j "$threads" "$@"
  end=$(date +%s.%N)
  echo "$start $end"
}
: > "$tmp/plain"; : > "$tmp/profile"
for ((i = 0; i < rounds; i++)); do
  secs >> "$tmp/plain"
  secs --profile >> "$tmp/profile"
done
python3 - "$tmp/plain" "$tmp/profile" "$(wc -l < "$input")" <<'PY'
import statistics, sys
def read(p):
    return [float(b) - float(a) for a, b in (l.split() for l in open(p))]
plain, prof = read(sys.argv[1]), read(sys.argv[2])
n = int(sys.argv[3])
mp, mq = statistics.median(plain), statistics.median(prof)
print(f"{n} puzzles, {len(plain)} rounds each")
print(f"without --profile: median {mp:.3f} s ({n / mp:,.0f} puzzles/s)")
print(f"with --profile:    median {mq:.3f} s ({n / mq:,.0f} puzzles/s)")
print(f"ratio with/without: {mq / mp:.3f}")
PY
