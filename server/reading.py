"""A photo's reading as the API gives it: the `seqcam analyze --json` object, plus what the
page needs to draw the verdict (sequence cells, protected chips, warning codes), and the
events a new reading causes against the one before."""

from __future__ import annotations

from typing import Any

import numpy as np

from referee.board import CHIP_COLOURS, UNKNOWN, Board, turned_cell
from referee.cells import CELLS, TEAM_NAMES, Cell, cell, cell_col, cell_name, cell_row
from referee.game import SetupError, team_count_for
from referee.judge import Judgement, RemovalKind, judge, removal
from referee.live import LiveEvent
from referee.moves import MoveKind, infer_move, removal_violations
from seqcam.analyze_command import result_json
from seqcam.judge_command import cell_pairs
from vision.errors import VisionWarning, VisionWarningKind
from vision.pipeline import Analysis, top_edge_deg

VISION_WARNING_CODES = tuple(kind.value for kind in VisionWarningKind)
REMOVAL_CODES = tuple(kind.value for kind in RemovalKind)
EVENT_CODES = ("placed", "placed_illegal", "removed", "removed_illegal", "placed_since", "removed_since",
               "removed_since_illegal", "sequence", "winner", "corrected", "turned")
SEVERAL = "several"  # "more changed than one move can do": stored by earlier versions, still named by the page


def pair(c: Cell) -> list[int]:
    return [cell_row(c), cell_col(c)]


def reading_json(analysis: Analysis, verdict: Judgement, elapsed_ms: float) -> dict[str, Any]:
    """The CLI's JSON for one photo, with the drawing details beside it."""
    result = result_json("upload", analysis, verdict, None, elapsed_ms)
    result.update(verdict_details(verdict, analysis.warnings))
    return result


def verdict_details(verdict: Judgement, vision_warnings: tuple[VisionWarning, ...] = ()) -> dict[str, Any]:
    return {
        "team_count": verdict.team_count,
        "runs": [{"team": team, "cells": [pair(c) for c in cells]}
                 for team, reading in verdict.readings.items() for cells in reading.run_cells],
        "protected": {"definite": cell_pairs(verdict.definitely_protected),
                      "possible": cell_pairs(verdict.possibly_protected)},
        "warning_details": [*({"code": w.kind.value, "text": w.message} for w in vision_warnings),
                            *({"code": w.kind.value, "text": w.message} for w in verdict.warnings)],
    }


def removal_json(board: Board, c: Cell) -> dict[str, Any]:
    """The referee's answer to "can this chip be removed?", with a code the page translates."""
    answer = removal(board, c)
    team = board[c] if board[c] in "BGR" else None
    return {"cell": pair(c), "legal": answer.legal, "code": answer.kind.value,
            "team": team, "reason": answer.reason}


def events_between(before: Board | None, after: Board, team_count: int, t: float) -> list[dict[str, Any]]:
    """Events in the `seqcam watch --json` form, plus a ``code``, for a new photo's reading.

    The first reading of a game has no move (the game may have started before the photo).
    """
    moves = move_events(before, after, team_count, t) if before is not None else []
    return moves + verdict_events(before, after, team_count, t)


def move_events(before: Board, after: Board, team_count: int, t: float) -> list[dict[str, Any]]:
    """The move between two readings, and every rule it broke; more changes than one move
    makes are the moves made since the reading before (``moves_since``)."""
    events: list[dict[str, Any]] = []
    move = infer_move(before, after, team_count=team_count)
    if move.kind == MoveKind.SEVERAL:
        return moves_since(before, after, team_count, t)
    if move.kind in (MoveKind.PLACED, MoveKind.REMOVED) and move.cell is not None:
        code = move.kind.value if move.legal is not False else f"{move.kind.value}_illegal"
        events.append(_event(t, move.kind.value, code, move.team, pair(move.cell), None, move.reason))
    for violation in move.violations:
        events.append(_event(t, "violation", violation.kind.value, None, None,
                             [pair(c) for c in violation.cells], violation.message))
    return events


