"""Rough quadrilaterals where the printed grid may be: the proposal stage of locating.

The cells of a Sequence board are playing cards: light, weakly coloured paper with ink on
it. Two masks are made on a small copy of the photo, after a white balance taken from its
brightest pixels:

* paper: light, weakly coloured pixels, at a few lightness levels, closed over the gaps
  between cards and opened to cut thin bridges to hands and other light things;
* inked paper: where paper and strong edges are both dense, which keeps the grid apart
  from a white table or a white border (plain paper has no ink); opened as well, which cuts
  off the thin strands that the edges of an arm lying on the board make.

Outlines closed by edges (the board's edge against the table) are taken too, on a larger
copy: they show where chips cover the cards or a shadow darkens part of the paper.

Then come regions of one colour (the photo's colours clustered): a board's coloured border
is one, where a wooden or checked table's texture breaks every outline of edges and chips or
shade hide the paper. Last, the busiest region of edges, whatever its colours: a board full of
chips, under glare or in a dim room, whose border is as dark as the table.

Each blob, outline or region gives the quadrilateral that hugs it best. It may be the grid (a
coloured border round it), the whole board (a white border), or more; the lattice stage
decides.
Points are (x, y) float32 arrays in the small copy's pixels.
"""

from __future__ import annotations

import cv2
import numpy as np


def white_gains(image_bgr: np.ndarray, top_share: float, max_chroma: float | None = None) -> np.ndarray | None:
    """Per-channel gains (3,) that make the mean colour of the brightest pixels grey; with
    ``max_chroma``, of the brightest weakly coloured ones (None when too few are): a camera's
    own white balance leaves the cards about grey, while a lit wooden table, brighter than a
    board in shade, is not white."""
    sample = image_bgr[::4, ::4].reshape(-1, 3).astype(np.float32)
    if max_chroma is not None:
        low, high = sample.min(axis=1), sample.max(axis=1)
        weak = sample[high - low < max_chroma * low]
        if len(weak) < top_share * len(sample):
            return None
        sample = weak
    total = sample.sum(axis=1)
    cut = np.quantile(total, 1.0 - top_share)
    ref = sample[total >= cut].mean(axis=0)
    return (float(ref.max()) / np.maximum(ref, 1.0)).astype(np.float32)


def paper_and_ink(image_bgr: np.ndarray, gains: np.ndarray, levels: tuple[float, ...], max_chroma: float
                  ) -> tuple[list[np.ndarray], np.ndarray]:
    """uint8 masks of paper (light, weakly coloured pixels under the white balance ``gains``,
    one per lightness level, a share of the whitest paper's) and of strong edges."""
    balanced = cv2.transform(image_bgr, np.diag(gains).astype(np.float32))
    b, g, r = cv2.split(balanced)
    low = cv2.min(cv2.min(b, g), r)
    high = cv2.max(cv2.max(b, g), r)
    white = float(np.quantile(low[::4, ::4], 0.99))
    # chroma below max_chroma * lightness: (high - low) / max_chroma < low
    weak_colour = cv2.compare(cv2.multiply(cv2.subtract(high, low), 1.0 / max_chroma), low, cv2.CMP_LT)
    masks = [cv2.bitwise_and(cv2.compare(low, level * white, cv2.CMP_GT), weak_colour) for level in levels]
    return masks, strong_edges(cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY), white)


def strong_edges(gray: np.ndarray, white: float) -> np.ndarray:
    """uint8 mask of the pixels whose gradient (|dx| + |dy|, Sobel) passes a quarter of ``white``."""
    magnitude = cv2.add(cv2.convertScaleAbs(cv2.Sobel(gray, cv2.CV_16S, 1, 0)),
                        cv2.convertScaleAbs(cv2.Sobel(gray, cv2.CV_16S, 0, 1)))
    return cv2.compare(magnitude, 0.25 * white, cv2.CMP_GT)


def inked_paper(paper: np.ndarray, edges: np.ndarray, box: int) -> np.ndarray:
    """Where paper and edges are both dense over ``box`` pixels (the grid: cards with art and
    chips on them), thresholded halfway to the densest such place."""
    density = cv2.boxFilter(edges, cv2.CV_32F, (box, box), normalize=True) / 255.0
    paper_share = cv2.boxFilter(paper, cv2.CV_32F, (box, box), normalize=True) / 255.0
    score = density * paper_share
    top = float(score.max())
    if top <= 0:
        return np.zeros_like(paper)
    return (score > 0.35 * top).astype(np.uint8) * 255


