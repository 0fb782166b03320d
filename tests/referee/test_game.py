"""The game of Sequence, rule by rule (../../../shared/RULES.md), then random games to the end."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.bots import BotPolicy, choose_action, line_value, play_game, play_turn, play_value
from referee.cells import CHIP_SUPPLY, CORNERS, DECK, LAYOUT, cell, cells_of, teams_for
from referee.errors import IllegalActionError
from referee.game import (
    DEAL_SIZES,
    ChooseSequences,
    Draw,
    Game,
    Pass,
    Play,
    Setup,
    SetupError,
    TableTalk,
    cut_for_deal,
    dealer_from_cuts,
    deal_size,
    new_sequence_options,
    team_count_for,
)
from referee.lines import WINDOWS
from referee.sequences import Sequence

SPLITS = [(n, t) for n in DEAL_SIZES for t in (2, 3) if n % t == 0 and (n > 3 or n == t)]
_CUT_HIGH = ("AS", "AH", "AD", "AC", "KS", "KH", "KD", "KC", "QS", "QH", "QD")


# --- helpers ---------------------------------------------------------------------------


def stacked_setup(
    players: int, cards: list[list[str]], teams: int | None = None, chip_supply: tuple[int, ...] | None = None
) -> Setup:
    """Player ``players - 1`` deals, so player 0 starts. Player p receives ``cards[p]`` in
    order: first the hand, then one card per draw, the players drawing in turn order."""
    size = DEAL_SIZES[players]
    wanted = [list(cards[p]) if p < len(cards) else [] for p in range(players)]
    spare = Counter(DECK)
    spare.subtract(c for hand in wanted for c in hand)
    assert min(spare.values()) >= 0, "a card is asked for more than twice"
    filler = iter([c for c, k in spare.items() for _ in range(k)])
    deck: list[str] = []
    for r in range(max(size, max(len(w) for w in wanted))):
        for p in range(players):
            deck.append(wanted[p][r] if r < len(wanted[p]) else next(filler))
    deck.extend(filler)
    cuts = (tuple(_CUT_HIGH[p] if p < players - 1 else "2C" for p in range(players)),)
    return Setup(players, team_count_for(players, teams), tuple(deck), cuts, chip_supply)


def stacked(
    players: int, cards: list[list[str]], teams: int | None = None, chip_supply: tuple[int, ...] | None = None
) -> Game:
    return Game(stacked_setup(players, cards, teams, chip_supply), np.random.default_rng(0))


def cards_for(cells: list[int]) -> list[str]:
    return [LAYOUT[c] for c in cells]


def place_all(game: Game, moves: list[int]) -> None:
    """Each player in turn places a chip on the next cell with that cell's card, then draws."""
    for c in moves:
        game.play(LAYOUT[c], c)
        game.draw()


def row1(*cols: int) -> list[int]:
    return [cell(1, col) for col in cols]


# Harmless cells for the other teams: far from row 1 and never five in a line.
GREEN_CELLS = [cell(8, 1), cell(8, 3), cell(8, 5), cell(8, 7), cell(6, 2), cell(6, 4), cell(6, 6), cell(6, 8)]
RED_CELLS = [cell(3, 0), cell(3, 2), cell(3, 4), cell(3, 6), cell(3, 8)]


def interleave(*moves: list[int]) -> list[int]:
    return [c for turn in zip(*moves) for c in turn]


# --- setup -----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [0, 1, 5, 7, 11, 13, 24])
def test_player_counts_that_cannot_split_are_rejected(players: int) -> None:
    with pytest.raises(SetupError, match=f"cannot be played by {players} players"):
        team_count_for(players)
    with pytest.raises(SetupError):
        Game.new(players, np.random.default_rng(0))


@pytest.mark.parametrize("players, teams", [(2, 2), (3, 3), (4, 2), (8, 2), (9, 3), (10, 2)])
def test_the_only_split_is_found(players: int, teams: int) -> None:
    assert team_count_for(players) == teams
    assert team_count_for(players, teams) == teams


@pytest.mark.parametrize("players", [6, 12])
def test_six_and_twelve_players_choose_two_or_three_teams(players: int) -> None:
    with pytest.raises(SetupError, match="say which"):
        team_count_for(players)
    assert team_count_for(players, 2) == 2 and team_count_for(players, 3) == 3


IMPOSSIBLE_SPLITS = [(2, 3), (3, 2), (4, 3), (8, 3), (9, 2), (10, 3), (12, 4), (4, 4), (6, 6)]


@pytest.mark.parametrize("players, teams", IMPOSSIBLE_SPLITS)
def test_impossible_team_splits_are_rejected(players: int, teams: int) -> None:
    with pytest.raises(SetupError, match=f"cannot play as {teams} teams"):
        team_count_for(players, teams)


