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

The players correct it (each correction is an event too, flagged ``correction``): ``undo``
takes back the last change, ``confirm`` states the true content of cells, ``choose`` picks
the five cells of a sequence when several windows fit.

>>> [e.type for e in live.undo()], [(e.type, e.correction) for e in live.confirm({cell(5, 5): "G"})]
(['undo'], [('confirm', True), ('placed', True)])
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, replace
from itertools import combinations, product

from referee.board import CORNER_MARK, EMPTY, UNKNOWN, Board, turned_cell
from referee.cells import (
    CELLS,
    CORNERS,
    TEAM_NAMES,
    Cell,
    Team,
    cell_col,
    cell_name,
    cell_row,
    teams_for,
    win_target,
)
from referee.errors import CorrectionError
from referee.game import new_sequence_options
from referee.judge import judge
from referee.lines import LINES
from referee.moves import MoveKind, infer_move, removal_violations
from referee.sequences import Sequence, find_runs

SEQUENCE_LENGTH = 5


@dataclass(frozen=True, slots=True)
class LiveEvent:
    """One thing that happened at the table (see DESIGN's ``seqcam watch --json`` line)."""

    type: str  # "placed" | "removed" | "sequence" | "sequence_possible" | "winner" | "violation" | "undo" | "confirm" |
    # "choose" | "turn"
    team: Team | None
    cell: Cell | None
    cells: tuple[Cell, ...] | None
    detail: str
    correction: bool = False  # a correction by the players, or an event that follows from one
    # a sequence where several windows fit: every set of windows the players may choose
    # (numbered from 1 in ``detail`` and in ``LiveReferee.choose``); None when there is no choice
    options: tuple[tuple[tuple[Cell, ...], ...], ...] | None = None
    rule: str | None = None  # on a violation: the broken rule's code (``ViolationKind``), for the page


@dataclass(frozen=True, slots=True)
class SequenceChoice:
    """The sequences a chip completed where several windows fit: ``options[chosen - 1]`` counts
    until the players choose. Only the latest such choice is open; it closes when its team
    completes another sequence (which was judged with the windows taken then)."""

    team: Team
    cell: Cell  # the chip that completed them
    options: tuple[tuple[Sequence, ...], ...]
    chosen: int  # from 1


def window_text(cells: Iterable[Cell]) -> str:
    """A window for people, its first and last cells as ROW,COL.

    >>> window_text((1, 2, 3, 4, 5))
    '0,1-0,5'
    """
    ordered = sorted(cells)
    return f"{cell_row(ordered[0])},{cell_col(ordered[0])}-{cell_row(ordered[-1])},{cell_col(ordered[-1])}"


def option_text(option: Iterable[Sequence]) -> str:
    return " + ".join(window_text(s.cells) for s in option)


def options_text(options: tuple[tuple[Sequence, ...], ...]) -> str:
    """``1) 0,0-0,4; 2) 0,1-0,5``: the options as the players see them numbered."""
    return "; ".join(f"{n}) {option_text(option)}" for n, option in enumerate(options, start=1))


def sequences_on(board: Board, team: Team) -> list[Sequence]:
    """Sequences a team is taken to have completed on a board seen with no history: each run
    of L cells gives its ``(L - 1) // 4`` windows from its start, sharing one cell."""
    found = []
    for run in find_runs(board, team):
        for k in range(run.sequences):
            found.append(Sequence(team, run.cells[4 * k : 4 * k + SEQUENCE_LENGTH]))
    return found


def run_around(grid: str, line: tuple[Cell, ...], window: tuple[Cell, ...], team: Team) -> tuple[Cell, ...]:
    """The longest stretch of ``line`` holding ``team``'s chips or corners that holds ``window``."""
    start, stop = line.index(window[0]), line.index(window[-1]) + 1
    while start > 0 and grid[line[start - 1]] in (team, CORNER_MARK):
        start -= 1
    while stop < len(line) and grid[line[stop]] in (team, CORNER_MARK):
        stop += 1
    return line[start:stop]


