"""Fitting the printed 10 x 10 grid to a rough quadrilateral: the lattice stage of locating.

A proposal is a homography ``H`` from grid coordinates (x, y in [0, 10], one unit per cell)
to image pixels. Every step looks at the proposal *rectified*: the image warped so that
the proposed grid is an axis-aligned square of ``s`` pixels per cell inside ``pad`` cells of
margin. Two cues are read along each axis of the rectified image:

* line evidence ``L``: the gradient across the axis, kept only where it runs on along the
  line (a median over short segments), so cell borders and the grid's outline count and
  the card art mostly does not;
* activity ``A``: the mean gradient, which the art, the chips and the borders all raise.

``global_fit`` finds the period of the activity (autocorrelation), then the 11 lines whose
comb is best supported by line evidence and whose 10 cells hold the activity while the
margin just outside them does not. ``local_fit`` measures every line in short pieces near
where the current fit expects it and refits the homography to the lines it saw. Points
are (x, y) float32 arrays throughout.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

GRID = 10
LINES = GRID + 1


@dataclass(frozen=True, slots=True)
class AxisFit:
    """The 11 lines found along one axis of a rectified proposal (positions in rectified px)."""

    first: float  # position of line 0
    pitch: float  # distance between lines
    periodicity: float  # autocorrelation of the activity at the pitch, 0..1
    line_contrast: float  # line evidence on the comb against half a cell away, relative
    content_contrast: float  # activity inside the 10 cells against just outside, relative


@dataclass(frozen=True, slots=True)
class LatticeFit:
    """A fitted grid: grid->image homography, the 11 x 11 line crossings and its evidence."""

    homography: np.ndarray  # (3, 3) grid coordinates -> image pixels
    lattice_xy: np.ndarray  # (11, 11, 2) float32 crossings, [row line, column line]
    lines_seen: int  # how many of the 22 lines showed as lines
    score: float


def grid_homography(quad_xy: np.ndarray) -> np.ndarray:
    """The homography taking the grid's corners (0,0), (10,0), (10,10), (0,10) to ``quad_xy``."""
    grid = np.float32([[0, 0], [GRID, 0], [GRID, GRID], [0, GRID]])
    return cv2.getPerspectiveTransform(grid, np.asarray(quad_xy, np.float32)).astype(np.float64)


def apply_homography(homography: np.ndarray, points_xy: np.ndarray) -> np.ndarray:
    """``points_xy`` (..., 2) mapped through ``homography``, as float64."""
    pts = np.asarray(points_xy, np.float64)
    flat = pts.reshape(-1, 2)
    hom = flat @ homography[:, :2].T + homography[:, 2]
    return (hom[:, :2] / hom[:, 2:3]).reshape(pts.shape)


def rect_to_grid(cell_px: float, pad_cells: float) -> np.ndarray:
    """The affine map (3, 3) from rectified pixels to grid coordinates."""
    return np.array([[1 / cell_px, 0, -pad_cells], [0, 1 / cell_px, -pad_cells], [0, 0, 1]], np.float64)


def rectify(gray: np.ndarray, homography: np.ndarray, cell_px: int, pad_cells: float) -> np.ndarray:
    """The proposal seen square: (N, N) float32, N = (10 + 2 pad) * cell_px."""
    side = int(round((GRID + 2 * pad_cells) * cell_px))
    to_image = homography @ rect_to_grid(cell_px, pad_cells)
    out = cv2.warpPerspective(gray, to_image, (side, side), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                              borderMode=cv2.BORDER_REPLICATE)
    return out.astype(np.float32)


