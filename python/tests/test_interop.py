"""Results through the Arrow PyCapsule interface into pyarrow, polars and pandas; grids
as NumPy arrays; the per-puzzle Solver."""

from __future__ import annotations

import pytest

import sudoku_batch as sb

from conftest import DATA, cells_of, records


@pytest.fixture(scope="module")
def results():
    recs = records(DATA / "mixed.txt") + records(DATA / "serg_100.txt")[:5]
    return sb.solve([t for _, t in recs])


def test_pyarrow_reads_the_rows_without_copying(results):
    import pyarrow as pa

    t = pa.table(results)
    assert t.column_names == results.columns
    assert t.to_pydict() == results.to_pydict()
    assert t.schema.field("line").type == pa.int64()
    assert t.schema.field("er").type == pa.float64()
    assert t.schema.field("er_lower_bound").type == pa.bool_()
    assert t.schema.field("solution").type == pa.string()
    assert pa.schema(results) == t.schema
    # Two imports share the extension's buffers: the data was not copied.
    a = pa.table(results).column("solution").chunk(0).buffers()[2]
    b = pa.table(results).column("solution").chunk(0).buffers()[2]
    assert a.address == b.address
    assert results.to_arrow().equals(t)
    # The buffers outlive the Results they came from.
    r = sb.solve(["." * 81], grade=False)
    t2 = pa.table(r)
    del r
    assert t2.column("status").to_pylist() == ["multiple"]


def test_polars_reads_the_rows(results):
    import polars as pl

    df = pl.DataFrame(results)
    assert df.columns == results.columns
    assert df.to_dict(as_series=False) == results.to_pydict()
    assert df.schema["guesses"] == pl.Int64
    assert df.schema["ed"] == pl.Float64
    assert results.to_polars().equals(df)
    unique_hard = df.filter((pl.col("status") == "solved") & (pl.col("er") >= 7.0))
    assert unique_hard.height == sum(
        1 for s, er in zip(results["status"], results["er"]) if s == "solved" and er >= 7.0
    )


def test_pandas_reads_the_rows(results):
    import pandas as pd

    df = results.to_pandas()
    assert list(df.columns) == results.columns
    assert len(df) == len(results)
    assert df["status"].tolist() == results["status"]
    solved = df[(df["status"] == "solved") & (df["er"] >= 7.0)]
    assert len(solved) == sum(
        1 for s, er in zip(results["status"], results["er"]) if s == "solved" and er >= 7.0
    )
    assert isinstance(df["er"].dtype, pd.ArrowDtype)
    via_arrow = results.to_arrow().to_pandas()
    assert via_arrow["line"].tolist() == results["line"]


def test_rows_and_columns_as_python_values(results):
    d = results.to_pydict()
    rows = results.to_pylist()
    assert len(rows) == len(results) == results.num_rows
    assert list(d) == results.columns
    assert rows[0] == {c: d[c][0] for c in results.columns}
    assert "status" in results and "nope" not in results
    assert "rows" in repr(results)


def test_grids_as_uint8_arrays(np):
    puzzles = [t for _, t in records(DATA / "17clue_200.txt")][:50] + ["x" * 81, "." * 81]
    r = sb.solve(puzzles, grade=False)
    sol = r.solution_array()
    assert sol.dtype == np.uint8 and sol.shape == (52, 81)
    for row, s in zip(sol, r["solution"]):
        if s is None:
            assert not row.any()
        else:
            assert "".join(map(str, row)) == s
    assert not sol[50].any()  # invalid: no solution
    assert sol[51].all()  # several solutions: the first one found
    given = cells_of(np, puzzles[:50])
    assert (r.grid_array("puzzle")[:50] == given).all()
    # Round trip: cells in, cells out.
    assert (sb.solve(given, grade=False).grid_array("puzzle") == given).all()
    sol[0, 0] = 0  # a writable array of its own
    assert r.solution_array()[0, 0] != 0


def test_the_solver_gives_the_row_of_solve():
    puzzles = [t for _, t in records(DATA / "mixed.txt")] + ["." * 81, "abc"]
    want = sb.solve(puzzles, grade=False).to_pylist()
    s = sb.Solver()
    for p, row in zip(puzzles, want):
        got = s.solve(p)
        for field in ("status", "puzzle", "solutions", "solution", "guesses", "error", "tail"):
            assert getattr(got, field) == row[field], (p, field)
        assert got.er is None and got.level is None
    assert s.solve(puzzles[0].encode()).solution == want[0]["solution"]
    first = s.solve("." * 81, limit=1)
    assert (first.status, first.solutions) == ("solved", 1)
    assert s.solve("." * 81, limit=5).solutions == 5


def test_a_grading_solver_rates_as_solve_does():
    recs = records(DATA / "rated_exchange_60.tsv")[:10]
    puzzles = [t.split("\t")[0] for _, t in recs]
    want = sb.solve(puzzles).to_pylist()
    s = sb.Solver(grade=True)
    for p, row in zip(puzzles, want):
        got = s.solve(p)
        for field in ("er", "ep", "ed", "er_lower_bound", "level", "hardest"):
            assert getattr(got, field) == row[field]
    assert "er=" in repr(s.solve(puzzles[0]))


@pytest.mark.parametrize("variant", ["x", "jigsaw", "samurai"])
def test_the_solver_on_variants(variant):
    path = DATA / ("samurai/lines.txt" if variant == "samurai" else f"variants/{variant}.txt")
    puzzles = [t for _, t in records(path)]
    want = sb.solve(puzzles, variant=variant, grade=False)
    s = sb.Solver(variant)
    assert [s.solve(p).solution for p in puzzles] == want["solution"]
    if variant == "jigsaw":
        assert [s.solve(p).regions for p in puzzles] == want["regions"]


def test_the_module_docstring_example_holds():
    import doctest

    failed, tried = doctest.testmod(sb, verbose=False)
    assert tried >= 3 and failed == 0
