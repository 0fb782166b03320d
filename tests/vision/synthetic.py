"""Tiny synthetic rectified boards with known contents, drawn with OpenCV."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from referee.board import UNKNOWN, Board
from referee.cells import CORNER, LAYOUT, RED_SUITS
from vision.cell_model import PATCH_SIDE
from vision.config import VisionConfig
from vision.read_cells import CellFeatures

CELL = 40
CHIP_BGR = {"B": (190, 80, 20), "G": (60, 150, 30), "R": (40, 30, 200)}


def trees_alone(config: VisionConfig) -> VisionConfig:
    """``config`` reading with the cell model's trees alone, at the thresholds they were tuned
    with: the checks after reading settle the trees' doubts, and are tested on them (with the
    cell network, the photos those tests read have no doubts left to settle)."""
    return replace(config, cell_network=False, min_cell_confidence=0.8, max_hidden_probability=0.6)


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


# a board for the chip likeness: blue and green chips over varied card art, in paper-normalised Lab
CELL_PX = 32
BLUE, GREEN = (40.0, 10.0, -40.0), (55.0, -40.0, 30.0)
BLUE_CELLS, GREEN_CELLS = [11, 13, 15, 17, 31], [22, 24, 26, 28, 42]
UNSURE_CHIP, UNSURE_CARD = 55, 66


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
