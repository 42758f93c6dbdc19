#!/usr/bin/env bash
# A real browser pages through `explain --format html` (part of .ci/run): installs Debian's
# Chromium and ChromeDriver when they are missing, Selenium into target/browser-venv, makes
# the page of a puzzle whose hardest step is a forcing chain, and has headless Chromium
# open it from disk, page through the steps with the page's own buttons, keys and list,
# and check what it shows against `explain --format json` (scripts/browser_test.py).
# A screenshot of the chain step is left in target/browser-test/chain-step.png.
#
#   scripts/browser-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

start=$(date +%s)
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
    sudo=""
    if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq chromium chromium-driver >/dev/null
fi

VENV=target/browser-venv
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "selenium>=4.20,<5"

cargo build --release --bin sudoku-batch
out=target/browser-test
rm -rf "$out"
mkdir -p "$out"
# ER 7.2: its hardest step is a forcing chain (data/rated_exchange_60.tsv).
puzzle="4..5.3..2..28.67....3.9.6..6.......582.....61....................9.3.1..3.42.18.9"
target/release/sudoku-batch explain "$puzzle" --format html -o "$out/explain.html"
target/release/sudoku-batch explain "$puzzle" --format json -o "$out/explain.json"

# Selenium finds no driver of its own: it is told where Debian's is, and stays offline.
SE_OFFLINE=true "$VENV/bin/python" scripts/browser_test.py "$out"
echo "browser-test.sh: $(( $(date +%s) - start )) s"
