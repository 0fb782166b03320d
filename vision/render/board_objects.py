"""Things laid flat on the board itself: a card put down, the phone, the score pad, the deck.

At a real table they end up on the board between turns; seen from above, a card back or a
phone case can look like a chip and a card face like an empty card. They are drawn into the
board's artwork after its chips, so they lie on top of them, and the cells they cover count
as hidden. Some lie across the board's edge: the part beyond it is laid on the table (an
``Overhang``), breaking the board's outline as it does at a real table.
"""

from __future__ import annotations

import cv2
import numpy as np

from dataclasses import dataclass

from vision.render.artwork import Artwork
from vision.render.cards import CardStyle
from vision.render.chips import ChipStyle
from vision.render.table import CARD_MM, ClutterItem, TableTexture, draw_clutter

KINDS = ("card", "card_back", "phone", "notepad", "deck")
KIND_WEIGHTS = (0.35, 0.25, 0.2, 0.1, 0.1)
SIZES_MM = {"card": CARD_MM, "card_back": CARD_MM, "deck": CARD_MM, "phone": (72.0, 150.0), "notepad": (105.0, 148.0)}
ACROSS_EDGE_SHARE = 0.35  # of objects, laid across one of the board's edges


@dataclass(frozen=True, slots=True)
class Overhang:
    """What lies beyond the board's edge: the artwork's frame widened by ``pad_px`` on every
    side, transparent but where an object reaches past the board."""

    bgra: np.ndarray
    pad_px: int


def _across_edge(rng: np.random.Generator, grid: np.ndarray, board_mm: tuple[float, float],
                 size_mm: tuple[float, float]) -> tuple[float, float]:
    """A centre near one edge of the board: the object covers the outer cells, the margin and
    some table."""
    side = int(rng.integers(4))
    along_axis, across_axis = (0, 1) if side in (0, 2) else (1, 0)
    lo, hi = grid[:, along_axis].min(), grid[:, along_axis].max()
    inward = 0.5 * min(size_mm)
    if side in (0, 3):  # top and left edges: the board edge is at 0
        grid_edge, board_edge = grid[:, across_axis].min(), 0.0
        across = rng.uniform(board_edge - 0.3 * inward, grid_edge + inward)
    else:
        grid_edge, board_edge = grid[:, across_axis].max(), board_mm[across_axis]
        across = rng.uniform(grid_edge - inward, board_edge + 0.3 * inward)
    centre = [0.0, 0.0]
    centre[along_axis], centre[across_axis] = float(rng.uniform(lo, hi)), float(across)
    return centre[0], centre[1]


def sample_board_objects(rng: np.random.Generator, art: Artwork) -> list[ClutterItem]:
    """One or two objects over the grid, most wholly on the printed board, some across its
    edge (in the artwork's own millimetres, origin at its top-left corner)."""
    board_mm = (art.size[0] / art.px_per_mm, art.size[1] / art.px_per_mm)
    grid = art.grid_corners() / art.px_per_mm
    items = []
    for _ in range(1 if rng.random() < 0.8 else 2):
        kind = str(rng.choice(KINDS, p=KIND_WEIGHTS))
        w, h = SIZES_MM[kind]
        if rng.random() < ACROSS_EDGE_SHARE:
            x, y = _across_edge(rng, grid, board_mm, (w, h))
        else:
            reach = 0.5 * np.hypot(w, h)
            x0, y0 = max(grid[:, 0].min(), reach), max(grid[:, 1].min(), reach)
            x1, y1 = min(grid[:, 0].max(), board_mm[0] - reach), min(grid[:, 1].max(), board_mm[1] - reach)
            if x1 <= x0 or y1 <= y0:
                continue
            x, y = float(rng.uniform(x0, x1)), float(rng.uniform(y0, y1))
        items.append(ClutterItem(kind=kind, x=x, y=y, angle_deg=float(rng.uniform(0, 360)), size_mm=(w, h),
                                 seed=int(rng.integers(2**31))))
    return items


def _pad_px(art: Artwork, items: list[ClutterItem]) -> int:
    """How far (artwork pixels) the objects reach past the board's edge."""
    width, height = art.size
    reach = 0.0
    for item in items:
        half_diagonal = 0.5 * np.hypot(*item.size_mm)
        x, y = item.x * art.px_per_mm, item.y * art.px_per_mm
        r = half_diagonal * art.px_per_mm
        reach = max(reach, r - x, r - y, x + r - width, y + r - height)
    return int(np.ceil(reach)) + 2 if reach > 0 else 0


def _drawn_on(canvas: np.ndarray, pad: int, art: Artwork, items: list[ClutterItem], deck_style: CardStyle,
              chips: ChipStyle) -> np.ndarray:
    """``canvas`` (the artwork widened by ``pad`` pixels each side) with ``items`` drawn into it."""
    widened = TableTexture(canvas, -pad / art.px_per_mm, -pad / art.px_per_mm, art.px_per_mm)
    draw_clutter(widened, items, deck_style, chips, 0.0, (0.0, 0.0), (0.0, 0.0))  # no loose chips among them
    return canvas


def lay_on_board(art: Artwork, items: list[ClutterItem], deck_style: CardStyle, chips: ChipStyle
                 ) -> tuple[np.ndarray, Overhang | None]:
    """Draws ``items`` onto the artwork in place; returns the (H, W) float 0-1 share of each
    artwork pixel they cover, and what of them lies beyond the board (None if nothing)."""
    pad = _pad_px(art, items)
    height, width = art.image_bgr.shape[:2]
    inside = (slice(pad, pad + height), slice(pad, pad + width))
    on_black = _drawn_on(cv2.copyMakeBorder(art.image_bgr, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=(0, 0, 0)),
                         pad, art, items, deck_style, chips)
    cover = np.zeros(on_black.shape[:2], np.uint8)
    for item in items:
        centre = ((item.x * art.px_per_mm + pad - 0.5), (item.y * art.px_per_mm + pad - 0.5))
        outline = cv2.boxPoints((centre, (item.size_mm[0] * art.px_per_mm, item.size_mm[1] * art.px_per_mm),
                                 -item.angle_deg))
        cv2.fillPoly(cover, [np.round(outline).astype(np.int32)], 255)
    on_board = cover[inside].astype(np.float32) / 255
    cover[inside] = 0
    if not cover.any():
        art.image_bgr[:] = on_black[inside]
        return on_board, None
    # drawn again on white: where the two differ, the table shows through (edges, shadows)
    on_white = _drawn_on(cv2.copyMakeBorder(art.image_bgr, pad, pad, pad, pad, cv2.BORDER_CONSTANT,
                                            value=(255, 255, 255)), pad, art, items, deck_style, chips)
    art.image_bgr[:] = on_black[inside]
    see_through = (on_white.astype(np.float32) - on_black).max(axis=2) / 255
    alpha = np.clip(1 - see_through, 0, 1)
    alpha[inside] = 0
    colour = np.clip(on_black / np.maximum(alpha, 1e-3)[..., None], 0, 255)
    return on_board, Overhang(np.dstack([colour, 255 * alpha]).astype(np.uint8), pad)
