"""Reading every cell of the rectified board: empty, a team's chip, or unknown.

Zero set-up: the paper white of the cards sets the white balance, chips are found as discs
that differ from the paper, and their colours are clustered per photo, starting from the
usual blue, green and red. A cell that fits nothing well is '?': a wrong colour is the
worst outcome.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from referee.board import CORNER_MARK, EMPTY, UNKNOWN, Board
from referee.cells import CORNERS
from vision.cell_model import CLASSES, PATCH_SIDE, CellModel, default_model
from vision.cell_net import NETWORK_WEIGHT, cell_crops, net_probabilities
from vision.config import VisionConfig

GRID = 10
TEAM_HUES_DEG = {"R": 25.0, "G": 140.0, "B": 285.0}  # Lab hue angle of typical chips
MIN_GREY_SHARE = 0.05  # a cell this much nearly grey shows its card paper (card_paper)
PAPER_L = 92.0  # the paper's lightness once normalised (normalised_to_paper)
RED_INK_HUE_DEG = 25.0  # Lab hue angle of red suit ink (and of red chips: a red disc on a red card may be either)


@dataclass(frozen=True, slots=True, eq=False)  # hashed by identity: the cell model's answer is kept per board read
class CellFeatures:
    """Per-cell measurements, each a (10, 10) array."""

    disc_cover: np.ndarray  # share of the best-placed chip disc that is not paper
    wide_cover: np.ndarray  # the same for a disc as wide as a large chip
    colour_cover: np.ndarray  # share of the disc of one colour (a chip, even pale or translucent)
    corner_paper: np.ndarray  # share of the cell's four corners that is paper
    corner_lightness: np.ndarray  # their mean lightness against the paper's (92): shadows, hands
    corner_colour: np.ndarray  # share of them in the disc's colour: no chip reaches there, a hand or sleeve does
    colour_lab: np.ndarray  # (10, 10, 3) median L, a, b of the coloured part of the disc
    texture: np.ndarray  # mean gradient of lightness inside the disc: ink and art are busy, chips smooth
    roundness: np.ndarray  # for one-coloured discs, how round the blob is (0 elsewhere)
    paper_shade: np.ndarray  # lightness of the cell's local "paper" against the board's: a hand or a shadow ...
    paper_tint: np.ndarray  # ... spread over the cell and its neighbours becomes their "paper", so say how it differs
    centre_yx: np.ndarray  # (10, 10, 2) where the disc was placed, in board pixels
    patch: np.ndarray  # (10, 10, PATCH_SIDE * PATCH_SIDE * 3) the cell's picture shrunk, paper-normalised Lab
    board_lab: np.ndarray | None = None  # the paper-normalised Lab board measured, which vision.cell_net looks at

    def matrix(self) -> np.ndarray:
        """(100, F) in the order of vision.cell_model.FEATURES."""
        chroma = np.hypot(self.colour_lab[..., 1], self.colour_lab[..., 2])
        columns = (self.disc_cover, self.wide_cover, self.colour_cover, self.corner_paper, self.texture,
                   chroma, self.colour_lab[..., 0], self.roundness, self.corner_lightness, self.paper_shade,
                   self.paper_tint)
        scalars = np.stack([c.reshape(-1) for c in columns], axis=1)
        return np.hstack([scalars, self.patch.reshape(GRID * GRID, -1)]).astype(np.float32)


@dataclass(frozen=True, slots=True)
class PreparedBoard:
    """The rectified board in white-balanced Lab, and where it is not card paper."""

    lab: np.ndarray  # (H, W, 3) float32, L 0-100
    not_paper: np.ndarray  # (H, W) float32, 1 where the pixel differs from the paper
    cell_px: int
    paper_lab: np.ndarray  # (10, 10, 3) each cell's local paper colour, which ``lab`` was normalised to
    small_cards: bool = False  # the cards sit inside their cells on a coloured ground (``local_paper``)
    mended: np.ndarray | None = None  # (10, 10) cells whose part under a hand shows their part in view turned (vision.hands)
    hand: np.ndarray | None = None  # (H, W) bool where a hand lies, found where cells were mended

    def in_view(self) -> np.ndarray:
        """(H, W) bool: the pixels no hand found covers."""
        return ~self.hand if self.hand is not None else np.ones(self.lab.shape[:2], bool)


CLIPPED = 250  # a channel this bright may have been cut off by the camera
NEAR_CLIPPED = 200  # paper a little shaded below clipping still shows the light's colour
MIN_SHADED_PAPER = 0.05  # ... when at least this share of the board is such paper


def brightest_quarter(brightness: np.ndarray) -> np.ndarray:
    """The pixels in the brightest quarter of ``brightness`` (a pixel's largest channel): the paper."""
    return brightness >= np.percentile(np.ascontiguousarray(brightness[::3, ::3]), 75)


def paper_clipped(board_bgr: np.ndarray) -> bool:
    """Whether most of the brightest quarter of the board (the paper) is clipped white."""
    brightness = board_bgr.max(axis=2)
    bright = brightest_quarter(brightness)
    return bool(np.count_nonzero(bright & (brightness >= CLIPPED)) >= 0.5 * np.count_nonzero(bright))


def shaded_paper(board_bgr: np.ndarray) -> np.ndarray | None:
    """Where clipped paper still shows the light's colour: its pixels just below clipping
    (``NEAR_CLIPPED``), the brighter half, when they cover ``MIN_SHADED_PAPER`` of the board
    and their colour is one white paper takes under some light (``lit_paper_like``); else None."""
    brightness = board_bgr.max(axis=2)
    shaded = (brightness < CLIPPED) & (brightness >= NEAR_CLIPPED)
    if np.count_nonzero(shaded) < MIN_SHADED_PAPER * shaded.size:
        return None
    shaded &= brightness >= np.percentile(brightness[shaded], 50)
    return shaded if lit_paper_like(cv2.mean(board_bgr, mask=shaded.astype(np.uint8))[:3]) else None


def lit_paper_like(bgr: tuple[float, ...]) -> bool:
    """Whether a colour may be white paper under some light: warm or cool, green lies between
    blue and red (a pink or green ground between small cards does not).

    >>> lit_paper_like((142, 201, 243)), lit_paper_like((218, 178, 248)), lit_paper_like((150, 240, 160))
    (True, False, False)
    """
    blue, green, red = bgr
    return 0.95 * min(blue, red) <= green <= 1.05 * max(blue, red)


def white_balanced_lab(board_bgr: np.ndarray, from_shaded_paper: bool = False) -> np.ndarray:
    """Float Lab (L 0-100, a and b signed) after scaling the paper white to neutral: the paper
    is the brightest quarter of pixels or, where that quarter holds a clearly more colourful
    half (a light coloured ground between small cards, as bright as they are), the other half.
    ``from_shaded_paper``: clipped paper is white whatever the light, so the paper is taken
    just below clipping (``shaded_paper``) where it shows."""
    blue, green, red = cv2.split(board_bgr)
    brightness = cv2.max(cv2.max(blue, green), red)
    darkest = cv2.min(cv2.min(blue, green), red)
    shaded = shaded_paper(board_bgr) if from_shaded_paper else None
    bright = shaded if shaded is not None else brightest_quarter(brightness)
    colourfulness = (brightness.astype(np.float32) - darkest) / np.maximum(brightness, 1)
    paper = bright & (colourfulness <= np.median(colourfulness[bright]))
    colourful = bright & ~paper
    if not colourful.any() or np.median(colourfulness[colourful]) - np.median(colourfulness[paper]) < 0.2:
        paper = bright  # one colour of paper (under a colour cast too): all of it
    paper = paper.astype(np.uint8)
    gains = np.array(cv2.mean(board_bgr, mask=paper)[:3], np.float32)
    balanced = cv2.multiply(board_bgr, tuple(float(g) for g in 235.0 / np.maximum(gains, 1.0)) + (0.0,),
                            dtype=cv2.CV_8U)
    # per-channel scale and offset by OpenCV: numpy's channel slices and broadcasts took most of the time
    lab = cv2.multiply(cv2.cvtColor(balanced, cv2.COLOR_BGR2LAB), (100.0 / 255.0, 1.0, 1.0, 0.0), dtype=cv2.CV_32F)
    lab = cv2.subtract(lab, (0.0, 128.0, 128.0, 0.0))
    return lab


def centred_disc(cell: int, radius_share: float) -> np.ndarray:
    """(cell, cell) mask of the disc at a cell's centre, ``radius_share`` of the cell in radius:
    where a chip lies."""
    offset = np.arange(cell) - (cell - 1) / 2
    return offset[:, None] ** 2 + offset[None, :] ** 2 <= (radius_share * cell) ** 2


def card_ring(cell: int) -> np.ndarray:
    """(cell, cell) mask of a card's corners, inset from the separating lines: paper
    unless a hand, a shadow or a large chip covers them."""
    yy, xx = np.mgrid[0:cell, 0:cell] - (cell - 1) / 2
    square = np.maximum(np.abs(yy), np.abs(xx)) / cell
    return (square > 0.3) & (square < 0.42) & (np.hypot(yy, xx) > 0.45 * cell)


def local_paper(lab: np.ndarray, cell: int, config: VisionConfig) -> tuple[np.ndarray, np.ndarray | None]:
    """(10, 10, 3) the paper's Lab colour around each cell, from the brighter half of its
    card corners, smoothed over neighbours so that covered corners borrow from them.

    On a board whose small cards sit on a coloured ground the corners show the ground: where
    they differ clearly from the cells' lightest grey (``card_paper``) on most cells
    that show some, that is the paper,
    and the corners' colour is returned second as the ground's (None on other boards)."""
    cells = _per_cell(lab, cell)
    corners = brighter_half(cells[:, :, card_ring(cell)])
    cards, grey_share = card_paper(cells, config.card_paper_max_chroma)
    grey_cells = grey_share >= MIN_GREY_SHARE
    # cream cards whose only grey is chips' highlights show no card clearly: no small cards
    clear_cards = int((grey_share >= config.ground_clear_card_share).sum())
    if grey_cells.sum() >= config.ground_min_grey_cells and clear_cards >= config.ground_min_clear_cards:
        apart = paper_distance(normalised_to_paper(corners[grey_cells][None], cards[grey_cells][None]))
        if np.median(apart) >= config.ground_min_distance:
            return smoothed_paper(cards), smoothed_paper(corners)
    # corners in a clear colour are a chip's (large chips packed together) or a sleeve's, not paper
    return smoothed_paper(corners, np.hypot(corners[..., 1], corners[..., 2]) <= config.paper_max_corner_chroma), None


def smoothed_paper(paper: np.ndarray, voting: np.ndarray | None = None) -> np.ndarray:
    """A cell's corners may be under a hand: the lightest of its neighbourhood wins, the colour
    by median. Where most of a neighbourhood is not ``voting`` ((10, 10) bool: corners that
    show paper), only those that are count, and a cell with none round it takes the board's
    paper (the median of the voting cells): a median outvoted by chips is a chip's colour."""
    smooth = cv2.medianBlur(np.ascontiguousarray(paper[..., 1:]).astype(np.float32), 3)
    lightest = cv2.dilate(paper[..., 0].astype(np.float32), np.ones((3, 3), np.uint8))
    smoothed = np.dstack([lightest, smooth]).astype(np.float32)
    if voting is None or not voting.any():
        return smoothed
    votes = np.where(voting[..., None], paper, np.nan)
    padded = np.pad(votes, ((1, 1), (1, 1), (0, 0)), mode="edge")  # as medianBlur and dilate, the border replicated
    around = np.stack([padded[dy : dy + GRID, dx : dx + GRID] for dy in range(3) for dx in range(3)], axis=2)
    voters = (~np.isnan(around[..., 0])).sum(axis=2)
    outvoted = voters < 5
    if not outvoted.any():
        return smoothed
    around[voters == 0] = np.median(paper[voting], axis=0)
    with np.errstate(all="ignore"):
        smoothed[outvoted, 0] = np.nanmax(around[outvoted, :, 0], axis=1)
        smoothed[outvoted, 1:] = np.nanmedian(around[outvoted, :, 1:], axis=1)
    return smoothed


def ground_band(cell: int, config: VisionConfig) -> np.ndarray:
    """(cell, cell) mask of a cell's edge band, ``ground_band`` of the cell wide, where the
    ground shows around a small card."""
    band = int(round(config.ground_band * cell))
    inside = np.zeros((cell, cell), bool)
    inside[band : cell - band, band : cell - band] = True
    return ~inside


def brighter_half(pixels: np.ndarray) -> np.ndarray:
    """(10, 10, P, 3) Lab pixels of each cell -> (10, 10, 3) the mean of the lighter half."""
    lightness = pixels[..., 0]
    bright = (lightness >= np.median(lightness, axis=2, keepdims=True)).astype(np.float32)
    return (pixels * bright[..., None]).sum(axis=2) / np.maximum(bright.sum(axis=2), 1.0)[..., None]


def card_paper(cells: np.ndarray, max_chroma: float) -> tuple[np.ndarray, np.ndarray]:
    """(10, 10, cell, cell, 3) -> (10, 10, 3) the brighter half of each cell's pixels that are
    nearly grey (chroma at most ``max_chroma``), and (10, 10) the share of each cell that is
    so; cells under ``MIN_GREY_SHARE`` take the median of the others (the board's median when none is)."""
    pixels = cells[:, :, ::2, ::2].reshape(GRID, GRID, -1, 3)
    grey = np.hypot(pixels[..., 1], pixels[..., 2]) <= max_chroma
    # each cell's median grey lightness: greys sorted first, the rest pushed past them as inf
    greys = np.sort(np.where(grey, pixels[..., 0], np.inf), axis=2)
    count = grey.sum(axis=2)
    middle = np.take_along_axis(greys, np.maximum(count - 1, 0)[..., None] // 2, axis=2)
    bright = grey & (pixels[..., 0] >= middle)
    paper = (pixels * bright[..., None]).sum(axis=2) / np.maximum(bright.sum(axis=2), 1)[..., None]
    share = grey.mean(axis=2)
    enough = share >= MIN_GREY_SHARE
    paper[~enough] = np.median(paper[enough] if enough.any() else pixels.reshape(-1, 3), axis=0)
    return paper.astype(np.float32), share


def normalised_to_paper(lab: np.ndarray, paper_lab: np.ndarray) -> np.ndarray:
    """Lab with the local paper colour (``local_paper``) moved to (``PAPER_L``, 0, 0): undoes
    light gradients, colour casts and soft shadows across the board."""
    paper = cv2.resize(paper_lab, (lab.shape[1], lab.shape[0]), interpolation=cv2.INTER_LINEAR)
    out = np.empty_like(lab)
    out[..., 0] = lab[..., 0] * (PAPER_L / np.maximum(paper[..., 0], 5.0))
    out[..., 1:] = lab[..., 1:] - paper[..., 1:]
    return out


def lab_distance(lab: np.ndarray, reference: tuple[float, float, float]) -> np.ndarray:
    """How far each Lab colour of ``lab`` (..., 3) is from ``reference``, lightness weighted half
    (a change of light moves lightness most)."""
    return np.sqrt((0.5 * (lab[..., 0] - reference[0])) ** 2 + (lab[..., 1] - reference[1]) ** 2
                   + (lab[..., 2] - reference[2]) ** 2)


def paper_distance(lab: np.ndarray) -> np.ndarray:
    """How far each pixel of a paper-normalised Lab image is from paper (``lab_distance``)."""
    return lab_distance(lab, (PAPER_L, 0.0, 0.0))


def prepare(board_bgr: np.ndarray, config: VisionConfig) -> PreparedBoard:
    cell_px = board_bgr.shape[0] // GRID
    balanced = white_balanced_lab(board_bgr, config.balance_on_shaded_paper)
    paper_lab, ground_lab = local_paper(balanced, cell_px, config)
    lab = normalised_to_paper(balanced, paper_lab)
    not_paper = paper_distance(lab) > config.paper_distance
    if ground_lab is not None:  # the ground round small cards is no chip and no ink: count it as paper
        ground = paper_distance(normalised_to_paper(balanced, ground_lab)) <= config.paper_distance
        not_paper &= ~(ground & np.tile(ground_band(cell_px, config), (GRID, GRID)))
    return PreparedBoard(lab, fill_small_holes(not_paper.astype(np.uint8), config.highlight_max_area * cell_px**2),
                         cell_px, paper_lab, small_cards=ground_lab is not None)


def fill_small_holes(mask: np.ndarray, max_area: float) -> np.ndarray:
    """The mask with small enclosed gaps filled: a glossy chip's highlight looks like paper."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(1 - mask, connectivity=4)
    small = np.zeros(count, bool)
    small[1:] = stats[1:, cv2.CC_STAT_AREA] <= max_area
    return np.where(small[labels], 1, mask).astype(np.float32)


def _disc_kernel(radius: float) -> np.ndarray:
    kernel = np.zeros((int(2 * radius) + 1,) * 2, np.float32)
    cv2.circle(kernel, (int(radius),) * 2, int(radius), 1.0, -1)
    return kernel / kernel.sum()


def _disc_cover(mask: np.ndarray, radius: float) -> np.ndarray:
    """Share of a disc of ``radius`` around every pixel that ``mask`` covers, computed at
    half resolution (the share varies slowly) and brought back to full size."""
    half = cv2.resize(mask, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    cover = cv2.filter2D(half, -1, _disc_kernel(radius / 2), borderType=cv2.BORDER_REFLECT)
    return cv2.resize(cover, (mask.shape[1], mask.shape[0]), interpolation=cv2.INTER_LINEAR)


def cell_pixels(cells: np.ndarray, cell_px: int) -> np.ndarray:
    """(rows, cols) bool, one per cell (or block) -> the (rows * cell_px, cols * cell_px) bool pixels of those cells."""
    return np.kron(cells, np.ones((cell_px, cell_px), bool)).astype(bool)


def _per_cell(image: np.ndarray, cell: int) -> np.ndarray:
    """(10 * cell, 10 * cell, ...) -> (10, 10, cell, cell, ...)"""
    shape = (GRID, cell, GRID, cell) + image.shape[2:]
    return np.swapaxes(image.reshape(shape), 1, 2)


def measure_cells(prepared: PreparedBoard, config: VisionConfig) -> CellFeatures:
    """Features of every cell, measured on a chip-sized disc placed where it covers the most
    non-paper within ``chip_offset`` of the cell's centre (chips lie off centre)."""
    lab, not_paper, cell = prepared.lab, prepared.not_paper, prepared.cell_px
    cover = _disc_cover(not_paper, config.chip_radius * cell)
    wide = _disc_cover(not_paper, config.wide_chip_radius * cell)
    lightness = cv2.GaussianBlur(lab[..., 0], (3, 3), 0)
    gradient = np.hypot(cv2.Sobel(lightness, cv2.CV_32F, 1, 0), cv2.Sobel(lightness, cv2.CV_32F, 0, 1))
    # capped, so that a chip's small sharp highlight weighs less than lines of printed ink
    core = (int(1.2 * config.chip_radius * cell) | 1,) * 2
    texture = cv2.boxFilter(np.minimum(gradient, config.gradient_cap), -1, core, borderType=cv2.BORDER_REFLECT)

    # best disc position in each cell's central window
    reach = int(config.chip_offset * cell)
    low, high = cell // 2 - reach, cell // 2 + reach + 1
    window = _per_cell(cover, cell)[:, :, low:high, low:high].reshape(GRID, GRID, -1)
    best = window.argmax(axis=2)
    dy, dx = np.divmod(best, high - low)
    rows, cols = np.mgrid[0:GRID, 0:GRID]
    ys, xs = rows * cell + low + dy, cols * cell + low + dx

    ring = card_ring(cell)
    corner_paper = 1.0 - _per_cell(not_paper, cell)[:, :, ring].mean(axis=2)
    corner_lightness = _per_cell(lab[..., 0], cell)[:, :, ring].mean(axis=2) - PAPER_L
    colour, colour_cover = disc_colours(lab, ys, xs, int(config.chip_radius * cell), config)
    corner_colour = near_colour(_per_cell(lab[..., 1:], cell)[:, :, ring], colour, config).mean(axis=2).astype(np.float32)
    roundness = np.zeros((GRID, GRID), np.float32)
    for row, col in zip(*np.nonzero(colour_cover >= config.round_test_min_cover)):
        roundness[row, col] = blob_roundness(lab, int(ys[row, col]), int(xs[row, col]), colour[row, col], cell)
    board_paper = np.median(prepared.paper_lab.reshape(-1, 3), axis=0)
    paper_shade = prepared.paper_lab[..., 0] - board_paper[0]
    paper_tint = np.linalg.norm(prepared.paper_lab[..., 1:] - board_paper[1:], axis=-1)
    return CellFeatures(cover[ys, xs], wide[ys, xs], colour_cover, corner_paper, corner_lightness, corner_colour, colour,
                        texture[ys, xs], roundness, paper_shade, paper_tint, np.stack([ys, xs], axis=-1),
                        cell_patches(lab), lab if config.cell_network else None)


def near_colour(pixels_ab: np.ndarray, colour_lab: np.ndarray, config: VisionConfig) -> np.ndarray:
    """(10, 10, P) True where each cell's (10, 10, P, 2) pixel (a, b) lies near its colour
    (10, 10, 3): within ``colour_spread``, or ``colour_spread_share`` of the colour's chroma."""
    distance = np.linalg.norm(pixels_ab - colour_lab[:, :, None, 1:], axis=-1)
    reach = np.maximum(config.colour_spread, config.colour_spread_share * np.hypot(colour_lab[..., 1], colour_lab[..., 2]))
    return distance <= reach[..., None]


def cell_patches(lab: np.ndarray) -> np.ndarray:
    """(10, 10, PATCH_SIDE * PATCH_SIDE * 3): each cell's picture shrunk to PATCH_SIDE pixels square."""
    side = GRID * PATCH_SIDE
    small = cv2.resize(lab, (side, side), interpolation=cv2.INTER_AREA)
    return np.swapaxes(small.reshape(GRID, PATCH_SIDE, GRID, PATCH_SIDE, 3), 1, 2).reshape(GRID, GRID, -1)


def disc_colours(lab: np.ndarray, ys: np.ndarray, xs: np.ndarray, radius: int,
                 config: VisionConfig) -> tuple[np.ndarray, np.ndarray]:
    """Per cell, the median colour of the coloured pixels of the disc at (ys, xs), and the
    share of the disc close to that colour."""
    offsets = np.arange(-radius, radius + 1, 2)  # every other pixel is plenty for shares and colours
    dy, dx = np.meshgrid(offsets, offsets, indexing="ij")
    inside = dy**2 + dx**2 <= radius**2
    patches = lab[ys[..., None] + dy[inside], xs[..., None] + dx[inside]]  # (10, 10, P, 3)
    ab = patches[..., 1:]
    coloured = (np.hypot(ab[..., 0], ab[..., 1]) >= config.min_colour_chroma).astype(np.float32)
    # the mean colour of the coloured pixels, then again of those near it (a trimmed mean:
    # a chip's rim, its highlight and ink around it do not pull the colour)
    colour = _weighted_mean(patches, coloured)
    for _ in range(2):
        near = coloured * near_colour(ab, colour, config)
        colour = np.where(near.sum(axis=2, keepdims=True) > 0, _weighted_mean(patches, near), colour)
    return colour.astype(np.float32), near.mean(axis=2).astype(np.float32)


def _weighted_mean(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """(10, 10, P, 3) values, (10, 10, P) weights -> (10, 10, 3); 0 where no weight."""
    return (values * weights[..., None]).sum(axis=2) / np.maximum(weights.sum(axis=2), 1e-6)[..., None]


def blob_roundness(lab: np.ndarray, y: int, x: int, colour: np.ndarray, cell: int) -> float:
    """How disc-like the blob of ``colour`` around (y, x) is: its area over the area of its
    smallest enclosing circle (a disc about 0.9, a heart or a diamond 0.6-0.75)."""
    half = int(0.6 * cell)
    top, left = max(0, y - half), max(0, x - half)
    crop = lab[top : y + half + 1, left : x + half + 1]
    chroma = float(np.hypot(colour[1], colour[2]))
    distance = np.hypot(crop[..., 1] - colour[1], crop[..., 2] - colour[2])
    same = (distance < max(10.0, 0.5 * chroma)).astype(np.uint8)
    # touching chips of one team meet at a narrow neck: open it so each chip stands alone
    neck = max(3, int(0.15 * cell) | 1)
    same = cv2.morphologyEx(same, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (neck, neck)))
    count, labels = cv2.connectedComponents(same, connectivity=8)
    label = labels[y - top, x - left]
    if label == 0:
        return 0.0
    points = cv2.findNonZero((labels == label).astype(np.uint8))
    _, radius = cv2.minEnclosingCircle(points)
    return float(len(points) / (np.pi * max(radius, 1.0) ** 2))


def typical_chip_ab(team: str, chroma: float = 40.0) -> np.ndarray:
    angle = np.radians(TEAM_HUES_DEG[team])
    return np.float32([chroma * np.cos(angle), chroma * np.sin(angle)])


def cluster_team_colours(colours_ab: np.ndarray, teams: tuple[str, ...], config: VisionConfig,
                         unclear_ab: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """Each team's chip colour (a, b) in this photo: a few rounds of k-medians started from the
    typical colours (a few pictures taken for chips, one colour in a washed-out photo, do not
    pull a median); a colour far from every team's start joins none. A team left with no
    chip while another's fall into two groups of clearly different hue takes the group
    nearer its own (``split_for_empty_teams``); one still left with none takes the mean of
    the ``unclear_ab`` chips of its hue (``unclear_centres``)."""
    centres = {team: typical_chip_ab(team) for team in teams}
    members: dict[str, np.ndarray] = {}
    for _ in range(6):
        if colours_ab.size == 0:
            break
        members = team_members(colours_ab, centres, config)
        centres.update({team: np.median(chips, axis=0) for team, chips in members.items() if len(chips)})
    moved: dict[str, np.ndarray] = {}
    if members:
        moved = split_for_empty_teams(members, config) or light_blue_for_empty_blue(colours_ab, centres, members, config)
        centres.update(moved)
    if unclear_ab is not None:
        # never red: red suit ink has a red chip's hue
        without = [team for team in teams if team in "BG" and team not in moved and not len(members.get(team, ()))]
        centres.update(unclear_centres(unclear_ab, centres, without, config))
    return centres


def unclear_centres(unclear_ab: np.ndarray, centres: dict[str, np.ndarray], teams: list[str],
                    config: VisionConfig) -> dict[str, np.ndarray]:
    """The centres of ``teams`` (teams no clear chip shaped) from chips whose disc is only in
    part one colour (small chips lying off centre show much card; pictures, hardly one
    colour, are left out by the caller), where at least ``unclear_centre_min_chips`` of them
    lie in a team's hue: its typical colour is only a guess, and a cyan or violet set lies
    beyond it (dev photo 20261217/7: two of four small azure chips were '?')."""
    if not teams or unclear_ab.size == 0:
        return {}
    members = team_members(unclear_ab, centres, config)
    return {team: members[team].mean(axis=0) for team in teams if len(members[team]) >= config.unclear_centre_min_chips}


def light_blue_for_empty_blue(colours_ab: np.ndarray, centres: dict[str, np.ndarray], members: dict[str, np.ndarray],
                              config: VisionConfig) -> dict[str, np.ndarray]:
    """Blue's centre where blue took no chip, from at least ``empty_blue_min_chips`` chips
    nearest blue beyond its hue reach but within ``empty_blue_hue_reach_deg`` of typical
    blue towards green: light blue or cyan chips (hue about 200) lie as far in hue from blue
    as from green, and joined no team. Only blue, and only that way: court cards print
    yellow, skin and red, which a wider reach would take."""
    if "B" not in centres or len(members.get("B", ())):
        return {}
    # on green's side of blue only: the other way lie violet, magenta and red ink
    towards_green = (hue_deg(colours_ab) - (TEAM_HUES_DEG["B"] - config.empty_blue_hue_reach_deg)) % 360.0
    near_blue = towards_green < config.empty_blue_hue_reach_deg
    theirs = colours_ab[(nearest_team(colours_ab, centres) == "B") & near_blue]
    return {"B": theirs.mean(axis=0)} if len(theirs) >= config.empty_blue_min_chips else {}


def nearest_team(colours_ab: np.ndarray, centres: dict[str, np.ndarray]) -> np.ndarray:
    """(N,) the team whose centre each (a, b) colour lies nearest."""
    names = list(centres)
    return np.array(names)[np.stack([np.linalg.norm(colours_ab - centres[t], axis=1) for t in names]).argmin(axis=0)]


def team_members(colours_ab: np.ndarray, centres: dict[str, np.ndarray], config: VisionConfig) -> dict[str, np.ndarray]:
    """The colours nearest each team's centre whose hue lies within ``team_hue_reach_deg`` of its typical chips'."""
    nearest = nearest_team(colours_ab, centres)
    return {team: colours_ab[(nearest == team) & (hue_gap(hue_deg(colours_ab), TEAM_HUES_DEG[team]) < config.team_hue_reach_deg)]
            for team in centres}


def split_for_empty_teams(members: dict[str, np.ndarray], config: VisionConfig) -> dict[str, np.ndarray]:
    """New centres where a team has no chip and another team's chips fall into two groups
    at least ``team_split_min_gap_deg`` apart in hue, the smaller at least
    ``team_split_min_share`` of the larger: the group nearer the empty team's usual hue is
    its. Light blue chips look nearly as green as teal ones, and both joined green. Only blue
    and green trade so: red chips have the hue of red suit ink, and are never guessed."""
    moved: dict[str, np.ndarray] = {}
    for empty in (team for team, chips in members.items() if len(chips) == 0 and team in "BG"):
        for team, chips in members.items():
            if team == empty or team not in "BG" or team in moved or len(chips) < 2:
                continue
            towards = np.sort(hue_gap(hue_deg(chips), TEAM_HUES_DEG[empty]))
            jumps = np.diff(towards)
            cut = int(jumps.argmax())
            near, far = cut + 1, len(chips) - cut - 1
            if jumps[cut] < config.team_split_min_gap_deg or min(near, far) < config.team_split_min_share * max(near, far):
                continue
            theirs = hue_gap(hue_deg(chips), TEAM_HUES_DEG[empty]) <= towards[cut]
            own_gap = hue_gap(hue_deg(chips), TEAM_HUES_DEG[team])
            if own_gap[~theirs].mean() >= own_gap[theirs].mean():
                continue  # the group left would be the less like the team's own chips: court art beside them
            moved[empty], moved[team] = chips[theirs].mean(axis=0), chips[~theirs].mean(axis=0)
            break
    return moved


def hue_deg(colour_ab: np.ndarray) -> np.ndarray:
    """Lab hue angle (degrees, 0 to 360) of (..., 2) colours (a, b)."""
    return np.degrees(np.arctan2(colour_ab[..., 1], colour_ab[..., 0])) % 360


def hue_gap(a: np.ndarray | float, b: np.ndarray | float) -> np.ndarray:
    return np.abs((np.asarray(a) - np.asarray(b) + 180) % 360 - 180)


def reference_change(prepared: PreparedBoard, reference_lab: np.ndarray, centres_yx: np.ndarray,
                     config: VisionConfig) -> np.ndarray:
    """(10, 10) share of each cell's chip disc that differs from the calibrated empty board
    (``reference_lab``: prepared as this board, same size and turn).

    The empty board is first moved onto this one where their lightness correlates clearly
    (``registered_reference``), then each pixel is compared with the empty board's pixels a
    little around it, so that a grid located a pixel or two off does not make the printed ink
    look changed."""
    reference_lab = registered_reference(prepared, reference_lab, config)
    reach = config.reference_shift_px
    sigma = config.reference_blur * prepared.cell_px  # both photos equally soft: focus and print detail differ
    current = cv2.GaussianBlur(prepared.lab, (0, 0), sigma)
    nearest = np.full(current.shape[:2], np.inf, np.float32)
    for shifted in moved_copies(cv2.GaussianBlur(reference_lab, (0, 0), sigma), reach, step=reach):
        nearest = np.minimum(nearest, np.linalg.norm(current - shifted, axis=-1))
    changed = (nearest > config.reference_change_delta).astype(np.float32)
    cover = _disc_cover(changed, config.chip_radius * prepared.cell_px)
    return cover[centres_yx[..., 0], centres_yx[..., 1]]


def card_likeness(prepared: PreparedBoard, reference_lab: np.ndarray, config: VisionConfig
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(likeness, ink, seen), each (10, 10): how closely the lightness of each cell's disc
    follows the calibrated empty board's there (correlation, -1 to 1; ``reference_lab``
    prepared as this board, same size and turn, registered as ``registered_reference`` does),
    how much ink the empty card shows there (the spread of its lightness), both on the part of
    the disc no hand found covers (``PreparedBoard.in_view``), and the share of the disc that
    part is. A chip, even a pale one, hides the ink under it, and so does a hand; a change of
    light alone does not.

    Each cell takes the best correlation over the empty board's disc moved by up to
    ``card_likeness_reach_px`` each way: one shift for the whole board leaves a folded or
    bowed board, or a lens's bend, a pixel or two off in places, and the print's fine lines
    then no longer overlap."""
    reference = registered_reference(prepared, reference_lab, config)
    cell, reach = prepared.cell_px, config.card_likeness_reach_px
    disc = centred_disc(cell, config.card_likeness_radius)

    def blurred(lightness: np.ndarray) -> np.ndarray:
        return cv2.GaussianBlur(np.ascontiguousarray(lightness), (0, 0), config.card_likeness_blur_px)

    def per_disc(image: np.ndarray) -> np.ndarray:  # (10, 10, pixels of a disc)
        return image.reshape(GRID, cell, GRID, cell).swapaxes(1, 2)[:, :, disc]

    seen = per_disc(prepared.in_view()).astype(np.float32)
    seen_count = np.maximum(seen.sum(axis=2, keepdims=True), 1.0)

    def discs(lightness: np.ndarray) -> np.ndarray:  # the disc's pixels in view, their mean taken off
        pixels = per_disc(lightness)
        return (pixels - (pixels * seen).sum(axis=2, keepdims=True) / seen_count) * seen

    now = discs(blurred(prepared.lab[..., 0]))
    now_energy = (now * now).sum(axis=2)
    printed = blurred(reference[..., 0])
    likeness = np.full((GRID, GRID), -1.0, np.float32)
    for shifted in moved_copies(printed, reach):
        then = discs(shifted)
        correlation = (now * then).sum(axis=2) / np.sqrt(now_energy * (then * then).sum(axis=2) + 1e-6)
        likeness = np.maximum(likeness, correlation)
    ink = np.sqrt((discs(printed) ** 2).sum(axis=2) / seen_count[..., 0])
    return likeness, ink, seen.mean(axis=2)


def moved_copies(image: np.ndarray, reach: int, step: int = 1) -> Iterator[np.ndarray]:
    """``image`` moved by every shift from -``reach`` to ``reach`` pixels down and across, in
    ``step``s (the unmoved copy among them), its borders repeated."""
    padded = cv2.copyMakeBorder(image, reach, reach, reach, reach, cv2.BORDER_REPLICATE)
    height, width = image.shape[:2]
    for dy in range(0, 2 * reach + 1, max(1, step)):
        for dx in range(0, 2 * reach + 1, max(1, step)):
            yield padded[dy : dy + height, dx : dx + width]


def registered_reference(prepared: PreparedBoard, reference_lab: np.ndarray, config: VisionConfig) -> np.ndarray:
    """The calibrated empty board (``reference_lab``, prepared as this board) moved by the shift
    at which its lightness best matches this board's (phase correlation), when the match is
    clear (``reference_min_response``) and the shift under ``reference_max_shift`` of a cell;
    else as it was. The grid of the photo and that of the calibration photo may each lie a
    third of a cell off: every card then looked changed, and the calibration went unused."""
    board, reference = prepared.lab[..., 0], np.ascontiguousarray(reference_lab[..., 0])
    window = cv2.createHanningWindow((board.shape[1], board.shape[0]), cv2.CV_32F)
    (dx, dy), response = cv2.phaseCorrelate(reference, np.ascontiguousarray(board), window)
    if response < config.reference_min_response or np.hypot(dx, dy) > config.reference_max_shift * prepared.cell_px:
        return reference_lab
    shift = np.float32([[1, 0, dx], [0, 1, dy]])
    return cv2.warpAffine(reference_lab, shift, (reference_lab.shape[1], reference_lab.shape[0]),
                          flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def red_hued(colour_lab: np.ndarray, reach_deg: float) -> np.ndarray:
    """True where a Lab colour's hue lies within ``reach_deg`` of red suit ink's."""
    return hue_gap(hue_deg(colour_lab[..., 1:]), RED_INK_HUE_DEG) <= reach_deg


def red_ink(colour_lab: np.ndarray, colour_cover: np.ndarray, config: VisionConfig) -> np.ndarray:
    """(10, 10) True where a cell's disc is mostly one clear colour with the hue of red suit ink."""
    chroma = np.hypot(colour_lab[..., 1], colour_lab[..., 2])
    return ((colour_cover >= config.red_art_min_cover) & (chroma >= config.foreign_min_chroma)
            & red_hued(colour_lab, config.foreign_red_reach_deg))


def called_classes(probabilities: np.ndarray, config: VisionConfig) -> np.ndarray:
    """(N, 3) cell model probabilities -> (N,) the index in CLASSES of each call, -1 if unsure.

    The unsafe mistake is a chip for an empty card or the reverse, so that choice must be
    clear on its own (``min_cell_confidence`` of the two); a cell that may be under a hand is
    called hidden only when that is likely (``max_hidden_probability``)."""
    chip, empty, hidden = (probabilities[:, CLASSES.index(name)] for name in ("chip", "empty", "hidden"))
    calls = np.where(chip > empty, CLASSES.index("chip"), CLASSES.index("empty"))
    calls = np.where(np.maximum(chip, empty) >= config.min_cell_confidence * (chip + empty), calls, -1)
    return np.where(hidden >= config.max_hidden_probability, CLASSES.index("hidden"), calls)


def cell_probabilities(features: CellFeatures, model: CellModel | None = None) -> np.ndarray:
    """(100, 3) the cell model's probabilities (``cell_model.CLASSES``), computed once per
    board read with the default model (the checks after reading ask again)."""
    return model.probabilities(features.matrix()) if model is not None else _default_probabilities(features)


@lru_cache(maxsize=4)
def _default_probabilities(features: CellFeatures) -> np.ndarray:
    probabilities = default_model().probabilities(features.matrix())
    if features.board_lab is not None:  # the network sees what the trees' measures miss
        crops = cell_crops(features.board_lab, features.board_lab.shape[0] // GRID)
        probabilities = pooled(probabilities, net_probabilities(crops))
    probabilities.setflags(write=False)  # shared by every caller
    return probabilities


def pooled(trees: np.ndarray, network: np.ndarray, network_weight: float = NETWORK_WEIGHT) -> np.ndarray:
    """(N, 3) the normalised weighted geometric mean of two (N, 3) sets of probabilities: a
    class both judges find likely stays likely, one either rules out is ruled out. On the dev
    photos warped on their true corners (999 boards, 92,541 cells in view, chip or empty called
    at ``min_cell_confidence`` 0.8), the trees alone called 107 cells wrong and 1,121 '?', the
    network alone 16 and 458, pooled with the network's weight 0.5 18 and 475, 0.7 16 and 442
    (and 845 boards right, 832 at 0.5, 816 for the network alone)."""
    mean = trees ** (1 - network_weight) * network ** network_weight
    return mean / np.maximum(mean.sum(axis=1, keepdims=True), 1e-12)


def model_odds(features: CellFeatures, model: CellModel | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(100,) each, from one run of the cell model: its share for a chip against an empty card,
    and its probability of a hand, per cell."""
    probabilities = cell_probabilities(features, model)
    chip, empty, hand = (probabilities[:, CLASSES.index(name)] for name in ("chip", "empty", "hidden"))
    return chip / np.maximum(chip + empty, 1e-9), hand


def around(cells: np.ndarray) -> np.ndarray:
    """(100,) bool: the cells of ``cells`` ((100,) bool) and those beside them, diagonals included."""
    grid = cells.reshape(GRID, GRID).astype(np.uint8)
    return cv2.dilate(grid, np.ones((3, 3), np.uint8)).reshape(-1) > 0


def sleeve_like(probabilities: np.ndarray, features: CellFeatures, config: VisionConfig) -> np.ndarray:
    """(100,) True where the model gives a hand some chance and either a colour fills the
    cell's disc but its corners show no paper (dark too) and the blob is not round, beside a
    cell where the model finds a hand likely (or on one), or the disc's colour, clearly a
    colour, reaches the card's corners, where no chip does: a sleeve, a hand or fingers in a
    chip's colour, which can spell a false sequence. On dev seeds read with their true grids, 10 of 14,135
    chip calls are of the first kind: 5 were wrong, 5 right; of the second, 10 of 25,232 chip
    calls read by the pipeline: 8 were skin or sleeves read as red or green chips, 2 chips.
    A sleeve comes with its hand: dark unround chips with no hand beside them are the chips of
    a board whose ground, showing at the cards' corners, is their colour (dev seed 5151 photo
    62: dark green chips on a green ground, 15 read '?'). On dev seeds 4242, 5151 and 6161 42
    chips and 4 hidden cells were of the first kind: 32 of the chips and none of the hidden
    cells had no hand beside them (17 of those chips are of the second kind as well). Likely is
    ``sleeve_hand_probability``, 0.6: at 0.8, the model's call for a hand, held-out photo 63 of
    renderer c seed 64 read a sleeve over an empty card at the board's edge, given a hand just
    under 0.8, as a blue chip (on dev, 0.6 and 0.8 let the same chips go)."""
    hand_probability = probabilities[:, CLASSES.index("hidden")]
    hidden = hand_probability >= config.sleeve_min_hidden
    hand_beside = around(hand_probability >= config.sleeve_hand_probability).reshape(GRID, GRID)
    dark_unround = ((features.corner_paper < config.sleeve_max_corner_paper)
                    & (features.corner_lightness < config.sleeve_max_corner_lightness)
                    & (features.roundness < config.sleeve_max_roundness) & hand_beside)
    chroma = np.hypot(features.colour_lab[..., 1], features.colour_lab[..., 2])
    spreading = (features.corner_colour >= config.sleeve_min_corner_colour) & (chroma >= config.sleeve_min_chroma)
    return hidden & (dark_unround | spreading).reshape(-1)


def classify(features: CellFeatures, teams: tuple[str, ...], config: VisionConfig,
             model: CellModel | None = None, chip_ab: dict[str, tuple[float, float]] | None = None,
             arrived: Collection[int] = (), mended: np.ndarray | None = None) -> Board:
    """The grid symbol of every cell: the cell model says chip, empty or hidden, and the
    photo's own chip colours say whose chip.

    With a calibration, ``chip_ab`` gives the teams' calibrated chip colours. How much a disc
    changed from the calibrated empty board decides no call here: on cards the model called
    empty with no doubt, a disc changed over 95% of it was '?' for 56 empty cards and 3 chips
    (the bench's and a dev seed's calibrated photos: the empty board, laid over another photo,
    does not match every card's art), and a disc changed under 5% read empty 11 pale or
    translucent chips for 25 empty cards.

    On the ``arrived`` cells a caller saw a chip arrive (a tracker whose cell's picture
    changed on an empty card): there a cell the model is unsure of whose disc is mostly one
    colour (``unsure_chip_cover``) is the team that colour is clearly nearest. In one photo
    alone card art in a chip's colour would pass, so photos give none."""
    probabilities = cell_probabilities(features, model)
    calls = called_classes(probabilities, config)
    if mended is not None:  # (10, 10) cells filled over a hand: the hand the mask missed still shows
        doubted = mended.reshape(-1) & (probabilities[:, CLASSES.index("hidden")] >= config.mended_max_hidden_probability)
        calls = np.where(doubted, CLASSES.index("hidden"), calls)
    # a chip call on what may be a sleeve in a chip's colour is a cell under an arm, unless a
    # tracker saw a chip arrive there alone (a sleeve reaching in would have shown as hands)
    seen_arriving = np.isin(np.arange(GRID * GRID), list(arrived))
    calls = np.where((calls == CLASSES.index("chip")) & sleeve_like(probabilities, features, config) & ~seen_arriving,
                     CLASSES.index("hidden"), calls)
    # with no red chips in play, a clear red disc the model cannot place is printed art (an
    # ace's big heart or diamond); calls the model is sure of stay: a forgotten --teams 3
    # shows its red chips as '?', never as empty cards
    red_art = (red_ink(features.colour_lab, features.colour_cover, config) if "R" not in teams
               else np.zeros((GRID, GRID), bool)).reshape(-1)
    covers = features.colour_cover.reshape(-1)
    textures = features.texture.reshape(-1)
    kinds = []
    for index in range(GRID * GRID):
        kind = CLASSES[calls[index]] if calls[index] >= 0 else "unsure"
        if index in CORNERS:
            kinds.append(CORNER_MARK)
        elif kind == "unsure" and red_art[index]:
            kinds.append(EMPTY)
        elif kind == "unsure" and index in arrived and covers[index] >= config.unsure_chip_cover:
            kinds.append(_ARRIVED)
        elif kind in ("unsure", "hidden"):
            kinds.append(UNKNOWN)
        elif kind == "chip":
            kinds.append(_CHIP)
        else:
            kinds.append(EMPTY)
    colours_ab = features.colour_lab.reshape(-1, 3)[:, 1:]
    chips = [index for index, kind in enumerate(kinds) if kind == _CHIP]
    calibrated = {team: np.float32(chip_ab[team]) for team in teams if chip_ab and team in chip_ab}
    # a disc that is not mostly one colour (a face card's picture taken for a chip) has no
    # colour to shape a team's: it could pull the cluster off the team's real chips
    clear = covers >= config.cluster_min_cover
    clear_chips = [index for index in chips if clear[index]]
    unclear_chips = [index for index in chips if not clear[index] and covers[index] >= config.unclear_centre_min_cover]
    centres = (calibrated if len(calibrated) == len(teams)
               else cluster_team_colours(colours_ab[clear_chips], teams, config, colours_ab[unclear_chips]))
    smooth = textures < config.far_colour_max_texture  # a picture washed out to one colour is as busy as ever
    for index in chips:
        kinds[index] = team_of(colours_ab[index], centres, config, bool(clear[index] and smooth[index]))
        if kinds[index] == UNKNOWN and covers[index] >= config.hue_min_cover and textures[index] < config.hue_max_texture:
            kinds[index] = _team_by_hue(colours_ab[index], centres, config)
    unclaimed = [index for index in chips if kinds[index] == UNKNOWN]
    colours_lab = features.colour_lab.reshape(-1, 3)
    paths = glare_paths(colours_lab, kinds, clear, teams, config) if unclaimed else None
    for index in unclaimed if paths is not None else ():
        kinds[index] = glare_team(colours_lab[index], paths, config)
    for index in (index for index, kind in enumerate(kinds) if kind == _ARRIVED):
        kinds[index] = team_of(colours_ab[index], centres, config)
    return Board("".join(kinds))


_CHIP = "chip"
_ARRIVED = "arrived"  # an unsure cell where a chip was seen arriving, whose colour may say whose


def team_of(colour_ab: np.ndarray, centres: dict[str, np.ndarray], config: VisionConfig, clear: bool = False) -> str:
    """The team whose chip colour is clearly nearest, or UNKNOWN. A ``clear`` disc (mostly
    one colour, and smooth) beyond the team's reach but within ``far_colour_reach`` of it (one
    team's chips spread in colour under uneven light) must be much nearer it than any other
    team's; a disc of mixed colours so far off is art (a violet robe went to blue), and so is a
    busy one (a court picture washed out to one colour)."""
    ranked = sorted((float(np.linalg.norm(colour_ab - centre)), team) for team, centre in centres.items())
    best, team = ranked[0]
    second = ranked[1][0] if len(ranked) > 1 else np.inf
    reach = max(config.colour_reach, config.colour_reach_share * float(np.linalg.norm(centres[team])))
    if best <= reach:
        return UNKNOWN if second < config.colour_separation * best else team
    if not clear or best > config.far_colour_reach * reach or second < config.far_colour_separation * best:
        return UNKNOWN
    return team


def _team_by_hue(colour_ab: np.ndarray, centres: dict[str, np.ndarray], config: VisionConfig) -> str:
    """For a chip too pale or too dark for its team's colour (glare, shade): the team whose
    hue is clearly nearest, or UNKNOWN. Never red: red suit ink has a red chip's hue. From
    green towards blue it reaches less far (``green_hue_reach_to_blue_deg``): a lit blue chip
    turns cyan, past green's hue on blue's side. (Its caller asks for a smooth disc: tinted ink
    has a hue too.)"""
    if float(np.linalg.norm(colour_ab)) < config.hue_min_chroma:
        return UNKNOWN
    hue = float(hue_deg(colour_ab))
    gaps = sorted((float(hue_gap(hue, hue_deg(centre))), team) for team, centre in centres.items())
    (best, team), second = gaps[0], (gaps[1][0] if len(gaps) > 1 else 180.0)
    if team == "R" or best > config.hue_reach_deg or second < config.colour_separation * best:
        return UNKNOWN
    towards_blue = (hue - float(hue_deg(centres[team]))) % 360.0 < 180.0
    if team == "G" and towards_blue and best > config.green_hue_reach_to_blue_deg:
        return UNKNOWN
    return team


def lab_to_linear(colours_lab: np.ndarray) -> np.ndarray:
    """(N, 3) float Lab -> (N, 3) linear BGR, 0-1."""
    return np.clip(cv2.cvtColor(np.float32(colours_lab).reshape(1, -1, 3), cv2.COLOR_Lab2LBGR).reshape(-1, 3), 0.0, 1.0)


def washed_by_glare(colour_lab: np.ndarray, steps: int = 64) -> np.ndarray:
    """(steps, 3) the Lab colours a chip of ``colour_lab`` (paper-normalised, as
    ``normalised_to_paper``) takes in a lamp's glare: ever more white light added to it in
    linear light, each channel clipped where the paper's is (the camera clips both alike, and
    the board is normalised so the paper's lightness is ``PAPER_L``). Clipping turns a blue
    chip cyan and a green one yellow on the way to white, which a hue alone does not follow."""
    paper = lab_to_linear(np.float32([[PAPER_L, 0.0, 0.0]]))[0]
    added = np.linspace(0.0, 1.0, steps)[:, None] * paper[None]
    washed = np.minimum(lab_to_linear(colour_lab[None])[0][None] + added, paper[None])
    return cv2.cvtColor(np.float32(washed).reshape(1, -1, 3), cv2.COLOR_LBGR2Lab).reshape(-1, 3)


def glare_paths(colours_lab: np.ndarray, kinds: list[str], clear: np.ndarray, teams: tuple[str, ...],
                config: VisionConfig) -> dict[str, np.ndarray] | None:
    """Each team's chip colour washed by glare (``washed_by_glare``), its colour the median
    Lab of the cells read that team whose disc is mostly one colour; None unless every team
    has ``glare_min_chips`` of them (a team with no path could be the nearest)."""
    paths = {}
    for team in teams:
        members = [index for index, kind in enumerate(kinds) if kind == team and clear[index]]
        if len(members) < config.glare_min_chips:
            return None
        paths[team] = washed_by_glare(np.median(colours_lab[members], axis=0))
    return paths


def glare_team(colour_lab: np.ndarray, paths: dict[str, np.ndarray], config: VisionConfig) -> str:
    """The team whose glare path (``glare_paths``) passes within ``glare_reach`` of a chip's
    Lab colour (``lab_distance``), the next team's at least
    ``glare_separation`` times further and beyond that reach; else UNKNOWN. On dev photos
    (seeds 20261216, 20261217, 4242, 7373, 20261219), of the chip calls no colour or hue
    claimed, 28 lay so near one team's path and none near a wrong one's (with a reach of 8,
    one empty card called a chip did). Read so, seeds 20261216, 20261217, 4242 and 7373 gave
    boards exact 418 -> 422 of 554 and '?' 336 -> 319, no wrong call more."""
    ranked = sorted((float(lab_distance(path, colour_lab).min()), team) for team, path in paths.items())
    best, team = ranked[0]
    # near paper white every path ends alike: the next must be beyond the reach too
    if best <= config.glare_reach and ranked[1][0] >= max(config.glare_separation * best, config.glare_reach):
        return team
    return UNKNOWN


def read_cells(prepared: PreparedBoard, teams: tuple[str, ...], config: VisionConfig) -> Board:
    """Every cell's symbol in the grid text form, in the rectified board's own orientation."""
    return classify(measure_cells(prepared, config), teams, config)
