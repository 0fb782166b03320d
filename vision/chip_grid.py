"""The chips as a check on the grid: players set each chip on its card's centre, so when the
chips read sit consistently off their cells' centres, the grid (not the chips) is off.

A grid placed a fifth to a half of a cell off reads chips that straddle two cells: some are
called '?', some are given to the wrong cell. Moving the grid by the chips' common offset and
reading again puts them back. A grid a little too small, too large or skewed (its far side
a third of a cell off, its near side right) sees offsets that drift across the board: with
enough chips spread over it, an affine move fits them (``grid_stretch``). A grid wrong by a
whole cell is the locating stage's to avoid.
"""

from __future__ import annotations

import cv2
import numpy as np

from referee.board import CHIP_COLOURS, UNKNOWN, Board
from vision.config import VisionConfig
from vision.read_cells import GRID, CellFeatures, PreparedBoard

CLOSING = np.ones((3, 3), np.uint8)  # fills a glossy chip's small highlight


def chip_depth(prepared: PreparedBoard, config: VisionConfig) -> np.ndarray:
    """How deep each pixel of the board lies inside coloured, non-paper ground: a chip's
    centre is the deepest point of its disc. Shadows and black ink are not coloured, so they
    do not pull it."""
    lab = prepared.lab
    coloured = (np.hypot(lab[..., 1], lab[..., 2]) >= config.min_colour_chroma) & (prepared.not_paper >= 0.5)
    closed = cv2.morphologyEx(coloured.astype(np.uint8), cv2.MORPH_CLOSE, CLOSING)
    return cv2.distanceTransform(closed, cv2.DIST_L2, 3)


def chip_cells(features: CellFeatures, board: Board, config: VisionConfig) -> list[tuple[int, int]]:
    """(row, col) of the cells read as a chip, and of those read '?' whose disc is mostly one
    colour: on a grid a third of a cell off, most chips straddle two cells and read '?'."""
    coloured = features.colour_cover >= config.round_test_min_cover
    return [divmod(index, GRID) for index, symbol in enumerate(board.cells)
            if symbol in CHIP_COLOURS or (symbol == UNKNOWN and coloured[divmod(index, GRID)])]


def chip_offsets(prepared: PreparedBoard, features: CellFeatures, board: Board,
                 config: VisionConfig) -> tuple[np.ndarray, np.ndarray]:
    """(N, 2) offsets (x, y, in cells) of the chips seen (``board`` in the rectified orientation)
    from their cells' centres, and (N, 2) those centres (x, y, in cells from the grid's
    corner). Each chip's centre is the deepest point within half a cell of where its disc was
    placed: its own centre lies inside that window, a neighbour's does not. A window whose
    deepest point is shallower than a chip is no chip (art, a hand's edge)."""
    chips = chip_cells(features, board, config)
    if len(chips) < config.shift_min_chips:
        return np.zeros((0, 2), np.float32), np.zeros((0, 2), np.float32)
    depth = chip_depth(prepared, config)
    cell = prepared.cell_px
    offsets, centres = [], []
    for row, col in chips:
        disc_y, disc_x = features.centre_yx[row, col]
        top, left = max(0, disc_y - cell // 2), max(0, disc_x - cell // 2)
        window = depth[top : disc_y + cell // 2 + 1, left : disc_x + cell // 2 + 1]
        y, x = np.unravel_index(int(window.argmax()), window.shape)
        if window[y, x] >= config.shift_min_chip_radius * cell:
            offsets.append(((left + x + 0.5) / cell - col - 0.5, (top + y + 0.5) / cell - row - 0.5))
            centres.append((col + 0.5, row + 0.5))
    return np.array(offsets, np.float32).reshape(-1, 2), np.array(centres, np.float32).reshape(-1, 2)


def grid_shift(offsets: np.ndarray, config: VisionConfig) -> tuple[float, float] | None:
    """How far the grid must move (x, y, in cells) to sit under the chips, or None when it
    already does or the chips do not agree. The mean is taken on the circle of one cell's
    period: a grid half a cell off sees chips at +0.5 and at -0.5, which are the same offset."""
    if len(offsets) < config.shift_min_chips:
        return None
    angle = 2.0 * np.pi * offsets
    shift = np.arctan2(np.sin(angle).mean(axis=0), np.cos(angle).mean(axis=0)) / (2.0 * np.pi)
    if np.abs(shift).max() < config.shift_min_cells:
        return None
    apart = offsets - shift
    apart -= np.round(apart)  # on the circle too
    if np.mean(np.abs(apart).max(axis=1) <= config.shift_agreement) < config.shift_min_agreeing:
        return None
    return float(shift[0]), float(shift[1])


def grid_stretch(offsets: np.ndarray, centres: np.ndarray, config: VisionConfig) -> np.ndarray | None:
    """For chips whose offsets drift across the board (a grid a little too small, too large or
    skewed: its far side a third of a cell off, its near side not), the (3, 2) affine map from
    (1, x - 5, y - 5) of a point of the grid (cells) to how far it must move (x, y, cells);
    None when the chips do not agree on one (``shift_agreement``, ``shift_min_agreeing``),
    span too little of the board to tell (``stretch_min_span`` cells each way), or ask for
    less than ``shift_min_cells`` or more than ``stretch_max_cells`` anywhere on the grid."""
    if len(offsets) < config.stretch_min_chips or np.ptp(centres, axis=0).min() < config.stretch_min_span:
        return None
    design = np.column_stack([np.ones(len(centres)), centres - GRID / 2])
    agreeing = np.ones(len(offsets), bool)
    for _ in range(3):  # refit on the chips that agree with the fit before
        coefficients = np.linalg.lstsq(design[agreeing], offsets[agreeing], rcond=None)[0]
        agreeing = np.abs(design @ coefficients - offsets).max(axis=1) <= config.shift_agreement
        if agreeing.sum() < config.stretch_min_chips:
            return None
    largest = stretch_reach(coefficients)
    if agreeing.mean() < config.shift_min_agreeing or not config.shift_min_cells <= largest <= config.stretch_max_cells:
        return None
    return coefficients


def grid_move(offsets: np.ndarray, centres: np.ndarray, config: VisionConfig) -> np.ndarray | None:
    """How the grid must move onto its chips, as the (3, 2) affine map of ``grid_stretch``:
    one shift where the chips agree on it (``grid_shift``, the map's constant part), else a
    stretch; None when neither fits."""
    shift = grid_shift(offsets, config)
    if shift is not None:
        return np.array([shift, (0.0, 0.0), (0.0, 0.0)], np.float32)
    return grid_stretch(offsets, centres, config)


def stretch_reach(coefficients: np.ndarray) -> float:
    """How far (cells) the affine move of ``grid_stretch`` takes the grid's furthest point: a corner."""
    corners = np.array([[1.0, dx, dy] for dx in (-GRID / 2, GRID / 2) for dy in (-GRID / 2, GRID / 2)])
    return float(np.abs(corners @ coefficients).max())


def keeps_shift(before: Board, after: Board, largest_move: float, config: VisionConfig) -> bool:
    """Whether the reading on the moved grid (``after``) replaces the first: it must leave
    fewer cells '?', or as few when the move (``largest_move`` cells, where the grid moved
    most) is too large to be the chips' parallax (on a tilted photo, the chips' tops stand
    off their cards by up to a fifth of a cell)."""
    unknown_before, unknown_after = before.cells.count(UNKNOWN), after.cells.count(UNKNOWN)
    return unknown_after < unknown_before or (unknown_after == unknown_before
                                              and largest_move >= config.shift_beyond_parallax)
