"""A bot for simulations and tests: it plays legal moves, at random or, as often as its
skill says, the move that builds its lines or blocks others the most.

>>> import numpy as np
>>> rng = np.random.default_rng(3)
>>> game = play_game(Game.new(4, rng), rng)
>>> game.is_over, game.winner in game.teams or game.is_blocked
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from referee.board import CORNER_MARK, EMPTY
from referee.cells import ONE_EYED_JACKS, TWO_EYED_JACKS, Cell, Team
from referee.errors import IllegalActionError
from referee.game import Action, ChooseSequences, Exchange, Game, Pass, Play
from referee.lines import windows_through


@dataclass(frozen=True, slots=True)
class BotPolicy:
    """Chances that shape the bot's random play."""

    exchange: float = 0.7  # exchange a dead card when it holds one
    one_eyed: float = 0.25  # use a one-eyed jack rather than place a chip, when both are possible
    forget_draw: float = 0.0  # forget to draw after playing
    late_draw: float = 0.5  # a player who forgot draws before the next turn goes on
    skill: float = 0.0  # plays the move of most value to its lines, else a random one


def line_value(cells: Sequence[str], cell: Cell, team: Team) -> float:
    """How much a chip of ``team`` on ``cell`` builds its lines and blocks others'."""
    value = 0.0
    for window in windows_through(cell):
        own = other = 0
        for x in window:
            v = cells[x]
            if v == team or v == CORNER_MARK:
                own += 1
            elif v != EMPTY:
                other += 1
        if other == 0:
            value += 4.0**own
        elif own == 0:
            value += 0.5 * 4.0**other  # blocking an opponent's window
    return value


def play_value(cells: Sequence[str], card: str, cell: Cell, team: Team) -> float:
    """What a skilled player sees in playing ``card`` on ``cell``: a removal is worth what the
    chip was worth to its owner, and Jacks are worth less than a plain card's cell since a
    sensible player saves them for when they matter."""
    if card in ONE_EYED_JACKS:
        return 0.5 * line_value(cells, cell, cells[cell])
    return line_value(cells, cell, team) * (0.6 if card in TWO_EYED_JACKS else 1.0)


def choose_action(game: Game, rng: np.random.Generator, policy: BotPolicy = BotPolicy()) -> Action:
    """A random legal action for the player to move, or a random pick of a pending choice.

    Prefers placing a chip; exchanges a dead card and uses a one-eyed jack now and then;
    passes only when nothing else is legal. Raises ``IllegalActionError`` once the game is over.
    """
    if game.is_over:
        raise IllegalActionError("The game is over: there is nothing left to play.")
    options = game.sequence_options()
    if options:
        return ChooseSequences(int(rng.integers(len(options))))
    player = game.turn
    hand = sorted(set(game.hand(player)))
    dead = [] if game.has_exchanged else [c for c in hand if game.is_dead(c)]
    if dead and rng.random() < policy.exchange:
        return Exchange(player, _pick(dead, rng))
    places = [(c, t) for c in hand if c not in ONE_EYED_JACKS for t in [game.targets(c, player)] if t]
    removals = [(c, t) for c in hand if c in ONE_EYED_JACKS for t in [game.targets(c, player)] if t]
    if policy.skill > 0 and (places or removals) and rng.random() < policy.skill:
        return _best_play(game, places + removals)
    if removals and (not places or rng.random() < policy.one_eyed):
        places = removals
    if places:
        card, cells = places[int(rng.integers(len(places)))]
        return Play(player, card, _pick(cells, rng))
    if dead:
        return Exchange(player, _pick(dead, rng))
    return Pass(player)


def play_turn(game: Game, rng: np.random.Generator, policy: BotPolicy = BotPolicy()) -> None:
    """One whole turn of the player to move: late draws of others, exchange, play, draw."""
    for other in range(game.players):
        if other != game.turn and game.owes_draw(other) and rng.random() < policy.late_draw:
            game.draw(other)
    player = game.turn
    while game.turn == player and not game.is_over:
        game.apply(choose_action(game, rng, policy))
    if not game.is_over and game.owes_draw(player) and rng.random() >= policy.forget_draw:
        game.draw(player)


def play_game(
    game: Game, rng: np.random.Generator, policy: BotPolicy = BotPolicy(), max_turns: int = 5000
) -> Game:
    """Plays ``game`` to its end with bots; raises ``RuntimeError`` past ``max_turns``."""
    for _ in range(max_turns):
        if game.is_over:
            return game
        play_turn(game, rng, policy)
    if game.is_over:
        return game
    raise RuntimeError(f"the game did not end within {max_turns} turns")


def _best_play(game: Game, options: list[tuple[str, tuple[Cell, ...]]]) -> Play:
    player = game.turn
    team, cells = game.team_of(player), game.board().cells
    return max((Play(player, card, c) for card, targets in options for c in targets),
               key=lambda play: play_value(cells, play.card, play.cell, team))


T = TypeVar("T")


def _pick(items: Sequence[T], rng: np.random.Generator) -> T:
    return items[int(rng.integers(len(items)))]
