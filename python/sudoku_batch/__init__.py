"""Process Sudoku puzzles in bulk, fast: the sudoku-batch engine in Python.

The batch functions take many puzzles at once -- a list of strings, any iterable of
strings, a NumPy array of strings, or a NumPy integer array of cell values of shape
(N, 81) (0 for an empty cell; (N, 9, 9) and, for Samurai, (N, 405) too) -- run on all
cores without holding the GIL, and return :class:`Results`: one row per puzzle, in input
order, with the columns of the ``sudoku-batch`` command line.

>>> import sudoku_batch as sb
>>> r = sb.solve(["4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"])
>>> r["status"], r["solution"][0][:9], r["er"], r["hardest"]
(['solved'], '468931527', [9.0], ['Dynamic forcing chains'])

A puzzle that cannot be read is a row with status ``invalid`` and the reason in ``error``,
as in the CLI; arguments of the wrong type raise ``TypeError``, bad values ``ValueError``.

:class:`Results` convert without copying to pyarrow, polars and pandas through the Arrow
PyCapsule interface (``pyarrow.table(r)``, ``polars.DataFrame(r)``, ``r.to_pandas()``).
For one puzzle at a time in a tight loop, use :class:`Solver`.
"""

from __future__ import annotations

import json
import numbers
import sys
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from . import _native
from ._native import SolveResult, Solver

if TYPE_CHECKING:  # pragma: no cover
    # Optional: for the annotations only (ignored where a package or its stubs are absent).
    import numpy  # type: ignore[import-not-found, unused-ignore]
    import pandas  # type: ignore[import-not-found, import-untyped, unused-ignore]
    import polars  # type: ignore[import-not-found, unused-ignore]
    import pyarrow  # type: ignore[import-not-found, import-untyped, unused-ignore]

__version__: str = _native.__version__

#: Grid shapes (``variant=``).
VARIANTS: Tuple[str, ...] = tuple(_native.VARIANTS)
#: Difficulty levels by ER (``generate(level=)``).
LEVELS: Tuple[str, ...] = tuple(_native.LEVELS)
#: Clue-pattern symmetries (``generate(symmetry=)``).
SYMMETRIES: Tuple[str, ...] = tuple(_native.SYMMETRIES)

__all__ = [
    "LEVELS",
    "SYMMETRIES",
    "VARIANTS",
    "Results",
    "SolveResult",
    "Solver",
    "explain",
    "generate",
    "minimize",
    "rate",
    "solve",
]

#: What the batch functions accept as puzzles.
Puzzles = Union[Iterable[Union[str, bytes]], "numpy.ndarray"]