def intersect(p1: np.ndarray, d1: np.ndarray, p2: np.ndarray, d2: np.ndarray) -> np.ndarray | None:
    m = np.array([d1, -d2]).T
    if abs(np.linalg.det(m)) < 1e-9:
        return None
    t = np.linalg.solve(m, p2 - p1)
    return p1 + t[0] * d1


def side_lines(points_xy: np.ndarray, quad_xy: np.ndarray, band: float) -> np.ndarray | None:
    """Refits each side of ``quad_xy`` to the outline points near its middle (total least
    squares) and meets neighbouring sides; None when a side has too few points."""
    lines = []
    for i in range(4):
        a, b = quad_xy[i], quad_xy[(i + 1) % 4]
        d = b - a
        length = float(np.hypot(*d))
        if length < 1e-6:
            return None
        d = d / length
        normal = np.array([-d[1], d[0]])
        rel = points_xy - a
        along = rel @ d
        near = (np.abs(rel @ normal) < band) & (along > 0.15 * length) & (along < 0.85 * length)
        if near.sum() < 6:
            return None
        pts = points_xy[near]
        centre = pts.mean(axis=0)
        _, _, vt = np.linalg.svd(pts - centre, full_matrices=False)
        lines.append((centre, vt[0]))
    corners = []
    for i in range(4):
        point = intersect(*lines[i - 1], *lines[i])
        if point is None:
            return None
        corners.append(point)
    return np.array(corners, np.float32)


def four_longest(polygon: np.ndarray) -> np.ndarray | None:
    """The quadrilateral made by extending the four longest sides of a convex polygon (a corner
    cut off by a hand or the frame leaves a short extra side)."""
    sides = np.linalg.norm(np.roll(polygon, -1, axis=0) - polygon, axis=1)
    keep = np.sort(np.argsort(-sides)[:4])
    segments = [(polygon[i], polygon[(i + 1) % len(polygon)] - polygon[i]) for i in keep]
    corners = []
    for j in range(4):
        point = intersect(*segments[j - 1], *segments[j])
        if point is None:
            return None
        corners.append(point)
    return np.array(corners, np.float32)


def quad_of_hull(hull: np.ndarray) -> np.ndarray | None:
    """The quadrilateral that hugs a convex outline: simplified to four sides (the four longest
    when a corner is cut), then each side refitted to the outline near it."""
    perimeter = cv2.arcLength(hull, True)
    quad = None
    for share in (0.01, 0.02, 0.035, 0.05, 0.08):
        approx = cv2.approxPolyDP(hull, share * perimeter, True).reshape(-1, 2).astype(np.float32)
        if len(approx) == 4:
            quad = approx
            break
        if 4 < len(approx) <= 6 and share >= 0.035:
            quad = four_longest(approx)
            if quad is not None:
                break
        if len(approx) < 4:
            return None
    if quad is None:
        return None
    refined = side_lines(densify(hull.reshape(-1, 2).astype(np.float32), 2.0), quad, band=0.005 * perimeter + 2.0)
    return refined if refined is not None else quad


def densify(polygon: np.ndarray, step: float) -> np.ndarray:
    """Points every ``step`` pixels along a closed polygon's sides.

    >>> densify(np.float32([[0, 0], [4, 0], [4, 2]]), 2.0).tolist()
    [[0.0, 0.0], [2.0, 0.0], [4.0, 0.0], [4.0, 2.0], [2.0, 1.0]]
    """
    sides = np.roll(polygon, -1, axis=0) - polygon
    counts = np.maximum(1, (np.hypot(sides[:, 0], sides[:, 1]) / step).astype(np.int64))
    side = np.repeat(np.arange(len(polygon)), counts)
    along = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
    t = (along.astype(np.float32) / counts[side].astype(np.float32))[:, None]
    return polygon[side] + t * sides[side]


