"""`seqcam bench-watch`: following games on freshly rendered videos, against their labels.

Each video is rendered (a seed the tracker was not tuned on), then followed frame by frame on
one core. A detected move matches a true one of the same kind, team and cell that happened
after its hand came in and at most ``MATCH_WINDOW_S`` after the hand left; sequences and the
winner match by team (and cells). Every violation is wrong: the bots play legal games.
The table is printed and one CSV row per game written.
"""

from __future__ import annotations

import csv
import json
import statistics
import tempfile
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from tqdm import tqdm

from referee.board import UNKNOWN, Board
from seqcam.follow import Follower
from vision.render.video import VideoSettings, render_game

BENCH_SEED = 20261130  # never used while tuning
MATCH_WINDOW_S = 3.0
GAME_EVENTS = ("placed", "removed", "sequence", "winner")
FULL_HD = (1920, 1080)
FULL_HD_GAMES = 2  # games also followed with frames enlarged to 1080p, for the speed target


@dataclass
class GameResult:
    game: int
    teams: int
    frames: int
    moves: int
    detected: int
    missed: int
    phantom: int
    wrong_violations: int
    sequences_true: int
    sequences_found: int
    winner_true: bool  # the game has a winner (a game of another renderer may end before one)
    winner_found: bool
    board_lost: int
    first_found_s: float | None
    track_s: float
    decode_s: float
    reads: int  # frames whose cells were read in full (the others only compared, cheaply)
    locates: int  # times the board was located from scratch
    delays: list[float] = field(default_factory=list)


def read_frames(path: Path) -> tuple[list[np.ndarray], float]:
    """Every frame of a video, and the seconds spent decoding them."""
    capture = cv2.VideoCapture(str(path))
    frames = []
    start = time.perf_counter()
    while True:
        ok, frame = capture.read()
        if not ok:
            break
        frames.append(frame)
    capture.release()
    return frames, time.perf_counter() - start


def follow(frames: list[np.ndarray], fps: float, teams: int, size: tuple[int, int] | None = None
           ) -> tuple[list[dict[str, Any]], float, Follower]:
    """The event lines of a game, the seconds the follower spent (frames enlarged to ``size``
    first) and the follower."""
    follower = Follower(teams)
    lines, spent = [], 0.0
    for index, frame in enumerate(frames):
        if size is not None:
            frame = cv2.resize(frame, size, interpolation=cv2.INTER_LINEAR)
        start = time.perf_counter()
        lines += follower.feed(frame, index / fps, index)
        spent += time.perf_counter() - start
    return lines, spent, follower


def _same(true: dict[str, Any], seen: dict[str, Any]) -> bool:
    if true["type"] != seen["type"] or true["team"] != seen["team"]:
        return False
    if true["type"] in ("placed", "removed"):
        return true["cell"] == seen["cell"]
    return True  # a sequence matches by team: where several windows fit, the players choose its cells


def matches(label: dict[str, Any], lines: list[dict[str, Any]]
            ) -> tuple[list[dict[str, Any] | None], list[dict[str, Any]]]:
    """Each true event's matching event line (None: missed), and the event lines that match no
    true event (phantom)."""
    seen = [line for line in lines if line["type"] in GAME_EVENTS]
    used = [False] * len(seen)
    found: list[dict[str, Any] | None] = []
    for true in label["events"]:
        match = next((k for k, line in enumerate(seen) if not used[k] and _same(true, line)
                      and true["hand_in_t"] <= line["t"] <= true["t"] + MATCH_WINDOW_S), None)
        if match is not None:
            used[match] = True
        found.append(None if match is None else seen[match])
    return found, [line for line, taken in zip(seen, used) if not taken]


def score(label: dict[str, Any], lines: list[dict[str, Any]]) -> tuple[int, int, int, list[float], int, bool]:
    """(detected moves, missed moves, phantom events, delays, sequences found, winner found)."""
    found, phantom = matches(label, lines)
    detected, missed, sequences, winner, delays = 0, 0, 0, False, []
    for true, seen in zip(label["events"], found):
        if true["type"] in ("placed", "removed"):
            if seen is None:
                missed += 1
            else:
                detected += 1
                delays.append(seen["t"] - true["t"])
        elif true["type"] == "sequence":
            sequences += seen is not None
        else:
            winner |= seen is not None
    return detected, missed, len(phantom), delays, sequences, winner


