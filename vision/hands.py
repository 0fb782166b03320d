"""Reading the part of a cell a hand leaves in view.

A hand over the board covers some cells whole and the cells along its edge in part. Those
edge cells are where a photo most often goes '?': the cell model, seeing a hand over part of
a card, cannot tell how much of the chip region it covers, and a chip under fingers shows a
colour between the chip's and theirs. Here the hand is found in each
photo by its own colours, and the covered part of an edge cell is filled with the part
opposite it through the cell's centre (a half turn), or where that is covered too (a finger
across the centre), with the part a quarter turn away: a chip is a disc round that centre
and playing cards are printed the same either way up, so the turned part shows what the
hidden part holds (turned a quarter, a card's print is still ink on paper). The cell model
then reads the mended cell as it reads any other.

The hand's colours are learnt from the photo alone (skin, sleeves and light differ at every
table): the cells the model is sure a hand hides against the cells it is sure no hand
touches, as two colour histograms; a pixel is the hand's where its colour is clearly likelier
among the hidden cells', and only where it joins the hand those cells show.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from referee.cells import CORNERS
from vision.cell_model import CLASSES
from vision.config import VisionConfig
from vision.read_cells import (CellFeatures, PreparedBoard, called_classes, cell_pixels, cell_probabilities,
                               centred_disc)
from vision.warp import GRID

BINS = 16  # per Lab channel of the colour histograms
LAB_LOW = np.float32([0.0, -64.0, -64.0])  # the range the histograms span (paper-normalised Lab)
LAB_HIGH = np.float32([110.0, 64.0, 64.0])
RAREST_SHARE = 1e-6  # a histogram's share counted in a bin none of its pixels fall in


@dataclass(frozen=True)
class HandCover:
    """Where a hand lies on the rectified board, and how much of each cell's chip region it covers."""

    mask: np.ndarray  # (H, W) bool
    disc_share: np.ndarray  # (10, 10) share of the cell's central disc under the hand
    unfilled_share: np.ndarray  # (10, 10) share of it under the hand turned every quarter turn about the centre too


def colour_bins(lab: np.ndarray) -> np.ndarray:
    """(H, W) the histogram bin of each pixel's colour."""
    scaled = (lab - LAB_LOW) / (LAB_HIGH - LAB_LOW) * BINS
    index = np.clip(scaled.astype(np.int32), 0, BINS - 1)
    return (index[..., 0] * BINS + index[..., 1]) * BINS + index[..., 2]


def smoothed_histogram(bins: np.ndarray) -> np.ndarray:
    """(BINS**3,) the share of ``bins`` in each colour bin, spread a little into its neighbours
    (a hand's shading moves its colour from bin to bin)."""
    counts = np.bincount(bins, minlength=BINS**3).astype(np.float64).reshape(BINS, BINS, BINS)
    for axis in range(3):
        counts = 0.5 * counts + 0.25 * (np.roll(counts, 1, axis) + np.roll(counts, -1, axis))
    return counts.reshape(-1) / max(counts.sum(), 1.0)


