"""The pipeline warns that the board may be turned when the card art's lead for one side is
small: in votes, or as a share of the cards that voted; it refuses a grid it cannot read; and
a calibration fits one quarter turn only when the others are clearly worse."""

import pytest

from referee.board import Board
from seqcam.samples import default_sample
from vision.config import VisionConfig
from vision.errors import BoardUnreadable, VisionWarningKind
from vision.orient import Orientation
from vision.pipeline import analyze_file, turn_is_clear


@pytest.mark.parametrize("margin, votes, warned", [(4.0, 10, True), (12.0, 80, True), (40.0, 80, False)])
def test_a_small_lead_for_one_side_is_a_warning(monkeypatch, margin, votes, warned):
    monkeypatch.setattr("vision.pipeline.orientation_of", lambda *args: Orientation(0, margin, votes))
    kinds = {w.kind for w in analyze_file(default_sample(), 2).warnings}
    assert (VisionWarningKind.ORIENTATION_UNCERTAIN in kinds) == warned


@pytest.mark.parametrize("unknown, refused", [(30, False), (70, True)])
def test_a_grid_read_mostly_as_unknown_is_no_board(monkeypatch, unknown, refused):
    """A grid of something else (a checkerboard) reads as ?, nearly all of it; a board under
    hands and glare keeps most of its cells readable."""
    rows = "".join("?" if k < unknown else "." for k in range(96))
    cells = iter(rows)
    board = Board("".join("#" if k in (0, 9, 90, 99) else next(cells) for k in range(100)))
    monkeypatch.setattr("vision.pipeline.classify", lambda *args, **kwargs: board)
    if refused:
        with pytest.raises(BoardUnreadable, match="most of its cells cannot be read"):
            analyze_file(default_sample(), 2)
    else:
        assert analyze_file(default_sample(), 2).board.cells.count("?") == unknown


def test_the_calibrated_board_fits_one_turn_when_the_others_are_clearly_worse():
    config = VisionConfig()
    assert turn_is_clear(0.004, 0.103, config)  # corner-index art: blank cards look alike at every turn
    assert not turn_is_clear(0.04, 0.09, config)  # two turns about as good
    assert not turn_is_clear(0.15, 0.6, config)  # the board does not lie on this grid at all
