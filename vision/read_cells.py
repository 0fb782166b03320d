"""Reading every cell of the rectified board: empty, a team's chip, or unknown.

Zero set-up: the paper white of the cards sets the white balance, chips are found as discs
that differ from the paper, and their colours are clustered per photo, starting from the
usual blue, green and red. A cell that fits nothing well is '?': a wrong colour is the
worst outcome.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from referee.board import CORNER_MARK, EMPTY, UNKNOWN, Board
from referee.cells import CORNERS
from vision.config import VisionConfig

GRID = 10
TEAM_HUES_DEG = {"R": 25.0, "G": 140.0, "B": 285.0}  # Lab hue angle of typical chips


@dataclass(frozen=True, slots=True)
class CellFeatures:
    """Per-cell measurements, each a (10, 10) array."""

    disc_cover: np.ndarray  # share of the best-placed chip disc that is not paper
    corner_paper: np.ndarray  # share of the cell's four corners that is paper
    colour_lab: np.ndarray  # (10, 10, 3) mean L, a, b of the non-paper part of the disc
    colour_spread: np.ndarray  # spread of a, b inside the disc
    texture: np.ndarray  # mean gradient of lightness inside the disc: ink and art are busy, chips smooth
    roundness: np.ndarray  # shortest over median reach of the non-paper blob along 16 rays: a disc is near 1


@dataclass(frozen=True, slots=True)
class CellReading:
    board: Board
    confidence: np.ndarray  # (10, 10) in [0, 1]
    features: CellFeatures


def white_balanced_lab(board_bgr: np.ndarray) -> np.ndarray:
    """Float Lab (L 0-100, a and b signed) after scaling the paper white to neutral."""
    image = board_bgr.astype(np.float32)
    brightness = image.max(axis=2)
    paper = brightness >= np.percentile(brightness, 75)
    gains = image[paper].mean(axis=0)
    balanced = np.clip(image * (235.0 / np.maximum(gains, 1.0)), 0, 255) / 255.0
    return cv2.cvtColor(balanced.astype(np.float32), cv2.COLOR_BGR2LAB)


def paper_distance(lab: np.ndarray) -> np.ndarray:
    """How far each pixel is from the board's paper colour (Lab distance, L weighted half)."""
    lightness = lab[..., 0]
    paper = lightness >= np.percentile(lightness, 75)
    reference = np.median(lab[paper], axis=0)
    delta = lab - reference
    return np.sqrt((0.5 * delta[..., 0]) ** 2 + delta[..., 1] ** 2 + delta[..., 2] ** 2)


