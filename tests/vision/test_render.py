"""Tests of the synthetic photo renderer (vision.render): determinism, labels, geometry."""

from __future__ import annotations

import json
import pathlib
from dataclasses import replace

import cv2
import numpy as np
import pytest

from referee.board import Board
from referee.cells import CORNERS, LAYOUT, RED_SUITS, SIZE, win_target
from vision.render import QUIET_CONFIG, RenderConfig, render, render_one, render_photo, render_set
from vision.render.artwork import draw_artwork, plain_artwork_params
from vision.render.config import DEFAULT_CONFIG
from vision.render.geometry import Surface, place_camera, table_points, world_to_image
from vision.render.photo import sample_camera
from vision.render.positions import count_sequences, sample_position

SMALL = RenderConfig(sizes=((1280, 720),), size_weights=(1.0,))
QUIET_SMALL = replace(QUIET_CONFIG, sizes=((1280, 720),), size_weights=(1.0,), fold_share=1.0, fill_range=(0.7, 0.95),
                      k1_range=(-0.08, 0.04))


def _check_label(label: dict, image: np.ndarray) -> None:
    h, w = image.shape[:2]
    assert label["image_size"] == [w, h]
    if not label["has_board"]:
        assert label["grid"] is None and label["corners_px"] is None and label["teams"] is None
        assert label["occluded"] == []
        return
    board = Board.parse("\n".join(label["grid"]))
    teams = label["teams"]
    assert teams in (2, 3)
    if teams == 2:
        assert board.count("R") == 0
    assert board.count("?") == 0
    counts = [board.count(t) for t in "BGR"[:teams]]
    removals = label["varied"]["position"]["removals"]
    assert max(counts) - min(counts) <= 1 + removals
    assert sum(counts) <= 80
    cells = [tuple(c) for c in label["occluded"]]
    assert len(set(cells)) == len(cells)
    assert all(0 <= r < SIZE and 0 <= c < SIZE for r, c in cells)
    shares = label["covered_share"]
    assert len(shares) == SIZE * SIZE and all(0 <= share <= 1 for share in shares)
    assert {divmod(k, SIZE) for k, share in enumerate(shares) if share >= 0.5} == set(cells)
    corners = np.array(label["corners_px"], float)
    assert corners.shape == (4, 2)
    if label["board_fully_visible"]:
        assert np.all(corners >= 0) and np.all(corners[:, 0] <= w - 1) and np.all(corners[:, 1] <= h - 1)
    # the corners are in the documented order: going round them turns the same way every time
    # (clockwise in the image unless the board is seen mirrored, which a camera never does)
    v1, v2 = corners[1] - corners[0], corners[3] - corners[0]
    assert v1[0] * v2[1] - v1[1] * v2[0] > 0
    for key in ("tilt_bucket", "size_bucket", "light_bucket", "occlusion_bucket", "artwork_family", "tilt_deg",
                "rotation_deg", "jpeg_quality", "k1", "fold_mm", "hand_count"):
        assert key in label["varied"], key
    json.dumps(label)


def test_same_seed_same_photo_and_label() -> None:
    a = render(np.random.default_rng(11), config=SMALL)
    b = render(np.random.default_rng(11), config=SMALL)
    c = render(np.random.default_rng(12), config=SMALL)
    assert a.jpeg == b.jpeg and a.label == b.label
    assert a.jpeg != c.jpeg


@pytest.mark.parametrize("seed", range(6))
def test_labels_are_consistent(seed: int) -> None:
    image, label = render_photo(np.random.default_rng(seed), config=SMALL)
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    _check_label(label, image)


@pytest.mark.parametrize("seed", range(3))
def test_photos_without_a_board(seed: int) -> None:
    image, label = render_photo(np.random.default_rng(seed), with_board=False, config=SMALL)
    assert label["has_board"] is False
    _check_label(label, image)


def test_image_sizes_stay_in_range() -> None:
    sizes = {(p.width, p.height) for p in (sample_camera(np.random.default_rng(s), DEFAULT_CONFIG) for s in range(300))}
    assert any(w < h for w, h in sizes) and any(w > h for w, h in sizes)
    for w, h in sizes:
        assert 1280 * 720 <= w * h <= 4000 * 3000
        assert min(w, h) >= 720 and max(w, h) <= 4000


def _corner_samples(image: np.ndarray, corners: np.ndarray, distance: float) -> tuple[list, list]:
    """Pixels a little inside and a little outside each grid corner, along its diagonal."""
    centre = corners.mean(axis=0)
    inside, outside = [], []
    for corner in corners:
        d = (centre - corner) / np.linalg.norm(centre - corner)
        for sign, out in ((1, inside), (-1, outside)):
            x, y = np.round(corner + sign * distance * d).astype(int)
            out.append(image[y, x].astype(int))
    return inside, outside


