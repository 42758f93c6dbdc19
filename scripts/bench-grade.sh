#!/usr/bin/env bash
# Grading benchmark per ER band, and against the peer skfr when it can be built.
#
#   scripts/bench-grade.sh [--rounds N] FILE...
#
# Each FILE holds one puzzle per line (81 characters), optionally followed by tab-separated
# reference ratings (the ../shared/data/rated/*.tsv format); plain .txt puzzle lists work too.
# Builds the rating tool (examples/rate.rs) and the CLI in release mode and prints, per file:
#
# - per band of OUR computed ER (<=2.0, 2.1-4.5, 4.6-6.5, 6.6-9.0, >9.0): puzzles, lower
#   bounds (budget spent or technique missing), puzzles per second (grading time on the
#   thread's CPU clock, one thread; the solve that checks uniqueness first is not counted)
#   and the slowest puzzle (its CPU time and the puzzle); the exact share is shown for files
#   with references (ER, EP and ED all equal), `-` otherwise;
# - with skfr: the whole-process CPU time (user + system) of `sudoku-batch solve -j1 NAME.txt
#   -o /dev/null` and of `skfr -iNAME`, where NAME.txt is a temporary file of the file's
#   81-character puzzle column that both read, each run N times (default 3, or $ROUNDS), the
#   two alternating and the first of them swapping each round; the per-round times, their
#   medians, the ratio of the medians skfr/ours, and how many puzzles skfr rated.
#
# skfr (an outside C++ clone of Sudoku Explainer's rating, not part of this project): set
# SKFR=path to use a binary, else it is built once with g++ from ../shared/peers/skfr (or
# $SKFR_DIR) into target/peers/skfr/ as that directory's README says (its compiler warnings
# silenced). Without the sources or g++ it says it skips the peer and prints the band
# tables only.
# BUDGET=N changes our work budget per puzzle (for both the band table and `solve`).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
skfr_src="${SKFR_DIR:-$root/../shared/peers/skfr}"

rounds="${ROUNDS:-3}"
files=()
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) rounds="$2"; shift 2 ;;
        -h|--help) sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) files+=("$1"); shift ;;
    esac
done
if [ ${#files[@]} -eq 0 ]; then
    echo "usage: scripts/bench-grade.sh [--rounds N] FILE..." >&2
    exit 2
fi
if ! [[ "$rounds" =~ ^[1-9][0-9]*$ ]]; then
    echo "bench-grade: --rounds wants a positive integer, got $rounds" >&2
    exit 2
fi
for f in "${files[@]}"; do
    [ -r "$f" ] || { echo "bench-grade: cannot read $f" >&2; exit 2; }
done

(cd "$root" && cargo build --release --quiet --example rate --bin sudoku-batch)
rate="$target/release/examples/rate"
ours="$target/release/sudoku-batch"

# The peer: a given binary, or one built once (again only when a source is newer).
skfr=""
if [ -n "${SKFR:-}" ]; then
    # An absolute path: skfr runs in the temporary directory.
    if [[ "$SKFR" == */* ]]; then
        skfr="$(cd "$(dirname "$SKFR")" && pwd)/$(basename "$SKFR")"
    else
        skfr="$(command -v "$SKFR" || true)"
    fi
    [ -n "$skfr" ] && [ -x "$skfr" ] ||
        { echo "bench-grade: SKFR=$SKFR is not an executable" >&2; exit 2; }
elif [ -f "$skfr_src/skfr.cpp" ] && command -v g++ >/dev/null; then
    skfr="$target/peers/skfr/skfr"
    stale=0
    [ -x "$skfr" ] || stale=1
    for s in "$skfr_src"/*.cpp "$skfr_src"/*.h; do
        if [ "$s" -nt "$skfr" ]; then stale=1; fi
    done
    if [ "$stale" = 1 ]; then
        echo "building skfr from $skfr_src..." >&2
        mkdir -p "$(dirname "$skfr")"
        (cd "$skfr_src" && g++ -O3 -march=native -w -o "$skfr" utilities.cpp opsudo.cpp \
            puzzle.cpp fsss.cpp t_128.cpp flog.cpp skfr.cpp ratingengine.cpp bitfields.cpp)
    fi
else
    echo "note: no skfr sources in $skfr_src (or no g++), and SKFR is not set: skipping the peer" >&2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# cpu_time CMD...: runs CMD (output discarded) and prints its user + system CPU seconds.
cpu_time() {
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f '%U %S' -o "$work/time" "$@" >/dev/null 2>&1 || return 1
        awk '{ printf "%.2f\n", $1 + $2 }' "$work/time"
    else
        # bash `times`: the second line is the children's user and system time.
        ( "$@" >/dev/null 2>&1 || exit 1; times ) | awk 'NR == 2 {
            split($1, u, /[ms]/); split($2, s, /[ms]/)
            printf "%.2f\n", u[1] * 60 + u[2] + s[1] * 60 + s[2] }'
    fi
}

median() { sort -g | awk '{ v[NR] = $1 } END {
    if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

rate_args=(--band-by ours --bands 2.0,4.5,6.5,9.0 --cpu-time --summary)
solve_args=(solve -j1)
if [ -n "${BUDGET:-}" ]; then
    rate_args+=(--budget "$BUDGET")
    solve_args+=(--grade-budget "$BUDGET")
fi

for f in "${files[@]}"; do
    # The band table: the file line, the totals and the table (agreement tables left out;
    # scripts/rating-agreement.sh prints them).
    "$rate" "${rate_args[@]}" "$f" | awk '
        /^== /           { print; keep = 0; next }
        /^  incomplete / { keep = 1 }
        keep'
    [ -n "$skfr" ] || continue

    # The same puzzles for both programs: the first field of each puzzle line.
    name=$(basename "$f"); name=${name%.*}; name=${name//[^A-Za-z0-9_-]/_}
    awk -F'[\t ,]' '!/^#/ && length($1) == 81 { print $1 }' "$f" > "$work/$name.txt"
    n=$(wc -l < "$work/$name.txt")
    ours_t=() skfr_t=()
    for r in $(seq 1 "$rounds"); do
        order=(ours skfr)
        if [ $((r % 2)) = 0 ]; then order=(skfr ours); fi
        for p in "${order[@]}"; do
            if [ "$p" = ours ]; then
                t=$(cpu_time "$ours" "${solve_args[@]}" "$work/$name.txt" -o /dev/null) ||
                    { echo "bench-grade: sudoku-batch solve failed on $f" >&2; exit 1; }
                ours_t+=("$t")
            else
                rm -f "$work/${name}_rat.txt" "$work/${name}_N_rat.txt"
                t=$(cd "$work" && cpu_time "$skfr" "-i$name") ||
                    { echo "bench-grade: skfr failed on $f" >&2; exit 1; }
                skfr_t+=("$t")
            fi
        done
    done
    rated=$(grep -c . "$work/${name}_rat.txt" 2>/dev/null || true)
    om=$(printf '%s\n' "${ours_t[@]}" | median)
    sm=$(printf '%s\n' "${skfr_t[@]}" | median)
    ratio=$(awk -v s="$sm" -v o="$om" 'BEGIN { if (o > 0) printf "%.2f", s / o; else print "-" }')
    echo "  whole process, CPU user+sys, $rounds rounds alternating, $n puzzles:"
    echo "    sudoku-batch ${solve_args[*]}: ${ours_t[*]} s, median $om s"
    echo "    skfr -i$name: ${skfr_t[*]} s, median $sm s (rated ${rated:-0} of $n)"
    echo "    skfr/ours: ${ratio}x"
done
