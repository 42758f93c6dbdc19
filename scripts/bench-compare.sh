#!/usr/bin/env bash
# Compare the solver speed of two git revisions in one run.
#
#   scripts/bench-compare.sh REV_A REV_B [FILES...]
#
# Builds both revisions in release mode (in temporary worktrees, so your checkout is not
# touched), then runs their `sudoku-batch bench --json` alternately, A B A B ..., on the same
# files, and prints per file the median puzzles/s of each and the ratio B/A with its spread
# (the min and max of the per-pair ratios). Judging a change by a ratio measured in one run
# cancels most of the noise of a shared machine.
#
# Environment: PAIRS (default 5) alternations, ROUNDS (default 3) timed rounds per bench call,
# LIMIT (default 2), THREADS (default 1), BENCH_FLAGS (extra flags for bench, e.g. --grade).
# Default files: ../shared/data's benchmark sets if present, else the samples in data/.
#
# COUNT=instructions counts instead of timing: one `bench --rounds 1 -j 1` per file and
# revision under valgrind (cachegrind, no cache simulation), printing the instructions each
# executed and the ratio A/B (above 1: B does less). The count does not depend on the
# machine's load, so it judges a change of a few percent that timing on a shared machine
# cannot; it does not see what code layout, caches or branch prediction do to the time, so
# confirm a change it favours with the timed comparison. About 25 times slower than a run.
set -euo pipefail

if [ $# -lt 2 ]; then
  sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
rev_a=$1
rev_b=$2
shift 2

root=$(git rev-parse --show-toplevel)
cd "$root"
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  shared="$root/../shared/data"
  if [ -d "$shared" ]; then
    files=("$shared/17clue.txt" "$shared/magictour_top1465.txt" "$shared/forum_hardest_1905_11plus.txt" "$shared/serg_benchmark.txt" "$shared/random_minimal_100k.txt")
  else
    files=(data/17clue_200.txt data/top1465_100.txt data/hardest_100.txt data/serg_100.txt data/random_minimal_200.txt)
  fi
fi
for f in "${files[@]}"; do
  [ -r "$f" ] || { echo "bench-compare: cannot read $f" >&2; exit 2; }
done
count=${COUNT:-time}
case "$count" in
  time) ;;
  instructions)
    command -v valgrind >/dev/null || { echo "bench-compare: COUNT=instructions needs valgrind" >&2; exit 2; } ;;
  *) echo "bench-compare: COUNT is time or instructions, not $count" >&2; exit 2 ;;
esac

work=$(mktemp -d)
cleanup() {
  git worktree remove --force "$work/a" >/dev/null 2>&1 || true
  git worktree remove --force "$work/b" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

build() { # name rev
  local name=$1 rev=$2
  git worktree add --detach --quiet "$work/$name" "$rev"
  echo "building $name = $rev ($(git rev-parse --short "$rev"))" >&2
  (cd "$work/$name" && CARGO_TARGET_DIR="$work/target-$name" cargo build --release --quiet --bin sudoku-batch)
  cp "$work/target-$name/release/sudoku-batch" "$work/bin-$name"
  if ! "$work/bin-$name" bench --help >/dev/null 2>&1; then
    echo "bench-compare: revision $rev has no 'bench' subcommand" >&2
    exit 2
  fi
}
build a "$rev_a"
build b "$rev_b"

pairs=${PAIRS:-5}
abs_files=()
for f in "${files[@]}"; do abs_files+=("$(cd "$(dirname "$f")" && pwd)/$(basename "$f")"); done

if [ "$count" = instructions ]; then
  echo "A = $rev_a, B = $rev_b; instructions of one bench round (after its warm-up), 1 thread"
  printf '%-36s %16s %16s %7s\n' file "A instructions" "B instructions" "A/B"
  for f in "${abs_files[@]}"; do
    for side in a b; do
      # shellcheck disable=SC2086
      valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
        "$work/bin-$side" bench --rounds 1 --limit "${LIMIT:-2}" -j 1 ${BENCH_FLAGS:-} "$f" \
        > /dev/null 2> "$work/$side.valgrind"
      n=$(sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' "$work/$side.valgrind" | tr -d ,)
      [ -n "$n" ] || { echo "bench-compare: no instruction count for $side on $f" >&2; cat "$work/$side.valgrind" >&2; exit 1; }
      eval "n_$side=$n"
    done
    # shellcheck disable=SC2154
    python3 -c 'import sys; a, b = int(sys.argv[2]), int(sys.argv[3]); print(f"{sys.argv[1]:<36} {a:>16,} {b:>16,} {a / b:>7.3f}")' \
      "$(basename "$f")" "$n_a" "$n_b"
  done
  exit 0
fi
for i in $(seq 1 "$pairs"); do
  for side in a b; do
    # shellcheck disable=SC2086
    "$work/bin-$side" bench --json --rounds "${ROUNDS:-3}" --limit "${LIMIT:-2}" -j "${THREADS:-1}" ${BENCH_FLAGS:-} "${abs_files[@]}" > "$work/$side-$i.json"
  done
  echo "pair $i/$pairs done" >&2
done

python3 - "$work" "$pairs" "$rev_a" "$rev_b" <<'PY'
import json, os, statistics, sys
work, pairs, rev_a, rev_b = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
def load(side):
    return [json.load(open(os.path.join(work, f"{side}-{i}.json"))) for i in range(1, pairs + 1)]
a, b = load("a"), load("b")
print(f"A = {rev_a}, B = {rev_b}; {pairs} alternating pairs, limit {a[0]['limit']}, {a[0]['threads']} thread(s)")
print(f"{'file':<36} {'A puzzles/s':>12} {'B puzzles/s':>12} {'B/A':>7} {'spread':>15} {'A guesses':>10} {'B guesses':>10}")
for k, fa in enumerate(a[0]["files"]):
    ra = [run["files"][k]["median_pps"] for run in a]
    rb = [run["files"][k]["median_pps"] for run in b]
    ratios = [y / x for x, y in zip(ra, rb) if x > 0]
    name = os.path.basename(fa["file"])
    print(f"{name:<36} {statistics.median(ra):>12.0f} {statistics.median(rb):>12.0f} "
          f"{statistics.median(ratios):>7.3f} {min(ratios):>7.3f}-{max(ratios):<7.3f} "
          f"{fa['guesses_per_puzzle']:>10.2f} {b[0]['files'][k]['guesses_per_puzzle']:>10.2f}")
PY
