"""The live referee follows a game from board readings alone."""

from __future__ import annotations

import numpy as np
import pytest

from referee.board import Board
from referee.bots import play_game
from referee.cells import ONE_EYED_JACKS, cell
from referee.errors import CorrectionError
from referee.game import Game, Play
from referee.live import LiveReferee
from referee.record import record_of


def _boards_and_truth(seed: int, players: int) -> tuple[list[Board], list[list[str]], Game]:
    """The board after every play of a bot game, and the event types each play should give."""
    rng = np.random.default_rng(seed)
    game = play_game(Game.new(players, rng), rng)
    record = record_of(game)
    replayed = Game(record.setup)
    boards, truth = [], []
    for entry in record.entries:
        claimed = len(replayed.sequences())
        replayed.apply(entry.action, entry.reshuffle)
        if isinstance(entry.action, Play):
            boards.append(replayed.board())
            truth.append(["removed" if entry.action.card in ONE_EYED_JACKS else "placed"])
        if len(replayed.sequences()) > claimed:
            truth[-1] += ["sequence"] * (len(replayed.sequences()) - claimed)
            if replayed.winner is not None:
                truth[-1].append("winner")
    return boards, truth, replayed


@pytest.mark.parametrize("seed, players", [(1, 2), (2, 3), (1, 4), (4, 2)])  # games with no pass: a camera cannot see one
def test_a_legal_game_gives_its_moves_and_no_violation(seed: int, players: int) -> None:
    boards, truth, game = _boards_and_truth(seed, players)
    live = LiveReferee(game.setup.teams, Board.empty())
    for board, expected in zip(boards, truth):
        events = live.observe(board)
        assert [e.type for e in events] == expected, [e.detail for e in events]
    assert live.winner == game.winner


def _board(*chips: tuple[int, int, str]) -> Board:
    board = Board.empty()
    for r, c, team in chips:
        board = board.with_cell(cell(r, c), team)
    return board


def _codes(events: list) -> list[str]:
    return [e.detail.split(":")[0] for e in events if e.type == "violation"]


def test_a_protected_chip_removed_is_a_violation() -> None:
    row = [(0, c, "B") for c in range(1, 5)]
    live = LiveReferee(2, _board(*row[:3], (5, 5, "G")))
    live.observe(_board(*row, (5, 5, "G")))  # blue completes corner + 4
    events = live.observe(_board(*row[:3], (5, 5, "G")))
    assert _codes(events) == ["protected_removed"]


def test_two_chips_at_once_out_of_turn_and_colour_change() -> None:
    live = LiveReferee(2, Board.empty())
    live.observe(_board((4, 4, "B")))
    assert _codes(live.observe(_board((4, 4, "B"), (1, 1, "G"), (2, 2, "G")))) == ["several_placed"]
    live = LiveReferee(2, Board.empty())
    live.observe(_board((4, 4, "B")))
    assert _codes(live.observe(_board((4, 4, "B"), (1, 1, "B")))) == ["out_of_turn"]
    assert _codes(live.observe(_board((4, 4, "G"), (1, 1, "B")))) == ["colour_changed"]


def test_the_cell_cleared_this_turn_cannot_be_retaken() -> None:
    live = LiveReferee(2, _board((4, 4, "B"), (5, 5, "G")))
    live.observe(_board((4, 4, "B"), (5, 5, "G"), (6, 6, "B")))  # blue; green to play
    live.observe(_board((5, 5, "G"), (6, 6, "B")))  # green removes a blue chip
    codes = _codes(live.observe(_board((4, 4, "G"), (5, 5, "G"), (6, 6, "B"))))
    assert "cleared_cell_retaken" in codes


def test_hidden_cells_change_nothing() -> None:
    live = LiveReferee(2, _board((4, 4, "B")))
    hidden = Board("".join("?" if i in (44, 45) else s for i, s in enumerate(_board((4, 4, "B")).cells)))
    assert live.observe(hidden) == []
    assert live.board == _board((4, 4, "B"))


def test_a_game_joined_late_counts_the_sequences_already_on_the_board() -> None:
    row = [(0, c, "B") for c in range(1, 5)]
    column = [(r, 9, "B") for r in range(1, 4)]
    live = LiveReferee(2, _board(*row, *column))
    events = live.observe(_board(*row, *column, (4, 9, "B")))
    assert [e.type for e in events] == ["placed", "sequence", "winner"]