def gradients(rectified: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """|d/dx| and |d/dy| of a rectified image, contrast-normalised and clipped so that no
    single strong edge (a chip's rim, a hand) outweighs a cell border."""
    sample = rectified[::3, ::3]
    lo, hi = np.percentile(sample, (2, 98))
    scale = 1.0 / max(float(hi - lo), 8.0)
    gx = np.abs(cv2.Sobel(rectified, cv2.CV_32F, 1, 0, ksize=3)) * scale
    gy = np.abs(cv2.Sobel(rectified, cv2.CV_32F, 0, 1, ksize=3)) * scale
    np.minimum(gx, 1.0, out=gx)
    np.minimum(gy, 1.0, out=gy)
    return gx, gy


def axis_cues(grad: np.ndarray, lo: float, hi: float, segment: int) -> tuple[np.ndarray, np.ndarray]:
    """Line evidence L and activity A across the columns of ``grad`` (use ``grad.T`` for rows),
    from the rows between ``lo`` and ``hi``."""
    rows = grad.shape[0]
    a, b = max(0, int(round(lo))), min(rows, int(round(hi)))
    n = max(1, (b - a) // segment)
    band = grad[a : a + n * segment]
    segments = band.reshape(n, segment, band.shape[1]).mean(axis=1)
    line = np.median(segments, axis=0) if n > 2 else segments.min(axis=0)
    activity = segments.mean(axis=0)
    return line.astype(np.float32), activity.astype(np.float32)


def smooth(profile: np.ndarray, width: int) -> np.ndarray:
    if width <= 1:
        return profile
    return np.convolve(profile, np.ones(width, np.float32) / width, mode="same")


def periodicity(activity: np.ndarray, lo_lag: float, hi_lag: float, cell_px: int) -> tuple[float, float]:
    """The period of ``activity`` between the lags ``lo_lag`` and ``hi_lag`` and the normalised
    autocorrelation there."""
    trend = smooth(activity, 2 * cell_px + 1)
    detail = activity - trend
    detail = detail - detail.mean()
    energy = float(detail @ detail) + 1e-9
    lags = np.arange(max(2, int(lo_lag)), min(len(detail) - 2, int(np.ceil(hi_lag))) + 1)
    if len(lags) < 3:
        return float(cell_px), 0.0
    corr = np.array([float(detail[:-lag] @ detail[lag:]) for lag in lags]) / energy
    i = int(np.argmax(corr))
    best = float(lags[i])
    if 0 < i < len(lags) - 1:
        c0, c1, c2 = corr[i - 1], corr[i], corr[i + 1]
        denom = c0 - 2 * c1 + c2
        if denom < 0:
            best += 0.5 * (c0 - c2) / denom
    return best, float(corr[i])


def fit_axis(line: np.ndarray, activity: np.ndarray, cell_px: int, pitch_range: tuple[float, float],
             content_weight: float) -> AxisFit:
    """The 11 lines along one axis: period from the activity, then position and exact pitch
    from line evidence and the activity inside against just outside."""
    pitch, period_strength = periodicity(activity, pitch_range[0] * cell_px, pitch_range[1] * cell_px, cell_px)
    n = len(line)
    positions = np.arange(n, dtype=np.float32)
    line_s = smooth(line, 3)
    cum = np.concatenate([[0.0], np.cumsum(activity, dtype=np.float64)])

    def mean_between(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        a = np.clip(a, 0, n)
        b = np.clip(b, 0, n)
        ca = np.interp(a, np.arange(n + 1), cum)
        cb = np.interp(b, np.arange(n + 1), cum)
        return (cb - ca) / np.maximum(b - a, 1e-6)

    best: tuple[float, float, float, float, float] | None = None
    k = np.arange(LINES, dtype=np.float32)
    mids = np.arange(GRID, dtype=np.float32) + 0.5
    outside, guard = 0.7, 0.2
    for factor in np.linspace(0.9, 1.1, 41):
        p = pitch * factor
        span = GRID * p
        firsts = np.arange(0.0, n - span - 1.0, 0.5, dtype=np.float32)
        if len(firsts) == 0:
            continue
        on = np.interp(firsts[:, None] + k * p, positions, line_s).mean(axis=1)
        off = np.interp(firsts[:, None] + mids * p, positions, line_s).mean(axis=1)
        level = np.interp(firsts[:, None] + np.linspace(0, span, 41), positions, line_s).mean(axis=1) + 1e-6
        line_c = (on - off) / level
        inside = mean_between(firsts + guard * p, firsts + span - guard * p)
        left = mean_between(firsts - outside * p, firsts - guard * p)
        right = mean_between(firsts + span + guard * p, firsts + span + outside * p)
        out = np.maximum(left, right)
        content_c = (inside - out) / (inside + 1e-6)
        score = line_c + content_weight * content_c
        i = int(np.argmax(score))
        if best is None or score[i] > best[0]:
            best = (float(score[i]), float(firsts[i]), float(p), float(line_c[i]), float(content_c[i]))
    if best is None:
        return AxisFit(first=0.0, pitch=float(pitch), periodicity=0.0, line_contrast=0.0, content_contrast=0.0)
    _, first, p, line_c, content_c = best
    return AxisFit(first=first, pitch=p, periodicity=period_strength, line_contrast=line_c,
                   content_contrast=content_c)


def global_fit(gray: np.ndarray, homography: np.ndarray, cell_px: int, pad_cells: float,
               pitch_range: tuple[float, float], content_weight: float) -> tuple[np.ndarray, AxisFit, AxisFit]:
    """Re-places the grid inside a proposal: the new homography and the fit of each axis."""
    rectified = rectify(gray, homography, cell_px, pad_cells)
    gx, gy = gradients(rectified)
    segment = max(2, cell_px // 4)
    lo, hi = pad_cells * cell_px, (pad_cells + GRID) * cell_px
    x_span, y_span = (lo, hi), (lo, hi)
    fit_x = fit_y = None
    for _ in range(2):
        line, activity = axis_cues(gx, y_span[0], y_span[1], segment)
        fit_x = fit_axis(line, activity, cell_px, pitch_range, content_weight)
        line, activity = axis_cues(gy.T, x_span[0], x_span[1], segment)
        fit_y = fit_axis(line, activity, cell_px, pitch_range, content_weight)
        x_span = (fit_x.first, fit_x.first + GRID * fit_x.pitch)
        y_span = (fit_y.first, fit_y.first + GRID * fit_y.pitch)
    corners_rect = np.array([[x_span[0], y_span[0]], [x_span[1], y_span[0]], [x_span[1], y_span[1]],
                             [x_span[0], y_span[1]]])
    corners_img = apply_homography(homography @ rect_to_grid(cell_px, pad_cells), corners_rect)
    return grid_homography(corners_img), fit_x, fit_y
