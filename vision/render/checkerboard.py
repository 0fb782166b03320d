"""Photos of a flat printed checkerboard through a camera with known lens distortion, to
test the lens calibration (``calibration.lens``)."""

from __future__ import annotations

import cv2
import numpy as np


def render_checkerboard(rng: np.random.Generator, matrix: np.ndarray, distortion: np.ndarray, size: tuple[int, int],
                        squares: tuple[int, int] = (10, 7), square_mm: float = 25.0) -> np.ndarray:
    """A grey photo (uint8) of a ``squares`` checkerboard on white paper seen from a random
    pose, through the camera ``matrix`` and OpenCV ``distortion``."""
    width, height = size
    # every pixel's undistorted ray, then where it meets the board's plane
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    pixels = np.stack([xs, ys], axis=-1).reshape(-1, 1, 2)
    rays = cv2.undistortPoints(pixels, matrix, distortion).reshape(-1, 2)
    angles = rng.uniform(-0.35, 0.35, 3)
    rotation, _ = cv2.Rodrigues(angles)
    board_w, board_h = squares[0] * square_mm, squares[1] * square_mm
    distance = float(rng.uniform(1.5, 1.9)) * matrix[0, 0] * board_w / width
    centre = np.array([rng.uniform(-0.1, 0.1) * board_w, rng.uniform(-0.1, 0.1) * board_h, distance])
    normal, origin = rotation[:, 2], centre - rotation[:, 0] * board_w / 2 - rotation[:, 1] * board_h / 2
    directions = np.column_stack([rays, np.ones(len(rays))])
    depth = (origin @ normal) / (directions @ normal)
    points = directions * depth[:, None] - origin
    u, v = points @ rotation[:, 0], points @ rotation[:, 1]
    inside = (u >= 0) & (u < board_w) & (v >= 0) & (v < board_h)
    dark = ((np.floor(u / square_mm) + np.floor(v / square_mm)) % 2 == 0) & inside
    paper = (u >= -square_mm) & (u < board_w + square_mm) & (v >= -square_mm) & (v < board_h + square_mm)
    image = np.where(dark, 30, np.where(paper, 235, 120)).reshape(height, width).astype(np.uint8)
    image = cv2.GaussianBlur(image, (0, 0), 0.8)
    noise = rng.normal(0, 2.0, image.shape)
    return np.clip(image + noise, 0, 255).astype(np.uint8)