class Results:
    """Rows of a batch function, one per puzzle, in input order.

    The columns are those of the CLI command, in its order (``line`` is the 1-based position
    of the puzzle). ``er``, ``ep`` and ``ed`` are floats; where the CLI writes a lower bound
    (``>=9.5``, the grading budget ran out), ``er_lower_bound`` (and ``ep_``, ``ed_``) is
    true: these boolean columns follow the CLI's columns. Empty fields are ``None``/null.

    Export: ``pyarrow.table(r)``, ``polars.DataFrame(r)`` (Arrow PyCapsule interface, no
    copy), :meth:`to_arrow`, :meth:`to_polars`, :meth:`to_pandas`. Without any of them:
    ``r["status"]`` (a list), :meth:`to_pydict`, :meth:`to_pylist`. Grids as NumPy arrays:
    :meth:`solution_array`, :meth:`grid_array`.
    """

    __slots__ = ("_table",)

    def __init__(self, table: _native.Table) -> None:
        self._table = table

    def __len__(self) -> int:
        return self._table.num_rows

    @property
    def num_rows(self) -> int:
        """Number of rows."""
        return self._table.num_rows

    @property
    def columns(self) -> List[str]:
        """Column names, in order."""
        return self._table.column_names

    def __arrow_c_stream__(self, requested_schema: Optional[object] = None) -> object:
        """The rows as an Arrow C stream PyCapsule (buffers shared, not copied)."""
        return self._table.__arrow_c_stream__(requested_schema)

    def __arrow_c_schema__(self) -> object:
        """The Arrow schema as a PyCapsule."""
        return self._table.__arrow_c_schema__()

    def column(self, name: str) -> List[Any]:
        """The values of column ``name`` as a list (``None`` for empty fields)."""
        return self._table.column(name)

    def __getitem__(self, name: str) -> List[Any]:
        if not isinstance(name, str):
            raise TypeError(
                f"index Results by column name (a str), not {type(name).__name__}; "
                "rows: to_pylist()"
            )
        return self._table.column(name)

    def __iter__(self) -> Any:
        raise TypeError(
            "Results is not iterable: use r[column], r.to_pylist() (rows as dicts) or "
            "r.to_pydict()"
        )

    def __contains__(self, name: object) -> bool:
        return name in self._table.column_names

    def to_pydict(self) -> Dict[str, List[Any]]:
        """All columns as a dict of lists."""
        return {c: self._table.column(c) for c in self._table.column_names}

    def to_pylist(self) -> List[Dict[str, Any]]:
        """All rows as a list of dicts."""
        d = self.to_pydict()
        names = list(d)
        return [dict(zip(names, row)) for row in zip(*(d[c] for c in names))]

    def grid_array(self, column: str = "solution") -> "numpy.ndarray":
        """Grid column ``column`` (``solution``, ``puzzle``, ``minimal``) as a NumPy
        ``uint8`` array of shape (N, 81) ((N, 405) for Samurai): 0 for an empty cell, 1-9
        for a digit; a row without a grid is all zeros. Needs NumPy."""
        np = _numpy("solution_array() and grid_array()")
        values = self._table.grid_values(column)
        grids: "numpy.ndarray" = np.frombuffer(values, dtype=np.uint8).reshape(
            self._table.num_rows, self._table.grid_width
        )
        return grids

    def solution_array(self) -> "numpy.ndarray":
        """The ``solution`` column as a (N, 81) ``uint8`` array (see :meth:`grid_array`)."""
        return self.grid_array("solution")

    def to_arrow(self) -> "pyarrow.Table":
        """A ``pyarrow.Table`` sharing the buffers (needs pyarrow)."""
        import pyarrow

        return pyarrow.table(self)

    def to_polars(self) -> "polars.DataFrame":
        """A ``polars.DataFrame`` (needs polars; imported through the Arrow C stream)."""
        import polars

        return polars.DataFrame(self)

    def to_pandas(self) -> "pandas.DataFrame":
        """A ``pandas.DataFrame`` with Arrow-backed columns sharing the buffers (needs
        pandas and pyarrow)."""
        import pandas

        df: "pandas.DataFrame" = self.to_arrow().to_pandas(types_mapper=pandas.ArrowDtype)
        return df

    def __repr__(self) -> str:
        return f"<sudoku_batch.Results: {self.num_rows} rows; columns {', '.join(self.columns)}>"


def _numpy(what: str) -> Any:
    try:
        import numpy
    except ImportError:  # pragma: no cover
        raise ImportError(f"{what} need NumPy: pip install numpy") from None
    return numpy


def _int(name: str, value: object, minimum: int, maximum: Optional[int] = None) -> str:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    v = int(value)
    if v < minimum or (maximum is not None and v > maximum):
        top = "" if maximum is None else f" and at most {maximum}"
        raise ValueError(f"{name} must be at least {minimum}{top}, not {v}")
    return str(v)


def _bool(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be True or False, not {type(value).__name__}")
    return value


def _choice(name: str, value: object, allowed: Tuple[str, ...]) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, not {type(value).__name__}")
    if value not in allowed:
        raise ValueError(f"{name}={value!r} is not one of: {', '.join(allowed)}")
    return value


def _threads(threads: object) -> List[str]:
    if threads is None:
        return ["-j", "0"]
    return ["-j", _int("threads", threads, 0)]


def _number(name: str, value: object) -> str:
    if name == "clues":
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise TypeError(f"clues bounds must be ints or None, not {type(value).__name__}")
        return str(int(value))
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} bounds must be numbers or None, not {type(value).__name__}")
    return repr(float(value))


def _range(name: str, value: object) -> str:
    """``er=`` / ``clues=``: a number (exactly that), a ``(min, max)`` pair (``None`` for an
    open end), or the CLI's ``MIN..MAX`` text."""
    if isinstance(value, str):
        return value
    if isinstance(value, (tuple, list)):
        if len(value) != 2:
            raise ValueError(f"{name} must be a (min, max) pair, not {len(value)} values")
        lo, hi = value
        if lo is None and hi is None:
            raise ValueError(f"{name} needs at least one end")
        a = "" if lo is None else _number(name, lo)
        b = "" if hi is None else _number(name, hi)
        return f"{a}..{b}"
    if name == "clues" and isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return str(int(value))
    if name == "er" and isinstance(value, numbers.Real) and not isinstance(value, bool):
        return repr(float(value))
    raise TypeError(
        f"{name} must be a number, a (min, max) pair or 'MIN..MAX' text, "
        f"not {type(value).__name__}"
    )