@pytest.mark.parametrize("players, teams", SPLITS)
def test_teams_alternate_around_the_table(players: int, teams: int) -> None:
    game = Game.new(players, np.random.default_rng(players), teams)
    colours = teams_for(teams)
    assert game.teams == colours
    assert [game.team_of(p) for p in range(players)] == [colours[p % teams] for p in range(players)]
    assert game.members("B") == tuple(range(0, players, teams))
    assert game.target == (2 if teams == 2 else 1)


@pytest.mark.parametrize("players, teams", SPLITS)
def test_deal_sizes(players: int, teams: int) -> None:
    expected = {2: 7, 3: 6, 4: 6, 6: 5, 8: 4, 9: 4, 10: 3, 12: 3}[players]
    game = Game.new(players, np.random.default_rng(1), teams)
    assert deal_size(players) == expected
    assert [len(game.hand(p)) for p in range(players)] == [expected] * players
    assert [game.hand_limit(p) for p in range(players)] == [expected] * players
    assert game.pile_size == 104 - players * expected


def test_deal_starts_left_of_the_dealer_one_card_at_a_time() -> None:
    deck = tuple(DECK)
    game = Game(Setup(3, 3, deck, (("AS", "2C", "KD"),)), None)  # player 1 cuts lowest
    assert game.dealer == 1 and game.turn == 2
    assert game.hand(2) == deck[0:18:3] and game.hand(0) == deck[1:18:3] and game.hand(1) == deck[2:18:3]
    assert game.draw_pile()[0] == deck[18]


def test_lowest_cut_deals_and_ace_is_high() -> None:
    assert dealer_from_cuts(2, (("AS", "KD"),)) == 1
    assert dealer_from_cuts(4, (("QS", "JH", "TD", "AC"),)) == 2
    assert dealer_from_cuts(3, (("9S", "2H", "AD"),)) == 1


def test_tied_lowest_cuts_cut_again() -> None:
    assert dealer_from_cuts(4, (("3S", "KH", "3D", "9C"), ("QS", "4D"))) == 2
    assert dealer_from_cuts(3, (("5S", "5H", "5D"), ("7S", "7H", "AD"), ("AS", "KC"))) == 1
    with pytest.raises(SetupError, match="tied"):
        dealer_from_cuts(4, (("3S", "KH", "3D", "9C"),))
    with pytest.raises(SetupError, match="not needed"):
        dealer_from_cuts(2, (("3S", "KH"), ("4S", "5S")))
    with pytest.raises(SetupError, match="one card for each"):
        dealer_from_cuts(3, (("3S", "KH"),))


def test_the_player_left_of_the_dealer_starts() -> None:
    for seed in range(30):
        game = Game.new(4, np.random.default_rng(seed))
        assert game.turn == (game.dealer + 1) % 4
        assert len(game.setup.cuts[0]) == 4


def test_random_cuts_give_one_lowest_card_and_recut_ties() -> None:
    recuts = 0
    for seed in range(200):
        cuts = cut_for_deal(12, np.random.default_rng(seed))
        dealer = dealer_from_cuts(12, cuts)
        order = "23456789TJQKA"
        lowest = min(order.index(c[0]) for c in cuts[-1])
        assert sum(order.index(c[0]) == lowest for c in cuts[-1]) == 1
        assert 0 <= dealer < 12
        recuts += len(cuts) > 1
    assert recuts > 0


def test_a_deck_must_be_two_full_decks() -> None:
    with pytest.raises(SetupError, match="104 cards"):
        Setup(2, 2, tuple(DECK[:-1]), (("AS", "2C"),))
    with pytest.raises(SetupError, match="104 cards"):
        Setup(2, 2, ("AS",) + tuple(DECK[1:-1]) + ("AS",), (("AS", "2C"),))


# --- turns -----------------------------------------------------------------------------


def test_play_goes_clockwise() -> None:
    moves = [cell(1, 0), cell(8, 1), cell(1, 2), cell(8, 3), cell(1, 4), cell(8, 5)]
    game = stacked(6, [cards_for(moves[p :: 6]) for p in range(6)], teams=3)
    seen = []
    for c in moves:
        seen.append(game.turn)
        game.play(LAYOUT[c], c)
        game.draw()
    assert seen == [0, 1, 2, 3, 4, 5] and game.turn == 0
    assert game.board().rows()[1] == "B.R.G....."


def test_only_the_player_to_move_may_play() -> None:
    game = stacked(2, [cards_for(row1(0)), cards_for(GREEN_CELLS[:1])])
    with pytest.raises(IllegalActionError, match="Green cannot play: it is Blue's turn"):
        game.play(LAYOUT[GREEN_CELLS[0]], GREEN_CELLS[0], player=1)


