"""The whole game of Sequence, with its history: setup, the deal, turns, penalties, the end.

A ``Game`` is a state object: it changes only through its action methods (``exchange``,
``play``, ``pass_turn``, ``draw``, ``choose_sequences``, ``table_talk``) or, equivalently,
``apply(action)`` with one of the action types below. Every action that the rules do not
allow raises ``IllegalActionError`` with a sentence a player understands, and leaves the game
unchanged. Queries never change it.

Players are numbered 0 to n-1 in seating order, clockwise; player ``i`` plays for team
``i % teams``. After a card is played the turn passes at once to the next player, and the
player who played owes a draw (``owes_draw``): drawing is a separate action so that a
forgotten draw can be told from a late one.

>>> game = Game.new(2, np.random.default_rng(7))
>>> game.turn, game.dealer, len(game.hand(0)), len(game.draw_pile())
(0, 1, 7, 90)
>>> card = next(c for c in game.hand(0) if game.targets(c))
>>> game.play(card, game.targets(card)[0])
>>> game.turn, game.owes_draw(0)
(1, True)
>>> game.draw(0)
>>> len(game.hand(0)), game.board().count("B")
(7, 1)

Decisions where the rules are silent (../shared/RULES.md):

- Cutting for the deal: each player still in contention takes a card from a freshly shuffled
  deck; ranks run 2 (lowest) to ace (highest), Jacks between ten and queen, suits do not
  matter; the players tied for lowest cut again until one is lowest.
- Dealing: one card at a time from the top, starting left of the dealer, clockwise.
- The draw pile is reshuffled from all discard piles when a draw finds it empty (lazily),
  so the discards of that very turn are included. No card ever leaves the game: a forgotten
  draw leaves its card in the draw pile and table-talk discards go to the discard piles.
- Forgotten draw: a player who owes a draw forfeits it (hand limit minus one) as soon as a
  player who played after them draws, or when they take their own next turn still owing.
- Table talk: every member of the team discards one card of their choice to their own pile
  (a member with an empty hand discards nothing) and their hand limit drops by one, never
  below zero. It may be called at any time except while a sequence choice is pending.
- No playable card: ``pass_turn`` is allowed only when the player has no legal play and no
  dead card left to exchange this turn (so a player with dead cards must try an exchange
  first). A player whose hand limit has fallen to 0 always passes.
- When every player in turn has passed with no other action in between, nobody can ever
  play again: the game is over with no winner (``is_blocked``).
- A chip is placed only while the team has chips left: ``Setup.chip_supply`` per team, by
  default ``CHIP_SUPPLY`` (editions differ: 48 each in the French one, 50/50/35 in another).
- A sequence choice is made by the placing team; until it is made nothing else may happen,
  the turn has not passed yet, and the team's new sequences are not counted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Final, Union

import numpy as np

from referee.board import CORNER_MARK, EMPTY, Board
from referee.cells import (
    CELLS,
    CHIP_SUPPLY,
    CORNERS,
    DECK,
    JACKS,
    ONE_EYED_JACKS,
    TEAM_NAMES,
    TWO_EYED_JACKS,
    Card,
    Cell,
    Team,
    card_name,
    cell_name,
    cells_of,
    is_card,
    teams_for,
    win_target,
)
from referee.errors import IllegalActionError, RefereeError
from referee.lines import windows_through
from referee.sequences import Sequence

DEAL_SIZES: Final = {2: 7, 3: 6, 4: 6, 6: 5, 8: 4, 9: 4, 10: 3, 12: 3}
CUT_ORDER: Final = "23456789TJQKA"  # cutting for the deal: ace is high


class SetupError(RefereeError):
    """A game that cannot be set up: wrong player count, team split, deck or cuts."""


# --- Setup -----------------------------------------------------------------------------


def team_count_for(players: int, teams: int | None = None) -> int:
    """How many teams ``players`` form; ``teams`` is needed only where two splits exist.

    >>> team_count_for(2), team_count_for(9), team_count_for(6, teams=3)
    (2, 3, 3)
    >>> try:
    ...     team_count_for(5)
    ... except SetupError as error:
    ...     print(str(error)[:47])
    Sequence cannot be played by 5 players: the pla
    """
    _check_player_count(players)
    splits = [t for t in (2, 3) if players % t == 0 and (players > 3 or players == t)]
    if teams is None:
        if len(splits) > 1:
            raise SetupError(f"{players} players can play as 2 teams or 3 teams: say which.")
        return splits[0]
    if teams not in splits:
        alone = " (2 or 3 players play alone)" if players <= 3 else ""
        raise SetupError(f"{players} players cannot play as {teams} teams{alone}.")
    return teams


def deal_size(players: int) -> int:
    """Cards dealt to each player.

    >>> deal_size(2), deal_size(3), deal_size(12)
    (7, 6, 3)
    """
    _check_player_count(players)
    return DEAL_SIZES[players]


def _check_player_count(players: int) -> None:
    if players not in DEAL_SIZES:
        raise SetupError(
            f"Sequence cannot be played by {players} players: the players must split into "
            "2 or 3 equal teams (2, 3, 4, 6, 8, 9, 10 or 12 players)."
        )


def cut_rank(card: Card) -> int:
    """A card's rank when cutting for the deal: 0 for a two up to 12 for an ace."""
    return CUT_ORDER.index(card[0])


