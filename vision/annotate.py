"""Drawing a reading onto the photo: the grid, the chips read, the sequences, the '?' cells."""

from __future__ import annotations

from collections.abc import Iterable

import cv2
import numpy as np

from referee.board import UNKNOWN, Board
from referee.cells import Cell, cell_col, cell_row

GRID = 10
TEAM_BGR = {"B": (220, 90, 20), "G": (40, 170, 40), "R": (40, 40, 220)}
UNKNOWN_BGR = (0, 215, 255)
LINE_BGR = (255, 255, 255)


def cell_centres(lattice_xy: np.ndarray) -> np.ndarray:
    """(10, 10, 2) centre of every cell: the mean of its four lattice corners."""
    return (lattice_xy[:-1, :-1] + lattice_xy[1:, :-1] + lattice_xy[:-1, 1:] + lattice_xy[1:, 1:]) / 4


def annotate(image_bgr: np.ndarray, lattice_xy: np.ndarray, board: Board,
             runs: Iterable[tuple[str, tuple[Cell, ...]]]) -> np.ndarray:
    """A copy of the photo with the reading drawn on it. ``lattice_xy`` is in this image's
    pixels, printed orientation; ``runs`` are (team, cells) of completed sequences."""
    out = image_bgr.copy()
    cell_size = float(np.linalg.norm(lattice_xy[0, GRID] - lattice_xy[0, 0])) / GRID
    thickness = max(1, int(round(cell_size / 25)))
    for i in range(GRID + 1):
        cv2.polylines(out, [lattice_xy[i].astype(np.int32)], False, LINE_BGR, thickness, cv2.LINE_AA)
        cv2.polylines(out, [lattice_xy[:, i].astype(np.int32)], False, LINE_BGR, thickness, cv2.LINE_AA)
    centres = cell_centres(lattice_xy)
    radius = max(3, int(cell_size * 0.22))
    font_scale = cell_size / 60
    for index, symbol in enumerate(board.cells):
        centre = tuple(int(v) for v in centres[cell_row(index), cell_col(index)])
        if symbol in TEAM_BGR:
            cv2.circle(out, centre, radius, TEAM_BGR[symbol], -1, cv2.LINE_AA)
            _label(out, symbol, centre, font_scale, (255, 255, 255))
        elif symbol == UNKNOWN:
            cv2.circle(out, centre, radius, UNKNOWN_BGR, thickness + 1, cv2.LINE_AA)
            _label(out, "?", centre, font_scale, UNKNOWN_BGR)
    for team, cells in runs:
        ends = [centres[cell_row(c), cell_col(c)] for c in (cells[0], cells[-1])]
        cv2.line(out, tuple(int(v) for v in ends[0]), tuple(int(v) for v in ends[1]), (255, 255, 255), thickness * 6, cv2.LINE_AA)
        cv2.line(out, tuple(int(v) for v in ends[0]), tuple(int(v) for v in ends[1]), TEAM_BGR[team], thickness * 3, cv2.LINE_AA)
    top_left = tuple(int(v) for v in lattice_xy[0, 0])
    _label(out, "row 0", top_left, font_scale * 1.2, (0, 255, 255), anchor_centre=False)
    return out


def _label(image: np.ndarray, text: str, at: tuple[int, int], scale: float, colour: tuple[int, int, int],
           anchor_centre: bool = True) -> None:
    thickness = max(1, int(round(scale * 2)))
    (width, height), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
    x, y = (at[0] - width // 2, at[1] + height // 2) if anchor_centre else (at[0] + 4, at[1] - 6)
    cv2.putText(image, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), thickness + 2, cv2.LINE_AA)
    cv2.putText(image, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thickness, cv2.LINE_AA)
