"""Procedural surface textures (felt, wood, cloth, paper grain), numpy + OpenCV only.

Every function returns a new float32 or uint8 array and draws its randomness from ``rng``.
Noise is made by enlarging a small random array, which costs little even at 12 MP.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.render.colours import BGR


def smooth_noise(rng: np.random.Generator, h: int, w: int, cell_px: float) -> np.ndarray:
    """Zero-mean, unit-ish float32 noise (h, w) whose features are about ``cell_px`` wide (at
    least a pixel: a table seen from far made a wood grain finer than that, seed 9292 photo 75)."""
    cell_px = max(cell_px, 1.0)
    gh = max(2, int(np.ceil(h / cell_px)) + 2)
    gw = max(2, int(np.ceil(w / cell_px)) + 2)
    small = rng.standard_normal((gh, gw), dtype=np.float32)
    size = (int(gw * cell_px), int(gh * cell_px))
    if cell_px >= 16:  # smooth enough: cubic to a quarter of the size, then linear
        small = cv2.resize(small, (size[0] // 4, size[1] // 4), interpolation=cv2.INTER_CUBIC)
        big = cv2.resize(small, size, interpolation=cv2.INTER_LINEAR)
    else:
        big = cv2.resize(small, size, interpolation=cv2.INTER_CUBIC)
    oy = int(rng.integers(0, max(1, big.shape[0] - h + 1)))
    ox = int(rng.integers(0, max(1, big.shape[1] - w + 1)))
    out = big[oy : oy + h, ox : ox + w]
    if out.shape != (h, w):
        out = cv2.resize(out, (w, h))
    return out


def fractal_noise(rng: np.random.Generator, h: int, w: int, cell_px: float, octaves: int = 3) -> np.ndarray:
    """Sum of ``octaves`` smooth noises, each half the feature size and amplitude of the last."""
    if cell_px >= 12 and h * w > 65536:  # coarse features: make them at half size and enlarge
        half = fractal_noise(rng, h // 2 + 1, w // 2 + 1, cell_px / 2, octaves)
        return cv2.resize(half, (w, h), interpolation=cv2.INTER_LINEAR)
    total = smooth_noise(rng, h, w, max(cell_px, 1.5))
    amp, size, norm = 0.5, cell_px / 2, 1.0
    for _ in range(octaves - 1):
        cv2.scaleAdd(smooth_noise(rng, h, w, max(size, 1.5)), amp, total, dst=total)
        norm += amp
        amp *= 0.5
        size *= 0.5
    total *= 1.0 / norm
    return total


NOISE_TILE = 509  # a prime, so that tiles of grain do not line up with any pattern
_TILE = NOISE_TILE


def grain(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """Per-pixel float32 noise, standard deviation 1 (a random tile, repeated: cheap at 12 MP)."""
    if h * w <= _TILE * _TILE:
        return rng.standard_normal((h, w), dtype=np.float32)
    tile = rng.standard_normal((_TILE, _TILE), dtype=np.float32)
    reps = (h // _TILE + 2, w // _TILE + 2)
    big = cv2.repeat(tile, *reps)
    oy, ox = int(rng.integers(_TILE)), int(rng.integers(_TILE))
    return big[oy : oy + h, ox : ox + w]


def tint(colour: BGR, shade: np.ndarray) -> np.ndarray:
    """A (h, w, 3) uint8 image of ``colour`` multiplied by the (h, w) float32 ``shade`` field."""
    return cv2.merge([cv2.convertScaleAbs(shade, alpha=float(c)) for c in colour])


def shade_image(image_bgr: np.ndarray, shade: np.ndarray) -> np.ndarray:
    """``image_bgr`` (uint8) multiplied pixel-wise by the (h, w) float32 ``shade``, saturated."""
    return cv2.multiply(image_bgr, cv2.merge([shade, shade, shade]), dtype=cv2.CV_8U)


def to_u8(image: np.ndarray) -> np.ndarray:
    return np.clip(image, 0, 255).astype(np.uint8)


def felt(rng: np.random.Generator, h: int, w: int, colour: BGR, scale: float) -> np.ndarray:
    """Felt or flocked cloth: mottled, with fine fibres. ``scale`` is pixels per mm."""
    shade = 1.0 + 0.06 * fractal_noise(rng, h, w, 25 * scale) + 0.07 * grain(rng, h, w)
    return tint(colour, shade)


def plain(rng: np.random.Generator, h: int, w: int, colour: BGR, scale: float) -> np.ndarray:
    """A printed or painted surface: nearly flat with faint mottling."""
    shade = 1.0 + 0.025 * fractal_noise(rng, h, w, 40 * scale) + 0.015 * grain(rng, h, w)
    return tint(colour, shade)


def wood(rng: np.random.Generator, h: int, w: int, colour: BGR, scale: float, *, angle_deg: float = 0.0,
         planks_mm: float = 0.0) -> np.ndarray:
    """Wood grain: long streaks along ``angle_deg`` with ring bands, optional plank seams.

    The grain is made at half size and enlarged: it is soft at table distance anyway."""
    full_h, full_w = h, w
    h, w, scale = h // 2 + 1, w // 2 + 1, scale / 2
    diag = int(np.ceil(np.hypot(h, w))) + 4
    # streaks: noise stretched along x
    stretch = 18.0
    sh, sw = diag, max(4, int(diag / stretch))
    base = smooth_noise(rng, sh, sw, max(2.0, 3.0 * scale))
    streak = cv2.resize(base, (diag, diag), interpolation=cv2.INTER_LINEAR)
    rings = np.sin(np.linspace(0, rng.uniform(20, 60), diag, dtype=np.float32)[:, None] * (1 + 0.3 * streak)
                   + 3 * smooth_noise(rng, diag, diag, 60 * scale))
    field = 0.07 * streak + 0.05 * rings + 0.03 * grain(rng, diag, diag)
    if planks_mm > 0:
        pitch = max(4, int(planks_mm * scale))
        rows = np.arange(diag)
        seam = (rows % pitch) < max(1, int(0.8 * scale))
        field[seam, :] -= 0.35
        tone = rng.uniform(-0.08, 0.08, diag // pitch + 2).astype(np.float32)
        field += tone[rows // pitch][:, None]
    rot = cv2.getRotationMatrix2D((diag / 2, diag / 2), angle_deg, 1.0)
    rot[:, 2] += (w - diag) / 2, (h - diag) / 2
    field = cv2.warpAffine(field, rot, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    field = cv2.resize(field, (full_w, full_h), interpolation=cv2.INTER_LINEAR)
    field += 0.02 * grain(rng, full_h, full_w)
    return tint(colour, 1.0 + field)


def weave(rng: np.random.Generator, h: int, w: int, colour: BGR, scale: float) -> np.ndarray:
    """Woven cloth: a fine criss-cross of threads and soft folds."""
    pitch = max(2.0, rng.uniform(0.8, 2.0) * scale)
    tx = np.sin(np.arange(w, dtype=np.float32) * (2 * np.pi / pitch))
    ty = np.sin(np.arange(h, dtype=np.float32) * (2 * np.pi / pitch))
    threads = 0.04 * (tx[None, :] + ty[:, None])
    shade = 1.0 + threads + 0.08 * fractal_noise(rng, h, w, 120 * scale, 2) + 0.04 * grain(rng, h, w)
    return tint(colour, shade)


def checks(rng: np.random.Generator, h: int, w: int, colour_a: BGR, colour_b: BGR, pitch_px: float) -> np.ndarray:
    """A gingham / checked cloth of two colours, squares ``pitch_px`` wide (bands mix where they cross)."""
    a = ((np.arange(w) // max(pitch_px, 1.0)) % 2).astype(np.float32)
    b = ((np.arange(h) // max(pitch_px, 1.0)) % 2).astype(np.float32)
    weight = (a[None, :] + b[:, None]) * 0.5
    shade = 1.0 + 0.05 * grain(rng, h, w)
    ca, cb = tint(colour_a, shade), tint(colour_b, shade)
    return cv2.blendLinear(ca, cb, 1.0 - weight, weight)
