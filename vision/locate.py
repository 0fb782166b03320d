"""Locating the printed grid: its four outer corners and the 11 x 11 crossings of its lines.

Stages (each in its own module):

1. proposals (``locate_propose``): quadrilaterals round blobs of card paper, and of
   paper with ink on it, on a small copy of the photo (and, when those found no sure board,
   round the paper opened wide: a board on a checked cloth; then round the paper under a
   white balance taken from the brightest weakly coloured pixels: a lit wooden table may be
   brighter than the cards; then round regions of one colour; last round the busiest region
   of edges: a board full of chips, under glare or with a border as dark as the table);
2. the lattice (``locate_lattice``): for the most periodic proposals, the cells' period,
   slant and perspective from the autocorrelation of the gradient, then the 10 x 10 cells
   placed where the paper ends at a coloured border (or where the art ends, for a white
   border), then every grid line measured in short pieces at full resolution and fitted
   (a homography, and one per quarter of the grid for the fold and the lens); without a
   coloured border the fit is first made from the card centres (cards are printed the same
   way up from either end: point symmetry), unless the coarse fit's cells show no board
   (blank, or a pattern that goes on: most fits on a cluttered table); when no fit is a
   sure board, each proposal's own lines are followed too, as it lies (aligning and placing
   can move a proposal that hugged the grid off it);
3. the verdict: a small logistic model over the fit's evidence (the cells repeat one cell
   on, the repetition stops at the outline, the cells hold ink or chips, the lines showed;
   a fit whose cells look blank is first looked at twice as close: small pips)
   offers each fit that is clearly a printed grid of cards as it is found (reading then
   tells whether it is a Sequence board) or, when none is, the likeliest over a lower bar;
   a grid that runs off the photo raises ``BoardCutOff`` (a FREE corner cell clipped by
   the frame does not count: every team owns it);
4. the polish (``polished_lattice``, run by the pipeline on the fit it reads): the grid
   moved finely onto the card centres, its bends kept.

Points are (x, y) float32 arrays in the pixels of the image passed in.

>>> import numpy as np
>>> locate_grid(np.zeros((480, 640, 3), np.uint8), VisionConfig()) is None
True
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import cv2
import numpy as np

from vision.config import VisionConfig
from vision.errors import BoardCutOff
from vision.locate_lattice import (GRID, GRID_CORNERS, Evidence, PlaceSettings, Pyramid, Refinement, align,
                                   apply_homography, centre_step, evidence, extent_shift, fine_content,
                                   grid_homography, periodicity, place, refine)
from vision.locate_propose import (busy_quads, colour_region_quads, distinct, opened_paper_quads, propose_quads,
                                   white_gains)
from vision.locate_verdict import default_verdict, verdict_features
from vision.warp import outer_corners


@dataclass(frozen=True, slots=True)
class GridFit:
    """The located grid.

    ``lattice_xy``: (11, 11, 2) float32, the crossing of row line i and column line j at
    [i, j], following the board's fold and the lens. ``score``: how clearly the grid showed
    (higher is better). ``corners_xy``: (4, 2) float32, the grid's outer corners in image
    pixels, in cyclic order (lattice [0, 0], [0, 10], [10, 10], [10, 0]); which one is the
    printed top-left is left to the orientation stage unless ``oriented``.
    """

    lattice_xy: np.ndarray
    score: float
    oriented: bool = False  # corner 0 is known to be the printed top-left (located by a calibration)
    earlier_top: bool = False  # corner 0 was the printed top-left in an earlier frame of the same view

    @property
    def corners_xy(self) -> np.ndarray:
        return outer_corners(self.lattice_xy)


def downscaled(image_bgr: np.ndarray, long_side: int) -> tuple[np.ndarray, float]:
    """A copy whose longer side is at most ``long_side`` (halvings, then one area resize) and
    its scale (small = scale * full)."""
    small = image_bgr
    while max(small.shape[:2]) >= 2 * long_side:
        small = cv2.pyrDown(small)
    scale = long_side / max(small.shape[:2])
    if scale < 1:
        small = cv2.resize(small, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return small, small.shape[1] / image_bgr.shape[1]


def place_settings(config: VisionConfig) -> PlaceSettings:
    return PlaceSettings(cell_px=config.place_cell_px, pad_cells=config.place_pad_cells,
                         period_slack=config.period_slack, pitch_slack=config.pitch_slack,
                         pitch_steps=config.pitch_steps, paper_strip=config.paper_strip, art_strip=config.art_strip,
                         min_paper_step=config.min_paper_step, max_extra_paper=config.max_extra_paper,
                         min_line_sharpness=config.min_line_sharpness, max_line_shift=config.max_line_shift,
                         min_cell_activity=config.min_cell_activity)


@dataclass(frozen=True, slots=True)
class Candidate:
    """One fit of a proposal (along its lines, or from its card centres), judged."""

    lattice_xy: np.ndarray  # (11, 11, 2) in full-image pixels
    score: float  # the verdict's board probability; 0 when not eligible or not judged
    features: np.ndarray  # the verdict's inputs (vision/locate_verdict.py)
    eligible: bool  # not ruled out before the verdict (blank cells, a pattern that goes on, too small)


def coarse_fit(quad_small: np.ndarray, small_pyramid: Pyramid, config: VisionConfig, aligned: bool = True
               ) -> tuple[np.ndarray, bool]:
    """The grid near a proposal on the small copy: align to the cells' lattice (unless not
    ``aligned``: the proposal's own lattice), place the 10 x 10 cells, twice. Returns the
    grid -> small homography and whether a coloured border showed the outline on both axes."""
    settings = place_settings(config)
    h = grid_homography(quad_small)
    placement = None
    for pitch_range in (config.align_pitch_range, config.realign_pitch_range):
        if aligned:
            h = align(small_pyramid, h, config.align_cell_px, config.align_pad_cells, pitch_range,
                      config.align_max_skew).homography
        placement = place(small_pyramid, h, settings)
        h = placement.homography
    outline = placement is not None and placement.x.outline and placement.y.outline
    return h, outline


def strays(coarse: np.ndarray, quad_small: np.ndarray, config: VisionConfig) -> bool:
    """Whether an aligned coarse fit landed far from its proposal: cards whose art repeats
    weakly can repeat best at a slanted or stretched lattice, so the proposal's own lattice is
    tried as well."""
    cell = np.sqrt(abs(cv2.contourArea(quad_small))) / GRID
    moved = np.linalg.norm(apply_homography(coarse, GRID_CORNERS) - quad_small, axis=1).max()
    return bool(moved > config.max_align_move * cell)


def fine_fit(homography: np.ndarray, outline: bool, gray_pyramid: Pyramid, config: VisionConfig) -> Refinement:
    """The grid's lines followed at full resolution; without a coloured border, the extent is
    checked on the cells themselves (a whole cell off) and the lines followed again."""
    fit = followed_lines(homography, outline, gray_pyramid, config)
    return fit if outline else extent_checked(fit, gray_pyramid, config) or fit


def followed_lines(homography: np.ndarray, outline: bool, gray_pyramid: Pyramid, config: VisionConfig) -> Refinement:
    """``refine`` with the configured reaches (the outer lines first when ``outline``)."""
    return refine(gray_pyramid, homography, config.refine_cell_px, config.refine_pad_cells, config.refine_reaches,
                  config.min_line_strength, config.line_segments, outline, config.outline_reach)


def extent_checked(fit: Refinement, gray_pyramid: Pyramid, config: VisionConfig, reach: int | None = None
                   ) -> Refinement | None:
    """The fit moved by whole cells (up to ``reach``, by default ``extent_reach``) to where the
    cells say the grid ends (``extent_shift``) and its lines followed again; None when it is
    where they say."""
    reach = config.extent_reach if reach is None else reach
    dx, dy, _ = extent_shift(gray_pyramid, fit.homography, config.evidence_cell_px, reach)
    if not (dx or dy):
        return None
    return followed_lines(fit.homography @ np.array([[1.0, 0, dx], [0, 1, dy], [0, 0, 1]]), False, gray_pyramid,
                          config)


def centred_fit(homography: np.ndarray, gray_pyramid: Pyramid, config: VisionConfig) -> Refinement | None:
    """The fit started from the card centres (``centre_step``), for a grid whose outline no
    coloured border showed: there the cell borders may not show and art lined up in rows can
    pass for them, so the lines are followed only a little way from the centres."""
    centred: np.ndarray | None = homography
    for _ in range(config.centre_steps):
        centred = centre_step(gray_pyramid, centred, config.centre_cell_px, config.centre_half_window,
                              config.centre_reach, config.centre_keep_share, config.centre_inlier_cells)
        if centred is None:
            return None
    return refine(gray_pyramid, centred, config.refine_cell_px, config.refine_pad_cells, config.refine_reaches[-1:],
                  config.min_line_strength, config.line_segments, False, config.outline_reach)


def polished_lattice(lattice_xy: np.ndarray, gray_pyramid: Pyramid, config: VisionConfig) -> np.ndarray:
    """The located lattice moved onto the card centres, finely (``polish_steps``: centre steps
    ever closer, with ever less reach), its bends (a fold, the lens) kept. Lines followed
    where cards have no printed border, or along the paper's edge, can leave the grid a
    quarter of a cell off, a fraction too small or too large: the edge cells then read the
    board's margin as chips."""
    homography = grid_homography(outer_corners(lattice_xy))
    moved: np.ndarray | None = homography
    for cell_px, reach, inlier_cells in config.polish_steps:
        moved = centre_step(gray_pyramid, moved, cell_px, config.centre_half_window, reach,
                            config.centre_keep_share, inlier_cells)
        if moved is None:
            return lattice_xy
    correction = moved @ np.linalg.inv(homography)  # photo -> photo
    polished = apply_homography(correction, lattice_xy).astype(np.float32)
    moved_most = float(corner_moves(outer_corners(lattice_xy), outer_corners(polished)).max())
    # the centres' reach is under a third of a cell: a corner moved further was pulled off by art
    return lattice_xy if moved_most > config.polish_max_move else polished


