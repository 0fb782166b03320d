"""Valid inputs the fuzz tests start from: a calibration profile, small JPEG and PNG photos, a game record."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest

from referee.bots import play_game
from referee.game import Game
from referee.record import record_of

from vision.profile import REFERENCE_CELL_PX, SCHEMA, VERSION


@pytest.fixture(scope="session")
def valid_profile() -> dict[str, Any]:
    import base64

    side = 10 * REFERENCE_CELL_PX
    png = cv2.imencode(".png", np.full((side, side, 3), 180, np.uint8))[1].tobytes()
    return {"schema": SCHEMA, "version": VERSION,
            "board": {"cell_aspect": 1.4, "paper_bgr": [200.0, 210.0, 220.0], "reference_cell_px": REFERENCE_CELL_PX,
                      "reference_png_base64": base64.b64encode(png).decode("ascii")},
            "chips": {"B": [-5.0, -30.0], "G": [-30.0, 10.0]},
            "lens": {"image_size": [640, 480], "matrix": [[500, 0, 320], [0, 500, 240], [0, 0, 1]],
                     "distortion": [0.1, 0.0, 0.0, 0.0, 0.0], "rms_px": 0.4},
            "quality": {}, "sources": {}}


@pytest.fixture(scope="session")
def small_photos() -> list[bytes]:
    rng = np.random.default_rng(7)
    image = rng.integers(0, 255, (48, 64, 3), np.uint8)
    return [cv2.imencode(ext, image)[1].tobytes() for ext in (".jpg", ".png")]


@pytest.fixture(scope="session")
def game_record() -> dict[str, Any]:
    """A whole two-player game played by the bots, as its JSON record."""
    rng = np.random.default_rng(11)
    return record_of(play_game(Game.new(2, rng), rng)).to_json()