def moves_since(before: Board, after: Board, team_count: int, t: float) -> list[dict[str, Any]]:
    """Each chip removed and placed between two readings that differ by more than one move:
    players photograph the board when they want a verdict, not after every turn, so how many
    turns went by, and whose, is unknown, and only a chip of a completed sequence taken off
    is against the rules (as ``seqcam watch`` tells moves made while the board was out of view).

    >>> [(e["code"], e["team"], e["cell"]) for e in moves_since(Board.empty(), Board.empty().with_cell(44, "B").with_cell(45, "G"), 2, 0.0)]
    [('placed_since', 'B', [4, 4]), ('placed_since', 'G', [4, 5])]
    """
    protected = judge(before, team_count).definitely_protected
    changed = [c for c in CELLS if after[c] != before[c] and UNKNOWN not in (before[c], after[c])]
    events, broken = [], []
    for c in changed:
        if before[c] in CHIP_COLOURS:
            violations = removal_violations(c, before[c], None, c in protected)
            code = "removed_since_illegal" if violations else "removed_since"
            events.append(_event(t, "removed", code, before[c], pair(c), None, f"A {TEAM_NAMES[before[c]]} chip was "
                                 f"removed from {cell_name(c)} since the last reading."))
            broken += violations
    events += [_event(t, "placed", "placed_since", after[c], pair(c), None, f"{TEAM_NAMES[after[c]].capitalize()} "
                      f"placed a chip on {cell_name(c)} since the last reading.") for c in changed if after[c] in CHIP_COLOURS]
    return events + [_event(t, "violation", v.kind.value, None, None, [pair(c) for c in v.cells], v.message)
                     for v in broken]


def live_move_events(events: list[LiveEvent], t: float) -> list[dict[str, Any]]:
    """The chips placed and removed and the rules broken, as the live referee saw them (the
    camera's table), in the form of ``move_events``; its sequences and winner are left to
    ``verdict_events``, which a photo's reading uses too."""
    broken = {c for e in events if e.type == "violation" for c in e.cells or ()}
    moves = [_event(t, e.type, f"{e.type}_illegal" if e.cell in broken else e.type, e.team, pair(e.cell), None, e.detail)
             for e in events if e.type in ("placed", "removed") and e.cell is not None]
    return moves + [_event(t, "violation", e.rule or "", None, None, [pair(c) for c in e.cells or ()],
                           e.detail.removeprefix(f"{e.rule}: ")) for e in events if e.type == "violation"]


def verdict_events(before: Board | None, after: Board, team_count: int, t: float) -> list[dict[str, Any]]:
    """New sequences, and the winner when there was none before."""
    events: list[dict[str, Any]] = []
    old = judge(before, team_count) if before is not None else None
    new = judge(after, team_count)
    for team, reading in new.readings.items():
        earlier = set(old.readings[team].run_cells) if old else set()
        for cells in reading.run_cells:
            if cells not in earlier:
                events.append(_event(t, "sequence", "sequence", team, None, [pair(c) for c in cells],
                                     f"{team}: a run of {len(cells)} chips"))
    if new.winner and (old is None or not old.winner):
        events.append(_event(t, "winner", "winner", new.winner[0], None, None, " and ".join(new.winner)))
    return events


def corrected_reading(previous: dict[str, Any], c: Cell, symbol: str) -> tuple[dict[str, Any], Board, Board]:
    """The previous reading with one cell set by a player, judged again; and both boards.

    The correction remembers what the photo showed there (``seen``), so that later photos
    that still read the cell so keep it (``with_corrections``).
    """
    before = Board.from_rows(previous["grid"])
    after = before.with_cell(c, symbol)
    earlier = [k for k in corrections_of(previous) if k["cell"] != pair(c)]
    seen = next((k["seen"] for k in corrections_of(previous) if k["cell"] == pair(c)), before[c])
    return rejudged(previous, after, [*earlier, {"cell": pair(c), "seen": seen}]), before, after