def corner_moves(earlier_xy: np.ndarray, found_xy: np.ndarray) -> np.ndarray:
    """(4,) how far each of a grid's outer corners moved from ``earlier_xy`` to ``found_xy``,
    in cells (of the earlier grid's top edge)."""
    earlier = np.float32(earlier_xy)
    cell = float(np.linalg.norm(earlier[1] - earlier[0])) / GRID
    return np.linalg.norm(np.float32(found_xy) - earlier, axis=1) / max(cell, 1e-6)


def fit_proposal(coarse: tuple[np.ndarray, bool], scale: float, gray_pyramid: Pyramid, config: VisionConfig,
                 judge: bool = True, ruled_out: list[Refinement] | None = None) -> Iterator[Candidate]:
    """Follows a coarse fit (``coarse_fit``) at full resolution: where no coloured border
    showed the outline, from the card centres first (on dev seeds they were the more precise),
    then (only when asked for more: a sure board stops the search) along the lines. With
    ``judge`` each fit gets the verdict's probability; lattices come back in full-image pixels.
    A fit along a coloured border that is ruled out goes to ``ruled_out``. A fit along the
    lines that is no sure board is tried again moved by up to ``wide_extent_reach`` whole
    cells to where its cells say the grid ends."""
    h_small, outline = coarse
    homography = np.diag([1 / scale, 1 / scale, 1.0]) @ h_small
    if not outline:
        if not worth_following(homography, gray_pyramid, config):
            return
        centred = centred_fit(homography, gray_pyramid, config)
        if centred is not None:
            yield judged_fit(centred, gray_pyramid, config, judge)
    fit = fine_fit(homography, outline, gray_pyramid, config)
    candidate = judged_fit(fit, gray_pyramid, config, judge)
    if outline and not candidate.eligible and ruled_out is not None:
        ruled_out.append(fit)
    yield candidate
    if not outline and judge and candidate.score < config.sure_board_probability:
        moved = extent_checked(fit, gray_pyramid, config, config.wide_extent_reach)
        if moved is not None:
            yield judged_fit(moved, gray_pyramid, config, judge)


