import pytest

from referee.board import Board, symmetry_source
from referee.cells import CORNERS, cell
from referee.errors import GridError

EMPTY_ROWS = ["#........#"] + ["." * 10] * 8 + ["#........#"]


def test_parse_and_print_round_trip():
    rows = list(EMPTY_ROWS)
    rows[3] = "..BG?R...."
    board = Board.from_rows(rows)
    assert str(board) == "\n".join(rows)
    assert Board.parse(str(board) + "\n\n") == board
    assert board[cell(3, 4)] == "?"
    assert board.unknown() == (cell(3, 4),)


def test_windows_line_endings_and_trailing_spaces_are_accepted():
    text = "\r\n".join(row + "  " for row in EMPTY_ROWS)
    assert Board.parse(text) == Board.empty()


@pytest.mark.parametrize(
    "row, replacement, line, column, words",
    [
        (4, "...X......", 5, 4, "not a grid symbol"),
        (0, ".........#", 1, 1, "corner is written #"),
        (2, "....#.....", 3, 5, "only the four corners"),
        (6, "........", 7, 9, "10 symbols"),
        (6, "b.........", 7, 1, "not a grid symbol"),
    ],
)
def test_malformed_grid_names_line_and_column(row, replacement, line, column, words):
    rows = list(EMPTY_ROWS)
    rows[row] = replacement
    with pytest.raises(GridError, match=words) as caught:
        Board.from_rows(rows)
    assert (caught.value.line, caught.value.column) == (line, column)
    assert f"line {line}, column {column}" in str(caught.value)


def test_wrong_number_of_rows():
    with pytest.raises(GridError, match="10 rows, this one has 9") as caught:
        Board.from_rows(EMPTY_ROWS[:9])
    assert caught.value.line == 10
    with pytest.raises(GridError, match="10 rows"):
        Board.parse("")


def test_board_is_immutable():
    board = Board.empty()
    with pytest.raises(AttributeError):
        board.cells = "x"  # type: ignore[misc]
    assert board.with_cell(55, "B") != board


def test_eight_symmetries_are_distinct_and_keep_corners():
    marked = Board.empty().with_cell(cell(1, 2), "B")
    images = {marked.transformed(s) for s in range(8)}
    assert len(images) == 8
    for s in range(8):
        assert {symmetry_source(s, c) for c in CORNERS} == set(CORNERS)
        assert sorted(symmetry_source(s, c) for c in range(100)) == list(range(100))
