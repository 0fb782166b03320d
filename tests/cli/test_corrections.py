"""The players' correction commands of `seqcam watch`: parsed, applied under one lock, shown and recorded."""

from __future__ import annotations

import io
import json
import threading

import numpy as np
import pytest

from referee.board import Board
from referee.cells import cell
from referee.live import LiveReferee
from seqcam.corrections import Choose, CommandError, Help, SetCells, Turn, Undo, parse_command
from seqcam.follow import Follower
from seqcam.watch_command import EventWriter, Session
from vision.errors import VisionWarning, VisionWarningKind
from vision.track import BOARD_FOUND, TrackEvent


@pytest.mark.parametrize("text, command", [
    ("undo", Undo()),
    ("  UNDO  ", Undo()),
    ("set 3,4 blue", SetCells(((cell(3, 4), "B"),))),
    ("set 3, 4 Green 0,5 empty 9,8 r 1,1 .", SetCells(((34, "G"), (5, "."), (98, "R"), (11, ".")))),
    ("choose 2", Choose(2)),
    ("turn", Turn(1)),
    ("Turn 3", Turn(3)),
    ("help", Help()),
    ("", None),
    ("# the cat walked on the board", None),
])
def test_commands(text: str, command) -> None:
    assert parse_command(text) == command


@pytest.mark.parametrize("text, message", [
    ("zap 3,4", "'zap' is not a command: type undo, set ROW,COL COLOUR, choose N, turn or help."),
    ("turn 4", "turn takes the quarter turns clockwise, 1 to 3"),
    ("turn left", "turn takes the quarter turns clockwise, 1 to 3"),
    ("undo 2", "undo takes nothing after it"),
    ("set", "in pairs"),
    ("set 3,4", "in pairs"),
    ("set C4 blue", "A cell is written ROW,COL with numbers 0 to 9, like 3,7; got 'C4'."),
    ("set 3,10 blue", "Row and column must be 0 to 9"),
    ("set 3,4 purple", "'purple' is not a colour: say blue, green, red or empty."),
    ("set 3,4 blue 3,4 green", "3,4 is given twice."),
    ("choose", "choose takes one option number"),
    ("choose 0", "choose takes one option number"),
    ("choose two", "choose takes one option number"),
])
def test_bad_commands_say_how_to_write_them(text: str, message: str) -> None:
    with pytest.raises(CommandError) as raised:
        parse_command(text)
    assert message in str(raised.value) and "\n" not in str(raised.value)


def _session(board: Board, record: io.StringIO) -> tuple[Session, io.StringIO, io.StringIO]:
    """A session whose follower has found ``board`` (as the tracker would), at 12.5 s, frame 125."""
    follower = Follower(2)
    follower.referee, follower.tracker.board = LiveReferee(2, board), board
    follower.t, follower.frame = 12.5, 125
    out, err = io.StringIO(), io.StringIO()
    return Session(follower, EventWriter(out, True, record), err), out, err


def _board(*chips: tuple[int, int, str]) -> Board:
    board = Board.empty()
    for r, c, team in chips:
        board = board.with_cell(cell(r, c), team)
    return board


def test_set_then_undo_are_event_lines_shown_and_recorded() -> None:
    record = io.StringIO()
    session, out, err = _session(_board((4, 4, "B")), record)
    assert session.command("set 4,5 green 4,4 blue\n")
    assert session.command("undo")
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [json.loads(line) for line in record.getvalue().splitlines()] == lines
    assert [(line["type"], line["team"], line["cell"], line["correction"]) for line in lines] == [
        ("confirm", None, None, True), ("placed", "G", [4, 5], True), ("undo", None, None, True)]
    assert lines[0]["cells"] == [[4, 4], [4, 5]] and lines[0]["t"] == 12.5 and lines[0]["frame"] == 125
    assert lines[0]["options"] is None and err.getvalue() == ""
    assert session.follower.tracker.board == _board((4, 4, "B"))  # the tracker follows the corrected board


def test_choose_through_the_session() -> None:
    row = [(2, c, "B") for c in (0, 1, 3, 4, 5)]
    session, out, err = _session(_board(*row, (7, 7, "G")), io.StringIO())
    referee = session.follower.referee
    assert referee is not None
    session.follower.tracker.board = referee.board.with_cell(cell(2, 2), "B")
    events = referee.observe(session.follower.tracker.board)
    assert events[1].options is not None  # a choice is open
    assert session.command("choose 2")
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [(line["type"], line["cells"]) for line in lines] == [
        ("choose", None), ("sequence", [[2, 1], [2, 2], [2, 3], [2, 4], [2, 5]])]
    assert not session.command("choose 3")
    assert err.getvalue().startswith("seqcam watch: There are 2 options: 1) 2,0-2,4; 2) 2,1-2,5.")