def worth_following(homography: np.ndarray, gray_pyramid: Pyramid, config: VisionConfig) -> bool:
    """Whether a coarse fit's cells may be a board's (hold ink or chips, a pattern that stops
    near the outline), judged loosely since it may lie up to half a cell off: following the
    lines of a fit that ends ruled out is most of the locating time on a cluttered table."""
    seen = evidence(gray_pyramid, homography, config.evidence_cell_px, config.busy_quantile)
    return seen.content >= config.min_coarse_content and seen.extent >= config.min_coarse_extent


def moved_to_cells(fit: Refinement, gray_pyramid: Pyramid, config: VisionConfig) -> Refinement | None:
    """A fit along a coloured border that was ruled out, moved (by up to two steps of
    ``extent_checked``) to where the cells say the grid ends: on a board full of chips little
    paper shows, and the paper's edge can be taken a row or two off."""
    moved = extent_checked(fit, gray_pyramid, config)
    return None if moved is None else extent_checked(moved, gray_pyramid, config) or moved


def judged_fit(fit: Refinement, gray_pyramid: Pyramid, config: VisionConfig, judge: bool) -> Candidate:
    """A fit with its evidence, whether it may be a board at all, and (with ``judge``) the
    verdict's probability."""
    lattice = fit.lattice_xy
    corners = outer_corners(lattice)
    seen = evidence(gray_pyramid, grid_homography(corners), config.evidence_cell_px, config.busy_quantile)
    features = verdict_features(seen, fit.lines_seen, fit.residual)
    height, width = gray_pyramid.shape[:2]
    large = abs(cv2.contourArea(corners)) >= config.min_grid_share * config.min_board_fraction * height * width
    eligible = large and ruled_in(seen, config)
    if large and not eligible and seen.visible == 1.0 and seen.extent >= config.min_extent:
        # the cells may hold ink too small or faint for the evidence's cell size: look closer
        eligible = fine_content(gray_pyramid, grid_homography(corners), config.fine_content_cell_px) >= config.min_content
    score = float(default_verdict().probability(features)) if eligible and judge else 0.0
    return Candidate(lattice_xy=lattice, score=score, features=features, eligible=eligible)


