import numpy as np
import pytest

from vision.orient import PRINTED_FACE, PRINTED_RED, find_orientation, ink_redness, picture_ink
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


def test_suit_colour_is_read_inside_the_card_not_on_the_dark_lines_between_cards():
    lab = np.zeros((10 * CELL, 10 * CELL, 3), np.float32)
    lab[..., 0] = 92.0
    not_paper = np.zeros(lab.shape[:2], np.float32)
    edge = np.ones((CELL, CELL), bool)
    edge[2:-2, 2:-2] = False  # the black gap round every card: much ink, not red
    not_paper[np.tile(edge, (10, 10))] = 1
    middle = slice(CELL // 2 - 1, CELL // 2 + 1)
    not_paper[middle, middle] = 1  # cell (0, 0): one small, red pip
    lab[middle, middle, 1] = 40.0
    not_paper[CELL + CELL // 2 - 1 : CELL + CELL // 2 + 1, middle] = 1  # cell (1, 0): a black pip
    redness = ink_redness(lab, not_paper, CELL)
    assert redness[0, 0] == pytest.approx(40.0) and redness[1, 0] == pytest.approx(0.0)


def test_a_colour_cast_moves_every_card_alike():
    redness = PRINTED_RED * 5 + 40  # every card looks red under a warm light, red ones more so
    assert find_orientation(redness, np.ones((10, 10), bool)).quarter_turns == 0


def test_no_visible_card_gives_no_margin():
    orientation = find_orientation(np.zeros((10, 10)), np.zeros((10, 10), bool))
    assert orientation.votes == 0 and orientation.margin == 0


@pytest.mark.parametrize("turns", [0, 1, 2, 3])
def test_face_card_pictures_find_the_top_when_the_suit_ink_says_nothing(turns):
    # corner-index art: every card's ink about as red as the next, but queens and kings show a picture
    redness = np.full((10, 10), 30.0)
    pictures = np.rot90(np.where(PRINTED_FACE > 0, 0.3, 0.02), turns)
    orientation = find_orientation(redness, np.ones((10, 10), bool), pictures)
    assert orientation.quarter_turns == turns
    assert orientation.margin > 5


def test_picture_ink_counts_blue_and_yellow_ink_not_red_or_black():
    lab = np.zeros((10 * CELL, 10 * CELL, 3), np.float32)
    lab[..., 0] = 92.0
    not_paper = np.zeros(lab.shape[:2], np.float32)
    not_paper[:CELL, :CELL] = 1  # cell (0, 0): a yellow picture
    lab[:CELL, :CELL, 2] = 40.0
    not_paper[:CELL, CELL : 2 * CELL] = 1  # cell (0, 1): red suit ink
    lab[:CELL, CELL : 2 * CELL, 1] = 50.0
    covered = np.zeros(lab.shape[:2], bool)
    covered[CELL : 2 * CELL, :CELL] = True  # cell (1, 0): under a chip
    shares = picture_ink(lab, not_paper, CELL, covered)
    assert shares[0, 0] == pytest.approx(1.0) and shares[0, 1] == 0.0 and np.isnan(shares[1, 0])
