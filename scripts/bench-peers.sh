#!/usr/bin/env bash
# Times each of our solver backends that this CPU has against tdoku and the `sudoku` crate
# 0.8 (JCZSolve's Rust port) in one run: one thread, uniqueness check (limit 2), the same
# puzzles for every program, the programs alternating file by file and round by round.
# Prints a markdown table: puzzles/s of each program, our guesses per puzzle, and the ratio
# of each backend to each peer (the median of the per-round ratios).
#
# usage: scripts/bench-peers.sh [--rounds N] [--backend LIST|all] [FILE[:N]...]
#
#   --rounds N      outer rounds (default 5); each times every program once per file
#   --backend LIST  our backends, comma-separated (auto, avx512, avx2, portable) or `all`
#                   (default: all, i.e. every backend this CPU has)
#   FILE:N          only the first N puzzles of FILE
#
# With no FILE it reads the benchmark sets in ../shared/data (relative to the repo root),
# or in $SUDOKU_DATA when set: 17clue, random_minimal_100k, magictour_top1465, the first
# 10,000 puzzles of forum_hardest_1905_11plus, serg_benchmark.
#
# Peers:
# - the crate runs in benches/peers, a separate Cargo project (the crate is AGPL and never a
#   dependency of the library); that program also times our backends, chunk by chunk in
#   rotating order, on the thread's CPU clock;
# - tdoku is built from ../shared/peers/tdoku (or $TDOKU_DIR) twice, as its README says:
#   for AVX2 without AVX-512 (`tdoku-avx2`, the yardstick of our AVX2 backend) and for this
#   CPU (`tdoku-native`); its harness reports the median of 5 rounds on the process CPU
#   clock. Without those sources the tdoku columns are left out, with a note.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
data="${SUDOKU_DATA:-$root/../shared/data}"
tdoku_src="${TDOKU_DIR:-$root/../shared/peers/tdoku}"
target="${CARGO_TARGET_DIR:-$root/target}"

rounds=5
backends=all
files=()
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) rounds="$2"; shift 2 ;;
        --backend|--backends) backends="$2"; shift 2 ;;
        -h|--help) sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) files+=("$1"); shift ;;
    esac
