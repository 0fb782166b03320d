"""The camera's lens distortion, from a few photos of a printed checkerboard (OpenCV's
camera calibration). Players print any common checkerboard; its size is found by trying
the usual ones."""

from __future__ import annotations

import cv2
import numpy as np

from vision.errors import VisionError
from vision.profile import LensModel

# inner-corner counts (columns, rows) of commonly printed calibration checkerboards
PATTERNS = ((9, 6), (10, 7), (8, 6), (7, 6), (7, 5), (6, 4), (9, 7), (11, 8))
MIN_VIEWS = 3


class LensCalibrationError(VisionError):
    """The checkerboard photos cannot give a lens model; the message says why."""


def find_corners(gray: np.ndarray, pattern: tuple[int, int]) -> np.ndarray | None:
    found, corners = cv2.findChessboardCornersSB(gray, pattern, flags=cv2.CALIB_CB_NORMALIZE_IMAGE)
    return corners.reshape(-1, 2) if found else None


def board_pattern(grays: list[np.ndarray]) -> tuple[int, int] | None:
    """The first common pattern seen in any photo."""
    for gray in grays:
        for pattern in PATTERNS:
            if find_corners(gray, pattern) is not None:
                return pattern
    return None


def lens_from_checkerboards(images_bgr: list[np.ndarray]) -> LensModel:
    """The lens model from photos (same camera, same size) of one printed checkerboard."""
    grays = [cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) for image in images_bgr]
    if not grays:
        raise LensCalibrationError("No checkerboard photos were given.")
    size = grays[0].shape[::-1]
    if any(gray.shape[::-1] != size for gray in grays):
        raise LensCalibrationError("The checkerboard photos differ in size: take them all with the same camera "
                                   "and settings.")
    pattern = board_pattern(grays)
    if pattern is None:
        raise LensCalibrationError("No checkerboard was found in the photos. Print a checkerboard (for example "
                                   "10 x 7 squares), lay it flat and photograph all of it.")
    grid = np.zeros((pattern[0] * pattern[1], 3), np.float32)
    grid[:, :2] = np.mgrid[0 : pattern[0], 0 : pattern[1]].T.reshape(-1, 2)
    views = [corners for corners in (find_corners(gray, pattern) for gray in grays) if corners is not None]
    if len(views) < MIN_VIEWS:
        raise LensCalibrationError(f"The checkerboard was found in {len(views)} photo(s); at least {MIN_VIEWS} "
                                   "are needed, taken from different angles.")
    rms, matrix, distortion, _, _ = cv2.calibrateCamera([grid] * len(views), [v.astype(np.float32) for v in views],
                                                        size, None, None)
    return LensModel((int(size[0]), int(size[1])), matrix, distortion.reshape(-1)[:5], float(rms))
