#!/usr/bin/env python3
"""Independent synthetic "phone photos" of a Sequence board on a table.

Throw-away test-data generator.  Everything here (card art, chips, camera, light) is
drawn from scratch; only the printed layout and the judge come from the repository's referee/.

usage: python render_photos.py OUTDIR --n 80 --seed S
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
from pathlib import Path
import time

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository: referee/
from referee.board import Board  # noqa: E402
from referee.cells import LAYOUT  # noqa: E402
from referee.judge import judge  # noqa: E402

cv2.setNumThreads(1)

F32 = np.float32
CORNER_IDX = (0, 9, 90, 99)


# ----------------------------------------------------------------------------- helpers
def clamp(x, a, b):
    return max(a, min(b, x))


def value_noise(rng, h, w, cell, octaves=3, persistence=0.5):
    """Smooth noise in about [-1, 1]; ``cell`` is the feature size in pixels."""
    h, w = int(h), int(w)
    out = np.zeros((h, w), F32)
    amp, tot = 1.0, 0.0
    for _ in range(octaves):
        gh, gw = max(2, int(h / cell) + 2), max(2, int(w / cell) + 2)
        g = rng.standard_normal((gh, gw)).astype(F32)
        out += amp * cv2.resize(g, (w, h), interpolation=cv2.INTER_CUBIC)
        tot += amp
        amp *= persistence
        cell /= 2.0
        if cell < 1.5:
            break
    return out / tot


def kelvin_rgb(k):
    t = k / 100.0
    if t <= 66:
        r = 255.0
        g = 99.4708025861 * math.log(t) - 161.1195681661
    else:
        r = 329.698727446 * ((t - 60) ** -0.1332047592)
        g = 288.1221695283 * ((t - 60) ** -0.0755148492)
    if t >= 66:
        b = 255.0
    elif t <= 19:
        b = 0.0
    else:
        b = 138.5177312231 * math.log(t - 10) - 305.0447927307
    return np.clip(np.array([r, g, b], F32) / 255.0, 0.02, 1.0)


def rot2(a):
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s], [s, c]])


def u8(col):
    return tuple(int(clamp(round(float(v)), 0, 255)) for v in col)


def jitter_col(rng, col, amount):
    return np.clip(np.asarray(col, float) + rng.normal(0, amount, 3), 0, 255)


def rounded_rect(img, x0, y0, x1, y1, r, col):
    """Filled rounded rectangle (inclusive pixel bounds), antialiased corners."""
    col = u8(col)
    r = int(max(0, min(r, (x1 - x0) // 2, (y1 - y0) // 2)))
    if r <= 0:
        cv2.rectangle(img, (x0, y0), (x1, y1), col, -1)
        return
    cv2.rectangle(img, (x0 + r, y0), (x1 - r, y1), col, -1)
    cv2.rectangle(img, (x0, y0 + r), (x1, y1 - r), col, -1)
    for cx, cy in ((x0 + r, y0 + r), (x1 - r, y0 + r), (x0 + r, y1 - r), (x1 - r, y1 - r)):
        cv2.circle(img, (cx, cy), r, col, -1, cv2.LINE_AA)


def fill_poly(img, pts, col):
    cv2.fillPoly(img, [np.round(np.asarray(pts) * 16).astype(np.int32)], u8(col), cv2.LINE_AA, shift=4)


# ----------------------------------------------------------------------------- suit shapes
def _heart(n=90):
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    x = 16 * np.sin(t) ** 3
    y = -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t))
    s = 1.0 / (y.max() - y.min())
    return np.stack([x * s * 0.95, (y - (y.max() + y.min()) / 2) * s], 1)


_H = _heart()
_SPADE_TOP = np.stack([_H[:, 0] * 0.95, -_H[:, 1] * 0.82 - 0.09], 1)
_t = np.linspace(0, 1, 16)
_DIAMOND = np.concatenate([
    np.stack([0 + 0.36 * _t, -0.5 + 0.5 * _t + 0.05 * np.sin(np.pi * _t)], 1),
    np.stack([0.36 - 0.36 * _t, 0.0 + 0.5 * _t - 0.05 * np.sin(np.pi * _t)], 1),
    np.stack([0 - 0.36 * _t, 0.5 - 0.5 * _t - 0.05 * np.sin(np.pi * _t)], 1),
    np.stack([-0.36 + 0.36 * _t, 0.0 - 0.5 * _t + 0.05 * np.sin(np.pi * _t)], 1),
])
_STEM = np.array([[0.0, 0.12], [0.07, 0.38], [0.17, 0.5], [-0.17, 0.5], [-0.07, 0.38]])
SUITS = {
    "H": [("p", _H)],
    "D": [("p", _DIAMOND)],
    "S": [("p", _SPADE_TOP), ("p", _STEM)],
    "C": [("c", 0.0, -0.24, 0.205), ("c", -0.215, 0.07, 0.205), ("c", 0.215, 0.07, 0.205),
          ("p", np.array([[0, -0.2], [0.2, 0.08], [-0.2, 0.08]])), ("p", _STEM)],
}


def draw_suit(img, suit, cx, cy, size, col, flip=False):
    col = u8(col)
    for part in SUITS[suit]:
        if part[0] == "p":
            p = part[1] * size
            if flip:
                p = -p
            fill_poly(img, p + (cx, cy), col)
        else:
            _, x, y, r = part
            if flip:
                x, y = -x, -y
            cv2.circle(img, (int(round((cx + x * size) * 16)), int(round((cy + y * size) * 16))),
                       int(round(r * size * 16)), col, -1, cv2.LINE_AA, shift=4)


FONTS = [cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
         cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_COMPLEX_SMALL, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX]


def draw_text(img, text, cx, cy, height, col, font, weight, max_w=None, anchor="c"):
    (tw, th), _ = cv2.getTextSize(text, font, 1.0, 1)
    sc = height / max(th, 1)
    if max_w is not None and tw * sc > max_w:
        sc = max_w / tw
    thick = max(1, int(round(sc * weight)))
    (tw, th), _ = cv2.getTextSize(text, font, sc, thick)
    if anchor == "c":
        org = (int(round(cx - tw / 2)), int(round(cy + th / 2)))
    else:  # top-left anchor at (cx, cy)
        org = (int(round(cx)), int(round(cy + th)))
    cv2.putText(img, text, org, font, sc, u8(col), thick, cv2.LINE_AA)
    return tw, th


RANK_TXT = {"A": "A", "T": "10", "Q": "Q", "K": "K"}
PIPS = {
    2: [(0.5, 0), (0.5, 1)],
    3: [(0.5, 0), (0.5, 0.5), (0.5, 1)],
    4: [(0, 0), (1, 0), (0, 1), (1, 1)],
    5: [(0, 0), (1, 0), (0, 1), (1, 1), (0.5, 0.5)],
    6: [(0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    7: [(0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1), (0.5, 0.25)],
    8: [(0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1), (0.5, 0.25), (0.5, 0.75)],
    9: [(0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1), (0.5, 0.5)],
    10: [(0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1),
         (0.5, 1 / 6), (0.5, 5 / 6)],
}


# ----------------------------------------------------------------------------- card art
def card_style(rng):
    paper = [rng.uniform(240, 252), rng.uniform(238, 250), rng.uniform(228, 246)]
    kind = rng.choice(["white", "cream", "grey"], p=[0.45, 0.35, 0.2])
    if kind == "cream":
        paper = [rng.uniform(240, 250), rng.uniform(228, 240), rng.uniform(195, 215)]
    elif kind == "grey":
        g = rng.uniform(200, 228)
        paper = [g + rng.uniform(-4, 4), g + rng.uniform(-4, 4), g + rng.uniform(-6, 2)]
    st = {
        "paper_kind": str(kind),
        "paper": np.array(paper),
        "red": np.array([rng.uniform(165, 225), rng.uniform(10, 55), rng.uniform(20, 65)]),
        "black": np.array([rng.uniform(10, 55)] * 3) + rng.uniform(-8, 8, 3),
        "style": str(rng.choice(["pips", "bigsuit", "index", "mixed"], p=[0.35, 0.25, 0.15, 0.25])),
        "court": str(rng.choice(["robes", "letter"], p=[0.8, 0.2])),
        "font": int(rng.integers(len(FONTS) - 1)) if rng.random() < 0.93 else len(FONTS) - 1,
        "weight": float(rng.uniform(1.2, 2.6)),
        "index_both": bool(rng.random() < 0.7),
        "idx_h": float(rng.uniform(0.11, 0.16)),
        "round": float(rng.uniform(0.0, 0.12)),
        "border": bool(rng.random() < 0.35),
        "robe": [np.array([rng.uniform(20, 70), rng.uniform(50, 110), rng.uniform(140, 210)]),
                 np.array([rng.uniform(215, 245), rng.uniform(170, 215), rng.uniform(30, 90)]),
                 np.array([rng.uniform(160, 215), rng.uniform(25, 60), rng.uniform(25, 60)])],
        "skin": np.array([rng.uniform(225, 250), rng.uniform(185, 215), rng.uniform(150, 185)]),
        "hair": np.array([[230, 190, 70], [90, 60, 35], [40, 32, 28], [200, 200, 190]][rng.integers(4)], float),
        "photo_noise": float(rng.uniform(3, 10)),
    }
    return st


def draw_court_panel(pw, ph, rank, suit, st, rng, ink):
    """A double-headed court figure with robes in blue / yellow / red."""
    panel = np.empty((ph, pw, 3), np.uint8)
    panel[:] = u8(st["paper"] * rng.uniform(0.93, 1.0))
    hh = ph // 2 + 1
    half = np.empty((hh, pw, 3), np.uint8)
    half[:] = panel[0, 0]
    blue, yellow, red = st["robe"]
    order = [blue, yellow, red]
    k = rng.integers(3)
    c1, c2, c3 = order[k % 3], order[(k + 1) % 3], order[(k + 2) % 3]

    def P(pts):
        return np.array(pts, float) * (pw, hh)

    fill_poly(half, P([(0.0, 1.0), (0.06, 0.66), (0.3, 0.54), (0.7, 0.54), (0.94, 0.66), (1.0, 1.0)]), c1)
    fill_poly(half, P([(0.4, 0.56), (0.6, 0.56), (0.66, 1.0), (0.34, 1.0)]), c2)
    fill_poly(half, P([(0.06, 0.72), (0.24, 0.62), (0.3, 1.0), (0.12, 1.0)]), c3)
    fill_poly(half, P([(0.76, 0.62), (0.94, 0.72), (0.9, 1.0), (0.7, 1.0)]), c3)
    for yy in (0.7, 0.82, 0.94):
        cv2.line(half, (int(0.4 * pw), int(yy * hh)), (int(0.62 * pw), int(yy * hh)), u8(ink), max(1, pw // 60), cv2.LINE_AA)
    cv2.ellipse(half, (int(0.5 * pw), int(0.56 * hh)), (int(0.2 * pw), max(1, int(0.05 * hh))), 0, 0, 360, (245, 240, 225), -1, cv2.LINE_AA)
    cv2.ellipse(half, (int(0.5 * pw), int(0.34 * hh)), (int(0.17 * pw), int(0.21 * hh)), 0, 0, 360, u8(st["hair"]), -1, cv2.LINE_AA)
    cv2.ellipse(half, (int(0.5 * pw), int(0.37 * hh)), (int(0.115 * pw), int(0.15 * hh)), 0, 0, 360, u8(st["skin"]), -1, cv2.LINE_AA)
    e = max(1, pw // 45)
    for ex in (0.45, 0.55):
        cv2.circle(half, (int(ex * pw), int(0.34 * hh)), e, (40, 30, 30), -1, cv2.LINE_AA)
    cv2.line(half, (int(0.46 * pw), int(0.44 * hh)), (int(0.54 * pw), int(0.44 * hh)), (150, 60, 60), max(1, pw // 70), cv2.LINE_AA)
    if rank == "K":
        fill_poly(half, P([(0.38, 0.44), (0.62, 0.44), (0.5, 0.6)]), st["hair"] * 0.8)
        cv2.line(half, (int(0.2 * pw), hh), (int(0.28 * pw), int(0.5 * hh)), u8(yellow), max(1, pw // 28), cv2.LINE_AA)
        crown = [(0.34, 0.22), (0.34, 0.06), (0.42, 0.14), (0.5, 0.02), (0.58, 0.14), (0.66, 0.06), (0.66, 0.22)]
    else:
        cv2.circle(half, (int(0.77 * pw), int(0.7 * hh)), max(1, pw // 14), u8(red), -1, cv2.LINE_AA)
        cv2.line(half, (int(0.77 * pw), int(0.7 * hh)), (int(0.72 * pw), hh), (40, 120, 40), max(1, pw // 50), cv2.LINE_AA)
        crown = [(0.38, 0.2), (0.38, 0.1), (0.44, 0.15), (0.5, 0.07), (0.56, 0.15), (0.62, 0.1), (0.62, 0.2)]
    fill_poly(half, P(crown), yellow)
    cv2.circle(half, (int(0.5 * pw), int(0.15 * hh)), max(1, pw // 50), u8(red), -1, cv2.LINE_AA)
    draw_suit(half, suit, 0.13 * pw, 0.14 * hh, 0.16 * pw, ink)
    # "photographic" look: smooth shading, grain, softness
    f = half.astype(F32)
    sh = 1.0 + 0.12 * value_noise(rng, hh, pw, max(4, pw / 4), 2)
    f *= sh[..., None]
    f += rng.normal(0, st["photo_noise"], f.shape).astype(F32)
    f = cv2.GaussianBlur(f, (0, 0), max(0.4, pw / 140))
    half = np.clip(f, 0, 255).astype(np.uint8)
    panel[:hh] = half
    panel[ph - hh:] = half[::-1, ::-1][: hh] if ph - hh >= 0 else panel[ph - hh:]
    cv2.line(panel, (0, ph // 2), (pw - 1, ph // 2), u8(ink), max(1, pw // 80), cv2.LINE_AA)
    cv2.rectangle(panel, (0, 0), (pw - 1, ph - 1), u8(ink), max(1, pw // 70))
    return panel


def random_card(rng):
    while True:
        c = LAYOUT[int(rng.integers(100))]
        if c != "FREE":
            return c


def draw_card(code, w, h, st, rng, bg):
    rank, suit = code[0], code[1]
    img = np.empty((h, w, 3), np.uint8)
    img[:] = u8(bg)
    paper = jitter_col(rng, st["paper"], 1.5)
    rounded_rect(img, 0, 0, w - 1, h - 1, int(st["round"] * w), paper)
    if st["border"]:
        cv2.rectangle(img, (max(1, w // 25), max(1, w // 25)), (w - 1 - max(1, w // 25), h - 1 - max(1, w // 25)),
                      u8(st["black"] * 0.5 + paper * 0.5), 1, cv2.LINE_AA)
    ink = st["red"] if suit in "HD" else st["black"]
    font = FONTS[st["font"]]
    rt = RANK_TXT.get(rank, rank)
    style = st["style"]
    if style == "mixed":
        style = "pips" if rank in "A23456789T" and (sum(map(ord, code)) % 3) else "bigsuit"
    court = rank in "QK"
    ix = 0.06 * w
    if style == "index":
        ih = 0.24 * h
        tw, th = draw_text(img, rt, ix, 0.06 * h, ih * 0.7, ink, font, st["weight"], max_w=0.5 * w, anchor="tl")
        draw_suit(img, suit, ix + 0.16 * w, 0.06 * h + th + 0.14 * h, 0.22 * h, ink)
        cut_w, cut_h = int(0.5 * w), int(0.5 * h)
    else:
        ih = st["idx_h"] * h * (1.35 if style == "bigsuit" else 1.0)
        tw, th = draw_text(img, rt, ix + 0.07 * w, 0.05 * h + ih * 0.5, ih, ink, font, st["weight"], max_w=0.2 * w)
        draw_suit(img, suit, ix + 0.07 * w, 0.05 * h + ih * 1.55, ih * 0.8, ink)
        cut_w, cut_h = int(0.24 * w), int(0.05 * h + ih * 2.1)
    if st["index_both"]:
        patch = img[:cut_h, :cut_w].copy()
        img[h - cut_h:, w - cut_w:] = patch[::-1, ::-1]
    if court:
        x0, x1 = int(0.27 * w), int(0.82 * w)
        y0, y1 = int(0.12 * h), int(0.88 * h)
        if style == "index":
            x0, y0, x1, y1 = int(0.5 * w), int(0.1 * h), int(0.92 * w), int(0.62 * h)
        if st["court"] == "robes" and x1 - x0 >= 8:
            img[y0:y1, x0:x1] = draw_court_panel(x1 - x0, y1 - y0, rank, suit, st, rng, ink)
        else:
            draw_text(img, rt, (x0 + x1) / 2, (y0 + y1) / 2 - 0.08 * h, 0.3 * h, ink, font, st["weight"] * 1.3)
            draw_suit(img, suit, (x0 + x1) / 2, (y0 + y1) / 2 + 0.2 * h, 0.22 * w, ink)
    elif style == "pips":
        n = 1 if rank == "A" else (10 if rank == "T" else int(rank))
        if n == 1:
            draw_suit(img, suit, w / 2, h / 2, 0.5 * w, ink)
        else:
            ps = min(0.2 * w, 0.14 * h) * (1.0 if n < 9 else 0.88)
            for px, py in PIPS[n]:
                x = (0.3 + 0.4 * px) * w
                y = (0.2 + 0.6 * py) * h
                draw_suit(img, suit, x, y, ps, ink, flip=py > 0.5)
    elif style == "bigsuit":
        draw_suit(img, suit, w * 0.55, h * 0.56, rng.uniform(0.5, 0.6) * w, ink)
    return img


def draw_free_corner(w, h, st, rng, bg, kind, cols):
    img = np.empty((h, w, 3), np.uint8)
    img[:] = u8(bg)
    cx, cy, r = w / 2, h / 2, 0.42 * min(w, h)
    a, b, c = cols
    if kind == 0:  # chip-like emblem with rings
        rounded_rect(img, 0, 0, w - 1, h - 1, int(st["round"] * w), st["paper"])
        for k, col in enumerate((a, b, a, c)):
            cv2.circle(img, (int(cx * 16), int(cy * 16)), int(r * (1 - 0.22 * k) * 16), u8(col), -1, cv2.LINE_AA, 4)
    elif kind == 1:  # a star on a disc
        cv2.circle(img, (int(cx * 16), int(cy * 16)), int(r * 16), u8(a), -1, cv2.LINE_AA, 4)
        ang = np.linspace(-np.pi / 2, 1.5 * np.pi, 11)[:-1]
        rr = np.where(np.arange(10) % 2 == 0, r * 0.85, r * 0.38)
        fill_poly(img, np.stack([cx + rr * np.cos(ang), cy + rr * np.sin(ang)], 1), b)
    else:  # "FREE" text in a ring
        cv2.circle(img, (int(cx * 16), int(cy * 16)), int(r * 16), u8(b), -1, cv2.LINE_AA, 4)
        cv2.circle(img, (int(cx * 16), int(cy * 16)), int(r * 0.82 * 16), u8(a), -1, cv2.LINE_AA, 4)
        draw_text(img, "FREE", cx, cy, 0.16 * h, c, FONTS[st["font"]], 1.8, max_w=1.35 * r)
    return img


# ----------------------------------------------------------------------------- chips
def draw_chip(tex, cx, cy, rc, disp, col, lt, p):
    """Composite one glossy chip into float RGB ``tex`` (0..1), base centre (cx, cy),
    top face displaced by ``disp`` (parallax of its thickness); ``lt`` unit vector toward light."""
    tx, ty = cx + disp[0], cy + disp[1]
    x0 = int(math.floor(min(cx, tx) - rc - 2)); x1 = int(math.ceil(max(cx, tx) + rc + 3))
    y0 = int(math.floor(min(cy, ty) - rc - 2)); y1 = int(math.ceil(max(cy, ty) + rc + 3))
    H, W = tex.shape[:2]
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(W, x1), min(H, y1)
    if x1 <= x0 or y1 <= y0:
        return
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(F32)
    px, py = xx - cx, yy - cy
    L2 = float(disp[0] ** 2 + disp[1] ** 2)
    if L2 > 1e-6:
        t = np.clip((px * disp[0] + py * disp[1]) / L2, 0, 1)
    else:
        t = 0.0
    ds = np.hypot(px - t * disp[0], py - t * disp[1])
    a_side = np.clip(rc - ds + 0.5, 0, 1)[..., None]
    qx, qy = xx - tx, yy - ty
    d = np.hypot(qx, qy)
    r = d / rc
    a_top = np.clip(rc - d + 0.5, 0, 1)[..., None]
    patch = tex[y0:y1, x0:x1]
    under = patch.copy()
    col = np.asarray(col, F32)
    side = col * p["side_dark"] * (0.85 + 0.15 * np.clip((qx * lt[0] + qy * lt[1]) / (rc + 1e-6), -1, 1))[..., None]
    out = patch * (1 - a_side) + side * a_side
    inv = 1.0 / (d + 1e-6)
    ldot = (qx * lt[0] + qy * lt[1]) * inv
    shade = 1.0 - p["dome"] * r * r
    rr = (r - p["ring_r"]) / p["ring_w"]
    shade += p["emboss"] * (-2 * rr * np.exp(-rr * rr)) * ldot
    edge = np.clip((r - 0.86) / 0.14, 0, 1)
    shade += edge * (0.22 * ldot - 0.12)
    topc = col * shade[..., None]
    if p["translucent"] > 0:
        a = p["translucent"]
        topc = (1 - a) * topc + a * np.clip(under * col * 1.8, 0, 1) * shade[..., None]
    hx, hy = tx + lt[0] * p["hl_off"] * rc, ty + lt[1] * p["hl_off"] * rc
    g = np.exp(-((xx - hx) ** 2 + ((yy - hy) ** 2) * p["hl_asp"]) / (2 * (p["hl_size"] * rc) ** 2))
    rim = np.exp(-((r - 0.92) / 0.05) ** 2) * np.clip(ldot, 0, 1)
    topc = topc + (p["hl_int"] * g + 0.35 * p["hl_int"] * rim)[..., None] * p["light"]
    tex[y0:y1, x0:x1] = out * (1 - a_top) + topc * a_top


def chip_params(rng, light):
    return {
        "side_dark": float(rng.uniform(0.45, 0.65)),
        "dome": float(rng.uniform(0.02, 0.18)),
        "ring_r": float(rng.uniform(0.55, 0.8)),
        "ring_w": float(rng.uniform(0.04, 0.1)),
        "emboss": float(rng.uniform(0.0, 0.12)),
        "translucent": float(rng.uniform(0.15, 0.4)) if rng.random() < 0.3 else 0.0,
        "hl_off": float(rng.uniform(0.2, 0.55)),
        "hl_size": float(rng.uniform(0.12, 0.3)),
        "hl_asp": float(rng.uniform(0.5, 2.0)),
        "hl_int": float(rng.uniform(0.15, 0.6)),
        "light": np.asarray(light, F32),
    }


def chip_colours(rng):
    t = rng.random()
    blue = (1 - t) * np.array([0.08, 0.12, 0.42]) + t * np.array([0.32, 0.62, 0.92])
    t = rng.random()
    green = (1 - t) * np.array([0.04, 0.3, 0.12]) + t * np.array([0.5, 0.82, 0.18])
    t = rng.random()
    red = (1 - t) * np.array([0.66, 0.04, 0.12]) + t * np.array([0.95, 0.3, 0.08])
    out = {}
    for k, c in (("B", blue), ("G", green), ("R", red)):
        out[k] = np.clip(c + rng.normal(0, 0.025, 3), 0.01, 1).astype(F32)
    return out


# ----------------------------------------------------------------------------- positions
def _windows():
    out = []
    for r in range(10):
        for c in range(10):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + k * dr, c + k * dc) for k in range(5)]
                if all(0 <= a < 10 and 0 <= b < 10 for a, b in cells):
                    out.append([a * 10 + b for a, b in cells])
    return out


WINDOWS = _windows()


def gen_position(rng, T):
    teams = "BGR"[:T]
    if T == 2:
        scen = str(rng.choice(["plain", "seq", "win"], p=[0.4, 0.3, 0.3]))
    else:
        scen = str(rng.choice(["plain", "win"], p=[0.6, 0.4]))
    for attempt in range(3000):
        N = int(rng.integers(10, 71))
        if scen == "win" and T == 2:
            N = max(N, 18)
        if scen == "plain" and attempt > 200:
            N = min(N, 40)
        counts = [N // T + (1 if i < N % T else 0) for i in range(T)]
        grid = ["#" if i in CORNER_IDX else "." for i in range(100)]
        want = dict.fromkeys(teams, 0)
        winner = None
        if scen == "win":
            winner = teams[(N - 1) % T]
            want[winner] = 2 if T == 2 else 1
        elif scen == "seq":
            k = rng.integers(3)
            if k != 1:
                want["B"] = 1
            if k != 0:
                want["G"] = 1
        ok = True
        for t in teams:
            first = None
            for s in range(want[t]):
                for _ in range(200):
                    if first is not None and rng.random() < 0.3:
                        # extend the first one along its own line (a run of 9 shares one cell)
                        d = first[1] - first[0]
                        cand = [first[4] + k * d for k in range(5)] if rng.random() < 0.5 else [first[0] - k * d for k in range(5)]
                        valid = all(0 <= c < 100 for c in cand) and all(
                            abs((cand[i + 1] % 10) - (cand[i] % 10)) <= 1 for i in range(4))
                        if not valid:
                            continue
                        cells = cand
                    else:
                        cells = WINDOWS[rng.integers(len(WINDOWS))]
                    if all(grid[c] in ("#", ".", t) for c in cells) and (first is None or len(set(cells) & set(first)) <= 1):
                        for c in cells:
                            if grid[c] == ".":
                                grid[c] = t
                        first = cells
                        break
                else:
                    ok = False
        if not ok:
            continue
        remaining = {t: counts[i] - grid.count(t) for i, t in enumerate(teams)}
        if min(remaining.values()) < 0:
            continue
        beta = rng.uniform(0, 2.5)
        order = []
        while any(remaining[t] > 0 for t in teams):
            for t in teams:
                if remaining[t] > 0:
                    order.append(t)
                    remaining[t] -= 1
        for t in order:
            arr = np.array([g not in ".#" for g in grid]).reshape(10, 10).astype(F32)
            pad = np.pad(arr, 1)
            nb = sum(pad[1 + dy:11 + dy, 1 + dx:11 + dx] for dy in (-1, 0, 1) for dx in (-1, 0, 1)) - arr
            w = (1 + beta * nb).ravel()
            empt = np.array([g == "." for g in grid])
            w = w * empt
            c = int(rng.choice(100, p=w / w.sum()))
            grid[c] = t
        rows = ["".join(grid[r * 10:(r + 1) * 10]) for r in range(10)]
        j = judge(Board.from_rows(rows), T)
        seqs = j.sequences
        if all(seqs.get(t, 0) == want[t] for t in teams):
            exp = (winner,) if winner else ()
            if tuple(j.winner) == exp:
                return rows, scen, {t: int(seqs.get(t, 0)) for t in teams}, list(j.winner)
    raise RuntimeError("could not build a position")


# ----------------------------------------------------------------------------- camera
class Camera:
    def __init__(self, W, H, f, cx, cy, R, C, k1, k2):
        self.W, self.H, self.f, self.cx, self.cy = W, H, f, cx, cy
        self.R, self.C, self.k1, self.k2 = R, np.asarray(C, float), k1, k2
        self.ox = self.oy = 0.0

    @staticmethod
    def look(yaw, tilt, roll, target, dist):
        d = np.array([math.sin(tilt) * math.cos(yaw), math.sin(tilt) * math.sin(yaw), -math.cos(tilt)])
        x = np.array([math.sin(yaw), -math.cos(yaw), 0.0])
        y = np.cross(d, x)
        cr, sr = math.cos(roll), math.sin(roll)
        x2, y2 = cr * x + sr * y, -sr * x + cr * y
        R = np.stack([x2, y2, d])
        C = np.asarray(target, float) - dist * d
        return R, C

    def project(self, X):
        """World points (N,3) -> undistorted frame pixels (N,2)."""
        Pc = (np.asarray(X, float) - self.C) @ self.R.T
        return np.stack([self.f * Pc[:, 0] / Pc[:, 2] + self.cx, self.f * Pc[:, 1] / Pc[:, 2] + self.cy], 1)

    def distort(self, pts):
        """Undistorted frame pixels -> final (distorted) pixels; inverse of the remap model
        xu = xd * (1 + k1 rd^2 + k2 rd^4) in focal-normalised coordinates."""
        pts = np.asarray(pts, float)
        xn = (pts[:, 0] - self.cx) / self.f
        yn = (pts[:, 1] - self.cy) / self.f
        ru = np.hypot(xn, yn)
        rd = ru.copy()
        for _ in range(30):
            g = rd * (1 + self.k1 * rd ** 2 + self.k2 * rd ** 4) - ru
            dg = 1 + 3 * self.k1 * rd ** 2 + 5 * self.k2 * rd ** 4
            rd = rd - g / dg
        s = np.where(ru > 1e-12, rd / np.maximum(ru, 1e-12), 1.0)
        return np.stack([self.cx + xn * s * self.f, self.cy + yn * s * self.f], 1)

    def Kc(self):
        return np.array([[self.f, 0, self.cx + self.ox], [0, self.f, self.cy + self.oy], [0, 0, 1.0]])

    def plane_h(self, A, scale=1.0):
        """Homography: [a, b, 1] -> canvas px, where world = A @ [a, b, 1]."""
        M = self.R @ A - np.outer(self.R @ self.C, [0, 0, 1.0])
        Hm = self.Kc() @ M
        if scale != 1.0:
            Hm = np.diag([scale, scale, 1.0]) @ Hm
        return Hm

    def rays(self, xs, ys, scale=1.0):
        """World ray direction z-component for canvas pixels (broadcast): dz = a*x + b*y + c."""
        Ki = np.linalg.inv(np.diag([scale, scale, 1.0]) @ self.Kc())
        M = self.R.T @ Ki
        return M


def warp_rgba(src, Hm, dst_w, dst_h):
    h, w = src.shape[:2]
    cs = np.array([[-1, -1, 1], [w, -1, 1], [w, h, 1], [-1, h, 1]], float) @ Hm.T
    if np.any(cs[:, 2] <= 1e-9):
        x0, y0, x1, y1 = 0, 0, dst_w, dst_h
    else:
        cs = cs[:, :2] / cs[:, 2:3]
        x0 = max(0, int(math.floor(cs[:, 0].min())) - 2); x1 = min(dst_w, int(math.ceil(cs[:, 0].max())) + 3)
        y0 = max(0, int(math.floor(cs[:, 1].min())) - 2); y1 = min(dst_h, int(math.ceil(cs[:, 1].max())) + 3)
    if x1 <= x0 or y1 <= y0:
        return None
    T = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1.0]])
    out = cv2.warpPerspective(src, T @ Hm, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    if out.ndim == 2:
        out = out[..., None]
    return (y0, y1, x0, x1), out


# ----------------------------------------------------------------------------- table, floor
def table_texture(rng, th, tw, pt, kind):
    yy = (np.arange(th, dtype=F32) / pt)[:, None]
    xx = (np.arange(tw, dtype=F32) / pt)[None, :]
    info = {"table": kind}
    if kind == "wood":
        base = [np.array([0.70, 0.52, 0.33]), np.array([0.40, 0.26, 0.15]), np.array([0.58, 0.32, 0.2]),
                np.array([0.6, 0.56, 0.5]), np.array([0.82, 0.7, 0.52])][rng.integers(5)]
        base = base * rng.uniform(0.85, 1.1)
        pw = rng.uniform(90, 200)
        period = rng.uniform(2.5, 7)
        ang = rng.uniform(-0.02, 0.02)
        v = yy + ang * xx
        plank = np.floor(v / pw)
        stretch = value_noise(rng, max(4, th // 3), max(4, tw // 40), 6, 3)
        stretch = cv2.resize(stretch, (tw, th), interpolation=cv2.INTER_LINEAR)
        grain = np.sin(2 * np.pi * (v / period + 2.5 * stretch + plank * 0.37))
        grain = np.clip(grain, -1, 1) ** 3
        fine = value_noise(rng, th, tw, max(2, 1.5 * pt), 2)
        tint = 1 + 0.07 * np.sin(plank * 12.9898 + rng.uniform(0, 6))
        lum = tint * (1 - 0.1 * grain - 0.04 * fine)
        gap = np.abs((v / pw) - np.round(v / pw)) * pw < 0.6
        lum = np.where(gap, lum * 0.55, lum)
        img = lum[..., None] * base[None, None, :]
        info["wood"] = [float(x) for x in base]
    elif kind == "laminate":
        base = [np.array([0.9, 0.9, 0.88]), np.array([0.62, 0.62, 0.6]), np.array([0.83, 0.78, 0.68]),
                np.array([0.16, 0.16, 0.17])][rng.integers(4)] * rng.uniform(0.9, 1.05)
        speck = rng.normal(0, 1, (th, tw)).astype(F32)
        mott = value_noise(rng, th, tw, 60 * pt, 3)
        lum = 1 + 0.025 * speck + 0.03 * mott
        img = lum[..., None] * base[None, None, :]
    elif kind == "cloth":
        base = [np.array([0.12, 0.38, 0.2]), np.array([0.55, 0.1, 0.12]), np.array([0.15, 0.2, 0.42]),
                np.array([0.78, 0.72, 0.6]), np.array([0.85, 0.85, 0.82])][rng.integers(5)] * rng.uniform(0.85, 1.1)
        weave = 0.5 * (np.sin(2 * np.pi * xx / 1.2) + np.sin(2 * np.pi * yy / 1.2)) if pt > 1.6 else 0 * xx
        fine = value_noise(rng, th, tw, max(2, pt * 2), 2)
        folds = value_noise(rng, th, tw, 120 * pt, 2)
        lum = 1 + 0.03 * weave + 0.06 * fine + 0.08 * folds
        img = lum[..., None] * base[None, None, :]
    else:  # check tablecloth
        c1 = np.array([rng.uniform(0.6, 0.9), rng.uniform(0.1, 0.3), rng.uniform(0.1, 0.3)])
        if rng.random() < 0.5:
            c1 = c1[[2, 1, 0]]
        c2 = np.array([0.92, 0.9, 0.86])
        sq = rng.uniform(14, 32)
        a = (np.floor(xx / sq) % 2).astype(F32)
        b = (np.floor(yy / sq) % 2).astype(F32)
        m = (a + b) / 2.0
        fine = value_noise(rng, th, tw, max(2, pt * 2), 2)
        img = (m[..., None] * c1 + (1 - m[..., None]) * c2) * (1 + 0.05 * fine)[..., None]
        info["check_mm"] = float(sq)
    return np.clip(img, 0, 1).astype(F32), info


def floor_texture(rng, n=768):
    kind = str(rng.choice(["carpet", "parquet", "tiles"]))
    base = np.array([rng.uniform(0.25, 0.6), rng.uniform(0.2, 0.5), rng.uniform(0.15, 0.45)])
    noise = value_noise(rng, n, n, 24, 4)
    if kind == "carpet":
        lum = 1 + 0.15 * noise + 0.08 * rng.normal(0, 1, (n, n))
    elif kind == "parquet":
        yy = np.arange(n)[:, None] % 48
        lum = 1 + 0.12 * noise + np.where(yy < 2, -0.4, 0)
    else:
        yy = np.arange(n)[:, None] % 128
        xx = np.arange(n)[None, :] % 128
        lum = 1 + 0.06 * noise + np.where((yy < 3) | (xx < 3), -0.35, 0)
    img = (lum[..., None] * base).astype(F32)
    return np.clip(img, 0, 1), kind


# ----------------------------------------------------------------------------- sprites on the table
def sprite_card_back(w, h, rng):
    img = np.zeros((h, w, 3), np.uint8)
    col = [(170, 30, 40), (30, 50, 140), (20, 90, 60)][rng.integers(3)]
    rounded_rect(img, 0, 0, w - 1, h - 1, max(1, w // 12), (245, 245, 240))
    m = max(2, w // 14)
    cv2.rectangle(img, (m, m), (w - 1 - m, h - 1 - m), col, -1)
    step = max(3, w // 9)
    for k in range(-h, w + h, step):
        cv2.line(img, (k, m), (k + h, h - m), (235, 230, 225), 1, cv2.LINE_AA)
        cv2.line(img, (k, h - m), (k + h, m), (235, 230, 225), 1, cv2.LINE_AA)
    img[:m] = img[0, w // 2]; img[-m:] = img[0, w // 2]; img[:, :m] = img[0, w // 2]; img[:, -m:] = img[0, w // 2]
    alpha = np.zeros((h, w), np.uint8)
    rounded_rect(alpha, 0, 0, w - 1, h - 1, max(1, w // 12), (255, 255, 255))
    return img, alpha


def sprite_card_face(code, w, h, st, rng):
    img = draw_card(code, w, h, st, rng, (0, 0, 0))
    alpha = np.zeros((h, w), np.uint8)
    rounded_rect(alpha, 0, 0, w - 1, h - 1, int(st["round"] * w) or max(1, w // 14), (255, 255, 255))
    return img, alpha


def sprite_phone(ppm, rng):
    w, h = max(8, int(72 * ppm)), max(16, int(150 * ppm))
    img = np.zeros((h, w, 3), np.uint8)
    body = [(25, 25, 28), (200, 200, 205), (40, 60, 110), (220, 150, 170), (20, 70, 60)][rng.integers(5)]
    rounded_rect(img, 0, 0, w - 1, h - 1, int(9 * ppm), body)
    alpha = np.zeros((h, w), np.uint8)
    rounded_rect(alpha, 0, 0, w - 1, h - 1, int(9 * ppm), (255, 255, 255))
    face_up = rng.random() < 0.6
    if face_up:
        m = max(1, int(3.5 * ppm))
        scr = np.zeros((h - 2 * m, w - 2 * m, 3), F32)
        if rng.random() < 0.5:
            g = np.linspace(0, 1, h - 2 * m, dtype=F32)[:, None, None]
            c1, c2 = rng.uniform(0, 1, 3), rng.uniform(0, 1, 3)
            scr[:] = (c1 * (1 - g) + c2 * g) * 255
        else:
            scr[:] = 12
        gx = np.linspace(0, 1, w - 2 * m, dtype=F32)[None, :]
        gy = np.linspace(0, 1, h - 2 * m, dtype=F32)[:, None]
        refl = np.clip(1 - np.abs(gx * 0.6 + gy - rng.uniform(0.3, 1.0)) * 4, 0, 1) * rng.uniform(20, 70)
        scr += refl[..., None]
        sub = img[m:h - m, m:w - m]
        mask = np.zeros(sub.shape[:2], np.uint8)
        rounded_rect(mask, 0, 0, sub.shape[1] - 1, sub.shape[0] - 1, int(7 * ppm), (255, 255, 255))
        mk = (mask.astype(F32) / 255)[..., None]
        sub[:] = np.clip(sub * (1 - mk) + scr * mk, 0, 255).astype(np.uint8)
    else:
        cv2.rectangle(img, (int(6 * ppm), int(6 * ppm)), (int(32 * ppm), int(34 * ppm)),
                      u8(np.array(body) * 0.7), -1)
        for (x, y) in ((13, 13), (25, 13), (13, 26)):
            cv2.circle(img, (int(x * ppm), int(y * ppm)), max(1, int(4.5 * ppm)), (15, 15, 18), -1, cv2.LINE_AA)
    return img, alpha, ("phone_up" if face_up else "phone_down")


def sprite_lid(ppm, rng, font):
    wmm, hmm = rng.uniform(240, 290), rng.uniform(200, 280)
    w, h = max(8, int(wmm * ppm)), max(8, int(hmm * ppm))
    col = [(30, 60, 140), (20, 100, 60), (150, 30, 40), (30, 30, 35)][rng.integers(4)]
    img = np.zeros((h, w, 3), np.uint8)
    img[:] = col
    m = max(1, int(12 * ppm))
    cv2.rectangle(img, (m, m), (w - 1 - m, h - 1 - m), (230, 200, 70), max(1, int(2 * ppm)))
    draw_text(img, "SEQUENCE", w / 2, h * 0.45, h * 0.1, (245, 240, 230), font, 2.0, max_w=w * 0.8)
    for k, c in enumerate(((40, 90, 200), (40, 160, 70), (200, 40, 40))):
        cv2.circle(img, (int(w * (0.35 + 0.15 * k)), int(h * 0.68)), max(2, int(14 * ppm)), c, -1, cv2.LINE_AA)
    alpha = np.full((h, w), 255, np.uint8)
    return img, alpha


def paste_sprite(tex, img, alpha, cx, cy, ang, shadow_px, shadow_sig, shadow_k):
    """Rotate and paste an RGB uint8 sprite (+alpha) into float table texture centred at (cx, cy)."""
    h, w = alpha.shape
    M = cv2.getRotationMatrix2D((w / 2, h / 2), math.degrees(ang), 1.0)
    M[0, 2] += cx - w / 2
    M[1, 2] += cy - h / 2
    R = int(math.hypot(w, h) / 2 + abs(shadow_px[0]) + abs(shadow_px[1]) + 3 * shadow_sig + 4)
    x0, y0 = max(0, int(cx) - R), max(0, int(cy) - R)
    x1, y1 = min(tex.shape[1], int(cx) + R), min(tex.shape[0], int(cy) + R)
    if x1 <= x0 or y1 <= y0:
        return
    M2 = M.copy(); M2[0, 2] -= x0; M2[1, 2] -= y0
    sz = (x1 - x0, y1 - y0)
    a = cv2.warpAffine(alpha.astype(F32) / 255, M2, sz, flags=cv2.INTER_LINEAR, borderValue=0)
    c = cv2.warpAffine(img.astype(F32) / 255, M2, sz, flags=cv2.INTER_LINEAR, borderValue=0)
    Ms = M2.copy(); Ms[0, 2] += shadow_px[0]; Ms[1, 2] += shadow_px[1]
    s = cv2.warpAffine(alpha.astype(F32) / 255, Ms, sz, flags=cv2.INTER_LINEAR, borderValue=0)
    if shadow_sig > 0.3:
        s = cv2.GaussianBlur(s, (0, 0), shadow_sig)
    roi = tex[y0:y1, x0:x1]
    roi *= (1 - shadow_k * s)[..., None]
    roi[:] = roi * (1 - a[..., None]) + c * a[..., None]


# ----------------------------------------------------------------------------- hand
SKINS = np.array([[245, 215, 190], [232, 190, 155], [210, 160, 120], [175, 120, 85], [130, 85, 58], [90, 58, 40]], float) / 255


def make_hand(rng, ppm, fonts_unused=None):
    """Hand + forearm patch in hand-local mm (x: fingertips -> elbow, y across)."""
    xmin, xmax, ymin, ymax = -20.0, 1500.0, -95.0, 95.0
    Wp, Hp = int((xmax - xmin) * ppm), int((ymax - ymin) * ppm)
    s = rng.uniform(0.88, 1.12)
    t = rng.uniform(0, len(SKINS) - 1)
    i = int(t)
    skin = SKINS[i] * (1 - (t - i)) + SKINS[min(i + 1, len(SKINS) - 1)] * (t - i)
    left = rng.random() < 0.5
    pose = str(rng.choice(["flat", "relaxed", "fist", "point"], p=[0.35, 0.3, 0.15, 0.2]))
    sleeve = rng.random() < 0.5

    def P(x, y):
        return ((x - xmin) * ppm, ((-y if left else y) - ymin) * ppm)

    rgb = np.zeros((Hp, Wp, 3), F32)
    alpha = np.zeros((Hp, Wp), F32)
    tint = 1 + 0.04 * value_noise(rng, Hp, Wp, 25 * ppm, 2)

    def add_part(mask_u8, col, soft_mm=12.0, lo=0.6):
        m = mask_u8 > 127
        if not m.any():
            return
        dt = cv2.distanceTransform((m * 255).astype(np.uint8), cv2.DIST_L2, 5) / ppm
        sh = lo + (1 - lo) * np.clip(dt / soft_mm, 0, 1) ** 0.6
        a = cv2.GaussianBlur(mask_u8.astype(F32) / 255, (0, 0), 0.6)
        c = (np.asarray(col, F32)[None, None, :] * (sh * tint)[..., None])
        rgb[:] = rgb * (1 - a[..., None]) + c * a[..., None]
        alpha[:] = np.maximum(alpha, a)

    wrist = 170 * s
    curve = rng.normal(0, 25)
    xs = np.linspace(wrist - 20, xmax, 40)
    hw = 27 * s + (44 * s - 27 * s) * np.clip((xs - wrist) / 250, 0, 1) + 8 * s * np.clip((xs - wrist - 300) / 300, 0, 1)
    yc = curve * ((xs - wrist) / (xmax - wrist)) ** 2
    arm_poly = [P(x, y - w) for x, y, w in zip(xs, yc, hw)] + [P(x, y + w) for x, y, w in zip(xs[::-1], yc[::-1], hw[::-1])]
    m = np.zeros((Hp, Wp), np.uint8)
    fill_poly(m, arm_poly, (255, 255, 255))
    add_part(m, skin, 22, 0.62)
    if sleeve:
        sx = wrist + rng.uniform(20, 160)
        sxs = xs[xs >= sx]
        if len(sxs) > 2:
            shw = np.interp(sxs, xs, hw) + 7
            syc = np.interp(sxs, xs, yc)
            poly = [P(x, y - w) for x, y, w in zip(sxs, syc, shw)] + [P(x, y + w) for x, y, w in zip(sxs[::-1], syc[::-1], shw[::-1])]
            m = np.zeros((Hp, Wp), np.uint8)
            fill_poly(m, poly, (255, 255, 255))
            scol = rng.uniform(0.05, 0.85, 3)
            add_part(m, scol, 25, 0.5)
            xx = (np.arange(Wp, dtype=F32) / ppm)[None, :]
            folds = 1 + 0.07 * np.sin(xx / rng.uniform(6, 14) + 0.8 * value_noise(rng, Hp, Wp, 60 * ppm, 1))
            sm = cv2.GaussianBlur(m.astype(F32) / 255, (0, 0), 0.6)[..., None]
            rgb[:] = rgb * (1 - sm) + rgb * folds[..., None] * sm
    # palm
    m = np.zeros((Hp, Wp), np.uint8)
    c = P(112 * s, 0)
    cv2.ellipse(m, (int(c[0]), int(c[1])), (int(68 * s * ppm), int(43 * s * ppm)), 0, 0, 360, 255, -1, cv2.LINE_AA)
    fill_poly(m, [P(wrist, -28 * s), P(wrist, 28 * s), P(110 * s, 44 * s), P(110 * s, -44 * s)], (255, 255, 255))
    add_part(m, skin * 1.02, 18, 0.62)
    curls = {"flat": [1, 1, 1, 1], "relaxed": [0.8, 0.75, 0.72, 0.7], "fist": [0.35, 0.35, 0.35, 0.35],
             "point": [1, 0.38, 0.38, 0.38]}[pose]
    lens = np.array([68, 78, 73, 57]) * s
    wids = np.array([18, 19, 17.5, 15]) * s
    ys = np.array([-30, -10, 10, 29]) * s
    spread = rng.uniform(0, 6)
    for k in range(4):
        ang = math.radians((k - 1.5) * spread)
        L = lens[k] * curls[k]
        x0, y0 = 62 * s, ys[k]
        x1, y1 = x0 - L * math.cos(ang), y0 + L * math.sin(ang)
        m = np.zeros((Hp, Wp), np.uint8)
        p0, p1 = P(x0, y0), P(x1, y1)
        cv2.line(m, (int(p0[0]), int(p0[1])), (int(p1[0]), int(p1[1])), 255, max(1, int(wids[k] * ppm)), cv2.LINE_AA)
        add_part(m, skin * (1.0 + 0.02 * k), 7, 0.58)
        if curls[k] > 0.6:
            nx, ny = x1 + 7 * s * math.cos(ang), y1 - 7 * s * math.sin(ang)
            pn = P(nx, ny)
            nm = np.zeros((Hp, Wp), np.uint8)
            cv2.ellipse(nm, (int(pn[0]), int(pn[1])), (max(1, int(6 * s * ppm)), max(1, int(wids[k] * 0.32 * ppm))),
                        -math.degrees(ang) * (-1 if left else 1), 0, 360, 255, -1, cv2.LINE_AA)
            na = cv2.GaussianBlur(nm.astype(F32) / 255, (0, 0), 0.7)[..., None]
            rgb[:] = rgb * (1 - 0.5 * na) + np.clip(skin * 1.1 + [0.08, 0.02, 0.04], 0, 1) * 0.5 * na
    # thumb
    m = np.zeros((Hp, Wp), np.uint8)
    if pose in ("fist",):
        a0, a1 = P(130 * s, 28 * s), P(76 * s, 10 * s)
    else:
        a0, a1 = P(138 * s, 24 * s), P(92 * s, rng.uniform(52, 66) * s)
    cv2.line(m, (int(a0[0]), int(a0[1])), (int(a1[0]), int(a1[1])), 255, max(1, int(22 * s * ppm)), cv2.LINE_AA)
    add_part(m, skin, 9, 0.6)
    info = {"skin": [round(float(v), 3) for v in skin], "left": bool(left), "pose": pose, "sleeve": bool(sleeve)}
    return rgb, alpha, (xmin, ymin), info


# ----------------------------------------------------------------------------- the photo
SIZES = [(1280, 720), (1920, 1080), (4032, 3024)]
FORCE = json.loads(os.environ.get("INDPHOTO_FORCE", "{}"))  # debugging overrides only


def render(seed, index):
    rng = np.random.default_rng(seed * 1000 + index)
    cv2.setRNGSeed(int((seed * 1000 + index) % (2 ** 31 - 1)))
    V = {}
    W, H = SIZES[rng.choice(3, p=[0.3, 0.35, 0.35])]
    if rng.random() < 0.35:
        W, H = H, W
    S = min(W, H)
    V["portrait"] = bool(H > W)

    # ---- board geometry (mm); board-local (u right, v down as printed)
    cw = rng.uniform(34, 44)
    aspect = rng.uniform(1.0, 1.35)
    ch = cw * aspect
    mbase = rng.uniform(0.2, 0.9) * cw
    mL, mR = mbase * rng.uniform(0.9, 1.1), mbase * rng.uniform(0.9, 1.1)
    mT, mB = mbase * rng.uniform(0.9, 1.4), mbase * rng.uniform(0.9, 1.4)
    fold_axis = "h" if rng.random() < 0.5 else "v"
    if fold_axis == "h":  # the board folds on the middle grid line
        mB = mT
    else:
        mR = mL
    U, Vb = mL + 10 * cw + mR, mT + 10 * ch + mB
    fold_deg = rng.uniform(0.4, 3.5) if rng.random() < 0.6 else 0.0
    tent = rng.random() < 0.75
    phi = rng.uniform(0, 2 * math.pi)
    zb = rng.uniform(1.5, 3.0)  # board top above table
    V.update(cell_mm=[round(cw, 2), round(ch, 2)], cell_aspect=round(aspect, 3),
             margin_mm=[round(x, 1) for x in (mL, mT, mR, mB)],
             fold={"axis": fold_axis, "deg": round(fold_deg, 2), "tent": bool(tent)})
    th_ = math.radians(fold_deg)
    ct, sn = math.cos(th_), math.sin(th_)
    Rphi = rot2(phi)

    def local3(u, v, half):
        u = np.asarray(u, float); v = np.asarray(v, float)
        if fold_axis == "h":
            x = u - U / 2
            s = (Vb / 2 - v) if half == 0 else (v - Vb / 2)
            y = (s * ct) if half == 0 else (-s * ct)
            L = Vb / 2
        else:
            y = Vb / 2 - v
            s = (U / 2 - u) if half == 0 else (u - U / 2)
            x = (-s * ct) if half == 0 else (s * ct)
            L = U / 2
        z = zb + ((L - s) * sn if tent else s * sn)
        return x, y, z

    def board_world(u, v, half=None):
        u = np.atleast_1d(np.asarray(u, float)); v = np.atleast_1d(np.asarray(v, float))
        if half is None:
            hs = (v >= Vb / 2) if fold_axis == "h" else (u >= U / 2)
            out = np.zeros((len(u), 3))
            for hh in (0, 1):
                m = hs == hh
                if m.any():
                    out[m] = board_world(u[m], v[m], hh)
            return out
        x, y, z = local3(u, v, half)
        xy = np.stack([x, y], 1) @ Rphi.T
        return np.stack([xy[:, 0], xy[:, 1], np.broadcast_to(z, x.shape)], 1)

    def half_A(half):
        p0 = board_world([0], [0], half)[0]
        pu = board_world([1], [0], half)[0] - p0
        pv = board_world([0], [1], half)[0] - p0
        return np.stack([pu, pv, p0], 1)

    def flat_A(z):
        A = np.zeros((3, 3))
        A[:2, 0] = Rphi @ [1, 0]
        A[:2, 1] = Rphi @ [0, -1]
        A[:2, 2] = Rphi @ [-U / 2, Vb / 2]
        A[2, 2] = z
        return A

    # ---- camera
    fov = math.radians(rng.uniform(56, 78) if max(W, H) < 3000 else rng.uniform(58, 72))
    f = (max(W, H) / 2) / math.tan(fov / 2)
    cx = (W - 1) / 2 + rng.normal(0, 0.006 * W)
    cy = (H - 1) / 2 + rng.normal(0, 0.006 * H)
    tilt = math.radians(rng.uniform(0, 14) if rng.random() < 0.3 else rng.uniform(0, 50))
    yaw = rng.uniform(0, 2 * math.pi)
    roll = math.radians(rng.normal(0, 4))
    if FORCE.get("upright"):
        tilt, yaw, roll, phi = 0.0, math.pi / 2, 0.0, 0.0
        Rphi = rot2(phi)
    k1 = rng.uniform(0.0, 0.07)
    k2 = rng.uniform(0.0, 0.02)
    fill = rng.uniform(0.35, 0.9)
    edge = np.array([[0, 0], [U, 0], [U, Vb], [0, Vb], [U / 2, 0], [U / 2, Vb], [0, Vb / 2], [U, Vb / 2]])
    bpts = board_world(edge[:, 0], edge[:, 1])
    cam = None
    for attempt in range(60):
        shrink = 1 - attempt / 60
        off = rng.uniform(-1, 1, 2) * 0.35 * max(U, Vb) * shrink
        target = np.array([off[0], off[1], 0.0])
        dist = 900.0
        for _ in range(12):
            R, C = Camera.look(yaw, tilt, roll, target, dist)
            cam = Camera(W, H, f, cx, cy, R, C, k1, k2)
            p = cam.project(bpts)
            ext = max(p[:, 0].max() - p[:, 0].min(), p[:, 1].max() - p[:, 1].min()) / S
            dist *= ext / fill
        R, C = Camera.look(yaw, tilt, roll, target, dist)
        cam = Camera(W, H, f, cx, cy, R, C, k1, k2)
        p = cam.distort(cam.project(bpts))
        mx, my = 0.02 * W, 0.02 * H
        if p[:, 0].min() > mx and p[:, 0].max() < W - mx and p[:, 1].min() > my and p[:, 1].max() < H - my:
            break
        if attempt > 20:
            fill *= 0.97
    else:
        raise RuntimeError("camera fit failed")
    V.update(image=[W, H], fov_long_deg=round(math.degrees(fov), 1), tilt_deg=round(math.degrees(tilt), 1),
             yaw_deg=round(math.degrees(yaw) % 360, 1), roll_deg=round(math.degrees(roll), 1),
             board_rot_deg=round(math.degrees(phi) % 360, 1), fill=round(fill, 3),
             cam_dist_mm=round(dist, 0), k1=round(k1, 4), k2=round(k2, 4))

    # canvas covering the undistorted positions of all final pixels
    fr = np.array([[0, 0], [W - 1, 0], [W - 1, H - 1], [0, H - 1], [(W - 1) / 2, 0], [0, (H - 1) / 2]], float)
    xn, yn = (fr[:, 0] - cx) / f, (fr[:, 1] - cy) / f
    rr2 = xn ** 2 + yn ** 2
    fac = 1 + k1 * rr2 + k2 * rr2 ** 2
    ux, uy = cx + xn * fac * f, cy + yn * fac * f
    ox, oy = int(math.ceil(max(0, -ux.min()))) + 2, int(math.ceil(max(0, -uy.min()))) + 2
    CW = int(math.ceil(max(W - 1, ux.max()))) + ox + 3
    CH = int(math.ceil(max(H - 1, uy.max()))) + oy + 3
    cam.ox, cam.oy = ox, oy

    # grid corners (label)
    gc = np.array([[mL, mT], [mL + 10 * cw, mT], [mL + 10 * cw, mT + 10 * ch], [mL, mT + 10 * ch]])
    corners_px = cam.distort(cam.project(board_world(gc[:, 0], gc[:, 1])))

    # scale: canvas px per mm near the board
    pg = cam.project(board_world(gc[:, 0], gc[:, 1]))
    edge_ppm = [np.linalg.norm(pg[1] - pg[0]) / (10 * cw), np.linalg.norm(pg[2] - pg[3]) / (10 * cw),
                np.linalg.norm(pg[3] - pg[0]) / (10 * ch), np.linalg.norm(pg[2] - pg[1]) / (10 * ch)]
    ppm_c, ppm_min = max(edge_ppm), min(edge_ppm)

    # ---- light
    temp = rng.uniform(2700, 6500)
    light_rgb = kelvin_rgb(temp)
    light_rgb = light_rgb / light_rgb.max()
    wb_temp = temp * math.exp(rng.normal(0, 0.13))
    wb = kelvin_rgb(clamp(wb_temp, 2000, 9000))
    wb = wb / wb.max()
    gains = 1.0 / wb
    gains = gains / gains[1]
    gains = gains * np.array([1, 1 + rng.normal(0, 0.02), 1])
    l_az = rng.uniform(0, 2 * math.pi)  # in board-local (u, v)
    l_el = math.radians(rng.uniform(35, 80))
    lt = np.array([math.cos(l_az), math.sin(l_az)])  # toward light, board-local
    sh_len = 1.0 / math.tan(l_el)  # shadow length per mm of height
    V.update(light_K=round(temp, 0), wb_K=round(wb_temp, 0), light_elev_deg=round(math.degrees(l_el), 1))
    spec_col = np.clip(light_rgb * 1.0, 0, 1)

    # world vectors of board-local directions
    def bl2world(vec):
        return Rphi @ np.array([vec[0], -vec[1]])

    # ---- position
    T = 3 if rng.random() < 0.25 else 2
    rows, scen, seqs, winner = gen_position(rng, T)
    V.update(scenario=scen, sequences=seqs, winner=winner,
             chips={t: sum(r.count(t) for r in rows) for t in "BGR"[:T]})

    # ---- board texture
    cwp = int(clamp(round(1.15 * ppm_c * cw), 40, 230))
    pxmm = cwp / cw
    chp = int(round(ch * pxmm))
    # use a single px/mm: adjust ch so that it is an integer number of pixels exactly
    ch = chp / pxmm
    gc = np.array([[mL, mT], [mL + 10 * cw, mT], [mL + 10 * cw, mT + 10 * ch], [mL, mT + 10 * ch]])
    mlp, mtp = int(round(mL * pxmm)), int(round(mT * pxmm))
    mL, mT = mlp / pxmm, mtp / pxmm
    mrp, mbp = int(round(mR * pxmm)), int(round(mB * pxmm))
    mR, mB = mrp / pxmm, mbp / pxmm
    U, Vb = mL + 10 * cw + mR, mT + 10 * ch + mB
    gc = np.array([[mL, mT], [mL + 10 * cw, mT], [mL + 10 * cw, mT + 10 * ch], [mL, mT + 10 * ch]])
    corners_px = cam.distort(cam.project(board_world(gc[:, 0], gc[:, 1])))
    TW, TH = mlp + 10 * cwp + mrp, mtp + 10 * chp + mbp
    st = card_style(rng)
    margin_col = np.array([[20, 80, 50], [20, 40, 90], [25, 25, 28], [110, 25, 35], [20, 90, 95],
                           [200, 195, 185], [60, 120, 60]][rng.integers(7)], float) * rng.uniform(0.85, 1.1)
    gap_col = margin_col if rng.random() < 0.6 else np.array([rng.uniform(0, 60)] * 3)
    tex = np.empty((TH, TW, 3), np.uint8)
    tex[:] = u8(margin_col)
    font = FONTS[st["font"]] if st["font"] < len(FONTS) - 1 else cv2.FONT_HERSHEY_DUPLEX
    if min(mtp, mbp) > 14 and rng.random() < 0.7:
        tc = (230, 215, 120) if rng.random() < 0.5 else (235, 235, 230)
        draw_text(tex, "SEQUENCE", TW / 2, mtp / 2, mtp * 0.5, tc, font, 2.0, max_w=TW * 0.5)
        if rng.random() < 0.5:
            tmp = np.ascontiguousarray(tex[TH - mbp:, :][::-1, ::-1])
            draw_text(tmp, "SEQUENCE", TW / 2, mbp / 2, mbp * 0.5, tc, font, 2.0, max_w=TW * 0.5)
            tex[TH - mbp:, :] = tmp[::-1, ::-1]
    x0g, y0g = mlp, mtp
    cv2.rectangle(tex, (x0g - 1, y0g - 1), (x0g + 10 * cwp, y0g + 10 * chp), u8(gap_col), -1)
    gap = int(round(cwp * rng.uniform(0.0, 0.04)))
    corner_kind = int(rng.integers(3))
    corner_cols = [rng.uniform(20, 235, 3) for _ in range(3)]
    cache = {}
    for idx in range(100):
        r, c = divmod(idx, 10)
        code = LAYOUT[idx]
        w_, h_ = cwp - 2 * gap, chp - 2 * gap
        if idx in CORNER_IDX:
            img = draw_free_corner(w_, h_, st, rng, gap_col, corner_kind, corner_cols)
            if corner_kind != 2:
                img = np.ascontiguousarray(np.rot90(img, [0, 1, 3, 2][CORNER_IDX.index(idx)])) if w_ == h_ else img
        else:
            if code not in cache:
                cache[code] = draw_card(code, w_, h_, st, rng, gap_col)
            img = cache[code]
        xa, ya = x0g + c * cwp + gap, y0g + r * chp + gap
        tex[ya:ya + h_, xa:xa + w_] = img
    if rng.random() < 0.5:
        lc = u8(gap_col * 0.5 + np.array([200, 180, 100]) * 0.5)
        cv2.rectangle(tex, (x0g, y0g), (x0g + 10 * cwp - 1, y0g + 10 * chp - 1), lc, max(1, cwp // 60))
    V.update(card_style=st["style"], court=st["court"], paper=st["paper_kind"], font=int(st["font"]),
             margin_rgb=[int(x) for x in margin_col], gap_px_frac=round(gap / cwp, 3), corner_logo=corner_kind,
             tex_cell_px=[cwp, chp])

    texf = tex.astype(F32) / 255.0
    # print texture / gloss variation
    texf *= (1 + 0.02 * value_noise(rng, TH, TW, 80, 2))[..., None]
    # crease line at the fold
    if fold_deg > 0 or rng.random() < 0.5:
        if fold_axis == "h":
            yf = int(round(Vb / 2 * pxmm))
            texf[max(0, yf - 1):yf + 1] *= 0.8
        else:
            xf = int(round(U / 2 * pxmm))
            texf[:, max(0, xf - 1):xf + 1] *= 0.8

    # ---- chips (drawn on the board texture, with parallax of their thickness)
    cols = chip_colours(rng)
    cp = chip_params(rng, spec_col)
    chip_d = rng.uniform(0.65, 0.9)
    chip_off = rng.uniform(0.03, 0.15)
    chip_th = rng.uniform(2.5, 4.0)
    V.update(chip_rgb={k: [round(float(x), 3) for x in v] for k, v in cols.items() if k in "BGR"[:T]},
             chip_diam_frac=round(chip_d, 3), chip_offset_max=round(chip_off, 3),
             chip_translucent=round(cp["translucent"], 2))
    # camera nadir in board-local mm
    cl = np.linalg.solve(Rphi, cam.C[:2])
    nad = np.array([cl[0] + U / 2, Vb / 2 - cl[1]])
    Hc = cam.C[2] - zb
    shadow_mask = np.zeros((TH, TW), F32)
    chips = []
    for idx in range(100):
        t = rows[idx // 10][idx % 10]
        if t not in "BGR" or FORCE.get("nochips"):
            continue
        r, c = divmod(idx, 10)
        ang = rng.uniform(0, 2 * math.pi)
        rad = chip_off * math.sqrt(rng.random())
        u = mL + (c + 0.5) * cw + math.cos(ang) * rad * cw
        v = mT + (r + 0.5) * ch + math.sin(ang) * rad * cw
        rc = 0.5 * cw * chip_d * rng.uniform(0.97, 1.03)
        chips.append((t, u, v, rc))
        so = -lt * chip_th * sh_len
        cv2.circle(shadow_mask, (int((u + so[0]) * pxmm * 16), int((v + so[1]) * pxmm * 16)),
                   int(rc * pxmm * 16), 1.0, -1, cv2.LINE_8, 4)
    if chips:
        shadow_mask = cv2.GaussianBlur(shadow_mask, (0, 0), max(1.0, 0.05 * cwp + chip_th * sh_len * pxmm * 0.3))
        texf *= (1 - rng.uniform(0.3, 0.55) * shadow_mask)[..., None]
    for t, u, v, rc in chips:
        disp = (np.array([u, v]) - nad) * chip_th / max(Hc - chip_th, 50)
        col = np.clip(cols[t] * rng.uniform(0.96, 1.04, 3), 0, 1)
        draw_chip(texf, u * pxmm - 0.5, v * pxmm - 0.5, rc * pxmm, disp * pxmm, col, lt, cp)

    # pre-filter the texture where the projection shrinks it (avoids aliasing)
    ratio = pxmm / max(ppm_min, 1e-6)
    if ratio > 1.25:
        texf = cv2.GaussianBlur(texf, (0, 0), 0.45 * math.sqrt(ratio * ratio - 1))

    # ---- table texture over the visible part of the table
    tkind = str(rng.choice(["wood", "laminate", "cloth", "check"], p=[0.45, 0.25, 0.18, 0.12]))
    ta = phi + rng.integers(4) * math.pi / 2 + math.radians(rng.normal(0, 8))
    Rta = rot2(ta)
    Tw, Td = rng.uniform(1200, 2400), rng.uniform(900, 1500)
    bh = 0.5 * math.hypot(U, Vb)
    toff = np.array([rng.uniform(-1, 1) * max(0, Tw / 2 - bh - 40), rng.uniform(-1, 1) * max(0, Td / 2 - bh - 40)])
    # the photographer sits/stands at the table: extend the table toward the camera's foot point
    nad_t = Rta.T @ cam.C[:2]
    lo_t, hi_t = toff - [Tw / 2, Td / 2], toff + [Tw / 2, Td / 2]
    for i in range(2):
        e = abs(nad_t[i]) * rng.uniform(0.7, 1.05)
        if nad_t[i] > 0 and hi_t[i] < e:
            hi_t[i] = e
        elif nad_t[i] < 0 and lo_t[i] > -e:
            lo_t[i] = -e
    toff = (lo_t + hi_t) / 2
    Tw, Td = hi_t - lo_t
    V["table_mm"] = [round(float(Tw)), round(float(Td))]
    # world -> table-local:  tl = Rta^T (w - Rta toff)
    bs = 0.5 if max(W, H) > 3000 else 1.0  # background render scale
    BW, BH = int(math.ceil(CW * bs)), int(math.ceil(CH * bs))
    Mr = cam.rays(None, None, bs)  # world dir = Mr @ [x, y, 1]
    samp = np.array([[x, y] for x in np.linspace(0, BW, 9) for y in np.linspace(0, BH, 9)])
    dirs = np.c_[samp, np.ones(len(samp))] @ Mr.T
    pts = []
    for d in dirs:
        if d[2] < -1e-6:
            tt = min(-cam.C[2] / d[2], 3500 / np.linalg.norm(d))
        else:
            tt = 3500 / np.linalg.norm(d)
        pts.append(cam.C[:2] + tt * d[:2])
    pts = np.array(pts)
    tlp = (pts - Rta @ toff) @ Rta  # table-local (x, y)
    ex0, ex1 = max(-Tw / 2, tlp[:, 0].min()), min(Tw / 2, tlp[:, 0].max())
    ey0, ey1 = max(-Td / 2, tlp[:, 1].min()), min(Td / 2, tlp[:, 1].max())
    pt = clamp(min(ppm_c * bs, 2600 / max(ex1 - ex0, ey1 - ey0, 1)), 0.3, 8)
    tw_, th2 = max(8, int((ex1 - ex0) * pt)), max(8, int((ey1 - ey0) * pt))
    ttex, tinfo = table_texture(rng, th2, tw_, pt, tkind)
    V.update(tinfo)

    def w2t(wxy):  # world xy -> table texture px (tx right = table x, ty down = -table y)
        tl = (np.atleast_2d(wxy) - Rta @ toff) @ Rta
        return np.stack([(tl[:, 0] - ex0) * pt, (ey1 - tl[:, 1]) * pt], 1)

    def t_A():  # [tx, ty, 1] -> world at z=0
        A = np.zeros((3, 3))
        A[:2, 0] = Rta @ [1 / pt, 0]
        A[:2, 1] = Rta @ [0, -1 / pt]
        A[:2, 2] = Rta @ ([ex0 + 0.5 / pt, ey1 - 0.5 / pt]) + Rta @ toff
        return A

    # table edge darkening
    xx = (np.arange(tw_) / pt + ex0)[None, :]
    yy = (ey1 - np.arange(th2) / pt)[:, None]
    de = np.minimum(np.minimum(xx + Tw / 2, Tw / 2 - xx), np.minimum(yy + Td / 2, Td / 2 - yy))
    ttex *= (1 - 0.25 * np.clip(1 - de / 8, 0, 1))[..., None].astype(F32)
    # board contact shadow
    bfoot = w2t(board_world(edge[:4, 0], edge[:4, 1])[:, :2])
    lw = bl2world(lt)
    shw = w2t(board_world(edge[:4, 0], edge[:4, 1])[:, :2] - lw * zb * sh_len * 2)
    sm = np.zeros((th2, tw_), np.uint8)
    fill_poly(sm, shw, (255, 255, 255))
    fill_poly(sm, bfoot, (255, 255, 255))
    sm = cv2.GaussianBlur(sm.astype(F32) / 255, (0, 0), max(1, 3 * pt))
    ttex *= (1 - 0.45 * sm)[..., None]
    ltex = w2t(cam.C[:2][None])[0]  # camera nadir in table-tex px
    ltdir_t = None
    lwt = Rta.T @ lw
    ltdir_t = np.array([lwt[0], -lwt[1]])  # toward light in table-tex coords

    # clutter
    clutter = []
    n_cl = int(rng.integers(1, 6))

    def free_spot(rad_mm):
        for _ in range(40):
            q = np.array([rng.uniform(0, CW), rng.uniform(0, CH)])
            d = Mr @ np.array([q[0] * bs, q[1] * bs, 1.0])
            if d[2] >= -1e-3:
                continue
            w = cam.C[:2] + (-cam.C[2] / d[2]) * d[:2]
            if np.linalg.norm(w - cam.C[:2]) > 2500:
                continue
            bl = np.linalg.solve(Rphi, w)
            bl = np.array([bl[0] + U / 2, Vb / 2 - bl[1]])
            if -rad_mm - 25 < bl[0] < U + rad_mm + 25 and -rad_mm - 25 < bl[1] < Vb + rad_mm + 25:
                continue
            tl = (w - Rta @ toff) @ Rta
            if abs(tl[0]) > Tw / 2 - 20 or abs(tl[1]) > Td / 2 - 20:
                continue
            return w
        return None

    kinds = list(rng.choice(["cards", "chips", "phone", "lid", "cup", "cards"], size=n_cl))
    kinds = [k for i, k in enumerate(kinds) if k in ("cards", "chips", "cup") or k not in kinds[:i]]
    cup_spots = []
    for kind in kinds:
        if kind == "cards":
            w = free_spot(110)
            if w is None:
                continue
            c0 = w2t(w[None])[0]
            n = int(rng.integers(3, 8))
            base_ang = rng.uniform(0, 2 * math.pi)
            cwpx, chpx = max(6, int(63 * pt)), max(8, int(88 * pt))
            face = rng.random() < 0.6
            for k in range(n):
                a = base_ang + (k - n / 2) * rng.uniform(0.1, 0.22)
                code = random_card(rng)
                if face and cwpx >= 16:
                    img, al = sprite_card_face(code, cwpx, chpx, st, rng)
                else:
                    img, al = sprite_card_back(cwpx, chpx, rng)
                off = np.array([math.sin(a), -math.cos(a)]) * 35 * pt
                so = -ltdir_t * 2 * sh_len * pt
                paste_sprite(ttex, img, al, c0[0] + off[0], c0[1] + off[1], -a, so, 1.2 * pt, 0.35)
            clutter.append("cards_face" if face else "cards_back")
        elif kind == "chips":
            w = free_spot(70)
            if w is None:
                continue
            c0 = w2t(w[None])[0]
            t = "BGR"[int(rng.integers(T))]
            rcp = 0.5 * cw * chip_d * pt
            n = int(rng.integers(4, 16))
            layer_pos = []
            for k in range(n):
                p = c0 + rng.normal(0, 22 * pt, 2)
                lvl = 0
                for q, l in layer_pos:
                    if np.linalg.norm(p - q) < 1.5 * rcp:
                        lvl = max(lvl, l + 1)
                layer_pos.append((p, lvl))
            sm = np.zeros(ttex.shape[:2], F32)
            for p, l in layer_pos:
                so = -ltdir_t * chip_th * (l + 1) * sh_len * pt
                cv2.circle(sm, (int((p[0] + so[0]) * 16), int((p[1] + so[1]) * 16)), int(rcp * 16), 1.0, -1, cv2.LINE_8, 4)
            sm = cv2.GaussianBlur(sm, (0, 0), max(0.8, rcp * 0.12))
            ttex *= (1 - 0.4 * sm)[..., None]
            for p, l in sorted(layer_pos, key=lambda z: z[1]):
                hgt = chip_th * (l + 1)
                disp = (p - ltex) * hgt / max(cam.C[2] - hgt, 50)
                base = p + (p - ltex) * (chip_th * l) / max(cam.C[2], 50)
                draw_chip(ttex, base[0], base[1], rcp, disp, np.clip(cols[t] * rng.uniform(0.95, 1.05, 3), 0, 1), ltdir_t, cp)
            clutter.append("chips")
        elif kind == "phone":
            w = free_spot(85)
            if w is None:
                continue
            c0 = w2t(w[None])[0]
            img, al, pk = sprite_phone(pt, rng)
            paste_sprite(ttex, img, al, c0[0], c0[1], rng.uniform(0, 2 * math.pi), -ltdir_t * 8 * sh_len * pt, 2 * pt, 0.45)
            clutter.append(pk)
        elif kind == "lid":
            w = free_spot(170)
            if w is None:
                continue
            c0 = w2t(w[None])[0]
            img, al = sprite_lid(pt, rng, font)
            paste_sprite(ttex, img, al, c0[0], c0[1], rng.uniform(0, 2 * math.pi), -ltdir_t * 45 * sh_len * pt, 4 * pt, 0.5)
            clutter.append("box_lid")
        elif kind == "cup":
            w = free_spot(60)
            if w is None:
                continue
            cup_spots.append(w)
            clutter.append("cup")
    V["clutter"] = clutter
    ttex = np.clip(ttex, 0, 1)

    # ---- background: wall, floor, table (at scale bs)
    xsb = np.arange(BW, dtype=F32)[None, :]
    ysb = np.arange(BH, dtype=F32)[:, None]
    dz = Mr[2, 0] * xsb + Mr[2, 1] * ysb + Mr[2, 2]
    dn = np.sqrt((Mr[0, 0] * xsb + Mr[0, 1] * ysb + Mr[0, 2]) ** 2 + (Mr[1, 0] * xsb + Mr[1, 1] * ysb + Mr[1, 2]) ** 2 + dz ** 2)
    dzn = dz / dn
    table_h = rng.uniform(700, 780)
    floor_dist = np.where(dzn < -1e-3, (cam.C[2] + table_h) / np.maximum(-dzn, 1e-3), 1e9)
    wall_col = np.array([rng.uniform(0.55, 0.85), rng.uniform(0.5, 0.8), rng.uniform(0.45, 0.75)], F32) * rng.uniform(0.6, 1.0)
    bg = np.empty((BH, BW, 3), F32)
    bg[:] = wall_col * (0.8 + 0.25 * (ysb / BH))[..., None]
    ftex, fkind = floor_texture(rng)
    pf = rng.uniform(0.25, 0.5)
    A = np.zeros((3, 3)); A[0, 0] = 1 / pf; A[1, 1] = -1 / pf; A[0, 2] = cam.C[0] - 900; A[1, 2] = cam.C[1] + 900; A[2, 2] = -table_h
    Hf = cam.plane_h(A, bs)
    fl = cv2.warpPerspective(ftex, Hf, (BW, BH), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_WRAP)
    fmask = np.clip((4500 - floor_dist) / 1000, 0, 1)[..., None]
    fog = np.clip(floor_dist / 6000, 0, 0.6)[..., None]
    fl = fl * (1 - fog) + wall_col * 0.6 * fog
    bg = bg * (1 - fmask) + fl * 0.7 * fmask
    Ht = cam.plane_h(t_A(), bs)
    res = warp_rgba(np.dstack([ttex, np.ones(ttex.shape[:2], F32)]), Ht, BW, BH)
    tdist = np.where(dzn < -1e-3, cam.C[2] / np.maximum(-dzn, 1e-3), 1e9)
    if res is not None:
        (y0, y1, x0, x1), o = res
        a = o[..., 3:4] * (dzn[y0:y1, x0:x1] < -1e-3)[..., None]
        bg[y0:y1, x0:x1] = bg[y0:y1, x0:x1] * (1 - a) + o[..., :3] * a
        tdist = np.where(np.isfinite(tdist), tdist, 1e9)
    # defocus grows with distance from the focus plane
    focus = dist
    blur_big = cv2.GaussianBlur(bg, (0, 0), max(1.0, S * bs / 250))
    wgt = np.clip((np.minimum(tdist, floor_dist) - focus * 1.35) / (focus * 1.5), 0, 1)[..., None]
    bg = bg * (1 - wgt) + blur_big * wgt
    bg = cv2.GaussianBlur(bg, (0, 0), 0.6)
    if bs != 1.0:
        bg = cv2.resize(bg, (CW, CH), interpolation=cv2.INTER_LINEAR)
    canvas = bg
    del bg, blur_big, fl

    # ---- board (two halves, premultiplied accumulation)
    btex = np.dstack([texf, np.ones((TH, TW), F32)])
    S_tex = np.array([[1 / pxmm, 0, 0.5 / pxmm], [0, 1 / pxmm, 0.5 / pxmm], [0, 0, 1.0]])
    board_mask = np.zeros((CH, CW), F32)
    board_rgb = np.zeros((CH, CW, 3), F32)
    nrm_flat = np.array([0, 0, 1.0])
    Lw = np.r_[lw * math.cos(l_el), math.sin(l_el)]
    for half in (0, 1):
        Ah = half_A(half)
        nrm = np.cross(Ah[:, 0], Ah[:, 1]); nrm /= np.linalg.norm(nrm)
        if nrm[2] < 0:
            nrm = -nrm
        shade = clamp(1 + 0.8 * (nrm @ Lw - nrm_flat @ Lw), 0.8, 1.2)
        if fold_axis == "h":
            F = Vb / 2 * pxmm - 0.5
            ii = np.arange(TH, dtype=F32)
            fr_ = np.clip(F - (ii - 0.5), 0, 1)
            m = (fr_ if half == 0 else 1 - fr_)[:, None] * np.ones((1, TW), F32)
        else:
            F = U / 2 * pxmm - 0.5
            ii = np.arange(TW, dtype=F32)
            fr_ = np.clip(F - (ii - 0.5), 0, 1)
            m = np.ones((TH, 1), F32) * (fr_ if half == 0 else 1 - fr_)[None, :]
        src = np.dstack([texf * (m * shade)[..., None], m])
        Hb = cam.plane_h(Ah @ S_tex)
        res = warp_rgba(src, Hb, CW, CH)
        if res is None:
            continue
        (y0, y1, x0, x1), o = res
        board_rgb[y0:y1, x0:x1] += o[..., :3]
        board_mask[y0:y1, x0:x1] += o[..., 3]
        del src, o
    board_mask = np.minimum(board_mask, 1.0)
    canvas *= (1 - board_mask)[..., None]
    canvas += board_rgb
    del btex, board_rgb

    # ---- overlays: hand, objects lying on the board, cups
    occ = np.zeros((CH, CW), F32)
    overlays = []
    if rng.random() < 0.3 or FORCE.get("hand"):
        hp = clamp(ppm_c * 0.8, 0.8, 3.0)
        hrgb, ha, (hx0, hy0), hinfo = make_hand(rng, hp)
        normals = [np.array([0, -1.0]), np.array([1.0, 0]), np.array([0, 1.0]), np.array([-1.0, 0])]
        # the arm reaches in from the photographer's side or a neighbour's, not from the far side
        tocam = nad - np.array([U / 2, Vb / 2])
        if np.linalg.norm(tocam) > 0.25 * max(U, Vb):
            tocam = tocam / np.linalg.norm(tocam)
            wts = np.array([max(0.0, n @ tocam + 0.35) for n in normals])
        else:
            wts = np.ones(4)
        edge_k = int(rng.choice(4, p=wts / wts.sum()))
        depth = rng.uniform(0.3, 4.5)
        lat = rng.uniform(1.0, 9.0)
        if edge_k == 0:
            tip = np.array([mL + lat * cw, mT + depth * ch])
        elif edge_k == 1:
            tip = np.array([mL + 10 * cw - depth * cw, mT + lat * ch])
        elif edge_k == 2:
            tip = np.array([mL + lat * cw, mT + 10 * ch - depth * ch])
        else:
            tip = np.array([mL + depth * cw, mT + lat * ch])
        ax = rot2(math.radians(rng.normal(0, 25))) @ normals[edge_k]
        perp = np.array([-ax[1], ax[0]])
        Aff = np.eye(3)
        Aff[:2, 0] = ax / hp
        Aff[:2, 1] = perp / hp
        Aff[:2, 2] = tip + ax * hx0 + perp * hy0
        overlays.append(("hand", hrgb, ha, Aff, rng.uniform(15, 30)))
        hinfo["edge"] = ["top", "right", "bottom", "left"][edge_k]
        hinfo["depth_cells"] = round(depth, 2)
        V["hand"] = hinfo
    if rng.random() < 0.12:
        kind = "card" if rng.random() < 0.6 else "phone"
        if kind == "card":
            pp = clamp(ppm_c, 1, 6)
            if rng.random() < 0.5:
                img, al = sprite_card_face(random_card(rng), int(63 * pp), int(88 * pp), st, rng)
            else:
                img, al = sprite_card_back(int(63 * pp), int(88 * pp), rng)
            hgt = 1.0
        else:
            pp = clamp(ppm_c, 1, 6)
            img, al, _ = sprite_phone(pp, rng)
            hgt = 8.0
        oh, ow = al.shape
        ang = rng.uniform(0, 2 * math.pi)
        side = int(rng.integers(4))
        along = rng.uniform(0.1, 0.9)
        inset = rng.uniform(0.3, 1.4)  # how far (in cells) its centre lies inside the grid edge
        if side == 0:
            ctr = np.array([mL + along * 10 * cw, mT + inset * ch - 30])
        elif side == 1:
            ctr = np.array([mL + 10 * cw - inset * cw + 30, mT + along * 10 * ch])
        elif side == 2:
            ctr = np.array([mL + along * 10 * cw, mT + 10 * ch - inset * ch + 30])
        else:
            ctr = np.array([mL + inset * cw - 30, mT + along * 10 * ch])
        Rr = rot2(ang)
        Aff = np.eye(3)
        Aff[:2, :2] = Rr / pp
        Aff[:2, 2] = ctr - Rr @ np.array([ow / 2, oh / 2]) / pp
        o_rgb = img.astype(F32) / 255
        o_a = cv2.GaussianBlur(al.astype(F32) / 255, (0, 0), 0.5)
        overlays.append((kind, o_rgb, o_a, Aff, hgt))
        V["object_on_board"] = kind
    for name, orgb, oa, Aff, hgt in overlays:
        # shadow on the board plane
        so = -lt * hgt * sh_len
        Ash = Aff.copy(); Ash[:2, 2] += so
        Hs = cam.plane_h(flat_A(zb) @ Ash)
        sblur = max(1.0, hgt * 0.35 * ppm_c)
        res = warp_rgba(oa, Hs, CW, CH)
        if res is not None:
            (y0, y1, x0, x1), o = res
            pad = int(3 * sblur)
            yy0, yy1, xx0, xx1 = max(0, y0 - pad), min(CH, y1 + pad), max(0, x0 - pad), min(CW, x1 + pad)
            sm = np.zeros((yy1 - yy0, xx1 - xx0), F32)
            sm[y0 - yy0:y1 - yy0, x0 - xx0:x1 - xx0] = o[..., 0]
            sm = cv2.GaussianBlur(sm, (0, 0), sblur)
            canvas[yy0:yy1, xx0:xx1] *= (1 - rng.uniform(0.35, 0.55) * sm)[..., None]
        Ho = cam.plane_h(flat_A(zb + hgt) @ Aff)
        res = warp_rgba(np.dstack([orgb * oa[..., None], oa]), Ho, CW, CH)
        if res is None:
            continue
        (y0, y1, x0, x1), o = res
        canvas[y0:y1, x0:x1] = canvas[y0:y1, x0:x1] * (1 - o[..., 3:4]) + o[..., :3]
        occ[y0:y1, x0:x1] = np.maximum(occ[y0:y1, x0:x1], o[..., 3])

    for w in cup_spots:
        draw_cup(rng, cam, canvas, occ, w, Lw, light_rgb)

    # ---- occlusion labels (in the undistorted canvas)
    occluded = []
    if occ.max() > 0.05:
        for idx in range(100):
            r, c = divmod(idx, 10)
            q = np.array([[mL + c * cw, mT + r * ch], [mL + (c + 1) * cw, mT + r * ch],
                          [mL + (c + 1) * cw, mT + (r + 1) * ch], [mL + c * cw, mT + (r + 1) * ch]])
            # a cell may straddle the fold only on its border; sample 3x3 points per edge via board_world
            pc = cam.project(board_world(q[:, 0], q[:, 1])) + [ox, oy]
            x0, y0 = np.floor(pc.min(0)).astype(int)
            x1, y1 = np.ceil(pc.max(0)).astype(int) + 1
            x0, y0 = max(0, x0), max(0, y0)
            x1, y1 = min(CW, x1), min(CH, y1)
            if x1 <= x0 or y1 <= y0:
                continue
            sub = occ[y0:y1, x0:x1]
            if sub.max() < 0.5:
                continue
            m = np.zeros(sub.shape, np.uint8)
            fill_poly(m, pc - [x0, y0], (1, 1, 1))
            area = m.sum()
            if area > 0 and ((sub > 0.5) & (m > 0)).sum() > 0.5 * area:
                occluded.append([r, c])

    # ---- lighting in the scene (smooth fields at low resolution)
    ls = 16
    lw_, lh_ = max(4, CW // ls), max(4, CH // ls)
    gx = np.linspace(-0.5, 0.5, lw_, dtype=F32)[None, :] * (CW / S)
    gy = np.linspace(-0.5, 0.5, lh_, dtype=F32)[:, None] * (CH / S)
    ga = rng.uniform(0, 2 * math.pi)
    gs = rng.uniform(0.0, 0.5)
    field = np.clip(1 + gs * (gx * math.cos(ga) + gy * math.sin(ga)), 0.55, 1.4)
    field = np.repeat(field[..., None], 3, 2) * light_rgb[None, None, :]
    if rng.random() < 0.25:  # a second light colour across the frame
        t2 = rng.uniform(2700, 6500)
        l2 = kelvin_rgb(t2); l2 = l2 / l2.max()
        mix = np.clip(0.5 + (gx * math.sin(ga) - gy * math.cos(ga)), 0, 1)[..., None] * rng.uniform(0.3, 0.7)
        field = field * (1 - mix) + l2[None, None, :] * mix
        V["second_light_K"] = round(t2, 0)
    if rng.random() < 0.45:  # soft shadow of the photographer / phone
        sm = np.zeros((lh_, lw_), np.uint8)
        ccx, ccy = rng.uniform(0, lw_), rng.uniform(0, lh_)
        if rng.random() < 0.5:
            cv2.ellipse(sm, (int(ccx), int(ccy)), (int(rng.uniform(0.15, 0.45) * lw_), int(rng.uniform(0.15, 0.45) * lh_)),
                        rng.uniform(0, 180), 0, 360, 255, -1)
        else:
            a = rng.uniform(0, 2 * math.pi)
            L = max(lw_, lh_)
            p0 = (int(ccx), int(ccy))
            p1 = (int(ccx + math.cos(a) * L), int(ccy + math.sin(a) * L))
            cv2.line(sm, p0, p1, 255, int(rng.uniform(0.15, 0.35) * min(lw_, lh_)))
        sm = cv2.GaussianBlur(sm.astype(F32) / 255, (0, 0), rng.uniform(0.03, 0.1) * max(lw_, lh_))
        dark = rng.uniform(0.15, 0.45)
        field *= (1 - dark * sm)[..., None]
        V["soft_shadow"] = round(dark, 2)
    expo = rng.uniform(0.82, 1.12)
    field *= expo
    field = cv2.resize(field, (CW, CH), interpolation=cv2.INTER_LINEAR)
    canvas *= field
    del field
    if rng.random() < 0.3:  # specular glare on the glossy board
        gwid = rng.uniform(0.03, 0.12) * S
        pb = cam.project(board_world(*np.array([[rng.uniform(0.1, 0.9) * U], [rng.uniform(0.1, 0.9) * Vb]]))) + [ox, oy]
        gcx, gcy = pb[0]
        x0, x1 = int(max(0, gcx - 4 * gwid)), int(min(CW, gcx + 4 * gwid))
        y0, y1 = int(max(0, gcy - 4 * gwid)), int(min(CH, gcy + 4 * gwid))
        if x1 > x0 and y1 > y0:
            yy, xx = np.mgrid[y0:y1, x0:x1].astype(F32)
            a = rng.uniform(0, math.pi)
            u_ = (xx - gcx) * math.cos(a) + (yy - gcy) * math.sin(a)
            v_ = -(xx - gcx) * math.sin(a) + (yy - gcy) * math.cos(a)
            asp = rng.uniform(1.2, 3.5)
            g = np.exp(-(u_ ** 2 / (2 * (gwid * asp) ** 2) + v_ ** 2 / (2 * gwid ** 2)))
            g = np.minimum(1.0, g * 1.4)
            gi = rng.uniform(0.2, 0.6)
            g = g * gi * board_mask[y0:y1, x0:x1] * (1 - occ[y0:y1, x0:x1])
            roi = canvas[y0:y1, x0:x1]
            roi[:] = roi * (1 - 0.5 * g[..., None]) + (g[..., None] * 1.1) * spec_col
            V["glare"] = round(gi, 2)

    # ---- lens: distortion remap to the final frame
    xs = ((np.arange(W, dtype=F32) - cx) / f)[None, :]
    ys = ((np.arange(H, dtype=F32) - cy) / f)[:, None]
    r2 = xs * xs + ys * ys
    facd = 1 + k1 * r2 + k2 * r2 * r2
    mapx = (cx + ox + xs * facd * f).astype(F32)
    mapy = (cy + oy + ys * facd * f).astype(F32)
    del r2, facd
    img = cv2.remap(canvas, mapx, mapy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    del canvas, mapx, mapy

    # vignetting + white balance gains
    vl = max(4, W // 16), max(4, H // 16)
    vx = np.linspace(-1, 1, vl[0], dtype=F32)[None, :] * (W / math.hypot(W, H))
    vy = np.linspace(-1, 1, vl[1], dtype=F32)[:, None] * (H / math.hypot(W, H))
    vig = rng.uniform(0.1, 0.45)
    vf = (1 - vig * (vx * vx + vy * vy) ** 1.2)
    vf = np.repeat(vf[..., None], 3, 2) * gains.astype(F32)[None, None, :]
    vf = cv2.resize(vf, (W, H), interpolation=cv2.INTER_LINEAR)
    img *= vf
    del vf
    V.update(vignette=round(vig, 3), wb_gains=[round(float(g), 3) for g in gains], exposure=round(expo, 3))

    # blur
    sc = S / 1080
    if rng.random() < 0.6:
        sig = rng.uniform(0.3, 0.9) * max(sc, 0.8)
        img = cv2.GaussianBlur(img, (0, 0), sig)
        V["defocus_sigma"] = round(sig, 2)
    if rng.random() < 0.25:
        L = max(1, int(round(rng.uniform(0.6, 2.6) * max(sc, 0.8))))
        k = np.zeros((2 * L + 1, 2 * L + 1), np.float32)
        a = rng.uniform(0, math.pi)
        cv2.line(k, (int(L - L * math.cos(a)), int(L - L * math.sin(a))), (int(L + L * math.cos(a)), int(L + L * math.sin(a))), 1.0, 1, cv2.LINE_AA)
        k /= k.sum()
        img = cv2.filter2D(img, -1, k)
        V["motion_blur_px"] = L * 2
    # tone: saturation + contrast curve, then noise
    sat = rng.uniform(0.95, 1.25)
    gray = img.mean(2, keepdims=True)
    img = gray + (img - gray) * sat
    if rng.random() < 0.4:
        bl = cv2.GaussianBlur(img, (0, 0), 1.5 * sc)
        amt = rng.uniform(0.3, 0.8)
        img = img + amt * (img - bl)
        V["sharpen"] = round(amt, 2)
    img = np.clip(img, 0, 1.2)
    img = img / (1 + 0.15 * img) * 1.15  # soft shoulder
    nsig = rng.uniform(1.0, 5.0)
    noise = np.empty((H, W, 3), F32)
    cv2.randn(noise, (0, 0, 0), (nsig / 255,) * 3)
    img += noise * (0.6 + 0.8 * np.sqrt(np.clip(img.mean(2, keepdims=True), 0, 1)))
    del noise
    cn = np.empty((max(2, H // 4), max(2, W // 4), 3), F32)
    cv2.randn(cn, (0, 0, 0), (nsig * 0.8 / 255,) * 3)
    img += cv2.resize(cn, (W, H), interpolation=cv2.INTER_LINEAR)
    out = np.clip(img * 255 + 0.5, 0, 255).astype(np.uint8)
    del img
    q = int(rng.integers(70, 96))
    V.update(saturation=round(sat, 3), noise_sigma=round(nsig, 2), jpeg_quality=q, teams=T)
    out = cv2.cvtColor(out, cv2.COLOR_RGB2BGR)
    ok, jpg = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, q])
    label = {
        "has_board": True,
        "image_size": [int(W), int(H)],
        "grid": rows,
        "teams": T,
        "occluded": occluded,
        "corners_px": [[round(float(x), 2), round(float(y), 2)] for x, y in corners_px],
        "board_fully_visible": True,
        "varied": V,
    }
    return jpg.tobytes(), label


def draw_cup(rng, cam, canvas, occ, w, Lw, light_rgb):
    CH, CW = canvas.shape[:2]
    r = rng.uniform(36, 46)
    h = rng.uniform(80, 110)
    rt = r * rng.uniform(1.0, 1.12)
    col = np.array([[0.92, 0.92, 0.9], [0.75, 0.15, 0.15], [0.15, 0.3, 0.6], [0.2, 0.2, 0.22], [0.9, 0.75, 0.3]][rng.integers(5)])
    n = 72
    ang = np.linspace(0, 2 * np.pi, n, endpoint=False)
    bot = np.stack([w[0] + r * np.cos(ang), w[1] + r * np.sin(ang), np.zeros(n)], 1)
    top = np.stack([w[0] + rt * np.cos(ang), w[1] + rt * np.sin(ang), np.full(n, h)], 1)
    off = np.array([cam.ox, cam.oy])
    pb = cam.project(bot) + off
    ptp = cam.project(top) + off
    Lh = Lw[:2] / max(1e-6, np.linalg.norm(Lw[:2]))
    sl = h / math.tan(math.asin(clamp(Lw[2], 0.2, 0.99)))
    shp = np.stack([w[0] - Lh[0] * sl + r * np.cos(ang), w[1] - Lh[1] * sl + r * np.sin(ang), np.zeros(n)], 1)
    allp = np.r_[pb, ptp, cam.project(shp) + off]
    x0, y0 = np.floor(allp.min(0) - 60).astype(int)
    x1, y1 = np.ceil(allp.max(0) + 60).astype(int)
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(CW, x1), min(CH, y1)
    if x1 - x0 < 3 or y1 - y0 < 3:
        return
    lay = np.zeros((y1 - y0, x1 - x0, 3), np.uint8)
    al = np.zeros((y1 - y0, x1 - x0), np.uint8)
    o = np.array([x0, y0])
    # shadow on the table
    Lh = Lw[:2] / max(1e-6, np.linalg.norm(Lw[:2]))
    sl = h / math.tan(math.asin(clamp(Lw[2], 0.2, 0.99)))
    shp = np.stack([w[0] - Lh[0] * sl + r * np.cos(ang), w[1] - Lh[1] * sl + r * np.sin(ang), np.zeros(n)], 1)
    sh = np.zeros((y1 - y0, x1 - x0), np.uint8)
    fill_poly(sh, cam.project(shp) + off - o, (255, 255, 255))
    fill_poly(sh, pb - o, (255, 255, 255))
    hull = cv2.convexHull(np.r_[cam.project(shp) + off, pb].astype(np.float32))
    fill_poly(sh, hull[:, 0, :] - o, (255, 255, 255))
    shf = cv2.GaussianBlur(sh.astype(F32) / 255, (0, 0), max(1.0, 0.08 * np.linalg.norm(pb[0] - pb[n // 2])))
    canvas[y0:y1, x0:x1] *= (1 - 0.45 * shf)[..., None]

    def handle(draw_back):
        ha = rng_handle
        hp = []
        for t in np.linspace(-0.5, 0.5, 16):
            rr = rt + 22 * math.cos(t * math.pi)
            hp.append([w[0] + rr * math.cos(ha), w[1] + rr * math.sin(ha), h * (0.55 - 0.5 * t)])
        hp = np.array(hp)
        depth = (hp.mean(0) - cam.C) @ cam.R[2]
        cdepth = (np.array([w[0], w[1], h / 2]) - cam.C) @ cam.R[2]
        if (depth > cdepth) == draw_back:
            pp = cam.project(hp) + off - o
            th = max(1, int(0.18 * np.linalg.norm(pb[0] - pb[n // 2]) / 2.2))
            cv2.polylines(lay, [np.round(pp * 16).astype(np.int32)], False, u8(col * 200), th, cv2.LINE_AA, 4)
            cv2.polylines(al, [np.round(pp * 16).astype(np.int32)], False, 255, th, cv2.LINE_AA, 4)

    rng_handle = rng.uniform(0, 2 * math.pi)
    handle(True)
    # sides: visible faces
    for i in range(n):
        j = (i + 1) % n
        mid = (bot[i] + bot[j] + top[i] + top[j]) / 4
        nrm = np.array([math.cos((ang[i] + ang[j]) / 2), math.sin((ang[i] + ang[j]) / 2), 0])
        if nrm @ (cam.C - mid) <= 0:
            continue
        lam = 0.45 + 0.55 * max(0.0, nrm @ Lw)
        spec = max(0.0, nrm @ ((Lw + (cam.C - mid) / np.linalg.norm(cam.C - mid)) / 2)) ** 40
        cc = np.clip(col * lam * light_rgb + spec * 0.6, 0, 1) * 255
        quad = np.array([pb[i], pb[j], ptp[j], ptp[i]]) - o
        fill_poly(lay, quad, cc)
        fill_poly(al, quad, (255, 255, 255))
    fill_poly(lay, ptp - o, col * 255 * 0.95)
    fill_poly(al, ptp - o, (255, 255, 255))
    inner = np.stack([w[0] + rt * 0.9 * np.cos(ang), w[1] + rt * 0.9 * np.sin(ang), np.full(n, h)], 1)
    fill_poly(lay, cam.project(inner) + off - o, col * 255 * 0.6)
    liq = np.stack([w[0] + rt * 0.86 * np.cos(ang), w[1] + rt * 0.86 * np.sin(ang), np.full(n, h - 14)], 1)
    lm = np.zeros(al.shape, np.uint8)
    fill_poly(lm, cam.project(liq) + off - o, (255, 255, 255))
    im = np.zeros(al.shape, np.uint8)
    fill_poly(im, cam.project(inner) + off - o, (255, 255, 255))
    lc = [(60, 35, 20), (150, 90, 40), (230, 225, 215)][rng.integers(3)]
    lay[(lm > 127) & (im > 127)] = lc
    handle(False)
    a = al.astype(F32)[..., None] / 255
    canvas[y0:y1, x0:x1] = canvas[y0:y1, x0:x1] * (1 - a) + lay.astype(F32) / 255 * a
    occ[y0:y1, x0:x1] = np.maximum(occ[y0:y1, x0:x1], a[..., 0])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("--n", type=int, default=80)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--start", type=int, default=0)
    args = ap.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    for i in range(args.start, args.n):
        t0 = time.time()
        jpg, label = render(args.seed, i)
        base = os.path.join(args.outdir, f"photo_{i:04d}")
        with open(base + ".jpg", "wb") as fh:
            fh.write(jpg)
        label["varied"]["render_s"] = round(time.time() - t0, 2)
        with open(base + ".json", "w") as fh:
            json.dump(label, fh, indent=1)
        print(f"photo_{i:04d} {label['image_size']} {time.time() - t0:.1f}s", flush=True)


if __name__ == "__main__":
    main()
