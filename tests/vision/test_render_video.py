"""Rendered videos of games: the same seed gives the same video; the label tells the truth."""

from __future__ import annotations

import hashlib

import numpy as np

from referee.board import Board
from vision.render.video import VideoSettings, game_moves, render_video, video_seed

SMALL = VideoSettings(size=(480, 270), moves=2)


def _digest(seed: int) -> tuple[str, dict]:
    video = render_video(np.random.default_rng(video_seed(seed, 0)), SMALL)
    digest = hashlib.sha1()
    count = 0
    for frame in video.frames:
        assert frame.shape == (270, 480, 3) and frame.dtype == np.uint8
        digest.update(frame.tobytes())
        count += 1
    assert count == video.label["frames"]
    return digest.hexdigest(), video.label


def test_same_seed_same_video_and_a_label_of_its_moves() -> None:
    first, label = _digest(2)  # a removal and a placing
    again, _ = _digest(2)
    assert first == again
    moves = [e for e in label["events"] if e["type"] in ("placed", "removed")]
    assert len(moves) == 2
    assert all(e["hand_in_t"] < e["t"] for e in moves)
    assert 0 < label["bumps"][0] < label["frames"] / label["fps"]
    start, final = Board.from_rows(label["start_grid"]), Board.from_rows(label["final_grid"])
    changed = [c for c in range(100) if start.cells[c] != final.cells[c]]
    assert sorted(changed) == sorted(e["cell"][0] * 10 + e["cell"][1] for e in moves)


def test_game_moves_replay_a_legal_game() -> None:
    start, moves, teams = game_moves(np.random.default_rng(2), 3)
    assert teams == 3 and start == Board.empty()
    board = start
    for move in moves:
        c = move.cell[0] * 10 + move.cell[1]
        assert board.cells[c] == (move.team if move.kind == "removed" else ".")
        board = move.after
    assert moves[-1].winner is not None
