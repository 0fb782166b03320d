"""`seqcam watch`: sources that fail say so in a sentence; events go out and into the record as they happen."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

import numpy as np
import pytest

from seqcam.cli import main
from seqcam.samples import default_video
from seqcam.watch_command import parse_source, run_watch, sampled_frames

DESIGN_FIELDS = {"t", "frame", "type", "team", "cell", "cells", "detail"}
EVENT_TYPES = {"placed", "removed", "sequence", "winner", "violation", "board_lost", "board_found"}


class CheckedOutput(io.StringIO):
    """Standard output that, for every event printed, checks the record already holds it."""

    def __init__(self, record: Path) -> None:
        super().__init__()
        self.record = record
        self.shown = 0

    def write(self, text: str) -> int:
        if text.strip():
            self.shown += 1
            kept = self.record.read_text().splitlines()
            assert len(kept) == self.shown and json.loads(kept[-1]) == json.loads(text)
        return super().write(text)


@pytest.fixture(scope="module")
def followed_demo(tmp_path_factory) -> tuple[int, list[dict], Path]:
    record = tmp_path_factory.mktemp("watch") / "game.jsonl"
    record.write_text("")
    out = CheckedOutput(record)
    code = run_watch(None, 2, str(record), True, stdout=out)
    return code, [json.loads(line) for line in out.getvalue().splitlines()], record


def test_the_demo_is_the_default_and_ends_with_exit_0(followed_demo) -> None:
    code, lines, _ = followed_demo
    assert code == 0
    assert lines[0]["type"] == "board_found"
    assert [line["type"] for line in lines].count("winner") == 1


def test_json_lines_follow_the_design(followed_demo) -> None:
    _, lines, _ = followed_demo
    for line in lines:
        assert set(line) == DESIGN_FIELDS and line["type"] in EVENT_TYPES
        assert isinstance(line["t"], float) and isinstance(line["frame"], int) and line["detail"]
        if line["type"] in ("placed", "removed"):
            assert line["team"] in "BG" and len(line["cell"]) == 2
        if line["type"] == "sequence":
            assert len(line["cells"]) == 5
    assert [line["t"] for line in lines] == sorted(line["t"] for line in lines)


def test_the_record_holds_every_line_as_it_is_shown(followed_demo) -> None:
    _, lines, record = followed_demo
    assert [json.loads(line) for line in record.read_text().splitlines()] == lines


def test_text_output_names_each_move(capsys) -> None:
    assert main(["watch", str(default_video())]) == 0
    out = capsys.readouterr().out
    assert "placed" in out and "Green wins." in out and "The video ended after" in out


def test_a_missing_file_is_a_sentence_and_exit_1(capsys) -> None:
    assert main(["watch", "no/such/game.mp4"]) == 1
    err = capsys.readouterr().err
    assert "there is no video file no/such/game.mp4" in err and "Traceback" not in err


def test_a_file_that_is_not_a_video(tmp_path, capsys) -> None:
    fake = tmp_path / "game.mp4"
    fake.write_text("not a video")
    assert main(["watch", str(fake)]) == 1
    assert "cannot be read as a video" in capsys.readouterr().err


def test_an_unopenable_stream_is_retried_then_given_up() -> None:
    err = io.StringIO()
    start = time.monotonic()
    code = run_watch("rtsp://127.0.0.1:9/none", 2, None, True, stdout=io.StringIO(), stderr=err,
                     retries=2, retry_wait_s=0.0)
    assert code == 1 and time.monotonic() - start < 30
    text = err.getvalue()
    assert "trying again" in text and "(2 of 2)" in text and "cannot open the stream rtsp://127.0.0.1:9/none" in text


def test_a_bad_calibration_is_bad_usage(tmp_path, capsys) -> None:
    profile = tmp_path / "profile.json"
    profile.write_text("{}")
    assert main(["watch", str(default_video()), "--calibration", str(profile)]) == 2
    assert "seqcam watch:" in capsys.readouterr().err


def test_sources() -> None:
    assert parse_source("2").spec == 2 and parse_source("2").live
    assert parse_source("http://phone:8080/video").live
    assert not parse_source("game.mp4").live


class FakeCapture:
    """A source of ``count`` blank frames at ``fps``, then nothing (a file's end, or a camera unplugged)."""

    def __init__(self, count: int, fps: float = 30.0) -> None:
        self.left, self.fps, self.decoded = count, fps, 0

    def get(self, prop: int) -> float:
        return self.fps

    def grab(self) -> bool:
        self.left -= 1
        return self.left >= 0

    def read(self):
        if not self.grab():
            return False, None
        self.decoded += 1
        return True, np.zeros((36, 64, 3), np.uint8)

    def release(self) -> None:
        pass


def test_a_file_is_sampled_by_its_timestamps() -> None:
    capture = FakeCapture(90)  # 3 s at 30 fps
    times = [t for _, t, _ in sampled_frames(capture, parse_source("game.mp4"), 10.0, time.monotonic())]
    assert len(times) == capture.decoded == 30  # 10 a second, the others only grabbed
    assert np.allclose(times[:3], [0.0, 0.1, 0.2])


def test_a_camera_that_stops_is_reconnected_then_given_up(monkeypatch) -> None:
    opened = []

    def open_fake(source):
        opened.append(source)
        return FakeCapture(3 if len(opened) == 1 else 0)

    monkeypatch.setattr("seqcam.watch_command.open_capture", open_fake)
    err = io.StringIO()
    code = run_watch("0", 2, None, True, stdout=io.StringIO(), stderr=err, retries=2, retry_wait_s=0.0)
    assert code == 1 and len(opened) == 4  # the first session, then three that gave nothing
    text = err.getvalue()
    assert "camera 0 stopped sending frames; reconnecting" in text and "Check the camera" in text
