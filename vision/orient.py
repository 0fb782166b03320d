"""Which side of the rectified board is the printed top: read from the card art.

Red suits (hearts, diamonds) and black suits (spades, clubs) form a pattern that no
quarter turn maps onto itself (../shared/RULES.md). Every visible card votes with the
colour of its ink; chips and hidden cells abstain. This needs no knowledge of the artwork.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from referee.cells import CORNER, LAYOUT, RED_SUITS

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


def ink_redness(lab: np.ndarray, not_paper: np.ndarray, cell_px: int, covered: np.ndarray | None = None) -> np.ndarray:
    """Per cell, how red its ink is: the mean red-green coordinate (a*) of its ink pixels,
    NaN where a cell shows no ink. ``covered`` (H, W) marks pixels to ignore (chips),
    leaving a covered card its corners."""
    ink = not_paper > 0
    if covered is not None:
        ink &= ~covered
    per_cell = (GRID, cell_px, GRID, cell_px)
    count = ink.reshape(per_cell).sum(axis=(1, 3)).astype(np.float32)
    red_sum = np.where(ink, lab[..., 1], 0.0).reshape(per_cell).sum(axis=(1, 3))
    return np.where(count >= 3, red_sum / np.maximum(count, 1.0), np.nan).astype(np.float32)


def find_orientation(redness: np.ndarray, voting: np.ndarray) -> Orientation:
    """The quarter turn whose printed red/black pattern best matches the cells' ink.

    ``voting`` marks the cells whose card shows. Half the printed cards are red, so each
    cell votes by how much redder its ink is than the board's median card: a colour cast or
    a faded print moves every card alike and changes nothing.
    """
    voting = voting & ~np.isnan(redness)
    if not voting.any():
        return Orientation(0, 0.0, 0)
    centred = redness - np.median(redness[voting])
    spread = float(np.median(np.abs(centred[voting]))) + 1e-3
    votes = np.where(voting, np.clip(centred / spread, -1.0, 1.0), 0.0)
    scores = [float((np.rot90(votes, -k) * PRINTED_RED).sum()) for k in range(4)]
    order = np.argsort(scores)[::-1]
    return Orientation(int(order[0]), scores[order[0]] - scores[order[1]], int(voting.sum()))
