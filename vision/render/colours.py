"""Colour helpers shared by the renderer: BGR tuples, palettes, random variations."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

BGR = tuple[int, int, int]


def pick(rng: np.random.Generator, options: Sequence[BGR]) -> BGR:
    """One colour of ``options``, chosen uniformly."""
    return tuple(int(v) for v in options[int(rng.integers(len(options)))])  # type: ignore[return-value]


def jitter(rng: np.random.Generator, colour: Sequence[int], amount: float) -> BGR:
    """``colour`` with each channel moved by up to ``amount`` (clipped to 0-255)."""
    moved = np.clip(np.asarray(colour, np.float64) + rng.uniform(-amount, amount, 3), 0, 255)
    return tuple(int(round(v)) for v in moved)  # type: ignore[return-value]


def from_hsv(hue: float, sat: float, val: float) -> BGR:
    """A BGR colour from OpenCV HSV (hue 0-180, saturation and value 0-255); hue wraps."""
    pixel = np.array([[[hue % 180, np.clip(sat, 0, 255), np.clip(val, 0, 255)]]], np.uint8)
    return tuple(int(v) for v in cv2.cvtColor(pixel, cv2.COLOR_HSV2BGR)[0, 0])  # type: ignore[return-value]


def scaled(colour: Sequence[int], factor: float) -> BGR:
    return tuple(int(np.clip(round(v * factor), 0, 255)) for v in colour)  # type: ignore[return-value]


def mix(a: Sequence[int], b: Sequence[int], t: float) -> BGR:
    """``a`` moved a fraction ``t`` of the way to ``b``."""
    return tuple(int(round(x + (y - x) * t)) for x, y in zip(a, b))  # type: ignore[return-value]
