"""Calibration: profiles learned from rendered photos, read back, refused when damaged, and
used by the pipeline (and not used when they do not fit the photo)."""

from __future__ import annotations

import json
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.learn import CalibrationError, calibrate, cell_aspect
from calibration.lens import LensCalibrationError, lens_from_checkerboards
from seqcam.cli import main
from vision.config import VisionConfig
from vision.errors import ImageColourless
from vision.locate_reference import locate_by_reference
from vision.pipeline import analyze_bytes, analyze_image
from vision.profile import SCHEMA, Profile, ProfileError, load_profile, save_profile
from vision.render import QUIET_CONFIG, render
from vision.render.checkerboard import render_checkerboard
from vision.render.dataset import kit_of
from vision.warp import lattice_from_corners

CONFIG = VisionConfig()
CLEAN = replace(QUIET_CONFIG, sizes=((1600, 1200),), size_weights=(1.0,), fill_range=(0.75, 0.9), tilt_max_deg=25.0)


@lru_cache(maxsize=None)
def photos(kit_index: int, seed: int = 31) -> tuple[tuple[np.ndarray, dict], tuple[np.ndarray, dict]]:
    """An empty-board photo and a mid-game photo of the same game (board printing and chips)."""
    kit = kit_of(4242, kit_index)
    empty = render(np.random.default_rng(seed), config=replace(CLEAN, turns=0), kit=kit)
    game = render(np.random.default_rng(seed + 1), config=replace(CLEAN, turns=30), kit=kit)
    return (empty.image_bgr(), empty.label), (game.image_bgr(), game.label)


@lru_cache(maxsize=None)
def profile_for(kit_index: int) -> Profile:
    (empty, _), _ = photos(kit_index)
    return calibrate(empty, config=CONFIG).profile


def test_a_calibrated_photo_reads_safely_and_comes_out_oriented() -> None:
    _, (game, label) = photos(0)
    analysis = analyze_image(game, label["teams"], CONFIG, profile=profile_for(0))
    plain = analyze_image(game, label["teams"], CONFIG)
    truth = "".join(label["grid"])
    assert all(read in (want, "?") for read, want in zip(analysis.board.cells, truth))
    assert analysis.board.cells.count("?") <= max(1, plain.board.cells.count("?"))
    assert not analysis.warnings
    assert np.abs(analysis.corners_xy - np.float32(label["corners_px"])).max() < 0.3 * label["varied"]["grid_px"] / 10


def test_the_board_is_found_by_its_artwork() -> None:
    _, (game, label) = photos(0)
    fit = locate_by_reference(game, profile_for(0), CONFIG)
    assert fit is not None and fit.oriented
    cell = label["varied"]["grid_px"] / 10
    assert np.abs(fit.corners_xy - np.float32(label["corners_px"])).max() < 0.3 * cell


def test_another_boards_profile_is_not_used() -> None:
    _, (game, label) = photos(0)
    analysis = analyze_image(game, label["teams"], CONFIG, profile=profile_for(1))
    assert [w.kind.value for w in analysis.warnings] == ["calibration_mismatch"]
    assert "calibration does not match" in str(analysis.warnings[0])
    wrong = sum(a not in (b, "?") for a, b in zip(analysis.board.cells, "".join(label["grid"])))
    assert wrong == 0


def test_chips_on_the_empty_board_are_reported() -> None:
    _, (game, _) = photos(0)
    result = calibrate(game, config=CONFIG)
    chips = [w for w in result.warnings if "look like chips" in str(w)]
    assert [w.kind.value for w in chips] == ["chips_on_empty"] and chips[0].params["count"] > 2


def test_chip_colours_are_learned_from_a_photo_with_chips() -> None:
    (empty, _), (game, label) = photos(0)
    result = calibrate(empty, (game,), config=CONFIG)
    teams = {symbol for row in label["grid"] for symbol in row if symbol in "BGR"}
    assert set(result.profile.chip_ab) == teams
    blue = result.profile.chip_ab.get("B")
    assert blue is None or blue[1] < 0  # blue lies towards -b in Lab