def test_a_card_must_be_in_hand_and_go_on_its_printed_empty_cell() -> None:
    game = stacked(4, [["5C", "AS", "2S"], ["5C"]])
    with pytest.raises(IllegalActionError, match="has no 9 of diamonds in hand"):
        game.play("9D", cell(4, 7))
    with pytest.raises(IllegalActionError, match="not printed on row 2, column 2"):
        game.play("5C", cell(2, 2))
    with pytest.raises(IllegalActionError, match="not printed on a corner"):
        game.play("AS", 0)
    game.play("5C", cell(1, 1))
    game.draw(0)
    with pytest.raises(IllegalActionError, match="already holds a blue chip"):
        game.play("5C", cell(1, 1))
    game.play("5C", cell(3, 3))  # the other 5 of clubs
    assert game.board()[cell(3, 3)] == "G"


def test_turn_actions_are_recorded_in_order() -> None:
    game = stacked(2, [cards_for(row1(0)), cards_for(GREEN_CELLS[:1])])
    place_all(game, [cell(1, 0), GREEN_CELLS[0]])
    assert game.actions() == (
        Play(0, LAYOUT[cell(1, 0)], cell(1, 0)),
        Draw(0),
        Play(1, LAYOUT[GREEN_CELLS[0]], GREEN_CELLS[0]),
        Draw(1),
    )


# --- jacks -----------------------------------------------------------------------------


def test_two_eyed_jacks_place_on_any_empty_cell_but_not_a_corner() -> None:
    game = stacked(2, [["JD", "JC"], ["JD", "5C"]])
    for corner in CORNERS:
        with pytest.raises(IllegalActionError, match="cannot take a corner"):
            game.play("JD", corner)
    game.play("JD", cell(5, 5))
    game.draw()
    with pytest.raises(IllegalActionError, match="already holds a blue chip"):
        game.play("JD", cell(5, 5))
    game.play("JD", cell(5, 6))
    assert game.board()[cell(5, 5)] == "B" and game.board()[cell(5, 6)] == "G"


def test_one_eyed_jack_removes_an_opponent_chip_and_ends_the_turn() -> None:
    game = stacked(2, [["6C", "JS", "9S"], ["7S", "7S"]])
    place_all(game, [cell(1, 0), cell(8, 1)])
    game.play("JS", cell(8, 1))
    assert game.board()[cell(8, 1)] == "." and game.turn == 1
    assert game.discard_pile(0) == ("6C", "JS")
    with pytest.raises(IllegalActionError, match="Blue cannot play: it is Green's turn"):
        game.play("9S", cell(0, 8), player=0)  # no chip after a removal, least of all on that cell
    game.draw(0)
    game.play("7S", cell(8, 1))  # the cleared cell is open to everyone afterwards
    assert game.board()[cell(8, 1)] == "G"


def test_one_eyed_jack_cannot_remove_own_chip_empty_cell_or_corner() -> None:
    game = stacked(2, [["6C", "JH"], ["7S"]])
    place_all(game, [cell(1, 0), cell(8, 1)])
    with pytest.raises(IllegalActionError, match="Blue cannot remove a chip of their own team"):
        game.play("JH", cell(1, 0))
    with pytest.raises(IllegalActionError, match="the cell is empty"):
        game.play("JH", cell(5, 5))
    with pytest.raises(IllegalActionError, match="cannot remove a corner"):
        game.play("JH", 99)
    assert game.targets("JH") == (cell(8, 1),)


def test_one_eyed_jack_cannot_remove_a_chip_of_a_completed_sequence() -> None:
    blue = row1(0, 1, 2, 3, 4, 5)
    green = GREEN_CELLS[:5]
    game = stacked(2, [cards_for(blue), cards_for(green) + ["JS"]])
    place_all(game, interleave(blue[:5], green[:5]))
    assert game.sequences() == (Sequence("B", tuple(blue[:5])),)
    place_all(game, blue[5:])
    protected = r"cannot remove the chip on row 1, column 2 \(4♣\): it is part of a completed sequence"
    with pytest.raises(IllegalActionError, match=protected):
        game.play("JS", cell(1, 2))
    assert game.targets("JS") == (cell(1, 5),)  # outside the sequence: fair game
    game.play("JS", cell(1, 5))
    assert game.board().rows()[1] == "BBBBB....."


def test_jacks_are_never_dead() -> None:
    game = stacked(2, [["JD", "JS", "JC", "JH"]])
    for jack in ("JD", "JS", "JC", "JH"):
        assert not game.is_dead(jack)
        with pytest.raises(IllegalActionError, match="never dead"):
            game.exchange(jack)


