#!/usr/bin/env bash
# Makes the pictures README.md shows (docs/pictures/*.png): one rendered page per shape
# (`solve` rows of the puzzles in data/, drawn by `render`, four to a page, Samurai two)
# and one drawn chain step of `explain --format svg`. The SVGs are turned into PNG by
# rsvg-convert (Debian's librsvg2-bin, installed when missing).
#
#   scripts/readme-pictures.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v rsvg-convert >/dev/null; then
    sudo=""
    if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq librsvg2-bin >/dev/null
fi
cargo build --release --bin sudoku-batch
bin=target/release/sudoku-batch
work=target/readme-pictures
rm -rf "$work"
mkdir -p "$work" docs/pictures

page() { # shape file per-page title
    local shape=$1 file=$2 per=$3 title=$4
    awk -v n="$per" '!/^#/ { print; if (++k == n) exit }' "$file" > "$work/$shape.txt"
    "$bin" solve "$work/$shape.txt" --variant "$shape" -o "$work/$shape.csv" 2>/dev/null
    "$bin" render "$work/$shape.csv" --variant "$shape" --per-page "$per" \
        --title "$title" -o "$work/$shape.svg" -q
    rsvg-convert --width 900 --background-color white "$work/$shape.svg" \
        -o "docs/pictures/$shape.png"
}
page classic data/rated_exchange_60.tsv 4 "Classic"
page x data/variants/x.txt 4 "X Sudoku"
page windoku data/variants/windoku.txt 4 "Windoku"
page jigsaw data/variants/jigsaw.txt 4 "Jigsaw"
page samurai data/samurai/lines.txt 2 "Samurai"

# Step 19 of this ER 7.2 puzzle is a forcing chain of length 8.
puzzle="4..5.3..2..28.67....3.9.6..6.......582.....61....................9.3.1..3.42.18.9"
"$bin" explain "$puzzle" --format svg -o "$work/steps"
rsvg-convert --width 700 --background-color white "$work/steps/step-019.svg" \
    -o docs/pictures/chain-step.png
ls -l docs/pictures
