"""The live referee follows a game from board readings alone."""

from __future__ import annotations

import numpy as np
import pytest

from referee.board import Board
from referee.bots import play_game
from referee.cells import ONE_EYED_JACKS, cell
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


def test_after_losing_track_nobody_is_out_of_turn() -> None:
    live = LiveReferee(2, Board.empty())
    live.observe(_board((4, 4, "B")))
    live.lose_track()  # green's move may have gone unseen
    assert _codes(live.observe(_board((4, 4, "B"), (1, 1, "B")))) == []
    assert _codes(live.observe(_board((4, 4, "B"), (1, 1, "B"), (2, 2, "B")))) == ["out_of_turn"]


def test_undo_takes_back_a_move_and_its_sequence() -> None:
    row = [(0, c, "B") for c in range(1, 5)]
    live = LiveReferee(2, _board(*row[:3], (5, 5, "G")))
    before = live.board
    events = live.observe(_board(*row, (5, 5, "G")))
    assert [e.type for e in events] == ["placed", "sequence"]
    assert live.undo() == before and live.claimed == [] and not live.protected and live.to_play is None
    assert [e.type for e in live.observe(_board(*row, (5, 5, "G")))] == ["placed", "sequence"]  # seen again
    live.undo()
    with pytest.raises(ValueError):
        live.undo()