def ruled_in(seen: Evidence, config: VisionConfig) -> bool:
    """Whether a fit may be a board at all: a fit whose cells are mostly blank, or whose
    pattern goes on past its outline, is none."""
    return seen.content >= config.min_content and seen.extent >= config.min_extent


def cut_off_sides(lattice_xy: np.ndarray, width: int, height: int, margin: float, corners: bool = False) -> list[str]:
    """The sides of the photo that the grid's outline crosses or touches, the four outer
    corners aside unless ``corners``: a corner cell is a printed chip that every team owns,
    so a photo framed tightly that clips one still shows every cell that can change."""
    edge = slice(None) if corners else slice(1, -1)
    ring = np.concatenate([lattice_xy[0, edge], lattice_xy[edge, -1], lattice_xy[-1, edge], lattice_xy[edge, 0]])
    sides = []
    if (ring[:, 0] < margin).any():
        sides.append("left")
    if (ring[:, 0] > width - 1 - margin).any():
        sides.append("right")
    if (ring[:, 1] < margin).any():
        sides.append("top")
    if (ring[:, 1] > height - 1 - margin).any():
        sides.append("bottom")
    return sides


def cut_off_message(sides: list[str]) -> str:
    """What to tell the player when the grid runs off the photo on ``sides``.

    >>> cut_off_message(["left"])
    'Move back or re-aim: part of the board is outside the photo (left edge).'
    """
    where = " and ".join(sides) + (" edges" if len(sides) > 1 else " edge")
    return f"Move back or re-aim: part of the board is outside the photo ({where})."


def proposals(image_bgr: np.ndarray, config: VisionConfig) -> tuple[list[np.ndarray], float, Pyramid, Pyramid]:
    """Rough quadrilaterals where the grid may be (in the small copy's pixels), the most
    periodic first, with the small copy's scale and the pyramids the fits work on."""
    small, scale = downscaled(image_bgr, config.locate_long_side)
    small_pyramid = Pyramid(small)
    proposing, _ = proposal_copy(small_pyramid, config)
    quads = paper_proposals(small_pyramid, white_gains(proposing, config.white_top_share), config)
    gray_pyramid = Pyramid(cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY))
    return quads, scale, small_pyramid, gray_pyramid


