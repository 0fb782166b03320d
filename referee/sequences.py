"""Sequences on a board that has no history (a photo): counts, runs, protected chips.

A team's chips and the corners form runs along each line. Two sequences of a team share at
most one cell, and lines in different directions meet in at most one cell, so the largest
set of sequences is found line by line: a run of L cells holds ``(L - 1) // 4`` of them.

>>> rows = ["#BBBB....#", "..........", "..........", "..........", "..........",
...         "..........", "..........", "..........", "..........", "#........#"]
>>> runs = find_runs(Board.from_rows(rows), "B")
>>> runs[0].cells, runs[0].sequences
((0, 1, 2, 3, 4), 1)

A run of 6 holds one sequence; its inner four cells are in it whichever five were
completed, its two ends only possibly:

>>> run = find_runs(Board.from_rows(rows[:2] + ["..BBBBBB.."] + rows[3:]), "B")[-1]
>>> sorted(run.definite), sorted(run.possible)
([23, 24, 25, 26], [22, 27])
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import product

from referee.board import CORNER_MARK, UNKNOWN, Board
from referee.cells import CORNERS, Cell, Team
from referee.lines import LINES, SEQUENCE_LENGTH


@dataclass(frozen=True, slots=True, order=True)
class Sequence:
    """A completed sequence: five cells along one line, in increasing order."""

    team: Team
    cells: tuple[Cell, ...]

    def shared_with(self, other: Sequence) -> int:
        return len(set(self.cells) & set(other.cells))


@dataclass(frozen=True, slots=True)
class SequenceRun:
    """A straight run of 5 or more cells of one team (corners included) along one line.

    ``sequences`` is how many sequences the run holds; ``definite`` are its cells that lie in
    a sequence whichever windows were completed, ``possible`` those that lie in one only for
    some choices. With hidden cells, ``sequences`` counts the certain ones only.
    """

    team: Team
    cells: tuple[Cell, ...]
    sequences: int
    definite: frozenset[Cell]
    possible: frozenset[Cell]


@dataclass(frozen=True, slots=True)
class _LineVerdict:
    """What one pattern of one line holds, as offsets into the line."""

    sequences: int  # certain, whatever the hidden cells are
    most_sequences: int  # if every hidden cell were the team's
    runs: tuple[tuple[int, int], ...]  # (start, stop) of runs of 5+ when hidden cells are not the team's
    definite: frozenset[int]
    possible: frozenset[int]


def sequences_in_run(length: int) -> int:
    """How many sequences a straight run holds: 9 and 10 hold two, 5 to 8 one.

    >>> [sequences_in_run(n) for n in range(4, 11)]
    [0, 1, 1, 1, 1, 2, 2]
    """
    return (length - 1) // (SEQUENCE_LENGTH - 1) if length >= SEQUENCE_LENGTH else 0


@lru_cache(maxsize=None)
def _run_coverage(length: int) -> tuple[frozenset[int], frozenset[int]]:
    """Offsets of a run covered by every / by some largest set of windows."""
    wanted = sequences_in_run(length)
    step = SEQUENCE_LENGTH - 1  # windows of one team on one line overlap in at most one cell
    every: set[int] | None = None
    some: set[int] = set()
    for starts in product(range(length - SEQUENCE_LENGTH + 1), repeat=wanted):
        if any(b - a < step for a, b in zip(starts, starts[1:])):
            continue
        covered = {s + i for s in starts for i in range(SEQUENCE_LENGTH)}
        every = covered if every is None else every & covered
        some |= covered
    every = every or set()
    return frozenset(every), frozenset(some - every)


def _runs_of(pattern: str) -> list[tuple[int, int]]:
    """(start, stop) of each run of '1' of sequence length or more."""
    runs, start = [], None
    for i, symbol in enumerate(pattern + "0"):
        if symbol == "1" and start is None:
            start = i
        elif symbol != "1" and start is not None:
            if i - start >= SEQUENCE_LENGTH:
                runs.append((start, i))
            start = None
    return runs


def _known_verdict(pattern: str) -> tuple[int, frozenset[int], frozenset[int]]:
    count, definite, possible = 0, set(), set()
    for start, stop in _runs_of(pattern):
        count += sequences_in_run(stop - start)
        every, some = _run_coverage(stop - start)
        definite |= {start + i for i in every}
        possible |= {start + i for i in some}
    return count, frozenset(definite), frozenset(possible)


@lru_cache(maxsize=None)
def _line_verdict(pattern: str) -> _LineVerdict | None:
    """The verdict on a line pattern of '1' (team or corner), '0' and '?' (hidden), or None
    when the line can hold no sequence whatever the hidden cells are."""
    if "11111" not in pattern.replace(UNKNOWN, "1"):
        return None
    hidden = [i for i, symbol in enumerate(pattern) if symbol == UNKNOWN]
    low = pattern.replace(UNKNOWN, "0")
    count, definite, possible = _known_verdict(low)
    most = _known_verdict(pattern.replace(UNKNOWN, "1"))[0]
    if hidden:
        # Sound under every filling of the hidden cells: definite only if always definite,
        # possible if protected under some filling.
        everywhere: frozenset[int] | None = None
        anywhere: set[int] = set()
        for filling in product("01", repeat=len(hidden)):
            cells = list(pattern)
            for i, symbol in zip(hidden, filling):
                cells[i] = symbol
            _, d, p = _known_verdict("".join(cells))
            everywhere = d if everywhere is None else everywhere & d
            anywhere |= d | p
        definite = everywhere or frozenset()
        possible = frozenset(anywhere - definite)
    return _LineVerdict(count, most, tuple(_runs_of(low)), definite, possible)


# Each line as a slice of the 100-symbol board string: lines are arithmetic in cell index.
_LINE_SLICES = tuple((line, slice(line[0], line[-1] + 1, line[1] - line[0])) for line in LINES)

# A fast filter on bitmasks (bit i is cell i): a window of step s starts at cell i when
# bits i, i+s, ..., i+4s are set. Only lines holding such a start are read in detail.
_LINE_OF_WINDOW_START = {
    (line[1] - line[0], line[i]): index
    for index, line in enumerate(LINES)
    for i in range(len(line) - SEQUENCE_LENGTH + 1)
}
_WINDOW_STARTS = {
    step: sum(1 << start for (s, start) in _LINE_OF_WINDOW_START if s == step)
    for step in sorted({step for step, _ in _LINE_OF_WINDOW_START})
}
_LINE_STARTS = [0] * len(LINES)
for (_step, _start), _index in _LINE_OF_WINDOW_START.items():
    _LINE_STARTS[_index] |= 1 << _start


def _lines_with_windows(mask: int) -> list[int]:
    """Indices of the lines on which ``mask`` fills at least one 5-cell window."""
    found = []
    for step, starts in _WINDOW_STARTS.items():
        window_starts = mask & (mask >> step) & (mask >> 2 * step) & (mask >> 3 * step) & (mask >> 4 * step) & starts
        while window_starts:
            index = _LINE_OF_WINDOW_START[step, (window_starts & -window_starts).bit_length() - 1]
            found.append(index)
            window_starts &= ~_LINE_STARTS[index]
    return found


def _team_table(team: Team) -> dict[int, str]:
    table = {ord(symbol): "0" for symbol in ".BGR"}
    table[ord(team)] = table[ord(CORNER_MARK)] = "1"
    return table


_TEAM_TABLES = {team: _team_table(team) for team in "BGR"}
_MASK_TABLE = str.maketrans({UNKNOWN: "1"})


@dataclass(frozen=True, slots=True)
class _LineReading:
    """A line verdict in cells, keeping only cells that hold a chip of the team."""

    sequences: int
    most_sequences: int
    runs: tuple[tuple[Cell, ...], ...]
    definite: frozenset[Cell]
    possible: frozenset[Cell]


class _LineCache(dict):
    """Line readings of one line by pattern, computed on first use."""

    def __init__(self, line: tuple[Cell, ...]) -> None:
        super().__init__()
        self.line = line

    def __missing__(self, pattern: str) -> _LineReading | None:
        verdict = _line_verdict(pattern)
        reading = None
        if verdict is not None:
            line = self.line
            chips = {i for i, symbol in enumerate(pattern) if symbol == "1" and line[i] not in CORNERS}
            reading = _LineReading(
                verdict.sequences,
                verdict.most_sequences,
                tuple(line[start:stop] for start, stop in verdict.runs),
                frozenset(line[i] for i in verdict.definite & chips),
                frozenset(line[i] for i in verdict.possible & chips),
            )
        self[pattern] = reading
        return reading


_LINE_CACHES = tuple((_LineCache(line), line_slice) for line, line_slice in _LINE_SLICES)


@dataclass(frozen=True, slots=True)
class TeamReading:
    """One team's sequences on a board: certain count, most possible count (if every hidden
    cell were the team's), the cells of its runs of 5+, and its protected chips."""

    team: Team
    sequences: int
    most_sequences: int
    run_cells: tuple[tuple[Cell, ...], ...]
    definite: frozenset[Cell]
    possible: frozenset[Cell]

    def runs(self) -> tuple[SequenceRun, ...]:
        return tuple(
            SequenceRun(self.team, cells, sequences_in_run(len(cells)), self.definite.intersection(cells),
                        self.possible.intersection(cells))
            for cells in self.run_cells
        )



