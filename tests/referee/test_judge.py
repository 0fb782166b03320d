import pytest

from referee.board import Board
from referee.cells import cell
from referee.judge import WarningKind, judge, removal, turn_order_allows

ROWS = ["#........#"] + ["." * 10] * 8 + ["#........#"]


def board_with(**rows: str) -> Board:
    grid = list(ROWS)
    for name, text in rows.items():
        grid[int(name[1:])] = text
    return Board.from_rows(grid)


def test_removal_of_an_unprotected_chip_is_legal():
    answer = removal(board_with(r3="..BBBB.G.."), cell(3, 2))
    assert answer.legal is True
    assert "one-eyed jack" in answer.reason


def test_removal_of_a_chip_in_a_sequence_is_illegal():
    answer = removal(board_with(r3="..BBBBB..."), cell(3, 4))
    assert answer.legal is False
    assert "completed sequence" in answer.reason


def test_removal_of_a_possibly_protected_chip_cannot_be_told():
    answer = removal(board_with(r3="..BBBBBB.."), cell(3, 2))
    assert answer.legal is None
    assert "which five" in answer.reason


@pytest.mark.parametrize(
    "where, words", [((0, 0), "corner"), ((5, 5), "no chip"), ((4, 4), "hidden")]
)
def test_removal_of_what_is_not_a_visible_chip(where, words):
    board = board_with(r4="....?.....")
    answer = removal(board, cell(*where))
    assert answer.legal in (False, None)
    assert words in answer.reason


def test_removal_next_to_hidden_cells_that_could_complete_a_sequence():
    answer = removal(board_with(r3="..BB?BB..."), cell(3, 2))
    assert answer.legal is None
    assert "Hidden" in answer.reason


def test_winner_needs_the_target_for_the_team_count():
    one_each = board_with(r2="BBBBB.....", r5="GGGGG.....")
    assert judge(one_each, 2).winner == ()
    three = board_with(r2="BBBBB.....", r5="GGGG......", r7="RRRR......")
    assert judge(three, 3).winner == ("B",)
    # red never wins a two-team game, whatever is read
    red = board_with(r2="RRRRR.....", r4="RRRRR.....", r6="BBBBB.....")
    verdict = judge(red, 2)
    assert verdict.winner == ()
    assert WarningKind.COLOUR_NOT_IN_GAME in {w.kind for w in verdict.warnings}


def test_too_many_chips_of_a_colour():
    grid = ["#BBBBBBBB#"] + ["BBBBBBBBBB"] * 4 + ["GGGGGGGGGG"] * 4 + ["#GGGGGGGG#"]
    kinds = {w.kind for w in judge(Board.from_rows(grid)).warnings}
    assert WarningKind.MORE_THAN_SUPPLY not in kinds  # 48 each fits a box
    grid[5] = "BBBBBBBBBB"
    kinds = {w.kind for w in judge(Board.from_rows(grid)).warnings}
    assert {WarningKind.TURN_ORDER, WarningKind.SEVERAL_WINNERS} <= kinds
    full_blue = ["#BBBBBBBB#"] + ["BBBBBBBBBB"] * 8 + ["#BBBBBBBB#"]
    kinds = {w.kind for w in judge(Board.from_rows(full_blue)).warnings}
    assert WarningKind.MORE_THAN_SUPPLY in kinds


@pytest.mark.parametrize(
    "counts, hidden, allowed",
    [
        ([4, 4], 0, True), ([5, 4], 0, True), ([4, 5], 0, True), ([6, 4], 0, False),
        ([6, 4], 1, True), ([9, 0], 3, False),
        ([3, 3, 3], 0, True), ([4, 3, 3], 0, True), ([4, 4, 3], 0, True),
        # a removal: green removed a red chip, so red shows one chip less
        ([4, 4, 2], 0, True),
        ([12, 2, 2], 0, False), ([12, 2, 2], 6, True),
        # many hidden cells may hold a whole team's chips
        ([25, 27, 0], 24, True), ([25, 27, 0], 20, False), ([30, 0], 29, True), ([30, 0], 28, False),
    ],
)
def test_turn_order(counts, hidden, allowed):
    assert turn_order_allows(counts, hidden) is allowed
