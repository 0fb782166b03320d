"""One synthetic phone photo of a Sequence board on a table, and its label.

The scene is drawn at a working size (at most ``RenderConfig.work_long_side``) and then
enlarged; noise and JPEG are applied at the final size. Geometry is exact: the label's
``corners_px`` are the projections of the printed grid's outer corners through the same
camera, lens distortion and bent board that drew the photo.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, is_dataclass
from typing import Any

import cv2
import numpy as np

from referee.board import Board
from referee.cells import SIZE
from vision.render import lighting, textures
from vision.render.artwork import Artwork, ArtworkParams, board_size_mm, draw_artwork, plain_artwork_params, \
    sample_artwork
from vision.render.cards import sample_card_style
from vision.render.board_objects import Overhang, lay_on_board, sample_board_objects
from vision.render.chips import ChipPainter, ChipStyle, sample_chip_style
from vision.render.config import DEFAULT_CONFIG, RenderConfig
from vision.render.geometry import Camera, Surface, dense_table_map, place_camera, surface_normals_z, \
    table_points, world_to_image
from vision.render.hands import HandParams, draw_hand, sample_hand, shadow_offset_px
from vision.render.objects import MugParams, draw_mug, mug_shadow, sample_mug
from vision.render.positions import Position, sample_position
from vision.render.table import ClutterItem, TableParams, TableTexture, draw_clutter, draw_table, sample_clutter, \
    sample_table

OCCLUDED_SHARE = 0.5  # a cell is hidden when at least this share of its chip region is covered
CHIP_REGION = 0.32  # radius of a cell's chip region / cell width
GLARE_LEVEL = 0.35  # glare (0-1 units added) at a cell's centre that washes it out
VIEW_LIMIT_MM = 2200.0  # the table is drawn at most this far from the board's centre
TABLE_TEXTURE_MAX = 2200  # pixels on the table texture's longer side


@dataclass(frozen=True)
class CameraParams:
    width: int
    height: int
    tilt_deg: float
    azimuth_deg: float
    roll_deg: float
    hfov_deg: float
    fill: float
    offset: tuple[float, float]  # board offset in the frame, as a share of the free frame
    k1: float
    cut_off: bool


@dataclass(frozen=True)
class Kit:
    """One physical game: the board's printing and its chips (what a calibration learns)."""

    artwork: ArtworkParams
    chips: ChipStyle


@dataclass(frozen=True)
class Rendered:
    """A rendered photo: its JPEG bytes (as written to disk) and its label."""

    jpeg: bytes
    label: dict[str, Any]

    def image_bgr(self) -> np.ndarray:
        return cv2.imdecode(np.frombuffer(self.jpeg, np.uint8), cv2.IMREAD_COLOR)


def sample_camera(rng: np.random.Generator, config: RenderConfig) -> CameraParams:
    weights = np.asarray(config.size_weights, float)
    w, h = config.sizes[int(rng.choice(len(config.sizes), p=weights / weights.sum()))]
    if rng.random() < config.portrait_share:
        w, h = h, w
    tilt = float(config.tilt_max_deg * rng.beta(1.2, 1.3))
    roll = float(rng.normal(0, config.roll_sd_deg))
    if w < h:  # a phone held upright: the seat's side still sets the board's turn
        roll += float(rng.choice([0.0, 90.0, -90.0], p=[0.8, 0.1, 0.1]))
    cut = bool(rng.random() < config.cut_off_share)
    return CameraParams(
        width=int(w), height=int(h), tilt_deg=tilt, azimuth_deg=float(rng.uniform(0, 360)), roll_deg=roll,
        hfov_deg=float(rng.uniform(*config.hfov_range_deg)),
        fill=float(config.fill_range[0] + (config.fill_range[1] - config.fill_range[0]) * rng.beta(1.6, 1.2)),
        offset=(float(rng.uniform(-1, 1)), float(rng.uniform(-1, 1))), k1=float(rng.uniform(*config.k1_range)),
        cut_off=cut)


def sample_surface(rng: np.random.Generator, half: tuple[float, float], config: RenderConfig) -> Surface:
    fold = float(rng.uniform(0.5, config.fold_max_mm)) if rng.random() < config.fold_share else 0.0
    return Surface(half_w=half[0], half_h=half[1], fold_mm=fold, fold_axis=str(rng.choice(["x", "y"])),
                   bow_mm=float(rng.uniform(-0.4, 1.0) * config.bow_max_mm) if rng.random() < 0.5 else 0.0,
                   wave_mm=float(rng.uniform(0, 2.0)) if rng.random() < 0.3 else 0.0,
                   wave_phase=float(rng.uniform(0, 2 * np.pi)))


