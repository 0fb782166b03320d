"""`seqcam watch`: follow a game from a camera, a video file or a stream, event by event.

Frames are looked at ``SAMPLE_FPS`` times per second of source time at most; the others are
skipped (grabbed, not decoded when the backend allows). A live source that fails to open
or stops sending frames is tried again ``RETRIES`` times; a file source ends with exit 0.

While it runs, the players' corrections typed on standard input (seqcam/corrections.py) are
applied by a thread of their own: frames and corrections take turns on one lock, so each is
applied whole, and their lines are shown and recorded in the order they happened.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import cv2
import numpy as np

from referee.errors import CorrectionError
from seqcam.corrections import (
    HELP,
    Choose,
    Command,
    CommandError,
    Help,
    SetCells,
    Turn,
    Undo,
    parse_command,
)
from seqcam.follow import Follower, event_text
from seqcam.samples import default_video
from vision.config import VisionConfig
from vision.image_io import looks_like_photo
from vision.pipeline import COLOURLESS, colourless
from vision.profile import ProfileError, load_profile

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
SAMPLE_FPS = 10.0  # frames looked at per second: enough to see a hand come and go
NO_BOARD_HINT_S = 5.0  # source seconds without a board before the players are told what to do
NO_BOARD_HINT = ("No board found yet: make sure the whole board is in view, well lit and not too small "
                 "(seqcam keeps looking).")
RETRIES = 3
RETRY_WAIT_S = 2.0
OPEN_TIMEOUT_MS = 5000  # a stream that says nothing for this long has failed


@dataclass(frozen=True, slots=True)
class Source:
    """What ``cv2.VideoCapture`` is given, whether it is live, and its name for messages."""

    spec: str | int
    live: bool
    name: str


def parse_source(text: str) -> Source:
    """A device index, a stream URL or a video file.

    >>> parse_source("0"), parse_source("rtsp://cam/1").live, parse_source("game.mp4").live
    (Source(spec=0, live=True, name='camera 0'), True, False)
    """
    if text.isdigit():
        return Source(int(text), True, f"camera {text}")
    if "://" in text:
        return Source(text, True, f"the stream {text}")
    return Source(text, False, text)


def open_capture(source: Source) -> cv2.VideoCapture | None:
    params = [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, OPEN_TIMEOUT_MS, cv2.CAP_PROP_READ_TIMEOUT_MSEC, OPEN_TIMEOUT_MS]
    capture = cv2.VideoCapture(source.spec, cv2.CAP_ANY, params)
    if capture.isOpened():
        return capture
    capture.release()
    return None


def sampled_frames(capture: cv2.VideoCapture, source: Source, sample_fps: float, start: float
                   ) -> Iterator[tuple[np.ndarray, float, int]]:
    """(frame, seconds of source time, frame number) at most ``sample_fps`` times a second;
    ends when the source does. A file's time comes from its frame count, a live source's from
    the clock since ``start`` (``time.monotonic``), so a reconnection does not turn time back."""
    fps = capture.get(cv2.CAP_PROP_FPS)
    fps = fps if fps and fps > 0 else 30.0
    next_t = 0.0
    index = -1
    while True:
        index += 1
        t = time.monotonic() - start if source.live else index / fps
        if t + 1e-6 < next_t:
            if not capture.grab():
                return
            continue
        ok, frame = capture.read()
        if not ok or frame is None:
            return
        next_t = max(next_t + 1.0 / sample_fps, t)
        yield frame, t, index


class EventWriter:
    """Prints each event (text or JSON) and appends its JSON line to the record, flushed."""

    def __init__(self, stdout: TextIO, as_json: bool, record: TextIO | None) -> None:
        self.stdout, self.as_json, self.record = stdout, as_json, record
        self.moves = 0

    def write(self, line: dict[str, Any]) -> None:
        text = json.dumps(line)
        if self.record is not None:  # first: whatever is shown is already kept
            self.record.write(text + "\n")
            self.record.flush()
        print(text if self.as_json else event_text(line), file=self.stdout, flush=True)
        self.moves += line["type"] in ("placed", "removed") and not line["correction"]


class Session:
    """One game followed: frames from the source and the players' commands take turns on a
    lock, and every line they give goes out through the writer in that order."""

    def __init__(self, follower: Follower, writer: EventWriter, stderr: TextIO) -> None:
        self.follower, self.writer, self.stderr = follower, writer, stderr
        self._lock = threading.Lock()
        self._hinted = False

    @property
    def board_found(self) -> bool:
        return self.follower.referee is not None

    def feed(self, frame_bgr: np.ndarray, t: float, index: int) -> None:
        with self._lock:
            for line in self.follower.feed(frame_bgr, t, index):
                self.writer.write(line)
            if not self.board_found and not self._hinted and t >= NO_BOARD_HINT_S:
                self._hinted = True  # once: on stderr, so that --json output stays JSON lines
                print(COLOURLESS if colourless(frame_bgr, VisionConfig()) else NO_BOARD_HINT, file=self.stderr,
                      flush=True)

    def say(self, text: str) -> None:
        """A line for people on stdout, between event lines (never inside one)."""
        with self._lock:
            print(text, file=self.writer.stdout, flush=True)

    def command(self, text: str) -> bool:
        """Applies one typed line; a line that cannot be applied gets one sentence on stderr
        (False). Its event lines are shown and recorded like the others."""
        try:
            command = parse_command(text)
            if command is None:
                return True
            if isinstance(command, Help):
                print(HELP, file=self.stderr, flush=True)
                return True
            with self._lock:
                for line in apply_command(self.follower, command):
                    self.writer.write(line)
        except (CommandError, CorrectionError) as error:
            print(f"seqcam watch: {error}", file=self.stderr, flush=True)
            return False
        return True


def apply_command(follower: Follower, command: Command) -> list[dict[str, Any]]:
    """The event lines of one correction. Raises ``CorrectionError`` when it cannot be made."""
    if isinstance(command, Undo):
        return follower.undo()
    if isinstance(command, SetCells):
        return follower.confirm(dict(command.cells))
    if isinstance(command, Choose):
        return follower.choose(command.number)
    if isinstance(command, Turn):
        return follower.turn(command.quarter_turns)
    raise CommandError(f"{command} is not a correction.")


def read_commands(stdin: TextIO, session: Session) -> None:
    """Applies every line typed on ``stdin`` until it ends (or cannot be read: no terminal)."""
    try:
        for text in stdin:
            session.command(text)
    except (OSError, ValueError):
        return


def start_reading_commands(stdin: TextIO, session: Session) -> threading.Thread:
    thread = threading.Thread(target=read_commands, args=(stdin, session), name="seqcam-commands", daemon=True)
    thread.start()
    return thread


def run_watch(source_text: str | None, team_count: int, record_path: str | None, as_json: bool,
              calibration: str | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None,
              retries: int = RETRIES, retry_wait_s: float = RETRY_WAIT_S, stdin: TextIO | None = None) -> int:
    """Follows ``source_text`` (None: the demo video); ``stdin``, when given, is read for the
    players' corrections while it runs."""
    stdout, stderr = stdout or sys.stdout, stderr or sys.stderr
    try:
        profile = load_profile(Path(calibration)) if calibration else None
    except ProfileError as error:
        print(f"seqcam watch: {error}", file=stderr)
        return EXIT_USAGE
    source = parse_source(source_text) if source_text else Source(str(default_video()), False, str(default_video()))
    if not source.live and not Path(str(source.spec)).is_file():
        print(f"seqcam watch: there is no video file {source.name}. Give a video file, a camera number "
              "(0 for the first camera) or a stream address.", file=stderr)
        return EXIT_FAILED
    if not source.live and _is_photo(Path(str(source.spec))):
        print(f"seqcam watch: {source.name} is a photo, not a video: seqcam analyze {source.name} reads a photo.",
              file=stderr)
        return EXIT_FAILED
    try:
        record = open(record_path, "a", encoding="utf-8") if record_path else None
    except OSError as error:
        print(f"seqcam watch: cannot write the record to {record_path}: {error.strerror}.", file=stderr)
        return EXIT_USAGE
    session = Session(Follower(team_count, profile), EventWriter(stdout, as_json, record), stderr)
    if stdin is not None:
        start_reading_commands(stdin, session)
    try:
        return _watch(source, session, stderr, retries, retry_wait_s)
    except KeyboardInterrupt:
        print("Stopped.", file=stderr)
        return EXIT_OK
    finally:
        if record is not None:
            record.close()