# --- dead cards ------------------------------------------------------------------------


def test_a_dead_card_is_exchanged_once_per_turn_before_playing() -> None:
    blue = ["AS", "AS", "6C", "5C", "4C", "3C", "2C"]
    game = stacked(2, [blue, ["JD", "JC"]])
    a, b = cells_of("AS")
    game.play("6C", cell(1, 0))
    game.draw()
    game.play("JD", a)
    game.draw()
    assert not game.is_dead("AS")
    with pytest.raises(IllegalActionError, match=r"not dead: row 4, column 9 \(A♠\) is still empty"):
        game.exchange("AS")
    game.play("5C", cell(1, 1))
    game.draw()
    game.play("JC", b)
    game.draw()
    assert game.is_dead("AS")
    top = game.draw_pile()[0]
    game.exchange("AS")
    assert game.discard_pile(0)[-1] == "AS" and game.hand(0).count("AS") == 1 and top in game.hand(0)
    assert len(game.hand(0)) == 7 and game.has_exchanged
    with pytest.raises(IllegalActionError, match="already exchanged a dead card this turn"):
        game.exchange("AS")
    game.play("4C", cell(1, 2))
    with pytest.raises(IllegalActionError, match="it is Green's turn"):
        game.exchange("AS", player=0)  # after playing, the turn is over


def test_a_card_with_one_cell_taken_is_not_dead() -> None:
    game = stacked(2, [["8D"], ["8D"]])
    game.play("8D", cells_of("8D")[0])
    game.draw()
    assert not game.is_dead("8D") and game.targets("8D") == (cells_of("8D")[1],)


# --- drawing ---------------------------------------------------------------------------


def test_drawing_takes_the_top_card_and_only_after_playing() -> None:
    game = stacked(2, [["6C"]])
    with pytest.raises(IllegalActionError, match="full hand: draw only after playing"):
        game.draw(0)
    top = game.draw_pile()[0]
    game.play("6C", cell(1, 0))
    assert game.owes_draw(0) and len(game.hand(0)) == 6
    game.draw()
    assert game.hand(0)[-1] == top and not game.owes_draw(0)
    with pytest.raises(IllegalActionError, match="Say which player draws: nobody owes a card"):
        game.draw()


def test_an_empty_draw_pile_is_remade_from_all_discard_piles() -> None:
    no_exchange = BotPolicy(exchange=0.0)
    for seed in range(50):
        rng = np.random.default_rng(seed)
        game = Game.new(2, rng)
        while game.pile_size and not game.is_over:
            play_turn(game, rng, no_exchange)
        while not game.is_over and not any(game.owes_draw(p) for p in range(2)):
            game.apply(choose_action(game, rng, no_exchange))  # the next play
        if not game.is_over:
            break
    else:
        pytest.fail("no seed emptied the draw pile")
    player = next(p for p in range(2) if game.owes_draw(p))
    discards = Counter(c for p in range(2) for c in game.discard_pile(p))
    assert game.pile_size == 0 and sum(discards.values()) > 1
    game.draw(player)
    assert all(game.discard_pile(p) == () for p in range(2))
    assert Counter(game.draw_pile()) + Counter([game.hand(player)[-1]]) == discards
    assert list(game.reshuffles()) == [len(game.actions()) - 1]


# --- penalties -------------------------------------------------------------------------


def test_a_forgotten_draw_is_lost_once_the_next_player_has_played_and_drawn() -> None:
    game = stacked(2, [cards_for(row1(0, 1, 2)), cards_for(GREEN_CELLS[:2])])
    game.play("6C", cell(1, 0))  # blue forgets to draw
    game.play(LAYOUT[GREEN_CELLS[0]], GREEN_CELLS[0])
    assert game.owes_draw(0)
    game.draw(1)
    assert game.hand_limit(0) == 6 and len(game.hand(0)) == 6 and not game.owes_draw(0)
    with pytest.raises(IllegalActionError, match="already holds 6 cards"):
        game.draw(0)
    place_all(game, [cell(1, 1)])
    assert len(game.hand(0)) == 6 and game.hand_limit(1) == 7


def test_a_late_draw_before_the_next_player_draws_is_no_fault() -> None:
    game = stacked(2, [cards_for(row1(0)), cards_for(GREEN_CELLS[:1])])
    game.play("6C", cell(1, 0))
    game.play(LAYOUT[GREEN_CELLS[0]], GREEN_CELLS[0])
    with pytest.raises(IllegalActionError, match="Say which player draws"):
        game.draw()
    game.draw(0)
    game.draw(1)
    assert [game.hand_limit(p) for p in (0, 1)] == [7, 7]
    assert [len(game.hand(p)) for p in (0, 1)] == [7, 7]


