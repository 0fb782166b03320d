"""`seqcam bench-locate DIR [DIR ...]`: locating alone, on folders of rendered photos.

The locator is chaotic: a change that moves a few pixels of the small copy flips about one
board in twelve either way, so a single set's +5 is noise. Judge a locating change on three
or more dev sets (never the bench's seed), and count the wrong fits it accepts as well as the
boards it finds.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

from seqcam.bench_vision import RIGHT_FIT_CELLS
from seqcam.train_locator import corner_error_cells, quad_error_cells
from vision.config import VisionConfig
from vision.errors import BoardCutOff
from vision.image_io import read_image_file
from vision.locate import every_proposal, fitted_candidates, locate_grid

PRECISE_FIT_CELLS = 0.25  # ... within a quarter of a cell: every cell is read on its own card


@dataclass
class LocateTally:
    boards: int = 0  # photos whose whole board is in view
    located: int = 0
    precise: int = 0  # of the located, within PRECISE_FIT_CELLS
    wrong: int = 0  # a grid accepted, but half a cell or more off
    no_board: int = 0  # photos without a board
    false_found: int = 0
    milliseconds: list[float] = field(default_factory=list)

    def add(self, other: LocateTally) -> None:
        self.boards += other.boards
        self.located += other.located
        self.precise += other.precise
        self.wrong += other.wrong
        self.no_board += other.no_board
        self.false_found += other.false_found
        self.milliseconds += other.milliseconds

    def row(self, name: str) -> str:
        share = self.located / self.boards if self.boards else 0.0
        median = float(np.median(self.milliseconds)) if self.milliseconds else 0.0
        mean = float(np.mean(self.milliseconds)) if self.milliseconds else 0.0
        return (f"{name:<24} {self.boards:>6} {self.located:>7} {share:>7.1%} {self.precise:>7} {self.wrong:>5} "
                f"{self.false_found:>3}/{self.no_board:<3} {median:>9.0f} {mean:>7.0f}")


CLOSE_PROPOSAL_CELLS = 1.0  # a proposal this near the grid is one fitting should pull onto it


def why_missed(image_bgr: np.ndarray, truth_xy: np.ndarray, config: VisionConfig) -> str:
    """Why a board was not located: the nearest proposal and the nearest fit to the true grid
    (corner error in cells) and what that says: no proposal came near it, fitting lost a close
    one, the verdict turned a right fit down, or a right fit lost to another taken first."""
    proposal = min((quad_error_cells(quad, truth_xy) for quad in every_proposal(image_bgr, config)), default=np.inf)
    fits = [(corner_error_cells(fit.lattice_xy, truth_xy), fit.score) for fit in fitted_candidates(image_bgr, config)]
    fit, score = min(fits, default=(np.inf, 0.0))
    if fit < RIGHT_FIT_CELLS and score >= config.min_board_probability:
        reason = "a right fit was likely too, but another was taken first"
    elif fit < RIGHT_FIT_CELLS:
        reason = "the verdict turned a right fit down"
    elif proposal < CLOSE_PROPOSAL_CELLS:
        reason = "fitting lost a close proposal"
    else:
        reason = "no proposal came near it"
    return f"nearest proposal {proposal:.2f} cells off, nearest fit {fit:.2f} (verdict {score:.2f}): {reason}"


def tally_folder(directory: Path, config: VisionConfig, explain: bool = False) -> LocateTally:
    """Locates every photo of a rendered folder (``seqcam render``) and counts the outcomes;
    with ``explain``, says why each board was not located right (``why_missed``)."""
    tally = LocateTally()
    paths = sorted(directory.glob("photo_*.jpg")) + sorted(directory.glob("noboard_*.jpg"))
    for path in tqdm(paths, unit="photo", desc=directory.name):
        label = json.loads(path.with_suffix(".json").read_text())
        if label["has_board"] and not label["board_fully_visible"]:
            continue
        decoded = read_image_file(path, config)
        start = time.perf_counter()
        try:
            fit = locate_grid(decoded.image_bgr, config)
        except BoardCutOff:
            fit = None
        tally.milliseconds.append((time.perf_counter() - start) * 1000.0)
        if not label["has_board"]:
            tally.no_board += 1
            tally.false_found += fit is not None
            continue
        tally.boards += 1
        truth = np.array(label["corners_px"], np.float32) / decoded.scale
        error = np.inf if fit is None else corner_error_cells(fit.lattice_xy, truth)
        right = error < RIGHT_FIT_CELLS
        tally.located += right
        tally.precise += error < PRECISE_FIT_CELLS
        tally.wrong += fit is not None and not right
        if explain and not right:
            found = "not found" if fit is None else f"a grid {error:.2f} cells off"
            tqdm.write(f"{directory.name}/{path.name}: {found}; {why_missed(decoded.image_bgr, truth, config)}")
    return tally


def run_bench_locate(folders: list[str], explain: bool = False) -> int:
    cv2.setNumThreads(1)
    config = VisionConfig()
    missing = [folder for folder in folders if not Path(folder).is_dir()]
    if missing:
        print(f"No such folder: {', '.join(missing)}. Make one with: seqcam render DIR --n 300 --no-board 30 --seed S")
        return 2
    tallies = {folder: tally_folder(Path(folder), config, explain) for folder in folders}
    total = LocateTally()
    for tally in tallies.values():
        total.add(tally)
    print(f"\n{'folder':<24} {'boards':>6} {'located':>7} {'share':>7} {'precise':>7} {'wrong':>5} {'false':>7} "
          f"{'median ms':>9} {'mean ms':>7}")
    for folder, tally in tallies.items():
        print(tally.row(Path(folder).name))
    if len(tallies) > 1:
        print(total.row("all"))
    return 0
