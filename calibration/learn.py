"""Learning a calibration profile from the photos players take once.

* the empty board: located and oriented with no set-up, then kept as the reference grid
  (every printed cell as it looks here), with the card paper's colour and the cells' aspect;
* photos with known chips (optional, e.g. a row of each colour): each team's chip colour;
* checkerboard photos (optional, ``calibration.lens``): the lens distortion.

Everything found doubtful is reported in words the players can act on.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date
from enum import Enum

import cv2
import numpy as np

from referee.board import CHIP_COLOURS, EMPTY, UNKNOWN
from vision.cell_model import CLASSES
from vision.config import VisionConfig
from vision.errors import BoardCutOff, BoardNotFound, VisionError
from vision.lens import undistorted
from vision.locate_reference import locate_by_reference
from vision.pipeline import analyze_image, rectified_board, reference_lab
from vision.profile import REFERENCE_CELL_PX, TEAMS, LensModel, Profile
from vision.read_cells import cell_probabilities, cluster_team_colours, measure_cells, prepare, reference_change

MIN_PAPER_LIGHTNESS = 110  # the cards' paper darker than this (0-255): the photo is too dark
MAX_CHIPS_ON_EMPTY = 2  # more cells than this read as chips: the "empty" board is not empty
MIN_CHIPS_PER_TEAM = 3


class CalibrationError(VisionError):
    """A calibration photo that cannot be used; the message says what to do, ``code`` which
    problem it was (board_not_found, board_cut_off) for a page to say in any language."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


class NoteKind(str, Enum):
    ORIENTATION_UNCERTAIN = "orientation_uncertain"
    CHIPS_ON_EMPTY = "chips_on_empty"
    UNCLEAR_CELLS = "unclear_cells"
    DARK = "dark"
    FEW_CHIPS = "few_chips"


@dataclass(frozen=True)
class CalibrationNote:
    """Something that looked doubtful, what to do about it, and a stable code with the
    numbers in it (``params``) for translations."""

    kind: NoteKind
    message: str
    params: dict[str, int | str] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class Calibration:
    profile: Profile
    learned: tuple[str, ...]  # what was learned, for people
    warnings: tuple[CalibrationNote, ...]


def calibrate(empty_bgr: np.ndarray, chip_photos: tuple[np.ndarray, ...] = (), lens: LensModel | None = None,
              config: VisionConfig | None = None, sources: dict | None = None) -> Calibration:
    """A profile from a photo of the empty board (BGR uint8), optional photos with chips of
    known teams on it, and an optional lens model. Raises CalibrationError."""
    config = config or VisionConfig()
    image = undistorted(empty_bgr, lens) if lens is not None else empty_bgr
    try:
        analysis = analyze_image(image, 3, config)
    except BoardCutOff as error:
        raise CalibrationError(f"Empty-board photo: {error}", "board_cut_off") from None
    except BoardNotFound:
        raise CalibrationError("The board was not found in the empty-board photo. Photograph the whole empty "
                               "board from above, in good light, filling most of the photo.",
                               "board_not_found") from None
    warnings = [CalibrationNote(NoteKind.ORIENTATION_UNCERTAIN,
                                "Empty-board photo: cannot tell which side of the board is the top. Take it again "
                                "with the whole board in view and nothing on it.") for _ in analysis.warnings]
    reference = rectified_board(image, analysis.lattice_xy, REFERENCE_CELL_PX)
    cells = analysis.board.cells
    chips = sum(symbol in CHIP_COLOURS for symbol in cells)
    unclear = cells.count(UNKNOWN)
    if chips > MAX_CHIPS_ON_EMPTY:
        warnings.append(CalibrationNote(NoteKind.CHIPS_ON_EMPTY,
                                        f"{chips} cells of the empty-board photo look like chips. Clear the board "
                                        "and calibrate again, or card art there may later be missed as chips.",
                                        {"count": chips}))
    if unclear:
        warnings.append(CalibrationNote(NoteKind.UNCLEAR_CELLS,
                                        f"{unclear} cells of the empty-board photo were not clear (glare, shadow or "
                                        "a hand?).", {"count": unclear}))
    paper = paper_colour(reference, cells)
    if max(paper) < MIN_PAPER_LIGHTNESS:
        warnings.append(CalibrationNote(NoteKind.DARK, "The empty-board photo is dark: turn on a light and "
                                        "calibrate again."))
    aspect = cell_aspect(analysis.lattice_xy, image.shape[1], image.shape[0])
    learned = [f"the empty board: {cells.count(EMPTY)} printed cells seen clearly, cell aspect {aspect:.2f}",
               f"the light: card paper at BGR {tuple(round(v) for v in paper)}"]
    profile = Profile(reference_bgr=reference, cell_aspect=aspect, paper_bgr=paper, lens=lens,
                      quality={"clear_cells": cells.count(EMPTY), "unclear_cells": unclear,
                               "chip_like_cells": chips, "created": date.today().isoformat()},
                      sources=dict(sources or {}))
    if lens is not None:
        learned.append(f"the lens: distortion {np.round(lens.distortion[:2], 3).tolist()} "
                       f"(reprojection error {lens.rms_px:.2f} px)")
    if chip_photos:
        chip_ab, counts = chip_colours(chip_photos, profile, config)
        for team in TEAMS:
            if counts.get(team, 0) >= MIN_CHIPS_PER_TEAM:
                learned.append(f"{team} chips: {counts[team]} seen, colour (a, b) "
                               f"{tuple(round(v, 1) for v in chip_ab[team])}")
        missing = [t for t in TEAMS if 0 < counts.get(t, 0) < MIN_CHIPS_PER_TEAM]
        if missing:
            warnings.append(CalibrationNote(NoteKind.FEW_CHIPS,
                                            f"Too few chips of {', '.join(missing)} were seen to learn their colour: "
                                            "put a row of each colour on the board.", {"teams": ", ".join(missing)}))
        profile = replace(profile, chip_ab={t: chip_ab[t] for t in TEAMS if counts.get(t, 0) >= MIN_CHIPS_PER_TEAM})
    return Calibration(profile, tuple(learned), tuple(warnings))