def test_no_board_in_the_empty_photo_is_a_clear_error() -> None:
    with pytest.raises(CalibrationError, match="not found") as raised:
        calibrate(np.full((600, 800, 3), (60, 100, 150), np.uint8), config=CONFIG)  # a bare table
    assert raised.value.code == "board_not_found"


def test_a_black_and_white_photo_cannot_teach_the_chips_colours() -> None:
    with pytest.raises(ImageColourless, match="black and white"):
        calibrate(np.full((600, 800, 3), 128, np.uint8), config=CONFIG)


def test_profile_round_trips_through_json(tmp_path: Path) -> None:
    profile = profile_for(0)
    path = tmp_path / "table.json"
    save_profile(profile, path)
    assert path.stat().st_size < 1_000_000
    again = load_profile(path)
    assert np.array_equal(again.reference_bgr, profile.reference_bgr)
    assert again.cell_aspect == pytest.approx(profile.cell_aspect, abs=1e-3)
    assert json.loads(path.read_text())["schema"] == SCHEMA


@pytest.mark.parametrize("mutate, message", [
    (lambda d: "not json {", "not valid JSON"),
    (lambda d: json.dumps({**d, "schema": "other"}), "not a seqcam calibration profile"),
    (lambda d: json.dumps({**d, "version": 99}), "version 99"),
    (lambda d: json.dumps({**d, "board": {**d["board"], "reference_png_base64": "AAAA"}}), "damaged"),
    (lambda d: json.dumps({**d, "board": {**d["board"], "cell_aspect": "wide"}}), "damaged"),
    (lambda d: json.dumps({**d, "chips": {"X": [1, 2]}}), "unknown team"),
    (lambda d: json.dumps({**d, "lens": {"matrix": [[1]], "distortion": [0], "image_size": [1, 1]}}), "damaged"),
    (lambda d: json.dumps([1, 2, 3]), "not a seqcam calibration profile"),
])
def test_a_bad_profile_is_refused_with_its_reason(tmp_path: Path, mutate, message: str) -> None:
    good = profile_for(0).to_json()
    path = tmp_path / "bad.json"
    path.write_text(mutate(good))
    with pytest.raises(ProfileError, match=message):
        load_profile(path)


def test_a_photo_given_as_the_profile_says_how_to_make_one(tmp_path: Path) -> None:
    photo = tmp_path / "empty.jpg"
    photo.write_bytes(b"\xff\xd8\xff\xe0" + bytes(range(256)))
    with pytest.raises(ProfileError, match="not a calibration profile .* seqcam calibrate PHOTO -o PROFILE"):
        load_profile(photo)


def test_a_missing_profile_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ProfileError, match="No calibration profile"):
        load_profile(tmp_path / "absent.json")


def test_cell_aspect_is_measured_through_perspective() -> None:
    import cv2

    # a grid of cells 1.2 times taller than wide, seen tilted by a camera with f = 1000
    f, width, height = 1000.0, 1600, 1200
    rotation, _ = cv2.Rodrigues(np.array([0.5, 0.3, 0.4]))  # tilted about no axis of the grid
    grid = np.array([[x, 1.2 * y, 0.0] for y in (-5, 5) for x in (-5, 5)])
    camera = (rotation @ grid.T).T + [0, 0, 40]
    pixels = f * camera[:, :2] / camera[:, 2:] + [width / 2, height / 2]
    corners = np.float32([pixels[0], pixels[1], pixels[3], pixels[2]])
    assert cell_aspect(lattice_from_corners(corners), width, height) == pytest.approx(1.2, abs=0.02)


def test_lens_distortion_is_recovered_from_checkerboards() -> None:
    matrix = np.array([[900.0, 0, 640], [0, 900, 360], [0, 0, 1]])
    distortion = np.array([-0.12, 0.03, 0, 0, 0])
    rng = np.random.default_rng(3)
    views = [np.repeat(render_checkerboard(rng, matrix, distortion, (1280, 720))[..., None], 3, axis=2)
             for _ in range(5)]
    lens = lens_from_checkerboards(views)
    assert lens.distortion[0] == pytest.approx(-0.12, abs=0.02)
    assert lens.matrix[0, 0] == pytest.approx(900, rel=0.03)
    assert lens.rms_px < 0.5
    with pytest.raises(LensCalibrationError, match="at least 3"):
        lens_from_checkerboards(views[:2])


