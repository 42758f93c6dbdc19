#!/usr/bin/env bash
# Generates puzzles with `sudoku-batch generate` and checks every one with the exact solver
# (examples/check_generated.rs: one solution equal to the solution column, the clue
# pattern has the named symmetry, and no clue can be removed), outside `cargo test`.
#
#   scripts/check-generated.sh [COUNT]     (default 100000)
#
# Runs: COUNT puzzles with --minimal and no symmetry; COUNT/10 with --minimal and a random
# symmetry; COUNT/10 with --symmetry rot180 and no --minimal (symmetry and uniqueness
# only). With GRADED=1 it also generates COUNT graded puzzles (unconstrained level) and
# prints the level histogram from the summary. SEED (default 1) and THREADS (default 2)
# may be set; the files go to a temporary directory (or $OUT_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."

COUNT=${1:-100000}
SEED=${SEED:-1}
THREADS=${THREADS:-2}
OUT_DIR=${OUT_DIR:-$(mktemp -d)}
mkdir -p "$OUT_DIR"

cargo build --release --quiet --bin sudoku-batch --example check_generated
BIN=target/release/sudoku-batch
CHECK=target/release/examples/check_generated

run() {
    local name=$1 minimal=$2
    shift 2
    echo "== generate $* -> $OUT_DIR/$name.csv"
    "$BIN" generate --seed "$SEED" -j "$THREADS" -o "$OUT_DIR/$name.csv" "$@"
    "$CHECK" "$OUT_DIR/$name.csv" $minimal
}

run minimal-none --minimal -n "$COUNT" --no-grade --minimal
run minimal-random --minimal -n $((COUNT / 10)) --no-grade --minimal --symmetry random
run rot180 "" -n $((COUNT / 10)) --no-grade --symmetry rot180

if [ "${GRADED:-0}" = 1 ]; then
    echo "== graded, unconstrained level (the summary's last line is the level histogram)"
    "$BIN" generate --seed "$SEED" -j "$THREADS" -n "$COUNT" --minimal -o "$OUT_DIR/graded.csv"
    "$CHECK" "$OUT_DIR/graded.csv" --minimal
fi
echo "all generated puzzles passed"