def test_two_forgotten_draws_are_both_lost() -> None:
    game = stacked(3, [cards_for(row1(0, 1)), cards_for(GREEN_CELLS[:1]), cards_for(RED_CELLS[:1])])
    game.play("6C", cell(1, 0))
    game.play(LAYOUT[GREEN_CELLS[0]], GREEN_CELLS[0])
    game.play(LAYOUT[RED_CELLS[0]], RED_CELLS[0])
    game.draw(2)
    assert [game.hand_limit(p) for p in range(3)] == [5, 5, 6]
    assert not any(game.owes_draw(p) for p in range(3))


def test_a_player_still_owing_a_card_at_their_next_turn_has_lost_it() -> None:
    game = stacked(2, [cards_for(row1(0, 1)), cards_for(GREEN_CELLS[:1])])
    game.play("6C", cell(1, 0))
    game.play(LAYOUT[GREEN_CELLS[0]], GREEN_CELLS[0])  # neither draws
    game.play("5C", cell(1, 1))
    assert game.hand_limit(0) == 6 and len(game.hand(0)) == 5
    game.draw(0)  # and now green, who played before blue, has lost theirs too
    assert game.hand_limit(1) == 6 and not game.owes_draw(1)


def test_table_talk_costs_every_team_member_one_card_for_the_rest_of_the_game() -> None:
    game = stacked(4, [cards_for(row1(0, 1)), cards_for(GREEN_CELLS[:2]), ["AS", "KD"]])
    game.table_talk("B", {0: "5C", 2: "KD"})
    assert [game.hand_limit(p) for p in range(4)] == [5, 6, 5, 6]
    assert [len(game.hand(p)) for p in range(4)] == [5, 6, 5, 6]
    assert game.discard_pile(0) == ("5C",) and game.discard_pile(2) == ("KD",)
    assert "5C" not in game.hand(0) and game.turn == 0
    place_all(game, [cell(1, 0)])
    assert len(game.hand(0)) == 5 and game.actions()[0] == TableTalk("B", ((0, "5C"), (2, "KD")))


def test_table_talk_needs_one_held_card_from_each_team_member() -> None:
    game = stacked(4, [["6C"], ["7S"], ["AS"], ["KD", "QD", "QD"]])
    with pytest.raises(IllegalActionError, match=r"Player 2 \(blue\) must discard one card"):
        game.table_talk("B", {0: "6C"})
    with pytest.raises(IllegalActionError, match=r"Player 2 \(blue\) has no queen of diamonds in hand"):
        game.table_talk("B", {0: "6C", 2: "QD"})
    with pytest.raises(IllegalActionError, match="players \\[1, 3\\]"):
        game.table_talk("G", {0: "6C", 1: "7S", 3: "KD"})
    with pytest.raises(IllegalActionError, match="only blue and green play"):
        game.table_talk("R", {})
    assert game.hand_limit(0) == 6


def test_a_player_with_no_cards_left_can_only_pass_and_all_passing_ends_the_game() -> None:
    game = stacked(2, [cards_for(row1(0, 1, 2, 3, 4, 5, 6))])
    for _ in range(7):
        game.table_talk("B", {0: game.hand(0)[0]})
    assert game.hand(0) == () and game.hand_limit(0) == 0
    game.table_talk("B", {})  # an empty hand cannot shrink further
    assert game.hand_limit(0) == 0
    assert game.legal_actions() == [Pass(0)] and game.can_pass()
    game.pass_turn()
    assert game.turn == 1 and not game.is_over
    with pytest.raises(IllegalActionError, match="Green cannot pass: they hold a card they can play"):
        game.pass_turn()
    for _ in range(7):
        game.table_talk("G", {1: game.hand(1)[0]})
    game.pass_turn()
    assert game.is_over and game.is_blocked and game.winner is None
    with pytest.raises(IllegalActionError, match="nobody can play any more"):
        game.pass_turn()


def test_a_dead_card_must_be_exchanged_before_passing() -> None:
    blue = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "AS"]
    game = stacked(2, [blue, ["JD", "JC"]])
    a, b = cells_of("AS")
    place_all(game, [cell(0, 1)])
    game.play("JD", a)
    game.draw()
    place_all(game, [cell(0, 2)])
    game.play("JC", b)
    game.draw()
    for card in [c for c in game.hand(0) if c != "AS"]:
        game.table_talk("B", {0: card})
    assert game.hand(0) == ("AS",) and game.is_dead("AS")
    with pytest.raises(IllegalActionError, match="they hold a card they can play or exchange"):
        game.pass_turn()
    assert game.draw_pile()[0] == "AS"  # the other ace of spades, as dead as the first
    game.exchange("AS")
    assert game.hand(0) == ("AS",) and game.legal_actions() == [Pass(0)]
    game.pass_turn()
    assert game.turn == 1


