#!/usr/bin/env bash
# Times our solver against the `sudoku` crate 0.8 (JCZSolve's Rust port) on the same files,
# single thread, uniqueness check (limit 2) and first solution (limit 1), and prints a
# markdown table: puzzles/s for both, the ratio ours/crate, our guesses per puzzle.
#
# usage: scripts/bench-peers.sh [--rounds N] [--max N] [--backend auto|scalar|avx2|avx512] [FILE...]
#
# With no FILE it reads the five benchmark sets in ../shared/data (relative to the repo
# root), or in $SUDOKU_DATA when set. The peer lives in benches/peers, a separate Cargo
# project: the crate is AGPL and never a dependency of the library.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
data="${SUDOKU_DATA:-$root/../shared/data}"

opts=()
files=()
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds|--max|--backend) opts+=("$1" "$2"); shift 2 ;;
        *) files+=("$1"); shift ;;
    esac
done
if [ ${#files[@]} -eq 0 ]; then
    for f in 17clue.txt random_minimal_100k.txt magictour_top1465.txt \
             forum_hardest_1905_11plus.txt serg_benchmark.txt; do
        if [ -f "$data/$f" ]; then files+=("$data/$f"); fi
    done
fi
if [ ${#files[@]} -eq 0 ]; then
    echo "bench-peers: no puzzle files (looked in $data); pass paths as arguments" >&2
    exit 2
fi

cargo build --release --quiet --manifest-path "$root/benches/peers/Cargo.toml"
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//')"
echo "SIMD flags: $(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null | tr ' ' '\n' | grep -E '^(sse4_2|avx2|avx512[a-z_]*|bmi2)$' | tr '\n' ' ')"
exec "$root/benches/peers/target/release/sudoku-batch-peers" ${opts[@]+"${opts[@]}"} "${files[@]}"
