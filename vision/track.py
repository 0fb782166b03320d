"""Following a board through a video: locate it once, then watch it cheaply.

The board is located and read in full (``analyze_image``: locating, orientation) until two
locatings in a row agree. A board the locator's verdict turns down in every frame (blurred,
its cards under chips) is taken when the same fit comes back and many chips lie on it. After that every frame is warped, with the lattice already known, to a small
thumbnail of the grid and a ring of one cell around it, and compared with a reference
thumbnail of the board at rest, cell by cell where a chip lies:

- nothing changed: the board rests, and the reference slowly follows the light, except on
  cells changed faintly (a pale chip on a white card: an empty card stays so until its change
  is well under ``faint_change``), which are read once the picture is still;
- a few cells changed and nothing crossed the ring: those cells are read (the pipeline's
  read stage only). A cell whose reading holds for ``stable_s`` seconds and
  ``stable_frames`` frames is settled; settled new chips and emptied cells are accepted
  together, and the reference takes the cells' new picture. An empty card whose picture
  changed passes as empty only if read so clearly. Where the reader abstains on it, the colour
  where the card's picture changed most says whose chip came, if it is clearly one team's
  (against that team's chips elsewhere in the same picture); read ? for ``unsure_s`` it is
  held as ? (a chip no one can make out: the referee then blames nobody for a move it missed);
- many cells covered side by side (lone changed cells are chips, or cards the light changed),
  or the ring crossed: hands are over the board, nothing counts, but
  for a move that was settling when they came, apart from them (no covered cell beside it,
  its picture steady): the next player may reach in before the last move has settled;
- the whole picture slid, or most of it changed (for ``blink_s`` at most, then as it was with
  no hand: a flicker, after which a move's readings go on): once the picture is still, the lattice is
  moved with it (phase correlation per quarter of the thumbnail; the ring then takes the new
  picture once it is still with no hand on the board), else the board is located
  again and the new lattice kept, turned to agree with the board as it was, if the board
  then looks as before (found where it was, but unlike the reference for ``stale_after_s``:
  the reference caught a hand, and a new one is taken); the whole board is then read afresh, where more than
  ``max_fresh_changes`` differences are misreadings, not moves (but for chips placed since,
  which changed their card's picture as a chip does), and so is a card that reads otherwise
  only later, its picture unchanged (glare read now as a chip, now as an empty card), or not
  clearly (``clear_max_doubts``). The view is read once every cell has settled, or read ? for
  ``unsure_s``; cells under or beside a hand resting a moment are not taken into the
  reference (nor is the ring under its arm) until the picture has been still for ``still_s``.
  Not found for ``lost_after_s``: the board is reported lost.

The first reference may hold a hand (the board was found while one lay on it): until it is
seen at rest with none, a brief stillness with many cells unlike it makes a new view of it
(players' hands come and go too fast to leave ``still_s`` between them).

Only cells whose picture changed are read, so a cell that the reader calls differently
from one frame to the next never makes a move on its own.

>>> tracker = Tracker(2)
>>> tracker.feed(np.zeros((360, 640, 3), np.uint8), t=0.0, frame=0)
[]
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace

import cv2
import numpy as np

from referee.board import EMPTY, UNKNOWN, Board
from referee.cells import teams_for
from vision.config import VisionConfig
from vision.errors import BoardNotFound, VisionError, VisionWarning, VisionWarningKind
from vision.locate import Candidate, GridFit, fit_near
from vision.pipeline import (Analysis, analyze_image, lazy_patches, read_by_print, read_rectified, rectified_board,
                             second_looks, top_unsure, turned)
from vision.profile import Profile
from vision.read_cells import around, cell_pixels, model_odds, team_of
from vision.warp import GRID, outer_corners, rotate_lattice

BOARD_FOUND = "board_found"
BOARD_LOST = "board_lost"
BOARD_CHANGED = "board_changed"


@dataclass(frozen=True, slots=True)
class TrackConfig:
    """Thresholds of the tracker, in one place."""

    stable_s: float = 0.5  # a new reading must hold this long (source time) to be accepted
    stable_frames: int = 3  # ... and over at least this many frames looked at
    max_doubts_per_call: float = 2.0  # frames read ? in between count as no reading, up to this many per clear one
    # ... and up to this many where a wrong call costs more than a wait: a ? card taken as read,
    # an empty card a chip may lie on, a new view's difference from the board known
    clear_max_doubts: float = 0.25
    same_move_s: float = 0.3  # changes first seen within this of each other belong to one move
    unsure_s: float = 2.0  # a change read as ? is let go (the reference takes it) after this long
    revisit_every_s: float = 0.3  # the board at rest: its ? cells are read again this often
    reveal_s: float = 1.5  # ... and one read alike this long, its picture unchanged, is taken as read
    reveal_frames: int = 5  # ... in at least this many readings
    still_s: float = 1.0  # a picture unlike the reference but still this long: judged as a new view
    fresh_still_s: float = 0.3  # a new view (its reference provisional) is read once the picture is still this long
    stuck_s: float = 3.0  # read afresh this long yet unlike the reference: the picture at rest is taken as it is
    thumb_cell_px: int = 12  # thumbnail pixels per cell
    cell_change: float = 0.11  # mean |difference| / brightness above which a cell's picture changed
    faint_change: float = 0.05  # ... and above which it may have (a pale chip on a white card), once all is still
    faint_hold_change: float = 0.03  # ... and, once above that, until below this
    hand_change: float = 0.2  # a cell changed this much is covered (hands), not just touched
    placed_change: float = 0.3  # a cell read ? that changed this much, the view unmoved, may have got a chip
    ring_change: float = 0.25  # the same for the blocks of the ring around the grid
    hand_cells: int = 3  # more cells than this changing at once are hands, not a move
    hand_ring_share: float = 0.05  # share of ring blocks changed: something reaches over the edge
    doubt_share: float = 0.5  # more of the grid changed than this: the view itself is in doubt
    relocate_after_s: float = 0.3  # the picture still this long before the view is fitted again
    relocate_every_s: float = 0.4  # and at most this often
    lost_after_s: float = 1.0  # doubt this long with no board found: reported lost
    trust_after_s: float = 3.0  # lost this long: a board located again is taken even if it looks different
    blink_s: float = 0.3  # most of the board unlike the reference no longer than this, then as it was: a flicker
    stale_after_s: float = 1.0  # in doubt this long, the board found where it was: its picture becomes the reference
    same_fit_cells: float = 0.35  # two locatings this close (cell widths, mean) found the same grid (a blurred
    # board full of chips is located up to a sixth of a cell either way, frame to frame)
    moved_px: float = 2.0  # the lattice moved further than this (mean, pixels): adopt the new one
    shift_px: float = 0.4  # the thumbnail slid this far (thumbnail pixels) against the reference: view moved
    shift_response: float = 0.2  # ... and the correlation peak is at least this clear
    # a chip arrived where the reader is unsure (a chip on a court card's colours): the colour
    # where its card's picture changed most says whose, against the team's other chips in the frame
    arrival_core_share: float = 0.75  # the change's core: pixels changed at least this share of the most
    arrival_max_offset: float = 0.25  # ... the change centred within this share of a cell (no chip nudged beside)
    arrival_min_team_chips: int = 2  # ... and every team's colour taken from at least this many chips at rest
    arrival_art_chroma: float = 15.0  # a ? card coloured this much there before, like no team's chip: art, no chip
    hands_grace_s: float = 0.5  # ... or its picture changed when hands were beside it or this soon after
    max_fresh_changes: int = 2  # right after a new lattice, more differences than this are misreadings
    min_agreement: float = 0.9  # a board located again must read like the board known (share of cells read)
    min_cells_read: int = 40  # ... over at least this many cells that are not ?
    recurring_locates: int = 2  # a fit the verdict turned down, found this many locatings in a row, is read
    min_weak_fit_chips: int = 30  # ... and taken if this many chips lie on it
    # a frame read ? costs only a wait, a wrong call a phantom move: cells need a clear call (at
    # 0.8, then the photos' VisionConfig.min_cell_confidence, 4 phantom events more on 60 dev games;
    # photos read with the cell network ask for 0.9 too)
    min_cell_confidence: float = 0.9


@dataclass(frozen=True, slots=True)
class Pending:
    """A changed cell's reading, frame after frame: the last clear call (or ? while there was
    none), since when and in how many frames it was read, and how many frames since then read
    ? (glare, a blurred frame: the reader abstains, which does not contradict the call).

    >>> Pending.first("B", 1.0).seen("?", 1.1).seen("B", 1.2)
    Pending(symbol='B', since=1.0, frames=2, doubts=1)
    >>> Pending.first("B", 1.0).seen("G", 1.1)
    Pending(symbol='G', since=1.1, frames=1, doubts=0)
    """

    symbol: str
    since: float
    frames: int
    doubts: int = 0

    @staticmethod
    def first(symbol: str, t: float) -> Pending:
        return Pending(symbol, t, 1)

    @staticmethod
    def after(earlier: Pending | None, symbol: str, t: float) -> Pending:
        """The reading ``symbol`` at ``t`` added to ``earlier`` (None: the cell's first)."""
        return earlier.seen(symbol, t) if earlier else Pending.first(symbol, t)

    def seen(self, symbol: str, t: float) -> Pending:
        if symbol == self.symbol:
            return replace(self, frames=self.frames + 1)
        if symbol == UNKNOWN:
            return replace(self, doubts=self.doubts + 1)
        return Pending.first(symbol, t)

    def call(self, max_doubts_per_call: float) -> str:
        """The clear call, or ? where the frames read ? outnumber it too far."""
        return self.symbol if self.doubts <= max_doubts_per_call * self.frames else UNKNOWN

    def settled(self, t: float, track: TrackConfig) -> bool:
        """Read alike long enough and in enough frames (those read ? count for a ? only)."""
        frames = self.frames if self.call(track.max_doubts_per_call) != UNKNOWN else self.frames + self.doubts
        return t - self.since >= track.stable_s and frames >= track.stable_frames


@dataclass(frozen=True, slots=True)
class TrackEvent:
    """What the tracker reports: the board found (with its reading), lost, or an accepted reading."""

    kind: str  # BOARD_FOUND, BOARD_LOST or BOARD_CHANGED
    t: float  # source time, seconds
    frame: int
    board: Board | None
    warnings: tuple[VisionWarning, ...] = ()  # what the first reading doubted (the printed top, say)
    # a change read while the whole board was read afresh (the view moved, or the board at rest
    # was unlike the reference): moves may have been made unseen meanwhile, as out of view
    new_view: bool = False


def thumbnail_homography(lattice_xy: np.ndarray, cell_px: int) -> np.ndarray:
    """Image pixels to thumbnail pixels, through the grid's four outer corners (at a thumbnail's
    size the board's fold and the lens do not show)."""
    corners = outer_corners(lattice_xy)
    side = (GRID + 2) * cell_px
    inner = np.float32([[cell_px, cell_px], [side - cell_px, cell_px], [side - cell_px, side - cell_px],
                        [cell_px, side - cell_px]])
    return cv2.getPerspectiveTransform(corners, inner)


def local_shifts(reference: np.ndarray, thumb: np.ndarray, min_response: float, parts: int
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Where the picture slid in each of ``parts`` x ``parts`` windows of the thumbnail: (N, 2)
    window centres and (N, 2) shifts (thumbnail pixels), for the windows whose correlation
    peak is clear (a hand over a window blurs its peak)."""
    a, b = reference.mean(axis=2), thumb.mean(axis=2)
    size = a.shape[0] // parts
    window = cv2.createHanningWindow((size, size), cv2.CV_32F)
    centres, shifts = [], []
    for y0 in range(0, parts * size, size):
        for x0 in range(0, parts * size, size):
            (dx, dy), response = cv2.phaseCorrelate(a[y0:y0 + size, x0:x0 + size], b[y0:y0 + size, x0:x0 + size],
                                                    window)
            if response >= min_response:
                centres.append((x0 + size / 2, y0 + size / 2))
                shifts.append((dx, dy))
    return np.float32(centres).reshape(-1, 2), np.float32(shifts).reshape(-1, 2)


def slid_lattice(lattice_xy: np.ndarray, motion: np.ndarray, cell_px: int) -> np.ndarray:
    """The lattice moved with the picture, when the thumbnail's content moved by the (3, 3)
    homography ``motion`` (thumbnail pixels)."""
    homography = thumbnail_homography(lattice_xy, cell_px)
    in_thumb = cv2.perspectiveTransform(lattice_xy.reshape(-1, 1, 2).astype(np.float64), homography)
    moved = cv2.perspectiveTransform(in_thumb, motion.astype(np.float64))
    return cv2.perspectiveTransform(moved, np.linalg.inv(homography)).reshape(lattice_xy.shape).astype(np.float32)


def picture_motion(reference: np.ndarray, thumb: np.ndarray, min_response: float, parts: int) -> np.ndarray | None:
    """The (3, 3) map that carries the reference's content to where it is in ``thumb``: a
    homography from the windows' shifts when at least four are clear (a tilt of the camera
    shows), else a turn and a slide from three, else the whole picture's slide; None when
    nothing is clear."""
    centres, shifts = local_shifts(reference, thumb, min_response, parts)
    if len(centres) >= 4:
        motion, _ = cv2.findHomography(centres, centres + shifts, 0)
        if motion is not None:
            return motion
    if len(centres) == 3:
        affine, _ = cv2.estimateAffinePartial2D(centres, centres + shifts)
        if affine is not None:
            return np.vstack([affine, [0.0, 0.0, 1.0]])
    (dx, dy), response = cv2.phaseCorrelate(reference.mean(axis=2), thumb.mean(axis=2))
    return np.float64([[1, 0, dx], [0, 1, dy], [0, 0, 1]]) if response >= min_response else None


def thumbnail(image_bgr: np.ndarray, lattice_xy: np.ndarray, cell_px: int) -> np.ndarray:
    """The grid and a ring of one cell around it, square, ``cell_px`` pixels per cell (float32 BGR)."""
    side = (GRID + 2) * cell_px
    thumb = cv2.warpPerspective(image_bgr, thumbnail_homography(lattice_xy, cell_px), (side, side),
                                flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE)
    # soft, so that a lattice a pixel or two off does not look like change; a chip still does
    return cv2.GaussianBlur(thumb.astype(np.float32), (0, 0), THUMB_BLUR * cell_px)


def block_change(thumb: np.ndarray, reference: np.ndarray, cell_px: int) -> np.ndarray:
    """(12, 12) mean absolute difference in the middle of each cell-sized block (where a chip
    lies), over the reference's brightness there, after matching the overall exposure (light
    drifts; a move changes one block)."""
    gain = np.median(thumb, axis=(0, 1)) / np.maximum(np.median(reference, axis=(0, 1)), 1.0)
    diff = cv2.absdiff(thumb, reference * gain.astype(np.float32)).sum(axis=2)
    n, q = GRID + 2, cell_px // 4
    middle = np.s_[:, q : cell_px - q, :, q : cell_px - q]
    per_block = diff.reshape(n, cell_px, n, cell_px)[middle].mean(axis=(1, 3))
    brightness = reference.sum(axis=2).reshape(n, cell_px, n, cell_px)[middle].mean(axis=(1, 3))
    return per_block / (brightness + 30.0)


THUMB_BLUR = 0.12  # blur of the thumbnail, in cells

RING = np.ones((GRID + 2, GRID + 2), bool)
RING[1:-1, 1:-1] = False
REST_BLEND = 0.2  # share of a frame at rest that the reference takes
SLIDE_WINDOWS = (2, 3, 3)  # rounds of sliding the lattice with the picture: windows per side
MOTION_WINDOWS = 3  # windows per side that tell a turned view from a still one


def _copy_cells(source: np.ndarray, target: np.ndarray, cells: list[int], cell_px: int) -> None:
    """Copies the pictures of ``cells`` (0 to 99) from one thumbnail to another."""
    n = cell_px
    for c in cells:
        r, col = divmod(c, GRID)
        target[(r + 1) * n : (r + 2) * n, (col + 1) * n : (col + 2) * n] = \
            source[(r + 1) * n : (r + 2) * n, (col + 1) * n : (col + 2) * n]


def ring_pixels(cell_px: int) -> np.ndarray:
    """(side, side) bool: the pixels of a thumbnail outside the grid."""
    return cell_pixels(RING, cell_px)


def thumbnail_lab(thumb: np.ndarray) -> np.ndarray:
    """A thumbnail (float32 BGR, 0 to 255) in Lab (L 0 to 100)."""
    return cv2.cvtColor(np.clip(thumb / 255.0, 0.0, 1.0).astype(np.float32), cv2.COLOR_BGR2Lab)


def cell_block(image: np.ndarray, cell: int, cell_px: int) -> np.ndarray:
    """The block of a thumbnail-sized image that shows grid cell ``cell`` (0 to 99)."""
    row, column = divmod(cell, GRID)
    return image[(row + 1) * cell_px : (row + 2) * cell_px, (column + 1) * cell_px : (column + 2) * cell_px]


def change_core(now_lab: np.ndarray, before_lab: np.ndarray, core_share: float
                ) -> tuple[np.ndarray, np.ndarray, float]:
    """Of one cell's block now and before (Lab): the colour (a, b) now and before where the
    picture changed most (a chip that came, softened by the thumbnail's blur: its card no longer
    shows there), and how far the change's centre of mass lies from the block's centre, in cells."""
    difference = np.linalg.norm(now_lab - before_lab, axis=-1)
    core = difference >= core_share * difference.max()
    size = difference.shape[0]
    ys, xs = np.mgrid[0:size, 0:size]
    weights = difference / max(float(difference.sum()), 1e-6)
    centre = (size - 1) / 2
    offset = float(np.hypot((ys * weights).sum() - centre, (xs * weights).sum() - centre)) / size
    return now_lab[core][:, 1:].mean(axis=0), before_lab[core][:, 1:].mean(axis=0), offset


def team_chip_colours(lab: np.ndarray, cells: str, at_rest: np.ndarray, teams: tuple[str, ...], cell_px: int,
                      min_chips: int) -> dict[str, np.ndarray]:
    """Each team's chip colour (a, b) in this picture: the median of the middles of its chips
    that the board holds (``cells``) where the picture is ``at_rest`` ((100,) bool); none for a
    team with fewer than ``min_chips`` of them."""
    q = cell_px // 4
    colours: dict[str, np.ndarray] = {}
    for team in teams:
        middles = [cell_block(lab, c, cell_px)[q : cell_px - q, q : cell_px - q, 1:].reshape(-1, 2).mean(axis=0)
                   for c, symbol in enumerate(cells) if symbol == team and at_rest[c]]
        if len(middles) >= min_chips:
            colours[team] = np.median(np.float32(middles), axis=0)
    return colours


def lone_cells(cells: Collection[int]) -> set[int]:
    """The cells (0 to 99) of ``cells`` with none of the others beside them, diagonals
    included: a hand covers cells side by side; lone changed cells are chips (a new view
    may show a move and a misreading or two, far apart)."""
    grid = np.zeros((GRID, GRID), np.uint8)
    grid.reshape(-1)[list(cells)] = 1
    neighbours = cv2.filter2D(grid, -1, np.ones((3, 3), np.float32), borderType=cv2.BORDER_CONSTANT) - grid
    return {c for c in cells if neighbours.reshape(-1)[c] == 0}


def lattice_distance(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.linalg.norm(a - b, axis=-1).mean())


def tops_alike(analysis: Analysis, other: Analysis) -> tuple[Analysis, Analysis]:
    """Two locatings of one board, the one whose cards could not tell the top turned (lattice
    and reading) to the quarter turn of the other's lattice: where few printed cards show,
    locatings guess the top differently, and one that saw enough of them to be sure (a hand
    had moved off a few) tells it for both. Where neither is sure, ``analysis`` turns to
    ``other``."""
    if top_unsure(analysis):
        return _turned_like(analysis, other), other
    if top_unsure(other):
        return analysis, _turned_like(other, analysis)
    return analysis, other


def _turned_like(analysis: Analysis, other: Analysis) -> Analysis:
    """``analysis`` turned to the quarter turn of ``other``'s lattice, its top then as sure as
    ``other``'s."""
    turns = min(range(4), key=lambda k: lattice_distance(rotate_lattice(analysis.lattice_xy, k), other.lattice_xy))
    warnings = analysis.warnings if top_unsure(other) else tuple(
        warning for warning in analysis.warnings if warning.kind != VisionWarningKind.ORIENTATION_UNCERTAIN)
    return replace(analysis, lattice_xy=rotate_lattice(analysis.lattice_xy, turns),
                   board=turned(analysis.board, turns), warnings=warnings)


