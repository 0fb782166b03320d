"""A '?' cell that looks like several of one team's chips on the same board is that team's chip;
a cell read empty that looks like them is '?'."""

from __future__ import annotations

import numpy as np
import pytest

from referee.board import EMPTY, UNKNOWN, Board
from vision.chip_likeness import chips_like_team_chips, disc_histograms, empties_like_team_chips
from vision.config import VisionConfig

CONFIG = VisionConfig()
RATIO = CONFIG.like_chip_max_empty_ratio
CELL_PX = 32
BLUE, GREEN = (40.0, 10.0, -40.0), (55.0, -40.0, 30.0)
BLUE_CELLS, GREEN_CELLS = [11, 13, 15, 17, 31], [22, 24, 26, 28, 42]
UNSURE_CHIP, UNSURE_CARD = 55, 66
SETTLEABLE = np.ones(100, bool)


def board_lab(green_cells: list[int], more_blue: tuple[int, ...] = ()) -> np.ndarray:
    """A rectified board in paper-normalised Lab: every card white with its own art (a block
    of one of several ink colours, of its own size, round its centre), chips as discs with a
    highlight over the art, and the camera's noise."""
    rng = np.random.default_rng(7)
    lab = np.zeros((10 * CELL_PX, 10 * CELL_PX, 3), np.float32)
    lab[..., 0] = 95.0
    yy, xx = np.mgrid[0:CELL_PX, 0:CELL_PX] - (CELL_PX - 1) / 2
    disc, highlight = np.hypot(yy, xx) <= 0.33 * CELL_PX, np.hypot(yy + 4, xx + 4) <= 3
    inks = [(20.0, 0.0, 0.0), (45.0, 55.0, 30.0), (60.0, 5.0, 50.0), (35.0, 30.0, -10.0)]
    for cell in range(100):
        block = lab[cell // 10 * CELL_PX : (cell // 10 + 1) * CELL_PX, cell % 10 * CELL_PX : (cell % 10 + 1) * CELL_PX]
        side = int(rng.integers(8, 20))  # the card's art, round its centre
        top, left = (int(v) for v in (CELL_PX - side) // 2 + rng.integers(-3, 4, 2))
        block[top : top + side, left : left + side] = inks[cell % len(inks)]
        colour = BLUE if cell in [*BLUE_CELLS, UNSURE_CHIP, *more_blue] else GREEN if cell in green_cells else None
        if colour is not None:
            block[disc] = colour
            block[disc & highlight] = (85.0, 0.0, -5.0)
    return lab + rng.normal(0.0, 3.0, lab.shape).astype(np.float32)  # the camera's noise


def reading(green_cells: list[int]) -> Board:
    cells = ["#" if i in (0, 9, 90, 99) else "B" if i in BLUE_CELLS else "G" if i in green_cells
             else UNKNOWN if i in (UNSURE_CHIP, UNSURE_CARD) else "." for i in range(100)]
    return Board("".join(cells))


def test_a_doubted_cell_like_a_teams_chips_is_its_chip_and_a_doubted_card_stays_doubted():
    histograms = disc_histograms(board_lab(GREEN_CELLS), CELL_PX, CONFIG.like_chip_disc_share)
    settled = chips_like_team_chips(reading(GREEN_CELLS), histograms, SETTLEABLE, ("B", "G"), RATIO, CONFIG)
    assert settled.cells[UNSURE_CHIP] == "B"
    assert settled.cells[UNSURE_CARD] == UNKNOWN
    assert [c for c in range(100) if settled.cells[c] != reading(GREEN_CELLS).cells[c]] == [UNSURE_CHIP]


def test_nothing_is_settled_while_a_team_shows_too_few_chips_to_know_them():
    """A team whose chips were read '?' has no say: its chips could go to the nearest other colour."""
    few_green = GREEN_CELLS[: CONFIG.like_chip_neighbours - 1]
    histograms = disc_histograms(board_lab(few_green), CELL_PX, CONFIG.like_chip_disc_share)
    assert chips_like_team_chips(reading(few_green), histograms, SETTLEABLE, ("B", "G"), RATIO, CONFIG) == reading(few_green)


@pytest.mark.parametrize("ratio, settled", [(0.7, True), (0.0, False)])
def test_a_cell_as_like_an_empty_card_as_the_chips_is_not_settled(ratio, settled):
    """The chips must be clearly nearer than any empty card, by the ratio asked for
    (``like_chip_max_empty_ratio`` first, ``like_chip_sure_empty_ratio`` after the print checks)."""
    histograms = disc_histograms(board_lab(GREEN_CELLS), CELL_PX, CONFIG.like_chip_disc_share)
    assert (chips_like_team_chips(reading(GREEN_CELLS), histograms, SETTLEABLE, ("B", "G"), ratio, CONFIG).cells[UNSURE_CHIP] == "B") == settled


def test_a_cell_that_may_not_be_settled_stays_doubted():
    """The caller rules out cells mostly paper (washed out by glare) or where a hand may be."""
    histograms = disc_histograms(board_lab(GREEN_CELLS), CELL_PX, CONFIG.like_chip_disc_share)
    settleable = np.arange(100) != UNSURE_CHIP
    assert chips_like_team_chips(reading(GREEN_CELLS), histograms, settleable, ("B", "G"), RATIO, CONFIG) == reading(GREEN_CELLS)


def test_histograms_count_the_disc_of_each_cell_in_reading_order():
    lab = np.zeros((10 * CELL_PX, 10 * CELL_PX, 3), np.float32)
    lab[..., 0] = 95.0
    lab[CELL_PX : 2 * CELL_PX, 2 * CELL_PX : 3 * CELL_PX] = BLUE  # cell 12
    histograms = disc_histograms(lab, CELL_PX, 0.4)
    assert histograms.shape == (100, 256) and np.allclose(histograms.sum(axis=1), 1.0)
    assert np.flatnonzero((histograms != histograms[0]).any(axis=1)).tolist() == [12]


@pytest.mark.parametrize("ratio, doubted", [(CONFIG.like_empty_max_ratio, True), (0.0, False)])
def test_chips_read_empty_that_look_like_a_teams_chips_are_doubted(ratio, doubted):
    """Two blue chips the cell model took for empty cards, each the other's nearest 'empty card':
    both '?'; the empty cards stay empty."""
    missed = (UNSURE_CHIP, 77)
    histograms = disc_histograms(board_lab(GREEN_CELLS, more_blue=missed), CELL_PX, CONFIG.like_chip_disc_share)
    read = Board("".join(EMPTY if cell in missed else symbol for cell, symbol in enumerate(reading(GREEN_CELLS).cells)))
    config = VisionConfig(like_empty_max_ratio=ratio)
    doubting = empties_like_team_chips(read, histograms, ("B", "G"), config)
    assert [c for c in range(100) if doubting.cells[c] != read.cells[c]] == (list(missed) if doubted else [])


def test_no_empty_card_is_doubted_while_a_team_shows_too_few_chips_to_know_them():
    few_green = GREEN_CELLS[: CONFIG.like_chip_neighbours - 1]
    histograms = disc_histograms(board_lab(few_green), CELL_PX, CONFIG.like_chip_disc_share)
    read = Board(reading(few_green).cells.replace(UNKNOWN, EMPTY))
    assert empties_like_team_chips(read, histograms, ("B", "G"), CONFIG) == read
