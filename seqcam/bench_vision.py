"""`seqcam bench`: accuracy, speed and memory of the vision pipeline on freshly rendered photos.

The photos are rendered with a seed the pipeline was not tuned on, then read one by one on
one core. Two tables are printed (accuracy with breakdowns; speed per stage and size) and
one CSV row per photo is written.
"""

from __future__ import annotations

import csv
import json
import resource
import statistics
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

from referee.board import UNKNOWN, Board
from referee.judge import judge
from vision.config import VisionConfig
from vision.errors import VisionError
from vision.image_io import read_image_file
from vision.locate import GridFit
from calibration.learn import calibrate
from vision.pipeline import analyze_decoded
from vision.profile import Profile
from vision.render.dataset import BOARD_STEM, NO_BOARD_STEM, render_calibration, render_one, write_photo
from vision.warp import lattice_from_corners

BENCH_SEED = 20261129  # never used while tuning
RIGHT_FIT_CELLS = 0.5  # a located grid whose corners all lie within half a cell of the truth
BREAKDOWNS = ("tilt_bucket", "size_bucket", "artwork_family", "light_bucket", "occlusion_bucket")


@dataclass
class PhotoResult:
    image: str
    has_board: bool
    fully_visible: bool
    calibrated: bool = False
    buckets: dict[str, str] = field(default_factory=dict)
    found: bool = False
    error: str = ""
    corner_error_cells: float = float("nan")
    orientation_right: bool = False
    visible_cells: int = 0
    right_cells: int = 0
    unknown_cells: int = 0
    wrong_cells: int = 0
    hidden_cells: int = 0
    hidden_as_unknown: int = 0
    hidden_wrong: int = 0  # a chip under a hand read as an empty card is as unsafe as on a visible cell
    exact: bool = False
    verdict_right: bool = False
    false_winner: bool = False
    size: str = ""
    timings_ms: dict[str, float] = field(default_factory=dict)
    decode_only_ms: float = float("nan")


def _render_job(job: tuple[str, int, int, bool]) -> str:
    out_dir, seed, index, with_board = job
    stem = (BOARD_STEM if with_board else NO_BOARD_STEM).format(index)
    done = Path(out_dir) / f"{stem}.jpg"
    if done.exists() and done.with_suffix(".json").exists():
        return str(done)  # rendered before (same seed, same index): an interrupted set resumes
    rendered = render_one(seed, index, with_board=with_board)
    return str(write_photo(Path(out_dir), stem, rendered))


