"""The README's notebook examples (the Python blocks of its "Python" section that read
sudoku.csv), run on a small file in the Kaggle format."""

from __future__ import annotations

import re

import pytest

import sudoku_batch as sb

from conftest import DATA, REPO, records


def readme_blocks():
    text = (REPO / "README.md").read_text()
    section = text.split("\n## Python\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    return [b for b in blocks if "sudoku.csv" in b]


def kaggle_csv(path):
    """quizzes,solutions with 0 for blanks: hard and easy puzzles, a duplicate, and puzzles
    with several solutions (no solution column for those)."""
    hard = [t for _, t in records(DATA / "top1465_100.txt")][:12]
    easy = [t.split("\t")[0] for _, t in records(DATA / "rated_exchange_60.tsv")][:12]
    multi = [t for _, t in records(DATA / "serg_100.txt")][:3]
    puzzles = hard + easy + multi + hard[:2]
    solutions = sb.solve(puzzles, grade=False)["solution"]
    lines = ["quizzes,solutions"]
    for p, s in zip(puzzles, solutions):
        lines.append(f"{p.replace('.', '0')},{s if p not in multi else ''}")
    path.write_text("\n".join(lines) + "\n")
    return puzzles


def test_the_readme_has_both_examples():
    blocks = readme_blocks()
    assert len(blocks) == 2
    assert "import polars" in blocks[0] and "import pandas" in blocks[1]


@pytest.mark.parametrize("which", [0, 1])
def test_readme_example(which, tmp_path, monkeypatch):
    import pyarrow.parquet as pq

    puzzles = kaggle_csv(tmp_path / "sudoku.csv")
    monkeypatch.chdir(tmp_path)
    exec(compile(readme_blocks()[which], f"README block {which}", "exec"), {})
    got = pq.read_table(tmp_path / "hard.parquet").to_pylist()
    rated = sb.rate(puzzles).to_pylist()
    want, seen = [], set()
    for r in rated:
        if r["status"] == "solved" and r["er"] >= 7.0 and r["puzzle"] not in seen:
            seen.add(r["puzzle"])
            want.append({k: r[k] for k in ("puzzle", "er", "ep", "ed", "level", "hardest")})
    assert want, "the sample has puzzles with ER >= 7"
    assert [{k: g[k] for k in want[0]} for g in got] == want
