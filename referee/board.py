"""An immutable board position and its grid text form (../shared/DESIGN.md).

>>> rows = ["#........#", "..........", "..BBBBB...", "..........", "..........",
...         "..........", "..........", "......G...", "..........", "#........#"]
>>> board = Board.from_rows(rows)
>>> board[cell(2, 4)], board.count("B"), board.count("G")
('B', 5, 1)
>>> board.with_cell(cell(7, 6), EMPTY).count("G")
0
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from referee.cells import CELLS, CORNERS, SIZE, Cell, Team, cell, cell_col, cell_row
from referee.errors import GridError

CORNER_MARK = "#"
EMPTY = "."
UNKNOWN = "?"
CHIP_COLOURS = "BGR"
GRID_SYMBOLS = CORNER_MARK + EMPTY + UNKNOWN + CHIP_COLOURS


@dataclass(frozen=True, slots=True)
class Board:
    """A reading of the board: ``cells`` holds one grid symbol per cell, row 0 first."""

    cells: str

    def __post_init__(self) -> None:
        _check_cells(self.cells)

    @classmethod
    def empty(cls) -> Board:
        return cls("".join(CORNER_MARK if c in CORNERS else EMPTY for c in CELLS))

    @classmethod
    def parse(cls, text: str) -> Board:
        """Reads the grid text form: ten lines of ten symbols from ``#.BGR?``.

        Blank lines before and after and trailing spaces are ignored; anything else wrong
        raises ``GridError`` naming the line and column.
        """
        lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
        while lines and not lines[0]:
            lines.pop(0)
        while lines and not lines[-1]:
            lines.pop()
        for number, line in enumerate(lines[:SIZE], start=1):
            if len(line) != SIZE:
                column = min(len(line), SIZE) + 1
                raise GridError(f"a row has 10 symbols, this one has {len(line)}", number, column)
        if len(lines) != SIZE:
            raise GridError(f"a grid has 10 rows, this one has {len(lines)}", min(len(lines), SIZE) + 1)
        cells = "".join(lines)
        _check_cells(cells)
        return cls(cells)

    @classmethod
    def from_rows(cls, rows: list[str] | tuple[str, ...]) -> Board:
        return cls.parse("\n".join(rows))

    def __getitem__(self, c: Cell) -> str:
        return self.cells[c]

    def __str__(self) -> str:
        return "\n".join(self.rows())

    def rows(self) -> list[str]:
        return [self.cells[r * SIZE : (r + 1) * SIZE] for r in range(SIZE)]

    def with_cell(self, c: Cell, symbol: str) -> Board:
        return Board(self.cells[:c] + symbol + self.cells[c + 1 :])

    def chips(self, team: Team) -> tuple[Cell, ...]:
        return tuple(c for c in CELLS if self.cells[c] == team)

    def count(self, symbol: str) -> int:
        return self.cells.count(symbol)

    def unknown(self) -> tuple[Cell, ...]:
        return tuple(c for c in CELLS if self.cells[c] == UNKNOWN)

    def empty_cells(self) -> Iterator[Cell]:
        return (c for c in CELLS if self.cells[c] == EMPTY)

    def transformed(self, symmetry: int) -> Board:
        """The board under one of the 8 symmetries of the square (0 is the identity)."""
        return Board("".join(self.cells[symmetry_source(symmetry, c)] for c in CELLS))


def turned_cell(c: Cell, quarter_turns: int) -> Cell:
    """Where cell ``c`` lies on the board turned ``quarter_turns`` clockwise (``transformed``).

    >>> turned_cell(12, 1), turned_cell(12, 2), turned_cell(turned_cell(12, 1), 3)
    (28, 87, 12)
    """
    return symmetry_source((4 - quarter_turns) % 4, c)


def symmetry_source(symmetry: int, c: Cell) -> Cell:
    """Where cell ``c`` of the transformed board comes from, for symmetries 0-7:
    0-3 rotate by 90 degrees that many times, 4-7 mirror first."""
    row, col = cell_row(c), cell_col(c)
    if symmetry >= 4:
        col = SIZE - 1 - col
    for _ in range(symmetry % 4):
        row, col = SIZE - 1 - col, row
    return cell(row, col)


def _check_cells(cells: str) -> None:
    if len(cells) != SIZE * SIZE:
        raise GridError(f"a board has {SIZE * SIZE} cells, got {len(cells)}")
    for c, symbol in enumerate(cells):
        line, column = cell_row(c) + 1, cell_col(c) + 1
        if symbol not in GRID_SYMBOLS:
            raise GridError(f"{symbol!r} is not a grid symbol; use one of {GRID_SYMBOLS}", line, column)
        if (symbol == CORNER_MARK) != (c in CORNERS):
            expected = "a corner is written #" if c in CORNERS else "# marks only the four corners"
            raise GridError(f"{expected}, found {symbol!r}", line, column)
