#!/usr/bin/env bash
# Agreement of our ratings with Sudoku Explainer 1.2.1's, per reference file.
#
#   scripts/rating-agreement.sh [FILE.tsv ...]
#
# Default files: ../shared/data/rated/*.tsv (override the directory with RATED_DIR, or
# pass files). Each file holds `puzzle<TAB>ER<TAB>EP<TAB>ED` lines. Builds the rating tool
# (examples/rate.rs) in release mode and prints, per file, the share of puzzles whose ER,
# EP and ED match exactly, within 0.1 and within 0.5, a confusion table of levels
# (reference by row, ours by column), the count of lower bounds (budget spent or
# technique missing), the grading speed on one thread, and per band of the reference ER
# (<=2.0, 2.1-4.5, 4.6-6.5, 6.6-9.0, 9.1-10.0, 10.1-11.0, 11.1-11.5, >=11.6): puzzles,
# exact share (ER, EP and ED all equal), lower bounds, puzzles/s and the slowest puzzle.
# The default files include se121_eleven_53.tsv (ER 10.6-11.9).
# Set MISMATCHES=1 to list every puzzle whose rating differs; BUDGET=N to change the work
# budget per puzzle.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
if [ "$#" -eq 0 ]; then
  dir=${RATED_DIR:-../shared/data/rated}
  set -- "$dir"/*.tsv
fi
cargo build --release --quiet --example rate
args=()
if [ "${MISMATCHES:-0}" = 1 ]; then args+=(--mismatches); fi
if [ -n "${BUDGET:-}" ]; then args+=(--budget "$BUDGET"); fi
exec target/release/examples/rate "${args[@]}" "$@"