def group_quads(mask: np.ndarray, reach: int, min_area: float, min_fill: float
                ) -> list[tuple[float, np.ndarray]]:
    """Quadrilaterals round groups of blobs of ``mask`` lying within ``reach`` pixels of each
    other (cards split apart by chips and borders): the hull of each group's own pixels."""
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (reach, reach))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(cv2.dilate(mask, kernel), connectivity=8)
    out = []
    for i in range(1, count):
        x, y, w, h, area = stats[i]
        if area < min_area:
            continue
        own = cv2.bitwise_and(mask[y : y + h, x : x + w], mask[y : y + h, x : x + w],
                              mask=(labels[y : y + h, x : x + w] == i).astype(np.uint8))
        contours, _ = cv2.findContours(own, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if not contours:
            continue
        points = np.vstack(contours).reshape(-1, 2) + np.array([x, y])
        hull = cv2.convexHull(points.astype(np.int32))
        hull_area = cv2.contourArea(hull)
        if hull_area < min_area or cv2.countNonZero(own) < min_fill * hull_area:
            continue
        quad = quad_of_hull(hull)
        if quad is not None and 0 < abs(cv2.contourArea(quad)) <= 1.6 * hull_area:
            out.append((abs(cv2.contourArea(quad)), quad))
        # the blob's best rectangle too: no perspective, but no side of it trusted alone
        rect = cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float32)
        out.append((0.999 * abs(cv2.contourArea(rect)), rect))
    return out


def outline_quads(image_bgr: np.ndarray, min_area: float) -> list[tuple[float, np.ndarray]]:
    """Quadrilaterals outlined by edges, as a document scanner finds a page: the board's own
    outline against the table, which shows even when chips cover most of the cards or part
    of the board lies in shadow."""
    gray = cv2.GaussianBlur(cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY), (3, 3), 0)
    middle = float(np.median(gray))
    edges = cv2.dilate(cv2.Canny(gray, max(10.0, 0.4 * middle), max(30.0, middle)), np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < min_area:
            continue
        hull = cv2.convexHull(contour)
        if area < 0.8 * cv2.contourArea(hull):
            continue
        quad = quad_of_hull(hull)
        if quad is None:
            continue
        quad_area = abs(cv2.contourArea(quad))
        if 0.85 * quad_area <= area <= 1.15 * quad_area:
            out.append((quad_area, quad))
    return out


def propose_quads(image_bgr: np.ndarray, outline_bgr: np.ndarray | None, *, gains: np.ndarray, levels: tuple[float, ...],
                  max_chroma: float, reaches: tuple[float, ...], texture_box_share: float, strand_share: float,
                  min_area_share: float, min_fill: float, max_count: int) -> list[np.ndarray]:
    """Candidate grid outlines in ``image_bgr`` pixels, (4, 2) float32 each, the likeliest first;
    ``outline_bgr`` is the same photo larger, where edges are followed (None: not followed, as
    they do not depend on the white balance); ``gains``, the white balance paper is judged
    under (``white_gains``)."""
    height, width = image_bgr.shape[:2]
    long_side = max(height, width)
    min_area = min_area_share * height * width
    papers, edges = paper_and_ink(image_bgr, gains, levels, max_chroma)
    found: list[tuple[float, np.ndarray]] = []
    box = max(5, int(texture_box_share * long_side) | 1)
    inked = inked_paper(papers[-1], edges, box)
    found += group_quads(inked, 3, min_area, 0.5)
    # the edges of an arm or sleeve lying on the cards are inked paper too, in thin strands
    strand = max(3, int(strand_share * long_side) | 1)
    found += group_quads(cv2.morphologyEx(inked, cv2.MORPH_OPEN, np.ones((strand, strand), np.uint8)), 3, min_area, 0.5)
    # outlines on a larger copy: a thin margin between the board's edge and the grid's stays open
    if outline_bgr is not None:
        to_image = image_bgr.shape[1] / outline_bgr.shape[1]
        found += [(area * to_image**2, (quad + 0.5) * to_image - 0.5)
                  for area, quad in outline_quads(outline_bgr, min_area / to_image**2)]
    speck = cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3))
    for mask in papers:
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, speck)
        for share in reaches:
            found += group_quads(mask, max(3, int(share * long_side) | 1), min_area, min_fill)
    return distinct(largest_first(found), [], 0.01 * long_side)[:max_count]


