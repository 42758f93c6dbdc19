"""solve and rate against the CLI's rows on the shared data files, every input kind, bad
records, and thread counts."""

from __future__ import annotations

import pytest

import sudoku_batch as sb

from conftest import DATA, cells_of, cli_rows, records, same_rows


@pytest.mark.parametrize(
    "name",
    ["17clue_200.txt", "random_minimal_200.txt", "serg_100.txt", "rated_exchange_60.tsv", "mixed.txt"],
)
def test_solve_rows_equal_the_cli(name):
    path = DATA / name
    recs = records(path)
    py = sb.solve([t for _, t in recs]).to_pylist()
    same_rows(py, cli_rows("solve", str(path)), [n for n, _ in recs])


def test_solve_hard_puzzles_graded_equal_the_cli():
    path = DATA / "top1465_100.txt"
    recs = records(path)
    py = sb.solve([t for _, t in recs], grade_budget=2_000_000).to_pylist()
    same_rows(py, cli_rows("solve", str(path), "--grade-budget", "2000000"), [n for n, _ in recs])


def test_solve_options_equal_the_cli():
    path = DATA / "serg_100.txt"
    recs = records(path)
    py = sb.solve([t for _, t in recs], limit=7, grade=False).to_pylist()
    same_rows(py, cli_rows("solve", str(path), "--limit", "7", "--no-grade"), [n for n, _ in recs])
    assert {r["solutions"] for r in py} == {7}


@pytest.mark.parametrize("variant", ["x", "windoku", "jigsaw"])
def test_variants_equal_the_cli(variant):
    path = DATA / "variants" / f"{variant}.txt"
    recs = records(path)
    py = sb.solve([t for _, t in recs], variant=variant).to_pylist()
    same_rows(py, cli_rows("solve", "--variant", variant, str(path)), [n for n, _ in recs])
    if variant == "jigsaw":
        assert all(r["regions"] for r in py)


def test_samurai_lines_and_cells_equal_the_cli(np):
    path = DATA / "samurai" / "lines.txt"
    recs = records(path)
    py = sb.solve([t for _, t in recs], variant="samurai", grade=False)
    same_rows(
        py.to_pylist(),
        cli_rows("solve", "--variant", "samurai", "--no-grade", str(path)),
        [n for n, _ in recs],
    )
    # The same puzzles as (N, 405) cell values: same rows but for the tail.
    raw = np.frombuffer("".join(t[:405] for _, t in recs).encode(), dtype=np.uint8)
    cells = np.where(raw == ord("."), 0, raw - ord("0")).astype(np.uint8).reshape(-1, 405)
    from_cells = sb.solve(cells, variant="samurai", grade=False)
    assert from_cells["solution"] == py["solution"]
    assert from_cells.solution_array().shape == (len(recs), 405)


def test_samurai_five_line_records_as_strings():
    path = DATA / "samurai" / "five_lines.txt"
    chunks = path.read_text().split("\n\n")
    recs = []
    for chunk in chunks:
        lines = [ln for ln in chunk.splitlines() if ln.strip() and not ln.startswith("#")]
        if lines:
            recs.append("\n".join(lines))
    py = sb.solve(recs, variant="samurai", grade=False).to_pylist()
    cli = cli_rows("solve", "--variant", "samurai", "--no-grade", str(path))
    assert len(py) == len(cli) == len(recs)
    for p, c in zip(py, cli):
        assert dict(p, line=None) == dict(c, line=None)


def block_of(puzzle: str, pretty: bool) -> str:
    rows = [puzzle[r * 9 : r * 9 + 9] for r in range(9)]
    if not pretty:
        return "\n".join(rows)
    out = []
    for r, row in enumerate(rows):
        out.append(f"{row[:3]} | {row[3:6]} | {row[6:]}")
        if r in (2, 5):
            out.append("------+-------+------")
    return "\n".join(out)


def test_grid_blocks_as_strings_equal_the_cli(tmp_path):
    puzzles = [t for _, t in records(DATA / "17clue_200.txt")][:6]
    blocks = [block_of(p, pretty=i % 2 == 0) for i, p in enumerate(puzzles)]
    # A damaged block: its last row is missing.
    blocks.append(block_of(puzzles[0], pretty=False).rsplit("\n", 1)[0])
    f = tmp_path / "blocks.txt"
    f.write_text("\n\n".join(blocks) + "\n")
    py = sb.solve(blocks).to_pylist()
    cli = cli_rows("solve", str(f))
    assert len(py) == len(cli) == len(blocks)
    for p, c in zip(py, cli):
        assert dict(p, line=None) == dict(c, line=None)
    assert py[-1]["status"] == "invalid"
    assert py[-1]["error"] == "grid block ends before its 9th row"
    assert [r["solution"] for r in py[:6]] == sb.solve(puzzles)["solution"]


def test_every_input_kind_gives_the_same_rows(np):
    import pandas
    import polars
    import pyarrow

    puzzles = [t for _, t in records(DATA / "random_minimal_200.txt")]
    want = sb.solve(puzzles, grade=False).to_pylist()
    cells = cells_of(np, puzzles)
    kinds = {
        "tuple": tuple(puzzles),
        "generator": (p for p in puzzles),
        "bytes": [p.encode() for p in puzzles],
        "numpy str": np.array(puzzles),
        "numpy bytes": np.array([p.encode() for p in puzzles]),
        "numpy object": np.array(puzzles, dtype=object),
        "pandas": pandas.Series(puzzles),
        "polars": polars.Series(puzzles),
        "pyarrow": pyarrow.array(puzzles),
        "cells uint8": cells,
        "cells 9x9": cells.reshape(-1, 9, 9),
        "cells int64": cells.astype(np.int64),
        "cells strided": np.asfortranarray(cells),
    }
    for kind, data in kinds.items():
        got = sb.solve(data, grade=False).to_pylist()
        assert got == want, kind