def _is_photo(path: Path) -> bool:
    """Whether the file starts as a JPEG, PNG or HEIC photo does (OpenCV would play it as a
    video of one frame, too short to find the board in)."""
    try:
        with path.open("rb") as file:
            return looks_like_photo(file.read(16))
    except OSError:
        return False


def _watch(source: Source, session: Session, stderr: TextIO, retries: int, retry_wait_s: float) -> int:
    writer = session.writer
    attempts = 0
    seen_any = False
    t = 0.0
    start = time.monotonic()
    while True:
        capture = open_capture(source)
        if capture is None:
            if not source.live:
                print(f"seqcam watch: {source.name} cannot be read as a video (not a video file, or a format "
                      "this OpenCV cannot decode).", file=stderr)
                return EXIT_FAILED
            attempts += 1
            if attempts > retries:
                print(f"seqcam watch: cannot open {source.name} after {retries} tries. Check that it is "
                      "connected and not used by another program, or that the address is right.", file=stderr)
                return EXIT_FAILED
            print(f"Cannot open {source.name}; trying again in {retry_wait_s:g} s ({attempts} of {retries}).",
                  file=stderr)
            time.sleep(retry_wait_s)
            continue
        frames = 0
        try:
            for frame, t, index in sampled_frames(capture, source, SAMPLE_FPS, start):
                frames += 1
                session.feed(frame, t, index)
        finally:
            capture.release()
        seen_any |= frames > 0
        if not source.live:
            if not seen_any:
                print(f"seqcam watch: {source.name} holds no frames that can be decoded.", file=stderr)
                return EXIT_FAILED
            if not writer.as_json:
                session.say(f"The video ended after {t:.1f} s: {writer.moves} moves seen." if session.board_found
                            else f"The video ended after {t:.1f} s: the board was never found in it.")
            return EXIT_OK
        attempts = 0 if frames else attempts + 1
        if attempts > retries:
            print(f"seqcam watch: {source.name} stopped sending frames. Check the camera or the network.",
                  file=stderr)
            return EXIT_FAILED
        print(f"{source.name} stopped sending frames; reconnecting.", file=stderr)
        time.sleep(retry_wait_s)
