from collections import Counter

import pytest

from referee.cells import (
    CORNER, CORNERS, DECK, JACKS, LAYOUT, ONE_EYED_JACKS, TWO_EYED_JACKS, card_name, cell, cell_name,
    cells_of, parse_card, parse_cell, teams_for, win_target,
)


def test_layout_prints_every_non_jack_card_twice_and_four_corners():
    counts = Counter(LAYOUT)
    assert counts.pop(CORNER) == 4
    assert [LAYOUT[c] for c in sorted(CORNERS)] == [CORNER] * 4
    assert len(counts) == 48
    assert set(counts.values()) == {2}
    assert not any(card[0] == "J" for card in counts)
    assert set(counts) == {card for card in DECK if card not in JACKS}


def test_layout_rows_match_the_rules():
    assert LAYOUT[:10] == (CORNER, "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", CORNER)
    assert LAYOUT[90:] == (CORNER, "AD", "KD", "QD", "TD", "9D", "8D", "7D", "6D", CORNER)
    assert LAYOUT[cell(5, 4)] == "2H"


def test_only_the_corners_coincide_under_rotation():
    # the printed cards fix the orientation: no rotation maps the layout onto itself
    rotated = list(LAYOUT)
    for _ in range(3):
        rotated = [rotated[cell(9 - c, r)] for r in range(10) for c in range(10)]
        same = [i for i in range(100) if rotated[i] == LAYOUT[i]]
        assert set(same) == CORNERS


def test_deck_has_104_cards_with_eight_jacks():
    assert len(DECK) == 104
    assert sum(card[0] == "J" for card in DECK) == 8
    assert ONE_EYED_JACKS == {"JS", "JH"} and TWO_EYED_JACKS == {"JD", "JC"}


def test_cells_of_every_card():
    for card in set(DECK):
        cells = cells_of(card)
        assert len(cells) == (0 if card in JACKS else 2)
        assert all(LAYOUT[c] == card for c in cells)


@pytest.mark.parametrize("text, expected", [("2,3", 23), ("0,0", 0), ("9,9", 99)])
def test_parse_cell(text, expected):
    assert parse_cell(text) == expected


@pytest.mark.parametrize("text", ["10,1", "a,b", "3", "3,4,5", "-1,2", ""])
def test_parse_cell_rejects_with_a_readable_message(text):
    with pytest.raises(ValueError, match="0 to 9"):
        parse_cell(text)


def test_parse_card_and_names():
    assert parse_card("10d") == "TD"
    assert card_name("JS") == "one-eyed jack of spades"
    assert card_name("JC") == "two-eyed jack of clubs"
    assert cell_name(0) == "row 0, column 0 (corner)"
    with pytest.raises(ValueError, match="rank"):
        parse_card("1X")


def test_teams_and_targets():
    assert teams_for(3) == ("B", "G", "R")
    assert (win_target(2), win_target(3)) == (2, 1)
    with pytest.raises(ValueError):
        teams_for(4)
