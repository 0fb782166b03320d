"""seqcam bench-locate: locating alone over folders of labelled photos."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import numpy as np

from seqcam.bench_locate import run_bench_locate, tally_folder, why_missed
from vision.config import VisionConfig
from vision.image_io import read_image_file

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"


def _as_rendered(folder: Path, count: int) -> Path:
    """The first bundled samples, named as seqcam render names its photos."""
    folder.mkdir()
    for k, image in enumerate(sorted(SAMPLES.glob("sample_*.jpg"))[:count]):
        shutil.copy(image, folder / f"photo_{k:04d}.jpg")
        shutil.copy(image.with_suffix(".json"), folder / f"photo_{k:04d}.json")
    return folder


def test_every_bundled_sample_is_located_and_nothing_wrong(tmp_path: Path) -> None:
    tally = tally_folder(_as_rendered(tmp_path / "samples", 3), VisionConfig())
    assert (tally.boards, tally.located, tally.precise, tally.wrong, tally.no_board) == (3, 3, 3, 0, 0)


def test_the_table_has_a_row_per_folder_and_one_for_all(tmp_path: Path, capsys) -> None:
    first, second = _as_rendered(tmp_path / "first", 1), _as_rendered(tmp_path / "second", 1)
    assert run_bench_locate([str(first), str(second)]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert [row.split()[0] for row in rows[-3:]] == ["first", "second", "all"]
    assert rows[-1].split()[1:3] == ["2", "2"]  # boards, located


def test_a_missing_folder_says_how_to_make_one(tmp_path: Path, capsys) -> None:
    assert run_bench_locate([str(tmp_path / "nowhere")]) == 2
    assert "seqcam render" in capsys.readouterr().out


def test_explain_says_the_verdict_turned_a_right_fit_down(tmp_path: Path, capsys) -> None:
    no_fit_is_enough = replace(VisionConfig(), min_board_probability=1.01, sure_board_probability=1.01)
    tally = tally_folder(_as_rendered(tmp_path / "samples", 1), no_fit_is_enough, explain=True)
    assert (tally.boards, tally.located) == (1, 0)
    line = capsys.readouterr().out.strip().splitlines()[-1]
    assert line.startswith("samples/photo_0000.jpg: not found;") and line.endswith("the verdict turned a right fit down")


def test_explain_says_no_proposal_came_near_a_board_that_is_not_where_the_label_says() -> None:
    photo = read_image_file(next(SAMPLES.glob("sample_*.jpg")), VisionConfig()).image_bgr
    elsewhere = np.float32([[0, 0], [40, 0], [40, 40], [0, 40]])  # a small square in a corner of the photo
    assert why_missed(photo, elsewhere, VisionConfig()).endswith("no proposal came near it")
