"""The straight lines of the board and their 5-cell windows.

A line runs from edge to edge in one of four directions; only lines of 5 or more cells
can hold a sequence. A window is 5 consecutive cells of one line.

>>> len(LINES), len(WINDOWS)
(42, 192)
>>> WINDOWS[0]
(0, 1, 2, 3, 4)
>>> len(windows_through(cell(4, 4)))
20
"""

from __future__ import annotations

from typing import Final

from referee.cells import CELLS, SIZE, Cell, cell

SEQUENCE_LENGTH: Final = 5
DIRECTIONS: Final = ((0, 1), (1, 0), (1, 1), (1, -1))  # row, column, diagonal, anti-diagonal


def _line_from(row: int, col: int, d_row: int, d_col: int) -> tuple[Cell, ...]:
    cells = []
    while 0 <= row < SIZE and 0 <= col < SIZE:
        cells.append(cell(row, col))
        row, col = row + d_row, col + d_col
    return tuple(cells)


def _all_lines() -> tuple[tuple[Cell, ...], ...]:
    lines = []
    for d_row, d_col in DIRECTIONS:
        for start in CELLS:
            row, col = divmod(start, SIZE)
            before_row, before_col = row - d_row, col - d_col
            if 0 <= before_row < SIZE and 0 <= before_col < SIZE:
                continue  # not the first cell of its line
            line = _line_from(row, col, d_row, d_col)
            if len(line) >= SEQUENCE_LENGTH:
                lines.append(line)
    return tuple(lines)


LINES: Final = _all_lines()
WINDOWS: Final = tuple(
    line[i : i + SEQUENCE_LENGTH] for line in LINES for i in range(len(line) - SEQUENCE_LENGTH + 1)
)
_WINDOWS_THROUGH: Final = {c: tuple(w for w in WINDOWS if c in w) for c in CELLS}


def windows_through(c: Cell) -> tuple[tuple[Cell, ...], ...]:
    """Every 5-cell window that contains cell ``c``."""
    return _WINDOWS_THROUGH[c]
