"""Game records: JSON form, replay, corrections, and errors that say which action is wrong."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest

from referee.bots import BotPolicy, play_game, play_turn
from referee.cells import cell
from referee.errors import RecordError
from referee.game import ChooseSequences, Draw, Exchange, Game, Pass, Play, Setup, TableTalk
from referee.record import Confirm, Entry, Record, Undo, effective_entries, record_of, replay
from tests.referee.test_game import GREEN_CELLS, SPLITS, cards_for, place_all, row1, stacked


def short_game() -> Game:
    """Blue plays 6C on 1,0 and draws; green plays 7S on 8,1 and draws."""
    game = stacked(2, [cards_for(row1(0, 1)), cards_for(GREEN_CELLS[:1])])
    place_all(game, [cell(1, 0), GREEN_CELLS[0]])
    return game


def played(seed: int, players: int = 2, teams: int | None = None) -> Game:
    rng = np.random.default_rng(seed)
    return play_game(Game.new(players, rng, teams), rng)


# --- the JSON form ---------------------------------------------------------------------


def test_json_form_of_a_short_game() -> None:
    game = short_game()
    data = record_of(game).to_json()
    assert data["version"] == 1 and data["players"] == 2 and data["teams"] == 2
    assert data["cuts"] == [["AS", "2C"]] and len(data["deck"]) == 104
    assert data["actions"] == [
        {"type": "play", "player": 0, "card": "6C", "cell": [1, 0]},
        {"type": "draw", "player": 0},
        {"type": "play", "player": 1, "card": "7S", "cell": [8, 1]},
        {"type": "draw", "player": 1},
    ]
    assert json.loads(json.dumps(data)) == data


def test_every_entry_type_round_trips() -> None:
    entries = (
        Entry(Exchange(0, "AS"), ("KD", "QD")),
        Entry(Play(0, "JD", cell(5, 5))),
        Entry(ChooseSequences(1)),
        Entry(Draw(0), ("2C",)),
        Entry(Pass(1)),
        Entry(TableTalk("G", ((1, "3H"), (3, "4H")))),
        Entry(Undo(1)),
        Entry(Confirm(2, "the camera read it right")),
        Entry(Confirm()),
    )
    record = Record(short_game().setup, entries)
    assert Record.loads(record.dumps()) == record
    assert Record.from_json(record.to_json()) == record


def test_replaying_a_record_gives_the_same_state() -> None:
    game = played(11, 4)
    again = replay(Record.loads(record_of(game).dumps()))
    assert again.state() == game.state()
    assert again.actions() == game.actions() and again.reshuffles() == game.reshuffles()
    assert again.board() == game.board() and again.sequences() == game.sequences()


def test_a_replayed_game_goes_on_with_a_generator() -> None:
    rng = np.random.default_rng(4)
    game = Game.new(3, rng)
    for _ in range(10):
        play_turn(game, rng)
    again = replay(record_of(game), np.random.default_rng(5))
    play_game(again, np.random.default_rng(6))
    assert again.is_over and again.actions()[: len(game.actions())] == game.actions()


# --- malformed records -----------------------------------------------------------------


def broken(change) -> dict:  # type: ignore[no-untyped-def]
    data = record_of(short_game()).to_json()
    change(data)
    return data


@pytest.mark.parametrize(
    "change, reason",
    [
        (lambda d: d.pop("version"), "not a version 1 game record"),
        (lambda d: d.update(version=2), r"version 2\)"),
        (lambda d: d.pop("players"), "'players' is missing"),
        (lambda d: d.update(players="two"), "'players' must be a whole number"),
        (lambda d: d.update(players=5, teams=2), "setup: Sequence cannot be played by 5 players"),
        (lambda d: d.update(teams=3), "setup: 2 players cannot play as 3 teams"),
        (lambda d: d["deck"].pop(), "setup: the deck must be the 104 cards"),
        (lambda d: d["deck"].__setitem__(5, "ZZ"), "'deck' must be a card like"),
        (lambda d: d.update(cuts=[["5S", "5H"]]), "setup: the cuts leave players \\[0, 1\\] tied"),
        (lambda d: d.update(actions={}), "'actions' must be a list"),
        (lambda d: d["actions"].append("draw"), "action 4: an action is a JSON object"),
        (lambda d: d["actions"].append({"type": "teleport"}), "action 4: unknown action type 'teleport'"),
        (lambda d: d["actions"][2].update(cell=[10, 0]), r"action 2: 'cell' must be \[row, column\]"),
        (lambda d: d["actions"][2].update(cell=[1]), r"action 2: 'cell' must be \[row, column\]"),
        (lambda d: d["actions"][1].update(player=True), "action 1: 'player' must be a whole number"),
        (lambda d: d["actions"][0].pop("card"), "action 0: 'card' is missing"),
        (lambda d: d["actions"][0].update(reshuffle=["AS"]), "action 0: only a draw or an exchange can"),
        (lambda d: d["actions"].append({"type": "table_talk", "team": "B", "discards": [[0]]}), "action 4: 'disc"),
    ],
)
def test_a_malformed_record_says_what_is_wrong(change, reason: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RecordError, match=reason):
        Record.from_json(broken(change))


def test_text_that_is_not_json_is_a_record_error() -> None:
    with pytest.raises(RecordError, match="must be JSON"):
        Record.loads("{not json")
    with pytest.raises(RecordError, match="a game record is a JSON object"):
        Record.loads("[1, 2]")


# --- records that do not replay --------------------------------------------------------


def replaying(change) -> Game:  # type: ignore[no-untyped-def]
    return replay(Record.from_json(broken(change)))


NOT_REPLAYING = [
    (
        lambda d: d["actions"][2].update(cell=[8, 2]),
        r"action 2 \(play by player 1\) does not replay: The 7 of spades is not printed on row 8, column 2",
    ),
    (
        lambda d: d["actions"][2].update(player=0),
        r"action 2 \(play by player 0\) does not replay: Blue cannot play: it is Green's turn",
    ),
    (
        lambda d: d["actions"].insert(1, {"type": "draw", "player": 1}),
        r"action 1 \(draw by player 1\) does not replay: Green already holds 7 cards",
    ),
    (
        lambda d: d["actions"].append({"type": "choose", "option": 0}),
        r"action 4 \(choose\) does not replay: There is no choice",
    ),
    (
        lambda d: d["actions"].append({"type": "pass", "player": 0}),
        r"action 4 \(pass by player 0\) does not replay: Blue cannot pass",
    ),
    (
        lambda d: d["actions"][1].update(reshuffle=list(d["deck"][:3])),
        r"action 1 \(draw by player 0\) does not replay: The draw pile is not empty",
    ),
]


@pytest.mark.parametrize("change, reason", NOT_REPLAYING)
def test_a_record_that_does_not_replay_names_the_action_and_the_reason(change, reason: str) -> None:  # type: ignore
    with pytest.raises(RecordError, match=reason):
        replaying(change)


def reshuffling_game() -> tuple[Game, int]:
    """A bot game that reshuffled, and the number of the action that did."""
    for seed in range(100):
        game = played(seed, 2)
        if game.reshuffles():
            return game, min(game.reshuffles())
    raise AssertionError("no game reshuffled")


def test_a_reshuffle_needs_its_order_in_the_record() -> None:
    game, number = reshuffling_game()
    data = record_of(game).to_json()
    data["actions"][number].pop("reshuffle")
    with pytest.raises(RecordError, match=f"action {number} .* reshuffles the discards, but the record gives no"):
        replay(Record.from_json(data))


def test_a_reshuffle_must_hold_the_discarded_cards() -> None:
    game, number = reshuffling_game()
    data = record_of(game).to_json()
    order = data["actions"][number]["reshuffle"]
    order[0] = next(c for c in ("AS", "KD", "2C") if c != order[0])
    if Counter(order) == Counter(game.reshuffles()[number]):  # pragma: no cover - the swap kept the cards
        order.append("AS")
    with pytest.raises(RecordError, match=f"action {number} .* must hold exactly the cards of the discard"):
        replay(Record.from_json(data))


def test_actions_after_the_end_do_not_replay() -> None:
    game = played(3, 3)
    data = record_of(game).to_json()
    data["actions"].append({"type": "draw", "player": game.turn})
    with pytest.raises(RecordError, match=f"action {len(game.actions())} .* The game is over"):
        replay(Record.from_json(data))


# --- corrections -----------------------------------------------------------------------


def test_undo_takes_back_the_last_actions() -> None:
    game = short_game()
    record = record_of(game)
    assert effective_entries(record.undo()) == [0, 1, 2]
    assert replay(record.undo()).owes_draw(1)
    twice = record.undo().undo()
    before = stacked(2, [cards_for(row1(0, 1)), cards_for(GREEN_CELLS[:1])])
    place_all(before, [cell(1, 0)])
    assert replay(twice).state() == before.state()
    assert twice.entries[-2:] == (Entry(Undo(3)), Entry(Undo(2)))
    other = next(a for a in replay(twice).legal_plays() if a.cell != GREEN_CELLS[0])
    before.apply(other)
    assert replay(Record.loads(twice.appended(other).dumps())).state() == before.state()


def test_undo_of_an_entry_that_later_actions_need_fails_at_the_later_action() -> None:
    record = record_of(short_game()).appended(Undo(0))
    with pytest.raises(RecordError, match=r"action 1 \(draw by player 0\) does not replay"):
        replay(record)


@pytest.mark.parametrize(
    "entry, reason",
    [
        (Undo(4), "refers to entry 4, which is not an earlier entry"),
        (Undo(-1), "refers to entry -1"),
        (Confirm(9), "refers to entry 9"),
    ],
)
def test_a_correction_must_point_at_an_earlier_game_action(entry: Undo | Confirm, reason: str) -> None:
    with pytest.raises(RecordError, match=f"action 4: it {reason}"):
        replay(record_of(short_game()).appended(entry))


def test_an_entry_is_undone_once_and_corrections_are_not_undone() -> None:
    record = record_of(short_game()).appended(Undo(3))
    with pytest.raises(RecordError, match="action 5: entry 3 is already undone"):
        replay(record.appended(Undo(3)))
    with pytest.raises(RecordError, match="action 5: entry 4 is a correction"):
        replay(record.appended(Undo(4)))


def test_a_confirmation_changes_nothing() -> None:
    game = short_game()
    record = record_of(game).appended(Confirm(2, "green chip seen on 8,1")).appended(Confirm(note="read"))
    assert replay(Record.loads(record.dumps())).state() == game.state()


def test_undo_with_nothing_to_undo() -> None:
    record = Record(short_game().setup)
    with pytest.raises(RecordError, match="no action to undo"):
        record.undo()


# --- random games: record, serialise, replay -------------------------------------------


class SnapshotGame(Game):
    """Keeps its state after action number ``at`` (or at the start), to compare with a replay
    of that much of the record."""

    def __init__(self, setup: Setup, rng: np.random.Generator, at: int) -> None:
        super().__init__(setup, rng)
        self.at = at
        self.done = 0
        self.snapshot = self.state()

    def apply(self, action, reshuffle=None):  # type: ignore[no-untyped-def]
        super().apply(action, reshuffle)
        self.done += 1
        if self.done == self.at:
            self.snapshot = self.state()


@pytest.mark.parametrize("players, teams", SPLITS)
def test_random_game_records_replay_to_the_identical_state(players: int, teams: int) -> None:
    rng = np.random.default_rng(2000 + players * 10 + teams)
    policy = BotPolicy(forget_draw=0.02, exchange=0.9, one_eyed=0.4)
    kinds: Counter[str] = Counter()
    for _ in range(GAMES_PER_SPLIT):
        game = SnapshotGame(Setup.shuffled(players, rng, teams), rng, at=int(rng.integers(300)))
        while not game.is_over:
            if rng.random() < 0.003 and not game.sequence_options():
                team = game.teams[int(rng.integers(len(game.teams)))]
                game.table_talk(team, {p: game.hand(p)[-1] for p in game.members(team) if game.hand(p)})
            play_turn(game, rng, policy)
        record = record_of(game)
        text = record.dumps()
        again = Record.loads(text)
        assert again == record
        assert replay(again).state() == game.state()
        if game.at <= len(record.entries):
            assert replay(Record(record.setup, record.entries[: game.at])).state() == game.snapshot
        kinds.update(type(a).__name__ for a in game.actions())
        kinds.update("Reshuffle" for _ in game.reshuffles())
    assert set(kinds) >= {"Play", "Draw", "Exchange"}, kinds
    RECORDED_KINDS.update(kinds)


GAMES_PER_SPLIT = 140
RECORDED_KINDS: Counter[str] = Counter()


def test_the_random_records_covered_every_kind_of_action() -> None:
    if not RECORDED_KINDS:
        pytest.skip("run with the random record tests")
    kinds = {"Play", "Draw", "Exchange", "Pass", "ChooseSequences", "TableTalk", "Reshuffle"}
    assert set(RECORDED_KINDS) == kinds