@pytest.mark.parametrize("seed", range(4))
def test_corners_land_on_the_printed_grid(seed: int) -> None:
    """With a plain test printing (white cells, green border), the pixels just inside each
    labelled corner are white and those just outside are green, even with the board
    folded and the lens distorting."""
    image, label = render_photo(np.random.default_rng(100 + seed), config=QUIET_SMALL)
    assert label["board_fully_visible"]
    assert label["varied"]["fold_mm"] > 0
    corners = np.array(label["corners_px"])
    inside, outside = _corner_samples(image, corners, 4.0)
    for px in inside:
        assert px.min() > 170, px  # white paper of the corner cell
    for px in outside:
        b, g, r = px
        assert g > r + 40 and g > b + 40, px  # the green border
    # and one pixel off would already be noticed: shifting the corners by 6 px breaks it
    shifted = corners + np.array([6.0, 6.0])
    inside_s, outside_s = _corner_samples(image, shifted, 4.0)
    assert not all(p.min() > 170 for p in inside_s) or not all(p[1] > p[2] + 40 for p in outside_s)


def test_warped_board_is_oriented_as_printed() -> None:
    """Warping the photo with corners_px gives the printed layout: the corner discs at the
    four corners, and red ink exactly in the cells of hearts and diamonds."""
    config = replace(QUIET_SMALL, turns=0)
    image, label = render_photo(np.random.default_rng(7), config=config)
    corners = np.array(label["corners_px"], np.float32)
    side = 600
    square = np.float32([[-0.5, -0.5], [side - 0.5, -0.5], [side - 0.5, side - 0.5], [-0.5, side - 0.5]])
    top = cv2.warpPerspective(image, cv2.getPerspectiveTransform(corners, square), (side, side))
    cell = side // SIZE
    for r, c in ((0, 0), (0, 9), (9, 9), (9, 0)):
        b, g, rr = top[r * cell + cell // 2, c * cell + cell // 2].astype(int)
        assert b > rr + 60, (r, c, b, g, rr)  # the test printing's blue corner disc
    for c in range(SIZE * SIZE):
        if c in CORNERS:
            continue
        r, col = divmod(c, SIZE)
        patch = top[r * cell + 6 : (r + 1) * cell - 6, col * cell + 6 : (col + 1) * cell - 6].astype(int)
        red = np.mean((patch[..., 2] > 140) & (patch[..., 1] < 110) & (patch[..., 0] < 110))
        assert (red > 0.02) == (LAYOUT[c][1] in RED_SUITS), (r, col, LAYOUT[c], red)


def test_camera_mapping_inverts_exactly() -> None:
    """table_points (pixel -> board) and world_to_image (board -> pixel) agree, with a bent board."""
    half = (260.0, 280.0)
    surface = Surface(half_w=half[0], half_h=half[1], fold_mm=7.0, fold_axis="y", bow_mm=3.0, wave_mm=1.5,
                      wave_phase=0.4)
    cam = place_camera(1920, 1080, 70, 40, 123, 8, (20.0, -30.0), 0.8, half, k1=-0.07)
    rng = np.random.default_rng(0)
    pixels = rng.uniform([0, 0], [1919, 1079], (200, 2))
    back = world_to_image(cam, table_points(cam, pixels, surface, iterations=8), surface)
    assert np.abs(back - pixels).max() < 0.05
    # and the bend matters: a flat board would put the same point elsewhere
    flat = Surface(half_w=half[0], half_h=half[1], fold_mm=0, fold_axis="y", bow_mm=0, wave_mm=0, wave_phase=0)
    centre = world_to_image(cam, np.array([[0.0, 0.0]]), surface)
    assert np.abs(centre - world_to_image(cam, np.array([[0.0, 0.0]]), flat)).max() > 1.0


def test_artwork_follows_the_layout_geometry() -> None:
    art = draw_artwork(plain_artwork_params(), 40, np.random.default_rng(0))
    corners = art.grid_corners()
    h, w = art.image_bgr.shape[:2]
    assert 0 < corners[0, 0] < corners[1, 0] < w and 0 < corners[0, 1] < corners[3, 1] < h
    x, y = art.cell_centre(0, 0)
    assert np.allclose((x, y), corners[0] + (art.cell_w / 2, art.cell_h / 2))


@pytest.mark.parametrize("seed", range(25))
def test_positions_are_plausible(seed: int) -> None:
    pos = sample_position(np.random.default_rng(seed))
    board = pos.board
    colours = "BGR"[: pos.teams]
    counts = [board.count(t) for t in colours]
    assert max(counts) - min(counts) <= 1 + pos.removals
    assert sum(counts) + pos.removals <= pos.turns
    assert all(board[c] == "#" for c in CORNERS)
    cells = list(board.cells)
    if pos.winner is not None:
        assert count_sequences(cells, pos.winner) >= win_target(pos.teams)
    for team in colours:
        if team != pos.winner:
            assert count_sequences(cells, team) < win_target(pos.teams)


def test_positions_cover_empty_to_late_game() -> None:
    positions = [sample_position(np.random.default_rng(s)) for s in range(120)]
    chips = [sum(p.board.count(t) for t in "BGR") for p in positions]
    assert min(chips) == 0 and max(chips) >= 50
    assert {p.teams for p in positions} == {2, 3}
    assert any(p.winner for p in positions) and any(p.removals for p in positions)


def test_render_set_is_deterministic_and_independent_of_n(tmp_path: pathlib.Path) -> None:
    done: list[int] = []
    a = render_set(tmp_path / "a", 2, 5, no_board=1, progress=done.append, config=SMALL)
    b = render_set(tmp_path / "b", 3, 5, config=SMALL)
    assert [p.name for p in a] == ["photo_0000.jpg", "photo_0001.jpg", "noboard_0000.jpg"]
    assert done == [1, 2, 3]
    for k in range(2):
        assert a[k].read_bytes() == b[k].read_bytes()
        assert a[k].with_suffix(".json").read_text() == b[k].with_suffix(".json").read_text()
    label = json.loads(a[1].with_suffix(".json").read_text())
    assert label["seed"] == 5 and label["index"] == 1 and label["image"] == "photo_0001.jpg"
    assert len(label["grid"]) == 10
    assert render_one(5, 1, config=SMALL).jpeg == a[1].read_bytes()
    empty = json.loads((tmp_path / "a" / "noboard_0000.json").read_text())
    assert empty["has_board"] is False and empty["grid"] is None
    image = cv2.imread(str(a[0]))
    _check_label(json.loads(a[0].with_suffix(".json").read_text()), image)


def test_hands_hide_cells() -> None:
    """With a hand in every photo, some cells are reported hidden, and only where the hand is."""
    config = replace(SMALL, hand_share=1.0)
    hidden = 0
    for seed in range(4):
        image, label = render_photo(np.random.default_rng(seed), config=config)
        assert label["varied"]["hand_count"] >= 1
        hidden += len(label["occluded"])
        _check_label(label, image)
    assert hidden > 0
    quiet = replace(SMALL, hand_share=0.0, mug_share=0.0, board_object_share=0.0, cut_off_share=0.0)
    for seed in range(2):
        _, label = render_photo(np.random.default_rng(seed), config=quiet)
        if label["board_fully_visible"]:
            assert label["occluded"] == []


def _cell_centres_px(label: dict) -> np.ndarray:
    """(100, 2) image positions of the cells' centres (through the grid's corners: near enough on a flat board)."""
    grid = np.float32([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]])
    homography = cv2.getPerspectiveTransform(grid, np.float32(label["corners_px"]))
    centres = np.float32([[[c + 0.5, r + 0.5] for r in range(SIZE) for c in range(SIZE)]])
    return cv2.perspectiveTransform(centres, homography)[0]


