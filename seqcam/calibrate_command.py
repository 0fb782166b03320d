"""`seqcam calibrate`: learn a profile from photos and say what was learned."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from calibration.learn import calibrate
from calibration.lens import lens_from_checkerboards
from vision.config import VisionConfig
from vision.errors import VisionError
from vision.image_io import FORMATS, read_image_file
from vision.profile import LensModel, save_profile

EXIT_OK, EXIT_FAILED = 0, 1
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".heic", ".heif")


def checkerboard_lens(folder: Path, config: VisionConfig) -> LensModel:
    photos = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES) if folder.is_dir() else []
    if not photos:
        raise VisionError(f"No checkerboard photos ({FORMATS}) in {folder}.")
    return lens_from_checkerboards([read_image_file(p, config).image_bgr for p in photos])


def run_calibrate(empty_image: str, chip_images: list[str], checkerboard: str | None, output: str) -> int:
    config = VisionConfig()
    start = time.perf_counter()
    try:
        lens = checkerboard_lens(Path(checkerboard), config) if checkerboard else None
        empty = read_image_file(Path(empty_image), config).image_bgr
        chips = tuple(read_image_file(Path(p), config).image_bgr for p in chip_images)
        sources = {"empty_board": Path(empty_image).name, "chips": [Path(p).name for p in chip_images],
                   "checkerboard": checkerboard}
        result = calibrate(empty, chips, lens, config, sources)
        save_profile(result.profile, Path(output))
    except VisionError as error:
        print(f"seqcam calibrate: {error}", file=sys.stderr)
        return EXIT_FAILED
    except OSError as error:
        print(f"seqcam calibrate: cannot write {output}: {error.strerror}.", file=sys.stderr)
        return EXIT_FAILED
    print(f"Calibrated in {time.perf_counter() - start:.1f} s; profile written to {output}")
    for line in result.learned:
        print(f"  learned {line}")
    for line in result.warnings:
        print(f"  warning: {line}")
    if not result.profile.chip_ab:
        print("  chip colours: learned from each photo as it comes (add a photo with a row of each colour to fix them)")
    return EXIT_OK