def measure_cells(board_bgr: np.ndarray, config: VisionConfig) -> CellFeatures:
    cell = board_bgr.shape[0] // GRID
    lab = white_balanced_lab(board_bgr)
    not_paper = (paper_distance(lab) > config.paper_distance).astype(np.float32)
    radius = config.chip_radius * cell
    kernel = np.zeros((int(2 * radius) + 1,) * 2, np.float32)
    cv2.circle(kernel, (int(radius),) * 2, int(radius), 1.0, -1)
    kernel /= kernel.sum()
    cover = cv2.filter2D(not_paper, -1, kernel, borderType=cv2.BORDER_REFLECT)

    disc_cover = np.zeros((GRID, GRID), np.float32)
    corner_paper = np.zeros((GRID, GRID), np.float32)
    colour = np.zeros((GRID, GRID, 3), np.float32)
    spread = np.zeros((GRID, GRID), np.float32)
    texture = np.zeros((GRID, GRID), np.float32)
    roundness = np.zeros((GRID, GRID), np.float32)
    # highlights on glossy chips look like paper: close them before following rays
    solid = cv2.morphologyEx(not_paper, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))
    angles = np.linspace(0, 2 * np.pi, 16, endpoint=False)
    steps = np.arange(1, int(0.46 * cell) + 1, dtype=np.float32)
    ray_x = np.cos(angles)[:, None] * steps[None, :]
    ray_y = np.sin(angles)[:, None] * steps[None, :]
    lightness = cv2.GaussianBlur(lab[..., 0], (3, 3), 0)
    gradient = np.hypot(cv2.Sobel(lightness, cv2.CV_32F, 1, 0), cv2.Sobel(lightness, cv2.CV_32F, 0, 1))
    reach = int(config.chip_offset * cell)
    yy, xx = np.mgrid[0:cell, 0:cell]
    # The card's corners, inset from the separating lines: paper unless a hand or shadow covers them.
    from_centre = np.maximum(np.abs(yy - cell / 2 + 0.5), np.abs(xx - cell / 2 + 0.5)) / cell
    ring = (from_centre > 0.3) & (from_centre < 0.42) & ((yy - cell / 2 + 0.5) ** 2 + (xx - cell / 2 + 0.5) ** 2 > (0.45 * cell) ** 2)
    for row in range(GRID):
        for col in range(GRID):
            y0, x0 = row * cell, col * cell
            centre = cover[y0 + cell // 2 - reach : y0 + cell // 2 + reach + 1, x0 + cell // 2 - reach : x0 + cell // 2 + reach + 1]
            dy, dx = np.unravel_index(int(np.argmax(centre)), centre.shape)
            disc_cover[row, col] = centre[dy, dx]
            cy, cx = cell // 2 - reach + dy, cell // 2 - reach + dx
            inside = (yy - cy) ** 2 + (xx - cx) ** 2 <= radius**2
            patch_lab = lab[y0 : y0 + cell, x0 : x0 + cell]
            chip = inside & (not_paper[y0 : y0 + cell, x0 : x0 + cell] > 0)
            if chip.sum() >= 4:
                pixels = patch_lab[chip]
                colour[row, col] = np.median(pixels, axis=0)
                spread[row, col] = float(np.sqrt(pixels[:, 1].var() + pixels[:, 2].var()))
            core = (yy - cy) ** 2 + (xx - cx) ** 2 <= (0.8 * radius) ** 2
            texture[row, col] = float(gradient[y0 : y0 + cell, x0 : x0 + cell][core].mean())
            roundness[row, col] = _circle_fill(solid, y0, x0, cell, cy, cx)
            patch_paper = 1.0 - not_paper[y0 : y0 + cell, x0 : x0 + cell]
            corner_paper[row, col] = float(patch_paper[ring].mean())
    return CellFeatures(disc_cover, corner_paper, colour, spread, texture, roundness)


def _roundness(solid: np.ndarray, ys: np.ndarray, xs: np.ndarray) -> float:
    """Shortest over median reach of the blob along rays from its centre."""
    inside = solid[np.clip(ys.astype(np.int32), 0, solid.shape[0] - 1), np.clip(xs.astype(np.int32), 0, solid.shape[1] - 1)] > 0
    reach = np.where(inside.all(axis=1), inside.shape[1], inside.argmin(axis=1)).astype(np.float32)
    return float(reach.min() / max(float(np.median(reach)), 1.0))


def _circle_fill(solid: np.ndarray, y0: int, x0: int, cell: int, cy: int, cx: int) -> float:
    """Area of the blob under the disc centre over the area of its enclosing circle:
    near 1 for a chip, lower for a heart, a diamond or a figure."""
    pad = cell // 8
    top, left = max(0, y0 - pad), max(0, x0 - pad)
    window = solid[top : y0 + cell + pad, left : x0 + cell + pad].astype(np.uint8)
    count, labels = cv2.connectedComponents(window)
    label = labels[y0 - top + cy, x0 - left + cx]
    if label == 0:
        return 0.0
    points = cv2.findNonZero((labels == label).astype(np.uint8))
    _, radius = cv2.minEnclosingCircle(points)
    return float(len(points) / (np.pi * max(radius, 1.0) ** 2))


def hue_deg(colour_lab: np.ndarray) -> np.ndarray:
    return np.degrees(np.arctan2(colour_lab[..., 2], colour_lab[..., 1])) % 360


def hue_gap(a: np.ndarray | float, b: np.ndarray | float) -> np.ndarray:
    return np.abs((np.asarray(a) - np.asarray(b) + 180) % 360 - 180)


def cluster_team_hues(hues: np.ndarray, teams: tuple[str, ...]) -> dict[str, float]:
    """Adapts each team's hue to this photo: a few rounds of k-means on the circle,
    started from the typical hues."""
    centres = {team: TEAM_HUES_DEG[team] for team in teams}
    for _ in range(5):
        if hues.size == 0:
            break
        names = list(centres)
        gaps = np.stack([hue_gap(hues, centres[t]) for t in names])
        nearest = gaps.argmin(axis=0)
        for i, team in enumerate(names):
            members = hues[(nearest == i) & (gaps[i] < 60)]
            if members.size:
                angle = np.radians(members)
                centres[team] = float(np.degrees(np.arctan2(np.sin(angle).mean(), np.cos(angle).mean())) % 360)
    return centres


def classify(features: CellFeatures, teams: tuple[str, ...], config: VisionConfig) -> CellReading:
    """The grid symbol of every cell, and how sure each call is."""
    hue = hue_deg(features.colour_lab)
    chroma = np.hypot(features.colour_lab[..., 1], features.colour_lab[..., 2])
    chip_like = (features.disc_cover >= config.chip_min_cover) & (chroma >= config.min_chip_chroma)
    centres = cluster_team_hues(hue[chip_like], ("B", "G", "R"))
    symbols: list[str] = []
    confidence = np.zeros((GRID, GRID), np.float32)
    for row in range(GRID):
        for col in range(GRID):
            index = row * GRID + col
            if index in CORNERS:
                symbols.append(CORNER_MARK)
                confidence[row, col] = 1.0
                continue
            symbol, sure = _classify_cell(features, row, col, hue[row, col], chroma[row, col], centres, config)
            symbols.append(symbol)
            confidence[row, col] = sure
    return CellReading(Board("".join(symbols)), confidence, features)


def _classify_cell(features: CellFeatures, row: int, col: int, hue: float, chroma: float,
                   centres: dict[str, float], config: VisionConfig) -> tuple[str, float]:
    cover = float(features.disc_cover[row, col])
    texture = float(features.texture[row, col])
    if float(features.corner_paper[row, col]) < config.min_corner_paper:
        return UNKNOWN, 0.0  # a hand, a shadow or glare over the whole cell
    chip_like = cover >= config.chip_min_cover and texture <= config.chip_max_texture and chroma >= config.min_chip_chroma
    if not chip_like:
        if cover <= config.empty_max_cover or texture >= config.card_min_texture:
            return EMPTY, 1.0
        return UNKNOWN, 0.0
    gaps = sorted((float(hue_gap(hue, centre)), team) for team, centre in centres.items())
    (best_gap, team), (second_gap, _) = gaps[0], gaps[1]
    if best_gap > config.hue_margin_deg or second_gap - best_gap < config.hue_separation_deg:
        return UNKNOWN, 0.0
    return team, 1.0


def read_cells(board_bgr: np.ndarray, teams: tuple[str, ...], config: VisionConfig) -> CellReading:
    return classify(measure_cells(board_bgr, config), teams, config)
