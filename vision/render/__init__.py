"""Labelled synthetic photos of a Sequence board, for developing and benchmarking ``vision``.

>>> import numpy as np
>>> image, label = render_photo(np.random.default_rng(7))
>>> image.dtype, image.ndim, label["has_board"], len(label["grid"])
(dtype('uint8'), 3, True, 10)

Label fields (see ``photo._label``): ``grid`` (the true contents, row 0 first, in the
grid text form), ``occluded`` ([row, col] cells whose chip region a hand or an object
covers, or the frame cuts off), ``covered_share`` (how much of each cell's chip region
is so covered, 0 to 1, cells in reading order: ``occluded`` are those covered at least
half), ``glare`` (cells washed out by a reflection),
``teams``, ``corners_px`` (image (x, y) of the printed grid's outer corners: cell (0, 0),
(0, 9), (9, 9), (9, 0); pixel centres at integers), ``board_fully_visible``,
``has_board``, ``image_size`` [w, h], ``seed``, ``index`` and ``varied`` (every drawn
parameter plus coarse buckets for benchmark breakdowns).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from vision.render.config import DEFAULT_CONFIG, QUIET_CONFIG, RenderConfig
from vision.render.dataset import render_one, render_set
from vision.render.photo import Rendered, render

__all__ = ["DEFAULT_CONFIG", "QUIET_CONFIG", "RenderConfig", "Rendered", "render", "render_one", "render_photo",
           "render_set"]


def render_photo(rng: np.random.Generator, *, with_board: bool = True,
                 config: RenderConfig = DEFAULT_CONFIG) -> tuple[np.ndarray, dict[str, Any]]:
    """One BGR uint8 photo (as decoded from its JPEG) and its label dict."""
    rendered = render(rng, with_board=with_board, config=config)
    return rendered.image_bgr(), rendered.label