def _aim(params: CameraParams, half: tuple[float, float], config: RenderConfig) -> Camera:
    """Places the camera, then shifts its aim so the board sits off-centre by the drawn share
    (less if that would push it out of the frame, unless the photo is meant to cut it off)."""
    base = place_camera(params.width, params.height, params.hfov_deg, params.tilt_deg, params.azimuth_deg,
                        params.roll_deg, (0.0, 0.0), params.fill, half, params.k1)
    outline = np.array([[-half[0], -half[1]], [half[0], -half[1]], [half[0], half[1]], [-half[0], half[1]]])
    t = np.linspace(0, 1, 9)[:, None]
    edge = np.concatenate([outline[i] + t * (outline[(i + 1) % 4] - outline[i]) for i in range(4)])
    pts = world_to_image(base, outline, _flat(half))
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    size = np.array([params.width, params.height])
    slack = np.maximum(size - (hi - lo), 0)
    share = config.off_centre if not params.cut_off else 1.6
    centre = (size - 1) / 2
    camera = base
    for _ in range(5):
        shift_px = np.asarray(params.offset) * slack / 2 * share
        if params.cut_off:
            shift_px += np.sign(np.asarray(params.offset)) * 0.12 * size
        # aim at what the image point (centre - shift) shows now, so the board moves by +shift
        aim = table_points(base, (centre - shift_px)[None, :], _flat(half))[0]
        camera = place_camera(params.width, params.height, params.hfov_deg, params.tilt_deg, params.azimuth_deg,
                              params.roll_deg, (float(aim[0]), float(aim[1])), params.fill, half, params.k1)
        seen = world_to_image(camera, edge, _flat(half))
        if params.cut_off or bool(np.all((seen >= 0.01 * size) & (seen <= 0.99 * size))):
            return camera
        share *= 0.5
    return base


def _flat(half: tuple[float, float]) -> Surface:
    return Surface(half_w=half[0], half_h=half[1], fold_mm=0.0, fold_axis="x", bow_mm=0.0, wave_mm=0.0,
                   wave_phase=0.0)


def _resized(camera: Camera, width: int, height: int) -> Camera:
    """``camera`` for the same view at another image size (same mapping as cv2.resize)."""
    sx, sy = width / camera.width, height / camera.height
    if abs(sx - sy) > 1e-3:
        raise ValueError("working size must keep the aspect ratio")
    return Camera(width=width, height=height, focal_px=camera.focal_px * sx, rotation=camera.rotation,
                  position=camera.position, k1=camera.k1, k2=camera.k2)


def _local_scale(camera: Camera, xy: tuple[float, float], surface: Surface) -> float:
    """Image pixels per mm of the board around world point ``xy`` (the larger axis)."""
    p = np.array([xy, (xy[0] + 5.0, xy[1]), (xy[0], xy[1] + 5.0)])
    q = world_to_image(camera, p, surface)
    return float(max(np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[2] - q[0])) / 5.0)


def _light_vector(azimuth_deg: float, elevation_deg: float) -> np.ndarray:
    """World unit vector pointing towards the light (z into the table, so up is negative)."""
    a, e = np.deg2rad(azimuth_deg), np.deg2rad(elevation_deg)
    return np.array([np.cos(e) * np.cos(a), np.cos(e) * np.sin(a), -np.sin(e)])


def chip_jitters(art: Artwork, board: Board, style: ChipStyle, rng: np.random.Generator
                 ) -> dict[tuple[int, int], tuple[float, float]]:
    """How far (artwork pixels) each chip lies off its cell's centre: players never place exactly."""
    free = min(art.cell_w, art.cell_h) / 2 - 0.5 * style.diameter * art.cell_w
    limit = max(free, 0) + 0.06 * art.cell_w
    jitters = {}
    for r in range(SIZE):
        for c in range(SIZE):
            if board[r * SIZE + c] in "BGR":
                jitter = np.clip(rng.normal(0, 0.5, 2) * style.offset * art.cell_w, -limit, limit)
                jitters[(r, c)] = (float(jitter[0]), float(jitter[1]))
    return jitters