def test_a_run_of_eight_seen_when_joining_and_made_nine_at_its_guessed_end_is_two_sequences() -> None:
    run = [(2, c, "B") for c in range(1, 9)]
    live = LiveReferee(2, _board(*run, (5, 5, "G"), (6, 6, "G")))
    assert live.winner is None
    events = live.observe(_board(*run, (5, 5, "G"), (6, 6, "G"), (2, 9, "B")))
    assert [e.type for e in events] == ["placed", "sequence", "winner"]
    assert {cell(2, c) for c in range(1, 10)} <= live.protected


def test_a_run_of_eight_seen_when_joining_and_made_nine_at_the_other_end_asks_the_players() -> None:
    """Whether the ninth chip makes a second sequence depends on which five the players took
    before the game was followed: at the far end it does (rendered game 20261219/2), in the
    middle it does not (bench game 7). The players choose; no winner is guessed."""
    run = [(2, c, "B") for c in range(1, 9)]
    board = _board(*run, (5, 5, "G"), (6, 6, "G"), (2, 0, "B"))
    live = LiveReferee(2, _board(*run, (5, 5, "G"), (6, 6, "G")))
    events = live.observe(board)
    assert [e.type for e in events] == ["placed", "sequence_possible"] and live.winner is None
    assert events[1].options == (((21, 22, 23, 24, 25),), ((24, 25, 26, 27, 28), (20, 21, 22, 23, 24)))
    chose = live.choose(2)
    assert [e.type for e in chose] == ["choose", "sequence", "sequence", "winner"] and live.winner == "B"
    assert {cell(2, c) for c in range(0, 9)} <= live.protected
    assert [e.type for e in live.choose(1)] == ["choose", "sequence", "winner_undone"] and live.winner is None
    assert [e.type for e in live.undo()] == ["undo"] and live.winner == "B"


def test_a_chip_on_the_line_of_a_sequence_seen_when_joining_asks_nothing_when_it_makes_none() -> None:
    row, column = [(0, c, "B") for c in range(1, 5)], [(r, 9, "B") for r in range(1, 5)]
    live = LiveReferee(2, _board(*row, *column, *[(5 + r, c, "G") for r in range(3) for c in range(2)]))
    events = live.observe(_board(*row, *column, *[(5 + r, c, "G") for r in range(3) for c in range(2)], (0, 7, "B")))
    assert [e.type for e in events] == ["placed"] and live.choice is None


def test_a_run_seen_when_joining_is_not_made_two_sequences_by_a_chip_beside_it() -> None:
    run = [(2, c, "B") for c in range(1, 7)]
    live = LiveReferee(2, _board(*run, (5, 5, "G"), (6, 6, "G")))
    events = live.observe(_board(*run, (5, 5, "G"), (6, 6, "G"), (2, 7, "B")))
    assert [e.type for e in events] == ["placed"] and len(live.claimed) == 1


def test_a_sequence_hidden_in_the_first_reading_counts_once_it_shows() -> None:
    """A hand over the board when the game was joined: the chip it hid completed a sequence
    before anyone watched, so it shows with no event, and the team's next sequence wins."""
    row = [(0, c, "B") for c in range(1, 5)]
    column = [(r, 9, "B") for r in range(1, 4)]
    live = LiveReferee(2, _board(*row[:3], *column, (5, 5, "G")).with_cell(cell(0, 4), "?"))
    assert live.observe(_board(*row, *column, (5, 5, "G"))) == []
    assert cell(0, 2) in live.protected
    events = live.observe(_board(*row, *column, (5, 5, "G"), (4, 9, "B")))
    assert [e.type for e in events] == ["placed", "sequence", "winner"]
    assert live.winner == "B"


def test_a_chip_shown_where_several_windows_fit_protects_only_the_chips_in_every_one() -> None:
    row = [(0, c, "B") for c in range(1, 6)]
    live = LiveReferee(2, _board(*row[:2], *row[3:], (5, 5, "G")).with_cell(cell(0, 3), "?"))
    assert live.observe(_board(*row, (5, 5, "G"))) == []
    assert {cell(0, c) for c in range(1, 6)} & live.protected == {cell(0, c) for c in range(1, 5)}


def test_after_losing_track_nobody_is_out_of_turn() -> None:
    live = LiveReferee(2, Board.empty())
    live.observe(_board((4, 4, "B")))
    live.lose_track()  # green's move may have gone unseen
    assert _codes(live.observe(_board((4, 4, "B"), (1, 1, "B")))) == []
    assert _codes(live.observe(_board((4, 4, "B"), (1, 1, "B"), (2, 2, "B")))) == ["out_of_turn"]


