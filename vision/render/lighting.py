"""Light and sensor: colour of the light, shading fields, glare, blur, noise, JPEG.

The light pass works on the composed photo at the working size. Smooth fields
(vignetting, gradients, cast shadows, the fold's shading) are computed at a quarter of the
size and enlarged, which costs little and looks the same. Noise and JPEG are applied at
the final size by ``finish``.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.render import textures

FIELD_STEP = 4  # smooth fields are computed on a grid this many pixels apart


@dataclass(frozen=True)
class LightParams:
    kelvin: float  # colour temperature of the main light
    wb_residual: float  # share of the light's colour left after the camera's white balance
    tint: float  # green (-) / magenta (+) cast of LED and fluorescent light
    exposure: float  # overall brightness gain
    gamma: float  # tone curve exponent
    gradient: float  # brightness change across the frame, as a fraction
    gradient_deg: float
    vignette: float  # darkening of the frame's corners, as a fraction
    azimuth_deg: float  # where the main light comes from, in world terms
    elevation_deg: float
    cast_shadow: float  # darkness of a head/arm shadow across the frame (0: none)
    glare: int  # specular patches on the board
    glare_strength: float


@dataclass(frozen=True)
class SensorParams:
    defocus_px: float  # Gaussian sigma at the final size
    motion_px: float  # length of a motion streak at the final size
    motion_deg: float
    noise: float  # standard deviation of sensor noise, in 8-bit levels
    chroma_noise: float  # share of the noise that differs between channels
    sharpen: float  # phone-style unsharp masking
    jpeg_quality: int


def sample_light(rng: np.random.Generator, gloss: float) -> LightParams:
    return LightParams(
        kelvin=float(rng.choice([rng.uniform(2500, 3500), rng.uniform(3500, 5500), rng.uniform(5500, 8000)],
                                p=[0.35, 0.35, 0.3])),
        wb_residual=float(rng.uniform(0.15, 0.85)),
        tint=float(rng.normal(0, 0.04)),
        exposure=float(np.exp(rng.normal(0.0, 0.28))),
        gamma=float(rng.uniform(0.85, 1.15)),
        gradient=float(rng.uniform(0, 0.45)),
        gradient_deg=float(rng.uniform(0, 360)),
        vignette=float(rng.uniform(0, 0.45)),
        azimuth_deg=float(rng.uniform(0, 360)),
        elevation_deg=float(rng.uniform(35, 85)),
        cast_shadow=float(rng.uniform(0.2, 0.55)) if rng.random() < 0.3 else 0.0,
        glare=int(rng.choice([0, 1, 2], p=[0.55, 0.35, 0.1]) if gloss > 0.3 else 0),
        glare_strength=float(rng.uniform(0.3, 1.3) * gloss),
    )


def sample_sensor(rng: np.random.Generator) -> SensorParams:
    return SensorParams(
        defocus_px=float(rng.choice([0.0, rng.uniform(0.3, 1.2), rng.uniform(1.2, 3.0)], p=[0.4, 0.45, 0.15])),
        motion_px=float(rng.uniform(2, 12)) if rng.random() < 0.15 else 0.0,
        motion_deg=float(rng.uniform(0, 180)),
        noise=float(rng.choice([rng.uniform(0.5, 3.0), rng.uniform(3.0, 9.0)], p=[0.7, 0.3])),
        chroma_noise=float(rng.uniform(0.1, 0.6)),
        sharpen=float(rng.choice([0.0, rng.uniform(0.2, 0.9)], p=[0.5, 0.5])),
        jpeg_quality=int(rng.integers(60, 96)),
    )


def kelvin_bgr(kelvin: float) -> np.ndarray:
    """Approximate colour of a black body at ``kelvin`` as BGR in 0-1 (Tanner Helland's fit)."""
    t = kelvin / 100.0
    r = 255.0 if t <= 66 else 329.698727446 * (t - 60) ** -0.1332047592
    g = 99.4708025861 * np.log(t) - 161.1195681661 if t <= 66 else 288.1221695283 * (t - 60) ** -0.0755148492
    b = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.5177312231 * np.log(t - 10) - 305.0447927307)
    return np.clip(np.array([b, g, r]), 1, 255) / 255.0


def light_gains(light: LightParams) -> np.ndarray:
    """Per-channel (B, G, R) gains of the light after white balance, green = 1."""
    gains = (kelvin_bgr(light.kelvin) / kelvin_bgr(6500.0)) ** light.wb_residual
    gains = gains * np.array([1.0, 1.0 - light.tint, 1.0])
    return gains / gains[1]


def light_bucket(light: LightParams) -> str:
    g = light_gains(light)
    warmth = g[2] / g[0]
    colour = "warm" if warmth > 1.25 else "cool" if warmth < 0.92 else "neutral"
    level = "dim" if light.exposure < 0.75 else "bright" if light.exposure > 1.35 else ""
    return f"{colour}_{level}" if level else colour


