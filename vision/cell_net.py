"""A small convolutional network that looks at each cell's picture: chip, empty card, or hidden.

The trees of ``cell_model`` see a cell through a few measures and its picture shrunk to
8 x 8; at that size a chip on a court card, a pale chip, a heart filling an ace and a finger
at the cell's edge look alike. The network sees the cell at 32 x 32 with a quarter of a cell
of its neighbours on each side (a hand reaching in shows there first), in the same
paper-normalised Lab. Its probabilities are pooled with the trees' (``read_cells.pooled``),
weighing more.
It costs about 12 ms a board read on one core (with its crops, 14; a photo's reading asks
for about three boards).

It lives in ``vision/models/cells.onnx`` and is rebuilt by ``seqcam train-cell-net``
(PyTorch fits it); reading it needs OpenCV's dnn module alone.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.cell_model import softmax
from vision.warp import GRID

NET_PATH = Path(__file__).parent / "models" / "cells.onnx"
CROP_SIDE = 32  # pixels of the network's input, square
MARGIN_SHARE = 0.25  # of a cell, shown on each side around it
L_SCALE, L_OFFSET, AB_SCALE = 50.0, 1.8, 40.0  # Lab to the network's inputs, about -2 to 2
NETWORK_WEIGHT = 0.7  # the network's share in its pooled judgement with the trees (read_cells.pooled)


def cell_crops(lab: np.ndarray, cell_px: int) -> np.ndarray:
    """(100, 3, CROP_SIDE, CROP_SIDE) float32: each cell of a rectified paper-normalised Lab
    board (10 * ``cell_px`` square) with ``MARGIN_SHARE`` of a cell round it (the board's
    edge repeated outside it), scaled to the network's input."""
    margin = round(MARGIN_SHARE * cell_px)
    padded = cv2.copyMakeBorder(lab, margin, margin, margin, margin, cv2.BORDER_REPLICATE)
    scale = CROP_SIDE / (cell_px + 2 * margin)
    small = cv2.resize(padded, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    step = cell_px * scale
    starts = [round(index * step) for index in range(GRID)]
    crops = np.stack([small[y:y + CROP_SIDE, x:x + CROP_SIDE] for y in starts for x in starts])
    scaled = np.empty_like(crops)
    scaled[..., 0] = crops[..., 0] / L_SCALE - L_OFFSET
    scaled[..., 1:] = crops[..., 1:] / AB_SCALE
    return np.ascontiguousarray(scaled.transpose(0, 3, 1, 2))


@lru_cache(maxsize=1)
def _network(path: Path = NET_PATH) -> cv2.dnn.Net:
    try:
        return cv2.dnn.readNetFromONNX(str(path))
    except cv2.error as error:
        raise ValueError(f"the cell network file {path} is missing or unreadable: reinstall seqcam, "
                         "or run seqcam train-cell-net") from error


def net_probabilities(crops: np.ndarray) -> np.ndarray:
    """(N, 3, CROP_SIDE, CROP_SIDE) crops -> (N, 3) probabilities of ``cell_model.CLASSES``."""
    network = _network()
    network.setInput(np.ascontiguousarray(crops, np.float32))
    return softmax(network.forward().astype(np.float64))