def test_objects_laid_on_the_board_hide_the_cells_they_cover_and_change_nothing_else() -> None:
    """The same photo with and without a card or a phone on the board: every cell labelled
    hidden lies where the two differ, and the rest of the photo is as it was."""
    flat = replace(SMALL, hand_share=0.0, mug_share=0.0, fold_share=0.0, cut_off_share=0.0)
    hidden = 0
    for seed in range(4):
        image, label = render_photo(np.random.default_rng(seed), config=replace(flat, board_object_share=1.0))
        bare, bare_label = render_photo(np.random.default_rng(seed), config=replace(flat, board_object_share=0.0))
        _check_label(label, image)
        assert label["varied"]["on_board"] and bare_label["varied"]["on_board"] == []
        assert bare_label["grid"] == label["grid"] and bare_label["occluded"] == []
        change = cv2.GaussianBlur(cv2.absdiff(image, bare).max(axis=2).astype(np.float32), (0, 0), 2)
        centres = np.round(_cell_centres_px(label)).astype(int)
        changed = {i for i, (x, y) in enumerate(centres) if change[y, x] > 12}
        occluded = {r * SIZE + c for r, c in label["occluded"]}
        assert occluded <= changed
        hidden += len(occluded)
        assert np.mean(change > 12) < 0.2  # the rest of the photo is as it was
    assert hidden > 0


