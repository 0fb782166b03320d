"""Synthetic videos of a game of Sequence, move by move, with the true events as a label.

One scene is drawn once (camera, table, board printing, chips, light); then every move of a
bot game is played in it: a hand reaches in towards the cell, the chip appears (or goes)
under it, the hand leaves, the board rests. Chips get nudged now and then, the exposure
drifts, and the camera is bumped once. Frames are BGR uint8 at ``VideoSettings.size``.

Label (``label["events"]``): the true game events in the ``seqcam watch --json`` form
(``t``, ``type``, ``team``, ``cell``, ``cells``) where ``t`` is when the hand has left the
board, plus ``hand_in_t``; ``label["bumps"]`` holds the times the camera moved.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from referee.board import Board
from referee.bots import BotPolicy, play_game
from referee.cells import ONE_EYED_JACKS, SIZE, cell_col, cell_row
from referee.game import Game, Pass, Play
from referee.record import record_of
from vision.render import lighting
from vision.render.artwork import Artwork, board_size_mm, draw_artwork, sample_artwork
from vision.render.chips import ChipStyle, sample_chip_style
from vision.render.config import RenderConfig
from vision.render.geometry import Camera, Surface, world_to_image
from vision.render.hands import HandParams, draw_hand, sample_hand, shadow_offset_px
from vision.render.photo import (CameraParams, _aim, _drop_shadow, _flat, _fold_shading, _light_vector,
                                 _local_scale, _view_region, chip_jitters, hand_shade, laid_board,
                                 paint_chips, sample_camera, sample_surface, table_map, table_view)
from vision.render.table import TableTexture, draw_table, sample_table

# A table-side camera: landscape, the whole board in view, never cut off.
VIDEO_CONFIG = RenderConfig(sizes=((960, 540),), size_weights=(1.0,), portrait_share=0.0, cut_off_share=0.0,
                            tilt_max_deg=40.0, fill_range=(0.7, 0.92), roll_sd_deg=4.0, hand_share=0.0,
                            mug_share=0.0, work_long_side=960)


@dataclass(frozen=True)
class VideoSettings:
    """The pace of a rendered game and what disturbs it."""

    size: tuple[int, int] = (960, 540)
    fps: float = 10.0
    lead_s: float = 1.0  # the board at rest before the first move
    reach_s: float = 0.5  # a hand coming in
    hold_s: float = 0.3  # the hand at the cell, over the chip it places or takes
    leave_s: float = 0.5  # the hand going out
    settle_s: float = 1.0  # the board at rest after a move
    moves: int | None = 12  # the game's last moves to show (so it ends with a winner); None: all
    nudge_share: float = 0.3  # moves whose hand also nudges a chip beside the cell
    nudge_cells: float = 0.06  # how far a nudge pushes a chip, in cell widths
    exposure_drift: float = 0.1  # the exposure wanders by up to this share
    bump_px: float = 14.0  # how far the camera bump shifts the board in the frame

    @property
    def per_move_s(self) -> float:
        return self.reach_s + self.hold_s + self.leave_s + self.settle_s

    def frame_count(self, moves: int) -> int:
        """Frames of a video showing ``moves`` moves."""
        return round((self.lead_s + moves * self.per_move_s) * self.fps)


@dataclass(frozen=True)
class Move:
    """One play of the game as the camera sees it: the board after it and what it made."""

    kind: str  # "placed" or "removed"
    team: str  # who placed, or whose chip was removed
    cell: tuple[int, int]
    after: Board
    sequences: tuple[tuple[tuple[int, int], ...], ...]  # cells of the sequences it completed
    winner: str | None
    after_pass: bool  # someone passed since the last play: no camera can see a pass


def game_moves(rng: np.random.Generator, players: int) -> tuple[Board, list[Move], int]:
    """A bot game replayed play by play: the empty board, its moves and the team count.

    The bots build their lines as players do; random ones fill the board until the deck
    runs out, to positions no real game reaches."""
    skill = float(rng.uniform(0.3, 0.95))
    game = play_game(Game.new(players, rng), rng, BotPolicy(skill=skill))
    record = record_of(game)
    replayed = Game(record.setup)
    moves: list[Move] = []
    passed = False
    for entry in record.entries:
        before = replayed.board()
        known = set(replayed.sequences())
        replayed.apply(entry.action, entry.reshuffle)
        made = tuple(tuple((cell_row(c), cell_col(c)) for c in s.cells)
                     for s in replayed.sequences() if s not in known)
        if isinstance(entry.action, Play):
            c = entry.action.cell
            removed = entry.action.card in ONE_EYED_JACKS
            team = before[c] if removed else replayed.board()[c]
            moves.append(Move("removed" if removed else "placed", team, (cell_row(c), cell_col(c)),
                              replayed.board(), made, replayed.winner, passed))
            passed = False
        elif isinstance(entry.action, Pass):
            passed = True
        elif made and moves:  # the players chose which sequence a chip completed
            last = moves[-1]
            moves[-1] = replace(last, sequences=last.sequences + made, winner=replayed.winner)
    return Board.empty(), moves, replayed.setup.teams


@dataclass
class Scene:
    """What stays put through a video: the table, the board's printing, the chips, the light."""

    cam_params: CameraParams
    blank: Artwork  # the board with no chips
    chips: ChipStyle
    half: tuple[float, float]
    surface: Surface
    tex: TableTexture
    light: lighting.LightParams
    sensor: lighting.SensorParams
    light_xyz: np.ndarray
    field_seed: int


