"""seqcam bench-compare: two readings of the same set, photo by photo."""

from __future__ import annotations

import csv
from pathlib import Path

from seqcam.bench_compare import NEEDED_COLUMNS, run_bench_compare

EXACT = {"found": "True", "corner_error_cells": "0.05", "exact": "True", "wrong_cells": "0", "unknown_cells": "0",
         "orientation_right": "True"}
MISSED = {"found": "False", "corner_error_cells": "", "exact": "False", "wrong_cells": "", "unknown_cells": "",
          "orientation_right": "False"}
WRONG_GRID = {"found": "True", "corner_error_cells": "1.10", "exact": "False", "wrong_cells": "19",
              "unknown_cells": "3", "orientation_right": "False"}


def _csv(path: Path, photos: dict[str, dict[str, str]], no_board_found: bool = False) -> Path:
    rows = [{"image": name, "calibrated": "False", "has_board": "True", "fully_visible": "True",
             "visible_cells": "96", "ms_locate": "100", **outcome} for name, outcome in photos.items()]
    rows.append({"image": "noboard_0000.jpg", "calibrated": "False", "has_board": "False", "fully_visible": "False",
                 "found": str(no_board_found), "corner_error_cells": "", "exact": "False", "wrong_cells": "",
                 "unknown_cells": "", "visible_cells": "", "orientation_right": "False", "ms_locate": "300"})
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=sorted(NEEDED_COLUMNS))
        writer.writeheader()
        writer.writerows(rows)
    return path


def test_the_photos_that_changed_are_listed_and_counted(tmp_path: Path, capsys) -> None:
    before = _csv(tmp_path / "before.csv", {"photo_0000.jpg": EXACT, "photo_0001.jpg": MISSED})
    after = _csv(tmp_path / "after.csv", {"photo_0000.jpg": EXACT, "photo_0001.jpg": WRONG_GRID}, no_board_found=True)
    assert run_bench_compare([str(before), str(after)]) == 0
    out = capsys.readouterr().out
    assert "photo_0001.jpg: not found -> wrong grid (1.10 cells off)" in out
    assert "noboard_0000.jpg: not found -> found (no board)" in out
    assert "photo_0000.jpg" not in out  # unchanged
    totals = {line[:24].strip(): line[24:].split() for line in out.splitlines() if line[:1].isalpha()}
    assert totals["located"] == ["1", "1"]
    assert totals["wrong grids accepted"] == ["0", "1"]
    assert totals["wrong cells"] == ["0", "19"]
    assert totals["no-board photos found"] == ["0", "1"]


def test_files_come_in_pairs_and_must_be_bench_results(tmp_path: Path, capsys) -> None:
    assert run_bench_compare([str(tmp_path / "one.csv")]) == 2
    assert "in pairs" in capsys.readouterr().out
    other = tmp_path / "other.csv"
    other.write_text("name,score\nx,1\n")
    assert run_bench_compare([str(other), str(other)]) == 2
    assert "is not a results CSV of seqcam bench" in capsys.readouterr().out
    assert run_bench_compare([str(tmp_path / "gone.csv"), str(other)]) == 2
    assert "Cannot read" in capsys.readouterr().out
