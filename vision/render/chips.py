"""Plastic chips: one colour set per game, drawn onto the flat board artwork.

A chip is a short glossy cylinder. Seen from an angle its top is displaced away from the
camera (``parallax``), which uncovers a crescent of its darker side; it casts a soft
shadow away from the light, carries an embossed ring, a rim lit on the light's side and a
specular highlight, and some sets are translucent enough for the card art to show.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

import cv2
import numpy as np

from vision.render.colours import BGR, from_hsv

# OpenCV hue (0-180), saturation and value ranges per team colour.
TEAM_HSV: Final = {
    "B": ((104.0, 122.0), (150.0, 255.0), (70.0, 235.0)),  # navy to light blue
    "G": ((42.0, 78.0), (120.0, 255.0), (70.0, 215.0)),  # lime to teal green
    "R": ((-6.0, 7.0), (170.0, 255.0), (120.0, 235.0)),  # crimson to orange-red
}


@dataclass(frozen=True)
class ChipStyle:
    """One set of chips."""

    colours: tuple[tuple[str, BGR], ...]  # (team, colour) pairs
    diameter: float  # / cell width
    offset: float  # largest distance of a chip's centre from its cell's centre / cell width
    height_mm: float
    translucency: float  # 0 opaque; share of the art that shows through
    gloss: float  # specular highlight strength, 0-1
    ring: float  # strength of the embossed ring, 0-1
    shadow: float  # darkness of the drop shadow, 0-1
    sheen: float = 70.0  # brightness added by the broad highlight on the top (times gloss)
    sheen_width: float = 0.22  # its spread / chip radius: a domed or lacquered top lights up wide

    def colour(self, team: str) -> BGR:
        return dict(self.colours)[team]


def sample_team_colour(rng: np.random.Generator, team: str) -> BGR:
    (h0, h1), (s0, s1), (v0, v1) = TEAM_HSV[team]
    return from_hsv(rng.uniform(h0, h1), rng.uniform(s0, s1), rng.uniform(v0, v1))


def sample_chip_style(rng: np.random.Generator) -> ChipStyle:
    return replace(ChipStyle(
        colours=tuple((t, sample_team_colour(rng, t)) for t in "BGR"),
        diameter=float(rng.uniform(0.6, 0.9)),
        offset=float(rng.uniform(0.02, 0.14)),
        height_mm=float(rng.uniform(2.0, 4.5)),
        translucency=float(rng.choice([0.0, rng.uniform(0.06, 0.22)], p=[0.7, 0.3])),
        gloss=float(rng.uniform(0.2, 1.0)),
        ring=float(rng.uniform(0.0, 1.0)),
        shadow=float(rng.uniform(0.25, 0.6)),
    ), **sampled_sheen(rng))


def sampled_sheen(parent: np.random.Generator) -> dict[str, float]:
    """How widely the chips' tops light up: most sets a soft spot, some a broad glow that
    washes a chip's middle out to near white.

    Drawn from a stream spawned from ``parent``'s seed, which draws nothing from ``parent``:
    these came after the development and benchmark sets were made, and every other draw of
    those sets stays as it was."""
    rng = np.random.default_rng(parent.bit_generator.seed_seq.spawn(1)[0])
    if rng.random() < 0.6:
        return {}
    return {"sheen": float(rng.uniform(100.0, 200.0)), "sheen_width": float(rng.uniform(0.25, 0.45))}


def _disc(shape: tuple[int, int], centre: np.ndarray, radius: float) -> np.ndarray:
    """An anti-aliased float32 disc mask, 0-1."""
    mask = np.zeros(shape, np.uint8)
    c = tuple(int(v) for v in np.round(centre * 16))
    cv2.circle(mask, c, max(1, int(round(radius * 16))), 255, -1, cv2.LINE_AA, 4)
    return mask.astype(np.float32) * (1 / 255)


class ChipPainter:
    """Draws many chips of one set at one size and lighting; the layers are made once.

    ``light_dir`` is a unit vector pointing towards the light in image coordinates and
    ``shadow_offset`` where the shadow falls relative to a chip's base (pixels).
    """

    def __init__(self, style: ChipStyle, radius: float, *, light_dir: tuple[float, float],
                 shadow_offset: tuple[float, float], max_parallax: float) -> None:
        self.style = style
        self.radius = radius
        reach = max(abs(shadow_offset[0]), abs(shadow_offset[1]), max_parallax)
        self.half = int(np.ceil(radius * 1.3 + reach + 2))
        n = 2 * self.half + 1
        mid = np.array([self.half, self.half], np.float64)
        shadow = _disc((n, n), mid + np.asarray(shadow_offset), radius * 1.02)
        self.shadow = cv2.GaussianBlur(shadow, (0, 0), max(0.8, radius * 0.18)) * style.shadow
        self.face = _disc((n, n), mid, radius * 0.985)
        yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
        dx, dy = (xx - self.half) / radius, (yy - self.half) / radius
        rr = np.sqrt(dx * dx + dy * dy)
        toward = dx * light_dir[0] + dy * light_dir[1]  # -1..1, +1 on the light's side
        shade = 0.92 + 0.1 * toward
        rim = np.clip((rr - 0.82) / 0.16, 0, 1)
        shade += rim * 0.22 * toward - rim * 0.08
        if style.ring > 0:
            shade -= 0.1 * style.ring * np.exp(-(((rr - 0.62) / 0.05) ** 2)) * (1 - 0.8 * toward)
            shade += 0.08 * style.ring * np.exp(-(((rr - 0.68) / 0.04) ** 2)) * toward
        spec = np.exp(-(((rr - 0.88) / 0.07) ** 2)) * np.clip(toward, 0, 1) ** 2
        hx, hy = 0.35 * light_dir[0], 0.35 * light_dir[1]
        sheen = np.exp(-(((dx - hx) ** 2 + (dy - hy) ** 2) / (2 * style.sheen_width**2)))
        self.shade = shade.astype(np.float32)
        self.spec = (style.gloss * (170 * spec + style.sheen * sheen)).astype(np.float32)
        self._tops: dict[BGR, np.ndarray] = {}

    def _top(self, colour: BGR) -> np.ndarray:
        if colour not in self._tops:
            col = np.asarray(colour, np.float32)
            self._tops[colour] = col[None, None, :] * self.shade[..., None] * (1 - self.style.translucency)
        return self._tops[colour]

    def paint(self, image_bgr: np.ndarray, centre_xy: tuple[float, float], colour: BGR,
              parallax: tuple[float, float]) -> None:
        """Draws one chip in place; ``parallax`` is where its top appears relative to its base."""
        hh = self.half
        cx, cy = int(round(centre_xy[0])), int(round(centre_xy[1]))
        x0, y0 = cx - hh, cy - hh
        h, w = image_bgr.shape[:2]
        # a chip on an edge cell of a board with a thin margin may reach past the artwork: clip it
        left, top = max(0, -x0), max(0, -y0)
        right, bottom = min(2 * hh + 1, w - x0), min(2 * hh + 1, h - y0)
        if right <= left or bottom <= top:
            return
        region = image_bgr[y0 + top : y0 + bottom, x0 + left : x0 + right]
        window = (slice(top, bottom), slice(left, right))
        patch = region.astype(np.float32)
        under = patch.copy()
        patch *= (1 - self.shadow[window])[..., None]
        px, py = int(round(parallax[0])), int(round(parallax[1]))
        col = np.asarray(colour, np.float32)
        side = self.face
        for t in (1 / 3, 2 / 3, 1.0):
            side = np.maximum(side, _shifted(self.face, int(round(t * px)), int(round(t * py))))
        side = side[window]
        patch = patch * (1 - side[..., None]) + (col * 0.5)[None, None, :] * side[..., None]
        face = _shifted(self.face, px, py)[window][..., None]
        top_layer = (_shifted(self._top(colour), px, py) + _shifted(self.spec, px, py)[..., None])[window]
        if self.style.translucency > 0:
            top_layer = top_layer + under * (col / 255.0 * 1.3 * self.style.translucency)[None, None, :]
        patch = patch * (1 - face) + top_layer * face
        np.clip(patch, 0, 255, out=patch)
        region[:] = patch.astype(np.uint8)


def _shifted(layer: np.ndarray, dx: int, dy: int) -> np.ndarray:
    """``layer`` moved by whole pixels, zero-filled."""
    if dx == 0 and dy == 0:
        return layer
    out = np.zeros_like(layer)
    h, w = layer.shape[:2]
    if abs(dx) >= w or abs(dy) >= h:
        return out  # moved wholly out of the window (a tiny chip seen very obliquely)
    out[max(0, dy) : h + min(0, dy), max(0, dx) : w + min(0, dx)] = layer[max(0, -dy) : h + min(0, -dy),
                                                                         max(0, -dx) : w + min(0, -dx)]
    return out