def paper_proposals(small_pyramid: Pyramid, gains: np.ndarray, config: VisionConfig, outlines: bool = True
                    ) -> list[np.ndarray]:
    """Quadrilaterals round the paper under the white balance ``gains`` (``propose_quads``),
    and with ``outlines`` round the edges' outlines, in the small copy's pixels, the most
    periodic first."""
    proposing, to_small = proposal_copy(small_pyramid, config)
    quads = propose_quads(proposing, small_pyramid.levels[0] if outlines else None, gains=gains, levels=config.paper_levels,
                          max_chroma=config.paper_max_chroma, reaches=config.close_shares,
                          texture_box_share=config.texture_box_share, strand_share=config.strand_share,
                          min_area_share=config.min_proposal_share, min_fill=config.min_blob_fill,
                          max_count=config.max_proposals)
    quads = in_small_copy(quads, to_small)
    return most_periodic_first(quads, small_pyramid, config)


def most_periodic_first(quads: list[np.ndarray], small_pyramid: Pyramid, config: VisionConfig) -> list[np.ndarray]:
    """``quads`` (small copy's pixels) ordered by how periodic the photo is inside each."""
    looks = [periodicity(small_pyramid, grid_homography(quad), config.align_cell_px, config.align_pad_cells,
                         config.align_pitch_range, config.align_max_skew) for quad in quads]
    return [quads[index] for index in np.argsort(looks)[::-1]]


def inside_photo_first(quads: list[np.ndarray], small_pyramid: Pyramid, config: VisionConfig) -> list[np.ndarray]:
    """``quads`` (small copy's pixels), those wholly inside the photo first, each group in its
    order: paper running off the photo is more often a chessboard, a checked cloth or the
    table than a board to read (one that does is only reported cut off)."""
    height, width = small_pyramid.shape[:2]
    margin = config.proposal_edge_share * max(height, width)
    return sorted(quads, key=lambda quad: reaches_edge(quad, width, height, margin))  # stable: each group keeps its order


def reaches_edge(quad: np.ndarray, width: int, height: int, margin: float) -> bool:
    """Whether a corner of ``quad`` (4, 2) lies within ``margin`` of the photo's border or beyond it."""
    x, y = quad[:, 0], quad[:, 1]
    return bool((x < margin).any() or (y < margin).any() or (x > width - 1 - margin).any()
                or (y > height - 1 - margin).any())


def grey_paper_proposals(small_pyramid: Pyramid, known: list[np.ndarray], config: VisionConfig) -> list[np.ndarray]:
    """The proposals made when the white balance comes from the brightest weakly coloured
    pixels rather than the brightest of all (the edges' outlines, the same under any balance,
    were proposed already), but for those already ``known``: none when the two balances are
    about the same (a tenth)."""
    proposing, _ = proposal_copy(small_pyramid, config)
    brightest = white_gains(proposing, config.white_top_share)
    grey = white_gains(proposing, config.white_top_share, config.paper_max_chroma)
    if grey is None or np.abs(grey / brightest - 1).max() < config.min_white_balance_change:
        return []
    return distinct(paper_proposals(small_pyramid, grey, config, outlines=False), known,
                    0.01 * max(small_pyramid.shape[:2]))


def proposal_copy(small_pyramid: Pyramid, config: VisionConfig) -> tuple[np.ndarray, float]:
    """The copy of the photo proposals are made on, and the size of its pixel in the small copy's."""
    level = min(config.propose_level, len(small_pyramid.levels) - 1)
    return small_pyramid.levels[level], 2.0**level  # about: pyrDown halves


def in_small_copy(quads: list[np.ndarray], to_small: float) -> list[np.ndarray]:
    """Quadrilaterals on the proposal copy moved to the small copy's pixels (pixel centres kept)."""
    return [(quad + 0.5) * to_small - 0.5 for quad in quads]


def checked_cloth_proposals(small_pyramid: Pyramid, config: VisionConfig) -> list[np.ndarray]:
    """Quadrilaterals round the paper opened wide (``opened_paper_quads``), in the small copy's pixels."""
    proposing, to_small = proposal_copy(small_pyramid, config)
    quads = opened_paper_quads(proposing, level=config.paper_levels[-1], max_chroma=config.paper_max_chroma,
                               top_share=config.white_top_share, reach=config.close_shares[0],
                               check_share=config.check_share, min_area_share=config.min_proposal_share,
                               min_fill=config.min_blob_fill)
    return in_small_copy(quads, to_small)