def paint_chips(art: Artwork, board: Board, style: ChipStyle, camera: Camera, light: np.ndarray,
                jitters: dict[tuple[int, int], tuple[float, float]]) -> list[dict[str, Any]]:
    """Paints a chip on every occupied cell of the artwork, in place; returns where each one went."""
    ppm = art.px_per_mm
    radius = 0.5 * style.diameter * art.cell_w
    elev = max(0.25, -light[2])
    horiz = light[:2] / max(np.linalg.norm(light[:2]), 1e-6)
    shadow_len = style.height_mm * np.sqrt(1 - elev * elev) / elev * ppm
    shadow = (-horiz[0] * min(shadow_len, 0.5 * radius), -horiz[1] * min(shadow_len, 0.5 * radius))
    cam_height = -camera.position[2]
    painter = ChipPainter(style, radius, light_dir=(float(horiz[0]), float(horiz[1])), shadow_offset=shadow,
                          max_parallax=style.height_mm * ppm * 3)
    bw, bh = art.size[0] / ppm, art.size[1] / ppm
    placed = []
    for r in range(SIZE):
        for c in range(SIZE):
            team = board[r * SIZE + c]
            if team not in "BGR":
                continue
            cx, cy = art.cell_centre(r, c)
            jitter = jitters.get((r, c), (0.0, 0.0))
            x, y = cx + jitter[0], cy + jitter[1]
            wx, wy = (x + 0.5) / ppm - bw / 2, (y + 0.5) / ppm - bh / 2
            lift = style.height_mm / max(cam_height - style.height_mm, 1.0)
            par = ((wx - camera.position[0]) * lift * ppm, (wy - camera.position[1]) * lift * ppm)
            painter.paint(art.image_bgr, (x, y), style.colour(team), par)
            placed.append({"cell": [r, c], "team": team})
    return placed


def _view_region(camera: Camera) -> tuple[float, float, float, float]:
    """World rectangle (mm) that the camera can see, limited to VIEW_LIMIT_MM around the board."""
    w, h = camera.width, camera.height
    t = np.linspace(0, 1, 17)
    border = np.concatenate([np.column_stack([t * (w - 1), np.zeros_like(t)]),
                             np.column_stack([t * (w - 1), np.full_like(t, h - 1)]),
                             np.column_stack([np.zeros_like(t), t * (h - 1)]),
                             np.column_stack([np.full_like(t, w - 1), t * (h - 1)])])
    xy = table_points(camera, border, _flat((1.0, 1.0)))
    xy = np.clip(xy, -VIEW_LIMIT_MM, VIEW_LIMIT_MM)
    lo, hi = xy.min(axis=0) - 40, xy.max(axis=0) + 40
    return float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])


def table_map(work: Camera, surface: Surface, config: RenderConfig) -> tuple[np.ndarray, np.ndarray]:
    """World (x, y) mm on the table under every pixel of the working image."""
    map_x, map_y = dense_table_map(work, surface, config.field_step)
    # rays near the horizon meet the table very far away; remap is slow on huge coordinates
    np.clip(map_x, -2 * VIEW_LIMIT_MM, 2 * VIEW_LIMIT_MM, out=map_x)
    np.clip(map_y, -2 * VIEW_LIMIT_MM, 2 * VIEW_LIMIT_MM, out=map_y)
    return map_x, map_y


