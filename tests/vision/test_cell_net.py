import numpy as np
import pytest

from seqcam.train_cell_net import from_bytes, soft_targets, to_bytes
from vision import pipeline
from vision.cell_model import CLASSES
from vision.cell_net import CROP_SIDE, _network, cell_crops, net_probabilities
from vision.config import VisionConfig
from vision.image_io import decode_image
from vision.read_cells import PAPER_L, pooled, prepare
from vision.render import render_one
from vision.warp import lattice_from_corners

CONFIG = VisionConfig()
CELL = CONFIG.cell_px


def _paper_board() -> np.ndarray:
    lab = np.zeros((10 * CELL, 10 * CELL, 3), np.float32)
    lab[..., 0] = PAPER_L
    return lab


def test_each_crop_shows_its_cell_in_the_middle_and_a_quarter_of_its_neighbours_round_it():
    lab = _paper_board()
    lab[3 * CELL:4 * CELL, 4 * CELL:5 * CELL, 1] = 60.0  # cell (3, 4) red
    crops = cell_crops(lab, CELL)
    assert crops.shape == (100, 3, CROP_SIDE, CROP_SIDE) and crops.dtype == np.float32
    a = crops[:, 1]
    middle = slice(CROP_SIDE // 3, 2 * CROP_SIDE // 3)
    assert a[34, middle, middle].min() > 1.4  # 60 / 40
    assert a[33, middle, -2:].min() > 1.4 and a[33, middle, :CROP_SIDE // 2].max() < 0.1  # the cell on its right
    assert a[35, middle, :2].min() > 1.4 and a[24, -2:, middle].min() > 1.4  # on the left of 35, below 24
    assert np.abs(np.delete(a, [23, 24, 25, 33, 34, 35, 43, 44, 45], axis=0)).max() < 1e-6
    assert crops[0, 0].mean() == pytest.approx(PAPER_L / 50 - 1.8, abs=1e-4)  # the edge repeated outside


def test_pooling_keeps_what_both_judges_find_likely_and_rules_out_what_either_rules_out():
    trees = np.array([[0.9, 0.1, 0.0], [0.5, 0.5, 0.0], [0.6, 0.3, 0.1]])
    network = np.array([[0.8, 0.2, 0.0], [0.02, 0.98, 0.0], [0.6, 0.3, 0.1]])
    pooled_probabilities = pooled(trees, network)
    assert pooled_probabilities.sum(axis=1) == pytest.approx(np.ones(3))
    assert pooled_probabilities[0].argmax() == 0 and pooled_probabilities[1, 1] > 0.85
    assert pooled_probabilities[2] == pytest.approx(trees[2])


def test_crops_survive_the_bytes_they_are_gathered_in():
    crops = cell_crops(np.random.default_rng(0).uniform([20, -60, -60], [100, 60, 60], (320, 320, 3)).astype(np.float32),
                       CELL)
    assert from_bytes(to_bytes(crops)) == pytest.approx(crops, abs=0.5 / 40 + 1e-6)


def test_a_cell_half_covered_is_taught_half_hidden():
    targets = soft_targets(np.array([True, False, False]), np.array([0.3, 0.55, 0.7]))
    hidden, chip, empty = (CLASSES.index(name) for name in ("hidden", "chip", "empty"))
    assert targets[:, hidden].tolist() == [0.0, 0.5, 1.0]
    assert targets[0, chip] == 1.0 and targets[1, empty] == 0.5
    assert targets.sum(axis=1) == pytest.approx(np.ones(3))


def test_the_shipped_network_reads_a_rendered_photos_cells_on_its_own():
    """Dev photo 5151/3 warped on its true corners: the network alone calls nearly every cell in
    view right (its mistakes are left to the trees it is pooled with)."""
    photo = render_one(5151, 3)
    decoded = decode_image(photo.jpeg, CONFIG, "photo")
    truth = lattice_from_corners(np.float32(photo.label["corners_px"]) / decoded.scale)
    prepared = prepare(pipeline.rectified_board(decoded.image_bgr, truth, CELL), CONFIG)
    calls = net_probabilities(cell_crops(prepared.lab, CELL)).argmax(axis=1)
    grid = "".join(photo.label["grid"])
    covered = np.float32(photo.label["covered_share"])
    in_view = [cell for cell in range(100) if grid[cell] != "#" and covered[cell] == 0]
    expected = [CLASSES.index("empty" if grid[cell] == "." else "chip") for cell in in_view]
    right = np.mean(calls[in_view] == expected)
    assert len(in_view) > 60 and right >= 0.97


def test_an_unreadable_network_file_is_refused_with_what_to_do(tmp_path):
    broken = tmp_path / "cells.onnx"
    broken.write_bytes(b"not a network")
    with pytest.raises(ValueError, match="seqcam train-cell-net"):
        _network(broken)