@pytest.mark.parametrize("unread", [True, False])
def test_an_empty_cell_that_can_no_longer_be_read_leaves_the_turn_unknown(unread: bool) -> None:
    """A chip the camera cannot make out (glare) may have been green's move: blue playing next
    is not called out of turn; with the cell read empty, blue is."""
    live = LiveReferee(2, Board.empty())
    live.observe(_board((4, 4, "B")))
    doubt = _board((4, 4, "B")).with_cell(cell(6, 6), "?" if unread else ".")
    assert live.observe(doubt) == []
    codes = _codes(live.observe(doubt.with_cell(cell(1, 1), "B")))
    assert codes == ([] if unread else ["out_of_turn"])
    # the turn is known again from the chip placed: blue again is out of turn
    assert _codes(live.observe(doubt.with_cell(cell(1, 1), "B").with_cell(cell(2, 2), "B"))) == ["out_of_turn"]


def test_a_chip_seen_late_where_the_cell_could_not_be_read_leaves_the_turn_unknown() -> None:
    live = LiveReferee(2, Board.empty())
    live.observe(_board((4, 4, "B")))
    live.observe(_board((4, 4, "B")).with_cell(cell(6, 6), "?"))
    live.observe(_board((4, 4, "B"), (7, 7, "B")).with_cell(cell(6, 6), "?"))  # blue, read as its turn
    late = live.observe(_board((4, 4, "B"), (7, 7, "B"), (6, 6, "G")))  # green's chip, made out at last
    assert [(e.type, e.team) for e in late] == [("placed", "G")]
    assert _codes(live.observe(_board((4, 4, "B"), (7, 7, "B"), (6, 6, "G"), (8, 8, "G")))) == []


def test_moves_made_while_the_board_was_out_of_view_are_told_not_called_violations() -> None:
    live = LiveReferee(2, _board((4, 4, "B"), (5, 5, "G")))
    live.lose_track()  # several turns may go by unseen
    events = live.observe(_board((4, 4, "B"), (1, 1, "G"), (2, 2, "B"), (3, 3, "G")))  # and a jack took 5,5
    assert [(e.type, e.team, e.cell) for e in events] == [
        ("removed", "G", cell(5, 5)), ("placed", "G", cell(1, 1)), ("placed", "B", cell(2, 2)),
        ("placed", "G", cell(3, 3))]
    assert all("out of view" in e.detail for e in events)
    # back in view: two chips at once are a violation again
    assert _codes(live.observe(_board((4, 4, "B"), (1, 1, "G"), (2, 2, "B"), (3, 3, "G"), (6, 6, "B"),
                                      (7, 7, "B")))) == ["several_placed"]


def test_a_cell_unknown_before_the_board_went_out_of_view_is_not_told_as_a_move_when_it_shows_a_chip() -> None:
    """It held that chip all along, for all anyone knew: as for one move seen (``infer_move``)."""
    live = LiveReferee(2, _board((4, 4, "B")).with_cell(cell(6, 6), "?"))
    live.lose_track()
    events = live.observe(_board((4, 4, "B"), (6, 6, "G"), (1, 1, "G"), (2, 2, "B")))
    assert [(e.type, e.team, e.cell) for e in events] == [("placed", "G", cell(1, 1)), ("placed", "B", cell(2, 2))]
    assert live.board[cell(6, 6)] == "G"


def test_a_protected_chip_gone_while_out_of_view_is_still_a_violation() -> None:
    row = [(0, c, "B") for c in range(1, 5)]
    live = LiveReferee(2, _board(*row[:3], (5, 5, "G")))
    live.observe(_board(*row, (5, 5, "G")))  # blue completes corner + 4
    live.lose_track()
    assert "protected_removed" in _codes(live.observe(_board(*row[:3], (5, 5, "G"), (6, 6, "G"))))


def test_undo_takes_back_a_move_and_its_sequence() -> None:
    row = [(0, c, "B") for c in range(1, 5)]
    live = LiveReferee(2, _board(*row[:3], (5, 5, "G")))
    before = live.board
    events = live.observe(_board(*row, (5, 5, "G")))
    assert [e.type for e in events] == ["placed", "sequence"]
    undone = live.undo()
    assert [(e.type, e.team, e.cell, e.correction) for e in undone] == [("undo", "B", cell(0, 4), True)]
    assert undone[0].detail == "Taken back: " + events[0].detail
    assert live.board == before and live.claimed == [] and not live.protected and live.to_play is None
    assert [e.type for e in live.observe(_board(*row, (5, 5, "G")))] == ["placed", "sequence"]  # seen again
    live.undo()
    with pytest.raises(CorrectionError, match="Nothing to undo"):
        live.undo()