@dataclass
class View:
    """The scene through one placement of the camera."""

    work: Camera
    map_xy: tuple[np.ndarray, np.ndarray]
    table_bgr: np.ndarray
    field: np.ndarray  # light field at a small size
    glare: np.ndarray  # full size


def sample_scene(rng: np.random.Generator, config: RenderConfig = VIDEO_CONFIG) -> Scene:
    cam_params = sample_camera(rng, config)
    art_params = sample_artwork(rng)
    chips = sample_chip_style(rng)
    bw, bh = board_size_mm(art_params)
    half = (bw / 2, bh / 2)
    work = _aim(cam_params, half, config)
    cell_px = int(np.clip(round(1.2 * _local_scale(work, (0.0, 0.0), _flat(half)) * art_params.cell_mm), 24, 260))
    blank = draw_artwork(art_params, cell_px, rng)
    half = (blank.size[0] / blank.px_per_mm / 2, blank.size[1] / blank.px_per_mm / 2)
    surface = sample_surface(rng, half, config)
    light = lighting.sample_light(rng, art_params.gloss)
    sensor = replace(lighting.sample_sensor(rng), motion_px=0.0)  # motion blur would smear every frame alike
    table = sample_table(rng, half, with_board=True)
    region = _view_region(work)
    ppm_table = min(0.7 * _local_scale(work, (0.0, 0.0), _flat(half)), 2200 / max(region[2] - region[0],
                                                                                  region[3] - region[1]))
    tex = draw_table(rng, table, region, ppm_table)
    return Scene(cam_params, blank, chips, half, surface, tex, light, sensor,
                 _light_vector(light.azimuth_deg, light.elevation_deg), int(rng.integers(2**31)))