def cut_for_deal(players: int, rng: np.random.Generator) -> tuple[tuple[Card, ...], ...]:
    """Cuts until one player holds the single lowest card: one tuple of cards per round,
    for the players still in contention, in seating order."""
    contenders = list(range(players))
    rounds: list[tuple[Card, ...]] = []
    while len(contenders) > 1 or not rounds:
        order = rng.permutation(len(DECK))[: len(contenders)]
        cards = tuple(DECK[i] for i in order)
        rounds.append(cards)
        lowest = min(cut_rank(c) for c in cards)
        contenders = [p for p, c in zip(contenders, cards) if cut_rank(c) == lowest]
    return tuple(rounds)


def dealer_from_cuts(players: int, cuts: tuple[tuple[Card, ...], ...]) -> int:
    """The dealer: whoever cut the single lowest card, after re-cuts of ties.

    >>> dealer_from_cuts(3, (("KS", "4H", "4D"), ("AS", "2C")))
    2
    """
    contenders = list(range(players))
    for number, cards in enumerate(cuts):
        if len(contenders) == 1:
            raise SetupError(f"cut round {number} is not needed: player {contenders[0]} already deals.")
        if len(cards) != len(contenders) or not all(is_card(c) for c in cards):
            raise SetupError(f"cut round {number} needs one card for each of players {contenders}.")
        lowest = min(cut_rank(c) for c in cards)
        contenders = [p for p, c in zip(contenders, cards) if cut_rank(c) == lowest]
    if len(contenders) != 1:
        raise SetupError(f"the cuts leave players {contenders} tied for dealer: they cut again.")
    return contenders[0]


@dataclass(frozen=True, slots=True)
class Setup:
    """Everything chance decided before the first turn: the deck (top card first) and the cuts."""

    players: int
    teams: int
    deck: tuple[Card, ...]
    cuts: tuple[tuple[Card, ...], ...]
    chip_supply: tuple[int, ...] | None = None  # chips per team, team 0 first; None: CHIP_SUPPLY

    def __post_init__(self) -> None:
        team_count_for(self.players, self.teams)
        if Counter(self.deck) != _DECK_COUNTS:
            raise SetupError("the deck must be the 104 cards of two standard decks, each once.")
        dealer_from_cuts(self.players, self.cuts)
        supply = self.chip_supply
        if supply is not None and (
            len(supply) != self.teams or not all(type(n) is int and 1 <= n <= len(CELLS) for n in supply)
        ):
            raise SetupError(
                f"the chip supply gives a number of chips (1 to 100) for each of the {self.teams} teams."
            )

    @classmethod
    def shuffled(
        cls,
        players: int,
        rng: np.random.Generator,
        teams: int | None = None,
        chip_supply: tuple[int, ...] | None = None,
    ) -> Setup:
        teams = team_count_for(players, teams)
        cuts = cut_for_deal(players, rng)
        deck = tuple(DECK[i] for i in rng.permutation(len(DECK)))
        return cls(players, teams, deck, cuts, chip_supply)

    def supply(self, team: Team) -> int:
        """Chips that ``team`` has in all."""
        index = teams_for(self.teams).index(team)
        return CHIP_SUPPLY[team] if self.chip_supply is None else self.chip_supply[index]

    @property
    def dealer(self) -> int:
        return dealer_from_cuts(self.players, self.cuts)


_DECK_COUNTS: Final = Counter(DECK)