def colour_proposals(small_pyramid: Pyramid, known: list[np.ndarray], config: VisionConfig) -> list[np.ndarray]:
    """Quadrilaterals round regions of one colour (``colour_region_quads``) in the small copy's
    pixels, but for those already ``known``: the ``max_colour_regions`` most periodic, then the
    ``max_large_colour_regions`` largest of the others."""
    proposing, to_small = proposal_copy(small_pyramid, config)
    quads = colour_region_quads(proposing, colours=config.region_colours, min_area_share=config.min_proposal_share,
                                min_fill=config.min_region_fill)
    quads = distinct(in_small_copy(quads, to_small), known, 0.01 * max(small_pyramid.shape[:2]))
    periodic = most_periodic_first(quads, small_pyramid, config)
    periodic, others = periodic[: config.max_colour_regions], periodic[config.max_colour_regions :]
    largest = sorted(others, key=lambda quad: -abs(cv2.contourArea(quad)))
    return periodic + largest[: config.max_large_colour_regions]


def busy_proposals(small_pyramid: Pyramid, known: list[np.ndarray], config: VisionConfig) -> list[np.ndarray]:
    """Quadrilaterals round the busiest region of edges (``busy_quads``) in the small copy's
    pixels, the largest first, but for those already ``known``."""
    proposing, to_small = proposal_copy(small_pyramid, config)
    quads = busy_quads(proposing, level=config.busy_level, box_share=config.busy_box_share,
                       min_area_share=config.min_proposal_share, min_fill=config.min_blob_fill)
    return distinct(in_small_copy(quads, to_small), known, 0.01 * max(small_pyramid.shape[:2]))


def fitted_candidates(image_bgr: np.ndarray, config: VisionConfig, judge: bool = True) -> Iterator[Candidate]:
    """The grid fitted near each of the most periodic proposals, those inside the photo first
    (``inside_photo_first``), each group the most periodic first, then the proposals' own
    lattices where aligning strayed far from them; without ``judge`` the verdict is not asked
    (to train it: its model may not fit the features yet)."""
    quads, scale, small_pyramid, gray_pyramid = proposals(image_bgr, config)
    strayed: list[np.ndarray] = []
    ruled_out: list[Refinement] = []
    for quad in inside_photo_first(quads[: config.max_fitted], small_pyramid, config):
        coarse = coarse_fit(quad, small_pyramid, config)
        yield from fit_proposal(coarse, scale, gray_pyramid, config, judge, ruled_out)
        if strays(coarse[0], quad, config):
            strayed.append(quad)
    # the largest first: the whole board rather than a part of it
    for quad in sorted(strayed, key=lambda q: -abs(cv2.contourArea(q)))[: config.max_unaligned]:
        yield from fit_proposal(coarse_fit(quad, small_pyramid, config, aligned=False), scale, gray_pyramid, config,
                                judge, ruled_out)
    # a proposal hugging the grid can be moved off it by aligning and placing: its lines followed as it lies
    for quad in quads[: config.max_own_lattice]:
        yield from fit_proposal((grid_homography(quad), False), scale, gray_pyramid, config, judge)
    # then the paper opened wide (a board on a checked cloth), after every proposal of the photo's own
    for quad in checked_cloth_proposals(small_pyramid, config)[: config.max_opened_paper]:
        yield from fit_proposal(coarse_fit(quad, small_pyramid, config), scale, gray_pyramid, config, judge, ruled_out)
    # then the paper under another white balance: the brightest pixels may be a lit table, not the cards
    for quad in grey_paper_proposals(small_pyramid, quads, config)[: config.max_fitted]:
        yield from fit_proposal(coarse_fit(quad, small_pyramid, config), scale, gray_pyramid, config, judge, ruled_out)
    # then round regions of one colour: a border on a textured table, a board covered in chips
    for quad in colour_proposals(small_pyramid, quads, config):
        yield from fit_proposal(coarse_fit(quad, small_pyramid, config), scale, gray_pyramid, config, judge, ruled_out)
    # then round the busiest region of edges: chips, glare or a dark border hid every other outline
    for quad in busy_proposals(small_pyramid, quads, config)[: config.max_busy_regions]:
        yield from fit_proposal(coarse_fit(quad, small_pyramid, config), scale, gray_pyramid, config, judge, ruled_out)
    # last (a fit found as it was comes first): the ruled-out fits moved onto the cells
    for fit in ruled_out[: config.max_moved_to_cells]:
        moved = moved_to_cells(fit, gray_pyramid, config)
        if moved is not None:
            yield judged_fit(moved, gray_pyramid, config, judge)