def with_corrections(previous: dict[str, Any] | None, result: dict[str, Any]) -> dict[str, Any]:
    """A new reading (a photo, the camera) with the players' corrections of ``previous`` kept
    where the new photo still reads the cell as the corrected one did (the same misreading) or
    cannot see it; a cell read otherwise now (a move there, or read right) drops its correction."""
    if previous is None:
        return result
    read = Board.from_rows(result["grid"])
    stated = Board.from_rows(previous["grid"])
    kept = [k for k in corrections_of(previous) if read[cell(*k["cell"])] in (k["seen"], UNKNOWN)]
    if not kept:
        return result
    board = read
    for k in kept:
        board = board.with_cell(cell(*k["cell"]), stated[cell(*k["cell"])])
    return rejudged(result, board, kept)


def corrections_of(reading: dict[str, Any]) -> list[dict[str, Any]]:
    """The players' corrections a reading carries: ``{"cell": [r, c], "seen": symbol}`` each
    (readings stored before corrections remembered what was seen carry bare cells: none kept)."""
    return [k for k in reading.get("corrected", []) if isinstance(k, dict)]


def rejudged(reading: dict[str, Any], board: Board, corrections: list[dict[str, Any]]) -> dict[str, Any]:
    """``reading`` with its grid set to ``board`` by the players' ``corrections``, judged again.

    Vision's own warnings stay (the photo has not changed); the referee's are redone.
    """
    verdict = judge(board, reading["team_count"])
    vision_notes = tuple(VisionWarning(VisionWarningKind(w["code"]), w["text"])
                         for w in reading["warning_details"] if w["code"] in VISION_WARNING_CODES)
    return {
        **reading,
        "grid": board.rows(),
        "sequences": verdict.sequences,
        "winner": list(verdict.winner),
        "warnings": [*(str(w) for w in vision_notes), *(str(w) for w in verdict.warnings)],
        **verdict_details(verdict, vision_notes),
        "corrected": corrections,
    }


def turned_reading(previous: dict[str, Any], quarter_turns: int) -> dict[str, Any]:
    """The previous reading turned ``quarter_turns`` clockwise by a player (where the photo
    could not tell the printed top): its grid, its corrections and the order of its corners,
    judged again. Later photos that cannot tell the top either are turned to match it."""
    board = Board.from_rows(previous["grid"]).transformed(quarter_turns)
    corrections = [{**k, "cell": pair(turned_cell(cell(*k["cell"]), quarter_turns))} for k in corrections_of(previous)]
    result = rejudged(previous, board, corrections)
    corners = previous.get("corners_px")
    if corners is not None:  # the printed top-left is the corner that was quarter_turns before it
        corners = corners[-quarter_turns:] + corners[:-quarter_turns]
        result |= {"corners_px": corners, "orientation_deg": top_edge_deg(np.array(corners))}
    return result


def turn_event(quarter_turns: int, t: float) -> dict[str, Any]:
    return _event(t, "correction", "turned", None, None, None, f"{quarter_turns} quarter turn(s) clockwise")


def correction_event(before: Board, after: Board, c: Cell, t: float) -> dict[str, Any]:
    return _event(t, "correction", "corrected", None, pair(c), None, f"{before[c]} -> {after[c]}")


def _event(t: float, kind: str, code: str, team: str | None, where: list[int] | None,
           cells: list[list[int]] | None, detail: str) -> dict[str, Any]:
    return {"t": t, "type": kind, "code": code, "team": team, "cell": where, "cells": cells, "detail": detail}


def team_splits(players: int) -> list[int]:
    """The team counts ``players`` may form: [] when Sequence cannot be played by that many.

    >>> team_splits(4), team_splits(6), team_splits(5)
    ([2], [2, 3], [])
    """
    splits = []
    for teams in (2, 3):
        try:
            team_count_for(players, teams)
        except SetupError:
            continue
        splits.append(teams)
    return splits
