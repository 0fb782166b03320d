import numpy as np
import pytest

from seqcam.train_cell_net import (COLOUR_SHIFT, LIGHTNESS_GAIN, LIGHTNESS_SHIFT, from_bytes, photometric_jitter,
                                   soft_targets, to_bytes)
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


def test_where_the_judges_disagree_the_network_weighs_more_by_its_weight():
    trees, network = np.array([[0.3, 0.7, 0.0]]), np.array([[0.7, 0.3, 0.0]])
    assert pooled(trees, network, 0.5)[0, 0] == pytest.approx(0.5)
    assert pooled(trees, network, 0.7)[0, 0] == pytest.approx(0.7 ** 0.7 * 0.3 ** 0.3 / (
        0.7 ** 0.7 * 0.3 ** 0.3 + 0.3 ** 0.7 * 0.7 ** 0.3))
    assert pooled(trees, network)[0, 0] > 0.5 and pooled(network, trees)[0, 0] < 0.5


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


def test_jitter_moves_each_crops_lightness_and_colour_by_its_own_bounded_amount_and_keeps_its_picture():
    rng = np.random.default_rng(5)
    pictures = rng.normal(0, 1, (200, 3, CROP_SIDE, CROP_SIDE)).astype(np.float32)
    jittered = photometric_jitter(pictures, np.random.default_rng(6))
    assert jittered.shape == pictures.shape and not np.shares_memory(jittered, pictures)
    colour_moves = (jittered[:, 1:] - pictures[:, 1:]).reshape(200, 2, -1)
    assert np.ptp(colour_moves, axis=2).max() < 1e-5  # one shift over the whole crop
    assert np.abs(colour_moves).max() <= COLOUR_SHIFT and np.std(colour_moves[:, :, 0]) > COLOUR_SHIFT / 4
    gains = np.array([np.polyfit(p[0].ravel(), j[0].ravel(), 1)[0] for p, j in zip(pictures, jittered)])
    assert np.all(np.abs(gains - 1) <= LIGHTNESS_GAIN + 1e-4) and np.std(gains) > LIGHTNESS_GAIN / 4
    shifts = (jittered[:, 0] - pictures[:, 0] * gains[:, None, None]).mean(axis=(1, 2))
    assert np.abs(shifts).max() <= LIGHTNESS_SHIFT + 1e-4
