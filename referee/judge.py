"""The verdict on one reading of the board: sequences, winner, protected chips, removals,
and warnings about positions that a real game cannot produce.

>>> rows = ["#BBBBBBBB#", "GG........", "GGG.......", "..........", "..........",
...         "..........", "..........", "G.........", "G.........", "#........#"]
>>> verdict = judge(Board.from_rows(rows))
>>> verdict.sequences, verdict.winner
({'B': 2, 'G': 0}, ('B',))
>>> from referee.cells import cell
>>> removal(Board.from_rows(rows), cell(0, 4)).legal
False
>>> removal(Board.from_rows(rows), cell(1, 0)).legal
True
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from types import MappingProxyType
from typing import Mapping

from referee.board import CORNER_MARK, EMPTY, UNKNOWN, Board
from referee.cells import CHIP_SUPPLY, TEAM_NAMES, Cell, Team, cell_name, teams_for, win_target
from referee.sequences import TeamReading, read_team

MAX_REMOVALS = 8  # 4 one-eyed jacks, twice: a long game reshuffles the discards once


class WarningKind(str, Enum):
    """Stable codes for what is odd about a position (the page translates them)."""

    COLOUR_NOT_IN_GAME = "colour_not_in_game"
    MORE_THAN_SUPPLY = "more_than_supply"
    TURN_ORDER = "turn_order"
    SEVERAL_WINNERS = "several_winners"
    HIDDEN_MAY_WIN = "hidden_may_win"


@dataclass(frozen=True, slots=True)
class PositionWarning:
    kind: WarningKind
    message: str

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True, slots=True)
class Judgement:
    """Everything the referee can say about a board that has no history."""

    board: Board
    team_count: int
    readings: Mapping[Team, TeamReading]
    winner: tuple[Team, ...]
    warnings: tuple[PositionWarning, ...]

    @property
    def sequences(self) -> dict[Team, int]:
        return {team: reading.sequences for team, reading in self.readings.items()}

    @property
    def definitely_protected(self) -> frozenset[Cell]:
        return frozenset().union(*(r.definite for r in self.readings.values()))

    @property
    def possibly_protected(self) -> frozenset[Cell]:
        return frozenset().union(*(r.possible for r in self.readings.values()))


class RemovalKind(str, Enum):
    """Which answer a removal question got: a stable code for translations."""

    CORNER = "corner"
    NO_CHIP = "no_chip"
    HIDDEN_CELL = "hidden_cell"
    IN_SEQUENCE = "in_sequence"
    HIDDEN_NEARBY = "hidden_nearby"
    ORDER_UNKNOWN = "order_unknown"
    FREE = "free"


@dataclass(frozen=True, slots=True)
class Removal:
    """May a one-eyed jack remove the chip on a cell? ``legal`` is None when the photo alone
    cannot tell."""

    legal: bool | None
    reason: str
    kind: RemovalKind


def judge(board: Board, team_count: int = 2) -> Judgement:
    """Sequences, winner, protected chips and warnings for a game of ``team_count`` teams.

    Red chips on a two-team board are read (and warned about) but never win.
    """
    teams = teams_for(team_count)
    readings = {team: read_team(board, team) for team in teams}
    target = win_target(team_count)
    winner = tuple(team for team in teams if readings[team].sequences >= target)
    warnings = position_warnings(board, team_count, readings)
    return Judgement(board, team_count, MappingProxyType(readings), winner, warnings)


def removal(board: Board, c: Cell) -> Removal:
    """Whether an opponent may remove the chip on ``c`` with a one-eyed jack."""
    symbol = board[c]
    where = cell_name(c)
    if symbol == CORNER_MARK:
        return Removal(False, f"{where} is a corner: it is printed on the board, not a chip.", RemovalKind.CORNER)
    if symbol == EMPTY:
        return Removal(False, f"There is no chip on {where}.", RemovalKind.NO_CHIP)
    if symbol == UNKNOWN:
        return Removal(None, f"{where} is hidden in the photo: cannot tell whether a chip is there.",
                       RemovalKind.HIDDEN_CELL)
    team = TEAM_NAMES[symbol]
    reading = read_team(board, symbol)
    if c in reading.definite:
        return Removal(False, f"The {team} chip on {where} is part of a completed sequence: it can never be removed.",
                       RemovalKind.IN_SEQUENCE)
    if c in reading.possible:
        if UNKNOWN in board.cells and c not in _protected_if_nothing_hidden(board, symbol):
            return Removal(None, f"Hidden cells (?) near {where} may complete a {team} sequence: uncover them and "
                           "ask again.", RemovalKind.HIDDEN_NEARBY)
        return Removal(
            None,
            f"The {team} chip on {where} may be part of a completed sequence: it depends on which "
            "five chips were completed first, which a photo cannot show. The players who saw it decide.",
            RemovalKind.ORDER_UNKNOWN,
        )
    return Removal(True, f"The {team} chip on {where} is in no completed sequence: an opponent may remove it with "
                   "a one-eyed jack.", RemovalKind.FREE)


def _protected_if_nothing_hidden(board: Board, team: Team) -> frozenset[Cell]:
    reading = read_team(Board(board.cells.replace(UNKNOWN, EMPTY)), team)
    return reading.definite | reading.possible


def position_warnings(
    board: Board, team_count: int, readings: Mapping[Team, TeamReading] | None = None
) -> tuple[PositionWarning, ...]:
    """What a real game of ``team_count`` teams could not have produced, or leaves in doubt."""
    teams = teams_for(team_count)
    if readings is None:
        readings = {team: read_team(board, team) for team in teams}
    counts = {team: board.count(team) for team in "BGR"}
    hidden = board.count(UNKNOWN)
    warnings: list[PositionWarning] = []
    for team in "BGR":
        if counts[team] and team not in teams:
            warnings.append(PositionWarning(
                WarningKind.COLOUR_NOT_IN_GAME,
                f"{counts[team]} {TEAM_NAMES[team]} chip(s) on the board, but a {team_count}-team game "
                f"plays {' and '.join(TEAM_NAMES[t] for t in teams)} only.",
            ))
        if counts[team] > CHIP_SUPPLY[team]:
            warnings.append(PositionWarning(
                WarningKind.MORE_THAN_SUPPLY,
                f"{counts[team]} {TEAM_NAMES[team]} chips: more than a box holds ({CHIP_SUPPLY[team]}).",
            ))
    if not turn_order_allows([counts[t] for t in teams], hidden):
        listed = ", ".join(f"{counts[t]} {TEAM_NAMES[t]}" for t in teams)
        warnings.append(PositionWarning(
            WarningKind.TURN_ORDER,
            f"Chip counts {listed}: taking turns cannot produce this; check the reading or the game.",
        ))
    target = win_target(team_count)
    winners = [t for t in teams if readings[t].sequences >= target]
    if len(winners) > 1:
        warnings.append(PositionWarning(
            WarningKind.SEVERAL_WINNERS,
            f"{' and '.join(TEAM_NAMES[t] for t in winners)} all have {target} sequence(s): "
            "the game should have ended when the first one did.",
        ))
    for team in teams:
        reading = readings[team]
        if reading.sequences < target <= reading.most_sequences:
            warnings.append(PositionWarning(
                WarningKind.HIDDEN_MAY_WIN,
                f"{TEAM_NAMES[team].capitalize()} may have won: hidden cells (?) could complete a sequence. "
                "Uncover them and look again.",
            ))
    return tuple(warnings)


def turn_order_allows(counts: list[int], hidden: int = 0) -> bool:
    return _turn_order_allows(tuple(sorted(counts)), hidden)


@lru_cache(maxsize=4096)
def _turn_order_allows(counts: tuple[int, ...], hidden: int) -> bool:
    """Whether teams taking turns in order can leave these chip counts on the board.

    Each turn adds a chip of the player's team or removes one of an opponent's. With two
    teams the counts therefore never differ by more than one. With three, each removal
    raises the turn count of the remover and of the victim's team by one without a chip
    to show, and at most ``MAX_REMOVALS`` happen in a game. Hidden cells may hold any chip.

    >>> turn_order_allows([5, 4]), turn_order_allows([6, 4]), turn_order_allows([6, 4], hidden=1)
    (True, False, True)
    >>> turn_order_allows([3, 3, 1]), turn_order_allows([12, 1, 1])
    (True, False)
    """
    if hidden:
        return any(turn_order_allows(_with_hidden(counts, filling)) for filling in _fillings(counts, hidden))
    if len(counts) == 2:
        return abs(counts[0] - counts[1]) <= 1
    top = max(counts)
    for turns in range(top, top + MAX_REMOVALS + 1):
        # teams that already played this round have one turn more
        for extra in _SUBSETS[len(counts)]:
            missing = [turns + (i in extra) - c for i, c in enumerate(counts)]
            total = sum(missing)
            if min(missing) < 0 or total % 2 or total // 2 > MAX_REMOVALS:
                continue
            if 2 * max(missing) <= total:  # every removal pairs two different teams
                return True
    return False


# Teams that have had one turn more than the others: any but all of them.
_SUBSETS = {n: [{i for i in range(n) if mask >> i & 1} for mask in range(2**n - 1)] for n in (2, 3)}


def _fillings(counts: tuple[int, ...], hidden: int) -> list[tuple[int, ...]]:
    """Ways of giving up to ``hidden`` more chips to teams, each up to one more than the
    fullest team has (more would only widen the gap the hidden cells are to close)."""
    fillings: list[tuple[int, ...]] = [()]
    for count in counts:
        most = min(hidden, max(counts) + 1 - count)
        fillings = [f + (k,) for f in fillings for k in range(most + 1) if sum(f) + k <= hidden]
    return fillings


def _with_hidden(counts: list[int], filling: tuple[int, ...]) -> list[int]:
    return [c + k for c, k in zip(counts, filling)]