def _event_text(event: dict[str, Any]) -> str:
    where = f"at {event['cell'][0]},{event['cell'][1]}" if event.get("cell") else None
    return " ".join(part for part in (event["type"], event.get("team"), where) if part)


def explain(label: dict[str, Any], lines: list[dict[str, Any]], final: Board | None) -> list[str]:
    """What went wrong in one game, for people: each missed move, phantom event and violation,
    and the board as last read against the true final grid (turned, or how many cells differ)."""
    found, phantom = matches(label, lines)
    told = [f"missed {_event_text(true)} (the hand left at {true['t']:.1f} s)"
            for true, seen in zip(label["events"], found) if seen is None]
    told += [f"phantom {_event_text(line)} at {line['t']:.1f} s" for line in phantom]
    told += [f"violation at {line['t']:.1f} s: {line['detail']}" for line in lines if line["type"] == "violation"]
    if final is None:
        return [*told, "board never found"]
    truth = Board.from_rows(label["final_grid"])
    wrong = [sum(read not in (UNKNOWN, true) for read, true in zip(final.transformed(turn).cells, truth.cells))
             for turn in range(4)]
    best = min(range(4), key=lambda turn: wrong[turn])  # the first of equals: unturned if it does as well
    if best:
        told.append(f"the board was read turned by {90 * best} degrees")
    elif wrong[0]:
        told.append(f"the board as last read: wrong cells {wrong[0]}, cells read ? {final.count(UNKNOWN)}")
    return told


def run_bench_watch(games: int, seed: int, moves: int, keep: str | None,
                    csv_path: str = "benchmarks/watch_results.csv", videos: str | None = None,
                    explained: bool = False) -> int:
    """Renders and follows ``games`` videos; with ``videos``, follows the videos already in that
    folder instead (``seqcam render-video`` or ``--keep``: a development seed is measured again
    without rendering it again) and writes the per-game CSV there. ``explained``: what went
    wrong in each game is printed after the table."""
    settings = replace(VideoSettings(), moves=moves or None)
    with tempfile.TemporaryDirectory() as scratch:
        if videos is not None:
            kept = kept_videos(Path(videos))
            if not kept:
                print(f"No game videos (game_NNN.mp4 beside game_NNN.json) in {videos}: make them with "
                      "seqcam render-video or seqcam bench-watch --keep.")
                return 1
            games, csv_path = len(kept), str(Path(videos) / "watch_results.csv")
            seed = kept[0][1].get("seed", seed)
            settings = replace(settings, size=tuple(kept[0][1]["size"]), fps=kept[0][1]["fps"])
            todo = iter(kept)
        else:
            out = Path(keep or scratch)
            out.mkdir(parents=True, exist_ok=True)
            todo = (render_game(out, seed, index, settings) for index in range(games))
        results, hd_frames, hd_spent, explanations = [], 0, 0.0, []
        for index, (path, label) in enumerate(tqdm(todo, total=games, unit="game",
                                                   desc="follow" if videos else "render + follow")):
            frames, decode_s = read_frames(path)
            lines, spent, follower = follow(frames, label["fps"], label["teams"])
            if index < FULL_HD_GAMES:
                _, hd, _ = follow(frames, label["fps"], label["teams"], FULL_HD)
                hd_frames, hd_spent = hd_frames + len(frames), hd_spent + hd
            results.append(_result(index, label, frames, lines, spent, decode_s, follower))
            told = explain(label, lines, follower.tracker.board) if explained else []
            explanations += [f"game {index}: {line}" for line in told]
    _write_csv(Path(csv_path), results)
    print(summary(results, settings, seed, hd_frames, hd_spent))
    if explained:
        print("\nWhere it went wrong\n" + ("\n".join(explanations) or "nowhere"))
    return 0


