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

    # reading cells
    chip_min_cover: float = 0.45  # share of the chip disc that must carry one chip colour
    chip_sure_cover: float = 0.6
    empty_max_cover: float = 0.18  # at most this much chip-like colour in an empty cell
    min_chip_chroma: float = 28.0  # Lab chroma of a chip's colour after white balance
    hue_margin_deg: float = 25.0  # a chip colour this far from every team cluster is unsure
    unknown_max_card_white: float = 0.25  # less card white than this and no chip: hidden

    # orientation
    min_orientation_margin: float = 2.0
