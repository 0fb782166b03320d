"""Writing labelled photo sets: ``IMAGE.jpg`` + ``IMAGE.json`` pairs.

Photo ``k`` of a set is drawn from its own child seed, so it is the same whatever the
set's size: board photos use ``SeedSequence(seed).spawn(2)[0].spawn(n)[k]`` and photos
without a board ``SeedSequence(seed).spawn(2)[1].spawn(no_board)[k]``.
"""

from __future__ import annotations

import json
import pathlib
from dataclasses import replace
from collections.abc import Callable

import numpy as np

from vision.render.config import DEFAULT_CONFIG, RenderConfig
from vision.render.photo import Kit, Rendered, render, sample_scene_start

BOARD_STEM = "photo_{:04d}"
NO_BOARD_STEM = "noboard_{:04d}"


def photo_seeds(seed: int, n: int, no_board: int) -> tuple[list[np.random.SeedSequence], list[np.random.SeedSequence]]:
    """Child seeds of the board photos and of the photos without a board."""
    board_root, empty_root = np.random.SeedSequence(seed).spawn(2)
    return board_root.spawn(n), empty_root.spawn(no_board)


def render_one(seed: int, index: int, *, with_board: bool = True, config: RenderConfig = DEFAULT_CONFIG) -> Rendered:
    """Photo ``index`` of the set made with ``seed`` (board photos or no-board photos)."""
    root = np.random.SeedSequence(seed).spawn(2)[0 if with_board else 1]
    child = root.spawn(index + 1)[index]
    rendered = render(np.random.default_rng(child), with_board=with_board, config=config)
    rendered.label["seed"] = seed
    rendered.label["index"] = index
    return rendered


# How players photograph the empty board once for a calibration: the whole board in view,
# from their seat, nothing in the way.
CALIBRATION_CONFIG = RenderConfig(tilt_max_deg=35.0, fill_range=(0.55, 0.9), hand_share=0.0, cut_off_share=0.0,
                                  board_object_share=0.0, turns=0)


def kit_of(seed: int, index: int, config: RenderConfig = DEFAULT_CONFIG) -> Kit:
    """The board printing and chips of board photo ``index`` of the set made with ``seed``."""
    child = np.random.SeedSequence(seed).spawn(2)[0].spawn(index + 1)[index]
    _, art_params, _, chips, _ = sample_scene_start(np.random.default_rng(child), True, config)
    assert art_params is not None
    return Kit(art_params, chips)


def render_calibration(seed: int, index: int, turns: int = 0) -> Rendered:
    """A calibration photo of the game in board photo ``index``: same printing and chips,
    its own camera and light; the board empty (``turns=0``) or after ``turns`` turns."""
    child = np.random.SeedSequence([seed, index, 0xCA1]).spawn(1)[0]
    config = replace(CALIBRATION_CONFIG, turns=turns)
    rendered = render(np.random.default_rng(child), config=config, kit=kit_of(seed, index))
    rendered.label["seed"] = seed
    rendered.label["index"] = index
    return rendered


def label_json(label: dict) -> str:
    """The label as JSON text: one top-level field per line, ``grid`` one row per line."""
    lines = []
    for key, value in label.items():
        if key == "grid" and value is not None:
            rows = ",\n  ".join(json.dumps(row) for row in value)
            lines.append(f' "{key}": [\n  {rows}\n ]')
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value, separators=(', ', ': '))}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def write_photo(out_dir: pathlib.Path, stem: str, rendered: Rendered) -> pathlib.Path:
    """Writes ``stem.jpg`` and ``stem.json``; returns the image's path."""
    image_path = out_dir / f"{stem}.jpg"
    image_path.write_bytes(rendered.jpeg)
    label = dict(rendered.label)
    label["image"] = image_path.name
    (out_dir / f"{stem}.json").write_text(label_json(label))
    return image_path


def render_set(out_dir: pathlib.Path, n: int, seed: int, *, no_board: int = 0,
               progress: Callable[[int], None] | None = None,
               config: RenderConfig = DEFAULT_CONFIG) -> list[pathlib.Path]:
    """Renders ``n`` photos with a board and ``no_board`` without one into ``out_dir``.

    Files are ``photo_0000.jpg``/``.json`` ... and ``noboard_0000.jpg``/``.json`` ...;
    ``progress`` is called with the number of photos written so far. Returns the image
    paths, board photos first. The same ``seed`` gives the same files.
    """
    if n < 0 or no_board < 0:
        raise ValueError(f"photo counts must not be negative, got n={n}, no_board={no_board}")
    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    board_seeds, empty_seeds = photo_seeds(seed, n, no_board)
    jobs = [(BOARD_STEM.format(k), s, True, k) for k, s in enumerate(board_seeds)]
    jobs += [(NO_BOARD_STEM.format(k), s, False, k) for k, s in enumerate(empty_seeds)]
    paths = []
    for done, (stem, child, with_board, index) in enumerate(jobs, start=1):
        rendered = render(np.random.default_rng(child), with_board=with_board, config=config)
        rendered.label["seed"] = seed
        rendered.label["index"] = index
        paths.append(write_photo(out_dir, stem, rendered))
        if progress is not None:
            progress(done)
    return paths
