"""Type stubs of the extension module (src/python in the Rust crate). Use the package
``sudoku_batch``, which checks arguments and converts inputs before calling these."""

from typing import Any, List, Optional, Union

__version__: str
VARIANTS: List[str]
LEVELS: List[str]
SYMMETRIES: List[str]

class Table:
    """Rows of a batch function as Arrow record batches."""

    @property
    def num_rows(self) -> int: ...
    @property
    def column_names(self) -> List[str]: ...
    @property
    def grid_width(self) -> int: ...
    def __len__(self) -> int: ...
    def __arrow_c_schema__(self) -> object: ...
    def __arrow_c_stream__(self, requested_schema: Optional[object] = None) -> object: ...
    def column(self, name: str) -> List[Any]: ...
    def select(self, names: List[str]) -> "Table": ...
    def grid_values(self, name: str) -> bytearray: ...

class SolveResult:
    """What ``Solver.solve`` found: the fields of the row ``solve`` writes for the puzzle."""

    @property
    def status(self) -> str:
        """``solved``, ``multiple``, ``unsolvable`` or ``invalid``."""
    @property
    def puzzle(self) -> Optional[str]:
        """The puzzle on one line, ``.`` for blanks (``None`` if unreadable)."""
    @property
    def regions(self) -> Optional[str]:
        """Jigsaw: the region ids."""
    @property
    def solutions(self) -> Optional[int]:
        """Solutions counted, up to the limit."""
    @property
    def solution(self) -> Optional[str]:
        """The solution (for ``multiple``: the first one found)."""
    @property
    def guesses(self) -> Optional[int]:
        """Branching decisions the solver made."""
    @property
    def er(self) -> Optional[float]: ...
    @property
    def ep(self) -> Optional[float]: ...
    @property
    def ed(self) -> Optional[float]: ...
    @property
    def er_lower_bound(self) -> Optional[bool]: ...
    @property
    def ep_lower_bound(self) -> Optional[bool]: ...
    @property
    def ed_lower_bound(self) -> Optional[bool]: ...
    @property
    def level(self) -> Optional[str]: ...
    @property
    def hardest(self) -> Optional[str]: ...
    @property
    def error(self) -> Optional[str]:
        """Why the record is invalid."""
    @property
    def tail(self) -> Optional[str]:
        """Text after the cells."""

class Solver:
    """Solves one puzzle per call, reusing its scratch (for tight loops).

    ``Solver(variant="classic", *, grade=False, grade_budget=None)``; ``solve(puzzle,
    limit=2)`` takes one record (``str`` or ``bytes``, as one element of ``solve``'s input)
    and returns a :class:`SolveResult`. Plain solving keeps the GIL (microseconds); with
    ``grade=True`` the grading runs without it.
    """

    def __init__(
        self, variant: str = "classic", *, grade: bool = False, grade_budget: Optional[int] = None
    ) -> None: ...
    def solve(self, puzzle: Union[str, bytes], limit: int = 2) -> SolveResult: ...

def solve(argv: List[str], kind: str, data: object, size: int) -> Table: ...
def minimize(argv: List[str], kind: str, data: object, size: int) -> Table: ...
def generate(argv: List[str]) -> Table: ...
def explain(puzzle: str, argv: List[str]) -> str: ...
