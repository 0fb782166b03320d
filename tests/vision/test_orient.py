import numpy as np
import pytest

from vision.orient import PRINTED_RED, find_orientation, ink_redness
from vision.read_cells import prepare
from vision.config import VisionConfig
from tests.vision.synthetic import CELL, drawn_board

CONFIG = VisionConfig(cell_px=CELL)
EMPTY_GRID = ["#........#"] + ["." * 10] * 8 + ["#........#"]


@pytest.mark.parametrize("turns", [0, 1, 2, 3])
def test_finds_the_printed_top_of_a_turned_board(turns):
    # the board as the camera saw it: turned counter-clockwise by `turns` quarter turns
    seen = np.ascontiguousarray(np.rot90(drawn_board(EMPTY_GRID), turns))
    prepared = prepare(seen, CONFIG)
    redness = ink_redness(prepared.lab, prepared.not_paper, CELL)
    orientation = find_orientation(redness, np.ones((10, 10), bool))
    assert orientation.quarter_turns == turns
    assert orientation.margin > 10


def test_a_colour_cast_moves_every_card_alike():
    redness = PRINTED_RED * 5 + 40  # every card looks red under a warm light, red ones more so
    assert find_orientation(redness, np.ones((10, 10), bool)).quarter_turns == 0


def test_no_visible_card_gives_no_margin():
    orientation = find_orientation(np.zeros((10, 10)), np.zeros((10, 10), bool))
    assert orientation.votes == 0 and orientation.margin == 0
