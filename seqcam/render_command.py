"""`seqcam render`: labelled synthetic photos for development and benchmarks."""

from __future__ import annotations

import sys
from pathlib import Path

from tqdm import tqdm

from vision.render import render_set


def run_render(out_dir: str, n: int, no_board: int, seed: int) -> int:
    if n < 0 or no_board < 0:
        print("seqcam render: --n and --no-board must be 0 or more.", file=sys.stderr)
        return 2
    try:
        Path(out_dir).mkdir(parents=True, exist_ok=True)
    except OSError as error:
        print(f"seqcam render: cannot write to {out_dir}: {error.strerror or error}.", file=sys.stderr)
        return 1
    with tqdm(total=n + no_board, unit="photo", desc="rendering") as bar:
        render_set(Path(out_dir), n, seed, no_board=no_board, progress=lambda done: bar.update(done - bar.n))
    print(f"Wrote {n + no_board} photos and their labels to {out_dir}.")
    return 0


def run_render_video(out_dir: str, games: int, seed: int, moves: int) -> int:
    from dataclasses import replace

    from vision.render.video import VideoSettings, render_video_set

    if games < 0 or moves < 0:
        print("seqcam render-video: --games and --moves must be 0 or more.", file=sys.stderr)
        return 2
    try:
        Path(out_dir).mkdir(parents=True, exist_ok=True)
    except OSError as error:
        print(f"seqcam render-video: cannot write to {out_dir}: {error.strerror or error}.", file=sys.stderr)
        return 1
    settings = replace(VideoSettings(), moves=moves or None)
    with tqdm(total=games, unit="video", desc="rendering") as bar:
        render_video_set(Path(out_dir), games, seed, settings, progress=lambda done: bar.update(done - bar.n))
    print(f"Wrote {games} videos and their labels to {out_dir}.")
    return 0
