"""seqcam bench on a tiny set: both tables print, calibrated side by side, one CSV row per reading."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from referee.board import Board
from seqcam.bench_vision import PhotoResult, score_reading
from seqcam.bench_watch import GameResult, explain, summary
from seqcam.cli import main
from vision.render.video import VideoSettings


def test_bench_prints_no_setup_and_calibrated_side_by_side(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "results.csv"
    assert main(["bench", "--n", "2", "--no-board", "1", "--seed", "11", "--workers", "1", "--calibrated",
                 "--keep", str(tmp_path / "photos"), "--csv", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "no set-up  calibrated" in printed
    assert "Calibrations:" in printed and "Speed on one core" in printed
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 6
    assert sorted(row["calibrated"] for row in rows) == ["False"] * 3 + ["True"] * 3
    assert sorted((tmp_path / "photos").glob("calibration_*.jpg"))


def _row(printed: str, name: str) -> str:
    return next(line for line in printed.splitlines() if line.startswith(name))


def test_bench_watch_follows_new_videos_then_the_kept_ones_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)  # the default CSV is benchmarks/watch_results.csv
    kept = tmp_path / "videos"
    assert main(["bench-watch", "--games", "1", "--moves", "1", "--seed", "5", "--keep", str(kept)]) == 0
    first = capsys.readouterr().out
    assert "(5)" in _row(first, "games (seed)")
    assert len(list(csv.DictReader((tmp_path / "benchmarks" / "watch_results.csv").open()))) == 1
    assert sorted(path.name for path in kept.iterdir()) == ["game_000.json", "game_000.mp4"]

    assert main(["bench-watch", "--videos", str(kept), "--explain"]) == 0
    again = capsys.readouterr().out
    assert "\nWhere it went wrong\n" in again
    # the same video followed again gives the same counts (the tracker never reads the clock)
    for name in ("games (seed)", "moves detected", "phantom events", "wrong violations"):
        assert _row(again, name) == _row(first, name)
    assert len(list(csv.DictReader((kept / "watch_results.csv").open()))) == 1

    (tmp_path / "empty").mkdir()
    assert main(["bench-watch", "--videos", str(tmp_path / "empty")]) == 1
    assert "No game videos" in capsys.readouterr().out


def test_bench_watch_counts_the_winners_found_among_the_games_that_have_one() -> None:
    """Another renderer's games may end before anyone wins: those are no winner missed."""
    def game(winner_true: bool, winner_found: bool) -> GameResult:
        return GameResult(game=0, teams=2, frames=10, moves=1, detected=1, missed=0, phantom=0, wrong_violations=0,
                          sequences_true=0, sequences_found=0, winner_true=winner_true, winner_found=winner_found,
                          board_lost=0, first_found_s=0.4, track_s=0.1, decode_s=0.01, reads=1, locates=1,
                          delays=[0.3])

    printed = summary([game(True, True), game(False, False), game(True, False)], VideoSettings(), 7, 0, 0.0)
    assert _row(printed, "winners found").split()[-3:] == ["1", "/", "2"]


def test_a_winner_called_is_false_only_where_that_team_has_not_won() -> None:
    both_won = ["#GGGGG...#", "BBBBB.....", ".GGGGG....", "BBBBB....."] + ["." * 10] * 5 + ["#........#"]
    blue_hidden = [both_won[0], "?BBBB....."] + both_won[2:]  # green still read the winner
    green_for_blue = [both_won[0], "GBBBB.....", both_won[2], "GBBBB....."] + both_won[4:]
    assert not _false_winner(both_won, blue_hidden)
    assert _false_winner(["#........#"] + both_won[1:], green_for_blue)  # truth: blue alone won


def _false_winner(truth_rows: list[str], read_rows: list[str]) -> bool:
    result = PhotoResult(image="photo.jpg", has_board=True, fully_visible=True)
    score_reading(result, Board.from_rows(read_rows), {"grid": truth_rows, "occluded": []}, 2)
    return result.false_winner


def test_bench_watch_explains_each_miss_phantom_violation_and_a_board_read_turned() -> None:
    final = ["#B.......#"] + ["." * 10] * 8 + ["#.......G#"]
    label = {"final_grid": final, "events": [
        {"t": 2.0, "hand_in_t": 1.0, "type": "placed", "team": "B", "cell": [0, 1], "cells": None},
        {"t": 4.0, "hand_in_t": 3.0, "type": "placed", "team": "G", "cell": [9, 8], "cells": None}]}
    lines = [{"t": 2.3, "type": "placed", "team": "B", "cell": [0, 1], "detail": ""},
             {"t": 4.4, "type": "placed", "team": "G", "cell": [0, 1], "detail": ""},
             {"t": 4.4, "type": "violation", "team": "G", "cell": [0, 1], "detail": "out_of_turn: Green played"}]
    told = explain(label, lines, Board.from_rows(final).transformed(2))
    assert told == ["missed placed G at 9,8 (the hand left at 4.0 s)", "phantom placed G at 0,1 at 4.4 s",
                    "violation at 4.4 s: out_of_turn: Green played", "the board was read turned by 180 degrees"]
    assert explain(label, lines[:1], Board.from_rows(final).with_cell(5, "R"))[-1] == \
        "the board as last read: wrong cells 1, cells read ? 0"
    assert explain(label, [], None)[-1] == "board never found"


def test_a_chip_under_a_hand_read_as_an_empty_card_is_an_unsafe_call() -> None:
    truth = ["#BB......#"] + ["." * 10] * 8 + ["#........#"]
    read = ["#.?......#"] + ["." * 10] * 8 + ["#........#"]  # (0, 1) read empty, (0, 2) '?', both under a hand
    result = PhotoResult(image="photo.jpg", has_board=True, fully_visible=True)
    score_reading(result, Board.from_rows(read), {"grid": truth, "occluded": [[0, 1], [0, 2]]}, 2)
    assert (result.hidden_cells, result.hidden_as_unknown, result.hidden_wrong) == (2, 1, 1)
    assert result.wrong_cells == 0 and not result.exact  # every visible cell right, yet the board is not