class Tracker:
    """Feed it frames in order; it returns TrackEvents. ``board`` is the accepted reading."""

    def __init__(self, team_count: int, config: VisionConfig | None = None, track: TrackConfig | None = None,
                 profile: Profile | None = None) -> None:
        self.teams = teams_for(team_count)
        self.team_count = team_count
        self.track = track or TrackConfig()
        self.config = replace(config or VisionConfig(), min_cell_confidence=self.track.min_cell_confidence)
        self.profile = profile
        self.board: Board | None = None
        self.lattice: np.ndarray | None = None
        self.reference: np.ndarray | None = None
        self.lost = False
        self.fresh = False  # a new lattice: every cell may differ from the board, not only changed ones
        self._reference_checked = False  # the reference seen at rest to hold no hand (the first, taken as
        # the board was found, may)
        self._quiet_unknown: set[int] = set()  # cells read ? whose picture the reference shows as read
        self._pending: dict[int, Pending] = {}  # the changed cells' readings
        self._doubt_since: float | None = None
        self._previous: np.ndarray | None = None  # the last thumbnail, to tell a still picture from motion
        self._still_since = 0.0
        self._ring_pixels = ring_pixels(self.track.thumb_cell_px)
        self._last_locate = -np.inf
        self._fresh_since: float | None = None  # when the reading afresh began
        self._first_fit: Analysis | None = None  # the last board located before one is taken
        self._weak: list[np.ndarray] = []  # the same fit turned down by the verdict, locating after locating
        self._revisits: dict[int, Pending] = {}  # the ? cells' readings at rest since their picture last changed
        self._hands_since: float | None = None  # since when hands are over the board
        self._ring_stale = False  # the ring's reference is the old view's: the view slid since
        self._before_doubt: dict[int, Pending] = {}  # the changed cells' readings when most of the board last changed
        # the board seen again after a doubt, the picture still since this time: what is read now
        # has shown since then (no reading was made meanwhile), for as long as it stays still
        self._still_unread_since: float | None = None
        self._moving = np.zeros(GRID * GRID, bool)  # the cells whose picture changed since the last frame
        self._fresh_taken: set[int] = set()  # the moves taken in the view new since _fresh_taken_in
        self._fresh_taken_in: float | None = None
        # the new view as first seen still with no hand over it, and when: a later difference
        # whose card still looks so is a misreading (the chips' look changed with the light)
        self._view_picture: np.ndarray | None = None
        self._view_picture_at: float | None = None
        self._hands_seen_at = -np.inf  # when hands were last over the board
        self._last_revisit = -np.inf
        self._change_since = np.full(GRID * GRID, np.inf)  # since when each cell's picture has differed from the reference
        self._hands_near_at = np.full(GRID * GRID, -np.inf)  # when hands last covered each cell or one beside it
        self._hand_odds = np.zeros(GRID * GRID)  # the cell model's probability of a hand on each cell, as last read
        self.reads = 0  # frames whose cells were read in full, and locatings: what the time goes to
        self.locates = 0

    # --- the frame loop ------------------------------------------------------------------

    def feed(self, frame_bgr: np.ndarray, t: float, frame: int) -> list[TrackEvent]:
        if self.lattice is None or self.reference is None:
            return self._acquire(frame_bgr, t, frame)
        assert self.board is not None
        cell_px = self.track.thumb_cell_px
        thumb = thumbnail(frame_bgr, self.lattice, cell_px)
        change = block_change(thumb, self.reference, cell_px)
        motion = None if self._previous is None else block_change(thumb, self._previous, cell_px)
        if motion is None or (motion > self.track.cell_change).any():
            self._still_since = t
        self._previous = thumb
        self._moving = (np.ones(GRID * GRID, bool) if motion is None
                        else motion[1:-1, 1:-1].reshape(-1) > self.track.cell_change)
        inner_change = change[1:-1, 1:-1].reshape(-1)  # the grid's cells, without the ring
        grid_changed = (inner_change > self.track.cell_change).reshape(GRID, GRID)
        # a pale chip's change on an empty card hovers about faint_change: once over it, the
        # card stays changed until well under it, or the reference, following the light at
        # rest, takes the chip in (not a card read ?: a hand's shadow passing changes it as much)
        empty_cards = np.array([symbol == EMPTY for symbol in self.board.cells])
        faint = (inner_change > self.track.faint_change) | (
            empty_cards & np.isfinite(self._change_since) & (inner_change > self.track.faint_hold_change))
        for c in np.flatnonzero(faint):
            self._revisits.pop(int(c), None)  # its picture changed: what was read of it no longer holds
        self._change_since = np.where(faint, np.minimum(self._change_since, t), np.inf)
        if grid_changed.mean() > self.track.doubt_share or (grid_changed.any() and self._shifted(thumb)):
            return self._doubt(frame_bgr, t, frame)
        # a frame or two unlike the board (a flicker, a shake) that left the view as it was
        blink = self._doubt_since is not None and t - self._doubt_since <= self.track.blink_s
        events = self._came_back(t, frame)
        ring_share = float((change[RING] > self.track.ring_change).mean())
        under_hands = inner_change > self.track.hand_change
        # a hand covers cells side by side: a lone changed cell is a chip placed, or a card whose
        # light changed with the view (bench 8080 game 12: a chip and three such cards, taken for
        # hands, held the move up for 3 s)
        changed_much = set(map(int, np.flatnonzero(under_hands)))
        covered = len(changed_much - lone_cells(changed_much))
        if covered > self.track.hand_cells:
            self._hands_near_at[around(under_hands)] = t
        if blink and covered <= self.track.hand_cells and ring_share <= self.track.hand_ring_share:
            # no hand came with it: the readings of a move settling before it hold (not those of
            # cells read as the board holds them: let go now, the reference would take them)
            self._pending = self._move_readings(self._before_doubt)
        self._fresh_since = (self._fresh_since if self._fresh_since is not None else t) if self.fresh else None
        if (self._fresh_since is not None and t - self._fresh_since >= self.track.stuck_s
                and covered > self.track.hand_cells and t - self._still_since >= self.track.stable_s):
            # read afresh for long and still unlike the reference where nothing moves now: the
            # picture becomes the board at rest as it is known (no move is guessed from it), but
            # for a chip that has just arrived: its cell stays changed, to settle as a move
            arriving = self._arriving()
            previous, self.reference, self.fresh = self.reference, thumb.copy(), False
            _copy_cells(previous, self.reference, list(arriving), self.track.thumb_cell_px)
            self._pending = arriving
            return events
        if self._ring_stale and covered <= self.track.hand_cells and t - self._still_since >= self.track.fresh_still_s:
            # the view slid: the ring around the grid, kept from the old view, shows the table
            # where it no longer is; it is taken anew as soon as the picture is still, no hand
            # on the board (a hand holds still as it places a chip)
            self.reference[self._ring_pixels] = thumb[self._ring_pixels]
            ring_share, self._ring_stale = 0.0, False
        # a reference taken just after the view moved may hold a hand: it is provisional, and so
        # is the first until seen to hold none (hands come and go too fast to rest still_s between)
        briefly_still = t - self._still_since >= self.track.fresh_still_s
        if briefly_still and covered <= self.track.hand_cells:
            self._reference_checked = True
        provisional = self.fresh or not self._reference_checked
        still = briefly_still if provisional else t - self._still_since >= self.track.still_s
        if still:
            # unlike the reference yet still: something left beside the board, or a hand the
            # reference caught that has gone. The ring is not the game: it just takes the picture;
            # many cells are read afresh (misreadings are held back). With cells covered, a picture
            # still only a moment may show an arm held still across the ring: it waits for still_s
            if covered <= self.track.hand_cells or t - self._still_since >= self.track.still_s:
                self.reference[self._ring_pixels] = thumb[self._ring_pixels]
                ring_share = 0.0
            if covered > self.track.hand_cells and not self.fresh:
                self.fresh, self._quiet_unknown = True, set()
        if not still and (covered > self.track.hand_cells or ring_share > self.track.hand_ring_share):
            # hands over the board: nothing counts until they leave (what settled before waits),
            # but a move that was settling when they came, apart from them (the next player
            # reaching in soon after the last)
            self._hands_since = t if self._hands_since is None else self._hands_since
            self._hands_seen_at = t
            return events + self._settle_apart_from_hands(frame_bgr, thumb, change, under_hands, motion, t, frame)
        self._hands_since = None
        if not grid_changed.any() and not self.fresh:
            faint = faint.reshape(GRID, GRID)
            if faint.any() and briefly_still:
                # a pale chip changes its card little: read once all is still (a moment: the
                # move must show within a second of the hand leaving)
                grid_changed = faint
            else:
                self._pending = {}
                # the board at rest: follow the light, slowly (a hand just coming in may not show
                # yet), but not where a pale chip may have come
                blend = REST_BLEND * ~cell_pixels(np.pad(faint, 1), cell_px)
                self.reference += blend[..., None] * (thumb - self.reference)
                self._quiet_unknown |= {c for c, symbol in enumerate(self.board.cells) if symbol == UNKNOWN}  # as read
                return events + self._revisit(frame_bgr, t, frame)
        self._keep_view_picture(thumb, t, briefly_still)
        considered = range(GRID * GRID) if self.fresh else np.flatnonzero(grid_changed.reshape(-1))
        arrived = self._arrived(grid_changed.reshape(-1), inner_change, thumb)
        if self.fresh:  # a ? card read at rest as the reference shows it: a strong change there later is new
            quiet = inner_change < self.track.cell_change
            self._quiet_unknown |= {c for c, pending in self._pending.items()
                                    if pending.call(self.track.max_doubts_per_call) == UNKNOWN
                                    and self.board.cells[c] == UNKNOWN and quiet[c] and pending.settled(t, self.track)}
        return events + self._consider(frame_bgr, thumb, change, considered, t, frame, frozenset(changed_much), still,
                                       arrived)

    def _keep_view_picture(self, thumb: np.ndarray, t: float, still: bool) -> None:
        """Keeps the new view's picture once it is ``still`` with no hand come since the view
        began (one that came may have moved a chip: its picture would hide the move)."""
        if self._fresh_since is None or (
                self._view_picture_at is not None and self._view_picture_at < self._fresh_since):
            self._view_picture = self._view_picture_at = None  # no new view, or another since
        if self._fresh_since is not None and self._view_picture is None and still \
                and self._hands_seen_at < self._fresh_since:
            self._view_picture, self._view_picture_at = thumb.copy(), t

    def _settle_apart_from_hands(self, frame_bgr: np.ndarray, thumb: np.ndarray, change: np.ndarray,
                                 under_hands: np.ndarray, motion: np.ndarray | None, t: float, frame: int
                                 ) -> list[TrackEvent]:
        """While hands are over the board (``under_hands``: (100,) the cells changed as under
        one): the cells of a move that was settling when they came go on being read, and are
        taken once settled, when every one of them lies apart from the hands (no covered cell
        beside it) and its picture stays put from frame to frame.
        """
        assert self._hands_since is not None
        if motion is None or self.fresh:  # a new view's changes are judged all together (max_fresh_changes)
            return []
        settling = [c for c, p in self._move_readings(self._pending).items() if p.since < self._hands_since]
        if not settling:
            return []
        hands = under_hands.copy()
        hands[settling] = False  # a chip placed changed its card as much
        near_hands = around(hands)
        steady = motion[1:-1, 1:-1].reshape(-1) <= self.track.cell_change
        if any(near_hands[c] or not steady[c] for c in settling):
            return []
        others = {c: p for c, p in self._pending.items() if c not in settling}
        arrived = self._arrived(np.isin(np.arange(GRID * GRID), settling), change[1:-1, 1:-1].reshape(-1), thumb)
        events = self._consider(frame_bgr, thumb, change, settling, t, frame, arrived=arrived)
        self._pending = {**others, **self._pending}
        return events

    def _move_readings(self, pending: dict[int, Pending]) -> dict[int, Pending]:
        """The readings of ``pending`` that call a cell other than the board holds it, and not
        ?: a move on its way to being settled."""
        assert self.board is not None
        return {c: p for c, p in pending.items()
                if p.call(self.track.max_doubts_per_call) not in (UNKNOWN, self.board.cells[c])}

    def _arriving(self) -> dict[int, Pending]:
        """The move readings (``_move_readings``) begun at most ``stable_s`` before the picture
        last came to rest, or later: chips just placed or taken (read first as the hand
        withdrew), on their way to being settled; none when there are more than
        ``max_fresh_changes`` (a view read differently, not a move)."""
        since = self._still_since - self.track.stable_s
        young = {c: p for c, p in self._move_readings(self._pending).items() if p.since > since}
        return young if len(young) <= self.track.max_fresh_changes else {}

    def _arrived(self, changed: np.ndarray, change: np.ndarray, thumb: np.ndarray) -> set[int]:
        """The cells (of the (100,) ``changed``) where a chip may have arrived: an empty card
        whose picture changed, or a card read ? (what the reader could not call was no chip)
        whose picture changed much while the view stayed put. A ? card whose picture the
        reference shows as it was read (read ? with the board at rest, or settled as ? in a new
        view) changed for real already when the change is firm, in a view that stayed put. A ?
        card whose picture changed less, in a view that stayed put, got a chip when the change
        is centred on it and coloured like one team's chips, and either the card was coloured
        like none (printed art, not glare that washed out a chip and has moved off it) or the
        change came with hands beside the card (``hands_grace_s``; glare moves with the light)."""
        assert self.board is not None
        arrived, changed_little = set(), []
        for c in map(int, np.flatnonzero(changed)):
            symbol, quiet = self.board.cells[c], c in self._quiet_unknown
            if symbol == UNKNOWN and (quiet or not self.fresh):
                enough = self.track.hand_change if quiet and not self.fresh else self.track.placed_change
                if change[c] >= enough:
                    arrived.add(c)
                elif not self.fresh:
                    changed_little.append(c)
            elif symbol == EMPTY:
                arrived.add(c)
        if changed_little:
            centres, colours = self._change_colours(thumb, change, changed_little)
            arrived |= {c for c, (now, before) in colours.items()
                        if team_of(now, centres, self.config) != UNKNOWN
                        and (self._change_since[c] <= self._hands_near_at[c] + self.track.hands_grace_s
                             or (np.linalg.norm(before) >= self.track.arrival_art_chroma
                                 and team_of(before, centres, self.config) == UNKNOWN))}
        return arrived

    def _consider(self, frame_bgr: np.ndarray, thumb: np.ndarray, change: np.ndarray, cells, t: float, frame: int,
                  covered_cells: frozenset[int] = frozenset(), still: bool = False, arrived: Collection[int] = ()
                  ) -> list[TrackEvent]:
        """Reads the cells whose picture changed (``change``: the thumbnail's blocks against the
        reference, as ``block_change`` gives them). A cell's reading that holds for ``stable_s``
        is settled: a new chip or an empty cell is accepted (all settled cells of a moment
        together, so two chips placed at once stay one change), a reading that equals the
        board or stays ? (after ``unsure_s``) only lets the reference take the cell's picture.
        While many cells stay covered (``covered_cells`` changed as under a hand: a hand resting,
        or a reference that caught one; a covered cell with no other beside it is no hand) no
        change is accepted: the cells that read as before are let go, and count as covered no
        more, until few are left. A
        cell the board holds as ? that now reads clearly is no move: it is taken as it reads
        (with the changes, if any), even among covered cells once the picture is ``still``
        (glare that moved with the camera would otherwise keep the board covered for good),
        unless it is ``arrived``: a chip may have come there (the cell is then taken as empty
        first, so that the referee sees the chip placed). On ``arrived`` cells an unsure
        reading goes by the chip's colour."""
        assert self.board is not None
        new_view = self.fresh
        reading = self._arrivals_by_colour(self.read(frame_bgr, arrived), thumb, change, arrived)
        grid_change = change[1:-1, 1:-1].reshape(-1)
        pending = {c: self._pending[c].seen(reading.cells[c], t) if c in self._pending
                   else Pending.first(reading.cells[c], self._first_shown(reading.cells[c], grid_change[c], t))
                   for c in map(int, cells)}
        self._pending = pending
        # an empty card whose picture changed passes as empty only when read so clearly: a chip
        # the reader cannot make out (glare, a pale chip) must not pass for no move; nor does a
        # difference in a new view (chips' highlights moved with the camera: a chip read now
        # empty, now ?, is a misreading)
        calls = {c: p.call(self.track.clear_max_doubts if (p.symbol == EMPTY and c in arrived)
                           or (new_view and p.symbol != self.board.cells[c]) else self.track.max_doubts_per_call)
                 for c, p in pending.items()}
        settled = {c: calls[c] for c, p in pending.items() if p.settled(t, self.track)}
        new = {c: s for c, s in settled.items() if s not in (UNKNOWN, self.board.cells[c])}
        # a cell the board holds as ? now read (glare gone, a hand's shadow gone) is no move
        revealed = {c: s for c, s in new.items() if self.board.cells[c] == UNKNOWN and c not in arrived}
        moved = {c: s for c, s in new.items() if c not in revealed}
        # one move's changes appear together; a later one (a move seen late) waits its turn
        first = min((pending[c].since for c in moved), default=t)
        changes = {c: s for c, s in moved.items() if pending[c].since - first <= self.track.same_move_s}
        waiting = [c for c, p in pending.items() if c not in settled
                   and calls[c] not in (UNKNOWN, self.board.cells[c]) and p.since - first <= self.track.same_move_s]
        if waiting:
            return []  # a change of the same move still settling: accept them together
        if self._beside_fingers(changes, covered_cells, calls, pending, t):
            return []
        # a cell read as the board holds it is no hand (a reference taken in another light shows it changed)
        explained = {c for c, symbol in settled.items() if symbol == self.board.cells[c] != UNKNOWN}
        hand_shaped = covered_cells - lone_cells(covered_cells)
        covered = len(hand_shaped - explained) > self.track.hand_cells
        # a cell read ? for long is let go too, but not while a hand may be resting on it
        letting_go = [c for c in settled if c not in new
                      and (settled[c] != UNKNOWN or (not covered and t - pending[c].since >= self.track.unsure_s))]
        # nor, until the picture has been still for still_s, a cell under or beside what may be a
        # hand resting a moment (placing a chip), changed only since just before though it reads as
        # before: the reference would keep the hand, and the board would look covered once it has
        # gone (a cell changed for long is a reference taken in other light: that one is let go)
        if len(hand_shaped) > self.track.hand_cells and t - self._still_since < self.track.still_s:
            touched = (around(np.isin(np.arange(GRID * GRID), list(hand_shaped)))
                       & (grid_change > self.track.cell_change)
                       & (t - self._change_since < self.track.still_s))
            letting_go = [c for c in letting_go if not touched[c]]
        # nor a cell whose picture is moving now: a hand's edge coming in reads as the card it
        # passes over, and the reference would keep it (20261220 game 14: a move waited 2.5 s)
        letting_go = [c for c in letting_go if not self._moving[c]]
        # an empty card changed yet read ? for long: a chip may lie there unseen; the board says so
        doubted = {c: UNKNOWN for c in letting_go if settled[c] == UNKNOWN and self.board.cells[c] == EMPTY
                   and c in arrived}
        self._quiet_unknown |= set(doubted)
        if covered and not still:
            revealed = {}
        if covered:
            changes = {}  # what shows under a resting hand is no move
        elif self.fresh:
            moves = self._fresh_moves(grid_change, changes, arrived, t, self._view_change(thumb))
            letting_go += [c for c in changes if c not in moves]
            changes = moves
        self._take_reference(thumb, letting_go + list(changes) + list(revealed))
        # the view is read once every cell is settled clearly, or read ? since the view is new for
        # unsure_s (hands coming every two seconds keep a card read ? from being let go: the view
        # would stay new, every cell read afresh, for the rest of the game)
        unsure_for_long = self._fresh_since is not None and t - self._fresh_since >= self.track.unsure_s
        if self.fresh and not [c for c in pending if c not in letting_go and (
                c not in settled or (settled[c] == UNKNOWN and not unsure_for_long))]:
            self.fresh = False
        if not changes and not revealed and not doubted:
            return []
        events = []
        on_unknown = [c for c in changes if self.board.cells[c] == UNKNOWN]
        if on_unknown:  # the card was empty before the chip came
            self.board = Board("".join(EMPTY if c in on_unknown else x for c, x in enumerate(self.board.cells)))
            events.append(TrackEvent(BOARD_CHANGED, t, frame, self.board, new_view=new_view))
        cells_now = list(self.board.cells)
        for c, symbol in {**doubted, **revealed, **changes}.items():
            cells_now[c] = symbol
        self.board = Board("".join(cells_now))
        return [*events, TrackEvent(BOARD_CHANGED, t, frame, self.board, new_view=new_view)]

    def _beside_fingers(self, changes: dict[int, str], covered_cells: Collection[int], calls: dict[int, str],
                        pending: dict[int, Pending], t: float) -> bool:
        """Whether a change lies beside a card covered (changed as under a hand) that reads ?,
        for less than ``unsure_s``: fingers or a palm over it, too small a hand to cover
        several cards, may hold the chip read beside them (independent video seed 31, game 3: a
        red chip held over a card for half a second was taken as placed there). A card read ?
        for longer is no hand passing: it is let go, and holds nothing up."""
        fingers = [c for c in covered_cells
                   if calls.get(c) == UNKNOWN and t - pending[c].since < self.track.unsure_s]
        beside = around(np.isin(np.arange(GRID * GRID), fingers))
        return any(beside[c] for c in changes)

    def _change_colours(self, thumb: np.ndarray, grid_change: np.ndarray, cells: Collection[int]
                        ) -> tuple[dict[str, np.ndarray], dict[int, tuple[np.ndarray, np.ndarray]]]:
        """Every team's chip colour in this picture (``team_chip_colours``; none at all unless
        every team's is known) and, for each of ``cells`` whose picture changed centred on it,
        the colour (a, b) now and before where it changed most (``change_core``)."""
        assert self.board is not None and self.reference is not None
        cell_px, track = self.track.thumb_cell_px, self.track
        lab = thumbnail_lab(thumb)
        centres = team_chip_colours(lab, self.board.cells, grid_change < track.cell_change, self.teams, cell_px,
                                    track.arrival_min_team_chips)
        if len(centres) < len(self.teams) or not cells:
            return {}, {}
        reference_lab = thumbnail_lab(self.reference)
        colours = {}
        for c in cells:
            now, before, offset = change_core(cell_block(lab, c, cell_px), cell_block(reference_lab, c, cell_px),
                                              track.arrival_core_share)
            if offset <= track.arrival_max_offset:
                colours[c] = (now, before)
        return centres, colours

    def _arrivals_by_colour(self, reading: Board, thumb: np.ndarray, change: np.ndarray, arrived: Collection[int]
                            ) -> Board:
        """``reading`` where the reader could not call an ``arrived`` cell whose picture changed
        as much as a move changes it, centred on the cell: the team whose chips elsewhere on
        the board, in this same picture, the colour of the change is clearly nearest (the
        tracker saw the card before the chip came; the reader sees a chip on court art). So
        too where it read empty a card whose picture changed as much as a chip changes it, to
        one team's colour from another (a red chip hiding all of its card read as a red card).
        Not in a new view: its reference is the old view's picture, unlike this one anywhere;
        nor on a '?' the cell model, in the reading, gives a hand as likely as it calls one:
        the change is the hand's colour (20261220 game 7: a grey hand's edge, nearest the dull
        green chips, made a green chip come and go)."""
        track = self.track
        grid_change = change[1:-1, 1:-1].reshape(-1)
        unsure = [c for c in arrived if (reading.cells[c] == UNKNOWN and grid_change[c] >= track.cell_change
                                         and self._hand_odds[c] < self.config.max_hidden_probability)
                  or (reading.cells[c] == EMPTY and grid_change[c] >= track.placed_change)]
        if not unsure or self.fresh:
            return reading
        centres, colours = self._change_colours(thumb, grid_change, unsure)
        cells = list(reading.cells)
        for c, (now, before) in colours.items():
            team = team_of(now, centres, self.config)
            if reading.cells[c] == UNKNOWN or (team != UNKNOWN and team_of(before, centres, self.config) != team):
                cells[c] = team
        return Board("".join(cells))

    def _fresh_moves(self, change: np.ndarray, changes: dict[int, str], arrived: Collection[int], t: float,
                     view_change: np.ndarray | None = None) -> dict[int, str]:
        """Of the differences a new view is read with, the moves: made while the view moved
        (read so from the start of the view) or since (the cell's picture changed), and at most
        ``max_fresh_changes`` of them, else only chips placed since the view was taken, on
        ``arrived`` cards whose picture changed as much as a chip changes it. A card whose
        picture stayed as it was and that reads otherwise only later is a misreading (glare
        read now as a chip, now as ?, now as an empty card). ``change``: (100,) each cell's
        picture against the reference; ``view_change``: against the view's picture first seen still
        with no hand (``_keep_view_picture``), if any: a difference first read after that picture
        was taken is a move only where the card's picture changed since (20261220 game 12: a red
        chip, washed out by the new light, read ? at first, then empty once a hand had placed
        a chip elsewhere)."""
        view_since = t if self._fresh_since is None else self._fresh_since
        from_the_start = view_since + self.track.fresh_still_s + self.track.stable_s
        misread_since_picture = set() if view_change is None or self._view_picture_at is None else {
            c for c in changes
            if self._pending[c].since > self._view_picture_at and view_change[c] < self.track.faint_change}
        moves = {c: s for c, s in changes.items() if c not in misread_since_picture
                 and (change[c] >= self.track.faint_change or self._pending[c].since <= from_the_start)}
        placed = {c for c, s in moves.items()  # chips on cards whose picture changed as a chip changes it
                  if c in arrived and s in self.teams and change[c] >= self.track.placed_change}
        if len(moves) > self.track.max_fresh_changes:
            moves = {c: moves[c] for c in placed} if len(placed) <= self.track.max_fresh_changes else {}
        # the differences the view showed from its start count together: one taken early (a chip
        # told as soon as the picture was still) must not let those that settle later pass one by one
        taken = self._fresh_taken if self._fresh_taken_in == self._fresh_since else set()
        early = {c for c in moves if self._pending[c].since <= from_the_start}
        if len(taken | early) > self.track.max_fresh_changes:
            moves = {c: s for c, s in moves.items() if c not in early or c in placed}
        self._fresh_taken, self._fresh_taken_in = taken | (early & set(moves)), self._fresh_since
        return moves

    def _revisit(self, frame_bgr: np.ndarray, t: float, frame: int) -> list[TrackEvent]:
        """The board at rest: its ? cells are read again every ``revisit_every_s``, and one
        read as the same chip for ``reveal_s`` while its picture stayed as it was is taken as
        read, no move (the first reading doubted it, or glare lay on it that the light has
        moved off): a sequence through it counts. A cell whose picture changed, or a view that
        moved, starts over: a chip placed on a ? card is the tracker's to see as a move, never
        revealed."""
        assert self.board is not None
        unknown = [c for c, symbol in enumerate(self.board.cells) if symbol == UNKNOWN]
        if not unknown or t - self._last_revisit < self.track.revisit_every_s:
            return []
        self._last_revisit = t
        reading = self.read(frame_bgr)
        self._revisits = {c: Pending.after(self._revisits.get(c), reading.cells[c], t) for c in unknown}
        calls = {c: pending.call(self.track.clear_max_doubts) for c, pending in self._revisits.items()}
        # a chip only: a card held as ? costs nothing, where a pale chip read empty at rest was revealed so
        clear = {c: calls[c] for c, pending in self._revisits.items()
                 if calls[c] in self.teams and t - pending.since >= self.track.reveal_s
                 and pending.frames >= self.track.reveal_frames}
        if not clear:
            return []
        self.board = Board("".join(clear.get(c, symbol) for c, symbol in enumerate(self.board.cells)))
        return [TrackEvent(BOARD_CHANGED, t, frame, self.board)]

    def _take_reference(self, thumb: np.ndarray, cells: list[int]) -> None:
        """The reference takes the current picture of these cells: they are settled."""
        assert self.reference is not None
        _copy_cells(thumb, self.reference, cells, self.track.thumb_cell_px)
        for c in cells:
            self._pending.pop(c, None)

    # --- reading and locating ----------------------------------------------------------

    def read(self, frame_bgr: np.ndarray, arrived: Collection[int] = ()) -> Board:
        """The cells read with the lattice already known (printed orientation); on ``arrived``
        cells an unsure reading goes by the chip's colour (``read_cells.classify``). Keeps the
        cell model's probability of a hand on each cell."""
        assert self.lattice is not None
        self.reads += 1
        prepared, features, reading = read_rectified(rectified_board(frame_bgr, self.lattice, self.config.cell_px),
                                                     self.teams, self.config, arrived)
        self._hand_odds = model_odds(features)[1]
        # the lattice is in the printed orientation: each cell's card is known, as is its twin's
        return read_by_print(reading, prepared, features, lazy_patches(prepared), 0, self.teams, self.config)

    def _locate(self, frame_bgr: np.ndarray, t: float) -> Analysis | None:
        self._last_locate = t
        self.locates += 1
        fitted: list[Candidate] = []
        try:
            analysis = analyze_image(frame_bgr, self.team_count, self.config, profile=self.profile, fitted=fitted)
        except BoardNotFound:
            return self._recurring(frame_bgr, fitted)
        except VisionError:
            analysis = None
        self._weak = []
        return analysis

    def _recurring(self, frame_bgr: np.ndarray, fitted: list[Candidate]) -> Analysis | None:
        """The likeliest fit the verdict turned down, taken when the same fit came back in
        ``recurring_locates`` locatings in a row and reads ``min_weak_fit_chips`` chips: a
        blurred board mostly covered by chips scores low in every frame (its cards hardly
        show), but it stays put where a hand or a passing shadow does not."""
        weak = next(second_looks(frame_bgr, fitted, self.config), None)
        if weak is None:
            self._weak = []
            return None
        lattice = weak.lattice_xy
        if self._weak:
            turn = min(range(4), key=lambda k: lattice_distance(rotate_lattice(lattice, k), self._weak[-1]))
            lattice = rotate_lattice(lattice, turn)
            if not self._same_grid(lattice, self._weak[-1]):
                self._weak = []
        self._weak.append(lattice)
        if len(self._weak) < self.track.recurring_locates:
            return None
        fit = GridFit(lattice_xy=lattice, score=weak.score)
        try:
            analysis = analyze_image(frame_bgr, self.team_count, self.config, locate=lambda *_: fit,
                                     profile=self.profile)
        except VisionError:
            return None
        # the chips vouch for it: they lie on its cells (a score pad's grid holds none)
        chips = sum(symbol in self.teams for symbol in analysis.board.cells)
        return analysis if chips >= self.track.min_weak_fit_chips else None

    def _acquire(self, frame_bgr: np.ndarray, t: float, frame: int) -> list[TrackEvent]:
        if t - self._last_locate < self.track.relocate_every_s:
            return []
        analysis = self._locate(frame_bgr, t)
        if analysis is None and self._first_fit is not None:
            analysis = self._found_again(frame_bgr, self._first_fit)
        if analysis is None:
            return []
        first, self._first_fit = self._first_fit, analysis
        if first is None:
            return []
        analysis, first = tops_alike(analysis, first)
        if not self._same_fit(first, analysis):
            return []  # a board is taken when two locatings agree: one can be a fluke (a hand, clutter)
        analysis = replace(analysis, lattice_xy=(first.lattice_xy + analysis.lattice_xy) / 2)  # less jitter
        self.board = analysis.board
        self._adopt(frame_bgr, analysis, 0, True, t)
        return [TrackEvent(BOARD_FOUND, t, frame, self.board, analysis.warnings)]

    def _found_again(self, frame_bgr: np.ndarray, seen: Analysis) -> Analysis | None:
        """The board located in an earlier frame, looked for where it was when locating from
        scratch misses it; only a sure fit counts, as it did not come from a search of its own."""

        def near(image_bgr: np.ndarray, config: VisionConfig) -> GridFit | None:
            candidate = fit_near(image_bgr, seen.lattice_xy, config)
            if candidate.score < config.sure_board_probability:
                return None
            return GridFit(lattice_xy=candidate.lattice_xy, score=candidate.score)

        try:
            return analyze_image(frame_bgr, self.team_count, self.config, locate=near, profile=self.profile)
        except VisionError:
            return None

    def _same_grid(self, a: np.ndarray, b: np.ndarray) -> bool:
        """Two lattices that found the same grid (within ``same_fit_cells``, mean)."""
        cell = float(np.linalg.norm(a[0, GRID] - a[0, 0])) / GRID
        return lattice_distance(a, b) <= self.track.same_fit_cells * cell

    def _same_fit(self, a: Analysis, b: Analysis) -> bool:
        """The same grid, printed top alike, read much alike."""
        if not self._same_grid(a.lattice_xy, b.lattice_xy):
            return False
        pairs = [(x, y) for x, y in zip(a.board.cells, b.board.cells) if UNKNOWN not in (x, y)]
        return sum(x == y for x, y in pairs) >= self.track.min_agreement * max(len(pairs), 1)

    def _fitting_turn(self, analysis: Analysis) -> int | None:
        """The quarter turn under which a board located again reads like the board known (a
        view from elsewhere may have guessed the printed top wrongly), or None when no turn
        does: a lattice a cell off, or found with too much of the board hidden."""
        assert self.board is not None
        best, best_share = 0, -1.0
        for k in range(4):
            pairs = [(a, b) for a, b in zip(turned(analysis.board, k).cells, self.board.cells)
                     if UNKNOWN not in (a, b)]
            share = sum(a == b for a, b in pairs) / max(len(pairs), 1)
            if len(pairs) >= self.track.min_cells_read and share > best_share:
                best, best_share = k, share
        return best if best_share >= self.track.min_agreement else None

    def _adopt(self, frame_bgr: np.ndarray, analysis: Analysis, turns: int, trust: bool, t: float,
               keep_unread: bool = False) -> bool:
        """Takes a located lattice if, through it, the board looks much as it did (``trust``:
        whatever it shows, after a long loss). The picture through it becomes the reference and
        the whole board is read afresh: a move may have been made while the view moved (the
        locating's own reading at ``t`` is the first of each cell it reads differently). With
        ``keep_unread`` (the lattice as it was) the cells the locating read ? and those beside them
        keep their picture: an arm resting across the board reads ?, its edges and shadow may not,
        and it would stay in the reference."""
        lattice = rotate_lattice(analysis.lattice_xy, turns)
        thumb = thumbnail(frame_bgr, lattice, self.track.thumb_cell_px)
        if self.reference is not None and not trust:
            changed = block_change(thumb, self.reference, self.track.thumb_cell_px)[1:-1, 1:-1] > self.track.cell_change
            if changed.mean() > self.track.doubt_share:
                return False
        seen = turned(analysis.board, turns).cells
        if keep_unread and self.reference is not None:
            unread = np.array([symbol == UNKNOWN for symbol in seen])
            _copy_cells(self.reference, thumb, list(np.flatnonzero(around(unread))), self.track.thumb_cell_px)
        self.lattice, self.reference, self._previous = lattice, thumb, thumb
        self._forget_readings()
        self.fresh = self.board is not analysis.board
        # a new view begins (its start is taken with the next frame, as for any), even if the last
        # one was still being read (a hand resting, then a bump): a move made while the view moved
        # reads so from the start of this one
        self._fresh_since = None
        if self.fresh and self.board is not None:
            self._pending = {c: Pending.first(symbol, t) for c, symbol in enumerate(seen)
                             if symbol != self.board.cells[c]}
        return True

    def _doubt(self, frame_bgr: np.ndarray, t: float, frame: int) -> list[TrackEvent]:
        """Most of the board looks different: hands all over it, or the camera moved."""
        assert self.lattice is not None
        if self._doubt_since is None:
            self._doubt_since, self._before_doubt = t, self._pending
        self._pending, self._revisits = {}, {}
        doubted = t - self._doubt_since
        settled = t - self._still_since >= self.track.relocate_after_s  # not while hands move
        if settled and self._slide(frame_bgr):
            return self._came_back(t, frame)
        if settled and t - self._last_locate >= self.track.relocate_every_s:
            analysis = self._locate(frame_bgr, t)
            turns = self._fitting_turn(analysis) if analysis is not None else None
            trust = doubted >= self.track.trust_after_s
            # found where the grid already is, yet the picture unlike the reference this long:
            # the reference is what is wrong (taken with a hand over the board); a new one is taken
            stale = doubted >= self.track.stale_after_s
            if analysis is not None and turns is not None:
                moved = self._moved(analysis, turns)
                if (moved or stale) and self._adopt(frame_bgr, analysis, turns, trust or stale, t,
                                                    keep_unread=not (moved or trust)):
                    return self._came_back(t, frame)
        if not self.lost and doubted >= self.track.lost_after_s:
            self.lost = True
            return [TrackEvent(BOARD_LOST, t, frame, None)]
        return []

    def _shift(self, thumb: np.ndarray) -> tuple[float, float] | None:
        """How far the picture slid against the reference (thumbnail pixels), None when unclear."""
        assert self.reference is not None
        (dx, dy), response = cv2.phaseCorrelate(self.reference.mean(axis=2), thumb.mean(axis=2))
        return (dx, dy) if response >= self.track.shift_response else None

    def _shifted(self, thumb: np.ndarray) -> bool:
        """The picture slid: the camera or the board moved (hands change only part of it, which
        does not move the correlation peaks). The whole picture's peak misses a camera turned
        about the board's middle, so most windows sliding counts too."""
        shift = self._shift(thumb)
        if shift is not None and float(np.hypot(*shift)) > self.track.shift_px:
            return True
        assert self.reference is not None
        _, shifts = local_shifts(self.reference, thumb, self.track.shift_response, MOTION_WINDOWS)
        slid = np.hypot(shifts[:, 0], shifts[:, 1]) > self.track.shift_px
        return len(shifts) >= MOTION_WINDOWS and slid.mean() > 0.5

    def _slide(self, frame_bgr: np.ndarray) -> bool:
        """Follows a small move of the camera by moving the lattice with the picture; True when
        the board then looks much as it did (the cheap fix; locating again is the thorough one).
        """
        assert self.lattice is not None and self.reference is not None
        cell_px = self.track.thumb_cell_px
        lattice = self.lattice
        for parts in SLIDE_WINDOWS:
            motion = picture_motion(self.reference, thumbnail(frame_bgr, lattice, cell_px), self.track.shift_response,
                                    parts)
            if motion is None:
                return False
            lattice = slid_lattice(lattice, motion, cell_px)
        thumb = thumbnail(frame_bgr, lattice, cell_px)
        change = block_change(thumb, self.reference, cell_px)[1:-1, 1:-1]
        if self._shifted(thumb) or (change > self.track.cell_change).mean() > self.track.doubt_share:
            return False
        # the reference stays: it shows the board at rest, where this picture may show a hand;
        # where the two still differ much, every cell is read afresh
        self.lattice, self._previous = lattice, thumb
        self._forget_readings()
        self.fresh = bool((change > self.track.hand_change).sum() > self.track.hand_cells)
        self._ring_stale = True
        return True

    def _view_change(self, thumb: np.ndarray) -> np.ndarray | None:
        """(100,) each cell's picture against the new view's first still picture, if one was kept."""
        if self._view_picture is None:
            return None
        return block_change(thumb, self._view_picture, self.track.thumb_cell_px)[1:-1, 1:-1].reshape(-1)

    def _came_back(self, t: float, frame: int) -> list[TrackEvent]:
        """The view is the board's again: a doubt ends (moves settling since the picture was
        still may count from then), and a board reported lost is reported found."""
        if self._doubt_since is not None:
            self._still_unread_since = self._still_since
        self._doubt_since = None
        if not self.lost:
            return []
        self.lost = False
        return [TrackEvent(BOARD_FOUND, t, frame, self.board)]

    def _first_shown(self, symbol: str, cell_change: float, t: float) -> float:
        """Since when a cell's first reading ``symbol`` has shown: since the board was seen again
        after a doubt, the picture still since then (a move made as the camera was bumped need
        not wait for the stillness it already showed); else now. In a new view only for a chip
        whose card changed as much as a chip changes it: its other differences may be misreadings."""
        if self.fresh and not (symbol in self.teams and cell_change >= self.track.placed_change):
            return t
        return self._still_unread_since if self._still_unread_since == self._still_since else t

    def _forget_readings(self) -> None:
        """A new lattice: what was read of each cell through the old one no longer holds."""
        self._pending, self._before_doubt, self._revisits, self._quiet_unknown = {}, {}, {}, set()

    def _moved(self, analysis: Analysis, turns: int) -> bool:
        assert self.lattice is not None
        return lattice_distance(rotate_lattice(analysis.lattice_xy, turns), self.lattice) > self.track.moved_px
