"""The server's own camera (`seqcam serve --camera SOURCE`).

A thread follows the source with the tracker (vision/track.py), as `seqcam watch` does; every
board it accepts becomes a reading of the camera's table, and every phone at that table is
told at once. The camera sees every move, so its live referee knows whose turn it is and the
cell a one-eyed jack just cleared (a photo's reading cannot): out-of-turn play is called. A
source that fails or stops is tried again; a video file is followed to its end.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from referee.board import Board
from referee.judge import judge
from referee.live import LiveReferee
from seqcam.watch_command import (
    RETRY_WAIT_S,
    SAMPLE_FPS,
    Source,
    open_capture,
    sampled_frames,
)
from server.reading import live_move_events, verdict_details, verdict_events, with_corrections
from server.store import Store, TableRow
from vision.config import VisionConfig
from vision.errors import VisionWarning, VisionWarningKind, warned
from vision.pipeline import matching_turn
from vision.track import BOARD_CHANGED, BOARD_FOUND, Tracker

log = logging.getLogger(__name__)
Publish = Callable[[str, str], None]  # (table id, what changed)


def board_reading(board: Board, team_count: int, warnings: tuple[VisionWarning, ...]) -> dict[str, Any]:
    """A camera's reading in the form of a photo's (`analyze --json` plus the drawing details)."""
    verdict = judge(board, team_count)
    return {"image": "camera", "ok": True, "grid": board.rows(), "orientation_deg": None, "corners_px": None,
            "sequences": verdict.sequences, "winner": list(verdict.winner),
            "warnings": [*(str(w) for w in warnings), *(str(w) for w in verdict.warnings)], "error": None,
            "elapsed_ms": 0.0, **verdict_details(verdict, warnings)}


class CameraFollower:
    """Follows ``source`` in a thread and stores what it sees as readings of ``table``."""

    def __init__(self, source: Source, store: Store, table: TableRow, publish: Publish,
                 config: VisionConfig | None = None, retry_wait_s: float = RETRY_WAIT_S) -> None:
        self.source, self.store, self.table_id, self.publish = source, store, table.id, publish
        self.config = config or VisionConfig()
        self.retry_wait_s = retry_wait_s
        self.state = "starting"  # starting, following, unavailable, ended
        self._stop = threading.Event()
        self._taken: Board | None = None  # a board the players set (an undo), for the tracker to take
        self._referee: LiveReferee | None = None  # the game since the camera's first reading of this table
        self._stored: list[str] | None = None  # the grid the camera stored last
        self._unseen = False  # the board was out of view, or the view moved, since the last change
        self._top_unsure = False  # the camera's first reading could not tell the printed top
        self._thread = threading.Thread(target=self._run, name="seqcam-camera", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def take_board(self, board: Board) -> None:
        """The players set the table's board (they undid a reading): the tracker takes it as the
        board at rest, so that its next change is judged against it and not against what was undone."""
        self._taken = board

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def _run(self) -> None:
        try:
            self._follow()
        except Exception:  # a bug here must not take the server down: the phones still work
            log.exception("following %s failed", self.source.name)
            self.state = "ended"

    def _follow(self) -> None:
        table = self.store.table(self.table_id)
        assert table is not None
        tracker = Tracker(table.teams, self.config)
        start = time.monotonic()
        while not self._stop.is_set():
            capture = open_capture(self.source)
            if capture is None:
                self.state = "unavailable"
                log.warning("cannot open %s; trying again in %g s", self.source.name, self.retry_wait_s)
                if not self.source.live:
                    self.state = "ended"
                    return
                self._stop.wait(self.retry_wait_s)
                continue
            self.state = "following"
            try:
                for frame, t, index in sampled_frames(capture, self.source, SAMPLE_FPS, start):
                    if self._stop.is_set():
                        return
                    taken, self._taken = self._taken, None
                    if taken is not None and tracker.board is not None:
                        tracker.board = self._as_tracked(taken, tracker.board)
                    for seen in tracker.feed(frame, t, index):
                        self._unseen = self._unseen or seen.kind == BOARD_FOUND or seen.new_view
                        if seen.kind == BOARD_FOUND:
                            self._top_unsure = warned(seen.warnings, VisionWarningKind.ORIENTATION_UNCERTAIN)
                        if seen.kind in (BOARD_FOUND, BOARD_CHANGED) and seen.board is not None:
                            self.record(seen.board, seen.warnings)
            finally:
                capture.release()
            if not self.source.live:
                self.state = "ended"
                return
            self.state = "unavailable"
            log.warning("%s stopped sending frames; reconnecting", self.source.name)
            self._stop.wait(self.retry_wait_s)

    def record(self, board: Board, warnings: tuple[VisionWarning, ...]) -> None:
        """A board the tracker accepted becomes the table's reading, unless it reads as the last one."""
        table = self.store.table(self.table_id)
        if table is None:
            return
        with self.store.changing(table.id):
            latest = self.store.latest_reading(table)
            if latest is not None and self._top_unsure:  # the players may have turned it (or a photo told the top)
                board = board.transformed(matching_turn(board, Board.from_rows(latest.result["grid"]), self.config) or 0)
            result = with_corrections(latest.result if latest is not None else None,
                                      board_reading(board, table.teams, warnings))
            if latest is not None and latest.result["grid"] == result["grid"]:
                return
            before = Board.from_rows(latest.result["grid"]) if latest is not None else None
            after = Board.from_rows(result["grid"])
            now = time.time()
            events = self._move_events(before, after, table.teams, now) + verdict_events(before, after, table.teams, now)
            self.store.add_reading(table, result, events)
            self._stored = result["grid"]
        self.publish(table.id, "camera")

    def _as_tracked(self, taken: Board, tracked: Board) -> Board:
        """A board the players set, in the tracker's own quarter turn: the table's readings of a
        board whose top the camera cannot tell are turned as the players or a photo said."""
        if not self._top_unsure:
            return taken
        turn = matching_turn(tracked, taken, self.config)
        return taken.transformed(-turn % 4) if turn is not None else taken

    def _move_events(self, before: Board | None, after: Board, team_count: int, t: float) -> list[dict[str, Any]]:
        """The move from ``before`` (the table's latest reading) to ``after`` as the live referee
        judges it. A table the players changed since the camera's last reading (a correction, an
        undo, a photo, new settings) is taken up from their board, whose turn it is unknown
        until the next chip placed: nobody is wrongly called out of turn."""
        if before is None:  # the first reading of a game: the game may have started before it
            self._referee, self._unseen = None, False
            return []
        if self._referee is None or self._stored != before.rows() or self._referee.team_count != team_count:
            self._referee = LiveReferee(team_count, before)
        if self._unseen:
            self._referee.lose_track()
        self._unseen = False
        return live_move_events(self._referee.observe(after), t)
