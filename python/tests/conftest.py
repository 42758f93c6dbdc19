"""Helpers shared by the tests: the CLI binary, its rows as typed values, the records of a
data file as the CLI reads them."""

from __future__ import annotations

import csv
import io
import os
import subprocess
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import pytest

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "data"
BIN = Path(os.environ.get("SUDOKU_BATCH_BIN", REPO / "target" / "release" / "sudoku-batch"))

INT_COLUMNS = {"line", "index", "solutions", "guesses", "clues", "steps"}
RATING_COLUMNS = ("er", "ep", "ed")


def run_cli(*args: str, stdin: Optional[bytes] = None) -> str:
    """Runs the CLI (quiet) and returns its standard output."""
    if not BIN.exists():
        pytest.fail(f"the CLI binary {BIN} is missing: run `cargo build --release` first")
    out = subprocess.run(
        [str(BIN), *args, "-q"] if args[0] != "explain" else [str(BIN), *args],
        input=stdin,
        capture_output=True,
        check=True,
    )
    return out.stdout.decode()


def typed(row: Dict[str, str]) -> Dict[str, Any]:
    """A CLI CSV row as the Python package gives it: integers, ratings as floats with a
    lower-bound flag, empty fields as None."""
    out: Dict[str, Any] = {}
    for k, v in row.items():
        if k in RATING_COLUMNS:
            continue
        if v == "":
            out[k] = None
        elif k in INT_COLUMNS:
            out[k] = int(v)
        else:
            out[k] = v
    for k in RATING_COLUMNS:
        if k not in row:
            continue
        v = row[k]
        if v == "":
            out[k], out[f"{k}_lower_bound"] = None, None
        elif v.startswith(">="):
            out[k], out[f"{k}_lower_bound"] = float(v[2:]), True
        else:
            out[k], out[f"{k}_lower_bound"] = float(v), False
    return out


def cli_rows(*args: str, stdin: Optional[bytes] = None) -> List[Dict[str, Any]]:
    """The CLI's CSV rows, typed."""
    text = run_cli(*args, stdin=stdin)
    return [typed(r) for r in csv.DictReader(io.StringIO(text, newline=""))]


def records(path: Path) -> List[Tuple[int, str]]:
    """The line records of a file as the CLI reads them: (line number, text) of every line
    that is not blank or a `#` comment; a trailing CR is kept (the package strips it as the
    CLI does)."""
    out = []
    raw = path.read_bytes()
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    for i, line in enumerate(raw.split(b"\n"), start=1):
        text = line.decode("utf-8", "surrogateescape")
        body = text.strip()
        if body and not body.startswith("#"):
            out.append((i, text))
    return out


def same_rows(py: List[Dict[str, Any]], cli: List[Dict[str, Any]], lines: List[int]) -> None:
    """Asserts that the package's rows equal the CLI's, row by row and column by column
    (the package numbers puzzles 1..N; the CLI's `line` is the file's line number)."""
    assert len(py) == len(cli) == len(lines)
    for i, (p, c) in enumerate(zip(py, cli)):
        assert p["line"] == i + 1
        assert c["line"] == lines[i]
        p = dict(p, line=None)
        c = dict(c, line=None)
        assert p == c, f"row {i + 1}"


@pytest.fixture(scope="session")
def np():
    import numpy

    return numpy


def cells_of(np: Any, puzzles: List[str]) -> Any:
    """Puzzles (81 characters, `.` or `0` for blanks) as a (N, 81) uint8 array."""
    raw = np.frombuffer("".join(p[:81] for p in puzzles).encode(), dtype=np.uint8)
    raw = raw.reshape(len(puzzles), 81)
    cells = (raw - ord("0")).astype(np.uint8)
    cells[raw == ord(".")] = 0
    return cells
