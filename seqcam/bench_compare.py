"""`seqcam bench-compare BEFORE.csv AFTER.csv [...]`: two runs of `seqcam bench` side by side.

A vision change is judged on per-photo results of the same photos read before and after it
(`seqcam bench --seed S --keep DIR --csv F` reads a kept set again without rendering it). The
locator is chaotic: a handful of boards flip either way with any change, so judge on three or
more dev sets (never the bench's seed), and look at the photos that changed.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from seqcam.bench_vision import RIGHT_FIT_CELLS

NEEDED_COLUMNS = {"image", "calibrated", "has_board", "fully_visible", "found", "corner_error_cells", "exact",
                  "wrong_cells", "unknown_cells", "visible_cells", "orientation_right", "ms_locate"}

Row = dict[str, str]


class CompareError(Exception):
    """A file that is not a results CSV of `seqcam bench`."""


@dataclass
class Totals:
    boards: int = 0  # photos whose whole board is in view
    located: int = 0
    wrong_grids: int = 0  # a grid accepted half a cell or more off
    exact: int = 0
    wrong_cells: int = 0
    hidden_wrong: int = 0  # a colour called on a cell under a hand (CSVs written before 31378bc lack the column: 0)
    unknown_cells: int = 0
    oriented: int = 0
    no_board_found: int = 0
    locate_ms: float = 0.0  # summed, for the mean

    def add(self, row: Row) -> None:
        self.locate_ms += float(row["ms_locate"] or 0.0)
        if row["has_board"] != "True":
            self.no_board_found += row["found"] == "True"
            return
        if row["fully_visible"] != "True":
            return
        self.boards += 1
        error = float(row["corner_error_cells"] or "nan")
        self.located += error < RIGHT_FIT_CELLS
        self.wrong_grids += row["found"] == "True" and not error < RIGHT_FIT_CELLS
        self.exact += row["exact"] == "True"
        self.wrong_cells += int(row["wrong_cells"] or 0)
        self.hidden_wrong += int(row.get("hidden_wrong") or 0)
        self.unknown_cells += int(row["unknown_cells"] or 0)
        self.oriented += row["orientation_right"] == "True"


def load_rows(path: Path) -> dict[tuple[str, str], Row]:
    """The rows of a bench CSV by (photo, calibrated). Raises ``CompareError``."""
    try:
        with path.open(newline="") as handle:
            reader = csv.DictReader(handle)
            missing = NEEDED_COLUMNS - set(reader.fieldnames or ())
            if missing:
                raise CompareError(f"{path} is not a results CSV of seqcam bench (no column {sorted(missing)[0]}).")
            return {(row["image"], row["calibrated"]): row for row in reader}
    except (OSError, UnicodeDecodeError) as error:
        raise CompareError(f"Cannot read {path}: {error}.") from None


def outcome(row: Row) -> str:
    """What happened to one photo, in a few words."""
    if row["found"] != "True":
        return "not found"
    error = float(row["corner_error_cells"] or "nan")
    if row["has_board"] == "True" and not error < RIGHT_FIT_CELLS:
        return f"wrong grid ({error:.2f} cells off)"
    if row["has_board"] != "True":
        return "found (no board)"
    wrong, unknown = int(row["wrong_cells"] or 0), int(row["unknown_cells"] or 0)
    turned = "" if row["orientation_right"] == "True" else ", turned"
    if row["exact"] == "True":
        return f"exact{turned}"
    hidden = f", {row['hidden_wrong']} hidden wrong" if row.get("hidden_wrong") not in (None, "", "0") else ""
    if not (wrong or unknown or hidden):
        return f"read, a hidden cell called a colour{turned}"  # a CSV from before hidden_wrong was counted
    return f"read, {wrong} wrong, {unknown} ?{hidden}{turned}"


FIELDS = (("boards in view", "boards"), ("located", "located"), ("wrong grids accepted", "wrong_grids"),
          ("boards read exactly", "exact"), ("wrong cells", "wrong_cells"),
          ("hidden cells wrong", "hidden_wrong"), ("visible cells ?", "unknown_cells"),
          ("orientation right", "oriented"), ("no-board photos found", "no_board_found"))


def compare(pairs: list[tuple[Path, Path]]) -> list[str]:
    """The report's lines: each photo whose outcome changed, then the totals before and after."""
    lines: list[str] = []
    before_all, after_all = Totals(), Totals()
    photos = 0
    for before_path, after_path in pairs:
        before, after = load_rows(before_path), load_rows(after_path)
        for key in sorted(before.keys() & after.keys()):
            before_all.add(before[key])
            after_all.add(after[key])
            photos += 1
            was, now = outcome(before[key]), outcome(after[key])
            if was != now:
                calibrated = " (calibrated)" if key[1] == "True" else ""
                lines.append(f"{after_path.name} {key[0]}{calibrated}: {was} -> {now}")
    if photos == 0:
        raise CompareError("The files share no photo: compare two readings of the same set.")
    lines.append("")
    lines.append(f"{'measure':<24} {'before':>8} {'after':>8}")
    for name, attribute in FIELDS:
        lines.append(f"{name:<24} {getattr(before_all, attribute):>8} {getattr(after_all, attribute):>8}")
    lines.append(f"{'locating, mean ms':<24} {before_all.locate_ms / photos:>8.0f} {after_all.locate_ms / photos:>8.0f}")
    return lines


def run_bench_compare(files: list[str]) -> int:
    if len(files) % 2:
        print("Give the CSVs in pairs: BEFORE.csv AFTER.csv [BEFORE.csv AFTER.csv ...].")
        return 2
    paths = [Path(name) for name in files]
    try:
        lines = compare(list(zip(paths[::2], paths[1::2])))
    except CompareError as error:
        print(error)
        return 2
    print("\n".join(lines))
    return 0
