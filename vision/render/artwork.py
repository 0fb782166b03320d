"""Procedural board artwork: the printed board seen straight from above, without chips.

The cells follow ``referee.cells.LAYOUT`` exactly, row 0 at the top of the image. The
artwork image's pixel grid is its own coordinate system: integer coordinates are pixel
centres (OpenCV's convention), so the grid's outer edge at pixel column ``x0`` lies at
``x0 - 0.5``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

import cv2
import numpy as np

from referee.cells import CORNER, LAYOUT, SIZE, cell
from vision.render import textures
from vision.render.cards import CardStyle, card_mask, draw_card_face, sample_card_style
from vision.render.colours import BGR, from_hsv, jitter, mix, pick, scaled
from vision.render.symbols import draw_text

# Border colours seen on real boards and plausible reprints; the key names the bucket.
MARGINS: Final[dict[str, tuple[BGR, str]]] = {
    "green": ((45, 105, 30), "felt"),
    "darkgreen": ((30, 60, 20), "felt"),
    "navy": ((90, 40, 20), "plain"),
    "blue": ((150, 80, 30), "plain"),
    "red": ((35, 30, 160), "plain"),
    "black": ((25, 25, 25), "plain"),
    "wood": ((60, 110, 160), "wood"),
    "white": ((235, 240, 240), "plain"),
    "cream": ((200, 225, 235), "plain"),
    "purple": ((100, 40, 80), "felt"),
    "grey": ((120, 120, 115), "plain"),
}
MARGIN_WEIGHTS: Final = (0.22, 0.08, 0.12, 0.08, 0.1, 0.1, 0.08, 0.08, 0.05, 0.04, 0.05)
# Grounds of boards that print small cards on coloured cells: pale tints and full colours.
INSET_GROUNDS: Final[tuple[BGR, ...]] = (
    (190, 225, 240), (235, 215, 185), (200, 195, 235), (200, 230, 200), (205, 205, 205),
    (170, 120, 60), (60, 60, 170), (60, 130, 50), (50, 170, 220),
)
INSET_SHARE: Final = 0.25  # printings whose small cards sit inset on a coloured ground
CORNER_STYLES: Final = ("disc", "rings", "star", "text", "flower")


@dataclass(frozen=True)
class ArtworkParams:
    """Everything that makes one printing of the board look the way it does."""

    card: CardStyle
    cell_aspect: float  # cell height / cell width
    cell_mm: float  # physical cell width
    gap: float  # gap between neighbouring cells / cell width
    gap_colour: BGR
    card_inset: float  # space around the card inside its cell / cell width
    margin_x: float  # left/right border / grid width
    margin_y: float  # top/bottom border / grid width
    margin_name: str
    margin_colour: BGR
    margin_texture: str  # "felt", "plain", "wood"
    frame_line: float  # 0: none, else its distance from the grid / cell width
    frame_colour: BGR
    title: bool  # a title printed in the top and bottom border
    corner_style: str
    corner_colour: BGR
    corner_on_card: bool  # corner logo printed on a card-coloured cell, else on the border colour
    print_noise: float  # strength of ink mottling and paper grain
    ink_shift: float  # misregistration of the red plate, in pixels per 100 px of cell
    gloss: float  # 0 matte to 1 glossy (drives glare in the scene)

    @property
    def family(self) -> str:
        return self.card.layout


def sample_artwork(rng: np.random.Generator) -> ArtworkParams:
    """A random printing of the board."""
    names = list(MARGINS)
    name = names[int(rng.choice(len(names), p=np.array(MARGIN_WEIGHTS) / sum(MARGIN_WEIGHTS)))]
    base, texture = MARGINS[name]
    margin_colour = jitter(rng, base, 18)
    card = sample_card_style(rng)
    gap_kind = rng.choice(["none", "thin", "line", "wide"], p=[0.3, 0.35, 0.2, 0.15])
    gap = {"none": 0.0, "thin": rng.uniform(0.01, 0.03), "line": rng.uniform(0.008, 0.02),
           "wide": rng.uniform(0.03, 0.08)}[str(gap_kind)]
    if gap_kind == "line":
        gap_colour = jitter(rng, (30, 30, 30) if rng.random() < 0.6 else (230, 230, 230), 15)
    else:
        gap_colour = margin_colour if rng.random() < 0.7 else scaled(margin_colour, rng.uniform(0.5, 0.8))
    # printed playing cards are about 1.4 times as tall as wide, and many boards print them whole
    aspect = float(rng.choice([rng.uniform(0.8, 1.0), rng.uniform(1.0, 1.45)], p=[0.3, 0.7]))
    margin_x = float(rng.uniform(0.02, 0.12))
    margin_y = float(np.clip(margin_x * rng.uniform(0.8, 1.4), 0.02, 0.15))
    corner_colour = from_hsv(rng.uniform(0, 180), rng.uniform(90, 255), rng.uniform(90, 240))
    cell_mm = float(rng.uniform(38.0, 52.0))
    card_inset = float(rng.choice([0.0, rng.uniform(0.01, 0.06)], p=[0.5, 0.5]))
    small_cards = inset_ground(rng, margin_colour)
    if small_cards is not None:
        card_inset, gap_colour = small_cards
    return ArtworkParams(
        card=card,
        cell_aspect=aspect,
        cell_mm=cell_mm,
        gap=float(gap),
        gap_colour=gap_colour,
        card_inset=card_inset,
        margin_x=margin_x,
        margin_y=margin_y,
        margin_name=name,
        margin_colour=margin_colour,
        margin_texture=texture,
        frame_line=float(rng.uniform(0.08, 0.35)) if rng.random() < 0.3 else 0.0,
        frame_colour=jitter(rng, pick_frame(rng), 20),
        title=bool(rng.random() < 0.25),
        corner_style=str(rng.choice(CORNER_STYLES)),
        corner_colour=corner_colour,
        corner_on_card=bool(rng.random() < 0.6),
        print_noise=float(rng.uniform(0.0, 1.0)),
        ink_shift=float(rng.uniform(0, 1.5)),
        gloss=float(rng.uniform(0.0, 1.0)),
    )


def inset_ground(parent: np.random.Generator, margin_colour: BGR) -> tuple[float, BGR] | None:
    """For a printing of small cards inset on coloured cells (INSET_SHARE of them): the inset
    (/ cell width) and the ground's colour, a tint of its own or the border's; else None.

    Drawn from a stream spawned from ``parent``'s seed, which draws nothing from ``parent``:
    these came after the development and benchmark sets were made, and every other draw of
    those sets stays as it was."""
    rng = np.random.default_rng(parent.bit_generator.seed_seq.spawn(1)[0])
    if rng.random() >= INSET_SHARE:
        return None
    ground = margin_colour if rng.random() < 0.3 else jitter(rng, pick(rng, INSET_GROUNDS), 20)
    return float(rng.uniform(0.08, 0.2)), ground


def pick_frame(rng: np.random.Generator) -> BGR:
    return ((60, 170, 215), (235, 235, 235), (20, 20, 20), (40, 40, 170))[int(rng.integers(4))]


def plain_artwork_params() -> ArtworkParams:
    """A flat, noise-free test printing: white cells, black lines, a green border."""
    rng = np.random.default_rng(0)
    card = replace(sample_card_style(rng, layout="minimal"), paper=(255, 255, 255), outline=False, radius=0.0)
    return ArtworkParams(card=card, cell_aspect=1.0, cell_mm=45.0, gap=0.0, gap_colour=(0, 0, 0), card_inset=0.0,
                         margin_x=0.08, margin_y=0.08, margin_name="green", margin_colour=(40, 140, 40),
                         margin_texture="plain", frame_line=0.0, frame_colour=(0, 0, 0), title=False,
                         corner_style="disc", corner_colour=(200, 60, 60), corner_on_card=True,
                         print_noise=0.0, ink_shift=0.0, gloss=0.0)


@dataclass(frozen=True)
class Artwork:
    """A drawn board. Coordinates are artwork pixels, integer = pixel centre."""

    image_bgr: np.ndarray
    grid_x0: float  # outer edge of column 0
    grid_y0: float  # outer edge of row 0
    cell_w: float
    cell_h: float
    gap: float
    px_per_mm: float

    @property
    def size(self) -> tuple[int, int]:
        return self.image_bgr.shape[1], self.image_bgr.shape[0]

    def cell_origin(self, row: int, col: int) -> tuple[float, float]:
        """The outer top-left edge of cell (row, col)."""
        return (self.grid_x0 + col * (self.cell_w + self.gap), self.grid_y0 + row * (self.cell_h + self.gap))

    def cell_centre(self, row: int, col: int) -> tuple[float, float]:
        x, y = self.cell_origin(row, col)
        return x + self.cell_w / 2, y + self.cell_h / 2

    def grid_corners(self) -> np.ndarray:
        """(4, 2) outer corners of the grid: cell (0,0), (0,9), (9,9), (9,0)."""
        x1 = self.grid_x0 + SIZE * self.cell_w + (SIZE - 1) * self.gap
        y1 = self.grid_y0 + SIZE * self.cell_h + (SIZE - 1) * self.gap
        return np.array([[self.grid_x0, self.grid_y0], [x1, self.grid_y0], [x1, y1], [self.grid_x0, y1]],
                        np.float64)


def board_size_mm(params: ArtworkParams) -> tuple[float, float]:
    """Physical width and height of the whole board (grid and border)."""
    cw = params.cell_mm
    grid_w = SIZE * cw + (SIZE - 1) * params.gap * cw
    grid_h = SIZE * cw * params.cell_aspect + (SIZE - 1) * params.gap * cw
    return grid_w * (1 + 2 * params.margin_x), grid_h + 2 * params.margin_y * grid_w


def draw_artwork(params: ArtworkParams, cell_px: int, rng: np.random.Generator) -> Artwork:
    """Draws the board with cells ``cell_px`` wide."""
    cw = int(cell_px)
    ch = int(round(cell_px * params.cell_aspect))
    gap = int(round(params.gap * cw))
    if params.gap > 0:
        gap = max(gap, 1)
    grid_w = SIZE * cw + (SIZE - 1) * gap
    grid_h = SIZE * ch + (SIZE - 1) * gap
    mx = max(2, int(round(params.margin_x * grid_w)))
    my = max(2, int(round(params.margin_y * grid_w)))
    width, height = grid_w + 2 * mx, grid_h + 2 * my
    scale = cw / params.cell_mm  # px per mm
    image = _margin(params, rng, height, width, scale)
    if params.frame_line > 0:
        d = params.frame_line * cw
        t = max(1, int(round(0.05 * cw * params.frame_line + 1)))
        cv2.rectangle(image, (int(mx - d), int(my - d)), (int(mx + grid_w + d), int(my + grid_h + d)),
                      params.frame_colour, t, cv2.LINE_AA)
    band = my - params.frame_line * cw  # border left outside the frame line
    if params.title and band > 0.3 * cw:
        for y, flip in ((band / 2, False), (height - band / 2, True)):
            draw_text(image, "SEQUENCE", (width / 2, y), 0.45 * band, params.frame_colour, font=params.card.font,
                      weight=0.12, upside_down=flip)
    image[my : my + grid_h, mx : mx + grid_w] = params.gap_colour
    inset = int(round(params.card_inset * cw))
    fw, fh = cw - 2 * inset, ch - 2 * inset
    faces: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for r in range(SIZE):
        for c in range(SIZE):
            x0, y0 = mx + c * (cw + gap), my + r * (ch + gap)
            name = LAYOUT[cell(r, c)]
            if name == CORNER:
                _draw_corner(image[y0 : y0 + ch, x0 : x0 + cw], params, inset, corner=cell(r, c))
                continue
            if name not in faces:
                faces[name] = draw_card_face(name, fw, fh, params.card)
            face, mask = faces[name]
            _paste(image[y0 + inset : y0 + inset + fh, x0 + inset : x0 + inset + fw], face, mask)
    image = _print_effects(image, params, rng, cw)
    return Artwork(image_bgr=image, grid_x0=mx - 0.5, grid_y0=my - 0.5, cell_w=float(cw), cell_h=float(ch),
                   gap=float(gap), px_per_mm=scale)


def _paste(region: np.ndarray, patch: np.ndarray, mask: np.ndarray) -> None:
    if mask.min() == 255:
        region[:] = patch
        return
    a = (mask.astype(np.float32) / 255.0)[..., None]
    region[:] = (patch * a + region * (1 - a)).astype(np.uint8)


def _margin(params: ArtworkParams, rng: np.random.Generator, h: int, w: int, scale: float) -> np.ndarray:
    if params.margin_texture == "felt":
        return textures.felt(rng, h, w, params.margin_colour, scale)
    if params.margin_texture == "wood":
        return textures.wood(rng, h, w, params.margin_colour, scale, angle_deg=float(rng.choice([0.0, 90.0])))
    return textures.plain(rng, h, w, params.margin_colour, scale)


def _draw_corner(region: np.ndarray, params: ArtworkParams, inset: int, corner: int) -> None:
    """The printed "free" chip of a corner cell."""
    h, w = region.shape[:2]
    if params.corner_on_card:
        fw, fh = w - 2 * inset, h - 2 * inset
        face = np.empty((fh, fw, 3), np.uint8)
        face[:] = params.card.paper
        _paste(region[inset : inset + fh, inset : inset + fw], face, card_mask(fw, fh, params.card.radius * fw))
    else:
        region[:] = params.margin_colour
    col = params.corner_colour
    dark, light = scaled(col, 0.55), mix(col, (255, 255, 255), 0.5)
    cx, cy = w / 2, h / 2
    r = 0.36 * min(w, h)
    centre = (int(round(cx * 16)), int(round(cy * 16)))

    def circle(radius: float, colour: BGR, thickness: int = -1) -> None:
        cv2.circle(region, centre, int(round(radius * 16)), colour, thickness, cv2.LINE_AA, 4)

    style = params.corner_style
    circle(r, col)
    if style == "disc":
        circle(r * 0.8, dark, max(1, int(r * 0.08)))
        circle(r * 0.35, light)
    elif style == "rings":
        for k in range(1, 4):
            circle(r * (1 - 0.22 * k), dark if k % 2 else light, max(1, int(r * 0.07)))
    elif style == "star":
        angles = np.linspace(-np.pi / 2, 1.5 * np.pi, 11)[:-1]
        radii = np.where(np.arange(10) % 2 == 0, 0.85 * r, 0.38 * r)
        pts = np.stack([cx + radii * np.cos(angles), cy + radii * np.sin(angles)], 1)
        cv2.fillPoly(region, [np.round(pts * 16).astype(np.int32)], light, cv2.LINE_AA, 4)
    elif style == "text":
        circle(r * 0.85, light, max(1, int(r * 0.06)))
        draw_text(region, "FREE", (cx, cy), 0.28 * r, (255, 255, 255), font=params.card.font, weight=0.15)
    else:  # flower
        for k in range(6):
            a = k * np.pi / 3
            c = (int(round((cx + 0.5 * r * np.cos(a)) * 16)), int(round((cy + 0.5 * r * np.sin(a)) * 16)))
            cv2.circle(region, c, int(round(0.32 * r * 16)), light, -1, cv2.LINE_AA, 4)
        circle(r * 0.3, dark)


def _print_effects(image: np.ndarray, params: ArtworkParams, rng: np.random.Generator, cw: int) -> np.ndarray:
    """Ink misregistration, mottling and paper grain."""
    if params.ink_shift > 0.3:
        shift = params.ink_shift * cw / 100.0
        ang = rng.uniform(0, 2 * np.pi)
        m = np.float32([[1, 0, shift * np.cos(ang)], [0, 1, shift * np.sin(ang)]])
        image[..., 2] = cv2.warpAffine(image[..., 2], m, image.shape[1::-1], borderMode=cv2.BORDER_REFLECT)
    if params.print_noise <= 0:
        return image
    h, w = image.shape[:2]
    n = params.print_noise
    shade = 1.0 + n * (0.03 * textures.smooth_noise(rng, h, w, 3.0 * cw) + 0.02 * textures.grain(rng, h, w))
    return textures.shade_image(image, shade)