def hand_cover(prepared: PreparedBoard, hidden: np.ndarray, config: VisionConfig) -> HandCover | None:
    """The hand over the board (``hidden`` (100,): the cell model's probability of a hand per
    cell), or None where no cell is surely hidden or the hand's colours are not its own (its
    sure cells then show too little of them: a hand as pale as the paper)."""
    hidden = hidden.reshape(GRID, GRID)
    seeds = hidden >= config.hand_seed_probability
    seeds.flat[list(CORNERS)] = False
    free = hidden <= config.hand_free_probability
    if not seeds.any() or not free.any():
        return None
    cell = prepared.cell_px
    bins = colour_bins(prepared.lab)
    seed_pixels = cell_pixels(seeds, cell)
    # a colour seen in neither is no hand's
    likelier = (smoothed_histogram(bins[seed_pixels]) >
                config.hand_colour_odds * (smoothed_histogram(bins[cell_pixels(free, cell)]) + RAREST_SHARE))
    handlike = cv2.morphologyEx(likelier[bins].astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    if handlike[seed_pixels].mean() < config.hand_min_seed_share:
        return None
    _, labels = cv2.connectedComponents(handlike)
    joined = np.unique(labels[seed_pixels & (handlike > 0)])
    mask = np.isin(labels, joined[joined > 0])
    per_cell = np.swapaxes(mask.reshape(GRID, cell, GRID, cell), 1, 2)
    disc = centred_disc(cell, config.wide_chip_radius)
    unfilled = per_cell.copy()
    for turns in (1, 2, 3):
        unfilled &= np.rot90(per_cell, turns, axes=(2, 3))
    return HandCover(mask, per_cell[:, :, disc].mean(axis=2), unfilled[:, :, disc].mean(axis=2))


def filled_from_view(prepared: PreparedBoard, hand: np.ndarray, cells: np.ndarray) -> PreparedBoard:
    """``prepared`` with each pixel of ``cells`` ((10, 10) bool) under the ``hand`` ((H, W) bool)
    replaced by the pixel a half turn about its cell's centre away, where that one is in view,
    else by one a quarter turn away."""
    cell = prepared.cell_px
    ys, xs = np.nonzero(hand & cell_pixels(cells, cell))
    top, left, y, x = (ys // cell) * cell, (xs // cell) * cell, ys % cell, xs % cell
    far = cell - 1
    lab, not_paper = prepared.lab.copy(), prepared.not_paper.copy()
    todo = np.ones(len(ys), bool)
    # the half turn first (a card's print is the same either way up), then the quarter turns
    for from_y, from_x in ((far - y, far - x), (x, far - y), (far - x, y)):
        source_y, source_x = top + from_y, left + from_x
        use = todo & ~hand[source_y, source_x]
        lab[ys[use], xs[use]] = prepared.lab[source_y[use], source_x[use]]
        not_paper[ys[use], xs[use]] = prepared.not_paper[source_y[use], source_x[use]]
        todo &= ~use
    return replace(prepared, lab=lab, not_paper=not_paper, mended=cells, hand=hand)


def mendable(cover: HandCover, calls: np.ndarray, config: VisionConfig) -> np.ndarray:
    """(10, 10) bool: the cells the model could not call (``calls`` (100,), -1 or hidden) or
    called a chip, with at most ``max_mended_cover`` of their chip region under the hand and
    nearly all of that filled from view (``max_unfilled_cover``). A chip's colour is measured
    on its disc: fingers over part of it (skin, a sleeve) left its colour between the chip's
    and theirs, no team's. On dev photos (seeds 20261216, 20261217, 4242, 7373) mending chip
    calls too made boards exact 422 -> 441 of 554, '?' 319 -> 285, hidden cells wrong 19 -> 18,
    no wrong call more. An empty call is left as read: mended too, dev gained (exact 441 ->
    447), but a fresh held-out photo (independent renderer a, seed 80, photo 69) read a red
    chip under a hand empty, which a print check had made '?' (red on a black card)."""
    unsettled = np.isin(calls, (-1, CLASSES.index("hidden"), CLASSES.index("chip"))).reshape(GRID, GRID)
    unsettled.flat[list(CORNERS)] = False  # printed chips
    return (unsettled & (cover.disc_share > 0) & (cover.disc_share <= config.max_mended_cover)
            & (cover.unfilled_share <= config.max_unfilled_cover))


def mended_behind_hand(prepared: PreparedBoard, features: CellFeatures, config: VisionConfig) -> PreparedBoard | None:
    """``prepared`` with the cells a hand covers in part filled from their part in view
    (``mendable``), or None where there are none."""
    probabilities = cell_probabilities(features)
    cover = hand_cover(prepared, probabilities[:, CLASSES.index("hidden")], config)
    if cover is None:
        return None
    cells = mendable(cover, called_classes(probabilities, config), config)
    return filled_from_view(prepared, cover.mask, cells) if cells.any() else None