# --- corrections by the players ------------------------------------------------------------

def _types(events: list) -> list[tuple[str, bool]]:
    return [(e.type, e.correction) for e in events]


def test_confirming_a_hidden_cell_places_its_chip_and_keeps_the_turn() -> None:
    start = _board((4, 4, "B")).with_cell(cell(3, 3), "?")
    live = LiveReferee(2, start)
    live.observe(_board((4, 4, "B"), (5, 5, "G")).with_cell(cell(3, 3), "?"))  # green played: blue's turn
    events = live.confirm({cell(3, 3): "G"})
    assert _types(events) == [("confirm", True), ("placed", True)]
    assert events[0].cells == (cell(3, 3),) and events[1].team == "G" and events[1].cell == cell(3, 3)
    assert live.board[cell(3, 3)] == "G" and live.to_play == "B"  # a hidden cell read at last is no move


def test_a_misread_colour_confirmed_completes_the_sequence() -> None:
    row = [(0, c, "B") for c in range(1, 4)]
    live = LiveReferee(2, _board(*row, (5, 5, "G")))
    assert live.observe(_board(*row, (0, 4, "G"), (5, 5, "G")))[0].type == "placed"  # misread
    events = live.confirm({cell(0, 4): "B"})
    assert _types(events) == [("confirm", True), ("removed", True), ("placed", True), ("sequence", True)]
    assert events[1].team == "G" and events[2].team == "B" and events[3].cells == (0, 1, 2, 3, 4)
    assert cell(0, 4) in live.protected and live.to_play is None  # whose turn it is: unknown again
    assert _codes(live.observe(_board(*row, (0, 4, "B"), (5, 5, "G"), (7, 7, "B")))) == []


def test_a_sequence_on_a_misread_chip_no_longer_counts() -> None:
    row = [(0, c, "B") for c in range(1, 5)]
    column = [(r, 9, "B") for r in range(1, 4)]
    live = LiveReferee(2, _board(*row, *column))
    assert [e.type for e in live.observe(_board(*row, *column, (4, 9, "B")))] == ["placed", "sequence", "winner"]
    events = live.confirm({cell(2, 9): "."})  # that chip was never there
    assert _types(events) == [("confirm", True), ("removed", True), ("sequence_undone", True),
                              ("winner_undone", True)]
    assert events[2].cells == (9, 19, 29, 39, 49)
    assert live.winner is None and len(live.claimed) == 1 and cell(4, 9) not in live.protected
    assert cell(0, 2) in live.protected  # the row still counts


def test_confirming_what_was_read_changes_nothing_and_is_not_undone() -> None:
    live = LiveReferee(2, Board.empty())
    live.observe(_board((4, 4, "B")))
    events = live.confirm({cell(4, 4): "B", cell(4, 5): "."})
    assert _types(events) == [("confirm", True)] and "as read" in events[0].detail
    assert live.undo()[0].cell == cell(4, 4)  # the move before it is what an undo takes back
    assert live.board == Board.empty()


def test_a_confirmation_can_be_undone() -> None:
    live = LiveReferee(2, _board((4, 4, "B")))
    live.confirm({cell(4, 4): "G"})
    undone = live.undo()
    assert [e.type for e in undone] == ["undo"] and undone[0].detail.startswith("Taken back: The players confirmed")
    assert live.board == _board((4, 4, "B"))


@pytest.mark.parametrize("stated, message", [
    ({}, "Say which cells"),
    ({cell(0, 0): "B"}, "is a corner"),
    ({cell(3, 3): "R"}, "not a chip of this game"),
    ({cell(3, 3): "?"}, "not a chip of this game"),
])
def test_a_confirmation_that_cannot_be(stated: dict, message: str) -> None:
    live = LiveReferee(2, _board((4, 4, "B")))
    with pytest.raises(CorrectionError, match=message):
        live.confirm(stated)
    assert live.board == _board((4, 4, "B"))


GAP_ROW = [(2, c, "B") for c in (0, 1, 3, 4, 5)]  # B B . B B B on row 2: filling 2,2 makes two windows


