"""Undoing a calibrated camera's lens distortion before the board is located."""

from __future__ import annotations

import cv2
import numpy as np

from vision.profile import LensModel


def matrix_for(lens: LensModel, width: int, height: int) -> np.ndarray:
    """The camera matrix for photos of ``width`` x ``height`` (the same camera, rescaled)."""
    sx, sy = width / lens.image_size[0], height / lens.image_size[1]
    return np.diag([sx, sy, 1.0]) @ lens.matrix


def undistorted(image_bgr: np.ndarray, lens: LensModel) -> np.ndarray:
    """The photo as a distortion-free camera with the same matrix would have taken it."""
    height, width = image_bgr.shape[:2]
    return cv2.undistort(image_bgr, matrix_for(lens, width, height), lens.distortion)


def distorted_points(points_xy: np.ndarray, lens: LensModel, width: int, height: int) -> np.ndarray:
    """Points of the undistorted photo, mapped back to the photo as taken."""
    matrix = matrix_for(lens, width, height)
    flat = points_xy.reshape(-1, 2).astype(np.float64)
    rays = np.column_stack([(flat - matrix[:2, 2]) / np.diag(matrix)[:2], np.ones(len(flat))])
    projected, _ = cv2.projectPoints(rays, np.zeros(3), np.zeros(3), matrix, lens.distortion)
    return projected.reshape(points_xy.shape).astype(np.float32)
