"""`seqcam analyze`: read photos of the board and give the referee's verdict on each."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any, TextIO

import cv2

from referee.judge import Judgement, judge
from seqcam.judge_command import verdict_text
from seqcam.samples import default_sample
from vision.annotate import annotate
from vision.config import VisionConfig
from vision.errors import VisionError
from vision.image_io import read_image_file
from vision.pipeline import Analysis, analyze_decoded
from vision.profile import Profile, ProfileError, load_profile

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2  # a profile that cannot be used is bad usage


def result_json(image: str, analysis: Analysis | None, verdict: Judgement | None, error: str | None,
                elapsed_ms: float) -> dict[str, Any]:
    """One line of `--json` output, as ../shared/DESIGN.md specifies."""
    ok = analysis is not None and verdict is not None
    return {
        "image": image,
        "ok": ok,
        "grid": analysis.board.rows() if ok else None,
        "orientation_deg": analysis.orientation_deg if ok else None,
        "corners_px": [[round(float(x), 1), round(float(y), 1)] for x, y in analysis.corners_xy] if ok else None,
        "sequences": verdict.sequences if ok else None,
        "winner": list(verdict.winner) if ok else [],
        "warnings": [*(str(w) for w in analysis.warnings), *(str(w) for w in verdict.warnings)] if ok else [],
        "error": error,
        "elapsed_ms": round(elapsed_ms, 1),
    }


def analyze_one(path: Path, team_count: int, config: VisionConfig, annotate_dir: Path | None,
                profile: Profile | None = None) -> tuple[Analysis | None, Judgement | None, str | None, float]:
    start = time.perf_counter()
    try:
        decoded = read_image_file(path, config)
        analysis = analyze_decoded(decoded, team_count, config, profile=profile)
    except VisionError as error:
        return None, None, str(error), (time.perf_counter() - start) * 1000.0
    elapsed_ms = (time.perf_counter() - start) * 1000.0
    verdict = judge(analysis.board, team_count)
    if annotate_dir is not None:
        runs = [(team, cells) for team, reading in verdict.readings.items() for cells in reading.run_cells]
        drawn = annotate(decoded.image_bgr, analysis.lattice_xy / decoded.scale, analysis.board, runs)
        cv2.imwrite(str(annotate_dir / f"{path.stem}_annotated.jpg"), drawn, [cv2.IMWRITE_JPEG_QUALITY, 88])
    return analysis, verdict, None, elapsed_ms


def unwritable_folder(folder: Path) -> str | None:
    """Why annotated photos cannot be written to ``folder`` (made if missing), None if they can."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        return "it is a file, not a folder"
    except OSError as error:
        return error.strerror or str(error)
    return None if os.access(folder, os.W_OK) else "it is not writable"


def run_analyze(images: list[str], team_count: int, as_json: bool, annotate_dir: str | None,
                stdout: TextIO | None = None, calibration: str | None = None) -> int:
    stdout = stdout or sys.stdout
    config = VisionConfig()
    try:
        profile = load_profile(Path(calibration)) if calibration else None
    except ProfileError as error:
        print(f"seqcam analyze: {error}", file=sys.stderr)
        return EXIT_USAGE
    paths = [Path(p) for p in images] if images else [default_sample()]
    target = Path(annotate_dir) if annotate_dir else None
    if target is not None:
        problem = unwritable_folder(target)
        if problem:
            print(f"seqcam analyze: cannot write the annotated photos to {target}: {problem}. Give a folder "
                  "you can write to.", file=sys.stderr)
            return EXIT_USAGE
    failed = False
    for path in paths:
        try:
            analysis, verdict, error, elapsed_ms = analyze_one(path, team_count, config, target, profile)
        except Exception as crash:  # the edge: a bug must not cost the rest of the batch
            analysis, verdict, elapsed_ms = None, None, 0.0
            error = f"seqcam failed on this photo ({type(crash).__name__}: {crash}); please report it."
        failed |= error is not None
        if as_json:
            print(json.dumps(result_json(str(path), analysis, verdict, error, elapsed_ms)), file=stdout, flush=True)
        elif error is not None:
            print(f"{path}: {error}", file=stdout, flush=True)
        else:
            warnings = "".join(f"\nWarning: {w}" for w in analysis.warnings)
            print(f"{path}\n{verdict_text(verdict, None)}{warnings}\n", file=stdout, flush=True)
    return EXIT_FAILED if failed else EXIT_OK
