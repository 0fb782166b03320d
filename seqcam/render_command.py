"""`seqcam render`: labelled synthetic photos for development and benchmarks."""

from __future__ import annotations

import sys
from pathlib import Path

from tqdm import tqdm

from vision.render import render_set


def bad_arguments(command: str, counts: dict[str, int], out_dir: str) -> int | None:
    """The exit code and message for negative counts (2) or a folder that cannot be made (1);
    None when rendering may go ahead."""
    if min(counts.values()) < 0:
        print(f"seqcam {command}: {' and '.join(counts)} must be 0 or more.", file=sys.stderr)
        return 2
    try:
        Path(out_dir).mkdir(parents=True, exist_ok=True)
    except OSError as error:
        print(f"seqcam {command}: cannot write to {out_dir}: {error.strerror or error}.", file=sys.stderr)
        return 1
    return None


def run_render(out_dir: str, n: int, no_board: int, seed: int) -> int:
    refused = bad_arguments("render", {"--n": n, "--no-board": no_board}, out_dir)
    if refused is not None:
        return refused
    with tqdm(total=n + no_board, unit="photo", desc="rendering") as bar:
        render_set(Path(out_dir), n, seed, no_board=no_board, progress=lambda done: bar.update(done - bar.n))
    print(f"Wrote {n + no_board} photos and their labels to {out_dir}.")
    return 0


def run_render_video(out_dir: str, games: int, seed: int, moves: int) -> int:
    from dataclasses import replace

    from vision.render.video import VideoSettings, render_video_set

    refused = bad_arguments("render-video", {"--games": games, "--moves": moves}, out_dir)
    if refused is not None:
        return refused
    settings = replace(VideoSettings(), moves=moves or None)
    with tqdm(total=games, unit="video", desc="rendering") as bar:
        render_video_set(Path(out_dir), games, seed, settings, progress=lambda done: bar.update(done - bar.n))
    print(f"Wrote {games} videos and their labels to {out_dir}.")
    return 0
