"""Arguments of the wrong type raise TypeError, bad values ValueError, with a message that
names the argument."""

from __future__ import annotations

import os
import signal
import threading

import pytest

import sudoku_batch as sb

P = "4.2.........54..67...6.92..3.7....9....1.8....5....8.4..82.3...62..94.........9.5"


@pytest.mark.parametrize(
    "puzzles, message",
    [
        (P, "not a single str"),
        (P.encode(), "not a single bytes"),
        (81, "not int"),
        ([P, 7], r"puzzles\[1\] is int"),
        ([P, None], "missing value"),
        ([float("nan")], "missing value"),
        ({"a": 1}.values(), r"puzzles\[0\] is int"),
    ],
)
def test_puzzles_of_the_wrong_type(puzzles, message):
    with pytest.raises(TypeError, match=message):
        sb.solve(puzzles)


def test_missing_values_in_a_series():
    import pandas

    with pytest.raises(TypeError, match="missing value"):
        sb.solve(pandas.Series([P, None]))


def test_arrays_of_the_wrong_shape_or_dtype(np):
    with pytest.raises(ValueError, match=r"shape \(N, 81\)"):
        sb.solve(np.zeros((3, 80), dtype=np.uint8))
    with pytest.raises(ValueError, match="reshape"):
        sb.solve(np.zeros(81, dtype=np.uint8))
    with pytest.raises(TypeError, match="float64"):
        sb.solve(np.zeros((3, 81)))
    with pytest.raises(ValueError, match="0 \\(empty\\) to 9"):
        sb.solve(np.full((1, 81), 300))
    with pytest.raises(ValueError, match="1-D"):
        sb.solve(np.array([[P, P]]))
    with pytest.raises(ValueError, match="405"):
        sb.solve(np.zeros((2, 81), dtype=np.uint8), variant="samurai")
    with pytest.raises(ValueError, match="regions"):
        sb.solve(np.zeros((2, 81), dtype=np.uint8), variant="jigsaw")


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"limit": 0}, ValueError, "limit must be at least 1"),
        ({"limit": "2"}, TypeError, "limit must be an int"),
        ({"limit": 2.0}, TypeError, "limit must be an int"),
        ({"limit": True}, TypeError, "limit must be an int"),
        ({"grade": "yes"}, TypeError, "grade must be True or False"),
        ({"grade_budget": 0}, ValueError, "grade_budget must be at least 1"),
        ({"variant": "sudoku"}, ValueError, "variant='sudoku' is not one of: classic"),
        ({"variant": None}, TypeError, "variant must be a str"),
        ({"threads": -1}, ValueError, "threads must be at least 0"),
        ({"threads": 1.5}, TypeError, "threads must be an int"),
    ],
)
def test_solve_arguments(kwargs, error, message):
    with pytest.raises(error, match=message):
        sb.solve([P], **kwargs)


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({}, TypeError, "seed"),
        ({"seed": -1}, ValueError, "seed must be at least 0"),
        ({"seed": 2**64}, ValueError, "seed must be at least 0 and at most"),
        ({"seed": 1, "level": "hardest"}, ValueError, "level='hardest' is not one of: easy"),
        ({"seed": 1, "symmetry": "spiral"}, ValueError, "symmetry='spiral'"),
        ({"seed": 1, "er": (9.0, 8.0)}, ValueError, "empty ER range"),
        ({"seed": 1, "er": (9.05, None)}, ValueError, "more than one decimal"),
        ({"seed": 1, "er": [1, 2, 3]}, ValueError, r"\(min, max\) pair"),
        ({"seed": 1, "er": object()}, TypeError, "er must be a number"),
        ({"seed": 1, "level": "hard", "er": 5.0}, ValueError, "cannot be used with"),
        ({"seed": 1, "level": "hard", "grade": False}, ValueError, "cannot be used with"),
        ({"seed": 1, "clues": (10, 12)}, ValueError, "fewer than 17 clues"),
        ({"seed": 1, "variant": "x", "clues": 25}, ValueError, "--clues is not supported"),
        ({"seed": 1, "regions": "123"}, ValueError, "needs --variant jigsaw"),
        ({"seed": 1, "variant": "jigsaw", "regions": "123"}, ValueError, "--regions"),
        ({"seed": 1, "max_attempts": 0}, ValueError, "max_attempts must be at least 1"),
        ({"seed": 1, "minimal": 1}, TypeError, "minimal must be True or False"),
    ],
)
def test_generate_arguments(kwargs, error, message):
    with pytest.raises(error, match=message):
        sb.generate(2, **kwargs)


def test_a_target_too_narrow_is_a_value_error_with_the_cli_message():
    with pytest.raises(ValueError, match="max-attempts"):
        sb.generate(1, seed=3, er=(11.5, None), max_attempts=2)


def test_explain_arguments():
    with pytest.raises(TypeError, match="puzzle must be a str"):
        sb.explain(42)
    with pytest.raises(ValueError, match="invalid puzzle"):
        sb.explain("not a puzzle")
    with pytest.raises(ValueError, match="several solutions"):
        sb.explain("." * 81)
    with pytest.raises(ValueError, match="breaks a rule"):
        sb.explain("11" + "." * 79)


def test_minimize_arguments():
    with pytest.raises(TypeError, match="not a single str"):
        sb.minimize(P)
    with pytest.raises(ValueError, match="variant="):
        sb.minimize([P], variant="killer")


def test_solver_arguments():
    with pytest.raises(TypeError):
        sb.Solver().solve(42)
    with pytest.raises(ValueError, match="limit must be at least 1"):
        sb.Solver().solve(P, limit=0)
    with pytest.raises(ValueError, match="invalid value 'killer'"):
        sb.Solver("killer")
    with pytest.raises(ValueError, match="grade_budget"):
        sb.Solver(grade=True, grade_budget=0)


def test_results_are_indexed_by_column_name():
    r = sb.solve([P], grade=False)
    with pytest.raises(KeyError, match="no column 'nope'; the columns are line, id"):
        r["nope"]
    with pytest.raises(TypeError, match="column name"):
        r[0]
    with pytest.raises(TypeError, match="not iterable"):
        list(r)


def test_ctrl_c_stops_a_long_run_with_keyboard_interrupt():
    # Python's own handler, even where SIGINT came ignored (a background job of a
    # non-interactive shell starts so, and Python then installs no handler).
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    # Far more work than the interrupt leaves time for (about 10 s on 2 cores): the run
    # must end with KeyboardInterrupt, not the puzzles.
    timer = threading.Timer(0.5, os.kill, args=(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            sb.generate(60, seed=1, level="extreme")
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
