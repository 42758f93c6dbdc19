#!/usr/bin/env bash
# The classic geometry as the oracle of the generic engine: every puzzle of the rated
# reference files, fed as a Jigsaw puzzle whose regions are the nine 3x3 boxes, must get
# exactly the solution, ER/EP/ED, level and hardest technique that classic `solve` gives.
#
#   scripts/jigsaw-oracle.sh [FILE.tsv ...]
#
# Default files: ../shared/data/rated/*.tsv (`puzzle<TAB>ER<TAB>EP<TAB>ED` lines; override
# the directory with RATED_DIR). Prints per file the rows compared and the rows that
# differ (listing the first few); exits 1 if any row differs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
if [ "$#" -eq 0 ]; then
  dir=${RATED_DIR:-../shared/data/rated}
  set -- "$dir"/*.tsv
fi
cargo build --release --quiet
bin=target/release/sudoku-batch
boxes=$(python3 -c "print(''.join(str(r // 3 * 3 + c // 3 + 1) for r in range(9) for c in range(9)))")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for f in "$@"; do
  cut -c1-81 "$f" > "$tmp/classic.txt"
  sed "s/\$/ $boxes/" "$tmp/classic.txt" > "$tmp/jigsaw.txt"
  "$bin" solve -q -j 2 "$tmp/classic.txt" -o "$tmp/classic.csv"
  "$bin" solve -q -j 2 --variant jigsaw "$tmp/jigsaw.txt" -o "$tmp/jigsaw.csv"
  python3 - "$f" "$tmp/classic.csv" "$tmp/jigsaw.csv" <<'PY' || status=1
import csv, sys
name, a, b = sys.argv[1:]
cols = ["solution", "er", "ep", "ed", "level", "hardest"]
ra = list(csv.DictReader(open(a)))
rb = list(csv.DictReader(open(b)))
assert len(ra) == len(rb), (len(ra), len(rb))
diff = [(x, y) for x, y in zip(ra, rb) if [x[c] for c in cols] != [y[c] for c in cols]]
print(f"{name}: {len(ra)} rows, {len(ra) - len(diff)} identical, {len(diff)} differ")
for x, y in diff[:5]:
    print("  ", x["puzzle"], [x[c] for c in cols[1:]], [y[c] for c in cols[1:]])
sys.exit(1 if diff else 0)
PY
done
exit $status