def test_graded_cells_equal_graded_strings(np):
    puzzles = [t.split()[0] for _, t in records(DATA / "rated_exchange_60.tsv")]
    a = sb.solve(puzzles).to_pylist()
    b = sb.solve(cells_of(np, puzzles)).to_pylist()
    assert a == b


def test_bad_records_are_invalid_rows_with_the_cli_reason(np):
    good = "4.2.........54..67...6.92..3.7....9....1.8....5....8.4..82.3...62..94.........9.5"
    inputs = [
        good,
        good[:80],
        good + "7",
        good[:16] + "x" + good[17:],
        good[:40] + "\x01" + good[41:],
        "44" + good[2:],
        good + " a tail",
    ]
    py = sb.solve(inputs, grade=False).to_pylist()
    cli = cli_rows("solve", "-", "--no-grade", stdin="\n".join(inputs).encode() + b"\n")
    assert [dict(r, line=None) for r in py] == [dict(r, line=None) for r in cli]
    assert [r["status"] for r in py] == ["solved"] + ["invalid"] * 5 + ["solved"]
    assert py[1]["error"] == "only 80 cells, expected 81"
    assert py[3]["error"] == "invalid character 'x'"
    assert py[4]["error"] == "invalid byte 0x01"
    assert py[5]["error"] == "digit 4 twice in row 1"
    assert py[6]["tail"] == "a tail"


def test_records_the_cli_would_skip_still_get_a_row(np):
    r = sb.solve(["", "   ", "# comment", "\r\n"], grade=False)
    assert r["status"] == ["invalid"] * 4
    assert set(r["error"]) == {"no puzzle: the string is empty, blank or a # comment"}
    assert r["line"] == [1, 2, 3, 4]
    cells = np.zeros((2, 81), dtype=np.uint8)
    cells[1, 5] = 10
    r = sb.solve(cells, grade=False)
    assert r["status"] == ["multiple", "invalid"]
    assert r["error"][1] == "cell value above 9 (0 is empty, 1-9 are digits)"


def test_empty_input_has_the_columns_and_no_rows(np):
    for empty in ([], np.zeros((0, 81), dtype=np.uint8), np.array([], dtype=str)):
        r = sb.solve(empty)
        assert len(r) == 0
        assert r.columns[:4] == ["line", "id", "puzzle", "status"]
        assert r.solution_array().shape == (0, 81)


def test_threads_do_not_change_the_rows():
    puzzles = [t for _, t in records(DATA / "top1465_100.txt")] * 3
    one = sb.solve(puzzles, threads=1, grade_budget=500_000).to_pylist()
    assert sb.solve(puzzles, grade_budget=500_000).to_pylist() == one
    assert sb.solve(puzzles, threads=2, grade_budget=500_000).to_pylist() == one


def test_rate_gives_the_published_ratings():
    recs = records(DATA / "rated_exchange_60.tsv")
    r = sb.rate([t.split("\t")[0] for _, t in recs])
    assert "solution" not in r.columns and "guesses" not in r.columns
    assert r.columns[:4] == ["line", "id", "puzzle", "status"]
    published = [tuple(float(x) for x in t.split("\t")[1:4]) for _, t in recs]
    assert list(zip(r["er"], r["ep"], r["ed"])) == published
    assert set(r["er_lower_bound"]) == {False}


def test_rate_with_the_profile_equals_solve_profile_of_the_cli():
    path = DATA / "top1465_100.txt"
    puzzles = [t for _, t in records(path)]
    r = sb.rate(puzzles, profile=True)
    h = r.columns
    assert h[h.index("hardest") + 1 : h.index("hardest") + 3] == ["steps", "techniques"]
    cli = cli_rows("solve", str(path), "--profile")
    for k in ("solutions", "solution", "guesses"):
        for row in cli:
            row.pop(k)
    assert r.to_pylist() == cli
    for row in r.to_pylist():
        counts = [int(e.rsplit(":", 1)[1]) for e in row["techniques"].split(";")]
        assert sum(counts) == row["steps"]
    with pytest.raises(ValueError):
        sb.solve(puzzles, grade=False, profile=True)


def test_rate_rows_are_solve_rows_without_the_solution_columns():
    recs = records(DATA / "mixed.txt")
    puzzles = [t for _, t in recs]
    rated = sb.rate(puzzles).to_pylist()
    solved = sb.solve(puzzles).to_pylist()
    for a, b in zip(rated, solved):
        for k in ("solutions", "solution", "guesses"):
            b.pop(k)
        assert a == b


def test_a_lower_bound_is_flagged_as_the_cli_marks_it():
    hard = [t for _, t in records(DATA / "hardest_100.txt")][:4]
    py = sb.solve(hard, grade_budget=2000).to_pylist()
    cli = cli_rows("solve", "-", "--grade-budget", "2000", stdin="\n".join(hard).encode())
    assert [dict(r, line=None) for r in py] == [dict(r, line=None) for r in cli]
    assert all(r["er_lower_bound"] for r in py)