def paper_colour(board_bgr: np.ndarray, cells: str) -> tuple[float, float, float]:
    """The mean colour of the lightest tenth of the empty cards' pixels."""
    cell = board_bgr.shape[0] // 10
    empty = [i for i, symbol in enumerate(cells) if symbol == EMPTY] or list(range(100))
    pixels = np.concatenate([board_bgr[(i // 10) * cell:(i // 10 + 1) * cell, (i % 10) * cell:(i % 10 + 1) * cell]
                             .reshape(-1, 3) for i in empty]).astype(np.float32)
    brightness = pixels.sum(axis=1)
    light = pixels[brightness >= np.quantile(brightness, 0.9)]
    return tuple(float(v) for v in light.mean(axis=0))  # type: ignore[return-value]


def cell_aspect(lattice_xy: np.ndarray, width: int, height: int) -> float:
    """The printed cells' height over width, undoing the grid's perspective. With square
    pixels and the principal point at the photo's centre, the grid's right angle gives the
    focal length; when the camera tilts about one of the grid's own axes it does not, and a
    phone's usual field of view (about 65 degrees across) stands in."""
    grid = np.float32([[0, 0], [10, 0], [10, 10], [0, 10]])
    corners = np.float32([lattice_xy[0, 0], lattice_xy[0, 10], lattice_xy[10, 10], lattice_xy[10, 0]])
    homography = cv2.getPerspectiveTransform(grid, corners)
    centred = np.array([[1, 0, -width / 2], [0, 1, -height / 2], [0, 0, 1]]) @ homography
    h1, h2 = centred[:, 0], centred[:, 1]
    typical = (0.78 * max(width, height)) ** 2
    product = h1[2] * h2[2]
    # r1 . r2 = 0 with K = diag(f, f, 1):  (h1x h2x + h1y h2y) / f^2 + h1z h2z = 0
    f_squared = -(h1[0] * h2[0] + h1[1] * h2[1]) / product if abs(product) > 1e-12 else -1.0
    if not 0.1 * typical < f_squared < 10 * typical:
        f_squared = typical
    scale = np.array([1.0, 1.0, np.sqrt(f_squared)])  # f K^-1 h, up to a common factor
    return float(np.linalg.norm(h2 * scale) / np.linalg.norm(h1 * scale))


def chip_colours(photos: tuple[np.ndarray, ...], profile: Profile, config: VisionConfig
                 ) -> tuple[dict[str, tuple[float, float]], dict[str, int]]:
    """Each team's chip colour (white-balanced a, b) and how many chips showed it, from photos
    of the calibrated board with chips on it."""
    colours = []
    for photo in photos:
        image = undistorted(photo, profile.lens) if profile.lens is not None else photo
        try:
            fit = locate_by_reference(image, profile, config)
        except BoardCutOff:
            fit = None
        if fit is None:
            continue
        board = rectified_board(image, fit.lattice_xy, config.cell_px)
        prepared = prepare(board, config)
        features = measure_cells(prepared, config)
        reference = reference_lab(profile, board.shape[0], config)  # oriented: the artwork found it
        change = reference_change(prepared, reference, features.centre_yx, config).reshape(-1)
        kinds = cell_probabilities(features).argmax(axis=1)
        chips = (change > config.chip_min_change) & (kinds == CLASSES.index("chip"))
        colours.append(features.colour_lab.reshape(-1, 3)[chips, 1:])
    found = np.concatenate(colours) if colours else np.zeros((0, 2), np.float32)
    centres = cluster_team_colours(found, TEAMS, config)
    names = list(centres)
    nearest = np.stack([np.linalg.norm(found - centres[t], axis=1) for t in names]).argmin(axis=0) if len(found) \
        else np.zeros(0, int)
    counts = {team: int((nearest == i).sum()) for i, team in enumerate(names)}
    return {t: (float(c[0]), float(c[1])) for t, c in centres.items()}, counts
