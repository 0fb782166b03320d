from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from referee.board import Board
from referee.cells import cell
from referee.judge import removal
from server.reading import events_between, removal_json

# The winning sample's reading: blue's sequences run down column 7 (rows 2-6) and column 2
# (rows 4-8); green's on the diagonal from 0,8 to 4,4.


@pytest.mark.parametrize("row, col, legal, code, team", [
    (4, 7, False, "in_sequence", "B"),
    (1, 7, False, "in_sequence", "G"),
    (2, 3, True, "free", "B"),
    (0, 1, False, "no_chip", None),
    (0, 0, False, "corner", None),
])
def test_the_removal_answer_for_a_tapped_cell(client: TestClient, judged_table: dict, row: int, col: int,
                                              legal: bool, code: str, team: str | None) -> None:
    answer = client.get(f"/api/tables/{judged_table['id']}/removal", params={"row": row, "col": col}).json()
    assert (answer["legal"], answer["code"], answer["team"], answer["cell"]) == (legal, code, team, [row, col])
    assert answer["reason"]


def test_no_removal_answer_before_a_photo(client: TestClient, table: dict) -> None:
    response = client.get(f"/api/tables/{table['id']}/removal", params={"row": 1, "col": 1})
    assert response.status_code == 409 and response.json()["code"] == "no_photo_yet"


def test_a_cell_off_the_board_is_refused(client: TestClient, judged_table: dict) -> None:
    response = client.get(f"/api/tables/{judged_table['id']}/removal", params={"row": 10, "col": 0})
    assert response.status_code == 422 and response.json()["code"] == "invalid_request"


ROW_OF_SIX = ["#........#", "..........", "BBBBBB....", "..........", "..........",
              "..........", "..........", "..........", "..........", "#........#"]
HIDDEN_END = ["#........#", "..........", "BBBB?.....", "..........", "..........",
              "..........", "..........", "..........", "..........", "#........#"]


@pytest.mark.parametrize("rows, where, code, says", [
    (ROW_OF_SIX, cell(2, 0), "order_unknown", "which five"),
    (HIDDEN_END, cell(2, 0), "hidden_nearby", "Hidden cells"),
    (HIDDEN_END, cell(2, 4), "hidden_cell", "hidden in the photo"),
])
def test_the_cannot_tell_answers_get_their_own_codes(rows: list[str], where: int, code: str, says: str) -> None:
    board = Board.from_rows(rows)
    answer = removal_json(board, where)
    assert answer["legal"] is None and answer["code"] == code
    assert says in removal(board, where).reason  # the code names the referee's own case


@pytest.mark.parametrize("card, dead, cells", [
    ("8D", True, [[3, 7], [9, 6]]),
    ("2s", False, [[0, 1], [8, 6]]),
])
def test_a_card_shows_its_cells_and_whether_it_is_dead(client: TestClient, judged_table: dict, card: str,
                                                      dead: bool, cells: list) -> None:
    answer = client.get(f"/api/tables/{judged_table['id']}/cards/{card}").json()
    assert answer["dead"] is dead and answer["cells"] == cells and answer["jack"] is None


def test_jacks_are_not_on_the_board(client: TestClient, judged_table: dict) -> None:
    answer = client.get(f"/api/tables/{judged_table['id']}/cards/JS").json()
    assert answer["jack"] == "one_eyed" and answer["cells"] == [] and answer["dead"] is False


def test_a_bad_card_name_is_refused(client: TestClient, judged_table: dict) -> None:
    response = client.get(f"/api/tables/{judged_table['id']}/cards/ZZ")
    assert response.status_code == 422 and response.json()["code"] == "bad_card"


def test_a_placement_between_two_readings_is_an_event() -> None:
    before = Board.from_rows(ROW_OF_SIX)
    after = before.with_cell(cell(5, 5), "G")
    events = events_between(before, after, 2, t=1.0)
    assert [(e["type"], e["code"], e["team"], e["cell"]) for e in events] == [("placed", "placed", "G", [5, 5])]


def test_a_removed_protected_chip_is_a_violation() -> None:
    before = Board.from_rows(ROW_OF_SIX)
    after = before.with_cell(cell(2, 2), ".")
    codes = [e["code"] for e in events_between(before, after, 2, t=1.0)]
    assert "removed_illegal" in codes and "protected_removed" in codes


def test_chips_placed_over_several_turns_between_two_photos_are_told_not_called_a_violation() -> None:
    """Players photograph the board when they want a verdict, not after every turn."""
    before = Board.from_rows(ROW_OF_SIX).with_cell(cell(6, 6), "G")
    after = before.with_cell(cell(5, 5), "G").with_cell(cell(7, 7), "B").with_cell(cell(6, 6), "B")
    events = events_between(before, after, 2, t=1.0)
    assert [(e["type"], e["code"], e["team"], e["cell"]) for e in events] == [
        ("removed", "removed_since", "G", [6, 6]),
        ("placed", "placed_since", "G", [5, 5]), ("placed", "placed_since", "B", [6, 6]),
        ("placed", "placed_since", "B", [7, 7])]


def test_a_protected_chip_gone_between_two_photos_is_a_violation_however_many_turns_went_by() -> None:
    before = Board.from_rows(ROW_OF_SIX)
    after = before.with_cell(cell(2, 2), ".").with_cell(cell(5, 5), "G")
    events = events_between(before, after, 2, t=1.0)
    assert [(e["type"], e["code"], e["cell"]) for e in events] == [
        ("removed", "removed_since_illegal", [2, 2]), ("placed", "placed_since", [5, 5]),
        ("violation", "protected_removed", None)]
    assert events[-1]["cells"] == [[2, 2]]


def test_the_first_reading_has_no_move_only_sequences() -> None:
    events = events_between(None, Board.from_rows(ROW_OF_SIX), 2, t=1.0)
    assert [(e["type"], e["team"]) for e in events] == [("sequence", "B")]
    assert len(events[0]["cells"]) == 6
