"""The players' corrections typed while `seqcam watch` runs: one command a line.

    undo                                  take back the last change (a move or a correction)
    set ROW,COL COLOUR [ROW,COL COLOUR]   what is really on these cells: blue, green, red or empty
    choose N                              option N of the latest sequence where several windows fit
    turn [N]                              the board as read turned N quarter turns clockwise (1 to 3,
                                          1 if not given): the camera could not tell the printed top
    help                                  these lines

Cells are ROW,COL with rows and columns 0 to 9, row 0 the printed top row (as ``--remove``
of ``seqcam judge``). Words are case-insensitive; a colour may be its letter (B, G, R, or
``.`` for empty). Blank lines and lines starting with ``#`` are ignored.

>>> parse_command("set 3,4 blue 3, 5 empty")
SetCells(cells=((34, 'B'), (35, '.')))
>>> parse_command("CHOOSE 2"), parse_command("undo"), parse_command("  # a note"), parse_command("turn")
(Choose(number=2), Undo(), None, Turn(quarter_turns=1))
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from referee.board import EMPTY
from referee.cells import Cell, parse_cell

HELP: Final = (
    "Corrections, one a line: undo (take back the last change); set ROW,COL COLOUR [ROW,COL COLOUR ...] "
    "(what is really on these cells: blue, green, red or empty; rows and columns 0 to 9); "
    "choose N (option N of the latest sequence where several windows fit); turn [N] (the board as read "
    "turned N quarter turns clockwise, when the camera could not tell the printed top); help."
)
COLOURS: Final = {"blue": "B", "green": "G", "red": "R", "empty": EMPTY, "b": "B", "g": "G", "r": "R", ".": EMPTY}


@dataclass(frozen=True, slots=True)
class Undo:
    pass


@dataclass(frozen=True, slots=True)
class SetCells:
    cells: tuple[tuple[Cell, str], ...]  # (cell, grid symbol: . B G R)


@dataclass(frozen=True, slots=True)
class Choose:
    number: int  # from 1, as the sequence event lists the options


@dataclass(frozen=True, slots=True)
class Turn:
    quarter_turns: int  # clockwise, 1 to 3


@dataclass(frozen=True, slots=True)
class Help:
    pass


Command = Undo | SetCells | Choose | Turn | Help


class CommandError(ValueError):
    """A line that is not a correction command; the message says how to write it."""


def parse_command(text: str) -> Command | None:
    """The command on one line, or None for a blank line or a comment. Raises ``CommandError``.

    >>> parse_command("set 0,0")
    Traceback (most recent call last):
    ...
    seqcam.corrections.CommandError: set takes cells and colours in pairs, like set 3,4 blue 3,5 empty.
    """
    words = re.sub(r"\s*,\s*", ",", text.strip()).split()
    if not words or words[0].startswith("#"):
        return None
    verb, rest = words[0].lower(), words[1:]
    parser = _PARSERS.get(verb)
    if parser is None:
        raise CommandError(f"{words[0]!r} is not a command: type undo, set ROW,COL COLOUR, choose N, turn or help.")
    return parser(rest)


def _undo(rest: list[str]) -> Undo:
    if rest:
        raise CommandError("undo takes nothing after it: it takes back the last change.")
    return Undo()


def _help(rest: list[str]) -> Help:
    return Help()


def _set(rest: list[str]) -> SetCells:
    if not rest or len(rest) % 2:
        raise CommandError("set takes cells and colours in pairs, like set 3,4 blue 3,5 empty.")
    cells: dict[Cell, str] = {}
    for where, colour in zip(rest[::2], rest[1::2]):
        try:
            c = parse_cell(where)
        except ValueError as error:
            message = str(error)
            raise CommandError(message[0].upper() + message[1:] + ".") from None
        symbol = COLOURS.get(colour.lower())
        if symbol is None:
            raise CommandError(f"{colour!r} is not a colour: say blue, green, red or empty.")
        if c in cells:
            raise CommandError(f"{where} is given twice.")
        cells[c] = symbol
    return SetCells(tuple(cells.items()))


def _choose(rest: list[str]) -> Choose:
    if len(rest) != 1 or not rest[0].isdigit() or int(rest[0]) < 1:
        raise CommandError("choose takes one option number, from 1, as the sequence listed them: choose 2.")
    return Choose(int(rest[0]))


def _turn(rest: list[str]) -> Turn:
    if len(rest) > 1 or (rest and rest[0] not in ("1", "2", "3")):
        raise CommandError("turn takes the quarter turns clockwise, 1 to 3 (1 if not given): turn 2.")
    return Turn(int(rest[0]) if rest else 1)


_PARSERS: Final[dict[str, Callable[[list[str]], Any]]] = {
    "undo": _undo, "set": _set, "choose": _choose, "turn": _turn, "help": _help,
}