def _gap_filled() -> tuple[LiveReferee, list]:
    live = LiveReferee(2, _board(*GAP_ROW, (7, 7, "G")))
    return live, live.observe(_board(*GAP_ROW, (2, 2, "B"), (7, 7, "G")))


def test_a_sequence_with_several_windows_offers_them() -> None:
    live, events = _gap_filled()
    assert [e.type for e in events] == ["placed", "sequence"]
    sequence = events[1]
    assert sequence.options == (((20, 21, 22, 23, 24),), ((21, 22, 23, 24, 25),))
    assert sequence.cells == (20, 21, 22, 23, 24) and "1) 2,0-2,4; 2) 2,1-2,5" in sequence.detail
    assert live.choice is not None and live.choice.chosen == 1 and live.choice.cell == cell(2, 2)


def test_choosing_moves_the_protected_chips() -> None:
    live, _ = _gap_filled()
    events = live.choose(2)
    assert _types(events) == [("choose", True), ("sequence", True)]
    assert events[0].team == "B" and events[1].cells == (21, 22, 23, 24, 25) and "option 2" in events[0].detail
    assert [s.cells for s in live.claimed] == [(21, 22, 23, 24, 25)]
    assert cell(2, 0) not in live.protected and cell(2, 5) in live.protected
    after = _board(*GAP_ROW, (2, 2, "B"), (7, 7, "G"))
    assert _codes(live.observe(after.with_cell(cell(2, 0), "."))) == []  # green may take 2,0 now
    live.undo()
    assert _codes(live.observe(after.with_cell(cell(2, 5), "."))) == ["protected_removed"]


@pytest.mark.parametrize("chosen, sequences", [(1, 2), (2, 1)])
def test_the_choice_decides_which_later_window_may_share_a_chip(chosen: int, sequences: int) -> None:
    """With 2,0-2,4 chosen, 2,4-2,8 shares one chip with it: a second sequence. With 2,1-2,5 it
    would share two: none."""
    live, _ = _gap_filled()
    if chosen != 1:
        live.choose(chosen)
    board = _board(*GAP_ROW, (2, 2, "B"), (7, 7, "G"), (2, 6, "B"), (2, 7, "B"))
    live.observe(board)
    events = live.observe(board.with_cell(cell(2, 8), "B"))
    assert sum(e.type == "sequence" for e in events) == sequences - 1
    assert len(live.claimed) == sequences


def test_a_choice_that_cannot_be_made() -> None:
    live = LiveReferee(2, Board.empty())
    with pytest.raises(CorrectionError, match="No sequence is waiting"):
        live.choose(1)
    live, _ = _gap_filled()
    with pytest.raises(CorrectionError, match="There are 2 options"):
        live.choose(3)
    live.observe(_board(*GAP_ROW[:-1], (2, 2, "B"), (7, 7, "G")))  # green takes 2,5, unprotected for now
    with pytest.raises(CorrectionError, match="2,1-2,5 is no longer complete"):
        live.choose(2)
    assert [s.cells for s in live.claimed] == [(20, 21, 22, 23, 24)]


def test_undoing_a_choice_brings_back_the_first_windows_and_the_choice() -> None:
    live, _ = _gap_filled()
    live.choose(2)
    assert [e.type for e in live.undo()] == ["undo"]
    assert [s.cells for s in live.claimed] == [(20, 21, 22, 23, 24)] and cell(2, 0) in live.protected
    assert live.choice is not None and live.choice.chosen == 1
    assert [e.cells for e in live.choose(2)][1] == (21, 22, 23, 24, 25)


def test_the_choice_closes_when_the_team_completes_another_sequence() -> None:
    live, _ = _gap_filled()
    column = [(r, 9, "B") for r in range(1, 4)]
    board = _board(*GAP_ROW, (2, 2, "B"), (7, 7, "G"), *column)
    live.observe(board)  # several chips at once: a violation, no claim
    live.observe(board.with_cell(cell(4, 9), "B"))  # corner + 1,9..4,9
    assert live.choice is None
    with pytest.raises(CorrectionError, match="No sequence is waiting"):
        live.choose(2)


def test_a_protected_chip_confirmed_away_is_no_longer_protected() -> None:
    row = [(0, c, "B") for c in range(1, 5)]
    live = LiveReferee(2, _board(*row, (5, 5, "G")))  # joined with corner + 0,1-0,4: protected
    assert cell(0, 4) in live.protected
    live.confirm({cell(0, 4): "G"})  # it was a green chip all along
    assert cell(0, 4) not in live.protected and live.claimed == []
