"""The renderer's ranges and switches, in one typed object with defaults."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RenderConfig:
    """What ``render_photo`` may draw, and within which ranges.

    The defaults give the benchmark's full variety; tests turn parts off.
    """

    # (width, height) of landscape photos and how often each is drawn; portrait swaps them
    sizes: tuple[tuple[int, int], ...] = ((1280, 720), (1920, 1080), (1600, 1200), (2048, 1536), (2560, 1440),
                                          (3264, 2448), (4000, 3000))
    size_weights: tuple[float, ...] = (0.2, 0.3, 0.1, 0.1, 0.05, 0.1, 0.15)
    portrait_share: float = 0.35
    # largest side of the image the scene is drawn at; bigger photos are enlarged from it
    work_long_side: int = 2400
    tilt_max_deg: float = 50.0
    fill_range: tuple[float, float] = (0.35, 0.95)  # board outline span / frame span
    hfov_range_deg: tuple[float, float] = (55.0, 80.0)  # field of view across the long side
    k1_range: tuple[float, float] = (-0.05, 0.03)  # radial distortion
    roll_sd_deg: float = 8.0  # the phone's turn about its axis, on top of the seat's side
    off_centre: float = 0.8  # share of the free frame the board may be moved by
    cut_off_share: float = 0.04  # photos where the board runs off the frame a little
    fold_share: float = 0.5  # boards with a fold ridge
    fold_max_mm: float = 8.0
    bow_max_mm: float = 5.0
    hand_share: float = 0.35  # photos with one or two hands over the board
    mug_share: float = 0.3
    board_object_share: float = 0.12  # photos with a card, the phone or a pad laid on the board
    clutter: bool = True
    effects: bool = True  # lighting variety, blur and noise; off: even light, no blur, no noise
    plain_artwork: bool = False  # a flat test printing instead of random artwork
    turns: int | None = None  # turns played before the photo; None: drawn at random
    field_step: int = 8  # camera mapping computed exactly every this many pixels


DEFAULT_CONFIG = RenderConfig()

# A scene with nothing in the way: fixed plain artwork, no hands, objects or effects.
QUIET_CONFIG = RenderConfig(hand_share=0.0, mug_share=0.0, board_object_share=0.0, clutter=False, effects=False,
                            plain_artwork=True, cut_off_share=0.0)
