"""Following a game: the tracker's accepted readings through the live referee, as event lines.

An event line is the ``seqcam watch --json`` object of ../shared/DESIGN.md:
``{"t", "frame", "type", "team", "cell", "cells", "detail", "correction", "options"}``.
``correction`` is true for the players' corrections (``undo``, ``confirm``, ``choose``, ``turn``) and the
events that follow from them; ``options`` lists, on a sequence where several windows fit, every
set of windows the players may choose (each a list of sequences of five ``[r, c]``), else null.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from referee.cells import Cell, cell_col, cell_row
from referee.errors import CorrectionError
from referee.live import LiveEvent, LiveReferee
from vision.config import VisionConfig
from vision.errors import VisionWarningKind, warned
from vision.profile import Profile
from vision.track import BOARD_CHANGED, BOARD_FOUND, BOARD_LOST, TrackConfig, Tracker

FOUND_DETAIL = "The board is in view; following the game."
REFOUND_DETAIL = "The board is back in view."
LOST_DETAIL = "The board is out of view or hidden: nothing is judged until it is seen again."
TURN_HINT = "If row 0 is not the printed top row (FREE 2♠ 3♠ ... 9♠ FREE), type turn."


def _cell_json(c: Cell) -> list[int]:
    return [cell_row(c), cell_col(c)]


def event_line(t: float, frame: int, event: LiveEvent) -> dict[str, Any]:
    return {"t": round(t, 3), "frame": frame, "type": event.type, "team": event.team,
            "cell": None if event.cell is None else _cell_json(event.cell),
            "cells": None if event.cells is None else [_cell_json(c) for c in event.cells],
            "detail": event.detail, "correction": event.correction,
            "options": None if event.options is None else
            [[[_cell_json(c) for c in window] for window in option] for option in event.options]}


def event_text(line: dict[str, Any]) -> str:
    """One event for people: time, what, and the referee's sentence."""
    hint = " Type choose N to pick option N." if line.get("options") else ""
    return f"{line['t']:8.1f} s  {line['type']:<11} {line['detail']}{hint}"


class Follower:
    """Frames in, event lines out: one game followed from one camera."""

    def __init__(self, team_count: int, profile: Profile | None = None, track: TrackConfig | None = None,
                 config: VisionConfig | None = None) -> None:
        self.tracker = Tracker(team_count, config, track, profile)
        self.team_count = team_count
        self.referee: LiveReferee | None = None
        self.turns = 0  # quarter turns, clockwise, from the tracker's reading to the players' printed top
        self.t, self.frame = 0.0, 0  # the last frame fed: when a correction is made, in source time

    def feed(self, frame_bgr: np.ndarray, t: float, frame: int) -> list[dict[str, Any]]:
        self.t, self.frame = t, frame
        lines = []
        for tracked in self.tracker.feed(frame_bgr, t, frame):
            if tracked.kind == BOARD_FOUND:
                first = self.referee is None
                if first:
                    assert tracked.board is not None
                    self.referee = LiveReferee(self.team_count, tracked.board.transformed(self.turns))
                else:
                    self.referee.lose_track()
                detail = " ".join([FOUND_DETAIL if first else REFOUND_DETAIL, *(str(w) for w in tracked.warnings),
                                   *([TURN_HINT] if warned(tracked.warnings, VisionWarningKind.ORIENTATION_UNCERTAIN)
                                     else [])])
                lines.append(event_line(t, frame, LiveEvent("board_found", None, None, None, detail)))
            elif tracked.kind == BOARD_LOST:
                lines.append(event_line(t, frame, LiveEvent("board_lost", None, None, None, LOST_DETAIL)))
            elif tracked.kind == BOARD_CHANGED and self.referee is not None and tracked.board is not None:
                if tracked.new_view:  # two chips new in a view that moved are no proof of two chips in one turn
                    self.referee.lose_track()
                lines += [event_line(t, frame, e) for e in self.referee.observe(tracked.board.transformed(self.turns))]
        return lines

    def undo(self) -> list[dict[str, Any]]:
        """The players take back the last change: the referee forgets it and the tracker takes
        the board as it was (a chip still on the table is then read again only if its picture
        changes). Gives the ``undo`` line; raises ``CorrectionError`` when nothing is left to undo."""
        return self._corrected(self._referee().undo())

    def confirm(self, stated: Mapping[Cell, str]) -> list[dict[str, Any]]:
        """The players state what is on some cells (``.`` or a team's letter): the referee and the
        tracker take it as the board. Gives the ``confirm`` line and the lines that follow from
        it; raises ``CorrectionError`` when it cannot be (see ``LiveReferee.confirm``)."""
        return self._corrected(self._referee().confirm(stated))

    def choose(self, number: int) -> list[dict[str, Any]]:
        """The players choose option ``number`` (from 1) of the open sequence choice. Gives the
        ``choose`` line and the chosen sequences; raises ``CorrectionError`` when it cannot be."""
        return self._corrected(self._referee().choose(number))

    def turn(self, quarter_turns: int) -> list[dict[str, Any]]:
        """The players turn the board as read ``quarter_turns`` clockwise, where the camera could
        not tell the printed top: every cell is named from the top they say from then on. Gives
        the ``turn`` line; raises ``CorrectionError`` before the board is found."""
        events = self._referee().turn(quarter_turns)
        self.turns = (self.turns + quarter_turns) % 4
        return self._corrected(events)

    def _referee(self) -> LiveReferee:
        if self.referee is None:
            raise CorrectionError("Nothing to correct yet: the board has not been found.")
        return self.referee

    def _corrected(self, events: list[LiveEvent]) -> list[dict[str, Any]]:
        assert self.referee is not None
        self.tracker.board = self.referee.board.transformed(-self.turns % 4)
        return [event_line(self.t, self.frame, e) for e in events]