def _on_one_line(a: Sequence, b: Sequence) -> bool:
    return any(set(a.cells) | set(b.cells) <= set(line) for line in LINES)


def _share_at_most_one(windows: Iterable[Sequence], others: Iterable[Sequence]) -> bool:
    others = list(others)
    return all(len(set(a.cells) & set(b.cells)) <= 1 for a in windows for b in others if a is not b)


def unknown_windows_moved(grid: str, c: Cell, team: Team, claimed: list[Sequence],
                          unknown: Collection[Sequence]) -> list[Sequence]:
    """``claimed`` with ``team``'s windows whose five cells nobody saw chosen (``unknown``: a
    game joined when they were already made) moved within their runs on the lines through
    ``c`` to where ``team``'s chip on ``c`` (already in ``grid``) completes the most new
    sequences; as they were unless that makes more. One reading of the past, which only the
    players can confirm: a run of 8 seen at the start and lengthened to 9 holds two sequences
    only if they had taken the five at the far end (``LiveReferee._with_unseen_windows_moved``)."""
    before = grid[:c] + EMPTY + grid[c + 1:]
    runs: dict[tuple[Cell, ...], list[Sequence]] = {}
    for line in (line for line in LINES if c in line):
        for s in claimed:
            if s in unknown and s.team == team and set(s.cells) <= set(line):
                runs.setdefault(run_around(before, line, s.cells, team), []).append(s)
    if not runs:
        return claimed
    moving = [s for windows in runs.values() for s in windows]
    kept = [s for s in claimed if s not in moving]

    def placings(run: tuple[Cell, ...], count: int) -> list[tuple[Sequence, ...]]:
        windows = [Sequence(team, run[i:i + SEQUENCE_LENGTH]) for i in range(len(run) - SEQUENCE_LENGTH + 1)]
        return [chosen for chosen in combinations(windows, count) if _share_at_most_one(chosen, chosen)]

    def made(placed: list[Sequence]) -> int:
        return len(new_sequence_options(grid, c, team, kept + placed)[0])

    kept_own = [s for s in kept if s.team == team]
    best, most = None, made(moving)
    for choice in product(*(placings(run, len(windows)) for run, windows in runs.items())):
        placed = [s for chosen in choice for s in chosen]
        if not _share_at_most_one(placed, kept_own):
            continue
        count = made(placed)
        if count > most:
            best, most = placed, count
    return claimed if best is None else kept + best


def _turned_sequence(sequence: Sequence, k: int) -> Sequence:
    return Sequence(sequence.team, tuple(sorted(turned_cell(c, k) for c in sequence.cells)))


def _turned_event(event: LiveEvent, k: int) -> LiveEvent:
    """An event as told on the board turned ``k`` quarter turns (only where undo tells it again)."""
    return replace(event, cell=turned_cell(event.cell, k) if event.cell is not None else None,
                   cells=tuple(turned_cell(c, k) for c in event.cells) if event.cells is not None else None)


def _turned_state(board: Board, claimed: Iterable[Sequence], protected: Iterable[Cell],
                  cleared: tuple[Cell, Team] | None, choice: SequenceChoice | None, k: int
                  ) -> tuple[Board, list[Sequence], set[Cell], tuple[Cell, Team] | None, SequenceChoice | None]:
    """What the live referee knows, turned ``k`` quarter turns clockwise."""
    turned_choice = None if choice is None else SequenceChoice(
        choice.team, turned_cell(choice.cell, k),
        tuple(tuple(_turned_sequence(s, k) for s in option) for option in choice.options), choice.chosen)
    return (board.transformed(k), [_turned_sequence(s, k) for s in claimed], {turned_cell(c, k) for c in protected},
            (turned_cell(cleared[0], k), cleared[1]) if cleared is not None else None, turned_choice)


