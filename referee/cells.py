"""Board vocabulary: cells, cards, the printed layout, teams.

Every other module takes these facts from here and never re-derives them.

A cell is an ``int`` from 0 to 99: ``row * 10 + col``, row 0 the printed top row.

>>> cell(3, 4)
34
>>> cell_row(34), cell_col(34)
(3, 4)
>>> LAYOUT[cell(0, 1)]
'2S'
>>> cells_of("8D")
(37, 96)
>>> cell_name(37)
'row 3, column 7 (8♦)'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

Cell = int
Card = str  # rank then suit: "TS" is the ten of spades, "JH" the jack of hearts
Team = str  # "B", "G" or "R"

SIZE: Final = 10
CELLS: Final = tuple(range(SIZE * SIZE))
CORNERS: Final = frozenset({0, 9, 90, 99})
CORNER: Final = "FREE"

RANKS: Final = "A23456789TJQK"
SUITS: Final = "SHDC"
RED_SUITS: Final = frozenset("HD")
TWO_EYED_JACKS: Final = frozenset({"JD", "JC"})  # wild: place a chip on any empty cell
ONE_EYED_JACKS: Final = frozenset({"JS", "JH"})  # remove an opponent's unprotected chip
JACKS: Final = TWO_EYED_JACKS | ONE_EYED_JACKS

# The printed board, row 0 first (../shared/RULES.md).
_LAYOUT_ROWS: Final = (
    "FREE 2S 3S 4S 5S 6S 7S 8S 9S FREE",
    "6C 5C 4C 3C 2C AH KH QH TH TS",
    "7C AS 2D 3D 4D 5D 6D 7D 9H QS",
    "8C KS 6C 5C 4C 3C 2C 8D 8H KS",
    "9C QS 7C 6H 5H 4H AH 9D 7H AS",
    "TC TS 8C 7H 2H 3H KH TD 6H 2D",
    "QC 9S 9C 8H 9H TH QH QD 5H 3D",
    "KC 8S TC QC KC AC AD KD 4H 4D",
    "AC 7S 6S 5S 4S 3S 2S 2H 3H 5D",
    "FREE AD KD QD TD 9D 8D 7D 6D FREE",
)
LAYOUT: Final[tuple[str, ...]] = tuple(name for row in _LAYOUT_ROWS for name in row.split())

# Two standard 52-card decks, no jokers.
DECK: Final[tuple[Card, ...]] = tuple(rank + suit for _ in range(2) for suit in SUITS for rank in RANKS)

_CELLS_OF_CARD: Final[dict[Card, tuple[Cell, ...]]] = {}
for _cell, _card in enumerate(LAYOUT):
    if _card != CORNER:
        _CELLS_OF_CARD.setdefault(_card, ())
        _CELLS_OF_CARD[_card] += (_cell,)

TEAM_NAMES: Final = {"B": "blue", "G": "green", "R": "red"}
CHIP_SUPPLY: Final = {"B": 50, "G": 50, "R": 48}  # the largest supply of any known edition


def teams_for(team_count: int) -> tuple[Team, ...]:
    """The chip colours in a game of ``team_count`` teams (or lone players).

    >>> teams_for(2), teams_for(3)
    (('B', 'G'), ('B', 'G', 'R'))
    """
    if team_count not in (2, 3):
        raise ValueError(f"Sequence is played by 2 or 3 teams, not {team_count}.")
    return ("B", "G", "R")[:team_count]


def win_target(team_count: int) -> int:
    """Sequences a team needs to win: 2 with two teams, 1 with three.

    >>> win_target(2), win_target(3)
    (2, 1)
    """
    teams_for(team_count)
    return 2 if team_count == 2 else 1


def cell(row: int, col: int) -> Cell:
    """The cell at ``row``, ``col`` (both 0-9)."""
    if not (0 <= row < SIZE and 0 <= col < SIZE):
        raise ValueError(f"row and column must be 0 to 9, got {row}, {col}")
    return row * SIZE + col


def cell_row(c: Cell) -> int:
    return c // SIZE


def cell_col(c: Cell) -> int:
    return c % SIZE


def parse_cell(text: str) -> Cell:
    """A cell from ``"ROW,COL"`` as people and the command line write it.

    >>> parse_cell("3,7")
    37
    >>> parse_cell(" 9 , 0 ")
    90
    """
    parts = text.split(",")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise ValueError(f"a cell is written ROW,COL with numbers 0 to 9, like 3,7; got {text!r}")
    return cell(int(parts[0]), int(parts[1]))


def is_card(text: str) -> bool:
    return len(text) == 2 and text[0] in RANKS and text[1] in SUITS


def parse_card(text: str) -> Card:
    """A card from its short name, rank then suit; ``10`` is accepted for ``T``.

    >>> parse_card("10h"), parse_card("qs")
    ('TH', 'QS')
    """
    short = text.strip().upper().replace("10", "T")
    if not is_card(short):
        raise ValueError(f"a card is a rank ({RANKS}) then a suit ({SUITS}), like 8D or TS; got {text!r}")
    return short


def cells_of(card: Card) -> tuple[Cell, ...]:
    """The cells showing ``card``: two for every card but the Jacks, which are not printed.

    >>> cells_of("AS"), cells_of("JD")
    ((21, 49), ())
    """
    return _CELLS_OF_CARD.get(card, ())


_RANK_WORDS: Final = {"A": "ace", "T": "ten", "J": "jack", "Q": "queen", "K": "king"}
_SUIT_WORDS: Final = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
_SUIT_SYMBOLS: Final = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card_name(card: Card) -> str:
    """The card's name in words.

    >>> card_name("TS"), card_name("JH"), card_name("7D")
    ('ten of spades', 'one-eyed jack of hearts', '7 of diamonds')
    """
    rank = _RANK_WORDS.get(card[0], card[0])
    if card in ONE_EYED_JACKS:
        rank = "one-eyed jack"
    elif card in TWO_EYED_JACKS:
        rank = "two-eyed jack"
    return f"{rank} of {_SUIT_WORDS[card[1]]}"


def card_symbol(card: Card) -> str:
    """Short printable form: ``"10♠"``, ``"Q♥"``."""
    rank = "10" if card[0] == "T" else card[0]
    return rank + _SUIT_SYMBOLS[card[1]]


def cell_name(c: Cell) -> str:
    """A cell for people: its row, column and printed card."""
    card = LAYOUT[c]
    printed = "corner" if card == CORNER else card_symbol(card)
    return f"row {cell_row(c)}, column {cell_col(c)} ({printed})"


def cells_text(cells: Iterable[Cell]) -> str:
    """Cells as ``"r,c"`` pairs separated by spaces, for messages."""
    return " ".join(f"{cell_row(c)},{cell_col(c)}" for c in sorted(cells))
