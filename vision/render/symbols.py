"""Suit symbols and rank text for printed card art, drawn with OpenCV only.

Shapes are described once in a unit box (height 1, centred on the origin, y down) and
scaled when drawn; everything is anti-aliased with sub-pixel precision.
"""

from __future__ import annotations

from typing import Final

import cv2
import numpy as np

_SHIFT: Final = 4  # sub-pixel bits used by cv2 drawing calls
_ONE: Final = 1 << _SHIFT

FONTS: Final = {
    "simplex": cv2.FONT_HERSHEY_SIMPLEX,
    "duplex": cv2.FONT_HERSHEY_DUPLEX,
    "complex": cv2.FONT_HERSHEY_COMPLEX,
    "triplex": cv2.FONT_HERSHEY_TRIPLEX,
    "plain": cv2.FONT_HERSHEY_PLAIN,
}

RANK_TEXT: Final = {"T": "10"}


def rank_text(rank: str) -> str:
    """The rank as printed on a card: ``"10"`` for a ten, else the letter or digit."""
    return RANK_TEXT.get(rank, rank)


def _unit(points: np.ndarray) -> np.ndarray:
    """Centres ``points`` (N, 2) on their box and scales it to height 1."""
    lo, hi = points.min(axis=0), points.max(axis=0)
    return (points - (lo + hi) / 2) / (hi[1] - lo[1])


def _heart_outline(n: int = 56) -> np.ndarray:
    t = np.linspace(0.0, 2 * np.pi, n, endpoint=False)
    x = 16 * np.sin(t) ** 3
    y = -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t))
    return _unit(np.stack([x, y], axis=1))


def _suit_shapes() -> dict[str, list[tuple[str, np.ndarray]]]:
    """Each suit as a list of ("poly", points) / ("circle", [cx, cy, r]) in the unit box."""
    heart = _heart_outline()
    spade_body = heart * np.array([1.0, -1.0]) * 0.8 + np.array([0.0, -0.08])
    stem = np.array([[0.0, 0.1], [0.2, 0.5], [-0.2, 0.5]])
    diamond = np.array([[0.0, -0.5], [0.17, -0.2], [0.37, 0.0], [0.17, 0.2], [0.0, 0.5], [-0.17, 0.2],
                        [-0.37, 0.0], [-0.17, -0.2]])
    # slightly concave sides, as printed diamonds have
    diamond[1::2] *= 0.93
    club_r = 0.2
    return {
        "H": [("poly", heart)],
        "D": [("poly", diamond)],
        "S": [("poly", spade_body), ("poly", stem)],
        "C": [
            ("circle", np.array([0.0, -0.28, club_r])),
            ("circle", np.array([-0.22, 0.04, club_r])),
            ("circle", np.array([0.22, 0.04, club_r])),
            ("poly", np.array([[-0.12, -0.1], [0.12, -0.1], [0.12, 0.1], [-0.12, 0.1]])),
            ("poly", np.array([[0.0, -0.05], [0.17, 0.5], [-0.17, 0.5]])),
        ],
    }


SUIT_SHAPES: Final = _suit_shapes()


def draw_suit(
    image_bgr: np.ndarray,
    suit: str,
    centre_xy: tuple[float, float],
    height_px: float,
    colour: tuple[int, int, int],
    *,
    upside_down: bool = False,
) -> None:
    """Draws the suit symbol ``suit`` (one of ``SHDC``) in place, ``height_px`` tall."""
    sign = -1.0 if upside_down else 1.0
    centre = np.asarray(centre_xy, dtype=np.float64)
    for kind, shape in SUIT_SHAPES[suit]:
        if kind == "poly":
            pts = centre + shape * height_px * sign
            cv2.fillPoly(image_bgr, [np.round(pts * _ONE).astype(np.int32)], colour, cv2.LINE_AA, _SHIFT)
        else:
            c = centre + shape[:2] * height_px * sign
            r = max(shape[2] * height_px, 0.5)
            cv2.circle(image_bgr, tuple(np.round(c * _ONE).astype(int)), int(round(r * _ONE)), colour, -1,
                       cv2.LINE_AA, _SHIFT)


def draw_text(
    image_bgr: np.ndarray,
    text: str,
    centre_xy: tuple[float, float],
    height_px: float,
    colour: tuple[int, int, int],
    *,
    font: str = "simplex",
    weight: float = 0.12,
    upside_down: bool = False,
) -> None:
    """Draws ``text`` centred on ``centre_xy`` with capital letters ``height_px`` tall.

    ``weight`` is the stroke thickness as a fraction of the height. Upside-down text is
    drawn on a patch that is turned by 180 degrees, as the bottom index of a card is.
    """
    face = FONTS[font]
    (w1, h1), _ = cv2.getTextSize(text, face, 1.0, 1)
    scale = height_px / max(h1, 1)
    thickness = max(1, int(round(weight * height_px)))
    (tw, th), base = cv2.getTextSize(text, face, scale, thickness)
    if not upside_down:
        org = (int(round(centre_xy[0] - tw / 2)), int(round(centre_xy[1] + th / 2)))
        cv2.putText(image_bgr, text, org, face, scale, colour, thickness, cv2.LINE_AA)
        return
    pad = thickness + 2
    pw, ph = tw + 2 * pad, th + base + 2 * pad
    x0, y0 = int(round(centre_xy[0] - pw / 2)), int(round(centre_xy[1] - ph / 2))
    x1, y1 = x0 + pw, y0 + ph
    if x0 < 0 or y0 < 0 or x1 > image_bgr.shape[1] or y1 > image_bgr.shape[0]:
        return
    region = image_bgr[y0:y1, x0:x1]
    ink = np.zeros((ph, pw), np.uint8)
    cv2.putText(ink, text, (pad, pad + th), face, scale, 255, thickness, cv2.LINE_AA)
    ink = cv2.flip(ink, -1)
    # flipping a box whose text sits above the baseline: re-centre vertically
    shift = (base) // 2
    ink = np.roll(ink, -shift, axis=0)
    alpha = (ink.astype(np.float32) / 255.0)[..., None]
    region[:] = (region * (1 - alpha) + np.array(colour, np.float32) * alpha).astype(np.uint8)
