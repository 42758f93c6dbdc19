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