def view_of(scene: Scene, cam_params: CameraParams, config: RenderConfig = VIDEO_CONFIG) -> View:
    work = _aim(cam_params, scene.half, config)
    map_xy = table_map(work, scene.surface, config)
    table_bgr = table_view(scene.tex, map_xy)
    _, alpha = laid_board(table_bgr, scene.blank, map_xy, scene.half)
    h, w = table_bgr.shape[:2]
    fh, fw = max(2, h // lighting.FIELD_STEP), max(2, w // lighting.FIELD_STEP)
    rng = np.random.default_rng(scene.field_seed)
    field = lighting.smooth_field(rng, scene.light, fh, fw)
    board_small = cv2.resize(alpha, (fw, fh), interpolation=cv2.INTER_AREA)
    field *= _fold_shading(work, scene.surface, scene.light_xyz, fw, fh, board_small)
    field *= _drop_shadow(board_small, scene.light_xyz, work, scene.half, fw, fh, scene.surface)
    glare = lighting.enlarge(lighting.glare_field(rng, scene.light, board_small), w, h)
    return View(work, map_xy, table_bgr, field, glare)


def bumped(cam_params: CameraParams, rng: np.random.Generator, shift_px: float) -> CameraParams:
    """The camera knocked: turned a little and aimed a little elsewhere."""
    angle = rng.uniform(0, 2 * np.pi)
    dx, dy = np.cos(angle) * shift_px / cam_params.width, np.sin(angle) * shift_px / cam_params.height
    return replace(cam_params, roll_deg=cam_params.roll_deg + float(rng.uniform(-1.5, 1.5)),
                   offset=(cam_params.offset[0] + 4 * dx, cam_params.offset[1] + 4 * dy))


def board_image(scene: Scene, view: View, board: Board, jitters: dict[tuple[int, int], tuple[float, float]]
                ) -> np.ndarray:
    """The table and the board with its chips, before hands and light."""
    art = replace(scene.blank, image_bgr=scene.blank.image_bgr.copy())
    paint_chips(art, board, scene.chips, view.work, scene.light_xyz, jitters)
    image, _ = laid_board(view.table_bgr, art, view.map_xy, scene.half)
    return image


@dataclass(frozen=True)
class HandPass:
    """A hand on its way to a cell: ``reach`` 0 out of view, 1 at the cell."""

    params: HandParams
    reach: float


def lit_frame(scene: Scene, view: View, base: np.ndarray, hand: HandPass | None, exposure: float,
              rng: np.random.Generator) -> np.ndarray:
    """One frame: the hand drawn over the board, then the light, blur and sensor noise."""
    image = base.copy()
    field = view.field
    if hand is not None:
        target = np.array([hand.params.target])
        tip = world_to_image(view.work, target, scene.surface)[0]
        h, w = image.shape[:2]
        away = tip + (_edge_point(tip, hand.params.edge, w, h) - tip) * 1.4
        tip_now = away + (tip - away) * hand.reach
        s = _local_scale(view.work, hand.params.target, scene.surface)
        mask = draw_hand(image, hand.params, tip_now, s, rng)
        toward = world_to_image(view.work, np.array([hand.params.target, (hand.params.target[0] + scene.light_xyz[0] * 20,
                                                                          hand.params.target[1] + scene.light_xyz[1] * 20)]),
                                scene.surface)
        d = (toward[1] - toward[0]) / max(float(np.linalg.norm(toward[1] - toward[0])), 1e-6)
        occluded = cv2.resize(mask, (field.shape[1], field.shape[0]), interpolation=cv2.INTER_AREA) / np.float32(255)
        field = field * hand_shade(mask, shadow_offset_px(hand.params, s, d, scene.light.elevation_deg), occluded)
    h, w = image.shape[:2]
    light = replace(scene.light, exposure=scene.light.exposure * exposure)
    image = lighting.apply_light(image, light, lighting.enlarge(field, w, h), view.glare)
    image = lighting.blur(image, scene.sensor, 1.0)
    luma = np.round(rng.standard_normal(image.shape[:2], dtype=np.float32) * scene.sensor.noise).astype(np.int16)
    return cv2.add(image, cv2.merge([luma, luma, luma]), dtype=cv2.CV_8U)


def _edge_point(tip_xy: np.ndarray, edge: int, w: int, h: int) -> np.ndarray:
    """Where an arm reaching ``tip_xy`` from image edge ``edge`` (0 top, 1 right, 2 bottom, 3 left) comes in."""
    return np.array([(tip_xy[0], -0.1 * h), (1.1 * w, tip_xy[1]), (tip_xy[0], 1.1 * h), (-0.1 * w, tip_xy[1])][edge])


def _nearest_edge(tip_xy: np.ndarray, w: int, h: int) -> int:
    return int(np.argmin([tip_xy[1], w - tip_xy[0], h - tip_xy[1], tip_xy[0]]))


@dataclass
class RenderedVideo:
    frames: Iterator[np.ndarray]
    label: dict[str, Any]


def cell_world(scene: Scene, rc: tuple[int, int]) -> tuple[float, float]:
    x, y = scene.blank.cell_centre(*rc)
    ppm = scene.blank.px_per_mm
    return float((x + 0.5) / ppm - scene.half[0]), float((y + 0.5) / ppm - scene.half[1])


def render_video(rng: np.random.Generator, settings: VideoSettings = VideoSettings()) -> RenderedVideo:
    """A game from one camera. The label is complete before the frames are drawn; frames are
    drawn lazily, in order."""
    players = int(rng.choice([2, 3, 4]))
    _, moves, teams = game_moves(rng, players)
    first = 0 if settings.moves is None else max(0, len(moves) - settings.moves)
    first = max([first] + [i for i, m in enumerate(moves) if m.after_pass])  # the camera sees every turn shown
    shown = moves[first:]
    start = moves[first - 1].after if first > 0 else Board.empty()
    config = replace(VIDEO_CONFIG, sizes=(settings.size,))
    scene = sample_scene(rng, config=config)
    bump_after = int(rng.integers(len(shown) // 3, max(len(shown) // 3 + 1, 2 * len(shown) // 3)))
    second_camera = bumped(scene.cam_params, rng, settings.bump_px)
    per_move = settings.per_move_s
    events: list[dict[str, Any]] = []
    for i, move in enumerate(shown):
        hand_in = settings.lead_s + i * per_move
        out = hand_in + settings.reach_s + settings.hold_s + settings.leave_s
        common = {"t": round(out, 3), "hand_in_t": round(hand_in, 3)}
        events.append({**common, "type": move.kind, "team": move.team, "cell": list(move.cell), "cells": None})
        for cells in move.sequences:
            events.append({**common, "type": "sequence", "team": move.team, "cell": None,
                           "cells": [list(c) for c in cells]})
        if move.winner is not None and (i == 0 or shown[i - 1].winner is None):
            events.append({**common, "type": "winner", "team": move.winner, "cell": None, "cells": None})
    # late in a rest, once the last move has had time to be seen
    bump_t = settings.lead_s + (bump_after + 1) * per_move - 0.2 * settings.settle_s
    label = {"size": list(settings.size), "fps": settings.fps, "frames": settings.frame_count(len(shown)),
             "teams": teams, "players": players, "start_grid": start.rows(), "final_grid": shown[-1].after.rows(),
             "events": events, "bumps": [round(bump_t, 3)], "settings": _plain(settings)}
    frames = _frames(scene, config, second_camera, start, shown, settings, bump_t, rng)
    return RenderedVideo(frames, label)


def _frames(scene: Scene, config: RenderConfig, second_camera: CameraParams, start: Board, shown: list[Move],
            settings: VideoSettings, bump_t: float, rng: np.random.Generator) -> Iterator[np.ndarray]:
    view = view_of(scene, scene.cam_params, config)
    jitter_rng = np.random.default_rng(int(rng.integers(2**31)))
    full = Board("".join("B" if c == "." else c for c in Board.empty().cells))
    all_jitters = chip_jitters(scene.blank, full, scene.chips, jitter_rng)  # one resting place per cell
    jitters = dict(all_jitters)
    board = start
    base = board_image(scene, view, board, jitters)
    phase = rng.uniform(0, 2 * np.pi)
    period = rng.uniform(15, 40)
    dt = 1.0 / settings.fps
    per_move = settings.per_move_s
    n_frames = settings.frame_count(len(shown))
    hands = [_hand_for(scene, view, m, rng) for m in shown]
    bumped_yet = False
    shown_index = -1
    for k in range(n_frames):
        t = k * dt
        if not bumped_yet and t >= bump_t:
            view = view_of(scene, second_camera, config)
            base = board_image(scene, view, board, jitters)
            bumped_yet = True
        i = int((t - settings.lead_s) // per_move) if t >= settings.lead_s else -1
        into = t - settings.lead_s - i * per_move
        hand = None
        if 0 <= i < len(shown):
            if i != shown_index and into >= settings.reach_s:  # the chip changes under the hand
                shown_index = i
                board = shown[i].after
                if rng.random() < settings.nudge_share:
                    _nudge(jitters, shown[i].cell, board, scene.blank.cell_w * settings.nudge_cells, rng)
                base = board_image(scene, view, board, jitters)
            reach = _reach(into, settings)
            if reach > 0:
                hand = HandPass(hands[i], reach)
        exposure = 1.0 + settings.exposure_drift * np.sin(2 * np.pi * t / period + phase)
        yield lit_frame(scene, view, base, hand, float(exposure), rng)


def _reach(into: float, s: VideoSettings) -> float:
    """How far in the hand is, ``into`` seconds after it started towards the cell."""
    if into < s.reach_s:
        return into / s.reach_s
    if into < s.reach_s + s.hold_s:
        return 1.0
    return max(0.0, 1.0 - (into - s.reach_s - s.hold_s) / s.leave_s)


def _hand_for(scene: Scene, view: View, move: Move, rng: np.random.Generator) -> HandParams:
    target = cell_world(scene, move.cell)
    params = sample_hand(rng, target)
    tip = world_to_image(view.work, np.array([target]), scene.surface)[0]
    edge = params.edge if params.edge >= 0 else _nearest_edge(tip, view.work.width, view.work.height)
    return replace(params, edge=edge, height_mm=min(params.height_mm, 60.0))


def _nudge(jitters: dict[tuple[int, int], tuple[float, float]], rc: tuple[int, int], board: Board, push: float,
           rng: np.random.Generator) -> None:
    """A chip next to the played cell gets pushed a little by the hand."""
    around = [(rc[0] + dr, rc[1] + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
    occupied = [p for p in around if 0 <= p[0] < SIZE and 0 <= p[1] < SIZE and board[p[0] * SIZE + p[1]] in "BGR"]
    if occupied:
        p = occupied[int(rng.integers(len(occupied)))]
        angle = rng.uniform(0, 2 * np.pi)
        x, y = jitters[p]
        jitters[p] = (x + push * float(np.cos(angle)), y + push * float(np.sin(angle)))


def _plain(settings: VideoSettings) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in settings.__dict__.items()}


def write_video(path: Path, video: RenderedVideo) -> Path:
    """Writes the frames as an .mp4 (MPEG-4 part 2) and the label beside it (same stem, .json)."""
    w, h = video.label["size"]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), video.label["fps"], (w, h))
    if not writer.isOpened():
        raise RuntimeError(f"OpenCV cannot write an MP4 video to {path}")
    try:
        for frame in video.frames:
            writer.write(frame)
    finally:
        writer.release()
    label_path = path.with_suffix(".json")
    label_path.write_text(json.dumps(video.label, indent=1) + "\n")
    return label_path


def video_seed(seed: int, index: int) -> np.random.SeedSequence:
    return np.random.SeedSequence([seed, index, 0x71DE0])


GAME_STEM = "game_{:03d}"


def render_video_set(out_dir: Path, games: int, seed: int, settings: VideoSettings = VideoSettings(),
                     progress: Callable[[int], None] | None = None) -> list[Path]:
    """Writes ``games`` videos (GAME.mp4 + GAME.json); video ``i`` depends only on ``seed`` and ``i``."""
    paths = []
    for index in range(games):
        paths.append(render_game(out_dir, seed, index, settings)[0])
        if progress is not None:
            progress(index + 1)
    return paths


def render_game(out_dir: Path, seed: int, index: int, settings: VideoSettings = VideoSettings()
                ) -> tuple[Path, dict[str, Any]]:
    """Writes video ``index`` of the set ``seed`` (GAME.mp4 + GAME.json); its path and label."""
    video = render_video(np.random.default_rng(video_seed(seed, index)), settings)
    video.label["seed"], video.label["index"] = seed, index
    path = out_dir / (GAME_STEM.format(index) + ".mp4")
    write_video(path, video)
    return path, video.label