def kept_videos(folder: Path) -> list[tuple[Path, dict[str, Any]]]:
    """The game videos of a folder with their labels, in order."""
    return [(path, json.loads(path.with_suffix(".json").read_text()))
            for path in sorted(folder.glob("game_*.mp4")) if path.with_suffix(".json").is_file()]


def _result(index: int, label: dict[str, Any], frames: list[np.ndarray], lines: list[dict[str, Any]],
            spent: float, decode_s: float, follower: Follower) -> GameResult:
    detected, missed, phantom, delays, sequences, winner = score(label, lines)
    found = [line["t"] for line in lines if line["type"] == "board_found"]
    return GameResult(
        game=index, teams=label["teams"], frames=len(frames),
        moves=sum(e["type"] in ("placed", "removed") for e in label["events"]),
        detected=detected, missed=missed, phantom=phantom,
        wrong_violations=sum(line["type"] == "violation" for line in lines),
        sequences_true=sum(e["type"] == "sequence" for e in label["events"]), sequences_found=sequences,
        winner_true=any(e["type"] == "winner" for e in label["events"]), winner_found=winner,
        board_lost=sum(line["type"] == "board_lost" for line in lines),
        first_found_s=found[0] if found else None, track_s=spent, decode_s=decode_s,
        reads=follower.tracker.reads, locates=follower.tracker.locates, delays=delays)


def _write_csv(path: Path, results: list[GameResult]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(asdict(results[0]).keys()) if results else [])
        writer.writeheader()
        for result in results:
            row = asdict(result)
            row["delays"] = " ".join(f"{d:.2f}" for d in result.delays)
            writer.writerow(row)


def summary(results: list[GameResult], settings: VideoSettings, seed: int, hd_frames: int, hd_spent: float) -> str:
    moves = sum(r.moves for r in results)
    delays = sorted(d for r in results for d in r.delays)
    frames = sum(r.frames for r in results)
    track_s = sum(r.track_s for r in results)
    decode_s = sum(r.decode_s for r in results)
    found = [r.first_found_s for r in results if r.first_found_s is not None]

    def pct(q: float) -> str:
        return f"{delays[min(len(delays) - 1, int(q * len(delays)))]:.2f} s" if delays else "-"

    rows = [
        ("games (seed)", f"{len(results)} ({seed}), {settings.size[0]}x{settings.size[1]} at {settings.fps:g} fps"),
        ("moves detected", f"{sum(r.detected for r in results)} / {moves}"),
        ("moves missed", str(sum(r.missed for r in results))),
        ("phantom events", str(sum(r.phantom for r in results))),
        ("wrong violations", str(sum(r.wrong_violations for r in results))),
        ("sequences found", f"{sum(r.sequences_found for r in results)} / {sum(r.sequences_true for r in results)}"),
        ("winners found", f"{sum(r.winner_found for r in results)} / {sum(r.winner_true for r in results)}"),
        ("delay after the hand left", f"median {statistics.median(delays):.2f} s, p95 {pct(0.95)}, max {pct(1.0)}"
         if delays else "-"),
        ("board first found after", f"median {statistics.median(found):.1f} s, max {max(found):.1f} s, "
         f"never in {len(results) - len(found)} games" if found else "never"),
        ("board lost (reported)", str(sum(r.board_lost for r in results))),
        ("frames read in full / locatings", (f"{sum(r.reads for r in results) / max(frames, 1):.0%} of frames / "
                                             f"{sum(r.locates for r in results)} (the other frames are only "
                                             "compared with the board at rest)")),
        (f"tracking fps per core, {settings.size[0]}x{settings.size[1]}",
         f"{frames / max(track_s, 1e-9):.0f} (decoding alone: {frames / max(decode_s, 1e-9):.0f})"),
        ("tracking fps per core, 1920x1080", f"{hd_frames / hd_spent:.0f} ({hd_frames} frames enlarged)"
         if hd_frames else "-"),
    ]
    width = max(len(name) for name, _ in rows)
    return "\n".join(f"{name:<{width}}  {value}" for name, value in rows)
