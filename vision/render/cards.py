"""Printed playing-card faces: the art of one board cell, or of a loose card on the table.

A ``CardStyle`` is drawn once per board (every cell of a board shares it); ``draw_card_face``
paints one card into a new BGR patch. Red suits are printed in the red ink, black suits in
the black ink; Aces carry one large suit symbol, Queens and Kings a coloured court figure.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np

from referee.cells import RED_SUITS
from vision.render.colours import BGR, jitter, pick
from vision.render.symbols import FONTS, draw_suit, draw_text, rank_text

FACE_LAYOUTS: Final = ("pips", "index", "big_suit", "minimal", "corner_only")

PAPERS: Final = ((250, 250, 250), (236, 246, 250), (220, 238, 246), (242, 242, 238), (205, 228, 240))
RED_INKS: Final = ((40, 30, 200), (30, 20, 170), (60, 40, 220), (50, 50, 190), (70, 30, 150))
BLACK_INKS: Final = ((25, 25, 25), (40, 30, 30), (60, 50, 45), (10, 10, 10))
FIGURE_BLUES: Final = ((150, 70, 20), (120, 50, 10), (180, 110, 40))
FIGURE_YELLOWS: Final = ((40, 190, 240), (60, 200, 230), (30, 160, 220))
SKINS_PRINTED: Final = ((180, 215, 245), (160, 200, 240), (200, 225, 250))
FIGURE_GREENS: Final = ((60, 130, 30), (90, 150, 60), (40, 100, 20))
# a court picture printed on a coloured ground instead of the paper, as some editions do
COURT_GROUNDS: Final = ((110, 40, 20), (40, 30, 140), (40, 110, 40), (40, 150, 200), (20, 20, 20), (200, 160, 90),
                        (120, 60, 110), (70, 90, 40))

# Pip positions for 2..10 in a unit card (x, y); pips below the middle are printed upside down.
PIPS: Final = {
    2: ((0.5, 0.18), (0.5, 0.82)),
    3: ((0.5, 0.18), (0.5, 0.5), (0.5, 0.82)),
    4: ((0.28, 0.18), (0.72, 0.18), (0.28, 0.82), (0.72, 0.82)),
    5: ((0.28, 0.18), (0.72, 0.18), (0.5, 0.5), (0.28, 0.82), (0.72, 0.82)),
    6: ((0.28, 0.18), (0.72, 0.18), (0.28, 0.5), (0.72, 0.5), (0.28, 0.82), (0.72, 0.82)),
    7: ((0.28, 0.18), (0.72, 0.18), (0.5, 0.34), (0.28, 0.5), (0.72, 0.5), (0.28, 0.82), (0.72, 0.82)),
    8: ((0.28, 0.18), (0.72, 0.18), (0.5, 0.34), (0.28, 0.5), (0.72, 0.5), (0.5, 0.66), (0.28, 0.82),
        (0.72, 0.82)),
    9: ((0.28, 0.18), (0.72, 0.18), (0.28, 0.39), (0.72, 0.39), (0.5, 0.5), (0.28, 0.61), (0.72, 0.61),
        (0.28, 0.82), (0.72, 0.82)),
    10: ((0.28, 0.18), (0.72, 0.18), (0.5, 0.29), (0.28, 0.39), (0.72, 0.39), (0.28, 0.61),
         (0.72, 0.61), (0.5, 0.71), (0.28, 0.82), (0.72, 0.82)),
}
RANK_VALUE: Final = {"A": 1, "T": 10, **{str(v): v for v in range(2, 10)}}


@dataclass(frozen=True)
class CardStyle:
    """How every card of one printing looks."""

    layout: str  # one of FACE_LAYOUTS
    paper: BGR
    red_ink: BGR
    black_ink: BGR
    font: str
    text_weight: float  # stroke thickness / letter height
    index_size: float  # corner index letter height / card width
    indices: int  # corner indices printed: 1 (top-left) or 2 (and bottom-right, turned)
    outline: bool  # thin line around the card
    radius: float  # rounded corner radius / card width
    figure_blue: BGR
    figure_yellow: BGR
    figure_skin: BGR
    suit_size: float  # main suit symbol height / card height
    court_robes: tuple[BGR, BGR, BGR]  # a court figure's robe, its middle stripe and its sleeves
    court_ground: BGR | None  # the court picture's background, None for the paper
    court_width: float  # the court picture's width / card width


def sample_card_style(rng: np.random.Generator, *, layout: str | None = None) -> CardStyle:
    drawn = dict(  # in the order the sets were drawn in
        layout=layout or str(rng.choice(FACE_LAYOUTS, p=[0.35, 0.2, 0.2, 0.15, 0.1])),
        paper=jitter(rng, pick(rng, PAPERS), 6),
        red_ink=jitter(rng, pick(rng, RED_INKS), 12),
        black_ink=jitter(rng, pick(rng, BLACK_INKS), 8),
        font=str(rng.choice(list(FONTS))),
        text_weight=float(rng.uniform(0.08, 0.2)),
        index_size=float(rng.uniform(0.16, 0.26)),
        indices=int(rng.choice([1, 2])),
        outline=bool(rng.random() < 0.5),
        radius=float(rng.uniform(0.0, 0.12)),
        figure_blue=jitter(rng, pick(rng, FIGURE_BLUES), 15),
        figure_yellow=jitter(rng, pick(rng, FIGURE_YELLOWS), 15),
        figure_skin=jitter(rng, pick(rng, SKINS_PRINTED), 10),
        suit_size=float(rng.uniform(0.3, 0.5)),
    )
    return CardStyle(**drawn, **court_style(rng, drawn["red_ink"]))


def court_style(parent: np.random.Generator, red_ink: BGR) -> dict:
    """How a printing draws its queens and kings: the robe colours in any order (red, blue,
    yellow, green, black), on the paper or on a ground of its own, filling more or less of the card.

    Drawn from a stream spawned from ``parent``'s seed, which draws nothing from ``parent``:
    these came after the development and benchmark sets were made, and every other draw of
    those sets (so every photo but its court cards) stays as it was."""
    rng = np.random.default_rng(parent.bit_generator.seed_seq.spawn(1)[0])
    palette = [red_ink, jitter(rng, pick(rng, FIGURE_BLUES), 15), jitter(rng, pick(rng, FIGURE_YELLOWS), 15),
               jitter(rng, pick(rng, FIGURE_GREENS), 15), jitter(rng, pick(rng, BLACK_INKS), 8)]
    robes = tuple(palette[i] for i in rng.permutation(len(palette))[:3])
    ground = jitter(rng, pick(rng, COURT_GROUNDS), 20) if rng.random() < 0.35 else None
    return {"court_robes": robes, "court_ground": ground, "court_width": float(rng.uniform(0.55, 0.92))}


def ink_of(style: CardStyle, suit: str) -> BGR:
    return style.red_ink if suit in RED_SUITS else style.black_ink


def card_mask(w: int, h: int, radius_px: float) -> np.ndarray:
    """A uint8 mask (h, w) of a rounded rectangle filling the patch."""
    mask = np.zeros((h, w), np.uint8)
    r = int(round(min(radius_px, w / 2 - 1, h / 2 - 1)))
    if r < 1:
        mask[:] = 255
        return mask
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return mask


def draw_card_face(card: str, w: int, h: int, style: CardStyle) -> tuple[np.ndarray, np.ndarray]:
    """The printed face of ``card`` as a (h, w, 3) BGR patch and its (h, w) uint8 mask."""
    face = np.empty((h, w, 3), np.uint8)
    face[:] = style.paper
    rank, suit = card[0], card[1]
    ink = ink_of(style, suit)
    s = min(w, h / 1.15)  # a size that keeps art inside squat cells
    if style.layout == "minimal":
        _draw_minimal(face, rank, suit, ink, style, s)
    elif style.layout == "index":
        _draw_index(face, rank, suit, ink, style, s)
    else:
        has_index = True
        if rank in "JQK":
            _draw_court(face, rank, suit, ink, style, s)
        elif rank == "A" or style.layout in ("big_suit", "corner_only"):
            if style.layout != "corner_only" or rank == "A":
                size = (0.62 if rank == "A" else style.suit_size) * min(h, w * 1.2)
                draw_suit(face, suit, (w / 2, h / 2 + (0.04 * h if rank != "A" else 0)), size, ink)
        else:
            _draw_pips(face, rank, suit, ink, style, s)
        if has_index:
            _draw_indices(face, rank, suit, ink, style, s)
    mask = card_mask(w, h, style.radius * w)
    if style.outline:
        edge = cv2.morphologyEx(mask, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
        face[edge > 128] = (np.array(style.paper) * 0.55).astype(np.uint8)
    return face, mask


def _draw_indices(face: np.ndarray, rank: str, suit: str, ink: BGR, style: CardStyle, s: float) -> None:
    h, w = face.shape[:2]
    th = style.index_size * s
    text = rank_text(rank)
    x = max(0.1 * w, 0.35 * th * len(text) + 0.06 * w)
    y = 0.06 * h + th / 2
    draw_text(face, text, (x, y), th, ink, font=style.font, weight=style.text_weight)
    draw_suit(face, suit, (x, y + th * 1.15), th * 0.85, ink)
    if style.indices == 2:
        draw_text(face, text, (w - x, h - y), th, ink, font=style.font, weight=style.text_weight,
                  upside_down=True)
        draw_suit(face, suit, (w - x, h - y - th * 1.15), th * 0.85, ink, upside_down=True)


def _draw_pips(face: np.ndarray, rank: str, suit: str, ink: BGR, style: CardStyle, s: float) -> None:
    h, w = face.shape[:2]
    n = RANK_VALUE[rank]
    # pips live in the inner box between the indices
    bx0, bx1 = 0.2 * w, 0.8 * w
    by0, by1 = 0.06 * h, 0.94 * h
    size = min((by1 - by0) / (5.2 if n < 9 else 6.4), (bx1 - bx0) / (2.7 if n < 9 else 3.0))
    for px, py in PIPS[n]:
        cx = bx0 + px * (bx1 - bx0)
        cy = by0 + py * (by1 - by0)
        draw_suit(face, suit, (cx, cy), size, ink, upside_down=py > 0.55)


def _draw_index(face: np.ndarray, rank: str, suit: str, ink: BGR, style: CardStyle, s: float) -> None:
    """Big rank in the middle, suit symbol under it (many travel and large-print boards)."""
    h, w = face.shape[:2]
    th = 0.34 * s
    draw_text(face, rank_text(rank), (w / 2, h * 0.38), th, ink, font=style.font, weight=style.text_weight)
    draw_suit(face, suit, (w / 2, h * 0.72), 0.3 * s, ink)


def _draw_minimal(face: np.ndarray, rank: str, suit: str, ink: BGR, style: CardStyle, s: float) -> None:
    """Rank and suit side by side, nothing else."""
    h, w = face.shape[:2]
    text = rank_text(rank)
    th = (0.3 if len(text) == 1 else 0.24) * s
    draw_text(face, text, (w * (0.36 if len(text) == 1 else 0.32), h / 2), th, ink, font=style.font,
              weight=style.text_weight)
    draw_suit(face, suit, (w * 0.7, h / 2), 0.32 * s, ink)


def _draw_court(face: np.ndarray, rank: str, suit: str, ink: BGR, style: CardStyle, s: float) -> None:
    """A double-ended court figure in the printing's colours inside a frame, on the paper or a ground of its own."""
    h, w = face.shape[:2]
    x0, x1 = int((0.5 - style.court_width / 2) * w), int((0.5 + style.court_width / 2) * w)
    y0, y1 = int(0.1 * h), int(0.9 * h)
    fw, fh = x1 - x0, y1 - y0
    if fw < 6 or fh < 8:
        return
    art = np.empty((fh, fw, 3), np.uint8)
    art[:] = style.court_ground or style.paper
    half = fh // 2 + 1
    black = style.black_ink
    robe, stripe, sleeves = style.court_robes
    yellow, skin = style.figure_yellow, style.figure_skin
    cx = fw / 2
    head_r = 0.13 * fw
    head_y = 0.42 * half

    def poly(points: list[tuple[float, float]], colour: BGR) -> None:
        pts = np.round(np.array(points) * 16).astype(np.int32)
        cv2.fillPoly(art, [pts], colour, cv2.LINE_AA, 4)
        cv2.polylines(art, [pts], True, black, 1, cv2.LINE_AA, 4)

    # robe: shoulders to the middle, in stripes
    poly([(cx - 0.45 * fw, half), (cx - 0.36 * fw, head_y + 1.3 * head_r), (cx + 0.36 * fw, head_y + 1.3 * head_r),
          (cx + 0.45 * fw, half)], robe)
    poly([(cx - 0.14 * fw, half), (cx - 0.1 * fw, head_y + 1.3 * head_r), (cx + 0.1 * fw, head_y + 1.3 * head_r),
          (cx + 0.14 * fw, half)], stripe)
    poly([(cx - 0.36 * fw, head_y + 1.3 * head_r), (cx - 0.2 * fw, head_y + 1.3 * head_r),
          (cx - 0.28 * fw, half), (cx - 0.42 * fw, half)], sleeves)
    # hair and head
    cv2.ellipse(art, (int(cx), int(head_y + 0.2 * head_r)), (int(head_r * 1.3), int(head_r * 1.35)), 0, 0, 360,
                yellow if rank == "Q" else black, -1, cv2.LINE_AA)
    cv2.circle(art, (int(cx), int(head_y)), int(head_r), skin, -1, cv2.LINE_AA)
    cv2.circle(art, (int(cx), int(head_y)), int(head_r), black, 1, cv2.LINE_AA)
    if rank in "KJ":  # beard
        poly([(cx - 0.7 * head_r, head_y + 0.3 * head_r), (cx + 0.7 * head_r, head_y + 0.3 * head_r),
              (cx, head_y + 1.4 * head_r)], yellow)
    # crown
    cy = head_y - head_r
    tall = 1.0 if rank == "K" else 0.7
    poly([(cx - head_r, cy), (cx - head_r, cy - tall * head_r), (cx - 0.5 * head_r, cy - 0.5 * head_r),
          (cx, cy - tall * 1.2 * head_r), (cx + 0.5 * head_r, cy - 0.5 * head_r), (cx + head_r, cy - tall * head_r),
          (cx + head_r, cy)], yellow)
    draw_suit(art, suit, (0.82 * fw, 0.18 * half), 0.22 * fw, ink)
    art[fh - half:] = cv2.flip(art[:half], -1)
    art[half - 1: half + 1] = black
    cv2.rectangle(art, (0, 0), (fw - 1, fh - 1), style.figure_blue, max(1, fw // 40))
    face[y0:y1, x0:x1] = art
