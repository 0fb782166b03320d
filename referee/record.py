"""Game records: the setup and every action, as JSON, replayable with no randomness.

A record holds what chance decided (the cuts for the deal, the shuffled deck, the order of
each reshuffle of the discards) and the ordered list of entries. An entry is a game action or
a correction made by the players at the table: ``Undo`` cancels an earlier entry, ``Confirm``
notes that the players agreed with an entry or a reading and changes nothing. A reshuffle is
stored on the entry (a draw or an exchange) during which it happened, so undoing that entry
undoes its reshuffle too.

The JSON form (``Record.to_json``); errors name an entry by its index in ``"actions"``::

    {"version": 1, "players": 4, "teams": 2, "chip_supply": null,
     "cuts": [["9S", "3H", "KD", "3C"], ["QS", "7D"]],     # rounds of cuts, tied players re-cut
     "deck": ["AS", "7D", ...],                            # all 104 cards, top card first
     "actions": [
       {"type": "exchange", "player": 1, "card": "7H"},    # a dead card for a new one
       {"type": "play", "player": 1, "card": "AS", "cell": [2, 1]},  # one-eyed jack: removes
       {"type": "draw", "player": 1, "reshuffle": ["KD", ...]},  # only if the pile was remade
       {"type": "choose", "option": 0},                    # index into the sequence options
       {"type": "pass", "player": 2},
       {"type": "table_talk", "team": "B", "discards": [[0, "AS"], [2, "KD"]]},
       {"type": "undo", "entry": 5},
       {"type": "confirm", "entry": 5, "note": "chip on 2,1 checked"}]}

>>> import numpy as np
>>> from referee.bots import play_game
>>> rng = np.random.default_rng(5)
>>> game = play_game(Game.new(3, rng), rng)
>>> data = record_of(game).to_json()
>>> data["version"], data["players"], len(data["deck"])
(1, 3, 104)
>>> replay(Record.from_json(data)).state() == game.state()
True
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Final, Union

import numpy as np

from referee.cells import Card, Cell, cell, cell_col, cell_row, is_card
from referee.errors import IllegalActionError, RecordError, RefereeError
from referee.game import Action, ChooseSequences, Draw, Exchange, Game, Pass, Play, Setup, TableTalk

RECORD_VERSION: Final = 1


@dataclass(frozen=True, slots=True)
class Undo:
    """A correction: entry number ``entry`` did not happen (the players took it back)."""

    entry: int


@dataclass(frozen=True, slots=True)
class Confirm:
    """A note that the players confirmed an entry (or, with ``entry`` None, a reading)."""

    entry: int | None = None
    note: str = ""


Correction = Union[Undo, Confirm]


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of a record; ``reshuffle`` is the new draw pile (top first) it made, if any."""

    action: Action | Correction
    reshuffle: tuple[Card, ...] | None = None


