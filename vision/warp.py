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


def lattice_points(lattice_xy: np.ndarray, cols: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """(len(rows), len(cols), 2) image positions of the grid points at ``cols`` x ``rows`` (grid
    units, 0 to 10; points outside are extrapolated from the outer cells). Bilinear inside each
    cell: first along the rows of the lattice, then down the columns."""
    col_cell = np.clip(np.floor(cols).astype(np.int32), 0, GRID - 1)
    col_frac = (cols - col_cell)[:, None].astype(np.float32)
    row_cell = np.clip(np.floor(rows).astype(np.int32), 0, GRID - 1)
    row_frac = (rows - row_cell)[:, None, None].astype(np.float32)
    # every lattice row, sampled at each wanted column: (11, len(cols), 2)
    along = lattice_xy[:, col_cell] * (1 - col_frac) + lattice_xy[:, col_cell + 1] * col_frac
    return along[row_cell] * (1 - row_frac) + along[row_cell + 1] * row_frac


def shifted_lattice(lattice_xy: np.ndarray, shift_xy: tuple[float, float]) -> np.ndarray:
    """The lattice moved by ``shift_xy`` cells along its columns (x) and rows (y), following
    its bends."""
    steps = np.arange(GRID + 1, dtype=np.float32)
    return lattice_points(lattice_xy, steps + shift_xy[0], steps + shift_xy[1]).astype(np.float32)


def stretched_lattice(lattice_xy: np.ndarray, move: np.ndarray) -> np.ndarray:
    """The lattice with each crossing (x, y) moved by (1, x - 5, y - 5) @ ``move`` cells
    along its columns and rows (``chip_grid.grid_stretch``), following its bends."""
    rows, cols = np.mgrid[0 : GRID + 1, 0 : GRID + 1].astype(np.float32)
    moved = np.stack([np.ones_like(cols), cols - GRID / 2, rows - GRID / 2], axis=-1) @ move.astype(np.float32)
    wanted_cols, wanted_rows = cols + moved[..., 0], rows + moved[..., 1]
    col_cell = np.clip(np.floor(wanted_cols).astype(np.int32), 0, GRID - 1)
    row_cell = np.clip(np.floor(wanted_rows).astype(np.int32), 0, GRID - 1)
    col_frac, row_frac = (wanted_cols - col_cell)[..., None], (wanted_rows - row_cell)[..., None]
    top = lattice_xy[row_cell, col_cell] * (1 - col_frac) + lattice_xy[row_cell, col_cell + 1] * col_frac
    bottom = lattice_xy[row_cell + 1, col_cell] * (1 - col_frac) + lattice_xy[row_cell + 1, col_cell + 1] * col_frac
    return (top * (1 - row_frac) + bottom * row_frac).astype(np.float32)


def warp_maps(lattice_xy: np.ndarray, cell_px: int) -> tuple[np.ndarray, np.ndarray]:
    """cv2.remap maps: for every pixel of the square board image, where to read the photo."""
    u = (np.arange(GRID * cell_px, dtype=np.float32) + 0.5) / cell_px  # grid units, cell centres at .5
    points = lattice_points(lattice_xy, u, u)
    return np.ascontiguousarray(points[..., 0], np.float32), np.ascontiguousarray(points[..., 1], np.float32)


def warp_board(image_bgr: np.ndarray, lattice_xy: np.ndarray, cell_px: int) -> np.ndarray:
    """The (10 * cell_px, 10 * cell_px, 3) square image of the grid, lattice [0, 0] top-left."""
    map_x, map_y = warp_maps(lattice_xy, cell_px)
    return cv2.remap(image_bgr, map_x, map_y, interpolation=cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE)
