"""Where the bundled samples live: `sample_images/` at the top of the source tree (photos and a demo video)."""

from __future__ import annotations

from pathlib import Path

SAMPLE_DIR = Path(__file__).resolve().parent.parent / "sample_images"
DEFAULT_SAMPLE = "sample_01.jpg"
DEFAULT_VIDEO = "game_01.mp4"


def default_sample() -> Path:
    """The photo `seqcam analyze` reads when given none."""
    return SAMPLE_DIR / DEFAULT_SAMPLE


def sample_photos() -> list[Path]:
    """Every bundled labelled photo (each IMAGE.jpg has an IMAGE.json beside it)."""
    return sorted(path for path in SAMPLE_DIR.glob("*.jpg") if path.with_suffix(".json").exists())


def default_video() -> Path:
    """The rendered game `seqcam watch` follows when given no source (its label: game_01.json)."""
    return SAMPLE_DIR / DEFAULT_VIDEO
