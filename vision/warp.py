"""Warping the located grid to a square image of 10 x 10 cells of ``cell_px`` each.

The warp follows the 11 x 11 lattice of grid-line crossings (so a folded board or a bent
lens is followed cell by cell), interpolating bilinearly inside each cell.
"""

from __future__ import annotations

import cv2
import numpy as np

GRID = 10


def lattice_from_corners(corners_xy: np.ndarray) -> np.ndarray:
    """The (11, 11, 2) crossings of a flat grid with these outer corners (cyclic order:
    lattice [0,0], [0,10], [10,10], [10,0])."""
    unit = np.float32([[0, 0], [GRID, 0], [GRID, GRID], [0, GRID]])
    homography = cv2.getPerspectiveTransform(unit, corners_xy.astype(np.float32))
    cols, rows = np.meshgrid(np.arange(GRID + 1, dtype=np.float32), np.arange(GRID + 1, dtype=np.float32))
    points = np.stack([cols, rows], axis=-1).reshape(1, -1, 2)
    return cv2.perspectiveTransform(points, homography).reshape(GRID + 1, GRID + 1, 2)


def outer_corners(lattice_xy: np.ndarray) -> np.ndarray:
    """(4, 2) float32: a lattice's outer corners in cyclic order (lattice [0,0], [0,10], [10,10],
    [10,0]), the inverse of ``lattice_from_corners`` for a flat grid."""
    return lattice_xy[[0, 0, GRID, GRID], [0, GRID, GRID, 0]].astype(np.float32)


def rotate_lattice(lattice_xy: np.ndarray, quarter_turns: int) -> np.ndarray:
    """The lattice seen after turning the board by ``quarter_turns`` x 90 degrees clockwise:
    the returned lattice's [0, 0] is the old lattice's corner that becomes top-left."""
    return np.rot90(lattice_xy, k=-quarter_turns, axes=(0, 1)).copy()


def warp_maps(lattice_xy: np.ndarray, cell_px: int) -> tuple[np.ndarray, np.ndarray]:
    """cv2.remap maps: for every pixel of the square board image, where to read the photo.
    Bilinear inside each cell: first along the rows of the lattice, then down the columns."""
    side = GRID * cell_px
    u = (np.arange(side, dtype=np.float32) + 0.5) / cell_px  # grid units, cell centres at .5
    first = np.clip(np.floor(u).astype(np.int32), 0, GRID - 1)
    frac = (u - first)[:, None]
    # every lattice row, sampled at each output column: (11, side, 2)
    along = lattice_xy[:, first] * (1 - frac) + lattice_xy[:, first + 1] * frac
    rows = frac[:, :, None]
    points = along[first] * (1 - rows) + along[first + 1] * rows  # (side, side, 2)
    return np.ascontiguousarray(points[..., 0], np.float32), np.ascontiguousarray(points[..., 1], np.float32)


def warp_board(image_bgr: np.ndarray, lattice_xy: np.ndarray, cell_px: int) -> np.ndarray:
    """The (10 * cell_px, 10 * cell_px, 3) square image of the grid, lattice [0, 0] top-left."""
    map_x, map_y = warp_maps(lattice_xy, cell_px)
    return cv2.remap(image_bgr, map_x, map_y, interpolation=cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE)
