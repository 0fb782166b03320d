"""The table under the board: its surface, its edge and what lies on it, seen from above.

``TableTexture`` is an image of a world rectangle (mm) at ``px_per_mm``; clutter is drawn
flat into it (cards, card backs and decks, loose chips, a phone, a notepad, a book) and,
for photos without a board, grid-like look-alikes (a chessboard, graph paper, another
board game, a tableau of cards).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

import cv2
import numpy as np

from referee.cells import DECK
from vision.render import textures
from vision.render.cards import CardStyle, card_mask, draw_card_face
from vision.render.chips import ChipPainter, ChipStyle
from vision.render.colours import BGR, from_hsv, jitter, mix, pick, scaled
from vision.render.symbols import draw_text

TABLE_KINDS: Final = ("wood", "cloth", "plain", "felt", "checks")
WOODS: Final = ((60, 110, 165), (40, 70, 110), (30, 45, 70), (150, 180, 200), (50, 80, 150), (90, 140, 190))
CLOTHS: Final = ((60, 110, 40), (130, 70, 30), (50, 50, 140), (170, 190, 200), (110, 110, 110), (40, 40, 40),
                 (120, 60, 100))
PLAINS: Final = ((235, 235, 232), (180, 180, 178), (40, 40, 40), (170, 200, 215), (120, 140, 150))
FLOORS: Final = ((40, 50, 60), (90, 100, 110), (30, 30, 30), (120, 130, 140), (60, 80, 110))
CLUTTER_KINDS: Final = ("card", "card_back", "deck", "chips", "phone", "notepad", "book")
LOOKALIKES: Final = ("chessboard", "graph_paper", "grid_game", "card_tableau")
CARD_MM: Final = (63.0, 88.0)


@dataclass(frozen=True)
class TableParams:
    kind: str
    colour: BGR
    colour_b: BGR  # second colour of a checked cloth
    check_mm: float
    grain_deg: float
    planks_mm: float
    floor: BGR
    edges_mm: tuple[float, float, float, float]  # table edge distance from the origin: left, top, right, bottom


def sample_table(rng: np.random.Generator, board_half: tuple[float, float], *, with_board: bool) -> TableParams:
    kind = str(rng.choice(TABLE_KINDS, p=[0.4, 0.2, 0.2, 0.1, 0.1] if with_board else [0.3, 0.2, 0.2, 0.1, 0.2]))
    palette = {"wood": WOODS, "cloth": CLOTHS, "plain": PLAINS, "felt": ((50, 110, 30), (110, 60, 20)),
               "checks": ((235, 235, 235),)}[kind]
    colour = jitter(rng, pick(rng, palette), 20)
    hw, hh = board_half
    reach = lambda: rng.uniform(60, 300) if rng.random() < 0.3 else rng.uniform(300, 1600)  # noqa: E731
    edges = tuple(float(v) for v in (-(hw + reach()), -(hh + reach()), hw + reach(), hh + reach()))
    return TableParams(kind=kind, colour=colour,
                       colour_b=from_hsv(rng.choice([0, 110, 60, 15]), rng.uniform(120, 230), rng.uniform(100, 200)),
                       check_mm=float(rng.uniform(10, 40)), grain_deg=float(rng.uniform(0, 180)),
                       planks_mm=float(rng.choice([0.0, rng.uniform(90, 200)])),
                       floor=jitter(rng, pick(rng, FLOORS), 20), edges_mm=edges)  # type: ignore[arg-type]


@dataclass(frozen=True)
class ClutterItem:
    kind: str
    x: float  # centre, world mm
    y: float
    angle_deg: float
    size_mm: tuple[float, float]
    seed: int  # details (card names, colours) come from their own generator
    colour: str = ""  # team colour of loose chips


@dataclass
class TableTexture:
    """A top view of the table: pixel (i, j) centre is world (x0 + (j + 0.5) / ppm, y0 + (i + 0.5) / ppm)."""

    image_bgr: np.ndarray
    x0: float
    y0: float
    px_per_mm: float
    drawn: list[str] = field(default_factory=list)

    def to_px(self, x: float, y: float) -> tuple[float, float]:
        return (x - self.x0) * self.px_per_mm - 0.5, (y - self.y0) * self.px_per_mm - 0.5


def sample_clutter(rng: np.random.Generator, table: TableParams, keep_out: tuple[float, float, float, float] | None,
                   view: tuple[float, float, float, float], *, lookalikes: int = 0) -> list[ClutterItem]:
    """Things lying on the table inside ``view`` (x0, y0, x1, y1 mm), none on ``keep_out``."""
    items: list[ClutterItem] = []
    count = int(rng.choice([0, 1, 2, 3, 4, 6, 8], p=[0.15, 0.15, 0.2, 0.2, 0.15, 0.1, 0.05]))
    kinds = [str(rng.choice(CLUTTER_KINDS, p=[0.25, 0.15, 0.12, 0.25, 0.08, 0.08, 0.07])) for _ in range(count)]
    kinds += [str(rng.choice(LOOKALIKES)) for _ in range(lookalikes)]
    sizes = {"card": CARD_MM, "card_back": CARD_MM, "deck": CARD_MM, "chips": (130.0, 130.0),
             "phone": (72.0, 150.0), "notepad": (105.0, 148.0), "book": (160.0, 235.0),
             "chessboard": (380.0, 380.0), "graph_paper": (210.0, 297.0), "grid_game": (420.0, 420.0),
             "card_tableau": (330.0, 300.0)}
    vx0, vy0, vx1, vy1 = view
    tx0, ty0, tx1, ty1 = table.edges_mm
    x0, y0, x1, y1 = max(vx0, tx0), max(vy0, ty0), min(vx1, tx1), min(vy1, ty1)
    if x1 <= x0 or y1 <= y0:
        return items  # the camera sees no part of the table top
    for kind in kinds:
        w, h = sizes[kind]
        scale = rng.uniform(0.85, 1.15) if kind in ("grid_game", "book", "notepad") else 1.0
        w, h = w * scale, h * scale
        for _ in range(30):
            x, y = rng.uniform(x0, x1), rng.uniform(y0, y1)
            r = 0.5 * np.hypot(w, h)
            if keep_out is not None:
                kx0, ky0, kx1, ky1 = keep_out
                if kx0 - r * 0.8 < x < kx1 + r * 0.8 and ky0 - r * 0.8 < y < ky1 + r * 0.8:
                    continue
            items.append(ClutterItem(kind=kind, x=float(x), y=float(y), angle_deg=float(rng.uniform(0, 360)),
                                     size_mm=(float(w), float(h)), seed=int(rng.integers(2**31)),
                                     colour=str(rng.choice(list("BGR")))))
            break
    return items


def draw_table(rng: np.random.Generator, table: TableParams, region: tuple[float, float, float, float],
               px_per_mm: float) -> TableTexture:
    """The bare table (and floor beyond its edges) over ``region`` (x0, y0, x1, y1 mm)."""
    x0, y0, x1, y1 = region
    w = max(8, int(np.ceil((x1 - x0) * px_per_mm)))
    h = max(8, int(np.ceil((y1 - y0) * px_per_mm)))
    s = px_per_mm
    if table.kind == "wood":
        image = textures.wood(rng, h, w, table.colour, s, angle_deg=table.grain_deg, planks_mm=table.planks_mm)
    elif table.kind == "cloth":
        image = textures.weave(rng, h, w, table.colour, s)
    elif table.kind == "felt":
        image = textures.felt(rng, h, w, table.colour, s)
    elif table.kind == "checks":
        image = textures.checks(rng, h, w, table.colour, table.colour_b, table.check_mm * s)
    else:
        image = textures.plain(rng, h, w, table.colour, s)
    tex = TableTexture(image, x0, y0, px_per_mm)
    # the floor beyond the table's edges: out of focus, darker
    ex0, ey0, ex1, ey1 = table.edges_mm
    p0, p1 = tex.to_px(ex0, ey0), tex.to_px(ex1, ey1)
    c0, r0 = int(np.clip(p0[0], 0, w)), int(np.clip(p0[1], 0, h))
    c1, r1 = int(np.clip(p1[0], 0, w)), int(np.clip(p1[1], 0, h))
    if (c0, r0, c1, r1) != (0, 0, w, h):
        floor = textures.plain(rng, h, w, table.floor, s * 0.2)
        floor[r0:r1, c0:c1] = image[r0:r1, c0:c1]
        cv2.rectangle(floor, (c0, r0), (c1 - 1, r1 - 1), scaled(table.colour, 0.6), max(1, int(3 * s)))
        tex.image_bgr = floor
    return tex


def _paste_rotated(tex: TableTexture, patch: np.ndarray, mask: np.ndarray, x: float, y: float, angle: float,
                   px_per_px: float, *, shadow: float = 0.25) -> None:
    """Pastes ``patch`` (BGR, with a uint8 ``mask``) centred at world (x, y), turned by ``angle`` degrees,
    scaled by ``px_per_px`` (texture pixels per patch pixel), with a faint contact shadow."""
    img = tex.image_bgr
    cx, cy = tex.to_px(x, y)
    ph, pw = patch.shape[:2]
    m = cv2.getRotationMatrix2D((pw / 2, ph / 2), angle, px_per_px)
    m[:, 2] += (cx - pw / 2, cy - ph / 2)
    half = 0.5 * np.hypot(pw, ph) * px_per_px + 6
    bx0, by0 = max(0, int(cx - half)), max(0, int(cy - half))
    bx1, by1 = min(img.shape[1], int(cx + half) + 1), min(img.shape[0], int(cy + half) + 1)
    if bx1 <= bx0 or by1 <= by0:
        return
    m[:, 2] -= (bx0, by0)
    size = (bx1 - bx0, by1 - by0)
    warped = cv2.warpAffine(patch, m, size, flags=cv2.INTER_AREA if px_per_px < 1 else cv2.INTER_LINEAR)
    alpha = cv2.warpAffine(mask, m, size).astype(np.float32) / 255
    region = img[by0:by1, bx0:bx1].astype(np.float32)
    if shadow > 0:
        sh = cv2.GaussianBlur(alpha, (0, 0), 1.5 + 2 * tex.px_per_mm)
        sh = np.roll(sh, (int(2 * tex.px_per_mm), int(2 * tex.px_per_mm)), axis=(0, 1))
        region *= (1 - shadow * sh)[..., None]
    a = alpha[..., None]
    img[by0:by1, bx0:bx1] = np.clip(region * (1 - a) + warped * a, 0, 255).astype(np.uint8)


def card_back(style_rng: np.random.Generator, w: int, h: int) -> tuple[np.ndarray, np.ndarray]:
    """A patterned card back (red or blue lattice on a white border)."""
    colour = pick(style_rng, ((40, 40, 170), (150, 70, 30), (40, 100, 40), (30, 30, 30)))
    face = np.full((h, w, 3), 245, np.uint8)
    b = max(2, int(0.07 * w))
    face[b : h - b, b : w - b] = colour
    step = max(3, int(w / style_rng.uniform(6, 12)))
    light = mix(colour, (255, 255, 255), 0.45)
    for k in range(-h, w + h, step):
        cv2.line(face, (k, b), (k + h, h - b), light, 1, cv2.LINE_AA)
        cv2.line(face, (k, h - b), (k + h, b), light, 1, cv2.LINE_AA)
    face[:b], face[h - b :], face[:, :b], face[:, w - b :] = 245, 245, 245, 245
    return face, card_mask(w, h, 0.06 * w)


def draw_clutter(tex: TableTexture, items: list[ClutterItem], card_style: CardStyle, chips: ChipStyle,
                 chip_mm: float, chip_parallax: tuple[float, float], light_dir: tuple[float, float]) -> None:
    """Draws ``items`` into the table texture, in order; loose chips are ``chip_mm`` across."""
    s = tex.px_per_mm
    for item in items:
        r = np.random.default_rng(item.seed)
        w_mm, h_mm = item.size_mm
        pw, ph = max(8, int(w_mm * s * 1.5)), max(8, int(h_mm * s * 1.5))  # patches drawn a bit finer
        k = 1 / 1.5
        if item.kind == "card":
            face, mask = draw_card_face(str(r.choice([c for c in DECK if c[0] != "J" or r.random() < 0.5])), pw, ph,
                                        card_style)
            _paste_rotated(tex, face, mask, item.x, item.y, item.angle_deg, k)
        elif item.kind in ("card_back", "deck"):
            face, mask = card_back(r, pw, ph)
            layers = int(r.integers(4, 12)) if item.kind == "deck" else 1
            for layer in range(layers):
                off = (layers - layer) * 0.35
                edge = face if layer == layers - 1 else np.full_like(face, 225 - 4 * (layer % 3))
                _paste_rotated(tex, edge, mask, item.x + off, item.y + off, item.angle_deg, k,
                               shadow=0.3 if layer == 0 else 0.0)
        elif item.kind == "chips":
            _draw_chip_pile(tex, item, r, chips, chip_mm, chip_parallax, light_dir)
        elif item.kind == "phone":
            _paste_rotated(tex, *_phone(r, pw, ph), item.x, item.y, item.angle_deg, k, shadow=0.4)
        elif item.kind == "notepad":
            _paste_rotated(tex, *_paper(r, pw, ph, grid=0), item.x, item.y, item.angle_deg, k)
        elif item.kind == "book":
            _paste_rotated(tex, *_book(r, pw, ph, card_style.font), item.x, item.y, item.angle_deg, k, shadow=0.45)
        elif item.kind == "chessboard":
            _paste_rotated(tex, *_grid_object(r, pw, ph, cells=8, chess=True), item.x, item.y, item.angle_deg, k)
        elif item.kind == "graph_paper":
            _paste_rotated(tex, *_paper(r, pw, ph, grid=int(r.choice([8, 10, 12, 20]))), item.x, item.y,
                           item.angle_deg, k)
        elif item.kind == "grid_game":
            _paste_rotated(tex, *_grid_object(r, pw, ph, cells=int(r.integers(7, 16)), chess=False), item.x,
                           item.y, item.angle_deg, k)
        elif item.kind == "card_tableau":
            _draw_tableau(tex, item, r, card_style)
        tex.drawn.append(item.kind)


def _draw_chip_pile(tex: TableTexture, item: ClutterItem, r: np.random.Generator, chips: ChipStyle, chip_mm: float,
                    parallax: tuple[float, float], light_dir: tuple[float, float]) -> None:
    s = tex.px_per_mm
    radius = 0.5 * chip_mm * s
    if radius < 1.5:
        return
    painter = ChipPainter(chips, radius, light_dir=light_dir,
                          shadow_offset=(-light_dir[0] * 0.15 * radius, -light_dir[1] * 0.15 * radius),
                          max_parallax=abs(parallax[0]) + abs(parallax[1]) + 2)
    cx, cy = tex.to_px(item.x, item.y)
    n = int(r.integers(4, 24))
    spread = r.uniform(1.0, 3.0) * radius
    colour = chips.colour(item.colour) if r.random() < 0.7 else chips.colour(str(r.choice(list("BGR"))))
    for _ in range(n):
        px, py = cx + r.normal(0, spread), cy + r.normal(0, spread)
        painter.paint(tex.image_bgr, (px, py), colour, parallax)


def _phone(r: np.random.Generator, w: int, h: int) -> tuple[np.ndarray, np.ndarray]:
    body = pick(r, ((20, 20, 20), (200, 200, 205), (60, 50, 40), (140, 90, 40)))
    if r.random() < 0.5:  # a case of any colour: green or red ones look like a chip's colour
        body = from_hsv(r.uniform(0, 180), r.uniform(80, 255), r.uniform(60, 230))
    face = np.empty((h, w, 3), np.uint8)
    face[:] = body
    b = int(0.05 * w)
    screen = np.linspace(25, 70, h, dtype=np.float32)[:, None] * np.ones((1, w - 2 * b), np.float32)
    face[b : h - b, b : w - b] = screen[b : h - b, :, None].astype(np.uint8)
    return face, card_mask(w, h, 0.14 * w)


def _paper(r: np.random.Generator, w: int, h: int, grid: int) -> tuple[np.ndarray, np.ndarray]:
    """A notepad sheet with ruled or squared lines and some pencil marks."""
    paper = pick(r, ((245, 245, 245), (190, 235, 245), (230, 240, 240)))
    face = np.empty((h, w, 3), np.uint8)
    face[:] = paper
    ink = pick(r, ((200, 160, 120), (160, 160, 160), (90, 90, 90)))
    if grid:
        step = w / (grid + 1)
        for i in range(grid + 1):
            p = int((i + 0.5) * step)
            cv2.line(face, (p, int(0.5 * step)), (p, int(0.5 * step + grid * step)), ink, 1, cv2.LINE_AA)
            cv2.line(face, (int(0.5 * step), p), (int(0.5 * step + grid * step), p), ink, 1, cv2.LINE_AA)
    else:
        for y in range(int(0.12 * h), h, max(4, int(0.05 * h))):
            cv2.line(face, (0, y), (w, y), ink, 1, cv2.LINE_AA)
    pen = pick(r, ((30, 30, 30), (140, 40, 20), (30, 30, 150)))
    for _ in range(int(r.integers(0, 8))):
        x, y = r.uniform(0.1, 0.7) * w, r.uniform(0.15, 0.9) * h
        pts = np.column_stack([x + np.cumsum(r.uniform(0, 0.04 * w, 12)), y + r.normal(0, 0.01 * h, 12)])
        cv2.polylines(face, [pts.astype(np.int32)], False, pen, max(1, w // 150), cv2.LINE_AA)
    return face, card_mask(w, h, 0.01 * w)


def _book(r: np.random.Generator, w: int, h: int, font: str) -> tuple[np.ndarray, np.ndarray]:
    colour = from_hsv(r.uniform(0, 180), r.uniform(40, 220), r.uniform(50, 220))
    face = textures.plain(r, h, w, colour, 1.0)
    cv2.rectangle(face, (0, 0), (int(0.06 * w), h), scaled(colour, 0.7), -1)
    ink = (240, 240, 240) if sum(colour) < 360 else (30, 30, 30)
    draw_text(face, "RULES" if r.random() < 0.5 else "GAMES", (w / 2, 0.25 * h), 0.08 * h, ink, font=font)
    return face, card_mask(w, h, 0.01 * w)


def _grid_object(r: np.random.Generator, w: int, h: int, cells: int, chess: bool) -> tuple[np.ndarray, np.ndarray]:
    """A chessboard or another square grid game: ``cells`` x ``cells`` squares inside a border."""
    border_colour = pick(r, ((30, 60, 110), (20, 20, 20), (200, 200, 200), (40, 90, 40)))
    face = np.empty((h, w, 3), np.uint8)
    face[:] = border_colour
    b = int(r.uniform(0.03, 0.08) * w)
    step = (min(w, h) - 2 * b) / cells
    light, dark = ((200, 225, 235), (60, 90, 130)) if chess else (None, None)
    palette = [from_hsv(r.uniform(0, 180), r.uniform(120, 255), r.uniform(120, 240)) for _ in range(4)]
    for i in range(cells):
        for j in range(cells):
            if chess:
                colour = light if (i + j) % 2 == 0 else dark
            else:
                colour = palette[int(r.integers(4))] if r.random() < 0.4 else (235, 235, 235)
            p0 = (int(b + j * step), int(b + i * step))
            p1 = (int(b + (j + 1) * step), int(b + (i + 1) * step))
            cv2.rectangle(face, p0, p1, colour, -1)
            if not chess:
                cv2.rectangle(face, p0, p1, (40, 40, 40), 1)
    return face, card_mask(w, h, 0.01 * w)


def _draw_tableau(tex: TableTexture, item: ClutterItem, r: np.random.Generator, style: CardStyle) -> None:
    """Cards laid out in rows, as for patience."""
    s = tex.px_per_mm
    pw, ph = int(CARD_MM[0] * s * 1.5), int(CARD_MM[1] * s * 1.5)
    if pw < 8:
        return
    rows, cols = int(r.integers(2, 4)), int(r.integers(3, 6))
    a = np.deg2rad(item.angle_deg)
    ux, uy = np.cos(a), -np.sin(a)
    for i in range(rows):
        for j in range(cols):
            dx, dy = (j - (cols - 1) / 2) * 70.0, (i - (rows - 1) / 2) * 95.0
            x = item.x + dx * ux - dy * uy
            y = item.y + dx * uy + dy * ux
            face, mask = draw_card_face(str(r.choice(DECK)), pw, ph, style)
            _paste_rotated(tex, face, mask, x, y, item.angle_deg, 1 / 1.5)

