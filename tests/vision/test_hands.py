import math
from dataclasses import replace

import numpy as np

from referee.board import Board
from vision.config import VisionConfig
from vision.cell_model import CLASSES
from vision.hands import HandCover, filled_from_view, hand_cover, mendable
from vision.pipeline import read_rectified
from vision.read_cells import prepare

from tests.vision.synthetic import CELL, drawn_board, trees_alone

CONFIG = VisionConfig(cell_px=CELL)
GRID = ["#........#", "..........", "..........", "..........", "..........",
        "..........", ".B..G.....", "..........", "..........", "#........#"]
SKIN = (120, 160, 210)
ARM_ROWS = (4, 5)  # wholly under the arm, columns 0 to 5
EDGE_ROW = 6  # its top part under the arm too


def arm_over(image: np.ndarray, covered_share: float) -> np.ndarray:
    """An arm from the left edge over rows 4 and 5 and the top ``covered_share`` of row 6."""
    image = image.copy()
    image[ARM_ROWS[0] * CELL : int((EDGE_ROW + covered_share) * CELL), : 6 * CELL] = SKIN
    return image


def arm_hidden(covered_share: float) -> np.ndarray:
    """(100,) what the cell model says of the arm: sure of the cells it hides whole, unsure of its edge."""
    hidden = np.zeros((10, 10))
    hidden[ARM_ROWS[0] : ARM_ROWS[1] + 1, :6] = 0.97
    hidden[EDGE_ROW, :6] = 0.7 if covered_share > 0 else 0.0
    return hidden.reshape(-1)


def test_the_hand_is_found_by_the_colours_of_the_cells_it_surely_hides():
    prepared = prepare(arm_over(drawn_board(GRID), 0.3), CONFIG)
    cover = hand_cover(prepared, arm_hidden(0.3), CONFIG)
    arm = np.zeros((10 * CELL, 10 * CELL), bool)
    arm[4 * CELL : int(6.3 * CELL), : 6 * CELL] = True
    assert (cover.mask & arm).sum() / (cover.mask | arm).sum() > 0.95
    assert np.all(cover.disc_share[ARM_ROWS[0]:ARM_ROWS[1] + 1, :6] == 1.0)
    assert np.all((cover.disc_share[EDGE_ROW, :6] > 0.05) & (cover.disc_share[EDGE_ROW, :6] < 0.3))
    assert np.all(cover.unfilled_share[EDGE_ROW, :6] == 0.0)
    assert np.all(cover.disc_share[7:] == 0.0)


def test_no_hand_where_no_cell_is_surely_hidden_or_it_looks_like_the_paper():
    prepared = prepare(arm_over(drawn_board(GRID), 0.3), CONFIG)
    assert hand_cover(prepared, np.minimum(arm_hidden(0.3), 0.8), CONFIG) is None
    no_arm = prepare(drawn_board(GRID), CONFIG)  # the cells said hidden show paper and ink, as the others do
    assert hand_cover(no_arm, arm_hidden(0.3), CONFIG) is None


def test_a_chip_half_under_the_hand_is_mended_from_its_half_in_view():
    clear = prepare(drawn_board(GRID), CONFIG)
    prepared = prepare(arm_over(drawn_board(GRID), 0.3), CONFIG)
    cover = hand_cover(prepared, arm_hidden(0.3), CONFIG)
    mended = filled_from_view(prepared, cover.mask, cover.disc_share <= 0.5)
    chip = (slice(EDGE_ROW * CELL + 8, EDGE_ROW * CELL + 14), slice(CELL + 17, CELL + 23))  # its top, under the arm
    assert np.abs(mended.lab[chip] - clear.lab[chip]).mean() < 10.0
    assert np.abs(prepared.lab[chip] - clear.lab[chip]).mean() > 20.0
    whole = (slice(ARM_ROWS[0] * CELL, (ARM_ROWS[1] + 1) * CELL), slice(0, 6 * CELL))
    assert np.array_equal(mended.lab[whole], prepared.lab[whole])  # nothing in view to fill from