@dataclass(frozen=True, slots=True)
class _Seen:
    """What the live referee knew before a change, so that the players can take it back."""

    board: Board
    claimed: tuple[Sequence, ...]
    protected: frozenset[Cell]
    to_play: Team | None
    cleared: tuple[Cell, Team] | None
    winner: Team | None
    choice: SequenceChoice | None
    change: LiveEvent | None  # the first event of the change, to say what an undo takes back


def _turned_seen(seen: _Seen, k: int) -> _Seen:
    board, claimed, protected, cleared, choice = _turned_state(seen.board, seen.claimed, seen.protected, seen.cleared,
                                                               seen.choice, k)
    return replace(seen, board=board, claimed=tuple(claimed), protected=frozenset(protected), cleared=cleared,
                   choice=choice, change=_turned_event(seen.change, k) if seen.change is not None else None)


class LiveReferee:
    """The game as seen so far; ``observe`` each new accepted reading of the board, ``undo``
    what the players take back."""

    def __init__(self, team_count: int, board: Board) -> None:
        """``board`` is the first reading: a game may be joined at any point."""
        self.team_count = team_count
        self.teams = teams_for(team_count)
        self.board = board
        self.claimed: list[Sequence] = [s for team in self.teams for s in sequences_on(board, team)]
        self.unseen_made: set[Sequence] = set(self.claimed)  # their five cells are a guess: see _claim
        # chips certainly in a sequence whichever windows were completed: never a false alarm
        self.protected: set[Cell] = set(judge(board, team_count).definitely_protected)
        self.to_play: Team | None = None  # unknown until a team places a chip
        self.cleared: tuple[Cell, Team] | None = None
        self.winner: Team | None = self._leader()
        self.choice: SequenceChoice | None = None  # the latest sequence the players may still choose
        self._history: list[_Seen] = []
        self.unseen = False  # the board was out of view since the last change seen
        self.doubted: set[Cell] = set()  # cells known empty, read ? since: a chip may lie there unseen

    def observe(self, after: Board) -> list[LiveEvent]:
        """The events between the last reading and ``after``; cells hidden in ``after`` keep
        what was known; a cell known empty that can no longer be read may hold a chip placed
        unseen: whose turn it is is unknown until the next chip placed."""
        doubted, was_doubted = {c for c in CELLS if self.board[c] == EMPTY and after[c] == UNKNOWN}, self.doubted
        if doubted - was_doubted:
            self.to_play, self.cleared = None, None
        self.doubted = doubted
        after = Board("".join(old if new == UNKNOWN else new for old, new in zip(self.board.cells, after.cells)))
        unseen, self.unseen = self.unseen, self.unseen and after == self.board
        move = infer_move(self.board, after, team_count=self.team_count, to_play=self.to_play,
                          protected=frozenset(self.protected), cleared=self.cleared)
        if unseen and move.kind == MoveKind.SEVERAL:
            return self._caught_up(after)
        events: list[LiveEvent] = []
        if move.kind == MoveKind.PLACED and move.team is not None and move.cell is not None:
            events.append(LiveEvent("placed", move.team, move.cell, None,
                                    f"{TEAM_NAMES[move.team].capitalize()} placed a chip on {cell_name(move.cell)}."))
        elif move.kind == MoveKind.REMOVED and move.team is not None and move.cell is not None:
            events.append(LiveEvent("removed", move.team, move.cell, None,
                                    f"A {TEAM_NAMES[move.team]} chip was removed from {cell_name(move.cell)}."))
        for violation in move.violations:
            events.append(LiveEvent("violation", move.team, violation.cells[0] if violation.cells else None,
                                    violation.cells, f"{violation.kind.value}: {violation.message}",
                                    rule=violation.kind.value))
        remover = self._remover(move.team) if move.kind == MoveKind.REMOVED else None
        if after != self.board:
            self._remember(events[0] if events else None)
        revealed = self._revealed(after, move.cell)
        self.board = after
        self._take_in(revealed)
        if move.kind == MoveKind.PLACED and move.team is not None and move.cell is not None:
            events += self._claim(move.team, move.cell)
            self._next_after(move.team)
            if move.cell in was_doubted:  # a chip seen late: placed when, in whose turn, is unknown
                self.to_play = None
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

    def undo(self) -> list[LiveEvent]:
        """Takes back the last change (a move the players say did not happen or was misread, or
        a correction) and gives the ``undo`` event; ``board`` is then as it was before it.
        Raises ``CorrectionError`` when nothing is left to undo.

        >>> live = LiveReferee(2, Board.empty())
        >>> _ = live.observe(Board.empty().with_cell(44, "B"))
        >>> [(e.type, e.cell, e.detail) for e in live.undo()]
        [('undo', 44, 'Taken back: Blue placed a chip on row 4, column 4 (5♥).')]
        >>> live.board == Board.empty(), live.to_play
        (True, None)
        """
        if not self._history:
            raise CorrectionError("Nothing to undo: no move has been seen since the game was joined.")
        seen = self._history.pop()
        self.board, self.claimed, self.protected = seen.board, list(seen.claimed), set(seen.protected)
        self.to_play, self.cleared, self.winner = seen.to_play, seen.cleared, seen.winner
        self.choice = seen.choice
        change = seen.change
        what = change.detail if change is not None else "a change of the board."
        return [LiveEvent("undo", change.team if change else None, change.cell if change else None,
                          change.cells if change else None, f"Taken back: {what}", correction=True)]

    def confirm(self, stated: Mapping[Cell, str]) -> list[LiveEvent]:
        """The players state the true content of cells (``.`` or a team's letter): the board
        takes it from now on. Gives the ``confirm`` event, then the events that follow from it
        (a chip placed or removed, a sequence completed or no longer complete, a winner), all
        flagged as a correction. Whose turn it is is unknown again when a cell read before
        changes. Raises ``CorrectionError`` for a corner, a colour not in this game, or nothing
        stated.

        >>> live = LiveReferee(2, Board.empty().with_cell(44, "?"))
        >>> [(e.type, e.team, e.cell) for e in live.confirm({44: "B", 45: "."})]
        [('confirm', None, None), ('placed', 'B', 44)]
        """
        if not stated:
            raise CorrectionError("Say which cells to confirm and what is on them.")
        for c, symbol in stated.items():
            if c in CORNERS:
                raise CorrectionError(f"{cell_name(c)} is a corner: it counts for every team and holds no chip.")
            if symbol != EMPTY and symbol not in self.teams:
                names = ", ".join(TEAM_NAMES[t] for t in self.teams)
                raise CorrectionError(f"{symbol!r} is not a chip of this game: a cell is empty or holds {names}.")
        after = self.board
        for c, symbol in stated.items():
            after = after.with_cell(c, symbol)
        said = "; ".join(f"{cell_row(c)},{cell_col(c)} {TEAM_NAMES.get(s, 'empty')}" for c, s in sorted(stated.items()))
        changed = [c for c in sorted(stated) if after[c] != self.board[c]]
        confirm = LiveEvent("confirm", None, None, tuple(sorted(stated)), f"The players confirmed: {said}.", True)
        if not changed:
            return [LiveEvent(confirm.type, None, None, confirm.cells, f"{confirm.detail[:-1]} (as read).", True)]
        self._remember(confirm)
        before, self.board = self.board, after
        events: list[LiveEvent] = []
        for c in changed:
            old, new = before[c], after[c]
            if old in self.teams:
                events.append(LiveEvent("removed", old, c, None, f"The {TEAM_NAMES[old]} chip on {cell_name(c)} "
                                        "was taken off the record by the players.", True))
            if new in self.teams:
                events.append(LiveEvent("placed", new, c, None, f"{TEAM_NAMES[new].capitalize()} chip on "
                                        f"{cell_name(c)}, as the players say.", True))
        events += self._drop_broken()
        for c in changed:
            if after[c] in self.teams:
                events += self._claim(after[c], c, correction=True)
        if any(before[c] != UNKNOWN for c in changed):
            self.to_play, self.cleared = None, None
        return [confirm, *events]

    def turn(self, quarter_turns: int) -> list[LiveEvent]:
        """The players say the printed top is another side (the camera could not tell it: no
        printed card showed): everything known is moved ``quarter_turns`` clockwise, the earlier
        states that ``undo`` brings back too. Gives the ``turn`` event (not itself undone: turn
        back instead).

        >>> live = LiveReferee(2, Board.empty().with_cell(12, "B"))
        >>> [(e.type, e.detail) for e in live.turn(1)]
        [('turn', 'The players turned the board a quarter turn clockwise: its printed top is now row 0.')]
        >>> live.board[28]
        'B'
        """
        k = quarter_turns % 4
        self.board, self.claimed, self.protected, self.cleared, self.choice = _turned_state(
            self.board, self.claimed, self.protected, self.cleared, self.choice, k)
        self.doubted = {turned_cell(c, k) for c in self.doubted}
        self.unseen_made = {_turned_sequence(s, k) for s in self.unseen_made}
        self._history = [_turned_seen(seen, k) for seen in self._history]
        how = {1: "a quarter turn clockwise", 2: "half a turn", 3: "a quarter turn anticlockwise"}.get(k, "not at all")
        return [LiveEvent("turn", None, None, None,
                          f"The players turned the board {how}: its printed top is now row 0.", True)]

    def choose(self, number: int) -> list[LiveEvent]:
        """The players choose which windows count for the open ``choice`` (``number`` from 1,
        as the sequence event listed them). Gives the ``choose`` event and the chosen
        ``sequence`` events (they replace the ones taken for now); the chosen cells are
        protected, the others no longer. Raises ``CorrectionError`` when no choice is open,
        the number is not an option, or its window is no longer complete on the board.
        """
        choice = self.choice
        if choice is None:
            raise CorrectionError("No sequence is waiting for a choice: every sequence so far had only one "
                                  "possible set of five cells, or was settled when the team completed another.")
        if not 1 <= number <= len(choice.options):
            raise CorrectionError(f"There are {len(choice.options)} options: {options_text(choice.options)}. "
                                  "Choose one of their numbers.")
        taken, wanted = choice.options[choice.chosen - 1], choice.options[number - 1]
        broken = [s for s in wanted if not self._complete(s)]
        if broken:
            raise CorrectionError(f"{window_text(broken[0].cells)} is no longer complete for "
                                  f"{TEAM_NAMES[choice.team]} on the board.")
        team_name = TEAM_NAMES[choice.team]
        said = f"The players chose option {number} for {team_name}'s sequence: {option_text(wanted)}."
        event = LiveEvent("choose", choice.team, choice.cell, None, said, True)
        if number != choice.chosen:
            self._remember(event)
            self._unclaim(taken)
            self.claimed += list(wanted)
            self.protected.update(x for s in wanted for x in s.cells if x not in CORNERS)
            self.choice = SequenceChoice(choice.team, choice.cell, choice.options, number)
        name = team_name.capitalize()
        events = [event, *(LiveEvent("sequence", choice.team, None, s.cells,
                                     f"{name}'s sequence is {window_text(s.cells)}, as the players chose.", True)
                           for s in wanted)]
        if self.winner is None and self._leader() == choice.team:
            self.winner = choice.team
            events.append(LiveEvent("winner", choice.team, None, None, f"{name} wins.", True))
        elif self.winner == choice.team and self._leader() != choice.team:
            self.winner = None
            events.append(LiveEvent("winner_undone", choice.team, None, None, f"{name} has not won after all.", True))
        return events

    def lose_track(self) -> None:
        """Moves may have gone unseen (the board was out of view): whose turn it is is unknown
        until the next chip placed, so nobody is wrongly called out of turn, and the first
        reading that changes the board may show several moves at once."""
        self.to_play, self.cleared = None, None
        self.unseen = True

    def _caught_up(self, after: Board) -> list[LiveEvent]:
        """The board back in view with more changed than one move does: the moves made while it
        was out of view. Each chip placed or removed is told, and only a chip of a completed
        sequence taken off is a violation: how many turns went by, and whose, is unknown.

        >>> live = LiveReferee(2, Board.empty())
        >>> live.lose_track()
        >>> [(e.type, e.team, e.cell) for e in live.observe(Board.empty().with_cell(44, "B").with_cell(45, "G"))]
        [('placed', 'B', 44), ('placed', 'G', 45)]
        """
        changed = [c for c in CELLS if after[c] != self.board[c]]
        told = [c for c in changed if self.board[c] != UNKNOWN]  # unknown before: it shows what it held (infer_move)
        unseen = " while the board was out of view."
        events = [LiveEvent("removed", self.board[c], c, None, f"A {TEAM_NAMES[self.board[c]]} chip was removed from "
                            f"{cell_name(c)}{unseen}") for c in told if self.board[c] in self.teams]
        events += [LiveEvent("placed", after[c], c, None, f"{TEAM_NAMES[after[c]].capitalize()} placed a chip on "
                             f"{cell_name(c)}{unseen}") for c in told if after[c] in self.teams]
        for c in changed:
            if self.board[c] in self.teams:
                events += [LiveEvent("violation", self.board[c], c, v.cells, f"{v.kind.value}: {v.message}",
                                     rule=v.kind.value)
                           for v in removal_violations(c, self.board[c], None, c in self.protected)]
        self._remember(events[0] if events else None)
        revealed = self._revealed(after)
        self.board = after
        self.protected.difference_update(changed)  # as for one removal seen: the claim stands
        self._take_in(revealed)
        for c in told:
            if after[c] in self.teams:
                events += self._claim(after[c], c)
        self.to_play, self.cleared = None, None
        return events

    def _claim(self, team: Team, c: Cell, correction: bool = False) -> list[LiveEvent]:
        options = new_sequence_options(self.board.cells, c, team, self.claimed)
        if len(options) == 1:
            options = self._with_unseen_windows_moved(team, c, options[0])
        chosen = options[0]
        events = []
        name = TEAM_NAMES[team].capitalize()
        offered = tuple(tuple(s.cells for s in option) for option in options) if len(options) > 1 else None
        made = [s for s in chosen if s not in self.claimed]  # an option may keep windows already claimed
        for sequence in made:
            self.claimed.append(sequence)
            self.protected.update(x for x in sequence.cells if x not in CORNERS)
            detail = f"{name} completed a sequence."
            if offered:
                detail += (f" Several windows fit: {options_text(options)}. Option 1 counts until the players "
                           "choose.")
            events.append(LiveEvent("sequence", team, None, sequence.cells, detail, correction, offered))
        # a window made unseen that a new one on its line builds on is one the players took
        self.protected.update(x for s in self.claimed if s in self.unseen_made and s.team == team
                              for new in made if _on_one_line(s, new) for x in s.cells if x not in CORNERS)
        if offered and not made:
            events.append(LiveEvent(
                "sequence_possible", team, None, None,
                f"{name} may have completed a sequence: it counts if the five cells taken for {name.lower()}'s "
                f"earlier sequence, made before the game was followed, were those of option 2. Options: "
                f"{options_text(options)}. Option 1 counts until the players choose.", correction, offered))
        if offered:  # the latest choice is the open one
            self.choice = SequenceChoice(team, c, options, 1)
        elif made and self.choice is not None and self.choice.team == team:
            self.choice = None  # the team built on it: the windows taken for now stand
        if made and self.winner is None and self._leader() == team:
            self.winner = team
            events.append(LiveEvent("winner", team, None, None, f"{name} wins.", correction))
        return events

    def _with_unseen_windows_moved(self, team: Team, c: Cell, made: tuple[Sequence, ...]
                                   ) -> tuple[tuple[Sequence, ...], ...]:
        """The sequences a chip on ``c`` makes (``made``, no choice), and a second option where
        the team's windows made before the game was followed lie elsewhere in their runs and
        the chip makes more: which five the players took then is theirs to say (a run of 8
        seen at the start and made 9 is two sequences only if the first was at an end)."""
        moved = unknown_windows_moved(self.board.cells, c, team, self.claimed, self.unseen_made)
        if moved == self.claimed:
            return (made,)
        taken_before = tuple(s for s in self.claimed if s not in moved)
        taken_instead = tuple(s for s in moved if s not in self.claimed)
        more = new_sequence_options(self.board.cells, c, team, moved)[0]
        self.unseen_made.update(taken_instead)
        return taken_before + made, taken_instead + more

    def _revealed(self, after: Board, moved: Cell | None = None) -> list[Cell]:
        """The chips in ``after`` on cells not read until now (hidden in the first reading), but ``moved``."""
        return [c for c in CELLS if self.board[c] == UNKNOWN and after[c] in self.teams and c != moved]

    def _take_in(self, revealed: Iterable[Cell]) -> None:
        """Chips that were on the board all along, for all anyone knows, count as the first
        reading's do: the sequences they complete are claimed with no event (they were made
        before), their chips protected only where every window the players may have taken
        holds them, and a team that thereby has the target is the winner."""
        for c in revealed:
            team = self.board[c]
            options = new_sequence_options(self.board.cells, c, team, self.claimed)
            self.claimed.extend(options[0])
            self.unseen_made.update(options[0])
            in_every = set.intersection(*({x for s in option for x in s.cells} for option in options))
            self.protected.update(in_every - set(CORNERS))
        if self.winner is None:
            self.winner = self._leader()

    def _complete(self, sequence: Sequence) -> bool:
        return all(self.board[x] in (sequence.team, CORNER_MARK) for x in sequence.cells)

    def _unclaim(self, dropped: Iterable[Sequence]) -> None:
        """Sequences that no longer count: their chips stay protected only as part of another."""
        dropped = list(dropped)
        self.claimed = [s for s in self.claimed if s not in dropped]
        still = {x for s in self.claimed for x in s.cells}
        self.protected -= {x for s in dropped for x in s.cells} - still

    def _drop_broken(self) -> list[LiveEvent]:
        """After a correction: sequences no longer complete on the board do not count, their
        chips are no longer protected, and a winner who no longer has the target is none."""
        broken = [s for s in self.claimed if not self._complete(s)]
        if not broken:
            return []
        self._unclaim(broken)
        if self.choice is not None and any(s in broken for s in self.choice.options[self.choice.chosen - 1]):
            self.choice = None
        events = [LiveEvent("sequence_undone", s.team, None, s.cells,
                            f"{TEAM_NAMES[s.team].capitalize()}'s sequence {window_text(s.cells)} no longer counts.",
                            True) for s in broken]
        if self.winner is not None and self._leader() != self.winner:
            events.append(LiveEvent("winner_undone", self.winner, None, None,
                                    f"{TEAM_NAMES[self.winner].capitalize()} has not won after all.", True))
            self.winner = None
        return events

    def _remember(self, change: LiveEvent | None) -> None:
        """Keeps what the referee knew before a change, so that ``undo`` can take it back."""
        self._history.append(_Seen(self.board, tuple(self.claimed), frozenset(self.protected), self.to_play,
                                   self.cleared, self.winner, self.choice, change))

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