def largest_first(found: list[tuple[float, np.ndarray]]) -> list[np.ndarray]:
    """The quadrilaterals of (area, quad) pairs, the largest area first."""
    return [quad for _, quad in sorted(found, key=lambda item: -item[0])]


def distinct(quads: list[np.ndarray], known: list[np.ndarray], tolerance: float) -> list[np.ndarray]:
    """``quads`` in order, but for those whose every corner lies within ``tolerance`` of one
    before it or of one ``known``."""
    unique: list[np.ndarray] = []
    for quad in quads:
        if all(np.linalg.norm(quad[:, None, :] - other[None, :, :], axis=2).min(axis=1).max() > tolerance
               for other in known + unique):
            unique.append(quad)
    return unique


def colour_region_quads(image_bgr: np.ndarray, *, colours: int, min_area_share: float, min_fill: float
                        ) -> list[np.ndarray]:
    """Quadrilaterals round regions of one colour, the largest first: a board's coloured
    border (and the ground between its cards) is one region, on a wooden or checked table
    whose texture breaks every outline of edges, and round a board so full of chips, or so
    shaded, that little of its paper shows. The colours are the photo's own, clustered in Lab."""
    height, width = image_bgr.shape[:2]
    lab = cv2.cvtColor(cv2.GaussianBlur(image_bgr, (5, 5), 0), cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)
    cv2.setRNGSeed(1)  # the same clusters for the same photo
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 10, 1.0)
    _, _, centres = cv2.kmeans(lab[::7], colours, None, criteria, 1, cv2.KMEANS_PP_CENTERS)
    nearest = ((lab[:, None, :] - centres[None]) ** 2).sum(axis=2).argmin(axis=1).reshape(height, width)
    speck = cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3))
    found = []
    for colour in range(colours):
        region = cv2.morphologyEx((nearest == colour).astype(np.uint8) * 255, cv2.MORPH_OPEN, speck)
        found += group_quads(region, 3, min_area_share * height * width, min_fill)
    return largest_first(found)


def busy_quads(image_bgr: np.ndarray, *, level: float, box_share: float, min_area_share: float, min_fill: float
               ) -> list[np.ndarray]:
    """Quadrilaterals round the places where edges are densest (over ``level`` of the densest,
    in a window ``box_share`` of the long side, closed and opened as wide), the largest
    first: the cards' outlines, their ink and the chips make the grid the busiest place of a
    photo whatever their colours, where a glare outshines the paper, chips cover it or the
    border is as dark as the table. Wood grain and cloth are smoother at this size."""
    long_side = max(image_bgr.shape[:2])
    gray = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY)
    edges = strong_edges(gray, float(np.quantile(gray[::2, ::2], 0.99)))
    box = max(5, int(box_share * long_side) | 1)
    density = cv2.boxFilter(edges, cv2.CV_32F, (box, box), normalize=True)
    busy = cv2.compare(density, level * float(density.max()), cv2.CMP_GT)
    # closed first: a flat chip's face has no edges inside its rim
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (box, box))
    busy = cv2.morphologyEx(cv2.morphologyEx(busy, cv2.MORPH_CLOSE, disc), cv2.MORPH_OPEN, disc)
    found = group_quads(busy, 3, min_area_share * image_bgr.shape[0] * image_bgr.shape[1], min_fill)
    return largest_first(found)


def opened_paper_quads(image_bgr: np.ndarray, *, level: float, max_chroma: float, top_share: float, reach: float,
                       check_share: float, min_area_share: float, min_fill: float) -> list[np.ndarray]:
    """Quadrilaterals round the paper left when it is opened ``check_share`` of the long side
    wide, the largest first: a checked cloth's white squares join the cards' paper in every
    other mask, and fall away here while the board's paper (its cards, a white border) stays."""
    height, width = image_bgr.shape[:2]
    long_side = max(height, width)
    (paper,), _ = paper_and_ink(image_bgr, white_gains(image_bgr, top_share), (level,), max_chroma)
    check = max(3, int(check_share * long_side) | 1)
    opened = cv2.morphologyEx(paper, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (check, check)))
    found = group_quads(opened, max(3, int(reach * long_side) | 1), min_area_share * height * width, min_fill)
    return largest_first(found)
