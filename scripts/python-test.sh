#!/usr/bin/env bash
# The Python package's test (part of .ci/run): builds the wheel with maturin (release, the
# `python` feature), installs it into a virtual environment under target/ together with
# the test dependencies (pytest, NumPy, pyarrow, polars, pandas: the package itself needs
# none of them), and runs the pytest suite in python/tests, which compares the package's
# results with the CLI's rows (so the CLI is built first).
#
#   scripts/python-test.sh [PYTEST ARGS...]
#
# PYTHON picks the interpreter that makes the environment (default: python3, >= 3.9).
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
VENV=target/py-venv
WHEELS=target/wheels

start=$(date +%s)
# The CLI the tests compare against (a no-op after `cargo test --release`).
cargo build --release --bin sudoku-batch

if [ ! -x "$VENV/bin/python" ]; then
    "$PYTHON" -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
    "maturin>=1.9.4,<2" "pytest>=7" numpy pyarrow polars pandas

rm -rf "$WHEELS"
"$VENV/bin/maturin" build --release --interpreter "$VENV/bin/python" --out "$WHEELS"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
    --force-reinstall --no-deps "$WHEELS"/sudoku_batch-*.whl

# From outside the source tree, so that `import sudoku_batch` is the installed wheel.
cd python/tests
"../../$VENV/bin/python" -m pytest -p no:cacheprovider -q "$@"
echo "python-test.sh: $(( $(date +%s) - start )) s"
