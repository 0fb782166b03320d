"""Move inference between two readings of the board: what changed, who did it, was it legal.

The live tracker feeds it each accepted change; either reading may contain hidden cells.

>>> from referee.cells import cell
>>> empty = Board.empty()
>>> move = infer_move(empty, empty.with_cell(cell(4, 4), "B"), to_play="B")
>>> move.kind, move.team, move.cell, move.legal
(<MoveKind.PLACED: 'placed'>, 'B', 44, True)
>>> infer_move(empty, empty.with_cell(44, "G"), to_play="B").violations[0].kind.value
'out_of_turn'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from referee.board import EMPTY, UNKNOWN, Board
from referee.cells import CELLS, TEAM_NAMES, Cell, Team, cell_name, teams_for
from referee.sequences import read_team


class MoveKind(str, Enum):
    NONE = "none"  # nothing changed that can be seen
    PLACED = "placed"
    REMOVED = "removed"
    SEVERAL = "several"  # more than one move's worth of change: see violations
    UNKNOWN = "unknown"  # the only changes are under hidden cells


class ViolationKind(str, Enum):
    """Stable codes for broken rules (the page translates them)."""

    PROTECTED_REMOVED = "protected_removed"
    OWN_CHIP_REMOVED = "own_chip_removed"
    SEVERAL_PLACED = "several_placed"
    SEVERAL_REMOVED = "several_removed"
    PLACED_AND_REMOVED = "placed_and_removed"
    COLOUR_CHANGED = "colour_changed"
    CLEARED_CELL_RETAKEN = "cleared_cell_retaken"
    OUT_OF_TURN = "out_of_turn"
    COLOUR_NOT_IN_GAME = "colour_not_in_game"


@dataclass(frozen=True, slots=True)
class CellChange:
    cell: Cell
    before: str
    after: str


@dataclass(frozen=True, slots=True)
class Violation:
    kind: ViolationKind
    message: str
    cells: tuple[Cell, ...]


@dataclass(frozen=True, slots=True)
class MoveInference:
    """``legal`` is None when hidden cells or a photo's missing history leave it open."""

    changes: tuple[CellChange, ...]
    kind: MoveKind
    team: Team | None  # who placed, or whose chip was removed
    cell: Cell | None
    legal: bool | None
    violations: tuple[Violation, ...]
    unjudged: tuple[Cell, ...]  # cells that changed to or from hidden
    new_sequences: int  # sequences the placing team gained (0 for anything but a placement)
    reason: str


def changed_cells(before: Board, after: Board) -> tuple[CellChange, ...]:
    return tuple(CellChange(c, before[c], after[c]) for c in CELLS if before[c] != after[c])