done
if [ ${#files[@]} -eq 0 ]; then
    for f in 17clue.txt random_minimal_100k.txt magictour_top1465.txt \
             forum_hardest_1905_11plus.txt:10000 serg_benchmark.txt; do
        if [ -f "$data/${f%%:*}" ]; then files+=("$data/$f"); fi
    done
fi
if [ ${#files[@]} -eq 0 ]; then
    echo "bench-peers: no puzzle files (looked in $data); pass paths as arguments" >&2
    exit 2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# FILE:N -> a file of its first N puzzle lines, so that every program reads the same ones.
inputs=()
for spec in "${files[@]}"; do
    path="$spec" max=""
    if [[ "$spec" =~ ^(.*):([0-9]+)$ ]] && [ ! -e "$spec" ]; then
        path="${BASH_REMATCH[1]}" max="${BASH_REMATCH[2]}"
    fi
    [ -r "$path" ] || { echo "bench-peers: cannot read $path" >&2; exit 2; }
    if [ -n "$max" ]; then
        base="$(basename "$path" .txt)_first$max.txt"
        awk -v n="$max" '!/^#/ && c < n { print; c++ }' "$path" > "$work/$base"
        inputs+=("$work/$base")
    else
        inputs+=("$path")
    fi
done

echo "building the peers program and tdoku..." >&2
CARGO_TARGET_DIR="$target/peers" cargo build --release --quiet \
    --manifest-path "$root/benches/peers/Cargo.toml"
peers="$target/peers/release/sudoku-batch-peers"
tdokus=()
if [ -f "$tdoku_src/solver_dpll_triad_simd.cc" ] && command -v g++ >/dev/null; then
    mkdir -p "$target/tdoku"
    srcs=("$tdoku_src/harness.cc" "$tdoku_src/solver_dpll_triad_simd.cc" "$tdoku_src/util.cc")
    g++ -O3 -std=c++17 -mavx2 -mbmi -mbmi2 -mpopcnt -mno-avx512f \
        -o "$target/tdoku/tdoku-avx2" "${srcs[@]}"
    g++ -O3 -std=c++17 -march=native -o "$target/tdoku/tdoku-native" "${srcs[@]}"
    tdokus=(avx2 native)
else
    echo "note: no tdoku sources in $tdoku_src (or no g++): tdoku columns left out" >&2
fi

echo "CPU: $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//')"
echo "SIMD flags: $(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null | tr ' ' '\n' | grep -E '^(sse4_2|avx2|avx512f|bmi2|asimd)$' | tr '\n' ' ')"

# Rounds: every file, every program in turn (the first program rotates with the round).
for r in $(seq 1 "$rounds"); do
    for f in "${inputs[@]}"; do
        progs=(ours "${tdokus[@]}")
        n=${#progs[@]}
        for j in $(seq 0 $((n - 1))); do
            p=${progs[$(((j + r) % n))]}
            if [ "$p" = ours ]; then
                "$peers" --tsv --mode unique --rounds 3 --backend "$backends" "$f" |
                    sed "s/^/$r\t/" >> "$work/ours.tsv"
            else
                "$target/tdoku/tdoku-$p" "$f" | sed "s/^/$r\ttdoku-$p\t/" >> "$work/tdoku.tsv"
            fi
        done
    done
    echo "round $r/$rounds done" >&2
done
touch "$work/tdoku.tsv"

python3 - "$work" "$rounds" <<'PY'
import collections, os, statistics, sys
work, rounds = sys.argv[1], int(sys.argv[2])
med = statistics.median
# rate[(file, program)][round] = puzzles/s; guesses[(file, backend)]
rate = collections.defaultdict(dict)
guesses, puzzles, order, backends = {}, {}, [], []
for line in open(os.path.join(work, "ours.tsv")):
    r, name, n, mode, prog, pps, g = line.rstrip("\n").split("\t")
    if name not in order:
        order.append(name)
    puzzles[name] = int(n)
    rate[(name, prog)][int(r)] = float(pps)
    if prog != "crate":
        guesses[(name, prog)] = g
        if prog not in backends:
            backends.append(prog)
peers = ["crate"]
for line in open(os.path.join(work, "tdoku.tsv")):
    r, prog, path, n, pps, g = line.rstrip("\n").split("\t")
    name = os.path.basename(path)
    rate[(name, prog)][int(r)] = float(pps.rstrip("/s"))
    if prog not in peers:
        peers.insert(len(peers) - 1, prog)
peers = sorted(peers, key=lambda p: (p == "crate", p))

def ratio(name, a, b):
    xs = [rate[(name, a)][r] / rate[(name, b)][r]
          for r in rate[(name, a)] if r in rate[(name, b)] and rate[(name, b)][r] > 0]
    return med(xs) if xs else float("nan")

label = {"crate": "sudoku crate", "tdoku-avx2": "tdoku AVX2", "tdoku-native": "tdoku native"}
print()
print(f"One thread, limit 2 (uniqueness check), puzzles/s: median of {rounds} rounds; "
      "ratio: median of the per-round ratios.")
print()
head = ["set", "puzzles", "backend", "ours/s", "guesses/puzzle"]
for p in peers:
    head += [f"{label.get(p, p)}/s", f"ours/{label.get(p, p)}"]
print("| " + " | ".join(head) + " |")
print("|" + "|".join(["---", "---:", "---", "---:", "---:"] + ["---:"] * (2 * len(peers))) + "|")
for name in order:
    for b in backends:
        row = [name, str(puzzles[name]), b, f"{med(rate[(name, b)].values()):.0f}",
               guesses[(name, b)]]
        for p in peers:
            if rate[(name, p)]:
                row += [f"{med(rate[(name, p)].values()):.0f}", f"{ratio(name, b, p):.2f}"]
            else:
                row += ["-", "-"]
        print("| " + " | ".join(row) + " |")
PY
