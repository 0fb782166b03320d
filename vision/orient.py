"""Which side of the rectified board is the printed top: read from the card art.

Red suits (hearts, diamonds) and black suits (spades, clubs) form a pattern that no
quarter turn maps onto itself (../shared/RULES.md). Every visible card votes with the
colour of its ink; chips and hidden cells abstain. This needs no knowledge of the artwork.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from referee.cells import CORNER, LAYOUT, RED_SUITS
from vision.config import VisionConfig

GRID = 10
# +1 where the printed card is red, -1 where black, 0 on the corners
PRINTED_RED = np.array(
    [0 if card == CORNER else (1 if card[1] in RED_SUITS else -1) for card in LAYOUT], np.float32
).reshape(GRID, GRID)


@dataclass(frozen=True, slots=True)
class Orientation:
    quarter_turns: int  # clockwise quarter turns that bring the rectified board to the printed top
    margin: float  # how much better than the next best turn (votes)
    votes: int  # cards that voted


def ink_redness(lab: np.ndarray, not_paper: np.ndarray, cell_px: int, config: VisionConfig,
                covered: np.ndarray | None = None) -> np.ndarray:
    """Per cell, in [-1, 1]: how much of the ink is red (+1) rather than dark (-1).
    ``covered`` (H, W) marks pixels to ignore (chips), leaving a covered card its corners."""
    a, b = lab[..., 1], lab[..., 2]
    chroma = np.hypot(a, b)
    hue = np.degrees(np.arctan2(b, a)) % 360
    ink = not_paper > 0
    if covered is not None:
        ink &= ~covered
    red = ink & (chroma >= config.red_ink_chroma) & ((hue < 70) | (hue > 330))
    dark = ink & (chroma < config.red_ink_chroma) & (lab[..., 0] < config.dark_ink_lightness)
    red_count = red.reshape(GRID, cell_px, GRID, cell_px).sum(axis=(1, 3)).astype(np.float32)
    dark_count = dark.reshape(GRID, cell_px, GRID, cell_px).sum(axis=(1, 3)).astype(np.float32)
    return (red_count - dark_count) / np.maximum(red_count + dark_count, 1.0)


def find_orientation(redness: np.ndarray, voting: np.ndarray) -> Orientation:
    """The quarter turn whose printed red/black pattern best matches the cells' ink.

    ``voting`` marks the cells whose card is visible (no chip, not hidden).
    """
    votes = np.where(voting, redness, 0.0)
    scores = [float((np.rot90(votes, -k) * PRINTED_RED).sum()) for k in range(4)]
    order = np.argsort(scores)[::-1]
    return Orientation(int(order[0]), scores[order[0]] - scores[order[1]], int(voting.sum()))