def every_proposal(image_bgr: np.ndarray, config: VisionConfig) -> list[np.ndarray]:
    """Each proposal ``fitted_candidates`` fits, of every family, in full-image pixels (4, 2):
    to tell a board no proposal came near from one whose fits were lost or turned down."""
    quads, scale, small_pyramid, _ = proposals(image_bgr, config)
    families = (quads[: config.max_fitted] + checked_cloth_proposals(small_pyramid, config)[: config.max_opened_paper]
                + grey_paper_proposals(small_pyramid, quads, config)[: config.max_fitted]
                + colour_proposals(small_pyramid, quads, config)
                + busy_proposals(small_pyramid, quads, config)[: config.max_busy_regions])
    return [quad / scale for quad in families]


def fit_near(image_bgr: np.ndarray, lattice_xy: np.ndarray, config: VisionConfig) -> Candidate:
    """The grid fitted from a lattice found in an earlier frame of the same view, from the
    card centres and along its lines, the fit the verdict likes best (no proposals: on a
    checked cloth they come and go with a frame's noise). Lines followed alone from the
    sample's own grid drifted a quarter of a cell off it."""
    gray_pyramid = Pyramid(cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY))
    homography = grid_homography(outer_corners(lattice_xy))
    fits = [centred_fit(homography, gray_pyramid, config), followed_lines(homography, False, gray_pyramid, config)]
    return max((judged_fit(fit, gray_pyramid, config, judge=True) for fit in fits if fit is not None),
               key=lambda candidate: candidate.score)


def located_fits(image_bgr: np.ndarray, config: VisionConfig, fitted: list[Candidate] | None = None
                 ) -> Iterator[GridFit]:
    """The grids in ``image_bgr`` (BGR uint8) that may be the printed board, best evidence
    first: each sure fit as it is found (the caller asks for the next when reading shows the
    one before was not a Sequence board: another game's board of squares can look as sure),
    or, when no fit is sure, the likeliest one over ``min_board_probability``.

    Raises ``BoardCutOff`` when a grid to yield lies partly outside the photo and no whole one
    is found after it.
    ``fitted`` collects every fit made, for a caller with more evidence (a calibration).
    """
    height, width = image_bgr.shape[:2]
    best: Candidate | None = None
    any_sure = False
    cut_off: BoardCutOff | None = None
    for candidate in fitted_candidates(image_bgr, config):
        if fitted is not None:
            fitted.append(candidate)
        if best is None or candidate.score > best.score:
            best = candidate
        if candidate.score >= config.sure_board_probability:
            any_sure = True
            try:
                yield from likely_whole_grid(candidate, width, height, config)
            except BoardCutOff as error:  # a larger grid round the board can run off a photo that holds it whole
                cut_off = cut_off or error
    if not any_sure and best is not None:
        yield from likely_whole_grid(best, width, height, config)
    if cut_off is not None:
        raise cut_off


def likely_whole_grid(candidate: Candidate, width: int, height: int, config: VisionConfig) -> Iterator[GridFit]:
    """The candidate as a located grid, when it is likely enough a board (``min_board_probability``)
    and lies wholly inside the photo. Raises ``BoardCutOff`` for a grid that runs off the photo
    and is likely enough (``min_cut_off_probability``) to say so."""
    if candidate.score < config.min_board_probability:
        return
    sides = cut_off_sides(candidate.lattice_xy, width, height, config.edge_margin_px)
    if not sides:
        yield GridFit(lattice_xy=candidate.lattice_xy, score=candidate.score)
    elif candidate.score >= config.min_cut_off_probability:  # seen only in part, it must look all the more like a board
        raise BoardCutOff(cut_off_message(sides))


def locate_grid(image_bgr: np.ndarray, config: VisionConfig, fitted: list[Candidate] | None = None) -> GridFit | None:
    """The printed grid in ``image_bgr`` (BGR uint8): the first of ``located_fits``, or None
    when no grid is in the photo. Raises ``BoardCutOff`` when it lies partly outside the photo.
    """
    return next(located_fits(image_bgr, config, fitted), None)
