"""A calibration profile: what seqcam learned about one table's board, chips and camera.

``calibration/`` learns it from photos (``seqcam calibrate``); ``vision`` only reads it. It is
a JSON file people can read: a schema name and version, what was learned and how sure the
calibration was, and the empty board itself as a small PNG (the rectified grid in its
printed orientation), so that card art is never taken for a chip and the board can be found
by its own artwork.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.errors import VisionError

SCHEMA = "seqcam-calibration"
VERSION = 1
MAX_PROFILE_BYTES = 2_000_000
REFERENCE_CELL_PX = 24  # the stored empty board's cell side
REFERENCE_SIDE_PX = 10 * REFERENCE_CELL_PX
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
TEAMS = ("B", "G", "R")


class ProfileError(VisionError):
    """A calibration profile that cannot be used (missing, corrupt, another version)."""


@dataclass(frozen=True)
class LensModel:
    """OpenCV's pinhole camera with radial and tangential distortion, for one image size."""

    image_size: tuple[int, int]  # (width, height) the model was measured at
    matrix: np.ndarray  # (3, 3)
    distortion: np.ndarray  # (5,) k1 k2 p1 p2 k3
    rms_px: float  # reprojection error of the checkerboard calibration


@dataclass(frozen=True, eq=False)  # compared and cached by identity
class Profile:
    reference_bgr: np.ndarray  # (10 * 24, 10 * 24, 3) uint8, the empty grid rectified, printed orientation
    cell_aspect: float  # cell height / width as printed
    paper_bgr: tuple[float, float, float]  # the card paper's colour under the calibration light
    chip_ab: dict[str, tuple[float, float]] = field(default_factory=dict)  # team -> (a, b), white-balanced
    lens: LensModel | None = None
    quality: dict[str, Any] = field(default_factory=dict)  # how sure each part was (for people)
    sources: dict[str, Any] = field(default_factory=dict)  # the photos it came from

    def to_json(self) -> dict[str, Any]:
        ok, png = cv2.imencode(".png", self.reference_bgr)
        data: dict[str, Any] = {
            "schema": SCHEMA,
            "version": VERSION,
            "board": {"cell_aspect": round(self.cell_aspect, 4),
                      "paper_bgr": [round(v, 1) for v in self.paper_bgr],
                      "reference_cell_px": REFERENCE_CELL_PX,
                      "reference_png_base64": base64.b64encode(png.tobytes()).decode("ascii")},
            "chips": {team: [round(a, 2), round(b, 2)] for team, (a, b) in self.chip_ab.items()},
            "lens": None,
            "quality": self.quality,
            "sources": self.sources,
        }
        if self.lens is not None:
            data["lens"] = {"image_size": list(self.lens.image_size),
                            "matrix": np.round(self.lens.matrix, 4).tolist(),
                            "distortion": np.round(self.lens.distortion, 6).tolist(),
                            "rms_px": round(self.lens.rms_px, 3)}
        return data

    @classmethod
    def from_json(cls, data: Any) -> Profile:
        """Raises ProfileError naming what is wrong."""
        if not isinstance(data, dict) or data.get("schema") != SCHEMA:
            raise ProfileError("This file is not a seqcam calibration profile. Make one with seqcam calibrate.")
        if data.get("version") != VERSION:
            raise ProfileError(f"This calibration profile has version {data.get('version')!r}; this seqcam reads "
                               f"version {VERSION}. Calibrate again with this seqcam.")
        try:
            board = data["board"]
            reference = _decode_png(board["reference_png_base64"])
            aspect = float(board["cell_aspect"])
            paper = tuple(float(v) for v in board["paper_bgr"])
            chips = {str(t): (float(ab[0]), float(ab[1])) for t, ab in (data.get("chips") or {}).items()}
            lens = _lens_from_json(data.get("lens"))
            quality, sources = dict(data.get("quality") or {}), dict(data.get("sources") or {})
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:  # any part of the wrong shape
            raise ProfileError(f"This calibration profile is damaged ({error.__class__.__name__}: {error}). "
                               "Calibrate again.") from None
        if reference.shape != (REFERENCE_SIDE_PX, REFERENCE_SIDE_PX, 3) or not 0.5 <= aspect <= 2.0 or len(paper) != 3:
            raise ProfileError("This calibration profile is damaged (its board image or sizes are wrong). "
                               "Calibrate again.")
        if any(team not in TEAMS for team in chips):
            raise ProfileError("This calibration profile names an unknown team colour. Calibrate again.")
        return cls(reference, aspect, paper, chips, lens, quality, sources)


def _decode_png(text: str) -> np.ndarray:
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, TypeError) as error:
        raise ValueError("the board image is not base64") from error
    if not raw.startswith(_PNG_SIGNATURE) or _png_size(raw) != (REFERENCE_SIDE_PX, REFERENCE_SIDE_PX):
        # Checked before decoding: a hostile profile's image could claim gigapixels.
        raise ValueError(f"the board image is not a {REFERENCE_SIDE_PX} x {REFERENCE_SIDE_PX} PNG")
    image = cv2.imdecode(np.frombuffer(raw, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise ValueError("the board image is not a PNG")
    return image


def _png_size(raw: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk (raises ValueError when it is missing)."""
    if len(raw) < 24 or raw[12:16] != b"IHDR":
        raise ValueError("the board image has no PNG header")
    return int.from_bytes(raw[16:20], "big"), int.from_bytes(raw[20:24], "big")


def _lens_from_json(data: Any) -> LensModel | None:
    if data is None:
        return None
    matrix = np.array(data["matrix"], np.float64)
    distortion = np.array(data["distortion"], np.float64).reshape(-1)
    width, height = (int(v) for v in data["image_size"])
    if matrix.shape != (3, 3) or distortion.shape != (5,) or not np.isfinite(matrix).all() \
            or not np.isfinite(distortion).all() or width <= 0 or height <= 0:
        raise ValueError("the lens model has the wrong shape")
    return LensModel((width, height), matrix, distortion, float(data.get("rms_px", 0.0)))


def save_profile(profile: Profile, path: Path) -> None:
    path.write_text(json.dumps(profile.to_json(), indent=1) + "\n")


def load_profile(path: Path) -> Profile:
    """The profile in ``path``; ProfileError with a sentence for the player otherwise."""
    try:
        size = path.stat().st_size
        if size > MAX_PROFILE_BYTES:
            raise ProfileError(f"{path.name} is {size // 1_000_000} MB: far too big for a calibration profile.")
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ProfileError(f"No calibration profile at {path}. Make one with seqcam calibrate.") from None
    except UnicodeDecodeError:
        raise ProfileError(f"{path.name} is not a calibration profile (a profile is a JSON text file; a photo "
                           "is calibrated with seqcam calibrate PHOTO -o PROFILE).") from None
    except OSError as error:
        raise ProfileError(f"Cannot read the calibration profile {path.name}: {error.strerror or error}.") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ProfileError(f"{path.name} is not valid JSON (line {error.lineno}): it is not a calibration "
                           "profile, or it was damaged. Calibrate again.") from None
    return Profile.from_json(data)
