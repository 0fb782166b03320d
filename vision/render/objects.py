"""Upright objects on the table (mugs and glasses), drawn in 3D through the camera.

A mug is a shaded cylinder with a rim, its contents and a handle. Being tall, it can hide
part of the board when it stands between the camera and the board, so ``draw_mug``
returns its coverage mask.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np

from vision.render.colours import BGR, from_hsv, mix, pick, scaled
from vision.render.geometry import Camera

CONTENTS: Final = ((20, 40, 70), (30, 70, 130), (200, 200, 200), (40, 120, 190))  # coffee, tea, milk, juice


@dataclass(frozen=True)
class MugParams:
    x: float  # centre of its base, world mm
    y: float
    radius_mm: float
    height_mm: float
    colour: BGR
    contents: BGR | None
    handle_deg: float


def sample_mug(rng: np.random.Generator, x: float, y: float) -> MugParams:
    colour = from_hsv(rng.uniform(0, 180), rng.uniform(0, 220), rng.uniform(60, 250))
    if rng.random() < 0.3:
        colour = pick(rng, ((240, 240, 240), (30, 30, 30), (235, 235, 225)))
    return MugParams(x=x, y=y, radius_mm=float(rng.uniform(36, 48)), height_mm=float(rng.uniform(80, 110)),
                     colour=colour, contents=pick(rng, CONTENTS) if rng.random() < 0.7 else None,
                     handle_deg=float(rng.uniform(0, 360)))


def _ring(cx: float, cy: float, r: float, z: float, n: int = 64) -> np.ndarray:
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.column_stack([cx + r * np.cos(t), cy + r * np.sin(t), np.full(n, z)])


def draw_mug(image_bgr: np.ndarray, mug: MugParams, camera: Camera, light_xyz: np.ndarray) -> np.ndarray:
    """Draws ``mug`` in place; returns its coverage mask (uint8). ``light_xyz`` points to the light."""
    h, w = image_bgr.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    n = 48
    bottom = _ring(mug.x, mug.y, mug.radius_mm, 0.0, n)
    top = _ring(mug.x, mug.y, mug.radius_mm, -mug.height_mm, n)
    pb, pt = camera.project(bottom), camera.project(top)
    cam = camera.position
    normals = np.column_stack([np.cos(np.linspace(0, 2 * np.pi, n, endpoint=False)),
                               np.sin(np.linspace(0, 2 * np.pi, n, endpoint=False)), np.zeros(n)])
    light = np.clip(normals @ light_xyz, 0, None)

    def poly(points: np.ndarray, colour: BGR, target: np.ndarray = image_bgr) -> None:
        p = np.round(points * 16).astype(np.int32)
        cv2.fillPoly(target, [p], colour, cv2.LINE_AA, 4)
        cv2.fillPoly(mask, [p], 255, cv2.LINE_AA, 4)

    # handle: a loop in the vertical plane on one side, drawn first if it is on the far side
    ha = np.deg2rad(mug.handle_deg)
    hd = np.array([np.cos(ha), np.sin(ha), 0.0])
    t = np.linspace(-np.pi / 2, np.pi / 2, 16)
    hc = np.array([mug.x, mug.y, -mug.height_mm * 0.55]) + hd * mug.radius_mm
    loop = hc + np.outer(np.cos(t) * mug.radius_mm * 0.55, hd) + np.outer(np.sin(t) * mug.height_mm * 0.3,
                                                                           [0, 0, 1])
    ploop = camera.project(loop)
    handle_far = (hc - cam) @ hd > 0
    thick = max(2, int(np.linalg.norm(ploop[0] - ploop[-1]) * 0.18))

    def handle() -> None:
        p = np.round(ploop).astype(np.int32)
        cv2.polylines(image_bgr, [p], False, scaled(mug.colour, 0.8), thick, cv2.LINE_AA)
        cv2.polylines(mask, [p], False, 255, thick, cv2.LINE_AA)

    if handle_far:
        handle()
    # body: quads of the side, far ones first
    mids = (bottom + top) / 2
    order = np.argsort(-np.linalg.norm(mids - cam, axis=1))
    for k in order:
        j = (k + 1) % n
        facing = (mids[k] - cam) @ normals[k] < 0
        if not facing:
            continue
        shade = 0.45 + 0.65 * light[k]
        poly(np.array([pb[k], pb[j], pt[j], pt[k]]), scaled(mug.colour, shade))
    # the opening: inner wall, contents, rim
    poly(pt, scaled(mug.colour, 0.55))
    if mug.contents is not None:
        level = _ring(mug.x, mug.y, mug.radius_mm * 0.9, -mug.height_mm * 0.85)
        inner = np.zeros((h, w), np.uint8)
        cv2.fillPoly(inner, [np.round(pt * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
        liquid = np.zeros_like(image_bgr)
        cv2.fillPoly(liquid, [np.round(camera.project(level) * 16).astype(np.int32)], mug.contents, cv2.LINE_AA, 4)
        lmask = np.zeros((h, w), np.uint8)
        cv2.fillPoly(lmask, [np.round(camera.project(level) * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
        sel = (np.minimum(inner, lmask) > 127)
        image_bgr[sel] = liquid[sel]
    rim = np.round(pt * 16).astype(np.int32)
    cv2.polylines(image_bgr, [rim], True, mix(mug.colour, (255, 255, 255), 0.35), max(1, thick // 2), cv2.LINE_AA, 4)
    if not handle_far:
        handle()
    return mask


def mug_shadow(mug: MugParams, light_xyz: np.ndarray) -> tuple[np.ndarray, float]:
    """Where the mug's shadow lies on the table: (centre (x, y) mm, length mm) of its streak."""
    horizontal = -light_xyz[:2]
    elev = max(0.2, -light_xyz[2]) if light_xyz[2] < 0 else 0.2
    length = mug.height_mm / np.tan(np.arcsin(min(1.0, elev)))
    norm = np.linalg.norm(horizontal)
    direction = horizontal / norm if norm > 1e-6 else np.zeros(2)
    return np.array([mug.x, mug.y]) + direction * length * 0.5, float(length)
