"""Refereeing a game from the board alone, one accepted reading after another.

A camera sees chips, not cards: the live referee follows whose turn it is from the colours
played (teams play in the order of ``teams_for``), remembers the sequences completed and the
chips they protect, and the cell a one-eyed jack cleared this turn. Each reading that differs
from the last gives events through ``referee.moves.infer_move``.

>>> from referee.cells import cell
>>> live = LiveReferee(2, Board.empty())
>>> [e.type for e in live.observe(Board.empty().with_cell(cell(4, 4), "B"))]
['placed']
>>> [(e.type, e.detail.split(":")[0]) for e in live.observe(live.board.with_cell(cell(5, 5), "B"))]
[('placed', 'Blue placed a chip on row 5, column 5 (3♥).'), ('violation', 'out_of_turn')]
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.board import UNKNOWN, Board
from referee.cells import CORNERS, TEAM_NAMES, Cell, Team, cell_name, teams_for, win_target
from referee.game import new_sequence_options
from referee.judge import judge
from referee.moves import MoveKind, infer_move
from referee.sequences import Sequence, find_runs

SEQUENCE_LENGTH = 5


@dataclass(frozen=True, slots=True)
class LiveEvent:
    """One thing that happened at the table (see DESIGN's ``seqcam watch --json`` line)."""

    type: str  # "placed" | "removed" | "sequence" | "winner" | "violation"
    team: Team | None
    cell: Cell | None
    cells: tuple[Cell, ...] | None
    detail: str


def sequences_on(board: Board, team: Team) -> list[Sequence]:
    """Sequences a team is taken to have completed on a board seen with no history: each run
    of L cells gives its ``(L - 1) // 4`` windows from its start, sharing one cell."""
    found = []
    for run in find_runs(board, team):
        for k in range(run.sequences):
            found.append(Sequence(team, run.cells[4 * k : 4 * k + SEQUENCE_LENGTH]))
    return found


@dataclass(frozen=True, slots=True)
class _Seen:
    """What the live referee knew before a change, so that the players can take it back."""

    board: Board
    claimed: tuple[Sequence, ...]
    protected: frozenset[Cell]
    to_play: Team | None
    cleared: tuple[Cell, Team] | None
    winner: Team | None


class LiveReferee:
    """The game as seen so far; ``observe`` each new accepted reading of the board, ``undo``
    what the players take back."""

    def __init__(self, team_count: int, board: Board) -> None:
        """``board`` is the first reading: a game may be joined at any point."""
        self.team_count = team_count
        self.teams = teams_for(team_count)
        self.board = board
        self.claimed: list[Sequence] = [s for team in self.teams for s in sequences_on(board, team)]
        # chips certainly in a sequence whichever windows were completed: never a false alarm
        self.protected: set[Cell] = set(judge(board, team_count).definitely_protected)
        self.to_play: Team | None = None  # unknown until a team places a chip
        self.cleared: tuple[Cell, Team] | None = None
        self.winner: Team | None = self._leader()
        self._history: list[_Seen] = []

    def observe(self, after: Board) -> list[LiveEvent]:
        """The events between the last reading and ``after``; cells hidden in ``after`` keep
        what was known."""
        after = Board("".join(old if new == UNKNOWN else new for old, new in zip(self.board.cells, after.cells)))
        move = infer_move(self.board, after, team_count=self.team_count, to_play=self.to_play,
                          protected=frozenset(self.protected), cleared=self.cleared)
        events: list[LiveEvent] = []
        if move.kind == MoveKind.PLACED and move.team is not None and move.cell is not None:
            events.append(LiveEvent("placed", move.team, move.cell, None,
                                    f"{TEAM_NAMES[move.team].capitalize()} placed a chip on {cell_name(move.cell)}."))
        elif move.kind == MoveKind.REMOVED and move.team is not None and move.cell is not None:
            events.append(LiveEvent("removed", move.team, move.cell, None,
                                    f"A {TEAM_NAMES[move.team]} chip was removed from {cell_name(move.cell)}."))
        for violation in move.violations:
            events.append(LiveEvent("violation", move.team, violation.cells[0] if violation.cells else None,
                                    violation.cells, f"{violation.kind.value}: {violation.message}"))
        remover = self._remover(move.team) if move.kind == MoveKind.REMOVED else None
        if after != self.board:
            self._history.append(_Seen(self.board, tuple(self.claimed), frozenset(self.protected), self.to_play,
                                       self.cleared, self.winner))
        self.board = after
        if move.kind == MoveKind.PLACED and move.team is not None and move.cell is not None:
            events += self._claim(move.team, move.cell)
            self._next_after(move.team)
            self.cleared = None
        elif move.kind == MoveKind.REMOVED and move.cell is not None:
            self.protected.discard(move.cell)
            self.cleared = (move.cell, remover) if remover is not None else None
            self.to_play = None
            if remover is not None:
                self._next_after(remover)
        elif move.kind == MoveKind.SEVERAL:
            self.to_play, self.cleared = None, None  # whose turn it is can no longer be told
        return events

    def undo(self) -> Board:
        """Takes back the last change (the players say it did not happen, or was misread) and
        returns the board as it was before it. Raises ``ValueError`` when nothing is left to undo.

        >>> live = LiveReferee(2, Board.empty())
        >>> _ = live.observe(Board.empty().with_cell(44, "B"))
        >>> live.undo() == Board.empty(), live.to_play
        (True, None)
        """
        if not self._history:
            raise ValueError("Nothing to undo: no move has been seen since the game was joined.")
        seen = self._history.pop()
        self.board, self.claimed, self.protected = seen.board, list(seen.claimed), set(seen.protected)
        self.to_play, self.cleared, self.winner = seen.to_play, seen.cleared, seen.winner
        return self.board

    def lose_track(self) -> None:
        """Moves may have gone unseen (the board was out of view): whose turn it is is unknown
        until the next chip placed, so nobody is wrongly called out of turn."""
        self.to_play, self.cleared = None, None

    def _claim(self, team: Team, c: Cell) -> list[LiveEvent]:
        options = new_sequence_options(self.board.cells, c, team, self.claimed)
        chosen = options[0]
        events = []
        for sequence in chosen:
            self.claimed.append(sequence)
            self.protected.update(x for x in sequence.cells if x not in CORNERS)
            detail = f"{TEAM_NAMES[team].capitalize()} completed a sequence."
            if len(options) > 1:
                detail += " Other windows were possible: the players choose which five cells count."
            events.append(LiveEvent("sequence", team, None, sequence.cells, detail))
        if chosen and self.winner is None and self._leader() == team:
            self.winner = team
            events.append(LiveEvent("winner", team, None, None, f"{TEAM_NAMES[team].capitalize()} wins."))
        return events

    def _leader(self) -> Team | None:
        target = win_target(self.team_count)
        reached = [t for t in self.teams if sum(s.team == t for s in self.claimed) >= target]
        return reached[0] if len(reached) == 1 else None

    def _remover(self, owner: Team | None) -> Team | None:
        """Who played the one-eyed jack: the team to play, or with two teams the other one."""
        if self.to_play is not None and self.to_play != owner:
            return self.to_play
        others = [t for t in self.teams if t != owner]
        return others[0] if len(others) == 1 else None

    def _next_after(self, team: Team) -> None:
        self.to_play = self.teams[(self.teams.index(team) + 1) % len(self.teams)]
