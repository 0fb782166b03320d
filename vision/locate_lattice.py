"""The lattice stage of locating: from a rough quadrilateral to the printed 10 x 10 grid.

A fit is a homography ``H`` from grid coordinates (x, y in [0, 10], one unit per cell) to
image pixels. Every step looks at it *rectified*: the photo warped so that the fitted grid
is an axis-aligned square of ``s`` pixels per cell inside ``pad`` cells of margin
(rectified pixel ``u`` is grid coordinate ``u / s - pad``), read from the finest level of
an image pyramid whose cells are at most twice that size (no aliasing).

1. ``align``: the period and slant of the cells from the autocorrelation of the gradient
   inside the proposal, the perspective from how the cells' area changes between its four
   quarters; the result has square cells of one unit, position unknown.
2. ``place``: along each axis, where the 10 cells start. Card faces are light paper, so
   where the border is coloured the paper ends exactly at the grid's outline; where it is
   white or cream, the 10 cells are where the art is (busy cells, quiet strips round them),
   and visible cell borders then fix the phase.
3. ``refine``: every one of the 22 lines is measured in short pieces near where the fit
   expects it, at full resolution, and a homography is fitted to what was seen (the four
   outer lines alone first when the border showed them), then one homography per quarter
   of the grid, for a board folded across the middle and a bending lens.
4. ``evidence``: what the verdict is made of: the cells repeat one cell on and less half a
   cell on, the repetition stops at the outline, the cells hold ink or chips.
5. ``extent_shift``: where no coloured border showed the outline, whether the grid should
   move by a whole cell (neighbouring columns of cards are alike, a border is not).
6. ``centre_step``: where no coloured border showed the outline, the cells moved onto the
   card centres, found by point symmetry (art lined up in rows can pass for a line; a
   card's centre cannot be faked that way); and, finely, every grid the pipeline reads.

Points are (x, y) arrays; images are float32 unless said otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import cv2
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

GRID = 10
LINES = GRID + 1
GRID_CORNERS = np.array([[0, 0], [GRID, 0], [GRID, GRID], [0, GRID]], np.float64)


def grid_homography(quad_xy: np.ndarray) -> np.ndarray:
    """The homography taking the grid's corners (0,0), (10,0), (10,10), (0,10) to ``quad_xy``."""
    return cv2.getPerspectiveTransform(GRID_CORNERS.astype(np.float32),
                                       np.asarray(quad_xy, np.float32)).astype(np.float64)


def apply_homography(homography: np.ndarray, points_xy: np.ndarray) -> np.ndarray:
    """``points_xy`` (..., 2) mapped through ``homography``, as float64."""
    pts = np.asarray(points_xy, np.float64)
    flat = pts.reshape(-1, 2)
    hom = flat @ homography[:, :2].T + homography[:, 2]
    return (hom[:, :2] / hom[:, 2:3]).reshape(pts.shape)


def rect_to_grid(cell_px: float, pad_cells: float) -> np.ndarray:
    """The affine map (3, 3) from rectified pixels to grid coordinates."""
    return np.array([[1 / cell_px, 0, -pad_cells], [0, 1 / cell_px, -pad_cells], [0, 0, 1]], np.float64)


def cell_size_px(homography: np.ndarray) -> float:
    """Mean side of a cell in image pixels."""
    corners = apply_homography(homography, GRID_CORNERS)
    return float(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1).mean()) / GRID


class Pyramid:
    """An image (grey or BGR) and its halvings: a fit is rectified from the finest level whose
    cells are at most twice the wanted size, so that warping does not alias."""

    def __init__(self, image: np.ndarray, min_side: int = 48) -> None:
        self.levels = [image]
        while min(self.levels[-1].shape[:2]) >= 2 * min_side:
            self.levels.append(cv2.pyrDown(self.levels[-1]))

    @property
    def shape(self) -> tuple[int, ...]:
        return self.levels[0].shape

    def rectify(self, homography: np.ndarray, cell_px: int, pad_cells: float) -> np.ndarray:
        """The fit seen square, float32, (N, N[, 3]) with N = (10 + 2 pad) * cell_px;
        ``homography`` maps grid coordinates to level-0 pixels."""
        ratio = cell_size_px(homography) / cell_px
        level = int(np.clip(np.floor(np.log2(max(ratio, 1.0))), 0, len(self.levels) - 1))
        scale = 0.5**level
        to_level = np.array([[scale, 0, 0.5 * scale - 0.5], [0, scale, 0.5 * scale - 0.5], [0, 0, 1]])
        side = int(round((GRID + 2 * pad_cells) * cell_px))
        to_image = to_level @ homography @ rect_to_grid(cell_px, pad_cells)
        out = cv2.warpPerspective(self.levels[level], to_image, (side, side),
                                  flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)
        return out.astype(np.float32)


