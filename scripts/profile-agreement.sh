#!/usr/bin/env bash
# Technique profiles against `explain`, through the binary, at the default budget: for every
# puzzle of the reference rated sets, the `techniques` and `steps` that `solve --profile`
# writes must be the steps `explain --format json` prints, counted per technique.
#
#   scripts/profile-agreement.sh [FILE.tsv ...]
#
# Default files: data/rated/*.tsv (all 673 puzzles with reference ratings). Prints the
# number of puzzles compared and disagreements (and exits 1 if there are any). Takes a few
# minutes on 2 cores (explain runs once per puzzle).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
if [ "$#" -eq 0 ]; then
  set -- data/rated/*.tsv
fi
cargo build --release --quiet
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat "$@" | cut -f1 > "$tmp/puzzles.txt"
target/release/sudoku-batch solve "$tmp/puzzles.txt" --profile --format jsonl -q -o "$tmp/rows.jsonl"
python3 - "$tmp/rows.jsonl" <<'PY'
import json, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
rows = [json.loads(l) for l in open(sys.argv[1])]
def explain(p):
    out = subprocess.run(["target/release/sudoku-batch", "explain", "--format", "json", p],
                         check=True, capture_output=True, text=True).stdout
    counts = {}
    steps = json.loads(out)["steps"]
    for s in steps:
        counts[s["technique"]] = counts.get(s["technique"], 0) + 1
    return counts, len(steps)
with ThreadPoolExecutor(2) as ex:
    explained = list(ex.map(explain, [r["puzzle"] for r in rows]))
bad = 0
for r, (counts, n) in zip(rows, explained):
    ok = r["techniques"] == counts and r["steps"] == n and sum(counts.values()) == n
    if not ok:
        bad += 1
        print("DISAGREE", r["puzzle"], r["techniques"], counts)
lower = sum(1 for r in rows if isinstance(r["er"], str))
print(f"{len(rows)} puzzles compared ({lower} rated as lower bounds at the default budget): "
      f"{len(rows) - bad} agree, {bad} disagree")
sys.exit(1 if bad else 0)
PY
