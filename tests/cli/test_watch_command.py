"""`seqcam watch`: sources that fail say so in a sentence; events go out and into the record as they happen."""

from __future__ import annotations

import io
import json
import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from seqcam.cli import main
from seqcam.samples import default_video
from seqcam.watch_command import parse_source, run_watch, sampled_frames

DESIGN_FIELDS = {"t", "frame", "type", "team", "cell", "cells", "detail", "correction", "options"}
EVENT_TYPES = {"placed", "removed", "sequence", "winner", "violation", "board_lost", "board_found"}
CORRECTION_TYPES = {"undo", "confirm", "choose", "sequence_undone", "winner_undone"}


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
        assert line["correction"] is False  # nobody typed a correction
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


def test_a_photo_given_to_watch_points_to_analyze(capsys) -> None:
    # OpenCV plays a JPEG as a video of one frame: the board was "never found in it"
    photo = Path(__file__).parents[2] / "sample_images" / "sample_01.jpg"
    assert main(["watch", str(photo)]) == 1
    assert f"is a photo, not a video: seqcam analyze {photo} reads a photo" in capsys.readouterr().err


def test_a_file_that_is_not_a_video(tmp_path, capsys) -> None:
    fake = tmp_path / "game.mp4"
    fake.write_text("not a video")
    assert main(["watch", str(fake)]) == 1
    assert "cannot be read as a video" in capsys.readouterr().err


def test_a_video_without_a_board_says_what_to_do_once_and_at_the_end(tmp_path) -> None:
    path = tmp_path / "table.mp4"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), 10.0, (320, 180))
    table = np.full((180, 320, 3), (60, 100, 150), np.uint8)
    for _ in range(70):  # 7 s of a bare table
        writer.write(table)
    writer.release()
    out, err = io.StringIO(), io.StringIO()
    assert run_watch(str(path), 2, None, False, stdout=out, stderr=err) == 0
    assert err.getvalue().count("No board found yet") == 1
    assert "the board was never found" in out.getvalue()


def test_a_black_and_white_camera_is_told_to_film_in_colour(tmp_path) -> None:
    path = tmp_path / "grey.mp4"
    capture = cv2.VideoCapture(str(default_video()))
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), capture.get(cv2.CAP_PROP_FPS),
                             (int(capture.get(cv2.CAP_PROP_FRAME_WIDTH)), int(capture.get(cv2.CAP_PROP_FRAME_HEIGHT))))
    for _ in range(60):  # 6 s of the demo game, its board in view, in black and white
        ok, frame = capture.read()
        assert ok
        writer.write(cv2.cvtColor(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR))
    writer.release()
    out, err = io.StringIO(), io.StringIO()
    assert run_watch(str(path), 2, None, False, stdout=out, stderr=err) == 0
    assert err.getvalue().count("black and white") == 1 and "No board found yet" not in err.getvalue()


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


class GatedCapture:
    """The demo video, except that the first frame asked for after the board was shown waits
    until the players' commands have all been applied: they land there, whatever the timing."""

    def __init__(self, found: threading.Event, typed: threading.Event) -> None:
        self.capture = cv2.VideoCapture(str(default_video()))
        self.found, self.typed, self.gated = found, typed, False

    def get(self, prop: int) -> float:
        return self.capture.get(prop)

    def grab(self) -> bool:
        return self.capture.grab()

    def read(self):
        if self.found.is_set() and not self.gated:
            self.gated = True
            assert self.typed.wait(timeout=60), "the commands were never applied"
        return self.capture.read()

    def release(self) -> None:
        self.capture.release()


class ShownOutput(CheckedOutput):
    """Checked standard output that also says when the board has been shown found."""

    def __init__(self, record: Path, found: threading.Event) -> None:
        super().__init__(record)
        self.found = found

    def write(self, text: str) -> int:
        written = super().write(text)
        if '"board_found"' in text:
            self.found.set()
        return written


def typed_after(found: threading.Event, typed: threading.Event, lines: list[str]):
    """Standard input on which the players type ``lines`` once the board is found."""
    assert found.wait(timeout=60), "the board was never found"
    yield from (line + "\n" for line in lines)
    typed.set()  # asked for the next line: the last one has been applied


def test_corrections_typed_while_watching_are_shown_and_recorded(tmp_path, monkeypatch) -> None:
    found, typed = threading.Event(), threading.Event()
    monkeypatch.setattr("seqcam.watch_command.open_capture", lambda source: GatedCapture(found, typed))
    record = tmp_path / "game.jsonl"
    record.write_text("")
    out, err = ShownOutput(record, found), io.StringIO()
    stdin = typed_after(found, typed, ["set 4,3 green", "bogus", "choose 9", "set 0,0 blue", "undo", "help"])
    assert run_watch(None, 2, str(record), True, stdout=out, stderr=err, stdin=stdin) == 0
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [json.loads(line) for line in record.read_text().splitlines()] == lines
    assert [(line["type"], line["cell"], line["correction"]) for line in lines[:4]] == [
        ("board_found", None, False), ("confirm", None, True), ("placed", [4, 3], True), ("undo", None, True)]
    assert lines[1]["cells"] == lines[3]["cells"] == [[4, 3]] and lines[2]["team"] == "G"
    assert lines[3]["detail"] == "Taken back: The players confirmed: 4,3 green."
    messages = err.getvalue().splitlines()
    assert len(messages) == 4 and "Traceback" not in err.getvalue()
    assert messages[0].startswith("seqcam watch: 'bogus' is not a command")
    assert messages[1].startswith("seqcam watch: No sequence is waiting for a choice")
    assert "is a corner" in messages[2] and messages[3].startswith("Corrections, one a line")
    # the chip taken back, the game goes on as it was played
    label = json.loads(default_video().with_suffix(".json").read_text())
    moves = [(line["type"], line["team"], line["cell"]) for line in lines
             if line["type"] in ("placed", "removed", "sequence", "winner") and not line["correction"]]
    assert moves == [(e["type"], e["team"], e["cell"]) for e in label["events"]]


def test_a_standard_input_that_cannot_be_read_changes_nothing(capsys) -> None:
    class Closed(io.StringIO):
        def __iter__(self):
            raise OSError("reading from stdin while output is captured")

    assert run_watch(None, 2, None, True, stdout=io.StringIO(), stderr=io.StringIO(), stdin=Closed()) == 0