def render_bench_set(out_dir: Path, n: int, no_board: int, seed: int, workers: int) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    jobs = [(str(out_dir), seed, k, True) for k in range(n)] + [(str(out_dir), seed, k, False) for k in range(no_board)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        paths = list(tqdm(pool.map(_render_job, jobs, chunksize=2), total=len(jobs), unit="photo", desc="rendering"))
    return [Path(p) for p in paths]


def size_class(width: int, height: int) -> str:
    pixels = width * height
    return "720p" if pixels <= 1.2e6 else "1080p" if pixels <= 2.5e6 else "12MP" if pixels >= 10e6 else "other"


def corner_error(found_xy: np.ndarray, true_xy: np.ndarray, turns: int = 0) -> float:
    """Largest corner distance, in cells, after turning the found order by ``turns``."""
    cell = float(np.linalg.norm(true_xy[1] - true_xy[0])) / 10
    return float(np.abs(np.roll(found_xy, turns, axis=0) - true_xy).max() / max(cell, 1e-6))


def score_reading(result: PhotoResult, read: Board, label: dict, team_count: int) -> None:
    truth = Board.from_rows(label["grid"])
    hidden = {r * 10 + c for r, c in label.get("occluded", [])}
    for c, (want, got) in enumerate(zip(truth.cells, read.cells)):
        if want == "#":
            continue
        if c in hidden:
            result.hidden_cells += 1
            result.hidden_as_unknown += got == UNKNOWN
            result.hidden_wrong += got not in (want, UNKNOWN)
            continue
        result.visible_cells += 1
        result.right_cells += got == want
        result.unknown_cells += got == UNKNOWN
        result.wrong_cells += got not in (want, UNKNOWN)
    result.exact = result.right_cells == result.visible_cells and result.hidden_wrong == 0
    truth_verdict, read_verdict = judge(truth, team_count), judge(read, team_count)
    result.verdict_right = (truth_verdict.sequences, truth_verdict.winner) == (read_verdict.sequences, read_verdict.winner)
    # a team called the winner that has not won; a rendered position where two teams both have won
    # (which no game reaches) called for one of them is no false winner
    result.false_winner = any(team not in truth_verdict.winner for team in read_verdict.winner)


def true_grid_locator(label: dict, scale: float):
    """A stand-in for the locating stage that knows the answer: measures the later stages alone."""
    corners = np.array(label["corners_px"], np.float32) / scale
    fit = GridFit(lattice_xy=lattice_from_corners(corners), score=1.0)
    return lambda image_bgr, config: fit


def bench_photo(path: Path, config: VisionConfig, oracle: bool = False, profile: Profile | None = None,
                calibrated: bool = False) -> PhotoResult:
    """One photo read and scored; ``calibrated`` marks the calibrated run (whose calibration
    may have failed: then ``profile`` is None and the photo is read as with no set-up)."""
    label = json.loads(path.with_suffix(".json").read_text())
    width, height = label["image_size"]
    varied = label.get("varied", {})
    result = PhotoResult(
        image=path.name,
        has_board=bool(label["has_board"]),
        fully_visible=bool(label.get("board_fully_visible", False)),
        buckets={key: str(varied.get(key, "")) for key in BREAKDOWNS},
        size=size_class(width, height),
        calibrated=calibrated,
    )
    start = time.perf_counter()
    decode_start = time.perf_counter()
    cv2.imdecode(np.frombuffer(path.read_bytes(), np.uint8), cv2.IMREAD_COLOR)
    result.decode_only_ms = (time.perf_counter() - decode_start) * 1000
    try:
        start = time.perf_counter()
        decoded = read_image_file(path, config)
        decode_ms = (time.perf_counter() - start) * 1000
        locate = true_grid_locator(label, decoded.scale) if oracle and label["has_board"] else None
        analysis = analyze_decoded(decoded, label.get("teams") or 2, config, decode_ms, locate, profile)
    except VisionError as error:
        result.error = str(error)
        return result
    result.timings_ms = {**analysis.timings_ms, "total": (time.perf_counter() - start) * 1000}
    result.found = True
    if not result.has_board:
        return result
    true_corners = np.array(label["corners_px"], np.float32)
    # located: the grid is right whichever corner it calls the top-left; oriented: that one too
    result.corner_error_cells = min(corner_error(analysis.corners_xy, true_corners, k) for k in range(4))
    result.orientation_right = corner_error(analysis.corners_xy, true_corners) < RIGHT_FIT_CELLS
    score_reading(result, analysis.board, label, label["teams"])
    return result


def calibration_game(path: Path) -> tuple[int, int, Path]:
    """The seed and index of the game in bench photo ``path`` (photos without a board borrow
    the first game's), and where its empty-board photo goes."""
    label = json.loads(path.with_suffix(".json").read_text())
    index = int(label["index"]) if label["has_board"] else 0
    return int(label["seed"]), index, path.parent / f"calibration_{index:04d}.jpg"


def _render_calibration_job(path: str) -> None:
    seed, index, target = calibration_game(Path(path))
    if not target.exists():
        target.write_bytes(render_calibration(seed, index).jpeg)


def render_calibration_set(paths: list[Path], workers: int) -> None:
    """Renders the empty-board photos in worker processes (the renderer's memory stays out
    of the measured process)."""
    games = [str(p) for p in paths if p.name.startswith("photo_")]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        list(tqdm(pool.map(_render_calibration_job, games), total=len(games), unit="photo",
                  desc="rendering empty boards"))


def calibrate_for(path: Path, config: VisionConfig) -> tuple[Profile | None, float]:
    """A profile from the empty-board photo of the game in ``path`` (None when that photo
    cannot be used), and the seconds calibrating took."""
    start = time.perf_counter()
    try:
        profile = calibrate(read_image_file(calibration_game(path)[2], config).image_bgr, config=config).profile
    except VisionError:
        profile = None
    return profile, time.perf_counter() - start


def accuracy_rows(results: list[PhotoResult]) -> list[tuple[str, str, int]]:
    boards = [r for r in results if r.has_board and r.fully_visible]
    read = [r for r in boards if r.found]
    empty = [r for r in results if not r.has_board]
    visible = sum(r.visible_cells for r in read)
    hidden = sum(r.hidden_cells for r in read)

    def share(part: float, whole: float) -> str:
        return f"{100 * part / whole:.2f}%" if whole else "n/a"

    return [
        ("localised (board fully visible)", share(sum(r.corner_error_cells < RIGHT_FIT_CELLS for r in read), len(boards)),
         len(boards)),
        ("orientation right", share(sum(r.orientation_right for r in read), len(read)), len(read)),
        ("per-cell accuracy (visible cells)", share(sum(r.right_cells for r in read), visible), visible),
        ("wrong calls (unsafe), of visible cells", share(sum(r.wrong_cells for r in read), visible), visible),
        ("visible cells reported ?", share(sum(r.unknown_cells for r in read), visible), visible),
        ("hidden cells reported ?", share(sum(r.hidden_as_unknown for r in read), hidden), hidden),
        ("wrong calls (unsafe), of hidden cells", share(sum(r.hidden_wrong for r in read), hidden), hidden),
        ("boards read exactly", share(sum(r.exact for r in read), len(boards)), len(boards)),
        ("verdict right (sequences, winner)", share(sum(r.verdict_right for r in read), len(boards)), len(boards)),
        ("false winners", str(sum(r.false_winner for r in read)), len(read)),
        ("photos without a board 'found'", str(sum(r.found for r in empty)), len(empty)),
    ]


def breakdown_rows(results: list[PhotoResult]) -> list[tuple[str, str, int, str, str, str]]:
    rows = []
    boards = [r for r in results if r.has_board and r.fully_visible]
    for key in BREAKDOWNS:
        groups: dict[str, list[PhotoResult]] = defaultdict(list)
        for r in boards:
            groups[r.buckets.get(key, "")].append(r)
        for value, members in sorted(groups.items()):
            read = [r for r in members if r.found]
            visible = sum(r.visible_cells for r in read)
            rows.append((
                key, value, len(members),
                f"{100 * sum(r.corner_error_cells < RIGHT_FIT_CELLS for r in read) / len(members):.1f}%",
                f"{100 * sum(r.right_cells for r in read) / visible:.2f}%" if visible else "n/a",
                f"{100 * sum(r.exact for r in read) / len(members):.1f}%",
            ))
    return rows


def speed_rows(results: list[PhotoResult]) -> list[tuple[str, str, int, str, str]]:
    rows = []
    for size in ("720p", "1080p", "12MP", "other"):
        members = [r for r in results if r.size == size and r.found]
        if not members:
            continue
        stages = sorted({stage for r in members for stage in r.timings_ms})
        for stage in [s for s in ("decode", "locate", "warp", "read", "orient") if s in stages] + ["total"]:
            values = [r.timings_ms[stage] for r in members if stage in r.timings_ms]
            rows.append((size, stage, len(values), f"{statistics.median(values):.1f}", f"{np.percentile(values, 95):.1f}"))
        decode_only = [r.decode_only_ms for r in members]
        rows.append((size, "decode only (full size)", len(decode_only), f"{statistics.median(decode_only):.1f}",
                     f"{np.percentile(decode_only, 95):.1f}"))
    return rows


def print_table(title: str, header: Iterable[str], rows: Iterable[Iterable[object]]) -> None:
    header = list(header)
    rows = [[str(cell) for cell in row] for row in rows]
    widths = [max(len(h), *(len(row[i]) for row in rows)) if rows else len(h) for i, h in enumerate(header)]
    print(f"\n{title}")
    print("  ".join(h.ljust(w) for h, w in zip(header, widths)))
    print("  ".join("-" * w for w in widths))
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)))


