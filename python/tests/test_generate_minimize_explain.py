"""generate (the CLI's bytes for a seed), minimize and explain against the CLI."""

from __future__ import annotations

import json

import pytest

import sudoku_batch as sb

from conftest import DATA, cli_rows, records, run_cli, same_rows


@pytest.mark.parametrize(
    "kwargs, flags",
    [
        ({"seed": 7}, []),
        ({"seed": 11, "grade": False, "symmetry": "rot180"}, ["--no-grade", "--symmetry", "rot180"]),
        ({"seed": 3, "symmetry": "random", "minimal": True}, ["--symmetry", "random", "--minimal"]),
        ({"seed": 5, "level": "hard"}, ["--level", "hard"]),
        ({"seed": 5, "er": (2.0, 4.0)}, ["--er", "2.0..4.0"]),
        ({"seed": 9, "clues": (26, None), "grade": False}, ["--clues", "26..", "--no-grade"]),
        ({"seed": 2, "variant": "x", "grade": False}, ["--variant", "x", "--no-grade"]),
        ({"seed": 2, "variant": "jigsaw", "grade": False}, ["--variant", "jigsaw", "--no-grade"]),
        ({"seed": 4, "variant": "samurai", "grade": False}, ["--variant", "samurai", "--no-grade"]),
        ({"seed": 1, "hardest": "x-wing", "profile": True}, ["--hardest", "x-wing", "--profile"]),
        (
            {"seed": 2, "technique": ["naked pair", "Pointing"], "max_technique": "xy-wing"},
            ["--technique", "naked pair,Pointing", "--max-technique", "xy-wing"],
        ),
        (
            {"seed": 3, "variant": "x", "technique": "hidden pair", "profile": True},
            ["--variant", "x", "--technique", "hidden pair", "--profile"],
        ),
    ],
)
def test_generate_equals_the_cli(kwargs, flags):
    n = 3 if kwargs.get("variant") == "samurai" else 12
    py = sb.generate(n, **kwargs).to_pylist()
    cli = cli_rows("generate", "-n", str(n), "--seed", str(kwargs["seed"]), *flags)
    assert py == cli
    assert [r["index"] for r in py] == list(range(n))


def test_generate_is_the_same_for_any_thread_count():
    one = sb.generate(40, seed=123, threads=1).to_pylist()
    assert sb.generate(40, seed=123, threads=2).to_pylist() == one
    assert sb.generate(40, seed=123).to_pylist() == one
    assert sb.generate(40, seed=124).to_pylist() != one


def test_generated_puzzles_solve_back_to_their_solution(np):
    g = sb.generate(20, seed=99)
    s = sb.solve(g["puzzle"])
    assert s["status"] == ["solved"] * 20
    assert s["solution"] == g["solution"]
    assert s["er"] == g["er"]
    assert (s.solution_array() == g.solution_array()).all()


@pytest.mark.parametrize("name", ["top1465_100.txt", "serg_100.txt", "mixed.txt"])
def test_minimize_equals_the_cli(name):
    path = DATA / name
    recs = records(path)
    py = sb.minimize([t for _, t in recs]).to_pylist()
    same_rows(py, cli_rows("minimize", str(path)), [n for n, _ in recs])


def test_minimize_threads_and_cells(np):
    from conftest import cells_of

    # Non-minimal puzzles: generated ones with ten clues of their solution added.
    g = sb.generate(30, seed=5, grade=False)
    puzzles = []
    for p, s in zip(g["puzzle"], g["solution"]):
        cells = list(p)
        blanks = [i for i, c in enumerate(cells) if c == "."][:10]
        for i in blanks:
            cells[i] = s[i]
        puzzles.append("".join(cells))
    one = sb.minimize(puzzles, threads=1)
    assert sb.minimize(puzzles).to_pylist() == one.to_pylist()
    assert sb.minimize(cells_of(np, puzzles)).to_pylist() == one.to_pylist()
    # No padded puzzle is minimal (its added clues follow from the others).
    assert all(c < 81 - p.count(".") for c, p in zip(one["clues"], puzzles))
    again = sb.minimize(one["minimal"])
    assert again["minimal"] == one["minimal"]


@pytest.mark.parametrize("line", [1, 2, 40])
def test_explain_equals_the_cli_json(line):
    puzzle = records(DATA / "rated_exchange_60.tsv")[line - 1][1].split("\t")[0]
    want = json.loads(run_cli("explain", puzzle, "--format", "json"))
    got = sb.explain(puzzle)
    assert got == want
    step = got["steps"][0]
    assert {"technique", "rating", "placements", "eliminations", "text"} <= set(step)


def test_explain_of_a_variant_and_a_cell_array(np):
    puzzle = records(DATA / "variants" / "x.txt")[0][1].split()[0]
    want = json.loads(run_cli("explain", puzzle, "--format", "json", "--variant", "x"))
    assert sb.explain(puzzle, variant="x") == want
    from conftest import cells_of

    cells = cells_of(np, [puzzle])[0]
    assert sb.explain(cells, variant="x") == want
    assert sb.explain(cells.reshape(9, 9), variant="x") == want


def test_explain_with_a_small_budget_marks_lower_bounds():
    puzzle = records(DATA / "hardest_100.txt")[0][1]
    want = json.loads(run_cli("explain", puzzle, "--format", "json", "--grade-budget", "5000"))
    got = sb.explain(puzzle, grade_budget=5000)
    assert got == want
    assert got["er_lower_bound"] is True


def test_technique_targets_check_their_arguments():
    with pytest.raises(ValueError, match="unknown technique 'frobnicate'"):
        sb.generate(1, seed=1, hardest="frobnicate")
    with pytest.raises(ValueError, match="no puzzle can meet these targets"):
        sb.generate(1, seed=1, hardest="x-wing", level="fiendish")
    with pytest.raises(TypeError):
        sb.generate(1, seed=1, hardest=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        sb.generate(1, seed=1, technique=[1])  # type: ignore[list-item]
