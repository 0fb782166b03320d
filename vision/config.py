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

    # the rectified board
    cell_px: int = 40  # side of one cell in the rectified image
    refine_rounds: int = 2

    # reading cells (sizes are shares of a cell's side)
    paper_distance: float = 22.0  # Lab distance from the card paper beyond which a pixel is not paper
    highlight_max_area: float = 0.02  # paper-like gaps smaller than this (of a cell's area) are filled
    chip_radius: float = 0.27  # the disc that is tested for a chip (chips are 0.6-0.9 of a cell wide)
    chip_offset: float = 0.14  # how far off centre a chip may lie
    min_colour_chroma: float = 7.0  # a pixel this colourful (after white balance) is coloured, not paper or ink
    colour_spread: float = 9.0  # a chip's pixels lie within this (a, b) distance of its median ...
    colour_spread_share: float = 0.35  # ... or this share of its chroma
    chip_colour_cover: float = 0.8  # share of the disc of the chip's one colour
    gradient_cap: float = 40.0  # lightness gradients are capped at this before averaging
    chip_max_texture: float = 22.0  # lightness gradient inside a chip (smooth plastic)
    card_min_texture: float = 28.0  # busier than this is printed ink, not a chip
    empty_max_cover: float = 0.93  # at most this much non-paper in the disc of an empty cell
    min_chip_chroma: float = 18.0  # Lab chroma of a chip's colour after white balance
    chip_min_roundness: float = 0.72  # blob area over its enclosing circle's: chips are discs
    empty_max_colour_cover: float = 0.45  # a card shows at most this much of one colour in the disc
    empty_max_chroma: float = 12.0  # or a disc this near to grey is paper and black ink
    team_hue_reach_deg: float = 60.0  # chips further than this in hue from a team's typical colour never shape its cluster
    colour_reach: float = 18.0  # a chip's (a, b) colour within this of its team's cluster ...
    colour_reach_share: float = 0.45  # ... or within this share of the cluster's chroma
    colour_separation: float = 1.8  # the next team must be this many times further away
    min_corner_paper: float = 0.35  # a cell whose corners are not paper is hidden

    # orientation
    chip_cover_radius: float = 0.47  # around a chip's centre nothing votes for the suit colour
    red_ink_chroma: float = 20.0  # ink at least this colourful (and red) is red suit ink
    dark_ink_lightness: float = 45.0  # ink darker than this (and grey) is black suit ink
    min_orientation_margin: float = 3.0  # fewer votes' lead than this: the side is not certain