@dataclass(frozen=True, slots=True)
class Record:
    setup: Setup
    entries: tuple[Entry, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON-ready dict (``"version": 1``)."""
        return {
            "version": RECORD_VERSION,
            "players": self.setup.players,
            "teams": self.setup.teams,
            "cuts": [list(cards) for cards in self.setup.cuts],
            "deck": list(self.setup.deck),
            "chip_supply": None if self.setup.chip_supply is None else list(self.setup.chip_supply),
            "actions": [_entry_to_json(entry) for entry in self.entries],
        }

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """Reads ``to_json``'s form; raises ``RecordError`` saying what is wrong."""
        if not isinstance(data, Mapping):
            raise RecordError("a game record is a JSON object")
        if data.get("version") != RECORD_VERSION:
            version = data.get("version")
            raise RecordError(f"this is not a version {RECORD_VERSION} game record (version {version!r})")
        try:
            setup = Setup(
                players=_int(data, "players"),
                teams=_int(data, "teams"),
                deck=_cards(data, "deck"),
                cuts=tuple(_cards({"cut": cut}, "cut") for cut in _list(data, "cuts")),
                chip_supply=_supply(data),
            )
        except RefereeError as error:
            raise RecordError(f"setup: {error}") from None
        entries = []
        for number, item in enumerate(_list(data, "actions")):
            try:
                entries.append(_entry_from_json(item))
            except RecordError as error:
                raise RecordError(f"action {number}: {error}") from None
        return cls(setup, tuple(entries))

    def dumps(self) -> str:
        return json.dumps(self.to_json())

    @classmethod
    def loads(cls, text: str) -> Record:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise RecordError(f"a game record must be JSON: {error}") from None
        return cls.from_json(data)

    def appended(self, action: Action | Correction, reshuffle: tuple[Card, ...] | None = None) -> Record:
        return replace(self, entries=self.entries + (Entry(action, reshuffle),))

    def undo(self, entry: int | None = None) -> Record:
        """The record with ``entry`` (by default the last game action still in force) undone."""
        if entry is None:
            live = effective_entries(self)
            if not live:
                raise RecordError("there is no action to undo")
            entry = live[-1]
        return self.appended(Undo(entry))


def record_of(game: Game) -> Record:
    """The record of everything that happened in ``game``."""
    reshuffles = game.reshuffles()
    entries = tuple(Entry(action, reshuffles.get(i)) for i, action in enumerate(game.actions()))
    return Record(game.setup, entries)


def effective_entries(record: Record) -> list[int]:
    """Numbers of the entries that are game actions still in force (not undone).
    Raises ``RecordError`` for a correction that points at no earlier game action."""
    undone: set[int] = set()
    for number, entry in enumerate(record.entries):
        action = entry.action
        if isinstance(action, (Undo, Confirm)) and action.entry is not None:
            target = action.entry
            if not isinstance(target, int) or not 0 <= target < number:
                raise RecordError(
                    f"action {number}: it refers to entry {target!r}, which is not an earlier entry"
                )
            if isinstance(record.entries[target].action, (Undo, Confirm)):
                raise RecordError(f"action {number}: entry {target} is a correction, not a game action")
            if isinstance(action, Undo):
                if target in undone:
                    raise RecordError(f"action {number}: entry {target} is already undone")
                undone.add(target)
    actions = [n for n, e in enumerate(record.entries) if not isinstance(e.action, (Undo, Confirm))]
    return [n for n in actions if n not in undone]


def replay(record: Record, rng: np.random.Generator | None = None) -> Game:
    """The game that ``record`` describes; ``rng`` shuffles any later reshuffle of play that goes on.

    Raises ``RecordError`` naming the first action that does not replay and why.
    """
    game = Game(record.setup, rng)
    for number in effective_entries(record):
        entry = record.entries[number]
        action = entry.action
        if entry.reshuffle is None and isinstance(action, (Draw, Exchange)) and game.pile_size == 0:
            raise RecordError(
                f"action {number} ({_describe(action)}) reshuffles the discards, "
                "but the record gives no order"
            )
        try:
            game.apply(action, entry.reshuffle)  # type: ignore[arg-type]
        except IllegalActionError as error:
            raise RecordError(f"action {number} ({_describe(action)}) does not replay: {error}") from None
    return game


# --- JSON of one entry -----------------------------------------------------------------


def _entry_to_json(entry: Entry) -> dict[str, Any]:
    action = entry.action
    data: dict[str, Any]
    if isinstance(action, Exchange):
        data = {"type": "exchange", "player": action.player, "card": action.card}
    elif isinstance(action, Play):
        data = {"type": "play", "player": action.player, "card": action.card, "cell": _cell_json(action.cell)}
    elif isinstance(action, Draw):
        data = {"type": "draw", "player": action.player}
    elif isinstance(action, Pass):
        data = {"type": "pass", "player": action.player}
    elif isinstance(action, ChooseSequences):
        data = {"type": "choose", "option": action.option}
    elif isinstance(action, TableTalk):
        data = {"type": "table_talk", "team": action.team, "discards": [[p, c] for p, c in action.discards]}
    elif isinstance(action, Undo):
        data = {"type": "undo", "entry": action.entry}
    elif isinstance(action, Confirm):
        data = {"type": "confirm", "entry": action.entry, "note": action.note}
    else:
        raise RecordError(f"{action!r} cannot be recorded")
    if entry.reshuffle is not None:
        data["reshuffle"] = list(entry.reshuffle)
    return data


def _entry_from_json(data: Any) -> Entry:
    if not isinstance(data, Mapping):
        raise RecordError("an action is a JSON object with a 'type'")
    kind = data.get("type")
    reader = _READERS.get(kind)  # type: ignore[arg-type]
    if reader is None:
        raise RecordError(f"unknown action type {kind!r}; known types are {', '.join(_READERS)}")
    reshuffle = _cards(data, "reshuffle") if data.get("reshuffle") is not None else None
    if reshuffle is not None and kind not in ("draw", "exchange"):
        raise RecordError("only a draw or an exchange can reshuffle the discards")
    return Entry(reader(data), reshuffle)


def _read_table_talk(data: Mapping[str, Any]) -> TableTalk:
    discards = []
    for pair in _list(data, "discards"):
        if not (isinstance(pair, list) and len(pair) == 2):
            raise RecordError("'discards' holds [player, card] pairs")
        discards.append((_int({"player": pair[0]}, "player"), _card({"card": pair[1]}, "card")))
    return TableTalk(_str(data, "team"), tuple(discards))


def _read_confirm(data: Mapping[str, Any]) -> Confirm:
    entry = None if data.get("entry") is None else _int(data, "entry")
    return Confirm(entry, _str(data, "note") if "note" in data else "")


_READERS: Final[dict[str, Callable[[Mapping[str, Any]], Action | Correction]]] = {
    "exchange": lambda d: Exchange(_int(d, "player"), _card(d, "card")),
    "play": lambda d: Play(_int(d, "player"), _card(d, "card"), _cell(d, "cell")),
    "draw": lambda d: Draw(_int(d, "player")),
    "pass": lambda d: Pass(_int(d, "player")),
    "choose": lambda d: ChooseSequences(_int(d, "option")),
    "table_talk": _read_table_talk,
    "undo": lambda d: Undo(_int(d, "entry")),
    "confirm": _read_confirm,
}


def _describe(action: Action | Correction) -> str:
    kind = _entry_to_json(Entry(action))["type"].replace("_", " ")
    player = getattr(action, "player", None)
    return kind if player is None else f"{kind} by player {player}"


def _supply(data: Mapping[str, Any]) -> tuple[int, ...] | None:
    if data.get("chip_supply") is None:
        return None
    return tuple(_int({"chip_supply": n}, "chip_supply") for n in _list(data, "chip_supply"))


def _cell_json(c: Cell) -> list[int]:
    return [cell_row(c), cell_col(c)]


# --- typed fields, each failure a sentence ----------------------------------------------


def _field(data: Mapping[str, Any], key: str) -> Any:
    if key not in data:
        raise RecordError(f"'{key}' is missing")
    return data[key]


def _int(data: Mapping[str, Any], key: str) -> int:
    value = _field(data, key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(f"'{key}' must be a whole number, not {value!r}")
    return value


def _str(data: Mapping[str, Any], key: str) -> str:
    value = _field(data, key)
    if not isinstance(value, str):
        raise RecordError(f"'{key}' must be text, not {value!r}")
    return value


def _list(data: Mapping[str, Any], key: str) -> list[Any]:
    value = _field(data, key)
    if not isinstance(value, list):
        raise RecordError(f"'{key}' must be a list, not {value!r}")
    return value


def _card(data: Mapping[str, Any], key: str) -> Card:
    value = _field(data, key)
    if not (isinstance(value, str) and is_card(value)):
        raise RecordError(f"'{key}' must be a card like \"8D\" or \"TS\", not {value!r}")
    return value


def _cards(data: Mapping[str, Any], key: str) -> tuple[Card, ...]:
    return tuple(_card({key: value}, key) for value in _list(data, key))


def _cell(data: Mapping[str, Any], key: str) -> Cell:
    value = _field(data, key)
    if not (isinstance(value, list) and len(value) == 2 and all(_is_coordinate(v) for v in value)):
        raise RecordError(f"'{key}' must be [row, column] with numbers 0 to 9, not {value!r}")
    return cell(value[0], value[1])


def _is_coordinate(value: Any) -> bool:
    return type(value) is int and 0 <= value < 10