# --- Actions ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Exchange:
    """Announce a dead card, discard it and draw a replacement (once per turn, before playing)."""

    player: int
    card: Card


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card``: place a chip on ``cell``, or with a one-eyed jack remove the chip there."""

    player: int
    card: Card
    cell: Cell


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the card owed after playing."""

    player: int


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn without playing: allowed only when nothing can be played."""

    player: int


@dataclass(frozen=True, slots=True)
class ChooseSequences:
    """Pick one of ``Game.sequence_options()`` by its index."""

    option: int


@dataclass(frozen=True, slots=True)
class TableTalk:
    """Penalty: the team advised a teammate; each member discards the card given here."""

    team: Team
    discards: tuple[tuple[int, Card], ...]  # (player, card) for each member holding cards


Action = Union[Exchange, Play, Draw, Pass, ChooseSequences, TableTalk]


@dataclass(frozen=True, slots=True)
class GameState:
    """A complete, comparable snapshot of a game (two equal snapshots replay alike)."""

    board: str
    turn: int
    hands: tuple[tuple[Card, ...], ...]
    hand_limits: tuple[int, ...]
    draw_pile: tuple[Card, ...]
    discard_piles: tuple[tuple[Card, ...], ...]
    sequences: tuple[Sequence, ...]
    sequence_options: tuple[tuple[Sequence, ...], ...]
    exchanged: bool
    winner: Team | None
    blocked: bool
    passes: int  # consecutive passes so far
    last_played: tuple[int, ...]  # per player, when they last played: decides forgotten draws


# --- Sequences made by one chip --------------------------------------------------------


def new_sequence_options(
    grid: str | list[str], c: Cell, team: Team, claimed: Iterable[Sequence] = ()
) -> tuple[tuple[Sequence, ...], ...]:
    """Every largest set of new sequences that a chip of ``team`` on ``c`` completes.

    A new window must be complete for the team (its chips or corners), pass through ``c``, and
    share at most one cell with each claimed sequence of the team and with each other.
    One option means no choice (it may be empty); several mean the players choose.

    >>> grid = Board.from_rows(["#........#", "BBBBBB....", *["." * 10] * 7, "#........#"]).cells
    >>> [[s.cells for s in option] for option in new_sequence_options(grid, 12, "B")]
    [[(10, 11, 12, 13, 14)], [(11, 12, 13, 14, 15)]]
    """
    claimed_sets = [set(s.cells) for s in claimed if s.team == team]
    options: list[tuple[tuple[Cell, ...], ...]] = [()]
    for windows in _WINDOWS_BY_LINE[c]:
        complete = [
            w
            for w in windows
            if all(grid[x] == team or grid[x] == CORNER_MARK for x in w)
            and all(len(taken.intersection(w)) <= 1 for taken in claimed_sets)
        ]
        if complete:
            options = [chosen + more for chosen in options for more in _largest_compatible(complete)]
    return tuple(sorted(tuple(sorted(Sequence(team, w) for w in option)) for option in options))


def _windows_by_line(c: Cell) -> tuple[tuple[tuple[Cell, ...], ...], ...]:
    """The windows through ``c``, grouped by direction (so by line)."""
    by_step: dict[int, list[tuple[Cell, ...]]] = {}
    for window in windows_through(c):
        by_step.setdefault(window[1] - window[0], []).append(window)
    return tuple(tuple(windows) for windows in by_step.values())


_WINDOWS_BY_LINE: Final = {c: _windows_by_line(c) for c in CELLS}


def _largest_compatible(windows: list[tuple[Cell, ...]]) -> list[tuple[tuple[Cell, ...], ...]]:
    """The largest subsets of windows on one line that pairwise share at most one cell."""
    for size in range(len(windows), 0, -1):
        found = [
            subset
            for subset in combinations(windows, size)
            if all(len(set(a).intersection(b)) <= 1 for a, b in combinations(subset, 2))
        ]
        if found:
            return found
    return [()]


# --- The game --------------------------------------------------------------------------


class Game:
    """A game of Sequence in progress; see the module docstring for the turn structure."""

    def __init__(self, setup: Setup, rng: np.random.Generator | None = None) -> None:
        """Deals from ``setup``; ``rng`` shuffles the discards when the draw pile runs out
        (without it, every reshuffle order must be given to ``apply``)."""
        n = setup.players
        self._setup = setup
        self._rng = rng
        self._n = n
        self._colours = teams_for(setup.teams)
        self._target = win_target(setup.teams)
        self._pile = list(reversed(setup.deck))  # the top card is the last
        dealer = setup.dealer
        size = DEAL_SIZES[n]
        self._hands: list[list[Card]] = [[] for _ in range(n)]
        for _ in range(size):
            for k in range(1, n + 1):
                self._hands[(dealer + k) % n].append(self._pile.pop())
        self._limits = [size] * n
        self._discards: list[list[Card]] = [[] for _ in range(n)]
        self._grid = list(Board.empty().cells)
        self._chips = dict.fromkeys(self._colours, 0)
        self._supply = {team: setup.supply(team) for team in self._colours}
        self._claimed: list[Sequence] = []
        self._protected: set[Cell] = set()
        self._options: tuple[tuple[Sequence, ...], ...] = ()
        self._dealer = dealer
        self._turn = (dealer + 1) % n
        self._exchanged = False
        self._played_at = [-1] * n  # the play counter when each player last played
        self._plays = 0
        self._passes = 0  # consecutive passes
        self._winner: Team | None = None
        self._blocked = False
        self._actions: list[Action] = []
        self._reshuffles: dict[int, tuple[Card, ...]] = {}
        self._forced: tuple[Card, ...] | None = None

    @classmethod
    def new(
        cls,
        players: int,
        rng: np.random.Generator,
        teams: int | None = None,
        chip_supply: tuple[int, ...] | None = None,
    ) -> Game:
        """Cuts, shuffles and deals a new game with ``rng``. Raises ``SetupError``."""
        return cls(Setup.shuffled(players, rng, teams, chip_supply), rng)

    # --- who and what -------------------------------------------------------------------

    @property
    def setup(self) -> Setup:
        return self._setup

    @property
    def players(self) -> int:
        return self._setup.players

    @property
    def teams(self) -> tuple[Team, ...]:
        """The colours in play, team 0 first."""
        return self._colours

    @property
    def target(self) -> int:
        """Sequences a team needs to win."""
        return self._target

    @property
    def dealer(self) -> int:
        return self._dealer

    @property
    def turn(self) -> int:
        """The player whose turn it is."""
        return self._turn

    def team_of(self, player: int) -> Team:
        self._check_player(player)
        return self._colours[player % len(self._colours)]

    def members(self, team: Team) -> tuple[int, ...]:
        """The players of ``team`` in seating order."""
        index = self._team_index(team)
        return tuple(range(index, self._n, len(self._colours)))

    def player_name(self, player: int) -> str:
        """``"Blue"`` when players play alone, ``"Player 2 (blue)"`` in teams."""
        colour = TEAM_NAMES[self.team_of(player)]
        return colour.capitalize() if self.players == len(self._colours) else f"Player {player} ({colour})"

    # --- cards --------------------------------------------------------------------------

    def hand(self, player: int) -> tuple[Card, ...]:
        self._check_player(player)
        return tuple(self._hands[player])

    def hands(self) -> tuple[tuple[Card, ...], ...]:
        return tuple(tuple(h) for h in self._hands)

    def hand_limit(self, player: int) -> int:
        """Cards the player holds after drawing: the deal size less any penalties."""
        self._check_player(player)
        return self._limits[player]

    def owes_draw(self, player: int) -> bool:
        self._check_player(player)
        return self._owes(player)

    def draw_pile(self) -> tuple[Card, ...]:
        """The draw pile, top card first."""
        return tuple(reversed(self._pile))

    @property
    def pile_size(self) -> int:
        """Cards left in the draw pile."""
        return len(self._pile)

    def discard_pile(self, player: int) -> tuple[Card, ...]:
        """The player's discard pile, bottom card first."""
        self._check_player(player)
        return tuple(self._discards[player])

    def is_dead(self, card: Card) -> bool:
        """A card whose both cells are taken, by any colour; Jacks are never dead."""
        cells = cells_of(card)
        return bool(cells) and all(self._grid[c] != EMPTY for c in cells)

    @property
    def has_exchanged(self) -> bool:
        """Whether the player to move has already exchanged a dead card this turn."""
        return self._exchanged

    # --- board and sequences ------------------------------------------------------------

    def board(self) -> Board:
        return Board("".join(self._grid))

    def chips_left(self, team: Team) -> int:
        self._team_index(team)
        return self._supply[team] - self._chips[team]

    def sequences(self, team: Team | None = None) -> tuple[Sequence, ...]:
        """Claimed sequences in the order they were made."""
        return tuple(s for s in self._claimed if team is None or s.team == team)

    def sequence_count(self, team: Team) -> int:
        self._team_index(team)
        return sum(1 for s in self._claimed if s.team == team)

    def sequence_counts(self) -> dict[Team, int]:
        return {team: self.sequence_count(team) for team in self._colours}

    def protected_cells(self, team: Team | None = None) -> frozenset[Cell]:
        """Chips that a one-eyed jack can never remove: those in claimed sequences."""
        return frozenset(
            c for s in self._claimed if team is None or s.team == team for c in s.cells if c not in CORNERS
        )

    def sequence_options(self) -> tuple[tuple[Sequence, ...], ...]:
        """The sets of new sequences the players must choose between (empty if no choice)."""
        return self._options

    @property
    def winner(self) -> Team | None:
        return self._winner

    @property
    def is_blocked(self) -> bool:
        """The game ended with no winner: every player in turn passed."""
        return self._blocked

    @property
    def is_over(self) -> bool:
        return self._winner is not None or self._blocked

    # --- history ------------------------------------------------------------------------

    def actions(self) -> tuple[Action, ...]:
        return tuple(self._actions)

    def reshuffles(self) -> dict[int, tuple[Card, ...]]:
        """The new draw pile (top first) made during action number ``i``, for each ``i``."""
        return dict(self._reshuffles)

    def state(self) -> GameState:
        return GameState(
            board="".join(self._grid),
            turn=self._turn,
            hands=self.hands(),
            hand_limits=tuple(self._limits),
            draw_pile=self.draw_pile(),
            discard_piles=tuple(tuple(d) for d in self._discards),
            sequences=tuple(self._claimed),
            sequence_options=self._options,
            exchanged=self._exchanged,
            winner=self._winner,
            blocked=self._blocked,
            passes=self._passes,
            last_played=tuple(self._played_at),
        )

    # --- legal moves --------------------------------------------------------------------

    def targets(self, card: Card, player: int | None = None) -> tuple[Cell, ...]:
        """Cells where ``card`` can be played now by ``player`` (the one to move by default),
        ignoring whether they hold it: for a one-eyed jack, the chips it can remove."""
        if player is None:
            player = self._turn
        else:
            self._check_player(player)
        team = self._colours[player % len(self._colours)]
        if card in ONE_EYED_JACKS:
            grid, protected = self._grid, self._protected
            return tuple(c for c in CELLS if grid[c] not in (EMPTY, CORNER_MARK, team) and c not in protected)
        if self._chips[team] >= self._supply[team]:
            return ()
        if card in TWO_EYED_JACKS:
            return tuple(c for c in CELLS if self._grid[c] == EMPTY)
        return tuple(c for c in cells_of(card) if self._grid[c] == EMPTY)

    def legal_plays(self) -> list[Play]:
        """Every ``Play`` the player to move may make now."""
        if self.is_over or self._options:
            return []
        p = self._turn
        return [Play(p, card, c) for card in dict.fromkeys(self._hands[p]) for c in self.targets(card)]

    def legal_exchanges(self) -> list[Exchange]:
        if self.is_over or self._options or self._exchanged:
            return []
        p = self._turn
        return [Exchange(p, card) for card in dict.fromkeys(self._hands[p]) if self.is_dead(card)]

    def can_pass(self) -> bool:
        return not self.is_over and not self._options and not self._can_act(self._turn)

    def legal_actions(self) -> list[Action]:
        """Everything that may happen now, penalties aside: the pending choice, owed draws,
        the exchanges and plays of the player to move, or their pass."""
        if self.is_over:
            return []
        if self._options:
            return [ChooseSequences(i) for i in range(len(self._options))]
        actions: list[Action] = [Draw(p) for p in range(self._n) if self._owes(p)]
        actions += self.legal_exchanges()
        actions += self.legal_plays()
        if self.can_pass():
            actions.append(Pass(self._turn))
        return actions

    def is_legal(self, action: Action) -> bool:
        try:
            self._check(action)
        except IllegalActionError:
            return False
        return True

    # --- actions ------------------------------------------------------------------------

    def exchange(self, card: Card, player: int | None = None) -> None:
        """Exchange a dead card. Raises ``IllegalActionError``."""
        self.apply(Exchange(self._turn if player is None else player, card))

    def play(self, card: Card, cell: Cell, player: int | None = None) -> None:
        """Play ``card`` on ``cell``: place a chip, or remove one with a one-eyed jack.
        Raises ``IllegalActionError``."""
        self.apply(Play(self._turn if player is None else player, card, cell))

    def pass_turn(self, player: int | None = None) -> None:
        """End the turn without playing. Raises ``IllegalActionError``."""
        self.apply(Pass(self._turn if player is None else player))

    def draw(self, player: int | None = None) -> None:
        """Draw the card owed after playing; ``player`` may be left out when only one player
        owes a draw. Raises ``IllegalActionError``."""
        if player is None:
            owing = [p for p in range(self._n) if self._owes(p)]
            if len(owing) != 1:
                who = "nobody owes a card." if not owing else f"players {owing} each owe one."
                raise IllegalActionError("Say which player draws: " + who)
            player = owing[0]
        self.apply(Draw(player))

    def choose_sequences(self, option: int | tuple[Sequence, ...]) -> None:
        """Claim one of ``sequence_options()``, by index or by value. Raises ``IllegalActionError``."""
        if type(option) is not int:
            if option not in self._options:
                raise IllegalActionError("Those sequences are not one of the choices on offer.")
            option = self._options.index(option)
        self.apply(ChooseSequences(option))

    def table_talk(self, team: Team, discards: Mapping[int, Card]) -> None:
        """Penalise ``team`` for advice: ``discards`` maps each member holding cards to the
        card they give up. Raises ``IllegalActionError``."""
        self.apply(TableTalk(team, tuple(sorted(discards.items()))))

    def apply(self, action: Action, reshuffle: tuple[Card, ...] | None = None) -> None:
        """Carry out ``action``; raises ``IllegalActionError`` and changes nothing if illegal.

        ``reshuffle`` replays a recorded game: the new draw pile (top first) that this
        action's reshuffle made. It must be given exactly when the action reshuffles.
        """
        self._check(action)
        self._check_reshuffle(action, reshuffle)
        self._forced = reshuffle
        try:
            _DO[type(action)](self, action)
        finally:
            self._forced = None
        self._actions.append(action)

    # --- checks -------------------------------------------------------------------------

    def _check(self, action: Action) -> None:
        if self._winner is not None:
            raise IllegalActionError(f"The game is over: {TEAM_NAMES[self._winner]} has won.")
        if self._blocked:
            raise IllegalActionError("The game is over: nobody can play any more.")
        if self._options and not isinstance(action, ChooseSequences):
            raise IllegalActionError(
                f"{TEAM_NAMES[self.team_of(self._turn)].capitalize()} must first choose which "
                "sequences the last chip made."
            )
        checker = _CHECK.get(type(action))
        if checker is None:
            raise IllegalActionError(f"{action!r} is not an action of the game.")
        checker(self, action)

    def _check_player(self, player: int) -> None:
        if type(player) is not int or not 0 <= player < self._n:
            raise IllegalActionError(f"There is no player {player!r}: players are 0 to {self._n - 1}.")

    def _team_index(self, team: Team) -> int:
        if team not in self._colours:
            colours = " and ".join(", ".join(TEAM_NAMES[t] for t in self._colours).rsplit(", ", 1))
            raise IllegalActionError(f"{team!r} is not a team in this game: only {colours} play.")
        return self._colours.index(team)

    def _check_turn(self, player: int, doing: str) -> None:
        self._check_player(player)
        if player != self._turn:
            raise IllegalActionError(
                f"{self.player_name(player)} cannot {doing}: it is {self.player_name(self._turn)}'s turn."
            )

    def _check_holds(self, player: int, card: Card) -> None:
        if card not in self._hands[player]:
            raise IllegalActionError(f"{self.player_name(player)} has no {_card(card)} in hand.")

    def _check_exchange(self, action: Exchange) -> None:
        p, card = action.player, action.card
        self._check_turn(p, "exchange a card")
        if self._exchanged:
            raise IllegalActionError(f"{self.player_name(p)} has already exchanged a dead card this turn.")
        self._check_holds(p, card)
        if card in JACKS:
            raise IllegalActionError(f"The {card_name(card)} is never dead: play it instead.")
        if not self.is_dead(card):
            free = [c for c in cells_of(card) if self._grid[c] == EMPTY]
            raise IllegalActionError(
                f"The {card_name(card)} is not dead: {cell_name(free[0])} is still empty."
            )

    def _check_play(self, action: Play) -> None:
        p, card, c = action.player, action.card, action.cell
        self._check_turn(p, "play")
        self._check_holds(p, card)
        if type(c) is not int or not 0 <= c < len(CELLS):
            raise IllegalActionError(f"There is no cell {c!r} on the board.")
        if card in ONE_EYED_JACKS:
            self._check_removal(p, c)
        else:
            self._check_placement(p, card, c)

    def _check_removal(self, p: int, c: Cell) -> None:
        here = self._grid[c]
        if here == CORNER_MARK:
            raise IllegalActionError(f"{self.player_name(p)} cannot remove a corner: it holds no chip.")
        if here == EMPTY:
            raise IllegalActionError(
                f"{self.player_name(p)} cannot remove a chip from {cell_name(c)}: the cell is empty."
            )
        if here == self._colours[p % len(self._colours)]:
            raise IllegalActionError(f"{self.player_name(p)} cannot remove a chip of their own team.")
        if c in self._protected:
            raise IllegalActionError(
                f"{self.player_name(p)} cannot remove the chip on {cell_name(c)}: "
                "it is part of a completed sequence."
            )

    def _check_placement(self, p: int, card: Card, c: Cell) -> None:
        if c in CORNERS:
            raise IllegalActionError(
                f"{self.player_name(p)} cannot take a corner: corners already count for every team."
                if card in TWO_EYED_JACKS
                else f"The {card_name(card)} is not printed on a corner."
            )
        if card not in TWO_EYED_JACKS and c not in cells_of(card):
            printed = " and ".join(cell_name(x) for x in cells_of(card))
            raise IllegalActionError(
                f"The {card_name(card)} is not printed on {cell_name(c)}; it is on {printed}."
            )
        here = self._grid[c]
        if here != EMPTY:
            raise IllegalActionError(f"{_upper_first(cell_name(c))} already holds a {TEAM_NAMES[here]} chip.")
        team = self._colours[p % len(self._colours)]
        if self._chips[team] >= self._supply[team]:
            raise IllegalActionError(
                f"{self.player_name(p)} has no chips left: all {self._supply[team]} are on the board."
            )

    def _check_draw(self, action: Draw) -> None:
        self._check_player(action.player)
        if not self._owes(action.player):
            raise IllegalActionError(
                f"{self.player_name(action.player)} already holds {self._limits[action.player]} cards, "
                "their full hand: draw only after playing a card."
            )

    def _check_pass(self, action: Pass) -> None:
        p = action.player
        self._check_turn(p, "pass")
        if self._can_act(p):
            raise IllegalActionError(
                f"{self.player_name(p)} cannot pass: they hold a card they can play"
                + (" or exchange." if self._dead_cards(p) and not self._exchanged else ".")
            )

    def _check_choose(self, action: ChooseSequences) -> None:
        if not self._options:
            raise IllegalActionError("There is no choice of sequences to make.")
        if type(action.option) is not int or not 0 <= action.option < len(self._options):
            raise IllegalActionError(
                f"Choose a sequence option from 0 to {len(self._options) - 1}, not {action.option!r}."
            )

    def _check_table_talk(self, action: TableTalk) -> None:
        members = self.members(action.team)
        given = dict(action.discards)
        if len(given) != len(action.discards) or set(given) - set(members):
            raise IllegalActionError(
                f"Table talk: give one card for each player of the {TEAM_NAMES[action.team]} team, "
                f"players {list(members)}."
            )
        for p in members:
            if self._hands[p] and p not in given:
                raise IllegalActionError(
                    f"Table talk: {self.player_name(p)} must discard one card; say which."
                )
            if p in given:
                if not self._hands[p]:
                    raise IllegalActionError(f"Table talk: {self.player_name(p)} has no card to discard.")
                self._check_holds(p, given[p])

    def _check_reshuffle(self, action: Action, order: tuple[Card, ...] | None) -> None:
        needed = isinstance(action, (Draw, Exchange)) and not self._pile
        if order is None:
            if needed and self._rng is None:
                raise IllegalActionError("The draw pile is empty and there is no shuffle to remake it.")
            return
        if not needed:
            raise IllegalActionError("The draw pile is not empty here: there is nothing to reshuffle.")
        discards = Counter(c for pile in self._discards for c in pile)
        if isinstance(action, Exchange):
            discards[action.card] += 1
        if Counter(order) != discards:
            raise IllegalActionError(
                "The reshuffled draw pile must hold exactly the cards of the discard piles."
            )

    # --- effects (only after the checks passed) -------------------------------------------

    def _do_exchange(self, action: Exchange) -> None:
        self._begin_turn_action(action.player)
        self._hands[action.player].remove(action.card)
        self._discards[action.player].append(action.card)
        self._hands[action.player].append(self._take_card())
        self._exchanged = True
        self._passes = 0

    def _do_play(self, action: Play) -> None:
        p, card, c = action.player, action.card, action.cell
        self._begin_turn_action(p)
        self._hands[p].remove(card)
        self._discards[p].append(card)
        self._plays += 1
        self._played_at[p] = self._plays
        self._passes = 0
        if card in ONE_EYED_JACKS:
            self._chips[self._grid[c]] -= 1
            self._grid[c] = EMPTY
            self._next_turn()
            return
        team = self._colours[p % len(self._colours)]
        self._grid[c] = team
        self._chips[team] += 1
        options = new_sequence_options(self._grid, c, team, self._claimed)
        if len(options) > 1:
            self._options = options
            return
        self._claim(options[0])

    def _do_choose(self, action: ChooseSequences) -> None:
        option = self._options[action.option]
        self._options = ()
        self._claim(option)

    def _do_draw(self, action: Draw) -> None:
        p = action.player
        self._hands[p].append(self._take_card())
        self._passes = 0
        for other in range(self._n):
            if other != p and self._played_at[other] < self._played_at[p] and self._owes(other):
                self._limits[other] = len(self._hands[other])  # forgot to draw: the card is lost

    def _do_pass(self, action: Pass) -> None:
        self._begin_turn_action(action.player)
        self._passes += 1
        if self._passes >= self._n:
            self._blocked = True
        self._next_turn()

    def _do_table_talk(self, action: TableTalk) -> None:
        given = dict(action.discards)
        for p in self.members(action.team):
            if p in given:
                self._hands[p].remove(given[p])
                self._discards[p].append(given[p])
            self._limits[p] = max(0, self._limits[p] - 1)

    def _begin_turn_action(self, player: int) -> None:
        if self._owes(player):  # their own turn again and still not drawn: forgotten
            self._limits[player] = len(self._hands[player])

    def _claim(self, option: tuple[Sequence, ...]) -> None:
        for sequence in option:
            self._claimed.append(sequence)
            self._protected.update(c for c in sequence.cells if c not in CORNERS)
        team = self._colours[self._turn % len(self._colours)]
        if option and self.sequence_count(team) >= self._target:
            self._winner = team
        self._next_turn()

    def _next_turn(self) -> None:
        self._turn = (self._turn + 1) % self._n
        self._exchanged = False

    def _take_card(self) -> Card:
        if not self._pile:
            self._reshuffle()
        return self._pile.pop()

    def _reshuffle(self) -> None:
        cards = [c for pile in self._discards for c in pile]
        if self._forced is not None:
            order = self._forced
        else:
            assert self._rng is not None  # checked in _check_reshuffle
            order = tuple(cards[i] for i in self._rng.permutation(len(cards)))
        if not order:
            raise IllegalActionError("There is no card left to draw.")  # 104 cards make it impossible
        for pile in self._discards:
            pile.clear()
        self._pile = list(reversed(order))
        self._reshuffles[len(self._actions)] = tuple(order)

    def _owes(self, player: int) -> bool:
        return len(self._hands[player]) < self._limits[player]

    def _dead_cards(self, player: int) -> list[Card]:
        return [c for c in self._hands[player] if self.is_dead(c)]

    def _can_act(self, player: int) -> bool:
        hand = self._hands[player]
        if not self._exchanged and any(self.is_dead(c) for c in hand):
            return True
        return any(self.targets(card, player) for card in dict.fromkeys(hand))


def _upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


def _card(card: Card) -> str:
    return card_name(card) if is_card(card) else repr(card)


_CHECK: Final[dict[type, Callable[[Game, Any], None]]] = {
    Exchange: Game._check_exchange,
    Play: Game._check_play,
    Draw: Game._check_draw,
    Pass: Game._check_pass,
    ChooseSequences: Game._check_choose,
    TableTalk: Game._check_table_talk,
}
_DO: Final[dict[type, Callable[[Game, Any], None]]] = {
    Exchange: Game._do_exchange,
    Play: Game._do_play,
    Draw: Game._do_draw,
    Pass: Game._do_pass,
    ChooseSequences: Game._do_choose,
    TableTalk: Game._do_table_talk,
}