@pytest.mark.parametrize("centre", [(3.0, 50.0), (97.0, 50.0), (50.0, 2.0), (50.0, 98.0)])
def test_a_chip_next_to_the_artwork_edge_is_still_drawn(centre):
    # regression: chips on edge cells of thin-margin boards were labelled but not drawn
    from vision.render.chips import ChipPainter, sample_chip_style

    style = sample_chip_style(np.random.default_rng(1))
    painter = ChipPainter(style, 12.0, light_dir=(0.6, -0.8), shadow_offset=(2.0, 2.0), max_parallax=3.0)
    canvas = np.full((100, 100, 3), 240, np.uint8)
    painter.paint(canvas, centre, style.colour("B"), (0.0, 0.0))
    x, y = int(centre[0]), int(centre[1])
    assert not np.array_equal(canvas[y, x], [240, 240, 240])


def test_clutter_when_the_camera_sees_no_table_top():
    # regression: a view beside the table crashed the renderer (empty sampling range)
    from vision.render.table import TableParams, sample_clutter

    table = TableParams("plain", (90, 90, 90), (80, 80, 80), 20.0, 0.0, 0.0, (40, 40, 40), (-500.0, -400.0, 500.0, 400.0))
    for seed in range(20):
        assert sample_clutter(np.random.default_rng(seed), table, None, (600.0, 500.0, 900.0, 800.0)) == []


def test_a_layer_shifted_past_its_window_is_empty() -> None:
    # a tiny chip seen very obliquely once crashed the renderer here
    from vision.render.chips import _shifted

    layer = np.ones((5, 5), np.float32)
    assert not _shifted(layer, 7, 0).any()
    assert not _shifted(layer, 0, -5).any()
    assert _shifted(layer, 2, 1)[1:, 2:].all()


def test_a_hand_reaching_for_a_cell_far_outside_a_grazing_view_is_left_out() -> None:
    # seed 777, photo 933: the cell a hand reached for projected millions of pixels away and
    # drawing its fingers failed
    photo = render_one(777, 933)
    assert photo.label["has_board"] and photo.jpeg


@pytest.mark.parametrize("feature_px", [0.01, 0.3, 40.0])
def test_smooth_noise_has_the_size_asked_for_even_finer_than_a_pixel(feature_px: float) -> None:
    """A wood table seen from far asks for grain finer than a pixel (seed 9292, photo 75 made
    OpenCV's resize fail): the noise is then a pixel wide, at the size asked for."""
    from vision.render.textures import smooth_noise

    noise = smooth_noise(np.random.default_rng(0), 37, 53, feature_px)
    assert noise.shape == (37, 53) and np.isfinite(noise).all() and noise.std() > 0


def test_a_card_across_the_board_edge_lies_on_the_table_beyond_it() -> None:
    from vision.render.board_objects import lay_on_board
    from vision.render.cards import sample_card_style
    from vision.render.chips import sample_chip_style
    from vision.render.table import CARD_MM, ClutterItem

    art = draw_artwork(plain_artwork_params(), 24, np.random.default_rng(0))
    before = art.image_bgr.copy()
    ppm = art.px_per_mm
    right_edge_mm, middle_mm = art.size[0] / ppm, art.size[1] / ppm / 2
    card = ClutterItem(kind="card_back", x=right_edge_mm, y=middle_mm, angle_deg=0.0, size_mm=CARD_MM, seed=3)
    rng = np.random.default_rng(1)
    cover, overhang = lay_on_board(art, [card], sample_card_style(rng, layout="pips"), sample_chip_style(rng))
    assert overhang is not None
    height, width = art.image_bgr.shape[:2]
    pad = overhang.pad_px
    alpha = overhang.bgra[..., 3]
    half_card_px = int(0.5 * CARD_MM[0] * ppm)
    beyond = alpha[pad + height // 2, pad + width + 2 : pad + width + half_card_px - 2]
    assert (beyond > 200).all()  # the card's outer half is opaque over the table
    assert alpha[pad : pad + height, pad : pad + width].max() == 0  # the board's own pixels are the artwork's
    # past the card, the table (a faint shadow at most)
    assert alpha[pad + height // 2, pad + width + half_card_px + 4 :].max() < 100
    inner = slice(width - half_card_px + 2, width - 2)
    assert (cover[height // 2, inner] == 1).all()
    assert np.abs(art.image_bgr[height // 2, inner].astype(int) - before[height // 2, inner]).max() > 30