def _missing(x: object) -> str:
    return " (a missing value? drop or fill those first)" if x is None or (
        isinstance(x, float) and x != x
    ) else ""


def _each(items: List[Any]) -> List[bytes]:
    out = []
    for i, x in enumerate(items):
        if isinstance(x, str):
            out.append(x.encode("utf-8", "surrogatepass"))
        elif isinstance(x, (bytes, bytearray, memoryview)):
            out.append(bytes(x))
        else:
            raise TypeError(
                f"puzzles[{i}] is {type(x).__name__}, expected a str (or bytes){_missing(x)}"
            )
    return out


def _from_items(items: List[Any]) -> Tuple[str, object, int]:
    n = len(items)
    if n == 0:
        return ("lines", b"", 0)
    try:
        blob = "\n".join(items).encode("utf-8", "surrogatepass")
    except TypeError:
        try:
            blob = b"\n".join(items)
        except TypeError:
            return ("items", _each(items), n)
    if blob.count(b"\n") != n - 1:
        # Some puzzle holds a line break (a grid block): one bytes object each.
        return ("items", _each(items), n)
    return ("lines", blob, n)


def _from_array(np: Any, a: Any) -> Tuple[str, object, int]:
    kind = a.dtype.kind
    if kind in "USO":
        if a.ndim != 1:
            raise ValueError(
                f"a NumPy array of puzzle strings must be 1-D, not of shape {a.shape}"
            )
        return _from_items(a.tolist())
    if kind in "iu":
        if a.ndim == 3 and a.shape[1:] == (9, 9):
            a = a.reshape(a.shape[0], 81)
        if a.ndim != 2 or a.shape[1] not in (81, 405):
            hint = " (one puzzle: arr.reshape(1, -1))" if a.ndim == 1 else ""
            raise ValueError(
                "a cell array must have shape (N, 81) or (N, 9, 9) ((N, 405) for Samurai), "
                f"not {a.shape}{hint}"
            )
        if a.dtype != np.uint8:
            if a.size and (int(a.min()) < 0 or int(a.max()) > 255):
                raise ValueError(
                    "cell values must be 0 (empty) to 9; this array holds "
                    f"{int(a.min())} to {int(a.max())}"
                )
            a = a.astype(np.uint8)
        return ("cells", np.ascontiguousarray(a).tobytes(), int(a.shape[1]))
    raise TypeError(
        "a NumPy array of puzzles must hold strings, or integers (uint8 cell values, 0 for "
        f"empty), not {a.dtype}"
    )


def _input(puzzles: object) -> Tuple[str, object, int]:
    """The puzzles as the extension takes them: ``lines`` (joined by newlines), ``items``
    (one bytes object each) or ``cells`` (uint8 values)."""
    if isinstance(puzzles, (str, bytes, bytearray)):
        raise TypeError(
            f"puzzles must be a collection of puzzles, not a single {type(puzzles).__name__}: "
            "wrap one puzzle in a list, [puzzle]"
        )
    np = sys.modules.get("numpy")
    if np is not None and isinstance(puzzles, np.ndarray):
        return _from_array(np, puzzles)
    if isinstance(puzzles, list):
        items = puzzles
    elif callable(getattr(puzzles, "to_pylist", None)):
        # pyarrow arrays (whose iteration yields Arrow scalars, not str).
        items = list(getattr(puzzles, "to_pylist")())
    elif callable(getattr(puzzles, "to_list", None)):
        # pandas and polars series: a list of str in one call.
        items = list(getattr(puzzles, "to_list")())
    else:
        try:
            items = list(puzzles)  # type: ignore[call-overload]
        except TypeError:
            raise TypeError(
                "puzzles must be a list or iterable of strings, or a NumPy array, not "
                f"{type(puzzles).__name__}"
            ) from None
    return _from_items(items)