def test_a_finger_across_a_chips_centre_is_filled_from_a_quarter_turn_away():
    """A band through the centre is its own half turn: the part a quarter turn away is in view
    (all but where the band crosses itself, a small square at the centre)."""
    clear = prepare(drawn_board(GRID), CONFIG)
    image = drawn_board(GRID)
    image[ARM_ROWS[0] * CELL : (ARM_ROWS[1] + 1) * CELL, : 6 * CELL] = SKIN  # the hand, for its colours
    finger = (slice(EDGE_ROW * CELL + 18, EDGE_ROW * CELL + 23), slice(0, 6 * CELL))
    image[finger] = SKIN  # a finger along row 6, across its chips' centres ...
    image[EDGE_ROW * CELL : EDGE_ROW * CELL + 24, 6 * CELL - 3 : 6 * CELL] = SKIN  # ... joined to the hand
    prepared = prepare(image, CONFIG)
    cover = hand_cover(prepared, arm_hidden(0.3), CONFIG)
    assert np.all(cover.unfilled_share[EDGE_ROW, :6] <= CONFIG.max_unfilled_cover)
    assert np.all(cover.disc_share[EDGE_ROW, :6] > 0.1)
    mended = filled_from_view(prepared, cover.mask, cover.disc_share <= 0.5)
    chip = (slice(EDGE_ROW * CELL + 18, EDGE_ROW * CELL + 23), slice(CELL + 6, CELL + 36))  # the finger over it
    assert np.median(np.abs(prepared.lab[chip] - clear.lab[chip]).max(axis=-1)) > 20.0
    assert np.median(np.abs(mended.lab[chip] - clear.lab[chip]).max(axis=-1)) < 1.0  # its highlight moves
    _, _, reading = read_rectified(image, ("B", "G"), CONFIG)
    assert reading.cells[EDGE_ROW * 10 : EDGE_ROW * 10 + 6] == GRID[EDGE_ROW][:6]


def test_cells_a_hand_covers_in_part_are_read_and_those_it_hides_are_not():
    """Just under half of each edge cell covered. The cell network reads those cells right
    even unmended; the trees alone need them mended."""
    image = arm_over(drawn_board(GRID), 0.45)
    expected = Board.from_rows([row if r not in ARM_ROWS else "??????...." for r, row in enumerate(GRID)])
    assert read_rectified(image, ("B", "G"), CONFIG)[2] == expected
    assert read_rectified(image, ("B", "G"), trees_alone(CONFIG))[2] == expected
    _, _, unmended = read_rectified(image, ("B", "G"), replace(trees_alone(CONFIG), hand_seed_probability=math.inf))
    assert unmended.cells[EDGE_ROW * 10 : EDGE_ROW * 10 + 6].count("?") >= 2


def test_a_chip_call_under_fingers_is_mended_as_unsure_cells_are_but_an_empty_call_is_not():
    """Fingers over part of a chip the model calls a chip leave its disc's colour between the
    chip's and the skin's: it is mended for its colour. A card called empty stays as read."""
    disc_share = np.zeros((10, 10))
    disc_share[6, :5] = 0.3  # fingers over a third of the chip region of row 6's first cells ...
    disc_share[7, 0] = 0.8  # ... and over most of one cell below
    cover = HandCover(np.zeros((10 * CELL, 10 * CELL), bool), disc_share, np.zeros((10, 10)))
    calls = np.full(100, CLASSES.index("empty"))
    calls[60:64] = [CLASSES.index("chip"), -1, CLASSES.index("hidden"), CLASSES.index("empty")]
    calls[70] = CLASSES.index("chip")
    calls[65] = CLASSES.index("chip")  # no finger over it
    cells = mendable(cover, calls, CONFIG)
    assert cells[6, :4].tolist() == [True, True, True, False]
    assert not cells[7, 0] and not cells[6, 5] and cells.sum() == 3
