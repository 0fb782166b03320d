"""A '?' cell that looks like several of one team's chips on the same board is that team's chip;
a cell read empty that looks like them is '?'."""

from __future__ import annotations

import numpy as np
import pytest

from referee.board import EMPTY, UNKNOWN, Board
from vision.chip_likeness import chips_like_team_chips, disc_histograms, empties_like_team_chips
from vision.config import VisionConfig
from tests.vision.synthetic import BLUE, CELL_PX, GREEN_CELLS, UNSURE_CARD, UNSURE_CHIP, board_lab, reading

CONFIG = VisionConfig()
RATIO = CONFIG.like_chip_max_empty_ratio
SETTLEABLE = np.ones(100, bool)


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