def test_a_turn_names_every_cell_from_the_top_the_players_say_and_the_tracker_keeps_its_own() -> None:
    """A board full of chips shows no printed card: the camera's guess of the top can be wrong."""
    read = _board(*[(0, c, "B") for c in range(1, 4)], (5, 5, "G"))  # as the tracker reads it
    session, out, err = _session(read, io.StringIO())
    assert session.command("turn")
    follower = session.follower
    assert follower.referee is not None and follower.referee.board == read.transformed(1)
    assert follower.tracker.board == read  # the tracker's cells stay its own
    events = follower.referee.observe(follower.tracker.board.with_cell(cell(0, 4), "B").transformed(follower.turns))
    assert [(e.type, e.cell, e.cells) for e in events] == [
        ("placed", cell(4, 9), None), ("sequence", None, tuple(cell(r, 9) for r in range(5)))]
    assert cell(1, 9) in follower.referee.protected
    assert session.command("undo") and follower.tracker.board == read
    assert session.command("turn 3") and follower.referee.board == read and follower.turns == 0
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [(line["type"], line["correction"]) for line in lines] == [("turn", True), ("undo", True), ("turn", True)]
    assert err.getvalue() == ""


@pytest.mark.parametrize("top_unsure", [True, False])
def test_a_board_found_whose_top_the_camera_cannot_tell_says_to_type_turn(top_unsure: bool) -> None:
    warning = VisionWarning(VisionWarningKind.ORIENTATION_UNCERTAIN, "Cannot tell which side of the board is the top.")
    follower = Follower(2)
    found = TrackEvent(BOARD_FOUND, 0.5, 5, Board.empty(), (warning,) if top_unsure else ())
    follower.tracker.feed = lambda frame_bgr, t, frame: [found]  # type: ignore[method-assign]
    [line] = follower.feed(np.zeros((4, 4, 3), np.uint8), 0.5, 5)
    assert line["type"] == "board_found" and ("type turn" in line["detail"]) == top_unsure


@pytest.mark.parametrize("text, message", [
    ("undo", "seqcam watch: Nothing to undo: no move has been seen since the game was joined.\n"),
    ("choose 1", "seqcam watch: No sequence is waiting for a choice"),
    ("set 0,0 blue", "seqcam watch: row 0, column 0 (corner) is a corner"),
    ("set 3,3 red", "seqcam watch: 'R' is not a chip of this game"),
    ("jump", "seqcam watch: 'jump' is not a command"),
])
def test_a_correction_that_cannot_be_made_is_one_sentence(text: str, message: str) -> None:
    record = io.StringIO()
    session, out, err = _session(_board((4, 4, "B")), record)
    assert not session.command(text)
    assert err.getvalue().startswith(message) and err.getvalue().count("\n") == 1
    assert out.getvalue() == record.getvalue() == ""


def test_before_the_board_is_found_there_is_nothing_to_correct() -> None:
    err = io.StringIO()
    session = Session(Follower(2), EventWriter(io.StringIO(), True, None), err)
    assert not session.command("set 3,3 blue")
    assert err.getvalue() == "seqcam watch: Nothing to correct yet: the board has not been found.\n"


def test_help_goes_to_stderr_so_json_output_stays_json() -> None:
    session, out, err = _session(Board.empty(), io.StringIO())
    assert session.command("help")
    assert out.getvalue() == "" and "choose N" in err.getvalue()


class WatchedLock:
    """A lock that says when someone starts waiting for it."""

    def __init__(self) -> None:
        self.lock, self.wanted = threading.Lock(), threading.Event()

    def __enter__(self) -> None:
        if self.lock.locked():
            self.wanted.set()
        self.lock.acquire()

    def __exit__(self, *exc) -> None:
        self.lock.release()


class SlowFollower:
    """A follower whose frame is still being looked at when a command comes."""

    def __init__(self, lock: WatchedLock) -> None:
        self.lock, self.calls = lock, []
        self.command_sent = threading.Event()
        self.referee = None  # no board found yet

    def feed(self, frame, t, index) -> list:
        self.calls.append("feed starts")
        self.command_sent.set()
        assert self.lock.wanted.wait(timeout=30), "the command did not wait for the frame"
        self.calls.append("feed ends")
        return []

    def undo(self) -> list:
        self.calls.append("undo")
        return []


def test_a_command_waits_for_the_frame_being_looked_at() -> None:
    lock = WatchedLock()
    follower = SlowFollower(lock)
    session = Session(follower, EventWriter(io.StringIO(), True, None), io.StringIO())  # type: ignore[arg-type]
    session._lock = lock  # type: ignore[assignment]

    def type_undo() -> None:
        follower.command_sent.wait(timeout=30)
        session.command("undo")

    typist = threading.Thread(target=type_undo)
    typist.start()
    session.feed(None, 0.0, 0)  # type: ignore[arg-type]
    typist.join(timeout=30)
    assert follower.calls == ["feed starts", "feed ends", "undo"]
