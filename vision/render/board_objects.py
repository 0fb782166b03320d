"""Things laid flat on the board itself: a card put down, the phone, the score pad, the deck.

At a real table they end up on the board between turns; seen from above, a card back or a
phone case can look like a chip and a card face like an empty card. They are drawn into the
board's artwork after its chips, so they lie on top of them, and the cells they cover count
as hidden.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.render.artwork import Artwork
from vision.render.cards import CardStyle
from vision.render.chips import ChipStyle
from vision.render.table import CARD_MM, ClutterItem, TableTexture, draw_clutter

KINDS = ("card", "card_back", "phone", "notepad", "deck")
KIND_WEIGHTS = (0.35, 0.25, 0.2, 0.1, 0.1)
SIZES_MM = {"card": CARD_MM, "card_back": CARD_MM, "deck": CARD_MM, "phone": (72.0, 150.0), "notepad": (105.0, 148.0)}


def sample_board_objects(rng: np.random.Generator, art: Artwork) -> list[ClutterItem]:
    """One or two objects whose centres lie over the grid, each wholly on the printed board
    (in the artwork's own millimetres, origin at its top-left corner)."""
    width_mm, height_mm = art.size[0] / art.px_per_mm, art.size[1] / art.px_per_mm
    grid = art.grid_corners() / art.px_per_mm
    items = []
    for _ in range(1 if rng.random() < 0.8 else 2):
        kind = str(rng.choice(KINDS, p=KIND_WEIGHTS))
        w, h = SIZES_MM[kind]
        reach = 0.5 * np.hypot(w, h)
        x0, y0 = max(grid[:, 0].min(), reach), max(grid[:, 1].min(), reach)
        x1, y1 = min(grid[:, 0].max(), width_mm - reach), min(grid[:, 1].max(), height_mm - reach)
        if x1 <= x0 or y1 <= y0:
            continue
        items.append(ClutterItem(kind=kind, x=float(rng.uniform(x0, x1)), y=float(rng.uniform(y0, y1)),
                                 angle_deg=float(rng.uniform(0, 360)), size_mm=(w, h), seed=int(rng.integers(2**31))))
    return items


def lay_on_board(art: Artwork, items: list[ClutterItem], deck_style: CardStyle, chips: ChipStyle) -> np.ndarray:
    """Draws ``items`` onto the artwork in place; returns the (H, W) float 0-1 share of each
    artwork pixel they cover."""
    board = TableTexture(art.image_bgr, 0.0, 0.0, art.px_per_mm)
    draw_clutter(board, items, deck_style, chips, 0.0, (0.0, 0.0), (0.0, 0.0))  # no loose chips among them
    cover = np.zeros(art.image_bgr.shape[:2], np.uint8)
    for item in items:
        outline = cv2.boxPoints(((item.x * art.px_per_mm - 0.5, item.y * art.px_per_mm - 0.5),
                                 (item.size_mm[0] * art.px_per_mm, item.size_mm[1] * art.px_per_mm), -item.angle_deg))
        cv2.fillPoly(cover, [np.round(outline).astype(np.int32)], 255)
    return cover.astype(np.float32) / 255