def solve(
    puzzles: Puzzles,
    *,
    limit: int = 2,
    grade: bool = True,
    grade_budget: Optional[int] = None,
    variant: str = "classic",
    threads: Optional[int] = None,
    profile: bool = False,
) -> Results:
    """Solve every puzzle: the rows of ``sudoku-batch solve``.

    Columns: ``line, id, puzzle, status, solutions, solution, guesses, er, ep, ed, level,
    hardest, error, tail`` (Jigsaw: ``regions`` after ``puzzle``), then
    ``er_lower_bound, ep_lower_bound, ed_lower_bound``.

    :param puzzles: strings (one record each: 81 cells and an optional tail, a grid block,
        a Jigsaw line, a Samurai record), or a NumPy integer array of cell values of shape
        (N, 81) or (N, 9, 9), 0 for empty.
    :param limit: count solutions up to this (2: "two or more"; 1 stops at the first).
    :param grade: rate unique puzzles on the Sudoku Explainer scale (``er``, ``ep``,
        ``ed``, ``level``, ``hardest``); ``False`` is much faster.
    :param grade_budget: work units per graded puzzle (default: the CLI's, about a second).
    :param variant: ``classic``, ``x``, ``windoku``, ``jigsaw`` or ``samurai``.
    :param threads: worker threads (``None`` or 0: all cores, or ``RAYON_NUM_THREADS``).
    :param profile: add the technique profile of each graded puzzle after ``hardest``:
        ``steps`` (int) and ``techniques`` (``"Hidden single:41;Pointing:2"``, every
        technique the grading path used with its steps, in Sudoku Explainer's order), as
        ``solve --profile``. Needs ``grade``.
    """
    argv = ["solve", "-", "--limit", _int("limit", limit, 1, 2**32 - 1)]
    argv += ["--variant", _choice("variant", variant, VARIANTS)] + _threads(threads)
    if not _bool("grade", grade):
        argv.append("--no-grade")
    if _bool("profile", profile):
        argv.append("--profile")
    if grade_budget is not None:
        argv += ["--grade-budget", _int("grade_budget", grade_budget, 1)]
    kind, data, size = _input(puzzles)
    return Results(_native.solve(argv, kind, data, size))


#: The columns of ``solve`` that ``rate`` leaves out.
_NOT_RATED = ("solutions", "solution", "guesses")


def rate(
    puzzles: Puzzles,
    *,
    grade_budget: Optional[int] = None,
    variant: str = "classic",
    threads: Optional[int] = None,
    profile: bool = False,
) -> Results:
    """Rate every puzzle on the Sudoku Explainer scale: ``solve`` with grading (uniqueness
    checked, limit 2), without the solution columns.

    Columns: ``line, id, puzzle, status, er, ep, ed, level, hardest, error, tail`` and
    the ``*_lower_bound`` flags. Only uniquely solvable puzzles are rated.

    :param profile: add ``steps`` and ``techniques`` after ``hardest`` (see :func:`solve`).
    """
    r = solve(
        puzzles,
        limit=2,
        grade=True,
        grade_budget=grade_budget,
        variant=variant,
        threads=threads,
        profile=profile,
    )
    keep = [c for c in r.columns if c not in _NOT_RATED]
    return Results(r._table.select(keep))


def generate(
    n: int,
    *,
    seed: int,
    level: Optional[str] = None,
    er: Union[float, Tuple[Optional[float], Optional[float]], str, None] = None,
    symmetry: Optional[str] = None,
    minimal: bool = False,
    variant: str = "classic",
    threads: Optional[int] = None,
    grade: bool = True,
    grade_budget: Optional[int] = None,
    clues: Union[int, Tuple[Optional[int], Optional[int]], str, None] = None,
    max_attempts: Optional[int] = None,
    regions: Optional[str] = None,
    technique: Union[str, Sequence[str], None] = None,
    hardest: Optional[str] = None,
    max_technique: Optional[str] = None,
    profile: bool = False,
) -> Results:
    """Generate ``n`` uniquely solvable puzzles: the same puzzles, byte for byte, as
    ``sudoku-batch generate -n N --seed SEED ...`` with the same arguments, for any
    ``threads``.

    Columns: ``index, puzzle, solution, clues, er, ep, ed, level, hardest, symmetry``
    (Jigsaw: ``regions`` after ``puzzle``), then the ``*_lower_bound`` flags.

    :param seed: the run's seed (puzzle ``i`` depends only on the seed, ``i`` and the
        targets).
    :param level: accept only puzzles of this level (see :data:`LEVELS`).
    :param er: accept only puzzles with ER in a range: ``(7.0, 8.5)``, ``(9.0, None)``,
        ``"9.0.."``, or a number for exactly that ER.
    :param symmetry: of the clue pattern (see :data:`SYMMETRIES`; ``None``: none).
    :param minimal: accept only minimal puzzles.
    :param grade: rate puzzles (needed by ``level`` and ``er``).
    :param clues: clue count range, as ``er``.
    :param max_attempts: candidates per puzzle before giving up with ``ValueError``.
    :param regions: Jigsaw: every puzzle on this layout (81 region ids 1-9).
    :param technique: accept only puzzles whose grading path uses each of these
        techniques (names as ``explain`` prints them, or short forms: ``"x-wing"``,
        ``"ur1"``, ``"bug1"``, ``"nishio"``...; a list, or one comma-separated str).
    :param hardest: accept only puzzles whose hardest step is this technique.
    :param max_technique: accept only puzzles that need nothing harder than this technique.
    :param profile: add ``steps`` and ``techniques`` after ``hardest`` (see :func:`solve`).
    """
    argv = ["generate", "-n", _int("n", n, 0), "--seed", _int("seed", seed, 0, 2**64 - 1)]
    argv += ["--variant", _choice("variant", variant, VARIANTS)] + _threads(threads)
    if level is not None:
        argv += ["--level", _choice("level", level, LEVELS)]
    if er is not None:
        argv += ["--er", _range("er", er)]
    if symmetry is not None:
        argv += ["--symmetry", _choice("symmetry", symmetry, SYMMETRIES)]
    if _bool("minimal", minimal):
        argv.append("--minimal")
    if not _bool("grade", grade):
        argv.append("--no-grade")
    if grade_budget is not None:
        argv += ["--grade-budget", _int("grade_budget", grade_budget, 1)]
    if clues is not None:
        argv += ["--clues", _range("clues", clues)]
    if max_attempts is not None:
        argv += ["--max-attempts", _int("max_attempts", max_attempts, 1)]
    if regions is not None:
        if not isinstance(regions, str):
            raise TypeError(f"regions must be a str, not {type(regions).__name__}")
        argv += ["--regions", regions]
    if technique is not None:
        names = [technique] if isinstance(technique, str) else list(technique)
        if not names or not all(isinstance(t, str) for t in names):
            raise TypeError("technique must be a str or a list of str")
        argv += ["--technique", ",".join(names)]
    for opt, value in (("hardest", hardest), ("max-technique", max_technique)):
        if value is not None:
            if not isinstance(value, str):
                raise TypeError(f"{opt.replace('-', '_')} must be a str, not {type(value).__name__}")
            argv += [f"--{opt}", value]
    if _bool("profile", profile):
        argv.append("--profile")
    return Results(_native.generate(argv))