def table_view(tex: TableTexture, map_xy: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    map_x, map_y = map_xy
    return cv2.remap(tex.image_bgr, (map_x - tex.x0) * tex.px_per_mm - 0.5, (map_y - tex.y0) * tex.px_per_mm - 0.5,
                     cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def _laid(image: np.ndarray, bgra: np.ndarray, map_xy: tuple[np.ndarray, np.ndarray], half: tuple[float, float],
          ppm: float, pad_px: int) -> tuple[np.ndarray, np.ndarray]:
    """``bgra``, a top view whose pixel ``pad_px`` is the board's top-left corner, laid over ``image``."""
    map_x, map_y = map_xy
    warped = cv2.remap(bgra, (map_x + half[0]) * ppm - 0.5 + pad_px, (map_y + half[1]) * ppm - 0.5 + pad_px,
                       cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    alpha = warped[..., 3].astype(np.float32) * (1 / 255)
    return cv2.blendLinear(image, np.ascontiguousarray(warped[..., :3]), 1.0 - alpha, alpha), alpha


def laid_board(image: np.ndarray, art: Artwork, map_xy: tuple[np.ndarray, np.ndarray], half: tuple[float, float],
               overhang: Overhang | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The board's artwork laid over the table view, then what lies across its edge; and the
    board's coverage (0-1 float32)."""
    image, alpha = _laid(image, cv2.cvtColor(art.image_bgr, cv2.COLOR_BGR2BGRA), map_xy, half, art.px_per_mm, 0)
    if overhang is not None:
        image, _ = _laid(image, overhang.bgra, map_xy, half, art.px_per_mm, overhang.pad_px)
    return image, alpha


def hand_shade(mask: np.ndarray, offset_px: np.ndarray, occluded_small: np.ndarray) -> np.ndarray:
    """The light field's factor (at the field's small size) under a hand's shadow, which falls
    ``offset_px`` (full-size pixels) from the hand and not on what covers the board."""
    fh, fw = occluded_small.shape
    small = cv2.resize(mask, (fw, fh), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    k = fw / mask.shape[1]
    m = np.float32([[1, 0, offset_px[0] * k], [0, 1, offset_px[1] * k]])
    sh = cv2.warpAffine(small, m, (fw, fh))
    sh = cv2.GaussianBlur(sh, (0, 0), 2 + 0.02 * max(fw, fh))
    return 1 - 0.45 * sh * (1 - occluded_small)


def sample_scene_start(rng: np.random.Generator, with_board: bool, config: RenderConfig
                       ) -> tuple[CameraParams, ArtworkParams | None, Position | None, ChipStyle, tuple[float, float]]:
    """The first draws of a photo: camera, printing, position, chips and board size (mm)."""
    cam_params = sample_camera(rng, config)
    art_params: ArtworkParams | None = None
    position: Position | None = None
    if with_board:
        art_params = plain_artwork_params() if config.plain_artwork else sample_artwork(rng)
        position = sample_position(rng, turns=config.turns)
        bw, bh = board_size_mm(art_params)
    else:
        bw, bh = rng.uniform(420, 560, 2)  # frame the same stretch of table as a board would fill
    return cam_params, art_params, position, sample_chip_style(rng), (float(bw), float(bh))


def render(rng: np.random.Generator, *, with_board: bool = True, config: RenderConfig = DEFAULT_CONFIG,
           kit: Kit | None = None) -> Rendered:
    """Draws one photo. All randomness comes from ``rng``; a ``kit`` fixes the board's
    printing and the chips (the same game photographed again)."""
    cam_params, art_params, position, chip_style, (bw, bh) = sample_scene_start(rng, with_board, config)
    if kit is not None and art_params is not None:
        art_params, chip_style = kit.artwork, kit.chips
        bw, bh = board_size_mm(art_params)
    half = (bw / 2, bh / 2)
    camera = _aim(cam_params, half, config)
    scale = min(1.0, config.work_long_side / max(cam_params.width, cam_params.height))
    work = _resized(camera, int(round(cam_params.width * scale)), int(round(cam_params.height * scale)))
    if config.effects:
        light = lighting.sample_light(rng, art_params.gloss if art_params else 0.5)
        sensor = lighting.sample_sensor(rng)
    else:
        light = lighting.LightParams(kelvin=6500.0, wb_residual=0.0, tint=0.0, exposure=1.0, gamma=1.0, gradient=0.0,
                                     gradient_deg=0.0, vignette=0.0, azimuth_deg=30.0, elevation_deg=80.0,
                                     cast_shadow=0.0, glare=0, glare_strength=0.0)
        sensor = lighting.SensorParams(defocus_px=0.0, motion_px=0.0, motion_deg=0.0, noise=0.0, chroma_noise=0.0,
                                       sharpen=0.0, jpeg_quality=95)
    light_xyz = _light_vector(light.azimuth_deg, light.elevation_deg)

    # the board, drawn flat at about the resolution it will have in the photo
    art: Artwork | None = None
    surface = _flat(half)
    chips_placed: list[dict[str, Any]] = []
    board_objects: list[ClutterItem] = []
    on_board_cover = np.zeros(SIZE * SIZE)
    overhang: Overhang | None = None
    if art_params is not None and position is not None:
        ppm_needed = 1.2 * _local_scale(work, (0.0, 0.0), _flat(half))
        cell_px = int(np.clip(round(ppm_needed * art_params.cell_mm), 24, 260))
        art = draw_artwork(art_params, cell_px, rng)
        half = (art.size[0] / art.px_per_mm / 2, art.size[1] / art.px_per_mm / 2)
        surface = sample_surface(rng, half, config) if config.effects or config.fold_share > 0 else _flat(half)
        chips_placed = paint_chips(art, position.board, chip_style, work, light_xyz,
                                   chip_jitters(art, position.board, chip_style, rng))
        board_objects, on_board_cover, overhang = objects_on_board(rng, art, chip_style, config)

    # the table and what lies on it
    table = sample_table(rng, half, with_board=with_board)
    region = _view_region(work)
    ppm_table = min(0.7 * _local_scale(work, (0.0, 0.0), _flat(half)),
                    TABLE_TEXTURE_MAX / max(region[2] - region[0], region[3] - region[1]))
    keep_out = (-half[0] - 15, -half[1] - 15, half[0] + 15, half[1] + 15) if with_board else None
    clutter: list[ClutterItem] = []
    if config.clutter:
        lookalikes = int(rng.choice([0, 1, 2], p=[0.3, 0.5, 0.2])) if not with_board else int(rng.random() < 0.1)
        clutter = sample_clutter(rng, table, keep_out, region, lookalikes=lookalikes)
    mugs: list[MugParams] = []
    if config.clutter and rng.random() < config.mug_share:
        for _ in range(int(rng.integers(1, 3))):
            spot = sample_clutter(np.random.default_rng(int(rng.integers(2**31))), table,
                                  (keep_out[0] - 40, keep_out[1] - 40, keep_out[2] + 40, keep_out[3] + 40)
                                  if keep_out else None, region)
            x, y = (spot[0].x, spot[0].y) if spot else (half[0] + 120, 0.0)
            mugs.append(sample_mug(rng, float(x), float(y)))
    tex = draw_table(rng, table, region, ppm_table)
    deck_style = sample_card_style(rng, layout="pips")
    table_parallax = (0.0, 0.0)
    draw_clutter(tex, clutter, deck_style, chip_style, chip_style.diameter * (art_params.cell_mm if art_params else 45),
                 table_parallax, (float(np.cos(np.deg2rad(light.azimuth_deg))),
                                  float(np.sin(np.deg2rad(light.azimuth_deg)))))
    for mug in mugs:
        _mug_shadow_on_table(tex, mug, light_xyz)

    # the photo: table and board through the camera
    map_xy = table_map(work, surface, config)
    image = table_view(tex, map_xy)
    board_alpha = np.zeros(image.shape[:2], np.float32)
    if art is not None:
        image, board_alpha = laid_board(image, art, map_xy, half, overhang)

    occluder = np.zeros(image.shape[:2], np.uint8)
    for mug in mugs:
        occluder = np.maximum(occluder, draw_mug(image, mug, work, light_xyz))

    # hands reach towards a cell of the board (or a spot on the table)
    hands: list[HandParams] = []
    hand_masks: list[tuple[np.ndarray, np.ndarray]] = []
    if rng.random() < config.hand_share:
        for _ in range(int(rng.choice([1, 2], p=[0.8, 0.2]))):
            target = (float(rng.uniform(-0.45, 0.45) * 2 * half[0]), float(rng.uniform(-0.45, 0.45) * 2 * half[1]))
            hp = sample_hand(rng, target)
            tip = world_to_image(work, np.array([target]), surface)[0]
            if np.abs(tip - np.array([work.width, work.height]) / 2).max() > max(work.width, work.height):
                continue  # the cell it reaches for is far outside the photo (a grazing view): no hand
            s = _local_scale(work, target, surface)
            mask = draw_hand(image, hp, tip, s, rng)
            light_img = world_to_image(work, np.array([target, (target[0] + light_xyz[0] * 20,
                                                                 target[1] + light_xyz[1] * 20)]), surface)
            d = light_img[1] - light_img[0]
            d = d / max(np.linalg.norm(d), 1e-6)
            hands.append(hp)
            hand_masks.append((mask, shadow_offset_px(hp, s, d, light.elevation_deg)))
            occluder = np.maximum(occluder, mask)

    # light: smooth fields at a quarter of the size
    h, w = image.shape[:2]
    fh, fw = max(2, h // lighting.FIELD_STEP), max(2, w // lighting.FIELD_STEP)
    field = lighting.smooth_field(rng, light, fh, fw) if config.effects else np.ones((fh, fw), np.float32)
    board_small = cv2.resize(board_alpha, (fw, fh), interpolation=cv2.INTER_AREA)
    if art is not None:
        field *= _fold_shading(work, surface, light_xyz, fw, fh, board_small)
        field *= _drop_shadow(board_small, light_xyz, work, half, fw, fh, surface)
    occ_small = cv2.resize(occluder, (fw, fh), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    for mask, offset in hand_masks:
        field *= hand_shade(mask, offset, occ_small)
    glare_small = lighting.glare_field(rng, light, board_small * (1 - occ_small))
    field_full = lighting.enlarge(field, w, h)
    glare_full = lighting.enlarge(glare_small, w, h)
    image = lighting.apply_light(image, light, field_full, glare_full)
    image = lighting.blur(image, sensor, scale)
    if (w, h) != (cam_params.width, cam_params.height):
        image = cv2.resize(image, (cam_params.width, cam_params.height), interpolation=cv2.INTER_LINEAR)
    jpeg = lighting.finish(image, sensor, rng)

    label = _label(cam_params, camera, work, art, art_params, position, chip_style, surface, light, sensor, table,
                   clutter, board_objects, on_board_cover, mugs, hands, occluder, glare_full, chips_placed, half)
    return Rendered(jpeg=jpeg, label=label)


def objects_on_board(rng: np.random.Generator, art: Artwork, chip_style: ChipStyle,
                     config: RenderConfig) -> tuple[list[ClutterItem], np.ndarray, Overhang | None]:
    """Lays a card, the phone or a pad on some boards; returns them, the share (100,) of each
    cell's chip region they cover and what of them lies beyond the board. Drawn from a stream
    spawned from ``rng``'s seed, which draws nothing from ``rng``: every photo without them
    stays as it was."""
    own = np.random.default_rng(rng.bit_generator.seed_seq.spawn(1)[0])
    if not config.clutter or own.random() >= config.board_object_share:
        return [], np.zeros(SIZE * SIZE), None
    items = sample_board_objects(own, art)
    cover, overhang = lay_on_board(art, items, sample_card_style(own, layout="pips"), chip_style)
    return items, _artwork_cell_cover(art, cover), overhang


def _mug_shadow_on_table(tex: TableTexture, mug: MugParams, light_xyz: np.ndarray) -> None:
    centre, length = mug_shadow(mug, light_xyz)
    s = tex.px_per_mm
    img = tex.image_bgr
    a = np.array(tex.to_px(mug.x, mug.y))
    b = np.array(tex.to_px(2 * centre[0] - mug.x, 2 * centre[1] - mug.y))
    pad = (mug.radius_mm * 1.2 + 30) * s
    x0, y0 = np.floor(np.minimum(a, b) - pad).astype(int)
    x1, y1 = np.ceil(np.maximum(a, b) + pad).astype(int)
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, img.shape[1]), min(y1, img.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    shade = np.zeros((y1 - y0, x1 - x0), np.float32)
    o = np.array([x0, y0])
    pa, pb = (a - o).astype(int), (b - o).astype(int)
    cv2.line(shade, tuple(int(v) for v in pa), tuple(int(v) for v in pb), 1.0, max(1, int(2 * mug.radius_mm * s)))
    cv2.circle(shade, tuple(int(v) for v in pa), max(1, int(mug.radius_mm * s * 1.05)), 1.0, -1)
    shade = cv2.GaussianBlur(shade, (0, 0), max(1.0, 8 * s))
    img[y0:y1, x0:x1] = textures.shade_image(img[y0:y1, x0:x1], 1 - 0.45 * shade)


def _fold_shading(camera: Camera, surface: Surface, light_xyz: np.ndarray, fw: int, fh: int,
                  board_small: np.ndarray) -> np.ndarray:
    """Lambert shading of the bent board relative to a flat one, on the small field grid."""
    if surface.flat():
        return np.ones((fh, fw), np.float32)
    gw, gh = max(2, fw // 3), max(2, fh // 3)  # shading changes slowly: a coarser grid will do
    xs = (np.arange(gw) + 0.5) * camera.width / gw - 0.5
    ys = (np.arange(gh) + 0.5) * camera.height / gh - 0.5
    gx, gy = np.meshgrid(xs, ys)
    xy = table_points(camera, np.column_stack([gx.ravel(), gy.ravel()]), surface)
    hx, hy = surface_normals_z(surface, xy[:, 0], xy[:, 1])
    # the board's surface normal (towards the light side, z up = negative)
    nrm = np.column_stack([hx, hy, -np.ones_like(hx)])
    nrm /= np.linalg.norm(nrm, axis=1, keepdims=True)
    lam = np.clip(nrm @ light_xyz, 0.05, None) / max(-light_xyz[2], 0.05)
    lam = np.clip(lam, 0.6, 1.4).reshape(gh, gw).astype(np.float32)
    return 1 + (cv2.resize(lam, (fw, fh), interpolation=cv2.INTER_LINEAR) - 1) * board_small


def _drop_shadow(board_small: np.ndarray, light_xyz: np.ndarray, camera: Camera, half: tuple[float, float], fw: int,
                 fh: int, surface: Surface) -> np.ndarray:
    """The board's thin shadow on the table, beside its edges away from the light."""
    pts = world_to_image(camera, np.array([[0.0, 0.0], [light_xyz[0] * 10, light_xyz[1] * 10]]), surface)
    d = (pts[0] - pts[1]) * fw / camera.width / 10 * 4  # about 4 mm of shadow away from the light
    m = np.float32([[1, 0, d[0]], [0, 1, d[1]]])
    sh = cv2.warpAffine(board_small, m, (fw, fh))
    sh = cv2.GaussianBlur(sh, (0, 0), 1.0)
    return (1 - 0.35 * sh * (1 - board_small)).astype(np.float32)


def _chip_region_points(art: Artwork) -> np.ndarray:
    """(100, K, 2) artwork pixels spread over each cell's chip region (a disc ``CHIP_REGION``
    cell widths in radius), row 0 first."""
    t = np.linspace(-1, 1, 7)
    gx, gy = np.meshgrid(t, t)
    inside = gx * gx + gy * gy <= 1.0
    offsets = np.column_stack([gx[inside], gy[inside]]) * CHIP_REGION * art.cell_w
    centres = np.array([art.cell_centre(r, c) for r in range(SIZE) for c in range(SIZE)])
    return centres[:, None, :] + offsets[None, :, :]


def _cell_cover(work: Camera, art: Artwork, half: tuple[float, float], surface: Surface,
                cover: np.ndarray) -> np.ndarray:
    """Share (100,) of each cell's chip region that ``cover`` (float (H, W), 0-1) covers or the frame cuts."""
    pts = ((_chip_region_points(art) + 0.5) / art.px_per_mm - np.array(half)).reshape(-1, 2)
    px = world_to_image(work, pts, surface)
    h, w = cover.shape
    xi, yi = np.round(px[:, 0]).astype(int), np.round(px[:, 1]).astype(int)
    out_of_frame = (xi < 0) | (yi < 0) | (xi >= w) | (yi >= h)
    value = np.ones(len(px), np.float32)
    ok = ~out_of_frame
    value[ok] = cover[yi[ok], xi[ok]]
    return value.reshape(SIZE * SIZE, -1).mean(axis=1)


def _artwork_cell_cover(art: Artwork, cover: np.ndarray) -> np.ndarray:
    """Share (100,) of each cell's chip region that ``cover`` (float, the artwork's pixels, 0-1) covers."""
    points = np.round(_chip_region_points(art)).astype(int)
    xs = np.clip(points[..., 0], 0, cover.shape[1] - 1)
    ys = np.clip(points[..., 1], 0, cover.shape[0] - 1)
    return cover[ys, xs].mean(axis=1)


def _plain(value: Any) -> Any:
    """JSON-friendly copy of dataclasses, tuples and numpy values."""
    if is_dataclass(value) and not isinstance(value, type):
        return _plain(asdict(value))
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return _plain(value.tolist())
    if isinstance(value, (np.floating, float)):
        return round(float(value), 4)
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, np.bool_):
        return bool(value)
    return value


def _label(cam_params: CameraParams, camera: Camera, work: Camera, art: Artwork | None,
           art_params: ArtworkParams | None, position: Position | None, chips: ChipStyle, surface: Surface,
           light: lighting.LightParams, sensor: lighting.SensorParams, table: TableParams,
           clutter: list[ClutterItem], board_objects: list[ClutterItem], on_board_cover: np.ndarray,
           mugs: list[MugParams], hands: list[HandParams], occluder: np.ndarray,
           glare: np.ndarray, chips_placed: list[dict[str, Any]], half: tuple[float, float]) -> dict[str, Any]:
    w, h = cam_params.width, cam_params.height
    varied: dict[str, Any] = {
        "camera": _plain(cam_params),
        "tilt_deg": round(cam_params.tilt_deg, 2),
        "distance_mm": round(float(np.linalg.norm(camera.position)), 1),
        "camera_height_mm": round(float(-camera.position[2]), 1),
        "k1": round(cam_params.k1, 4),
        "hfov_deg": round(cam_params.hfov_deg, 2),
        "fill": round(cam_params.fill, 3),
        "work_size": [work.width, work.height],
        "light": _plain(light),
        "light_gains_bgr": _plain(lighting.light_gains(light)),
        "sensor": _plain(sensor),
        "blur_px": round(sensor.defocus_px, 3),
        "motion_px": round(sensor.motion_px, 3),
        "noise": round(sensor.noise, 3),
        "jpeg_quality": sensor.jpeg_quality,
        "table": _plain(table),
        "clutter": sorted(item.kind for item in clutter),
        "on_board": sorted(item.kind for item in board_objects),
        "mugs": len(mugs),
        "hand_count": len(hands),
        "hands": [_plain(hp) for hp in hands],
        "chips": _plain(chips),
        "tilt_bucket": "flat" if cam_params.tilt_deg < 15 else "mid" if cam_params.tilt_deg < 32 else "steep",
        "size_bucket": "small" if cam_params.fill < 0.55 else "medium" if cam_params.fill < 0.75 else "large",
        "light_bucket": lighting.light_bucket(light),
        "resolution_bucket": "720p" if max(w, h) <= 1280 else "1080p" if max(w, h) <= 2048 else "high",
    }
    label: dict[str, Any] = {
        "has_board": art is not None,
        "image_size": [w, h],
        "seed": None,
        "grid": None,
        "occluded": [],
        "glare": [],
        "teams": None,
        "corners_px": None,
        "board_fully_visible": None,
        "varied": varied,
    }
    if art is None or art_params is None or position is None:
        varied["occlusion_bucket"] = "none"
        varied["artwork_family"] = "none"
        return label
    ppm = art.px_per_mm
    grid_world = (art.grid_corners() + 0.5) / ppm - np.array(half)
    corners = world_to_image(camera, grid_world, surface)
    # the board's outline, sampled along its edges, for "fully visible"
    t = np.linspace(0, 1, 25)[:, None]
    ring = np.concatenate([grid_world[i] + t * (grid_world[(i + 1) % 4] - grid_world[i]) for i in range(4)])
    ring_px = world_to_image(camera, ring, surface)
    visible = bool(np.all((ring_px >= -0.5) & (ring_px <= np.array([w - 0.5, h - 0.5]))))
    seen_cover = _cell_cover(work, art, half, surface, occluder.astype(np.float32) / 255)
    cover = 1 - (1 - seen_cover) * (1 - on_board_cover)
    glare_at = _cell_cover(work, art, half, surface, np.clip(glare / GLARE_LEVEL, 0, 1) >= 1)
    covered_share = [round(float(share), 3) for share in cover]
    occluded = [[i // SIZE, i % SIZE] for i in range(SIZE * SIZE) if covered_share[i] >= OCCLUDED_SHARE]
    glared = [[i // SIZE, i % SIZE] for i in range(SIZE * SIZE) if glare_at[i] >= OCCLUDED_SHARE]
    up = (corners[0] + corners[1]) / 2 - (corners[2] + corners[3]) / 2
    rotation = float(np.degrees(np.arctan2(up[0], -up[1])) % 360)
    grid_px = float(min(np.linalg.norm(corners[i] - corners[(i + 1) % 4]) for i in range(4)))
    label.update({
        "grid": position.grid(),
        "occluded": occluded,
        "covered_share": covered_share,
        "glare": glared,
        "teams": position.teams,
        "corners_px": [[round(float(x), 2), round(float(y), 2)] for x, y in corners],
        "board_fully_visible": visible,
    })
    n_occ = len(occluded)
    varied.update({
        "artwork": _plain(art_params) | {"family": art_params.family, "cell_px": art.cell_w},
        "artwork_family": art_params.family,
        "margin": art_params.margin_name,
        "gloss": round(art_params.gloss, 3),
        "surface": _plain(surface),
        "fold_mm": round(surface.fold_mm, 2),
        "rotation_deg": round(rotation, 2),
        "grid_px": round(grid_px, 1),
        "position": {"turns": position.turns, "removals": position.removals, "skill": round(position.skill, 3),
                     "sequences": dict(position.sequences), "winner": position.winner,
                     "chips": {t: position.board.count(t) for t in "BGR"[: position.teams]}},
        "chip_count": sum(position.board.count(t) for t in "BGR"),
        "occlusion_bucket": "none" if n_occ == 0 else "some" if n_occ <= 5 else "heavy",
    })
    return label