def write_csv(path: Path, results: list[PhotoResult]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    flat = []
    for r in results:
        row = {k: v for k, v in asdict(r).items() if k not in ("buckets", "timings_ms")}
        row.update(r.buckets)
        row.update({f"ms_{stage}": round(ms, 2) for stage, ms in r.timings_ms.items()})
        flat.append(row)
    fields = sorted({key for row in flat for key in row}, key=lambda k: (k.startswith("ms_"), k))
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields)
        writer.writeheader()
        writer.writerows(flat)


def run_bench(n: int, no_board: int, seed: int, workers: int, photos_dir: str | None, csv_path: str,
              oracle: bool = False, calibrated: bool = False) -> int:
    cv2.setNumThreads(1)  # speed is reported per core
    config = VisionConfig()
    calibration_seconds: list[float] = []
    unusable = 0  # empty-board photos that could not be calibrated on
    calibrated_results: list[PhotoResult] = []
    with tempfile.TemporaryDirectory(prefix="seqcam-bench-") as scratch:
        out_dir = Path(photos_dir) if photos_dir else Path(scratch)
        paths = render_bench_set(out_dir, n, no_board, seed, workers)
        results = [bench_photo(path, config, oracle) for path in tqdm(paths, unit="photo", desc="reading")]
        if calibrated:  # one profile at a time: the process's peak memory stays that of one reading
            render_calibration_set(paths, workers)
            for path in tqdm(paths, unit="photo", desc="calibrating and reading"):
                profile, seconds = calibrate_for(path, config)
                calibrated_results.append(bench_photo(path, config, oracle, profile, calibrated=True))
                calibration_seconds.append(seconds)
                unusable += profile is None
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    mode = " (locating skipped: the true grid is given)" if oracle else ""
    print(f"\nseqcam bench: {n} photos with a board and {no_board} without, seed {seed}{mode}")
    if calibrated:
        zero, calib = accuracy_rows(results), accuracy_rows(calibrated_results)
        print_table("Accuracy: no set-up, and calibrated on an empty-board photo of the same game",
                    ("measure", "no set-up", "calibrated", "of"),
                    [(name, value, other, count) for (name, value, count), (_, other, _) in zip(zero, calib)])
        count = len(calibration_seconds)
        print(f"\nCalibrations: {count - unusable} of {count} empty-board photos "
              f"usable; time per calibration median {statistics.median(calibration_seconds):.2f} s, "
              f"p95 {np.percentile(calibration_seconds, 95):.2f} s")
    else:
        print_table("Accuracy", ("measure", "value", "of"), accuracy_rows(results))
    print_table("Accuracy by condition (boards fully visible)", ("condition", "value", "photos", "localised", "per-cell", "exact"),
                breakdown_rows(results))
    if calibrated:
        print_table("Accuracy by condition, calibrated", ("condition", "value", "photos", "localised", "per-cell", "exact"),
                    breakdown_rows(calibrated_results))
    print_table("Speed on one core, milliseconds", ("size", "stage", "photos", "median", "p95"), speed_rows(results))
    print(f"\nPeak memory of the process: {peak_mb:.0f} MB")
    write_csv(Path(csv_path), results + (calibrated_results if calibrated else []))
    print(f"One row per photo: {csv_path}")
    return 0