def minimize(
    puzzles: Puzzles,
    *,
    variant: str = "classic",
    threads: Optional[int] = None,
) -> Results:
    """For every uniquely solvable puzzle, a minimal puzzle whose clues are a subset of its
    clues (same solution; deterministic): the rows of ``sudoku-batch minimize``.

    Columns: ``line, puzzle, minimal, clues, error`` (Jigsaw: ``regions`` after
    ``puzzle``).
    """
    argv = ["minimize", "-", "--variant", _choice("variant", variant, VARIANTS)]
    argv += _threads(threads)
    kind, data, size = _input(puzzles)
    return Results(_native.minimize(argv, kind, data, size))


def _one_line(puzzle: object) -> str:
    if isinstance(puzzle, str):
        return puzzle
    if isinstance(puzzle, (bytes, bytearray)):
        return bytes(puzzle).decode("utf-8", "replace")
    np = sys.modules.get("numpy")
    if np is not None and isinstance(puzzle, np.ndarray):
        kind, data, _ = _from_array(np, puzzle.reshape(1, -1) if puzzle.ndim <= 2 else puzzle)
        if kind == "cells" and isinstance(data, bytes):
            return "".join("." if v == 0 else chr(48 + v) if v <= 9 else "?" for v in data)
    raise TypeError(
        f"puzzle must be a str (one line: 81 cells), bytes or a NumPy cell array, not "
        f"{type(puzzle).__name__}"
    )


def explain(
    puzzle: Union[str, bytes, "numpy.ndarray"],
    *,
    variant: str = "classic",
    grade_budget: Optional[int] = None,
) -> Dict[str, Any]:
    """How ``puzzle`` is solved by human techniques: ``sudoku-batch explain --format json``
    as a dict.

    ``steps`` is the list of steps, each with its ``technique``, ``rating``, the
    ``placements`` and ``eliminations`` it makes, and its text; then ``er``, ``ep``,
    ``ed`` (with ``*_lower_bound``), ``level``, ``hardest``, ``outcome``.

    :param puzzle: one line (81 cells; a Jigsaw line with its region ids; 405 cells for
        Samurai), or a NumPy cell array of shape (81,) or (9, 9).
    :raises ValueError: the puzzle is unreadable, breaks a rule, or has no or several
        solutions.
    """
    argv = ["explain", "-", "--format", "json"]
    argv += ["--variant", _choice("variant", variant, VARIANTS)]
    if grade_budget is not None:
        argv += ["--grade-budget", _int("grade_budget", grade_budget, 1)]
    out: Dict[str, Any] = json.loads(_native.explain(_one_line(puzzle), argv))
    return out