def inside_photo(shape: tuple[int, ...], homography: np.ndarray, cell_px: int, pad_cells: float) -> np.ndarray:
    """(N, N) bool: which pixels of a rectification come from inside the photo (``homography``
    maps grid coordinates to pixels of a photo of ``shape``)."""
    side = int(round((GRID + 2 * pad_cells) * cell_px))
    to_image = homography @ rect_to_grid(cell_px, pad_cells)
    height, width = shape[:2]
    # where the rectification's pixels land, from a coarse grid of them (the map is smooth)
    step = max(1, cell_px // 2)
    u = np.arange(0, side + step, step, dtype=np.float64)
    gx, gy = np.meshgrid(u, u)
    pts = apply_homography(to_image, np.stack([gx, gy], axis=-1))
    ok = ((pts[..., 0] >= 0) & (pts[..., 0] <= width - 1) & (pts[..., 1] >= 0) & (pts[..., 1] <= height - 1))
    return cv2.resize(ok.astype(np.uint8), (side, side), interpolation=cv2.INTER_NEAREST).astype(bool)


def to_gray(rect: np.ndarray) -> np.ndarray:
    """A rectification in grey (unchanged when it is grey already)."""
    return rect if rect.ndim == 2 else cv2.cvtColor(rect, cv2.COLOR_BGR2GRAY)


def gradients(gray: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Signed d/dx and d/dy, scaled by the image's contrast and clipped to [-1, 1] so that no
    single strong edge (a chip's rim, a hand) outweighs a cell border."""
    lo, hi = np.percentile(gray[::3, ::3], (2, 98))
    scale = 1.0 / max(float(hi - lo), 8.0)
    gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3, scale=scale)
    gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3, scale=scale)
    np.clip(gx, -1.0, 1.0, out=gx)
    np.clip(gy, -1.0, 1.0, out=gy)
    return gx, gy


def line_evidence(grad: np.ndarray, segment: int) -> np.ndarray:
    """Per column of the signed gradient ``grad`` (use ``.T`` for rows): the size of the median
    over short segments down the column. An edge or a thin line keeps its sign all along,
    so it stays; a row of art has edges of both signs with gaps between, so it cancels."""
    n = grad.shape[0] // segment
    segments = grad[: n * segment].reshape(n, segment, grad.shape[1]).mean(axis=1)
    return np.abs(np.median(segments, axis=0)).astype(np.float32)


def smooth(profile: np.ndarray, width: int) -> np.ndarray:
    if width <= 1:
        return profile
    return np.convolve(profile, np.ones(width, np.float32) / width, mode="same")


# --- 1. align -----------------------------------------------------------------------------------


def autocorrelation(values: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    """Normalised autocorrelation of ``values`` (N, M) inside the window ``box`` = (y0, y1, x0,
    x1), which must leave a border wider than the lags of interest so that nothing wraps
    round; lag (0, 0) is at [0, 0] and negative lags wrap around."""
    y0, y1, x0, x1 = box
    h, w = cv2.getOptimalDFTSize(values.shape[0]), cv2.getOptimalDFTSize(values.shape[1])
    inside = values[y0:y1, x0:x1]
    x = np.zeros((h, w), np.float32)
    x[y0:y1, x0:x1] = inside - inside.mean()
    spectrum = cv2.dft(x)  # packed (CCS) real spectrum
    ac = cv2.idft(cv2.mulSpectrums(spectrum, spectrum, 0, conjB=True), flags=cv2.DFT_REAL_OUTPUT | cv2.DFT_SCALE)
    lag_y = np.minimum(np.arange(h), h - np.arange(h))
    lag_x = np.minimum(np.arange(w), w - np.arange(w))
    overlap = np.outer(np.maximum(y1 - y0 - lag_y, 1), np.maximum(x1 - x0 - lag_x, 1)).astype(np.float32)
    ac = ac / np.maximum(overlap, 0.25 * overlap[0, 0])
    return ac / max(float(ac[0, 0]), 1e-9)


def lattice_vector(ac: np.ndarray, along: int, lo: float, hi: float, skew: float) -> tuple[np.ndarray, float]:
    """The strongest autocorrelation peak with its ``along`` coordinate (0: x, 1: y) between
    ``lo`` and ``hi`` and the other coordinate within ``skew`` times that: the lattice vector
    (x, y), refined to sub-pixel, and the correlation there."""
    h2, w2 = ac.shape
    main = np.arange(int(np.floor(lo)), int(np.ceil(hi)) + 1)
    side_max = int(np.ceil(skew * hi))
    side = np.arange(-side_max, side_max + 1)
    if along == 0:
        patch = ac[np.ix_(side % h2, main % w2)]
    else:
        patch = ac[np.ix_(main % h2, side % w2)].T
    allowed = np.abs(side[:, None]) <= skew * main[None, :]
    ridge = np.where(allowed, patch, -np.inf).max(axis=0)
    peak = np.zeros(len(main), bool)
    peak[1:-1] = (ridge[1:-1] >= ridge[:-2]) & (ridge[1:-1] >= ridge[2:])
    if not peak.any():
        peak[:] = True
    scored = np.where(allowed & peak[None, :], patch, -np.inf)
    i, j = np.unravel_index(int(np.argmax(scored)), scored.shape)
    m = main[j] + _parabola(patch[i, :], j)
    s = side[i] + _parabola(patch[:, j], i)
    vec = np.array([m, s]) if along == 0 else np.array([s, m])
    return vec.astype(np.float64), float(patch[i, j])


def _parabola(values: np.ndarray, k: int) -> float:
    """Sub-sample offset of the peak of ``values`` at ``k`` (a parabola through 3 samples)."""
    if 0 < k < len(values) - 1:
        a, b, c = float(values[k - 1]), float(values[k]), float(values[k + 1])
        denom = a - 2 * b + c
        if denom < 0:
            return float(np.clip(0.5 * (a - c) / denom, -0.5, 0.5))
    return 0.0


def periodicity(pyramid: Pyramid, homography: np.ndarray, cell_px: int, pad_cells: float,
                pitch_range: tuple[float, float], max_skew: float) -> float:
    """How strongly the inside of a proposal repeats at some lattice (the weaker of the two
    autocorrelation peaks): a cheap first look that ranks proposals."""
    s = cell_px
    gray = to_gray(pyramid.rectify(homography, s, pad_cells))
    gx, gy = gradients(gray)
    a, b = int(round((pad_cells + 0.5) * s)), int(round((pad_cells + GRID - 0.5) * s))
    ac = autocorrelation(np.abs(gx) + np.abs(gy), (a, b, a, b))
    _, cx = lattice_vector(ac, 0, pitch_range[0] * s, pitch_range[1] * s, max_skew)
    _, cy = lattice_vector(ac, 1, pitch_range[0] * s, pitch_range[1] * s, max_skew)
    return min(cx, cy)


@dataclass(frozen=True, slots=True)
class Alignment:
    homography: np.ndarray  # grid -> image, cells square and axis-aligned, position unknown
    periodicity: float  # the weaker of the two autocorrelation peaks


def align(pyramid: Pyramid, homography: np.ndarray, cell_px: int, pad_cells: float,
          pitch_range: tuple[float, float], max_skew: float, perspective: bool = True) -> Alignment:
    """The lattice of the cells near a proposal: the returned homography has cells of one
    unit, square and axis-aligned (its grid origin is arbitrary; the proposal's centre stays
    at (5, 5)). The period and slant come from the autocorrelation inside the proposal; the
    perspective from how the cells' area changes between its four quarters."""
    s = cell_px
    gray = to_gray(pyramid.rectify(homography, s, pad_cells))
    gx, gy = gradients(gray)
    magnitude = np.abs(gx) + np.abs(gy)
    a, b = int(round((pad_cells + 0.5) * s)), int(round((pad_cells + GRID - 0.5) * s))
    ac = autocorrelation(magnitude, (a, b, a, b))
    vx, cx = lattice_vector(ac, 0, pitch_range[0] * s, pitch_range[1] * s, max_skew)
    vy, cy = lattice_vector(ac, 1, pitch_range[0] * s, pitch_range[1] * s, max_skew)
    base = np.column_stack([vx, vy])
    centre = np.array([gray.shape[1] / 2, gray.shape[0] / 2])
    projective = quarter_perspective(magnitude, base, centre, (a, b), vx, vy, max_skew) if perspective else np.zeros(2)
    # u = centre + base h / (1 + p.h) with h = g - 5: homogeneous [[base + c p^T, c], [p^T, 1]]
    p = projective
    lattice = np.eye(3)
    lattice[:2, :2] = base + np.outer(centre, p)
    lattice[:2, 2] = centre
    lattice[2, :2] = p
    shift = np.array([[1, 0, -GRID / 2], [0, 1, -GRID / 2], [0, 0, 1]])
    return Alignment(homography=homography @ rect_to_grid(s, pad_cells) @ lattice @ shift,
                     periodicity=min(cx, cy))


def quarter_perspective(magnitude: np.ndarray, base: np.ndarray, centre: np.ndarray, window: tuple[int, int],
                        vx: np.ndarray, vy: np.ndarray, max_skew: float) -> np.ndarray:
    """The projective part p (2,) of the lattice: a cell's area falls as (1 + p.h)^-3 with h the
    offset from the centre in cells; measured from the lattice vectors of the four quarters."""
    a, b = window
    mid = (a + b) // 2
    rows, offsets = [], []
    area0 = abs(float(np.linalg.det(base)))
    inverse = np.linalg.inv(base)
    for y0, y1 in ((a, mid), (mid, b)):
        for x0, x1 in ((a, mid), (mid, b)):
            ac = autocorrelation(magnitude, (y0, y1, x0, x1))
            qx, cqx = lattice_vector(ac, 0, 0.8 * vx[0], 1.25 * vx[0], max_skew)
            qy, cqy = lattice_vector(ac, 1, 0.8 * vy[1], 1.25 * vy[1], max_skew)
            if min(cqx, cqy) <= 0.05:
                continue
            area = abs(float(qx[0] * qy[1] - qx[1] * qy[0]))
            h = inverse @ (np.array([(x0 + x1) / 2, (y0 + y1) / 2]) - centre)
            rows.append(h)
            offsets.append(-np.log(max(area, 1e-6) / area0) / 3.0)
    if len(rows) < 3:
        return np.zeros(2)
    rows_a, offsets_a = np.array(rows), np.array(offsets)
    p, *_ = np.linalg.lstsq(rows_a, offsets_a, rcond=None)
    if len(rows) == 4 and np.abs(rows_a @ p - offsets_a).max() > 0.01:
        # one quarter disagrees (a hand, glare): the three that agree best
        fits = []
        for drop in range(4):
            keep = np.arange(4) != drop
            q, *_ = np.linalg.lstsq(rows_a[keep], offsets_a[keep], rcond=None)
            fits.append((float(np.abs(rows_a[keep] @ q - offsets_a[keep]).max()), q))
        p = min(fits, key=lambda item: item[0])[1]
    return np.clip(p, -0.08, 0.08)


# --- 2. place -----------------------------------------------------------------------------------


def paperness(rect_bgr: np.ndarray, centre: tuple[int, int]) -> np.ndarray:
    """How much each pixel looks like card paper (about 1) rather than anything else (0 or
    less): whiteness against the light paper of the central cells, less saturation."""
    lo, hi = centre
    core = rect_bgr[lo:hi:2, lo:hi:2].reshape(-1, 3)
    total = core.sum(axis=1)
    bright = core[total >= np.quantile(total, 0.8)]
    white = bright.mean(axis=0) if len(bright) else np.full(3, 255.0)
    gains = (float(white.max()) / np.maximum(white, 1.0)).astype(np.float32)
    b, g, r = cv2.split(rect_bgr)
    b, g, r = b * gains[0], g * gains[1], r * gains[2]
    low = cv2.min(cv2.min(b, g), r)
    high = cv2.max(cv2.max(b, g), r)
    level = max(float(np.quantile(low[lo:hi:2, lo:hi:2], 0.9)), 1.0)
    chroma = cv2.divide(high - low, cv2.max(low, 1.0))
    return np.clip(low * (1.0 / level), 0.0, 1.0) - np.minimum(chroma, 1.0)


def mean_between(cum: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Means of a profile between positions ``a`` and ``b`` from its cumulative sum ``cum``."""
    n = len(cum) - 1
    a = np.clip(a, 0, n)
    b = np.clip(b, 0, n)
    grid = np.arange(n + 1, dtype=np.float64)
    return (np.interp(b, grid, cum) - np.interp(a, grid, cum)) / np.maximum(b - a, 1e-6)


@dataclass(frozen=True, slots=True)
class AxisPlacement:
    """Where the 10 cells lie along one axis of an aligned rectification."""

    first: float  # rectified position of line 0
    pitch: float
    outline: bool  # placed on the paper's edge at a coloured border (else on the art)
    paper_step: float  # paper just inside the outer lines against just outside
    art_step: float  # activity of the outer cells against just outside (0 when not used)
    lines: bool  # the phase came from visible cell borders


def window_search(profile: np.ndarray, pitch: float, factors: np.ndarray, strip: float,
                  seen: np.ndarray | None = None) -> tuple[float, float, float, float]:
    """The 10-cell window over ``profile`` (one value per position) that steps up at both ends:
    the strips of ``strip`` cells just inside against those just outside, the weaker end
    counting. An end outside the photo (``seen`` False there) cannot be judged: the other end
    counts alone, a little less. The first line at whole positions (the lines are followed
    later). Returns (first, pitch, step, outside) with the step in the profile's units and
    ``outside`` the higher of the two outer strips."""
    n = len(profile)
    cum = np.concatenate([[0.0], np.cumsum(profile, dtype=np.float64)])
    unseen = np.concatenate([[0], np.cumsum(~seen if seen is not None else np.zeros(n, bool))])
    best = (0.0, pitch, -np.inf, 0.0)
    grid_n = np.arange(n + 1, dtype=np.float64)
    for factor in factors:
        p = pitch * factor
        w = max(1, int(round(strip * p)))
        firsts = np.arange(w, int(n - GRID * p - w))
        if len(firsts) == 0:
            continue
        last = firsts + GRID * p  # between samples: read the sums there by interpolation
        at = lambda x: np.interp(x, grid_n, cum)  # noqa: E731
        seen_at = lambda x: np.interp(x, grid_n, unseen)  # noqa: E731
        before = (cum[firsts] - cum[firsts - w]) / w
        after = (at(last + w) - at(last)) / w
        left = (cum[firsts + w] - cum[firsts]) / w - before
        right = (at(last) - at(last - w)) / w - after
        left_seen = unseen[firsts + w] == unseen[firsts - w]
        right_seen = np.abs(seen_at(last + w) - seen_at(last - w)) < 0.5
        score = np.where(left_seen & right_seen, np.minimum(left, right),
                         np.where(left_seen, left - 0.1, np.where(right_seen, right - 0.1, -np.inf)))
        i = int(np.argmax(score))
        if score[i] > best[2]:
            best = (float(firsts[i]), p, float(score[i]), float(max(before[i], after[i])))
    return best


def plateau_width(profile: np.ndarray, centre: tuple[int, int], strip: float, seen: np.ndarray) -> float | None:
    """Distance between the strongest rise of ``profile`` before ``centre`` and its strongest
    fall after it (steps measured over ``strip`` samples); None when either runs out of the
    photo (``seen`` False) before showing."""
    n = len(profile)
    w = max(2, int(round(strip)))
    cum = np.concatenate([[0.0], np.cumsum(profile, dtype=np.float64)])
    u = np.arange(w, n - w)
    step = (cum[u + w] - cum[u]) / w - (cum[u] - cum[u - w]) / w
    unseen = np.concatenate([[0], np.cumsum(~seen)])
    ok = (unseen[np.minimum(u + w, n)] - unseen[np.maximum(u - w, 0)]) == 0
    rise = np.where((u < centre[0]) & ok, step, -np.inf)
    fall = np.where((u > centre[1]) & ok, -step, -np.inf)
    if not np.isfinite(rise).any() or not np.isfinite(fall).any():
        return None
    first, last = int(np.argmax(rise)), int(np.argmax(fall))
    if not (seen[: u[first]].all() or rise[first] > 0) or not (seen[u[last]:].all() or fall[last] > 0):
        return None
    return float(u[last] - u[first])


def profile_period(profile: np.ndarray, lo: int, hi: int, pitch: float, slack: float) -> float:
    """The period of ``profile[lo:hi]`` within ``slack`` of ``pitch`` (autocorrelation peak,
    refined to sub-sample), or ``pitch`` when there is no clear peak."""
    x = profile[lo:hi] - smooth(profile, int(2 * pitch) | 1)[lo:hi]
    x = x - x.mean()
    lags = np.arange(int(np.floor(pitch * (1 - slack))) - 1, int(np.ceil(pitch * (1 + slack))) + 2)
    lags = lags[(lags > 1) & (lags < len(x) - 2)]
    if len(lags) < 3:
        return pitch
    corr = np.array([float(x[:-lag] @ x[lag:]) / (len(x) - lag) for lag in lags])
    i = int(np.argmax(corr))
    if i == 0 or i == len(lags) - 1:
        return pitch
    return float(np.clip(lags[i] + _parabola(corr, i), pitch * (1 - slack), pitch * (1 + slack)))


def line_phase(line: np.ndarray, pitch: float, lo: int, hi: int, min_sharpness: float) -> float | None:
    """Where sharp, periodic cell borders fall (modulo ``pitch``), or None when the folded line
    evidence has no clear single peak."""
    p = int(round(pitch))
    if p < 6:
        return None
    idx = np.arange(lo, hi)
    folded = np.bincount(idx % p, weights=smooth(line, 3)[lo:hi], minlength=p) / np.maximum(
        np.bincount(idx % p, minlength=p), 1)
    k = int(np.argmax(folded))
    others = np.delete(folded, [(k + d) % p for d in range(-(p // 6), p // 6 + 1)])
    floor = float(np.median(others)) + 1e-3
    if (folded[k] - floor) / floor < min_sharpness:
        return None
    ring = np.array([folded[(k - 1) % p], folded[k], folded[(k + 1) % p]])
    return (k + _parabola(ring, 1)) % p


def has_blank_cell(activity: np.ndarray, first: float, pitch: float, seen: np.ndarray, min_share: float) -> bool:
    """Whether a row (column) of the 10 placed from ``first`` that lies in the photo is nearly
    blank (mean ``activity`` under ``min_share`` of the rows' median): every row of a board
    holds card borders and art, a blank one is the board's margin. (Rows of chips and card
    gaps alternate like paper and a border: on a board full of chips, with one end outside
    the photo, the paper's edge was taken a cell or two inside the grid.)"""
    means = []
    for k in range(GRID):
        a, b = max(0, int(round(first + k * pitch))), min(len(activity), int(round(first + (k + 1) * pitch)))
        inside = seen[a:b]
        if b - a > 0 and inside.sum() >= pitch / 2:  # the part of the row in the photo, if half of it is
            means.append(float(activity[a:b][inside].mean()))
    return len(means) > 2 and min(means) < min_share * float(np.median(means))


def place_axis(paper: np.ndarray, activity: np.ndarray, line: np.ndarray, cell_px: int,
               centre: tuple[int, int], settings: "PlaceSettings", seen: np.ndarray) -> AxisPlacement:
    """Line 0 and the pitch along one axis (x; pass transposed images for y) of an aligned
    rectification whose cells are about ``cell_px`` wide; ``seen``: positions in the photo."""
    period = profile_period(activity, centre[0], centre[1], cell_px, settings.period_slack)
    factors = np.linspace(1 - settings.pitch_slack, 1 + settings.pitch_slack, settings.pitch_steps)
    first, pitch, paper_step, outside = window_search(paper, period, factors, settings.paper_strip, seen)
    lines = False
    art_step = 0.0
    width = plateau_width(paper, centre, settings.paper_strip * period, seen)
    wide = width is not None and width / pitch > GRID + settings.max_extra_paper
    art_path = paper_step < settings.min_paper_step or wide or has_blank_cell(activity, first, pitch, seen,
                                                                             settings.min_cell_activity)
    if art_path:
        # no coloured border to end the paper: the art says where the cells are, visible
        # borders say exactly where
        first, pitch, art_step, _ = window_search(activity, period, factors, settings.art_strip, seen)
        phase = line_phase(line, pitch, centre[0], centre[1], settings.min_line_sharpness)
        if phase is not None:
            shift = (phase - first + pitch / 2) % pitch - pitch / 2
            if abs(shift) <= settings.max_line_shift * pitch:
                first += shift
                lines = True
    return AxisPlacement(first=first, pitch=pitch, outline=not art_path, paper_step=paper_step, art_step=art_step,
                         lines=lines)


@dataclass(frozen=True, slots=True)
class PlaceSettings:
    cell_px: int
    pad_cells: float
    period_slack: float
    pitch_slack: float
    pitch_steps: int
    paper_strip: float
    art_strip: float
    min_paper_step: float
    max_extra_paper: float
    min_line_sharpness: float
    max_line_shift: float
    min_cell_activity: float


@dataclass(frozen=True, slots=True)
class Placement:
    homography: np.ndarray  # grid -> image
    x: AxisPlacement
    y: AxisPlacement


def place(bgr_pyramid: Pyramid, aligned: np.ndarray, settings: PlaceSettings) -> Placement:
    """The 10 x 10 cells in an aligned rectification (see ``align``)."""
    s, pad = settings.cell_px, settings.pad_cells
    rect = bgr_pyramid.rectify(aligned, s, pad)
    gray = to_gray(rect)
    gx, gy = gradients(gray)
    lo, hi = int(round((pad + 1) * s)), int(round((pad + GRID - 1) * s))
    paper = paperness(rect, (int(round((pad + 2) * s)), int(round((pad + GRID - 2) * s))))
    magnitude = np.abs(gx) + np.abs(gy)
    segment = max(2, s // 4)
    seen = inside_photo(bgr_pyramid.shape, aligned, s, pad)
    fx = place_axis(paper[lo:hi].mean(axis=0), magnitude[lo:hi].mean(axis=0), line_evidence(gx[lo:hi], segment),
                    s, (lo, hi), settings, seen[lo:hi].mean(axis=0) > 0.5)
    fy = place_axis(paper[:, lo:hi].mean(axis=1), magnitude[:, lo:hi].mean(axis=1),
                    line_evidence(np.ascontiguousarray(gy[:, lo:hi].T), segment), s, (lo, hi), settings,
                    seen[:, lo:hi].mean(axis=1) > 0.5)
    corners = np.array([[fx.first, fy.first], [fx.first + GRID * fx.pitch, fy.first],
                        [fx.first + GRID * fx.pitch, fy.first + GRID * fy.pitch],
                        [fx.first, fy.first + GRID * fy.pitch]])
    corners_img = apply_homography(aligned @ rect_to_grid(s, pad), corners)
    return Placement(homography=grid_homography(corners_img), x=fx, y=fy)


# --- 3. refine ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LineSamples:
    """Where the lines of one direction were seen: for line k and band j (the cell row or
    column it crosses), the offset across the line in grid units and how clearly it showed."""

    offset: np.ndarray  # (11, 10) grid units, positive towards higher coordinates
    strength: np.ndarray  # (11, 10) peak over the band's median evidence; 0 where not measured


def sample_lines(grad: np.ndarray, cell_px: int, pad_cells: float, reach: float, segments: int) -> LineSamples:
    """Measures the 11 lines across the columns of ``grad`` (signed d/dx of a rectification,
    or d/dy transposed) in each of the 10 bands of rows (vectorised over lines and bands)."""
    s = cell_px
    seg = max(1, s // segments)
    tops = np.round((pad_cells + np.arange(GRID)) * s).astype(int)
    rows = tops[:, None] + np.arange(segments * seg)[None, :]  # (10, segments * seg)
    bands = grad[rows]  # (10, segments * seg, N)
    means = bands.reshape(GRID, segments, seg, grad.shape[1]).mean(axis=2)
    evidence = np.abs(np.median(means, axis=1))  # (10, N)
    evidence = cv2.blur(evidence.astype(np.float32), (3, 1))
    lo, hi = int(pad_cells * s), int((pad_cells + GRID) * s)
    floor = np.median(evidence[:, lo:hi], axis=1) + 1e-3  # (10,)
    centres = (pad_cells + np.arange(LINES)) * s  # (11,)
    half = int(np.ceil(reach * s))
    offsets_px = np.arange(-half, half + 1)
    idx = np.round(centres).astype(int)[:, None] + offsets_px[None, :]  # (11, W)
    idx = np.clip(idx, 1, grad.shape[1] - 2)
    window = evidence[:, idx]  # (10, 11, W)
    allowed = np.abs(idx - centres[:, None]) <= reach * s  # (11, W)
    best = np.argmax(np.where(allowed[None], window, -1.0), axis=2)  # (10, 11)
    at = np.take_along_axis(idx[None].repeat(GRID, 0), best[..., None], axis=2)[..., 0]  # (10, 11)
    j = np.arange(GRID)[:, None]
    a, b, c = evidence[j, at - 1], evidence[j, at], evidence[j, at + 1]
    denom = a - 2 * b + c
    sub = np.where(denom < 0, np.clip(0.5 * (a - c) / np.where(denom < 0, denom, -1.0), -0.5, 0.5), 0.0)
    peak = at + sub
    offsets = ((peak - centres[None, :]) / s).T  # (11, 10)
    strengths = (b / floor[:, None]).T
    return LineSamples(offset=offsets, strength=strengths)


@dataclass(frozen=True, slots=True)
class Refinement:
    homography: np.ndarray  # grid -> image
    lattice_xy: np.ndarray  # (11, 11, 2) [row line i, column line j] -> image (x, y)
    lines_seen: int  # lines of the 22 measured clearly in most bands
    residual: float  # median distance of the measured lines from the fitted lattice, cells


def correspondences(vertical: LineSamples, horizontal: LineSamples, min_strength: float
                    ) -> tuple[np.ndarray, np.ndarray]:
    """(true grid point, current grid point) pairs from the line samples that showed clearly."""
    k, j = np.nonzero(vertical.strength >= min_strength)
    true_v = np.column_stack([k, j + 0.5]).astype(np.float64)
    seen_v = np.column_stack([k + vertical.offset[k, j], j + 0.5])
    k2, j2 = np.nonzero(horizontal.strength >= min_strength)
    true_h = np.column_stack([j2 + 0.5, k2]).astype(np.float64)
    seen_h = np.column_stack([j2 + 0.5, k2 + horizontal.offset[k2, j2]])
    return np.vstack([true_v, true_h]), np.vstack([seen_v, seen_h])


def fit_step(true_pts: np.ndarray, seen_pts: np.ndarray) -> np.ndarray | None:
    """The homography (true grid -> current grid) that best explains the measured line
    samples, robustly (least median of squares: pieces of art lined up like a line are outvoted)."""
    if len(true_pts) < 12:
        return None
    g, _ = cv2.findHomography(true_pts, seen_pts, cv2.LMEDS)
    return g


def sample_both(gray_pyramid: Pyramid, homography: np.ndarray, cell_px: int, pad_cells: float, reach: float,
                segments: int) -> tuple[LineSamples, LineSamples]:
    rect = gray_pyramid.rectify(homography, cell_px, pad_cells)
    gx, gy = gradients(rect)
    return (sample_lines(gx, cell_px, pad_cells, reach, segments),
            sample_lines(np.ascontiguousarray(gy.T), cell_px, pad_cells, reach, segments))


def refine(gray_pyramid: Pyramid, homography: np.ndarray, cell_px: int, pad_cells: float,
           reaches: tuple[float, ...], min_strength: float, segments: int, outline_first: bool,
           outline_reach: float) -> Refinement:
    """Moves the fit onto the grid's lines, measured in short pieces, a few times over with a
    shrinking reach; a homography first, then each line's bend (the fold, the lens).

    With ``outline_first`` (the paper was seen to end at a coloured border) the four outer
    lines are fitted alone first, so that art lined up in rows cannot pull a board whose
    cell borders do not show."""
    s = cell_px
    h = homography
    if outline_first:
        vertical, horizontal = sample_both(gray_pyramid, h, s, pad_cells, outline_reach, segments)
        outer_v = LineSamples(vertical.offset, np.where(np.isin(np.arange(LINES), (0, GRID))[:, None],
                                                        vertical.strength, 0.0))
        outer_h = LineSamples(horizontal.offset, np.where(np.isin(np.arange(LINES), (0, GRID))[:, None],
                                                          horizontal.strength, 0.0))
        g = fit_step(*correspondences(outer_v, outer_h, min_strength))
        if g is not None:
            h = h @ g
    vertical = horizontal = None
    before = h
    for reach in reaches:
        vertical, horizontal = sample_both(gray_pyramid, h, s, pad_cells, reach, segments)
        before = h
        g = fit_step(*correspondences(vertical, horizontal, min_strength))
        if g is None:
            break
        h = h @ g
    # the bend (a fold across the middle, the lens): a homography per quarter of the grid, from
    # the last samples (taken against ``before``)
    lattice = quarter_lattice(before, vertical, horizontal, min_strength)
    seen = int((np.mean(vertical.strength >= min_strength, axis=1) >= 0.5).sum()
               + (np.mean(horizontal.strength >= min_strength, axis=1) >= 0.5).sum())
    true_pts, seen_pts = correspondences(vertical, horizontal, min_strength)
    if len(true_pts):
        moved = apply_homography(np.linalg.solve(before, h), true_pts)
        residual = float(np.median(np.linalg.norm(moved - seen_pts, axis=1)))
    else:
        residual = 1.0
    return Refinement(homography=h, lattice_xy=lattice.astype(np.float32), lines_seen=seen, residual=residual)


def quarter_lattice(homography: np.ndarray, vertical: LineSamples, horizontal: LineSamples,
                    min_strength: float, min_samples: int = 24) -> np.ndarray:
    """(11, 11, 2) image positions of the crossings: each quarter of the grid (5 x 5 cells and
    the lines round it) gets its own correction of ``homography`` from the samples in it; a
    crossing shared by quarters takes their mean."""
    half = GRID // 2
    ks = np.arange(LINES, dtype=np.float64)
    gx, gy = np.meshgrid(ks, ks)  # [row i, col j]
    grid_pts = np.stack([gx, gy], axis=-1)
    total = np.zeros((LINES, LINES, 2))
    count = np.zeros((LINES, LINES, 1))
    true_all, seen_all = correspondences(vertical, horizontal, min_strength)
    for x0 in (0, half):
        for y0 in (0, half):
            inside = ((true_all[:, 0] >= x0 - 0.01) & (true_all[:, 0] <= x0 + half + 0.01)
                      & (true_all[:, 1] >= y0 - 0.01) & (true_all[:, 1] <= y0 + half + 0.01))
            g = None
            if inside.sum() >= min_samples:
                g, _ = cv2.findHomography(true_all[inside], seen_all[inside], cv2.RANSAC, 0.06)
            corrected = homography @ g if g is not None else homography
            rows = slice(y0, y0 + half + 1)
            cols = slice(x0, x0 + half + 1)
            total[rows, cols] += apply_homography(corrected, grid_pts[rows, cols])
            count[rows, cols] += 1
    return total / count


# --- 4. verify ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Evidence:
    """How much a fit looks like a printed 10 x 10 grid of cards (on the part of it that is in
    the photo)."""

    repeat: float  # the cells repeat one cell on (NCC of the grid with itself shifted a cell), 0..1
    off_repeat: float  # the same shifted half a cell (a true lattice repeats less there)
    spill: float  # the strongest repeat across one of the grid's sides into what lies beyond it
    busy: float  # the activity inside the cells that have least, against the lines' (art, chips)
    content: float  # share of cells whose inside is not one flat tone (ink or a chip on paper)
    extent: float  # neighbouring columns (rows) alike inside, unlike across the outline
    visible: float  # share of the grid's cells inside the photo
    outside: tuple[str, ...]  # the grid's sides that run out of the photo
    light_rims: float = 0.0  # share of cells whose rim (just inside the cell's border) is light paper
    corners_alike: float = 0.0  # the four corner cells (one printed free space) alike, more than each is like its neighbours


def _ncc(a: np.ndarray, b: np.ndarray) -> float:
    a = a - a.mean()
    b = b - b.mean()
    return float((a * b).sum() / (np.sqrt((a * a).sum() * (b * b).sum()) + 1e-9))


def _unit(patch: np.ndarray) -> np.ndarray:
    """The patch less its mean, scaled to unit length: the NCC of two is their dot product."""
    centred = patch - patch.mean()
    return centred / (np.sqrt((centred * centred).sum()) + 1e-9)


def _turned_ncc(a_unit: np.ndarray, b_turns: np.ndarray) -> float:
    """NCC of two square cells (``_unit``), at the best of the four quarter turns of b, given
    as (4, s, s) (a corner's print may face its own corner of the board)."""
    return float((b_turns * a_unit).sum(axis=(1, 2)).max())


def corner_likeness(rect: np.ndarray, seen: np.ndarray, s: int, pad: int) -> float:
    """How much more the grid's corner cells look like one another than like the cells next to
    them: the four corners of a Sequence board print the same free space, whatever the art.
    The best three corners count when all four show (a hand often covers one); 0 when fewer
    than two corners are in the photo."""
    trim = max(1, int(round(0.1 * s)))

    def cell(r: int, c: int) -> np.ndarray:
        y, x = (pad + r) * s, (pad + c) * s
        return _unit(rect[y + trim : y + s - trim, x + trim : x + s - trim].astype(np.float32))

    def turns(unit: np.ndarray) -> np.ndarray:
        return np.stack([np.rot90(unit, k) for k in range(4)])

    last = GRID - 1
    corners = [(r, c) for r, c in ((0, 0), (0, last), (last, last), (last, 0)) if seen[pad + r, pad + c]]
    if len(corners) < 2:
        return 0.0
    step = {0: 1, last: -1}
    units = {corner: cell(*corner) for corner in corners}
    turned = {corner: turns(unit) for corner, unit in units.items()}
    unlike = {(r, c): 0.5 * (_turned_ncc(units[r, c], turns(cell(r + step[r], c)))
                             + _turned_ncc(units[r, c], turns(cell(r, c + step[c]))))
              for r, c in corners}
    alike = {(a, b): _turned_ncc(units[a], turned[b]) for i, a in enumerate(corners) for b in corners[i + 1 :]}
    groups = list(combinations(corners, 3)) if len(corners) == 4 else [tuple(corners)]
    return max(float(np.mean([alike[pair] for pair in combinations(group, 2)]) - np.mean([unlike[c] for c in group]))
               for group in groups)


def _visible_span(inside: np.ndarray) -> tuple[int, int] | None:
    """The longest run of True in a 1-D mask, as (start, stop)."""
    best, start = None, None
    for i, ok in enumerate(list(inside) + [False]):
        if ok and start is None:
            start = i
        if not ok and start is not None:
            if best is None or i - start > best[1] - best[0]:
                best = (start, i)
            start = None
    return best


def paper_tone_per_cell(cells: np.ndarray, floor: float = 0.5) -> np.ndarray:
    """(rows, cols) the paper's tone about each cell of (rows, s, cols, s) grey cells: the
    median of its own and its neighbours' lightest tones (a chip or a hand may cover one
    cell), but at least ``floor`` of the whole grid's. A glare spot on part of the board
    leaves the paper elsewhere darker than the grid's lightest tone, and its faint ink then
    passed for blank cells."""
    lightest = np.percentile(cells[:, ::2, :, ::2], 95, axis=(1, 3)).astype(np.float32)
    whole = float(np.percentile(cells[:, ::2, :, ::2], 95))
    near = cv2.medianBlur(lightest, 3)
    return np.maximum(near, floor * whole) + 1e-3


def content_share(cells_gray: np.ndarray, cell_px: int) -> float:
    """The share of the cells of a cell-aligned grey rectification (rows * s, cols * s) whose
    inside is not one flat tone against the paper about it: ink or a chip on a card."""
    s = cell_px
    nr, nc = cells_gray.shape[0] // s, cells_gray.shape[1] // s
    cells = cells_gray[: nr * s, : nc * s].reshape(nr, s, nc, s)
    inner = (int(round(0.12 * s)), s - int(round(0.12 * s)))
    tones = cells[:, inner[0] : inner[1], :, inner[0] : inner[1]]
    return float((tones.std(axis=(1, 3)) / paper_tone_per_cell(cells) >= 0.08).mean())


def fine_content(gray_pyramid: Pyramid, homography: np.ndarray, cell_px: int) -> float:
    """``content_share`` of a whole grid rectified at ``cell_px``: small pips or a corner index
    alone, faint at the evidence's cell size, show at a finer one."""
    return content_share(to_gray(gray_pyramid.rectify(homography, cell_px, 0)), cell_px)


def evidence(gray_pyramid: Pyramid, homography: np.ndarray, cell_px: int, busy_quantile: float) -> Evidence:
    """Self-similarity of a fit's cells, whether it stops at the outline, and whether the cells
    hold anything; measured on the cells (and the ring of cells round them) inside the photo."""
    s, pad = cell_px, 1
    height, width = gray_pyramid.shape[:2]
    rect = to_gray(gray_pyramid.rectify(homography, s, pad))
    gx, gy = gradients(rect)
    feature = cv2.blur(np.abs(gx) + np.abs(gy), (3, 3))
    # which cells of the 12 x 12 (grid and ring) lie in the photo
    centres = np.arange(-1, GRID + 1) + 0.5
    cx, cy = np.meshgrid(centres, centres)
    pts = apply_homography(homography, np.stack([cx, cy], axis=-1))
    reach = 0.5 * cell_size_px(homography)
    seen = ((pts[..., 0] > reach) & (pts[..., 0] < width - 1 - reach) & (pts[..., 1] > reach)
            & (pts[..., 1] < height - 1 - reach))
    grid_seen = seen[1:-1, 1:-1]
    rows = _visible_span(grid_seen.all(axis=1) | (grid_seen.mean(axis=1) >= 0.5))
    cols = _visible_span(grid_seen.mean(axis=0) >= 0.5)
    outside = tuple(name for name, gone in (("top", not grid_seen[0].all()), ("bottom", not grid_seen[-1].all()),
                                             ("left", not grid_seen[:, 0].all()), ("right", not grid_seen[:, -1].all()))
                    if gone)
    if rows is None or cols is None or rows[1] - rows[0] < 3 or cols[1] - cols[0] < 3:
        return Evidence(0.0, 1.0, 1.0, 0.0, 0.0, -1.0, float(grid_seen.mean()), outside)
    # the ring of cells beyond each side, where the grid reaches that side in the photo
    beyond = {"top": rows[0] == 0 and bool(seen[0, 1 + cols[0] : 1 + cols[1]].all()),
              "bottom": rows[1] == GRID and bool(seen[-1, 1 + cols[0] : 1 + cols[1]].all()),
              "left": cols[0] == 0 and bool(seen[1 + rows[0] : 1 + rows[1], 0].all()),
              "right": cols[1] == GRID and bool(seen[1 + rows[0] : 1 + rows[1], -1].all())}
    r0, r1 = (pad + rows[0]) * s, (pad + rows[1]) * s
    c0, c1 = (pad + cols[0]) * s, (pad + cols[1]) * s
    grid = feature[r0:r1, c0:c1]
    h = s // 2
    repeat = min(_ncc(grid[:, :-s], grid[:, s:]), _ncc(grid[:-s], grid[s:]))
    off_repeat = max(_ncc(grid[:, :-h], grid[:, h:]), _ncc(grid[:-h], grid[h:]))
    a, b = pad * s, (pad + GRID) * s
    sides = []
    if beyond["left"]:
        sides.append(_ncc(feature[r0:r1, 0:s], feature[r0:r1, a : a + s]))
    if beyond["right"]:
        sides.append(_ncc(feature[r0:r1, b : b + s], feature[r0:r1, b - s : b]))
    if beyond["top"]:
        sides.append(_ncc(feature[0:s, c0:c1], feature[a : a + s, c0:c1]))
    if beyond["bottom"]:
        sides.append(_ncc(feature[b : b + s, c0:c1], feature[b - s : b, c0:c1]))
    nr, nc = rows[1] - rows[0], cols[1] - cols[0]
    inner = (int(round(0.12 * s)), s - int(round(0.12 * s)))
    cells = grid.reshape(nr, s, nc, s)[:, inner[0] : inner[1], :, inner[0] : inner[1]].mean(axis=(1, 3))
    busy = float(np.quantile(cells, busy_quantile))
    near = np.abs(((np.arange(nc * s) + 0.5) / s + 0.5) % 1.0 - 0.5) < 0.1  # within 0.1 cell of a line
    near_r = np.abs(((np.arange(nr * s) + 0.5) / s + 0.5) % 1.0 - 0.5) < 0.1
    line_level = 0.5 * (float(grid[:, near].mean()) + float(grid[near_r, :].mean()))
    paper = paper_tone_per_cell(rect[r0:r1, c0:c1].reshape(nr, s, nc, s))
    content = content_share(rect[r0:r1, c0:c1], s)
    # a card's rim is paper all round (a chip or the art sits inside it); a chessboard's dark
    # squares, a game's coloured squares are not
    cells_grey = rect[r0:r1, c0:c1].reshape(nr, s, nc, s)
    k0, k1 = max(1, int(round(0.08 * s))), max(2, int(round(0.2 * s)))
    rim = np.concatenate([cells_grey[:, k0:k1, :, k0 : s - k0].reshape(nr, -1, nc).transpose(0, 2, 1),
                          cells_grey[:, s - k1 : s - k0, :, k0 : s - k0].reshape(nr, -1, nc).transpose(0, 2, 1),
                          cells_grey[:, k0 : s - k0, :, k0:k1].transpose(0, 2, 1, 3).reshape(nr, nc, -1),
                          cells_grey[:, k0 : s - k0, :, s - k1 : s - k0].transpose(0, 2, 1, 3).reshape(nr, nc, -1)],
                         axis=2)
    light_rims = float((np.median(rim, axis=2) >= 0.65 * paper).mean())
    # neighbouring columns (rows) of cells: alike inside, unlike across a visible outline
    extents = []
    for across, span, other, first_side, last_side in (
            (cv2.blur(np.abs(gy), (3, 3)), cols, rows, "left", "right"),
            (np.ascontiguousarray(cv2.blur(np.abs(gx), (3, 3)).T), rows, cols, "top", "bottom")):
        count = span[1] - span[0] + 2
        band = ((pad + other[0]) * s, (pad + other[1]) * s)
        pairs = pair_similarity(across, s, span[0] * s, count, band)  # columns span[0]-1 .. span[1]
        inside = pairs[1:-1]
        edges = [pairs[0]] if beyond[first_side] else []
        edges += [pairs[-1]] if beyond[last_side] else []
        extents.append(float(np.median(inside)) - (max(edges) if edges else 1.0))
    # a grid whose outline cannot be seen on two sides at least is not told from a pattern
    spill = max(sides) if len(sides) >= 2 else 1.0
    return Evidence(repeat=repeat, off_repeat=off_repeat, spill=spill,
                    busy=busy / (line_level + 1e-3), content=content, extent=min(extents),
                    visible=float(grid_seen.mean()), outside=outside, light_rims=light_rims,
                    corners_alike=corner_likeness(rect, seen, s, pad))


# --- 5. extent of the cells (a check where no coloured border shows it) -------------------------


def pair_similarity(across: np.ndarray, pitch: int, first: int, count: int, rows: tuple[int, int]) -> np.ndarray:
    """NCC between neighbouring cell columns of a cell-aligned rectification: column k spans
    [first + k pitch, first + (k + 1) pitch); each column's ``across`` feature (what runs
    across it: the rows' lines, the art) is folded over ``rows`` into one cell, so chips and
    hands lying here or there average out while the cards' shared layout stays. Returns
    (count - 1,) similarities of columns (k, k + 1)."""
    band = across[rows[0] : rows[1]]
    n = (rows[1] - rows[0]) // pitch
    folded = band[: n * pitch].reshape(n, pitch, band.shape[1]).mean(axis=0)
    guard = max(1, pitch // 8)
    cells = np.stack([folded[:, first + k * pitch + guard : first + (k + 1) * pitch - guard].ravel()
                      for k in range(count)])
    cells = cells - cells.mean(axis=1, keepdims=True)
    norms = np.linalg.norm(cells, axis=1) + 1e-9
    return (cells[:-1] * cells[1:]).sum(axis=1) / (norms[:-1] * norms[1:])


def extent_shift(gray_pyramid: Pyramid, homography: np.ndarray, cell_px: int, reach: int) -> tuple[int, int, float]:
    """Whether the 10 x 10 window should move by whole cells (up to ``reach``) along x and y:
    inside the grid neighbouring columns (rows) of cells look alike, across its outline they
    do not. Returns (dx, dy, the weaker axis's contrast at the chosen window)."""
    s = cell_px
    pad = reach + 1
    rect = to_gray(gray_pyramid.rectify(homography, s, pad))
    gx, gy = gradients(rect)
    count = GRID + 2 * pad
    inside_rows = (pad * s, (pad + GRID) * s)
    col_pairs = pair_similarity(cv2.blur(np.abs(gy), (3, 3)), s, 0, count, inside_rows)
    row_pairs = pair_similarity(np.ascontiguousarray(cv2.blur(np.abs(gx), (3, 3)).T), s, 0, count, inside_rows)
    result = []
    for pairs in (col_pairs, row_pairs):
        best = (0, -np.inf)
        for d in range(-reach, reach + 1):
            first = pad + d  # index of the window's first column
            inside = np.sort(pairs[first : first + GRID - 1])
            across = max(pairs[first - 1], pairs[first + GRID - 1])
            score = float(inside[1]) - float(across)
            if score > best[1] + (0.05 if d != 0 and best[0] == 0 else 0.0):
                best = (d, score)
        result.append(best)
    return result[0][0], result[1][0], min(result[0][1], result[1][1])


# --- 6. card centres (where no coloured border shows the outline) ------------------------------


def point_symmetry_near(gray: np.ndarray, cell_px: int, half_window: float, centres_yx: np.ndarray,
                        reach_px: int) -> np.ndarray:
    """(N, 2 reach_px + 1, 2 reach_px + 1): how much of the picture is point-symmetric about
    each pixel within ``reach_px`` of each of the N ``centres_yx``, over a square of
    ``half_window`` cells each side: playing cards are printed the same way up from either
    end, and chips are round, so the symmetry peaks at the centre of every card whatever
    the artwork. Not normalised per window: a lone glyph that happens to be symmetric counts
    little against a whole card. Measured near the centres alone: a fine step looks a few
    pixels round each, a sixteenth of the picture."""
    detail = gray - cv2.blur(gray, (cell_px | 1, cell_px | 1))
    detail = detail / (float(detail.std()) + 1e-6)
    r = int(round(half_window * cell_px))
    padded = cv2.copyMakeBorder(detail, r, r, r, r, cv2.BORDER_CONSTANT, value=0.0)
    side, width = 2 * (reach_px + r) + 1, 2 * reach_px + 1
    rows = np.asarray(centres_yx[:, 0])[:, None] - reach_px + np.arange(side)  # in padded pixels
    cols = np.asarray(centres_yx[:, 1])[:, None] - reach_px + np.arange(side)
    around = padded[rows[:, :, None], cols[:, None, :]]  # (N, side, side)
    # a row's windows along it: along[n, y, x, r + dx] = around[n, y, x + r + dx]
    along = sliding_window_view(around, 2 * r + 1, axis=2)  # (N, side, width, 2 r + 1)
    pairs = np.zeros((len(centres_yx), width, width), np.float32)
    for dy in range(0, r + 1):
        above = along[:, r + dy : r + dy + width]  # the point (dy, dx) from each place
        below = along[:, r - dy : r - dy + width, :, ::-1]  # and the point (-dy, -dx)
        first = r + 1 if dy == 0 else 0  # each pair of points once
        pairs += np.einsum("nyxd,nyxd->nyx", above[..., first:], below[..., first:])
    count = ((2 * r + 1) ** 2 - 1) // 2
    return pairs / count  # 1 where the window is as symmetric as the picture is detailed


def centre_step(gray_pyramid: Pyramid, homography: np.ndarray, cell_px: int, half_window: float, reach: float,
                keep_share: float, inlier_cells: float) -> np.ndarray | None:
    """The fit moved onto the card centres: each cell's centre is the most point-symmetric
    place within ``reach`` cells of where the fit puts it; the ``keep_share`` of cells with
    the most symmetric content (cards with art, chips) give a homography by RANSAC (centres
    within ``inlier_cells`` agree; least median of squares, as for the lines, was less
    precise here: half the kept cells can be art that is symmetric off centre). None when no
    homography fits them."""
    s = cell_px
    pad = reach + half_window
    rect = to_gray(gray_pyramid.rectify(homography, s, pad))
    r = int(round(reach * s))
    rows, cols = np.divmod(np.arange(GRID * GRID), GRID)
    centres_yx = np.round((pad + np.stack([rows, cols], axis=1) + 0.5) * s).astype(int)
    windows = point_symmetry_near(rect, s, half_window, centres_yx, r).reshape(GRID * GRID, -1)
    best = windows.argmax(axis=1)
    dy, dx = np.divmod(best, 2 * r + 1)
    true_pts = np.stack([cols + 0.5, rows + 0.5], axis=1).astype(np.float64)
    seen_pts = np.stack([(centres_yx[:, 1] - r + dx) / s - pad, (centres_yx[:, 0] - r + dy) / s - pad], axis=1)
    strength_arr = windows[np.arange(GRID * GRID), best].astype(np.float64)
    keep = strength_arr >= np.quantile(strength_arr, 1.0 - keep_share)
    if keep.sum() < 12:
        return None
    g, _ = cv2.findHomography(true_pts[keep], seen_pts[keep], cv2.USAC_FAST, inlier_cells)
    return None if g is None else homography @ g
