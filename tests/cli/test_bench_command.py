"""seqcam bench on a tiny set: both tables print, calibrated side by side, one CSV row per reading."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from seqcam.cli import main


def test_bench_prints_no_setup_and_calibrated_side_by_side(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "results.csv"
    assert main(["bench", "--n", "2", "--no-board", "1", "--seed", "11", "--workers", "1", "--calibrated",
                 "--keep", str(tmp_path / "photos"), "--csv", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "no set-up  calibrated" in printed
    assert "Calibrations:" in printed and "Speed on one core" in printed
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 6
    assert sorted(row["calibrated"] for row in rows) == ["False"] * 3 + ["True"] * 3
    assert sorted((tmp_path / "photos").glob("calibration_*.jpg"))
