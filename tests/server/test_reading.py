"""A player's correction outlives the photo it corrected: later readings keep it while they
still read the cell as the corrected photo did (or cannot see it), and drop it when the cell
reads otherwise (a move there)."""

from __future__ import annotations

from typing import Any

from referee.board import Board
from referee.cells import cell
from referee.judge import judge
from server.reading import corrected_reading, verdict_details, with_corrections

EMPTY_ROWS = ["#........#", *["." * 10] * 8, "#........#"]


def reading_of(rows: list[str]) -> dict[str, Any]:
    board = Board.from_rows(rows)
    verdict = judge(board, 2)
    return {"grid": board.rows(), "sequences": verdict.sequences, "winner": list(verdict.winner), "warnings": [],
            **verdict_details(verdict)}


def with_chip(rows: list[str], row: int, col: int, symbol: str) -> list[str]:
    return Board.from_rows(rows).with_cell(cell(row, col), symbol).rows()


MISREAD = with_chip(EMPTY_ROWS, 3, 3, "G")  # the photo shows a green chip where the table has none
FIXED, _, _ = corrected_reading(reading_of(MISREAD), cell(3, 3), ".")


def test_a_correction_remembers_what_the_photo_showed() -> None:
    assert FIXED["grid"][3][3] == "." and FIXED["corrected"] == [{"cell": [3, 3], "seen": "G"}]


def test_the_same_misreading_later_keeps_the_correction() -> None:
    later = with_corrections(FIXED, reading_of(with_chip(MISREAD, 5, 5, "B")))
    assert later["grid"][3][3] == "." and later["grid"][5][5] == "B"
    assert later["corrected"] == FIXED["corrected"]


def test_a_hidden_cell_keeps_the_correction() -> None:
    later = with_corrections(FIXED, reading_of(with_chip(MISREAD, 3, 3, "?")))
    assert later["grid"][3][3] == "."


def test_a_cell_that_reads_otherwise_drops_the_correction() -> None:
    later = with_corrections(FIXED, reading_of(with_chip(MISREAD, 3, 3, "B")))  # a blue chip played there
    assert later["grid"][3][3] == "B" and later.get("corrected", []) == []


def test_a_correction_is_judged_with_the_board() -> None:
    rows = EMPTY_ROWS
    for col in range(1, 5):
        rows = with_chip(rows, 2, col, "B")
    misread = with_chip(rows, 2, 5, "G")  # the fifth blue chip of a row read green
    fixed, _, _ = corrected_reading(reading_of(misread), cell(2, 5), "B")
    later = with_corrections(fixed, reading_of(with_chip(misread, 9, 4, "G")))
    assert reading_of(misread)["sequences"]["B"] == 0
    assert fixed["sequences"]["B"] == 1 and later["sequences"]["B"] == 1


def test_old_readings_with_bare_cells_keep_nothing() -> None:
    old = {**FIXED, "corrected": [[3, 3]]}
    later = with_corrections(old, reading_of(MISREAD))
    assert later["grid"][3][3] == "G"