def test_calibrate_and_analyze_on_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import cv2

    (empty, _), (game, label) = photos(0)
    cv2.imwrite(str(tmp_path / "empty.jpg"), empty, [cv2.IMWRITE_JPEG_QUALITY, 95])
    cv2.imwrite(str(tmp_path / "game.jpg"), game, [cv2.IMWRITE_JPEG_QUALITY, 95])
    profile = tmp_path / "table.json"
    assert main(["calibrate", str(tmp_path / "empty.jpg"), "-o", str(profile)]) == 0
    assert "learned the empty board" in capsys.readouterr().out
    assert main(["analyze", "--json", "--teams", str(label["teams"]), "--calibration", str(profile),
                 str(tmp_path / "game.jpg")]) == 0
    assert json.loads(capsys.readouterr().out)["grid"] == label["grid"]
    (tmp_path / "bad.json").write_text("{")
    assert main(["analyze", "--calibration", str(tmp_path / "bad.json"), str(tmp_path / "game.jpg")]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    assert main(["calibrate", str(tmp_path / "absent.jpg"), "-o", str(profile)]) == 1
    assert "seqcam calibrate:" in capsys.readouterr().err


def test_a_fit_the_verdict_turned_down_is_rescued_by_the_calibration() -> None:
    from vision.errors import BoardNotFound
    from vision.locate import locate_grid
    from vision.pipeline import rescued_by_profile

    _, (game, label) = photos(0)
    # no fit is clear enough without a calibration, nor reads clearly enough to confirm one
    doubtful = replace(CONFIG, min_board_probability=1.01, max_confirm_unknown_share=-1.0,
                       max_doubtful_unknown_share=-1.0)
    with pytest.raises(BoardNotFound):
        analyze_image(game, label["teams"], doubtful)
    # as seqcam analyze and the server read a file, the fits locating made reach the rescue
    # (the board's artwork is not looked for here: it would find the board on its own)
    jpeg = cv2.imencode(".jpg", game, [cv2.IMWRITE_JPEG_QUALITY, 95])[1].tobytes()
    no_artwork = replace(doubtful, min_reference_matches=10**6)
    assert analyze_bytes(jpeg, label["teams"], no_artwork, profile=profile_for(0)).board is not None
    fitted: list = []
    assert locate_grid(game, doubtful, fitted) is None and fitted
    fit = rescued_by_profile(game, fitted, profile_for(0), doubtful)
    assert fit is not None
    corners = np.float32(label["corners_px"])
    cell = label["varied"]["grid_px"] / 10
    assert min(np.abs(np.roll(fit.corners_xy, k, axis=0) - corners).max() for k in range(4)) < 0.3 * cell
    assert rescued_by_profile(game, fitted, profile_for(1), doubtful) is None  # another board's calibration vouches for nothing


def test_the_bundled_empty_board_calibrates_the_bundled_sample(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    from seqcam.samples import SAMPLE_DIR, default_sample

    profile = tmp_path / "table.json"
    assert main(["calibrate", str(SAMPLE_DIR / "empty_board_01.jpg"), "-o", str(profile)]) == 0
    assert "warning" not in capsys.readouterr().out
    assert main(["analyze", "--json", "--calibration", str(profile), str(default_sample())]) == 0
    reading = json.loads(capsys.readouterr().out)
    assert reading["grid"] == json.loads(default_sample().with_suffix(".json").read_text())["grid"]
    assert reading["warnings"] == []


@pytest.mark.parametrize("shift", [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)])
def test_the_calibration_vouches_only_for_the_grid_where_it_lies(shift: tuple[int, int]) -> None:
    from vision.locate import Candidate
    from vision.pipeline import rescued_by_profile
    from vision.warp import shifted_lattice

    _, (game, label) = photos(0)
    truth = lattice_from_corners(np.float32(label["corners_px"]))
    fit = Candidate(lattice_xy=shifted_lattice(truth, shift), score=0.5, features=np.zeros(0), eligible=True)
    assert (rescued_by_profile(game, [fit], profile_for(0), CONFIG) is not None) == (shift == (0, 0))