# --- chips ---------------------------------------------------------------------------


def test_a_team_out_of_chips_cannot_place_but_may_still_remove() -> None:
    blue, green = row1(0, 1, 2), GREEN_CELLS[:2]
    game = stacked(2, [cards_for(blue) + ["JD", "JS"], cards_for(green)], chip_supply=(2, 2))
    assert game.setup.supply("B") == 2 and game.chips_left("B") == 2
    place_all(game, interleave(blue, green))
    assert game.chips_left("B") == 0 and game.chips_left("G") == 0
    assert game.targets("6C") == () and game.targets("JD") == () and game.targets("JS") == tuple(green)
    with pytest.raises(IllegalActionError, match="Blue has no chips left: all 2 are on the board"):
        game.play("JD", cell(5, 5))
    game.play("JS", green[0])
    assert game.chips_left("G") == 1


def test_the_chip_supply_must_suit_the_teams() -> None:
    with pytest.raises(SetupError, match="chip supply"):
        stacked_setup(2, [], chip_supply=(50,))
    with pytest.raises(SetupError, match="chip supply"):
        stacked_setup(3, [], chip_supply=(48, 48, 0))
    assert stacked_setup(3, [], chip_supply=(50, 50, 35)).supply("R") == 35


# --- sequences in play -----------------------------------------------------------------


def test_five_in_a_row_is_claimed_and_protected() -> None:
    blue, green = row1(0, 1, 2, 3, 4), GREEN_CELLS[:4]
    game = stacked(2, [cards_for(blue), cards_for(green)])
    place_all(game, interleave(blue, green)[:8])
    assert game.sequences() == () and game.protected_cells() == frozenset()
    place_all(game, blue[4:])
    assert game.sequences() == (Sequence("B", tuple(blue)),)
    assert game.sequence_counts() == {"B": 1, "G": 0}
    assert game.protected_cells() == frozenset(blue) == game.protected_cells("B")
    assert not game.is_over and game.winner is None


def test_a_corner_counts_for_the_sequence() -> None:
    blue, green = [cell(0, c) for c in (1, 2, 3, 4)], GREEN_CELLS[:3]
    game = stacked(2, [cards_for(blue), cards_for(green)])
    place_all(game, interleave(blue, green) + blue[3:])
    assert game.sequences() == (Sequence("B", (0, 1, 2, 3, 4)),)
    assert game.protected_cells() == frozenset(blue)  # the corner is no chip


def test_several_possible_windows_wait_for_the_players_choice() -> None:
    blue, green = row1(0, 1, 3, 4, 5, 2), GREEN_CELLS[:5]
    game = stacked(2, [cards_for(blue), cards_for(green)])
    place_all(game, interleave(blue, green)[:10])
    game.play("4C", cell(1, 2))  # fills the gap in BB.BBB
    left, right = Sequence("B", tuple(row1(0, 1, 2, 3, 4))), Sequence("B", tuple(row1(1, 2, 3, 4, 5)))
    assert game.sequence_options() == ((left,), (right,))
    assert game.sequences() == () and game.turn == 0
    assert game.legal_actions() == [ChooseSequences(0), ChooseSequences(1)]
    with pytest.raises(IllegalActionError, match="Blue must first choose which sequences"):
        game.draw(0)
    with pytest.raises(IllegalActionError, match="Blue must first choose"):
        game.table_talk("G", {1: game.hand(1)[0]})
    with pytest.raises(IllegalActionError, match="from 0 to 1"):
        game.choose_sequences(2)
    game.choose_sequences((right,))
    assert game.sequences() == (right,) and game.sequence_options() == ()
    assert game.protected_cells() == frozenset(right.cells) and game.turn == 1
    assert game.targets("JS", player=1) == (cell(1, 0),)  # the unchosen end is fair game
    with pytest.raises(IllegalActionError, match="no choice of sequences"):
        game.choose_sequences(0)
    game.draw(0)


def test_a_run_of_nine_made_in_play_is_two_sequences_and_wins_for_two_teams() -> None:
    blue, green = row1(0, 1, 2, 3, 4, 5, 6, 7, 8), GREEN_CELLS
    game = stacked(2, [cards_for(blue), cards_for(green)])
    place_all(game, interleave(blue, green))
    assert game.sequence_count("B") == 1 and not game.is_over
    game.play(LAYOUT[blue[8]], blue[8])
    first, second = Sequence("B", tuple(blue[:5])), Sequence("B", tuple(blue[4:]))
    assert game.sequences() == (first, second) and first.shared_with(second) == 1
    assert game.is_over and game.winner == "B"
    assert game.protected_cells() == frozenset(blue)