def smooth_field(rng: np.random.Generator, light: LightParams, h: int, w: int) -> np.ndarray:
    """Gradient, vignetting and a cast shadow as a small (h, w) float32 multiplier."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    u, v = (xx + 0.5) / w - 0.5, (yy + 0.5) / h - 0.5
    a = np.deg2rad(light.gradient_deg)
    field = 1.0 + light.gradient * (u * np.cos(a) + v * np.sin(a)) * 1.4
    r2 = (u * u + v * v) / 0.5
    field *= 1.0 - light.vignette * r2 * r2 ** 0.5
    if light.cast_shadow > 0:
        shadow = np.zeros((h, w), np.float32)
        # a head or an arm: a big blurred ellipse reaching in from outside the frame
        side = rng.integers(4)
        cx = [rng.uniform(0, w), w * 1.05, rng.uniform(0, w), -0.05 * w][side]
        cy = [-0.05 * h, rng.uniform(0, h), h * 1.05, rng.uniform(0, h)][side]
        axes = (int(rng.uniform(0.15, 0.45) * w), int(rng.uniform(0.15, 0.5) * h))
        cv2.ellipse(shadow, (int(cx), int(cy)), axes, float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        shadow = cv2.GaussianBlur(shadow, (0, 0), rng.uniform(0.03, 0.08) * max(h, w))
        field *= 1.0 - light.cast_shadow * shadow
    return field.astype(np.float32)


def glare_field(rng: np.random.Generator, light: LightParams, board_small: np.ndarray) -> np.ndarray:
    """Specular patches (small float32 field, added to the image in 0-1 units) on the board only."""
    h, w = board_small.shape
    glare = np.zeros((h, w), np.float32)
    ys, xs = np.nonzero(board_small > 0.5)
    if light.glare == 0 or len(xs) == 0:
        return glare
    for _ in range(light.glare):
        k = int(rng.integers(len(xs)))
        size = rng.uniform(0.03, 0.12) * max(h, w)
        blob = np.zeros((h, w), np.float32)
        cv2.ellipse(blob, (int(xs[k]), int(ys[k])), (int(size), int(size * rng.uniform(0.3, 1.0))),
                    float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        glare += cv2.GaussianBlur(blob, (0, 0), size * rng.uniform(0.25, 0.6))
    return glare * board_small * light.glare_strength


def enlarge(field: np.ndarray, w: int, h: int) -> np.ndarray:
    return cv2.resize(field, (w, h), interpolation=cv2.INTER_LINEAR)


def apply_light(image_bgr: np.ndarray, light: LightParams, field: np.ndarray, glare: np.ndarray) -> np.ndarray:
    """The photo (uint8) under ``light``: full-size multiplier ``field``, additive ``glare`` (0-1 units)."""
    gains = light_gains(light) * light.exposure
    lit = cv2.multiply(image_bgr, cv2.merge([field * float(g) for g in gains]), dtype=cv2.CV_8U)
    if glare.max() > 1e-3:
        shine = cv2.merge([cv2.convertScaleAbs(glare, alpha=255.0 * float(min(g, 1.2))) for g in gains])
        lit = cv2.add(lit, shine)
    lut = (np.linspace(0, 1, 256) ** light.gamma * 255 + 0.5).astype(np.uint8)
    return cv2.LUT(lit, lut)


def blur(image_bgr: np.ndarray, sensor: SensorParams, scale: float) -> np.ndarray:
    """Defocus and motion blur; ``scale`` is working pixels per final pixel."""
    out = image_bgr
    sigma = sensor.defocus_px * scale
    if sigma > 0.2:
        out = cv2.GaussianBlur(out, (0, 0), sigma)
    length = sensor.motion_px * scale
    if length >= 1.5:
        n = int(np.ceil(length)) | 1
        kernel = np.zeros((n, n), np.float32)
        a = np.deg2rad(sensor.motion_deg)
        c = (n - 1) / 2
        d = (length - 1) / 2
        cv2.line(kernel, (int(round(c - d * np.cos(a))), int(round(c - d * np.sin(a)))),
                 (int(round(c + d * np.cos(a))), int(round(c + d * np.sin(a)))), 1.0, 1, cv2.LINE_AA)
        out = cv2.filter2D(out, -1, kernel / kernel.sum())
    return out


def finish(image_bgr: np.ndarray, sensor: SensorParams, rng: np.random.Generator) -> bytes:
    """Sharpening, sensor noise and JPEG encoding at the final size."""
    img = image_bgr
    if sensor.sharpen > 0:
        soft = cv2.GaussianBlur(img, (0, 0), 1.2)
        img = cv2.addWeighted(img, 1 + sensor.sharpen, soft, -sensor.sharpen, 0)
    h, w = img.shape[:2]
    if sensor.noise > 0:
        # a tile of noise shared by the channels (luma) plus a part of their own (chroma)
        t = textures.NOISE_TILE
        luma = rng.standard_normal((t, t, 1), dtype=np.float32) * (sensor.noise * (1 - sensor.chroma_noise))
        chroma = rng.standard_normal((t, t, 3), dtype=np.float32) * (sensor.noise * sensor.chroma_noise)
        tile = np.round(luma + chroma).astype(np.int16)
        big = cv2.repeat(tile, h // t + 2, w // t + 2)
        oy, ox = int(rng.integers(t)), int(rng.integers(t))
        img = cv2.add(img, big[oy : oy + h, ox : ox + w], dtype=cv2.CV_8U)
    ok, data = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, sensor.jpeg_quality])
    if not ok:
        raise RuntimeError("OpenCV could not encode the rendered photo as JPEG")
    return data.tobytes()