def read_team(board: Board, team: Team) -> TeamReading:
    """Sequences and protected chips of ``team``. Protected sets hold only the team's chips
    (corners are never chips, hidden cells are not known to be)."""
    pattern = board.cells.translate(_TEAM_TABLES[team])
    mask = int(pattern.translate(_MASK_TABLE)[::-1], 2)
    lines = _lines_with_windows(mask)
    if not lines:
        return TeamReading(team, 0, 0, (), frozenset(), frozenset())
    count = most = 0
    run_cells: list[tuple[Cell, ...]] = []
    definite: set[Cell] = set()
    possible: set[Cell] = set()
    for index in lines:
        cache, line_slice = _LINE_CACHES[index]
        reading = cache[pattern[line_slice]]
        if reading is None:
            continue
        count += reading.sequences
        most += reading.most_sequences
        definite |= reading.definite
        possible |= reading.possible
        run_cells += reading.runs
    return TeamReading(team, count, most, tuple(run_cells), frozenset(definite), frozenset(possible - definite))


def find_runs(board: Board, team: Team) -> tuple[SequenceRun, ...]:
    """The team's runs of 5 or more along every line."""
    return read_team(board, team).runs()


def count_sequences(board: Board, team: Team) -> int:
    """The largest number of sequences ``team`` can have on ``board`` (hidden cells count
    as not the team's).

    >>> row = "#" + "B" * 8 + "#"  # a run of ten with both corners
    >>> count_sequences(Board.from_rows([row] + ["." * 10] * 8 + ["#........#"]), "B")
    2
    """
    return read_team(board, team).sequences