def test_a_run_of_eight_is_still_one_sequence() -> None:
    blue, green = row1(0, 1, 2, 3, 4, 5, 6, 7), GREEN_CELLS
    game = stacked(2, [cards_for(blue), cards_for(green)])
    place_all(game, interleave(blue, green)[:15])
    assert game.sequence_count("B") == 1 and not game.is_over


def test_three_teams_win_with_one_sequence_the_moment_it_is_made() -> None:
    blue, green, red = row1(0, 1, 2, 3, 4), GREEN_CELLS[:4], RED_CELLS[:4]
    game = stacked(3, [cards_for(blue), cards_for(green), cards_for(red)])
    place_all(game, interleave(blue, green, red))
    assert not game.is_over
    game.play(LAYOUT[blue[4]], blue[4])
    assert game.is_over and game.winner == "B"
    assert game.sequence_counts() == {"B": 1, "G": 0, "R": 0}


def test_after_the_end_every_action_raises() -> None:
    blue, green, red = row1(0, 1, 2, 3, 4), GREEN_CELLS[:4], RED_CELLS[:5]
    game = stacked(3, [cards_for(blue), cards_for(green), cards_for(red)])
    place_all(game, interleave(blue, green, red))
    game.play(LAYOUT[blue[4]], blue[4])
    assert game.legal_actions() == [] and game.legal_plays() == []
    attempts = [
        lambda: game.draw(0),
        lambda: game.play(LAYOUT[RED_CELLS[4]], RED_CELLS[4], player=1),
        lambda: game.pass_turn(),
        lambda: game.exchange(game.hand(1)[0]),
        lambda: game.table_talk("G", {1: game.hand(1)[0]}),
        lambda: game.choose_sequences(0),
    ]
    for attempt in attempts:
        with pytest.raises(IllegalActionError, match="The game is over: blue has won"):
            attempt()


def test_new_sequences_share_at_most_one_cell_with_claimed_ones() -> None:
    grid = "".join(["#........#", "BBBBBBBBB.", *["." * 10] * 7, "#........#"])
    left, right = Sequence("B", tuple(row1(0, 1, 2, 3, 4))), Sequence("B", tuple(row1(4, 5, 6, 7, 8)))
    assert new_sequence_options(grid, cell(1, 8), "B", [left]) == ((right,),)
    assert new_sequence_options(grid, cell(1, 7), "B", [left]) == ((right,),)
    assert new_sequence_options(grid, cell(1, 2), "B", [right]) == ((left,),)
    assert new_sequence_options(grid, cell(1, 4), "B") == ((left, right),)  # the middle of a 9-run
    green = [Sequence("G", left.cells)]
    assert new_sequence_options(grid, cell(1, 4), "B", green) == ((left, right),)  # other teams never block


def test_a_chip_joining_two_lines_completes_both() -> None:
    rows = ["#........#", ".B........", "..B.......", "...B......", "....B.....",
            "BBBBBBBBB.", *["." * 10] * 3, "#........#"]
    options = new_sequence_options("".join(rows), cell(5, 5), "B")
    diagonal = Sequence("B", (11, 22, 33, 44, 55))
    assert options == tuple((diagonal, Sequence("B", tuple(range(50 + s, 55 + s)))) for s in range(1, 5))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.booleans(), min_size=10, max_size=10), st.integers(0, 9))
