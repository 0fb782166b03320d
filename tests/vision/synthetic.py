"""Tiny synthetic rectified boards with known contents, drawn with OpenCV."""

from __future__ import annotations

import cv2
import numpy as np

from referee.cells import CORNER, LAYOUT, RED_SUITS
from vision.cell_model import PATCH_SIDE
from vision.read_cells import CellFeatures

CELL = 40
CHIP_BGR = {"B": (190, 80, 20), "G": (60, 150, 30), "R": (40, 30, 200)}


def drawn_board(grid: list[str], cell: int = CELL, paper=(235, 240, 245), ground=(0, 0, 0), inset: int = 1) -> np.ndarray:
    """A rectified board: cream cards with suit-coloured ink marks and a chip where the grid
    says, each card ``inset`` pixels inside its cell on the ``ground`` colour."""
    side = 10 * cell
    image = np.full((side, side, 3), ground, np.uint8)
    for index, card in enumerate(LAYOUT):
        row, col = divmod(index, 10)
        y0, x0 = row * cell, col * cell
        cv2.rectangle(image, (x0 + inset, y0 + inset), (x0 + cell - 1 - inset, y0 + cell - 1 - inset), paper, -1)
        if card == CORNER:
            cv2.circle(image, (x0 + cell // 2, y0 + cell // 2), cell // 3, (60, 60, 60), -1)
            continue
        ink = (40, 40, 200) if card[1] in RED_SUITS else (30, 30, 30)
        cv2.putText(image, card[0], (x0 + 3, y0 + 12), cv2.FONT_HERSHEY_SIMPLEX, 0.35, ink, 1)
        cv2.circle(image, (x0 + cell // 2, y0 + cell // 2 + 4), 4, ink, -1)
        cv2.circle(image, (x0 + cell - 9, y0 + cell - 9), 3, ink, -1)
        symbol = grid[row][col]
        if symbol in CHIP_BGR:
            centre = (x0 + cell // 2 + 2, y0 + cell // 2 - 1)
            cv2.circle(image, centre, int(0.36 * cell), CHIP_BGR[symbol], -1, cv2.LINE_AA)
            cv2.circle(image, (centre[0] - 4, centre[1] - 4), 3, (250, 250, 250), -1)  # glossy highlight
        elif symbol == "?":
            cv2.rectangle(image, (x0, y0), (x0 + cell, y0 + cell), (120, 160, 210), -1)  # a hand
    return image


def plain_features(colour_lab: np.ndarray | None = None, colour_cover: np.ndarray | None = None,
                   texture: np.ndarray | None = None) -> CellFeatures:
    zeros = np.zeros((10, 10), np.float32)
    colour_lab = np.zeros((10, 10, 3), np.float32) if colour_lab is None else colour_lab
    texture = np.full((10, 10), 5.0, np.float32) if texture is None else texture  # card art or paper grain
    return CellFeatures(zeros, zeros, zeros if colour_cover is None else colour_cover, zeros, zeros, zeros, colour_lab,
                        texture, zeros, zeros, zeros, np.zeros((10, 10, 2), np.float32),
                        np.zeros((10, 10, PATCH_SIDE * PATCH_SIDE * 3), np.float32))
