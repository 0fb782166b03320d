"""Locating the grid by the board's own artwork, learned by a calibration.

The profile holds the empty grid, rectified and in its printed orientation. Its SIFT
keypoints are matched to the photo's; a homography fitted with RANSAC maps the grid into
the photo even when hands, chips or a fold hide much of it, and whatever side of the table
the photo was taken from (the artwork fixes the orientation). The grid's lines then refine
the fit exactly as for a board located with no set-up.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from vision.config import VisionConfig
from vision.errors import BoardCutOff
from vision.locate import GridFit, cut_off_message, cut_off_sides, downscaled, followed_lines
from vision.warp import GRID
from vision.locate_lattice import Pyramid
from vision.profile import REFERENCE_CELL_PX, Profile

REFERENCE_UPSCALE = 2  # the stored grid is enlarged so its small print yields keypoints


@lru_cache(maxsize=4)
def reference_keypoints(profile: Profile) -> tuple[np.ndarray, np.ndarray]:
    """(N, 2) keypoint positions in grid cells and (N, 128) SIFT descriptors of the profile's grid."""
    gray = cv2.cvtColor(profile.reference_bgr, cv2.COLOR_BGR2GRAY)
    gray = cv2.resize(gray, None, fx=REFERENCE_UPSCALE, fy=REFERENCE_UPSCALE, interpolation=cv2.INTER_CUBIC)
    keypoints, descriptors = cv2.SIFT_create().detectAndCompute(gray, None)
    if descriptors is None:
        return np.zeros((0, 2), np.float32), np.zeros((0, 128), np.float32)
    cells = np.float32([k.pt for k in keypoints]) / (REFERENCE_UPSCALE * REFERENCE_CELL_PX)
    return cells, descriptors


def match_reference(gray_small: np.ndarray, profile: Profile, config: VisionConfig) -> tuple[np.ndarray, int] | None:
    """The grid -> small-image homography from matched artwork, and its inlier count."""
    cells, reference = reference_keypoints(profile)
    keypoints, descriptors = cv2.SIFT_create(nfeatures=config.reference_features).detectAndCompute(gray_small, None)
    if descriptors is None or len(reference) < config.min_reference_matches:
        return None
    pairs = cv2.BFMatcher(cv2.NORM_L2).knnMatch(reference, descriptors, k=2)
    good = [m for m, n in (p for p in pairs if len(p) == 2) if m.distance < config.match_ratio * n.distance]
    good = list({m.trainIdx: m for m in sorted(good, key=lambda m: -m.distance)}.values())  # one match per photo point
    if len(good) < config.min_reference_matches:
        return None
    source = np.float32([cells[m.queryIdx] for m in good])
    target = np.float32([keypoints[m.trainIdx].pt for m in good])
    homography, inliers = cv2.findHomography(source, target, cv2.RANSAC, config.match_reprojection_px)
    if homography is None or int(inliers.sum()) < config.min_reference_matches:
        return None
    if not plausible(homography, source[inliers.ravel() == 1], gray_small.shape, config):
        return None
    return homography, int(inliers.sum())


def plausible(homography: np.ndarray, inlier_cells: np.ndarray, shape: tuple[int, ...], config: VisionConfig) -> bool:
    """A real view of the board: the grid maps to a convex quadrilateral of a board's size,
    and the matches that agree are spread over the grid (not one repeated symbol)."""
    corners = cv2.perspectiveTransform(np.float32([[[0, 0], [GRID, 0], [GRID, GRID], [0, GRID]]]), homography)[0]
    area = abs(cv2.contourArea(corners))
    if not cv2.isContourConvex(corners) or area < config.min_board_fraction * shape[0] * shape[1]:
        return False
    hull = cv2.convexHull(inlier_cells.reshape(-1, 1, 2))
    return cv2.contourArea(hull) >= config.min_matched_share * GRID * GRID


def locate_by_reference(image_bgr: np.ndarray, profile: Profile, config: VisionConfig) -> GridFit | None:
    """The printed grid, oriented as printed (corner 0 is the printed top-left), or None.

    Raises ``BoardCutOff`` when the grid runs off the photo."""
    small, scale = downscaled(image_bgr, config.reference_long_side)
    matched = match_reference(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), profile, config)
    if matched is None:
        return None
    homography, inliers = matched
    to_full = np.diag([1 / scale, 1 / scale, 1.0]) @ homography
    fit = followed_lines(to_full, False, Pyramid(cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY)), config)
    lattice = fit.lattice_xy
    height, width = image_bgr.shape[:2]
    sides = cut_off_sides(lattice, width, height, config.edge_margin_px)
    if sides:
        raise BoardCutOff(cut_off_message(sides))
    return GridFit(lattice_xy=lattice, score=float(inliers), oriented=True)
