"""A hand and forearm reaching over the table, drawn in image space.

The hand is built in image pixels from physical sizes (mm) and the local scale of the
board under it; it is closer to the camera than the board, so it is drawn a little
larger. ``draw_hand`` returns the hand's coverage mask, from which the renderer decides
which cells are hidden.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np

from vision.render.colours import BGR, from_hsv, jitter, pick

# Skin tones, very light to very dark (BGR).
SKINS: Final = ((185, 200, 240), (160, 185, 230), (130, 160, 215), (100, 135, 190), (80, 110, 165),
                (60, 85, 130), (45, 60, 95), (150, 175, 220))
POSES: Final = ("flat", "point", "pinch", "fist")


@dataclass(frozen=True)
class HandParams:
    edge: int  # image edge the arm comes in from: 0 top, 1 right, 2 bottom, 3 left, -1 the nearest
    edge_pos: float  # where along that edge, 0-1
    target: tuple[float, float]  # world (x, y) mm the fingertips reach
    skin: BGR
    sleeve: BGR | None
    sleeve_len: float  # share of the forearm the sleeve covers
    pose: str
    size: float  # hand length relative to 185 mm, including being nearer the camera
    height_mm: float  # height above the board (sets how far its shadow falls)
    handed: int  # +1 or -1: which side the thumb is on
    spread_deg: float


def sample_hand(rng: np.random.Generator, target: tuple[float, float]) -> HandParams:
    sleeve = None
    if rng.random() < 0.6:
        sleeve = from_hsv(rng.uniform(0, 180), rng.uniform(0, 200), rng.uniform(30, 230))
    return HandParams(
        edge=int(rng.choice([-1, 0, 1, 2, 3], p=[0.6, 0.05, 0.1, 0.15, 0.1])),
        edge_pos=float(rng.uniform(0.15, 0.85)),
        target=target,
        skin=jitter(rng, pick(rng, SKINS), 10),
        sleeve=sleeve,
        sleeve_len=float(rng.uniform(0.3, 0.95)),
        pose=str(rng.choice(POSES)),
        size=float(rng.uniform(1.0, 1.45)),
        height_mm=float(rng.uniform(30, 160)),
        handed=int(rng.choice([-1, 1])),
        spread_deg=float(rng.uniform(0, 12)),
    )


def _entry(params: HandParams, w: int, h: int, tip_xy: np.ndarray) -> np.ndarray:
    edge = params.edge
    if edge < 0:
        edge = int(np.argmin([tip_xy[1], w - tip_xy[0], h - tip_xy[1], tip_xy[0]]))
    t = params.edge_pos
    along = [tip_xy[0] / w, tip_xy[1] / h, tip_xy[0] / w, tip_xy[1] / h][edge]
    t = float(np.clip(0.5 * t + 0.5 * along + (t - 0.5) * 0.3, 0.02, 0.98))
    return np.array([(t * w, -0.02 * h), (1.02 * w, t * h), (t * w, 1.02 * h), (-0.02 * w, t * h)][edge])


def draw_hand(image_bgr: np.ndarray, params: HandParams, tip_xy: np.ndarray, px_per_mm: float,
              rng: np.random.Generator) -> np.ndarray:
    """Draws the hand and arm in place; returns its coverage as a uint8 mask (255 = hand).

    ``tip_xy`` is the image point under the fingertips, ``px_per_mm`` the board's scale there.
    """
    h, w = image_bgr.shape[:2]
    s = px_per_mm * params.size
    entry = _entry(params, w, h, tip_xy)
    a = tip_xy - entry
    if np.linalg.norm(a) < 1:
        a = np.array([0.0, -1.0])
    a = a / np.linalg.norm(a)
    n = np.array([-a[1], a[0]]) * params.handed
    finger_len = 78 * s
    reach = {"flat": 1.0, "point": 1.0, "pinch": 0.75, "fist": 0.35}[params.pose]
    palm_len, palm_w = 95 * s, 84 * s
    palm = tip_xy - a * (finger_len * reach + palm_len * 0.45)
    wrist = palm - a * palm_len * 0.55
    start = entry - a * 0.3 * max(w, h)
    mask = np.zeros((h, w), np.uint8)
    sleeve_mask = np.zeros((h, w), np.uint8)

    def pts(*points: np.ndarray) -> np.ndarray:
        return np.round(np.array(points) * 16).astype(np.int32)

    wrist_w = 58 * s
    # the arm widens towards the frame's edge, which is nearer the camera
    length = float(np.linalg.norm(start - wrist))
    arm_w = min(78 * s * (1 + 1.4 * max(0.0, length - 250 * s) / (250 * s)), 0.6 * min(w, h))
    arm = pts(wrist + n * wrist_w / 2, wrist - n * wrist_w / 2, start - n * arm_w / 2, start + n * arm_w / 2)
    cv2.fillPoly(mask, [arm], 255, cv2.LINE_AA, 4)
    axes = (int(palm_len * 0.55), int(palm_w * 0.5))
    ang = float(np.degrees(np.arctan2(a[1], a[0])))
    cv2.ellipse(mask, tuple(int(v) for v in palm), axes, ang, 0, 360, 255, -1, cv2.LINE_AA)
    # fingers: index to little finger, from the knuckles
    knuckle_line = palm + a * palm_len * 0.38
    lengths = (0.95, 1.0, 0.93, 0.75)
    offsets = (0.33, 0.11, -0.11, -0.31)
    curl = {"flat": (1, 1, 1, 1), "point": (1, 0.35, 0.33, 0.3), "pinch": (0.85, 0.5, 0.45, 0.4),
            "fist": (0.35, 0.33, 0.32, 0.3)}[params.pose]
    tips = []
    for k in range(4):
        spread = np.deg2rad(params.spread_deg * (offsets[k] / 0.33) + rng.normal(0, 2))
        d = a * np.cos(spread) + n * np.sin(spread)
        base = knuckle_line + n * offsets[k] * palm_w
        tip = base + d * finger_len * lengths[k] * curl[k]
        width = int(max(2, (19 if k < 3 else 16) * s))
        cv2.line(mask, tuple(int(v) for v in base), tuple(int(v) for v in tip), 255, width, cv2.LINE_AA)
        tips.append((tip, d, width))
    # thumb
    t_ang = np.deg2rad(45 if params.pose != "pinch" else 25)
    td = a * np.cos(t_ang) + n * np.sin(t_ang)
    t_base = palm + n * palm_w * 0.35 - a * palm_len * 0.15
    t_tip = t_base + td * finger_len * 0.75
    cv2.line(mask, tuple(int(v) for v in t_base), tuple(int(v) for v in t_tip), 255, int(max(2, 23 * s)),
             cv2.LINE_AA)
    if params.sleeve is not None:
        cuff = wrist - a * (1 - params.sleeve_len) * 0.0 - a * np.linalg.norm(wrist - start) * (1 - params.sleeve_len)
        sl_w = arm_w * 1.25
        sleeve = pts(cuff + n * sl_w / 2, cuff - n * sl_w / 2, start - n * sl_w / 2, start + n * sl_w / 2)
        cv2.fillPoly(sleeve_mask, [sleeve], 255, cv2.LINE_AA, 4)
    _paint(image_bgr, mask, sleeve_mask, params, s, tips, rng)
    return np.maximum(mask, sleeve_mask)


def _paint(image_bgr: np.ndarray, mask: np.ndarray, sleeve_mask: np.ndarray, params: HandParams, s: float,
           tips: list, rng: np.random.Generator) -> None:
    both = np.maximum(mask, sleeve_mask)
    ys, xs = np.nonzero(both)
    if len(xs) == 0:
        return
    pad = 4
    x0, x1 = max(0, xs.min() - pad), min(both.shape[1], xs.max() + pad + 1)
    y0, y1 = max(0, ys.min() - pad), min(both.shape[0], ys.max() + pad + 1)
    m = mask[y0:y1, x0:x1]
    sm = sleeve_mask[y0:y1, x0:x1]
    region = image_bgr[y0:y1, x0:x1].astype(np.float32)
    # rounded look: brighter along the middle of each limb
    dist = cv2.distanceTransform((m > 127).astype(np.uint8), cv2.DIST_L2, 3)
    shade = 0.62 + 0.38 * np.clip(dist / (14 * s + 1), 0, 1) ** 0.6
    skin = np.asarray(params.skin, np.float32)
    mottle = 1 + 0.04 * cv2.resize(rng.standard_normal((8, 8)).astype(np.float32), (x1 - x0, y1 - y0),
                                   interpolation=cv2.INTER_CUBIC)
    body = skin[None, None, :] * (shade * mottle)[..., None]
    # fingernails: a paler patch at each fingertip
    for tip, d, width in tips:
        c = tip - d * width * 0.35 - np.array([x0, y0])
        cv2.ellipse(body, (int(c[0]), int(c[1])), (max(1, int(width * 0.38)), max(1, int(width * 0.3))),
                    float(np.degrees(np.arctan2(d[1], d[0]))), 0, 360,
                    tuple(float(v) for v in np.minimum(skin * 1.12 + 12, 255)), -1, cv2.LINE_AA)
    alpha = cv2.GaussianBlur(m.astype(np.float32) / 255, (0, 0), 0.8 + 0.6 * s)[..., None]
    out = region * (1 - alpha) + body * alpha
    if params.sleeve is not None:
        sd = cv2.distanceTransform((sm > 127).astype(np.uint8), cv2.DIST_L2, 3)
        sshade = 0.55 + 0.45 * np.clip(sd / (25 * s + 1), 0, 1) ** 0.5
        cloth = np.asarray(params.sleeve, np.float32)[None, None, :] * sshade[..., None]
        sa = cv2.GaussianBlur(sm.astype(np.float32) / 255, (0, 0), 1.0 + 0.6 * s)[..., None]
        out = out * (1 - sa) + cloth * sa
    image_bgr[y0:y1, x0:x1] = np.clip(out, 0, 255).astype(np.uint8)


def shadow_offset_px(params: HandParams, px_per_mm: float, light_dir_img: np.ndarray, elevation_deg: float) -> np.ndarray:
    """How far the hand's shadow falls from the hand, in image pixels."""
    length = params.height_mm / np.tan(np.deg2rad(max(elevation_deg, 15))) * px_per_mm
    return -light_dir_img * length