def test_sequence_options_on_a_row_match_brute_force(chips: list[bool], col: int) -> None:
    chips[col] = True
    rows = ["#........#", "".join("B" if c else "." for c in chips), *["." * 10] * 7, "#........#"]
    options = new_sequence_options("".join(rows), cell(1, col), "B")
    windows = [w for w in WINDOWS if all(x // 10 == 1 for x in w) and cell(1, col) in w]
    complete = [w for w in windows if all(chips[x % 10] for x in w)]
    best = _largest_sets(complete)
    assert sorted(tuple(s.cells for s in o) for o in options) == sorted(best)


def _largest_sets(windows: list[tuple[int, ...]]) -> list[tuple[tuple[int, ...], ...]]:
    from itertools import combinations

    for size in range(len(windows), -1, -1):
        sets = [
            s for s in combinations(windows, size) if all(len(set(a) & set(b)) <= 1 for a, b in combinations(s, 2))
        ]
        if sets:
            return sets
    return [()]


# --- random games to the end -----------------------------------------------------------


class CheckedGame(Game):
    """A game that checks every invariant after every action."""

    def apply(self, action, reshuffle=None):  # type: ignore[no-untyped-def]
        before = self.sequences()
        was_over = self.is_over
        super().apply(action, reshuffle)
        assert not was_over
        check_invariants(self, before)


def check_invariants(game: Game, before: tuple[Sequence, ...]) -> None:
    state = game.state()
    cards = list(state.draw_pile)
    for hand, pile, limit in zip(state.hands, state.discard_piles, state.hand_limits):
        cards += hand
        cards += pile
        assert 0 <= len(hand) <= limit <= DEAL_SIZES[game.players]
    assert sorted(cards) == FULL_DECK, "cards appeared or vanished"
    board = state.board
    for colour in "BGR":
        in_play = colour in game.teams
        assert board.count(colour) <= (game.setup.supply(colour) if in_play else 0) <= CHIP_SUPPLY[colour]
        assert not in_play or game.chips_left(colour) == game.setup.supply(colour) - board.count(colour)
    claimed = game.sequences()
    assert claimed[: len(before)] == before, "a claimed sequence was lost"
    for s in claimed:
        assert s.cells in WINDOW_SET
        assert all(board[c] in (s.team, "#") for c in s.cells), "a protected chip was removed"
    for a in claimed:
        for b in claimed:
            assert a is b or a.team != b.team or a.shared_with(b) <= 1
    counts = game.sequence_counts()
    reached = [t for t, n in counts.items() if n >= game.target]
    assert reached == ([game.winner] if game.winner else [])
    assert game.is_over == (game.winner is not None or game.is_blocked)


FULL_DECK = sorted(DECK)
WINDOW_SET = frozenset(WINDOWS)


@pytest.mark.parametrize("players, teams", SPLITS)
def test_random_games_keep_every_invariant(players: int, teams: int) -> None:
    rng = np.random.default_rng(1000 + players * 10 + teams)
    policies = [BotPolicy(), BotPolicy(forget_draw=0.02), BotPolicy(exchange=0.2, one_eyed=0.8)]
    winners: Counter[str | None] = Counter()
    outcomes: Counter[tuple[bool, bool]] = Counter()
    for number in range(GAMES_PER_SPLIT):
        supply = (16,) * teams if number % 10 == 9 else None  # some games run out of chips
        game = CheckedGame(Setup.shuffled(players, rng, teams, supply), rng)
        policy = policies[number % len(policies)]
        while not game.is_over:
            if rng.random() < 0.002 and not game.sequence_options():
                team = game.teams[int(rng.integers(len(game.teams)))]
                game.table_talk(team, {p: game.hand(p)[0] for p in game.members(team) if game.hand(p)})
            play_turn(game, rng, policy)
            assert len(game.actions()) < 20_000
        winners[game.winner] += 1
        outcomes[(supply is None, game.is_blocked)] += 1
        with pytest.raises(IllegalActionError, match="The game is over"):
            game.apply(Pass(game.turn))
    assert set(winners) >= set(game.teams), "some team never won: the bots or the rules are broken"
    assert outcomes[(False, True)] > 0, "no game ran out of chips and got stuck"


GAMES_PER_SPLIT = 160


def test_bot_games_end_within_the_turn_limit() -> None:
    rng = np.random.default_rng(9)
    game = play_game(Game.new(2, rng), rng)
    assert game.is_over and game.winner in ("B", "G")
    with pytest.raises(IllegalActionError, match="over"):
        choose_action(game, rng)


def test_a_skilled_bot_completes_its_line_and_wins_sooner_than_a_random_one() -> None:
    rows = ["#........#", "..........", "..........", "..........", "..........",
            ".....B....", "..........", "..........", "..........", "#BBB.....#"]
    cells = "".join(rows)
    assert line_value(cells, cell(9, 4), "B") > 10 * line_value(cells, cell(3, 3), "B")
    assert line_value(cells, cell(9, 4), "G") > line_value(cells, cell(3, 3), "G")  # blocking
    assert play_value(cells, "JS", cell(9, 2), "G") > play_value(cells, "JS", cell(5, 5), "G")
    assert play_value(cells, "JD", cell(9, 4), "B") < line_value(cells, cell(9, 4), "B")

    def chips_at_end(skill: float) -> float:
        ends = []
        for seed in range(12):
            rng = np.random.default_rng(seed)
            board = play_game(Game.new(2, rng), rng, BotPolicy(skill=skill)).board()
            ends.append(sum(board.count(team) for team in "BG"))
        return float(np.median(ends))

    assert chips_at_end(0.9) < 0.8 * chips_at_end(0.0)
