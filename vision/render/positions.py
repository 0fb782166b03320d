"""Plausible game positions from a small simulated game of Sequence.

Each team holds a hand dealt from two shuffled decks, plays one card a turn in turn order
(dead cards are exchanged, two-eyed Jacks place anywhere, one-eyed Jacks remove an
opponent chip outside a run of five) and prefers cells that build its lines with a
per-game "skill". The game stops after a drawn number of turns or when a team reaches
the win target, so chip counts follow turn order and some positions hold sequences,
winners and emptied cells.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np

from referee.board import CORNER_MARK, EMPTY, Board
from referee.bots import line_value, play_value
from referee.cells import CELLS, CORNERS, DECK, LAYOUT, ONE_EYED_JACKS, TWO_EYED_JACKS, cells_of, teams_for, \
    win_target
from referee.lines import LINES, windows_through

HAND_SIZE: Final = {2: 7, 3: 6}
MAX_TURNS: Final = 80


@dataclass(frozen=True)
class Position:
    """A simulated position and how it came about."""

    board: Board
    teams: int
    turns: int  # turns played, removals included
    removals: int
    skill: float
    sequences: tuple[tuple[str, int], ...]  # (team, count) pairs, a plain run count
    winner: str | None

    def grid(self) -> list[str]:
        return self.board.rows()


def count_sequences(cells: list[str], team: str) -> int:
    """Sequences of ``team`` counted as floor((L-1)/4) per straight run of L >= 5 cells."""
    total = 0
    for line in LINES:
        run = 0
        for c in (*line, None):
            if c is not None and (cells[c] == team or cells[c] == CORNER_MARK):
                run += 1
                continue
            if run >= 5:
                total += (run - 1) // 4
            run = 0
    return total


def _in_run(cells: list[str], c: int) -> bool:
    """Whether the chip on ``c`` lies in a run of 5 of its colour (so it may not be removed)."""
    team = cells[c]
    for window in windows_through(c):
        if all(cells[x] == team or cells[x] == CORNER_MARK for x in window):
            return True
    return False


def sample_position(rng: np.random.Generator, *, teams: int | None = None, turns: int | None = None) -> Position:
    """A position after a random number of turns of a simulated game."""
    team_count = teams if teams is not None else int(rng.choice([2, 3], p=[0.6, 0.4]))
    colours = teams_for(team_count)
    if turns is None:
        roll = rng.random()
        if roll < 0.06:
            turns = 0
        elif roll < 0.3:
            turns = int(rng.integers(1, 20))
        elif roll < 0.8:
            turns = int(rng.integers(20, 60))
        else:
            turns = MAX_TURNS  # play until someone wins
    skill = float(rng.uniform(0.3, 0.95))
    cells = [CORNER_MARK if c in CORNERS else EMPTY for c in CELLS]
    deck = list(DECK)
    rng.shuffle(deck)
    hands = [[deck.pop() for _ in range(HAND_SIZE[team_count])] for _ in colours]
    target = win_target(team_count)
    played = removals = 0
    winner = None
    while played < turns and played < MAX_TURNS:
        t = played % team_count
        team = colours[t]
        hand = hands[t]
        _exchange_dead(cells, hand, deck, rng)
        move = _choose(cells, hand, team, skill, rng)
        played += 1
        if move is None:
            continue
        card, target_cell, remove = move
        hand.remove(card)
        if deck:
            hand.append(deck.pop())
        if remove:
            cells[target_cell] = EMPTY
            removals += 1
            continue
        cells[target_cell] = team
        if count_sequences(cells, team) >= target:
            winner = team
            break
    counts = tuple((team, count_sequences(cells, team)) for team in colours)
    return Position(board=Board("".join(cells)), teams=team_count, turns=played, removals=removals, skill=skill,
                    sequences=counts, winner=winner)


def _exchange_dead(cells: list[str], hand: list[str], deck: list[str], rng: np.random.Generator) -> None:
    for card in list(hand):
        if card in ONE_EYED_JACKS or card in TWO_EYED_JACKS:
            continue
        if all(cells[c] != EMPTY for c in cells_of(card)) and deck:
            hand.remove(card)
            hand.append(deck.pop())
            return  # once per turn


def _choose(cells: list[str], hand: list[str], team: str, skill: float,
            rng: np.random.Generator) -> tuple[str, int, bool] | None:
    """(card, cell, is_removal) for the turn, or None when nothing can be played."""
    options: list[tuple[float, str, int, bool]] = []
    for card in hand:
        if card in TWO_EYED_JACKS:
            empties = [c for c in CELLS if cells[c] == EMPTY]
            if empties:
                best = max(empties, key=lambda c: play_value(cells, card, c, team))
                options.append((play_value(cells, card, best, team), card, best, False))
        elif card in ONE_EYED_JACKS:
            foes = [c for c in CELLS if cells[c] not in (EMPTY, CORNER_MARK, team) and not _in_run(cells, c)]
            if foes:
                best = max(foes, key=lambda c: play_value(cells, card, c, team))
                options.append((play_value(cells, card, best, team), card, best, True))
        else:
            for c in cells_of(card):
                if cells[c] == EMPTY:
                    options.append((line_value(cells, c, team), card, c, False))
    if not options:
        return None
    if rng.random() < skill:
        _, card, c, remove = max(options, key=lambda o: o[0])
    else:
        _, card, c, remove = options[int(rng.integers(len(options)))]
        if remove and rng.random() < 0.5:  # casual players rarely spend a one-eyed Jack at random
            plain = [o for o in options if not o[3]]
            if plain:
                _, card, c, remove = plain[int(rng.integers(len(plain)))]
    assert LAYOUT[c] != "FREE"
    return card, c, remove
