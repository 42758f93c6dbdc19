#!/usr/bin/env bash
# Generation rates per target: puzzles/s and candidates tried per puzzle (2 threads by
# default), from each run's --summary-json.
#
#   scripts/generation-rates.sh levels       # --level easy ... extreme
#   scripts/generation-rates.sh techniques   # --hardest x-wing, xy-wing, ur1, swordfish, bug1, ape, nishio
#
# SEED (default 1) and THREADS (default 2) can be set. Every row of every run is checked:
# its level (levels) or its hardest technique (techniques) is the one asked for.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
cargo build --release --quiet
bin=target/release/sudoku-batch
seed=${SEED:-1}
threads=${THREADS:-2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case "${1:-techniques}" in
  levels)
    runs=("--level easy:2000" "--level medium:2000" "--level hard:2000" "--level fiendish:2000"
          "--level diabolical:2000" "--level extreme:100") ;;
  techniques)
    runs=("--hardest x-wing:100" "--hardest xy-wing:100" "--hardest ur1:100"
          "--hardest swordfish:30" "--hardest bug1:100" "--hardest ape:15" "--hardest nishio:30") ;;
  *) echo "usage: $0 levels|techniques" >&2; exit 2 ;;
esac
printf '%-22s %8s %12s %12s %10s\n' target puzzles seconds puzzles/s tried/puzzle
for run in "${runs[@]}"; do
  opts=${run%%:*}
  n=${run##*:}
  # shellcheck disable=SC2086
  "$bin" generate -n "$n" $opts --seed "$seed" -j "$threads" -q -o "$tmp/out.csv" \
    --summary-json "$tmp/summary.json"
  python3 - "$tmp/out.csv" "$tmp/summary.json" "$opts" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
s = json.load(open(sys.argv[2]))
opt, want = sys.argv[3].split(" ", 1)
names = {"x-wing": "X-wing", "xy-wing": "XY-wing", "ur1": "Unique rectangle type 1",
         "swordfish": "Swordfish", "bug1": "BUG type 1", "ape": "Aligned pair exclusion",
         "nishio": "Nishio forcing chain"}
for r in rows:
    got = r["level"] if opt == "--level" else r["hardest"]
    expect = want if opt == "--level" else names[want]
    assert got == expect, (r["index"], got, expect)
print(f"{sys.argv[3]:<22} {s['generated']:>8} {s['elapsed_seconds']:>12.2f} "
      f"{s['puzzles_per_second']:>12.2f} {s['tried_per_puzzle']:>10.1f}")
PY
done
