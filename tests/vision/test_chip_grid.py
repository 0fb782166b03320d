"""A grid placed a fraction of a cell off is moved onto the chips read; a grid already under
them, chips that disagree or too few chips leave it where it is."""

import json

import numpy as np
import pytest

from referee.board import UNKNOWN
from seqcam.samples import default_sample
from vision.chip_grid import grid_shift, grid_stretch
from vision.config import VisionConfig
from vision.image_io import read_image_file
from vision.locate import GridFit
from vision.pipeline import analyze_decoded
from vision.warp import lattice_from_corners, shifted_lattice, stretched_lattice

CONFIG = VisionConfig()


def scattered(shift: tuple[float, float], count: int, seed: int = 1) -> np.ndarray:
    """Chips placed off their cards' centres by up to 0.12 cell, seen on a grid ``shift`` off."""
    rng = np.random.default_rng(seed)
    offsets = np.float32(shift) + rng.uniform(-0.12, 0.12, (count, 2)).astype(np.float32)
    return offsets - np.round(offsets)  # a chip is read in the cell whose centre is nearest


def test_the_grid_moves_by_the_chips_common_offset():
    shift = grid_shift(scattered((0.3, -0.2), 20), CONFIG)
    assert shift is not None
    assert shift == pytest.approx((0.3, -0.2), abs=0.05)


def test_a_grid_half_a_cell_off_sees_chips_at_both_ends_of_the_cell_and_still_moves():
    offsets = scattered((0.48, 0.0), 20)
    assert (offsets[:, 0] < 0).any() and (offsets[:, 0] > 0).any()
    shift = grid_shift(offsets, CONFIG)
    assert shift is not None
    assert abs(shift[0]) == pytest.approx(0.48, abs=0.05)


@pytest.mark.parametrize("offsets", [
    scattered((0.05, -0.08), 20),  # the grid is already under the chips
    scattered((0.3, 0.3), CONFIG.shift_min_chips - 1),  # too few chips to say
    np.float32([[0.3, 0.0], [-0.3, 0.0], [0.3, 0.2], [-0.3, -0.2], [0.0, 0.4], [0.0, -0.4]]),  # they disagree
], ids=["under the chips", "too few chips", "chips disagree"])
def test_the_grid_stays(offsets):
    assert grid_shift(offsets, CONFIG) is None


def fitted(lattice: np.ndarray):
    """A locating stage that returns ``lattice``."""
    fit = GridFit(lattice_xy=lattice, score=1.0)
    return lambda image, config: fit


def read_on_a_wrong_grid(move) -> tuple[float, list[int]]:
    """The bundled sample read on its true grid and on ``move(true lattice)``: how far (cells)
    the grid it was read on lies from the truth, and the cells whose readings differ."""
    photo = default_sample()
    label = json.loads(photo.with_suffix(".json").read_text())
    decoded = read_image_file(photo, CONFIG)
    truth = lattice_from_corners(np.float32(label["corners_px"]) / decoded.scale)
    on_truth = analyze_decoded(decoded, label["teams"], CONFIG, locate=fitted(truth))
    analysis = analyze_decoded(decoded, label["teams"], CONFIG, locate=fitted(move(truth)))
    cell = np.linalg.norm(truth[0, 10] - truth[0, 0]) / 10
    differing = [c for c in range(100) if analysis.board[c] != on_truth.board[c]]
    assert all(UNKNOWN in (analysis.board[c], on_truth.board[c]) for c in differing)  # only to or from '?'
    return float(np.abs(analysis.lattice_xy / decoded.scale - truth).max() / cell), differing


def test_a_sample_located_a_third_of_a_cell_off_is_read_as_on_its_true_grid():
    """Read where the grid was placed, most of its chips straddle two cells and read ?."""
    off, differing = read_on_a_wrong_grid(lambda truth: shifted_lattice(truth, (0.33, -0.25)))
    assert off < 0.12
    assert len(differing) <= 2, differing  # a borderline cell may go either way


DRIFT = np.float32([[0.0, 0.05], [0.06, 0.0], [0.0, -0.06]])  # (1, x - 5, y - 5) -> move: a grid 6% too small


def drifting(count: int, seed: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """Chips across the board whose offsets drift with their place (``DRIFT``), each off its
    card's centre by up to 0.08 cell: (offsets, cell centres)."""
    rng = np.random.default_rng(seed)
    centres = rng.integers(0, 10, (count, 2)).astype(np.float32) + 0.5
    offsets = np.column_stack([np.ones(count), centres - 5]) @ DRIFT + rng.uniform(-0.08, 0.08, (count, 2))
    return offsets.astype(np.float32), centres


def test_chips_drifting_across_the_board_stretch_the_grid_onto_them():
    offsets, centres = drifting(24)
    assert grid_shift(offsets, CONFIG) is None  # no one offset fits them all
    move = grid_stretch(offsets, centres, CONFIG)
    assert move is not None
    assert np.abs(move - DRIFT).max() < 0.03


@pytest.mark.parametrize("chips", [
    drifting(CONFIG.stretch_min_chips - 1),  # too few chips to say
    (drifting(24)[0], np.tile(np.float32([[4.5, 4.5], [5.5, 5.5]]), (12, 1))),  # all in the middle: no span
    (np.random.default_rng(3).uniform(-0.45, 0.45, (24, 2)).astype(np.float32), drifting(24)[1]),  # they disagree
    (drifting(24)[0] * 0.1, drifting(24)[1]),  # too small a drift to move for
], ids=["too few chips", "no span", "chips disagree", "under the chips"])
def test_the_grid_is_not_stretched(chips):
    assert grid_stretch(*chips, CONFIG) is None


def test_a_stretch_by_a_constant_is_the_shift_and_no_stretch_is_no_move():
    truth = lattice_from_corners(np.float32([[100, 80], [620, 110], [600, 640], [90, 600]]))
    assert np.allclose(stretched_lattice(truth, np.zeros((3, 2), np.float32)), truth)
    constant = np.float32([[0.3, -0.2], [0, 0], [0, 0]])
    assert np.allclose(stretched_lattice(truth, constant), shifted_lattice(truth, (0.3, -0.2)), atol=1e-3)


def test_a_sample_located_on_a_grid_too_small_is_read_as_on_its_true_grid():
    def too_small(truth: np.ndarray) -> np.ndarray:  # its outer cells a third of a cell inside the true ones
        centre = truth.reshape(-1, 2).mean(axis=0)
        return centre + (truth - centre) * 0.93

    off, differing = read_on_a_wrong_grid(too_small)
    assert off < 0.15
    assert len(differing) <= 2, differing
