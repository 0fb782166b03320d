"""Every bundled sample photo is read exactly: the grid where the board is visible, '?'
where a hand hides a cell, no board where there is none."""

import json

import pytest

from referee.board import UNKNOWN, Board
from seqcam.samples import sample_photos
from vision.errors import BoardNotFound
from vision.pipeline import analyze_file

SAMPLES = sample_photos()


def test_there_are_about_ten_samples_under_ten_megabytes():
    assert 8 <= len(SAMPLES) <= 14
    total = sum(p.stat().st_size + p.with_suffix(".json").stat().st_size for p in SAMPLES)
    assert total < 10_000_000


@pytest.mark.parametrize("photo", SAMPLES, ids=lambda p: p.name)
def test_sample_is_read_exactly(photo):
    label = json.loads(photo.with_suffix(".json").read_text())
    if not label["has_board"]:
        with pytest.raises(BoardNotFound):
            analyze_file(photo, 2)
        return
    analysis = analyze_file(photo, label["teams"])
    truth = Board.from_rows(label["grid"])
    hidden = {r * 10 + c for r, c in label["occluded"]}
    for c in range(100):
        expected = UNKNOWN if c in hidden else truth[c]
        assert analysis.board[c] == expected, f"cell {divmod(c, 10)}: read {analysis.board[c]!r}, truth {truth[c]!r}"