def infer_move(
    before: Board,
    after: Board,
    *,
    team_count: int = 2,
    to_play: Team | None = None,
    protected: frozenset[Cell] | None = None,
    cleared: tuple[Cell, Team] | None = None,
) -> MoveInference:
    """What happened between ``before`` and ``after``.

    ``to_play`` is the team whose turn it is, when known. ``protected`` is the exact set of
    protected chips from the game's history; without it the photo's own verdict is used, and
    a removal of a chip that is only possibly protected is ``legal=None``. ``cleared`` is the
    cell a one-eyed jack emptied this turn and the team that played it.
    """
    changes = changed_cells(before, after)
    unjudged = tuple(ch.cell for ch in changes if UNKNOWN in (ch.before, ch.after))
    seen = [ch for ch in changes if ch.cell not in unjudged]
    placed = [ch for ch in seen if ch.before == EMPTY]
    removed = [ch for ch in seen if ch.after == EMPTY]
    recoloured = [ch for ch in seen if ch.before != EMPTY and ch.after != EMPTY]
    violations = [_colour_changed(ch) for ch in recoloured]
    if len(placed) > 1:
        violations.append(_violation(ViolationKind.SEVERAL_PLACED, placed, "chips were placed at once; one turn places one chip"))
    if len(removed) > 1:
        violations.append(_violation(ViolationKind.SEVERAL_REMOVED, removed, "chips were removed at once; one one-eyed jack removes one chip"))
    if placed and removed:
        violations.append(_violation(ViolationKind.PLACED_AND_REMOVED, placed + removed, "changes: a chip was placed and another removed in one turn; a one-eyed jack ends the turn"))

    was_protected: bool | None = False
    kind, team, where, new_sequences, reason = MoveKind.NONE, None, None, 0, "Nothing changed."
    if len(placed) == 1 and not removed and not recoloured:
        kind, team, where = MoveKind.PLACED, placed[0].after, placed[0].cell
        violations += _placement_violations(where, team, team_count, to_play, cleared)
        new_sequences = read_team(after, team).sequences - read_team(before, team).sequences
        reason = f"{TEAM_NAMES[team].capitalize()} placed a chip on {cell_name(where)}."
    elif len(removed) == 1 and not placed and not recoloured:
        kind, team, where = MoveKind.REMOVED, removed[0].before, removed[0].cell
        was_protected = _was_protected(before, where, team, protected)
        violations += removal_violations(where, team, to_play, was_protected)
        reason = f"A {TEAM_NAMES[team]} chip was removed from {cell_name(where)}."
        if was_protected is None:
            reason += " Was it part of a completed sequence? The photo cannot tell."
    elif seen:
        kind, reason = MoveKind.SEVERAL, "More changed than one move can do."
    elif unjudged:
        kind, reason = MoveKind.UNKNOWN, "Only hidden cells changed: nothing can be judged yet."

    legal: bool | None = not violations
    if violations:
        reason = " ".join(v.message for v in violations)
    elif unjudged or was_protected is None:
        legal = None
    return MoveInference(changes, kind, team, where, legal, tuple(violations), unjudged, new_sequences, reason)


def _placement_violations(
    where: Cell, team: Team, team_count: int, to_play: Team | None, cleared: tuple[Cell, Team] | None
) -> list[Violation]:
    violations = []
    name = TEAM_NAMES[team]
    if team not in teams_for(team_count):
        violations.append(Violation(ViolationKind.COLOUR_NOT_IN_GAME, f"A {name} chip was placed, but {name} is not playing.", (where,)))
    if to_play is not None and team != to_play:
        violations.append(Violation(
            ViolationKind.OUT_OF_TURN,
            f"{name.capitalize()} played out of turn: it is {TEAM_NAMES[to_play]}'s turn.",
            (where,),
        ))
    if cleared is not None and cleared == (where, team):
        violations.append(Violation(
            ViolationKind.CLEARED_CELL_RETAKEN,
            f"{name.capitalize()} placed a chip on {cell_name(where)}, the cell it cleared this turn.",
            (where,),
        ))
    return violations


def _was_protected(before: Board, where: Cell, team: Team, protected: frozenset[Cell] | None) -> bool | None:
    """Exact from the game's history when given; else the photo's verdict, None if it depends."""
    if protected is not None:
        return where in protected
    reading = read_team(before, team)
    return True if where in reading.definite else None if where in reading.possible else False


def removal_violations(where: Cell, team: Team, to_play: Team | None, was_protected: bool | None) -> list[Violation]:
    violations = []
    name = TEAM_NAMES[team]
    if to_play is not None and to_play == team:
        violations.append(Violation(ViolationKind.OWN_CHIP_REMOVED, f"{name.capitalize()} removed its own chip from {cell_name(where)}.", (where,)))
    if was_protected:
        violations.append(Violation(
            ViolationKind.PROTECTED_REMOVED,
            f"The {name} chip on {cell_name(where)} was part of a completed sequence and may not be removed.",
            (where,),
        ))
    return violations


def _colour_changed(change: CellChange) -> Violation:
    return Violation(
        ViolationKind.COLOUR_CHANGED,
        f"The chip on {cell_name(change.cell)} changed from {TEAM_NAMES[change.before]} to "
        f"{TEAM_NAMES[change.after]}: a chip is never replaced, and a cleared cell cannot be retaken in the same turn.",
        (change.cell,),
    )


def _violation(kind: ViolationKind, changes: list[CellChange], what: str) -> Violation:
    cells = tuple(ch.cell for ch in changes)
    return Violation(kind, f"{len(cells)} {what}.", cells)

