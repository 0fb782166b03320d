"""Every threshold of the vision pipeline, in one typed object with defaults."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class VisionConfig:
    # decoding
    max_file_bytes: int = 60_000_000
    max_pixels: int = 50_000_000  # 12 MP photos and panoramas pass; decompression bombs do not
    decode_long_side: int = 1600  # JPEGs are decoded at a reduced scale down to about this size

    # locating the board
    locate_long_side: int = 800  # the board is searched for at this size
    min_board_fraction: float = 0.04  # of the photo's area
    edge_margin_px: float = 2.0  # a corner closer than this to the border counts as cut off

    # locating: proposals (vision/locate_propose.py), on the copy of locate_long_side
    paper_levels: tuple[float, ...] = (0.72, 0.55)  # paper is lighter than this share of the whitest paper
    paper_max_chroma: float = 0.25  # ... and less colourful than this share of its lightness
    white_top_share: float = 0.03  # the white balance comes from this share of the brightest pixels
    close_shares: tuple[float, ...] = (0.01, 0.025, 0.045)  # blobs this near (of the long side) are grouped
    texture_box_share: float = 0.02  # window of the ink-on-paper density map, of the long side
    min_blob_fill: float = 0.2  # paper must fill this share of its group's hull
    max_proposals: int = 8
    # locating: the lattice (vision/locate_lattice.py)
    align_cell_px: int = 12  # cell size of the rectification the lattice period is measured on
    align_pad_cells: float = 2.0
    align_pitch_range: tuple[float, float] = (0.6, 1.5)  # the period searched, of the proposal's cell
    align_max_skew: float = 0.25
    place_cell_px: int = 16  # cell size of the rectification the 10 x 10 cells are placed on
    place_pad_cells: float = 3.0
    period_slack: float = 0.12
    pitch_slack: float = 0.015
    paper_strip: float = 0.25  # cells each side of a paper edge compared
    art_strip: float = 0.5
    min_paper_step: float = 0.4  # a coloured border ends the paper with at least this step
    max_extra_paper: float = 0.3  # paper wider than 10 cells plus this: a white border, use the art
    min_line_sharpness: float = 1.0
    max_line_shift: float = 0.3
    refine_cell_px: int = 24  # cell size the lines are measured at
    refine_pad_cells: float = 0.6
    refine_reaches: tuple[float, ...] = (0.2, 0.12, 0.08)  # how far from the fit a line is looked for, cells
    outline_reach: float = 0.2
    min_line_strength: float = 2.0  # a line piece shows this many times the band's median evidence
    line_segments: int = 6  # pieces per band for the median along a line
    # locating: is it a Sequence board?
    min_periodicity: float = 0.12  # autocorrelation of the cells' pattern at the lattice period
    min_board_score: float = 1.0

    # the rectified board
    cell_px: int = 32  # side of one cell in the rectified image
    refine_rounds: int = 2

    # reading cells (sizes are shares of a cell's side)
    paper_distance: float = 22.0  # Lab distance from the card paper beyond which a pixel is not paper
    highlight_max_area: float = 0.02  # paper-like gaps smaller than this (of a cell's area) are filled
    chip_radius: float = 0.27  # the disc that is tested for a chip (chips are 0.6-0.9 of a cell wide)
    chip_offset: float = 0.14  # how far off centre a chip may lie
    wide_chip_radius: float = 0.38  # a disc as wide as a large chip
    min_colour_chroma: float = 7.0  # a pixel this colourful (after white balance) is coloured, not paper or ink
    colour_spread: float = 9.0  # a chip's pixels lie within this (a, b) distance of its median ...
    colour_spread_share: float = 0.35  # ... or this share of its chroma
    round_test_min_cover: float = 0.5  # discs at least this much one colour are tested for roundness
    gradient_cap: float = 40.0  # lightness gradients are capped at this before averaging
    min_cell_confidence: float = 0.9  # the cell model's probability below which a cell is '?'
    team_hue_reach_deg: float = 60.0  # chips further than this in hue from a team's typical colour never shape its cluster
    colour_reach: float = 18.0  # a chip's (a, b) colour within this of its team's cluster ...
    colour_reach_share: float = 0.45  # ... or within this share of the cluster's chroma
    colour_separation: float = 1.8  # the next team must be this many times further away

    # orientation
    chip_cover_radius: float = 0.47  # around a chip's centre nothing votes for the suit colour
    min_orientation_margin: float = 6.0  # fewer votes' lead than this: the side is not certain
