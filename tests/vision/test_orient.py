import cv2
import numpy as np
import pytest

from referee.board import Board
from referee.cells import LAYOUT, cells_of
from vision.orient import (PRINTED_FACE, PRINTED_RED, TWIN, cast_on_empty_cards, centre_patches, empty_like_red_chips,
                          find_orientation, foreign_to_card, ink_redness, picture_ink, pictures_unlike_chips,
                          red_unlike_red_chips, turned_patches, twin_art, twin_doubts, twin_orientation, twin_unlike)
from vision.pipeline import card_ink
from vision.read_cells import PreparedBoard, measure_cells, prepare
from vision.config import VisionConfig
from tests.vision.synthetic import CELL, drawn_board

CONFIG = VisionConfig(cell_px=CELL)
EMPTY_GRID = ["#........#"] + ["." * 10] * 8 + ["#........#"]


@pytest.mark.parametrize("turns", [0, 1, 2, 3])
def test_finds_the_printed_top_of_a_turned_board(turns):
    # the board as the camera saw it: turned counter-clockwise by `turns` quarter turns
    seen = np.ascontiguousarray(np.rot90(drawn_board(EMPTY_GRID), turns))
    prepared = prepare(seen, CONFIG)
    redness = ink_redness(prepared.lab, prepared.not_paper, CELL)
    orientation = find_orientation(redness, np.ones((10, 10), bool))
    assert orientation.quarter_turns == turns
    assert orientation.margin > 10


@pytest.mark.parametrize("ground", [(60, 60, 170), (170, 120, 60)])
def test_the_coloured_ground_round_small_cards_is_no_ink(ground):
    # a red ground would be red ink on every card, a blue one a face card's picture: the cards'
    # ink would lie in the ground, which votes alike at every turn
    prepared = prepare(drawn_board(EMPTY_GRID, ground=ground, inset=6), CONFIG)
    band = np.zeros((CELL, CELL), bool)
    band[-4:, :] = band[:, -4:] = True  # ground below and right of each card (the index ink reaches the left)
    assert prepared.not_paper[np.tile(band, (10, 10))].mean() < 0.02


@pytest.mark.parametrize("small_cards, frame_counts", [(True, False), (False, True)])
def test_a_small_cards_red_frame_is_not_its_suit_ink(small_cards, frame_counts):
    """Small cards on a coloured ground may be framed in red: read up to the usual band from
    the cell's edge, every card's ink was mostly the frame, as red at every turn (independent
    renderer b, seed 10, photo 41 was read turned). On such a board the suit ink is read
    inside the band where the ground shows."""
    lab = np.zeros((10 * CELL, 10 * CELL, 3), np.float32)
    lab[..., 0] = 92.0
    not_paper = np.zeros(lab.shape[:2], np.float32)
    frame = np.zeros((CELL, CELL), bool)
    frame[5:-5, 5:-5] = True
    frame[8:-8, 8:-8] = False  # a red frame between 0.12 and 0.2 of the cell from its edge
    not_paper[np.tile(frame, (10, 10))] = 1
    lab[np.tile(frame, (10, 10)), 1] = 40.0
    not_paper[CELL // 2 - 2 : CELL // 2 + 2, CELL // 2 - 2 : CELL // 2 + 2] = 1  # cell (0, 0): a black pip
    prepared = PreparedBoard(lab, not_paper, CELL, np.full((10, 10, 3), (92.0, 0.0, 0.0), np.float32), small_cards)
    redness, _, _ = card_ink(prepared, Board.from_rows(EMPTY_GRID), measure_cells(prepared, CONFIG), CONFIG)
    assert (redness[0, 0] > 20) == frame_counts


def test_suit_colour_is_read_inside_the_card_not_on_the_dark_lines_between_cards():
    lab = np.zeros((10 * CELL, 10 * CELL, 3), np.float32)
    lab[..., 0] = 92.0
    not_paper = np.zeros(lab.shape[:2], np.float32)
    edge = np.ones((CELL, CELL), bool)
    edge[2:-2, 2:-2] = False  # the black gap round every card: much ink, not red
    not_paper[np.tile(edge, (10, 10))] = 1
    middle = slice(CELL // 2 - 1, CELL // 2 + 1)
    not_paper[middle, middle] = 1  # cell (0, 0): one small, red pip
    lab[middle, middle, 1] = 40.0
    not_paper[CELL + CELL // 2 - 1 : CELL + CELL // 2 + 1, middle] = 1  # cell (1, 0): a black pip
    redness = ink_redness(lab, not_paper, CELL)
    assert redness[0, 0] == pytest.approx(40.0) and redness[1, 0] == pytest.approx(0.0)


def test_a_colour_cast_moves_every_card_alike():
    redness = PRINTED_RED * 5 + 40  # every card looks red under a warm light, red ones more so
    assert find_orientation(redness, np.ones((10, 10), bool)).quarter_turns == 0


def test_no_visible_card_gives_no_margin():
    orientation = find_orientation(np.zeros((10, 10)), np.zeros((10, 10), bool))
    assert orientation.votes == 0 and orientation.margin == 0


@pytest.mark.parametrize("turns", [0, 1, 2, 3])
def test_face_card_pictures_find_the_top_when_the_suit_ink_says_nothing(turns):
    # corner-index art: every card's ink about as red as the next, but queens and kings show a picture
    redness = np.full((10, 10), 30.0)
    pictures = np.rot90(np.where(PRINTED_FACE > 0, 0.3, 0.02), turns)
    orientation = find_orientation(redness, np.ones((10, 10), bool), pictures)
    assert orientation.quarter_turns == turns
    assert orientation.margin > 5


def test_picture_ink_counts_blue_and_yellow_ink_not_red_or_black():
    lab = np.zeros((10 * CELL, 10 * CELL, 3), np.float32)
    lab[..., 0] = 92.0
    not_paper = np.zeros(lab.shape[:2], np.float32)
    not_paper[:CELL, :CELL] = 1  # cell (0, 0): a yellow picture
    lab[:CELL, :CELL, 2] = 40.0
    not_paper[:CELL, CELL : 2 * CELL] = 1  # cell (0, 1): red suit ink
    lab[:CELL, CELL : 2 * CELL, 1] = 50.0
    covered = np.zeros(lab.shape[:2], bool)
    covered[CELL : 2 * CELL, :CELL] = True  # cell (1, 0): under a chip
    shares = picture_ink(lab, not_paper, CELL, covered)
    assert shares[0, 0] == pytest.approx(1.0) and shares[0, 1] == 0.0 and np.isnan(shares[1, 0])


def test_a_colour_no_number_card_is_printed_in_is_foreign_to_it():
    def disc(hue_deg: float, chroma: float = 40.0) -> np.ndarray:
        return np.array([50.0, chroma * np.cos(np.radians(hue_deg)), chroma * np.sin(np.radians(hue_deg))])

    colour = np.zeros((10, 10, 3))
    cover = np.zeros((10, 10))
    # referee.cells.LAYOUT: 1 the two of spades, 2 the three, 22 and 23 the two and three of
    # diamonds, 16 the king of hearts
    for index, hue in ((1, 285.0), (22, 285.0), (23, 25.0), (2, 25.0), (16, 285.0)):
        colour[divmod(index, 10)] = disc(hue)
        cover[divmod(index, 10)] = 0.9
    colour[divmod(5, 10)] = disc(285.0, chroma=10.0)  # pale: black ink under a colour cast
    cover[divmod(5, 10)] = 0.9
    foreign = foreign_to_card(colour, cover, min_cover=0.7, min_chroma=25.0, red_reach_deg=40.0).reshape(-1)
    assert foreign[1] and foreign[22]  # blue on the two of spades, blue on the two of diamonds
    assert foreign[2]  # red on the three of spades
    assert not foreign[23]  # red on the three of diamonds: red ink or a red chip
    assert not foreign[16]  # blue on the king of hearts: a picture may be blue
    assert not foreign[5] and not foreign[0]  # too pale; a corner


def test_a_hue_most_empty_cards_show_is_a_cast_not_chips():
    violet = np.array([75.0, 18.0, -19.0])  # dev seed 6161 photo 112: warm dim light, every card violet
    colour = np.tile(np.array([80.0, 2.0, 3.0]), (10, 10, 1))
    cover = np.full((10, 10), 0.9)
    empty = np.ones((10, 10), bool)
    empty[5:] = False  # 48 cards read empty (rows 0-4 but the corners), the rest chips
    colour[:3] = violet  # 28 of them violet
    colour[3, 0] = [40.0, 0.0, -45.0]  # a blue chip read empty: a hue no other empty card shows
    cast = cast_on_empty_cards(colour, cover, empty, min_cover=0.5, min_chroma=12.0, hue_reach_deg=25.0,
                               min_share=0.5, min_cards=10)
    assert cast[1, 1] and cast[2, 5]
    assert not cast[3, 0]
    assert not cast_on_empty_cards(colour, cover, empty, min_cover=0.5, min_chroma=12.0, hue_reach_deg=25.0,
                                   min_share=0.6, min_cards=10)[1, 1]  # 28 cards of 48
    colour[:3] = [75.0, 2.0, -5.0]  # the light was neutral after all: nothing shares a clear hue
    assert not cast_on_empty_cards(colour, cover, empty, min_cover=0.5, min_chroma=12.0, hue_reach_deg=25.0,
                                   min_share=0.5, min_cards=10).any()


ACE_OF_HEARTS, ITS_TWIN = cells_of("AH")
SIDE = 32  # pixels a cell
ALL_OWN = np.ones(100, bool)  # every card shows its own picture (none mended over a hand)


def board_with_art(seed: int = 3) -> np.ndarray:
    """A Lab board, every card's centre art random but both copies of a card alike."""
    rng = np.random.default_rng(seed)
    lab = np.zeros((10 * SIDE, 10 * SIDE, 3), np.float32)
    for card in set(LAYOUT):
        art = rng.normal(0, 20, (SIDE, SIDE, 3)).astype(np.float32)
        for cell in cells_of(card):
            row, col = divmod(cell, 10)
            lab[row * SIDE : (row + 1) * SIDE, col * SIDE : (col + 1) * SIDE] = art
    return lab


def with_chip(lab: np.ndarray, cell: int) -> np.ndarray:
    lab = lab.copy()
    row, col = divmod(cell, 10)
    cv2.circle(lab, (int((col + 0.5) * SIDE), int((row + 0.5) * SIDE)), int(0.4 * SIDE), (45.0, 60.0, 40.0), -1)
    return lab


def reading_with(calls: dict[int, str]) -> Board:
    return Board("".join(calls.get(c, "#" if c in (0, 9, 90, 99) else ".") for c in range(100)))


COVERED = np.ones((10, 10), np.float32)  # every disc one colour
NOWHERE = np.zeros((10, 10), bool)
PLAIN_TWIN = np.where(np.arange(100) == ITS_TWIN, 0.0, 1.0).reshape(10, 10)  # the twin's disc shows no colour


@pytest.mark.parametrize("lab, calls, cover, doubted", [
    (board_with_art(), {ACE_OF_HEARTS: "R"}, COVERED, {ACE_OF_HEARTS}),  # a red chip read on art like its twin's
    (with_chip(board_with_art(), ACE_OF_HEARTS), {ACE_OF_HEARTS: "R"}, COVERED, set()),  # a red chip that is one
    (with_chip(board_with_art(), ACE_OF_HEARTS), {}, PLAIN_TWIN, {ACE_OF_HEARTS}),  # a chip read as art unlike the twin's
    # both copies coloured, both read empty, unlike each other: one of them holds a chip, which is not known
    (with_chip(board_with_art(), ACE_OF_HEARTS), {}, COVERED, {ACE_OF_HEARTS, ITS_TWIN}),
    (board_with_art(), {}, COVERED, set()),  # art like the twin's, read as art
    (with_chip(board_with_art(), ACE_OF_HEARTS), {ITS_TWIN: "B"}, COVERED, set()),  # the twin holds a chip: it cannot tell
], ids=["chip like twin", "chip unlike twin", "empty unlike plain twin", "both coloured", "empty like twin",
        "twin covered"])
def test_a_red_card_is_doubted_where_its_printed_twin_contradicts_the_call(lab, calls, cover, doubted):
    doubts = twin_doubts(lambda: centre_patches(lab, SIDE), reading_with(calls), cover, 0.8, 0.3, 0.5)
    assert set(np.flatnonzero(doubts)) == doubted


@pytest.mark.parametrize("colour", ["B", "G", "R"])
def test_a_chip_read_on_any_card_whose_twin_looks_the_same_is_doubted(colour):
    """A court card's blue or green robe, like an ace's big heart, is art its twin shares."""
    spade, twin = cells_of("KS")
    doubts = lambda lab, calls, cover: set(np.flatnonzero(twin_doubts(lambda: centre_patches(lab, SIDE),  # noqa: E731
                                                                     reading_with(calls), cover, 0.8, 0.3, 0.5)))
    assert doubts(board_with_art(), {spade: colour}, COVERED) == {spade}
    assert doubts(with_chip(board_with_art(), spade), {spade: colour}, COVERED) == set()  # a chip that is one
    # only red suit ink passes for a chip read as art: a black card read empty is not doubted
    assert doubts(with_chip(board_with_art(), spade), {}, np.where(np.arange(100) == twin, 0.0, 1.0).reshape(10, 10)) == set()


def tinted(lab: np.ndarray, cell: int) -> np.ndarray:
    """A translucent blue chip over a card: its art shows through, tinted."""
    lab = lab.copy()
    row, col = divmod(cell, 10)
    disc = np.zeros(lab.shape[:2], np.uint8)
    cv2.circle(disc, (int((col + 0.5) * SIDE), int((row + 0.5) * SIDE)), int(0.45 * SIDE), 1, -1)
    lab[disc.astype(bool)] += np.float32([0.0, 10.0, -35.0])
    return lab


SPADE, SPADES_TWIN = cells_of("AS")


@pytest.mark.parametrize("lab, calls, art", [
    (board_with_art(), {ACE_OF_HEARTS: "?"}, {ACE_OF_HEARTS}),  # unsure, but just like its empty twin: art
    (board_with_art(), {SPADE: "?"}, {SPADE}),  # black cards too: every card is printed twice
    (with_chip(board_with_art(), ACE_OF_HEARTS), {ACE_OF_HEARTS: "?"}, set()),  # a chip covers the art
    (tinted(board_with_art(), SPADE), {SPADE: "?"}, set()),  # a translucent chip: the art shows, tinted
    (board_with_art(), {ACE_OF_HEARTS: "?", ITS_TWIN: "?"}, set()),  # the twin may hold a chip too
    (board_with_art(), {ACE_OF_HEARTS: "R"}, set()),  # only '?' is settled here
], ids=["like empty twin", "black card", "chip unlike twin", "translucent chip", "twin unread", "not a ?"])
def test_a_card_read_unsure_is_empty_where_its_empty_twin_looks_the_same(lab, calls, art):
    no_chip = np.zeros(100)
    found = twin_art(lab, SIDE, lambda: centre_patches(lab, SIDE), reading_with(calls), ALL_OWN, 0.9, 15.0, no_chip,
                     0.8, 0.95)
    assert set(np.flatnonzero(found)) == art


@pytest.mark.parametrize("mended", [ACE_OF_HEARTS, ITS_TWIN])
def test_a_card_mended_over_a_hand_is_compared_with_no_twin(mended):
    """A card whose part under a hand was filled from its part in view (vision.hands) does
    not show its own picture: an ace's one big pip is not the same turned."""
    lab = board_with_art()
    own = np.arange(100) != mended
    found = twin_art(lab, SIDE, lambda: centre_patches(lab, SIDE), reading_with({ACE_OF_HEARTS: "?"}), own, 0.9, 15.0,
                     np.zeros(100), 0.8, 0.95)
    assert not found.any()
    chip = with_chip(board_with_art(), ACE_OF_HEARTS)
    wanted = np.isin(np.arange(100), [ACE_OF_HEARTS]).reshape(10, 10)
    assert twin_unlike(lambda: centre_patches(chip, SIDE), reading_with({ACE_OF_HEARTS: "?"}), ALL_OWN, wanted, 0.5).any()
    assert not twin_unlike(lambda: centre_patches(chip, SIDE), reading_with({ACE_OF_HEARTS: "?"}), own, wanted, 0.5).any()


@pytest.mark.parametrize("chip_share, sure, art", [(0.5, 1.01, True), (0.85, 0.9, True), (0.85, 1.01, False)])
def test_a_card_the_model_leans_to_a_chip_on_is_empty_only_where_its_twin_is_surely_alike(chip_share, sure, art):
    """Where the model leans to a chip (a share over 0.8) the likeness must reach ``sure`` (here
    1.01: never), else ``same`` (0.5) will do."""
    lab = board_with_art()
    shares = np.zeros(100)
    shares[ACE_OF_HEARTS] = chip_share
    found = twin_art(lab, SIDE, lambda: centre_patches(lab, SIDE), reading_with({ACE_OF_HEARTS: "?"}), ALL_OWN, 0.5,
                     15.0, shares, 0.8, sure)
    assert bool(found.reshape(-1)[ACE_OF_HEARTS]) == art


@pytest.mark.parametrize("lab, calls, candidates, unlike", [
    (with_chip(board_with_art(), SPADE), {SPADE: "?"}, {SPADE}, {SPADE}),  # a chip hides the art its twin shows
    (board_with_art(), {SPADE: "?"}, {SPADE}, set()),  # the card's own art, as its twin's
    (with_chip(board_with_art(), SPADE), {SPADE: "?", SPADES_TWIN: "?"}, {SPADE}, set()),  # the twin unread: no telling
    (with_chip(board_with_art(), SPADE), {SPADE: "?", SPADES_TWIN: "B"}, {SPADE}, set()),  # the twin holds a chip
    (with_chip(board_with_art(), SPADE), {SPADE: "?"}, set(), set()),  # only the candidates are compared
], ids=["chip", "art", "twin unread", "twin covered", "not a candidate"])
def test_a_card_read_unsure_is_flagged_where_its_empty_twin_looks_unlike_it(lab, calls, candidates, unlike):
    wanted = np.isin(np.arange(100), list(candidates)).reshape(10, 10)
    assert set(np.flatnonzero(twin_unlike(lambda: centre_patches(lab, SIDE), reading_with(calls), ALL_OWN, wanted,
                                          0.5))) == unlike


ALL_CARDS = np.ones((10, 10), bool)


@pytest.mark.parametrize("turns", [0, 1, 2, 3])
def test_the_printed_top_is_where_the_cards_printed_twice_look_alike(turns):
    seen = np.ascontiguousarray(np.rot90(board_with_art(), turns))  # turned counter-clockwise, as a camera saw it
    orientation = twin_orientation(centre_patches(seen, SIDE), ALL_CARDS)
    assert orientation.quarter_turns == turns and orientation.votes == 48
    assert orientation.margin > 40  # every pair alike one way, none another


def test_twins_under_chips_do_not_vote():
    with_chips = board_with_art()
    for cell in range(100):
        if cell not in (ACE_OF_HEARTS, ITS_TWIN):
            with_chips = with_chip(with_chips, cell)
    voting = np.zeros(100, bool)
    voting[[ACE_OF_HEARTS, ITS_TWIN]] = True
    orientation = twin_orientation(centre_patches(with_chips, SIDE), voting.reshape(10, 10))
    assert orientation.quarter_turns == 0 and orientation.votes == 1 and orientation.margin < 1.5


def test_the_twins_likeness_does_not_change_when_the_board_turns():
    lab = board_with_art()
    reading = reading_with({ACE_OF_HEARTS: "R"})
    seen = np.ascontiguousarray(np.rot90(lab, 1))  # read from the side: the patches of the turned board serve
    printed_patches = turned_patches(centre_patches(seen, SIDE), 1)
    assert np.array_equal(twin_doubts(lambda: printed_patches, reading, COVERED, 0.8, 0.3, 0.5),
                          twin_doubts(lambda: centre_patches(lab, SIDE), reading, COVERED, 0.8, 0.3, 0.5))


def test_a_red_chip_on_a_red_card_unlike_every_red_chip_on_a_black_card_is_doubted():
    black, red = np.argwhere(PRINTED_RED < 0), np.argwhere(PRINTED_RED > 0)
    cells, lab = ["."] * 100, np.zeros((10, 10, 3), np.float32)
    for (row, col), colour in zip(black[:3], ((50, 60, 40), (40, 45, 30), (30, 30, 19))):  # bright to shaded
        cells[row * 10 + col], lab[row, col] = "R", colour
    for (row, col), colour in zip(red[:3], ((48, 80, 50), (35, 31, 20), (45, 58, 38))):  # a big heart, two chips
        cells[row * 10 + col], lab[row, col] = "R", colour
    printed = Board("".join("#" if i in (0, 9, 90, 99) else symbol for i, symbol in enumerate(cells)))
    doubted = red_unlike_red_chips(printed, lab, 3, 18.0)
    assert [bool(doubted[row, col]) for row, col in red[:3]] == [True, False, False]
    assert doubted.sum() == 1
    assert not red_unlike_red_chips(printed, lab, 4, 18.0).any()  # too few red chips on black cards to judge


def test_a_chip_on_a_court_card_unlike_every_chip_of_its_call_on_a_number_card_is_doubted():
    faces = [(row, col) for row, col in np.argwhere(PRINTED_FACE > 0)]
    numbers = [(row, col) for row, col in np.argwhere((PRINTED_FACE < 0) & (PRINTED_RED < 0))]
    cells, lab = ["."] * 100, np.zeros((10, 10, 3), np.float32)
    for (row, col), colour in zip(numbers[:2], ((45, -40, 20), (38, -35, 16))):  # green chips, one shaded
        cells[row * 10 + col], lab[row, col] = "G", colour
    # a yellow-green robe, a green chip and a green chip in shade (its hue kept), on court cards
    for (row, col), colour in zip(faces[:3], ((76, -35, 55), (42, -38, 19), (22, -12, 7))):
        cells[row * 10 + col], lab[row, col] = "G", colour
    printed = Board("".join("#" if i in (0, 9, 90, 99) else symbol for i, symbol in enumerate(cells)))
    doubted = pictures_unlike_chips(printed, lab, 2, 18.0, 25.0, 2)
    assert [bool(doubted[row, col]) for row, col in faces[:3]] == [True, False, False]
    assert doubted.sum() == 1
    assert not pictures_unlike_chips(printed, lab, 3, 18.0, 25.0, 2).any()  # too few green chips on number cards to judge


def test_a_red_card_read_empty_under_a_disc_of_a_red_chips_very_colour_is_doubted():
    black, red = np.argwhere(PRINTED_RED < 0), np.argwhere(PRINTED_RED > 0)
    cells, lab = ["."] * 100, np.zeros((10, 10, 3), np.float32)
    for (row, col), colour in zip(black[:3], ((50, 60, 40), (45, 55, 36), (40, 50, 33))):
        cells[row * 10 + col], lab[row, col] = "R", colour
    big_heart = int(next(cell for cell in (r * 10 + c for r, c in red[3:]) if TWIN[cell] >= 0))
    # a chip taken for ink, a lighter red, a chip's colour on a card it does not cover, a big heart
    # of a chip's colour whose empty twin looks just the same
    for cell, colour in zip([r * 10 + c for r, c in red[:3]] + [big_heart, TWIN[big_heart]],
                            ((45, 56, 37), (60, 56, 37), (50, 60, 40), (50, 60, 40), (50, 60, 40))):
        lab.reshape(100, 3)[cell] = colour
    covered = np.ones((10, 10), bool)
    covered[tuple(red[2])] = False
    patches = np.tile(np.eye(100, dtype=np.float32)[None], (9, 1, 1))  # every card unlike every other ...
    patches[:, TWIN[big_heart]] = patches[:, big_heart]  # ... but the big heart's twins
    printed = Board("".join("#" if i in (0, 9, 90, 99) else symbol for i, symbol in enumerate(cells)))
    doubted = empty_like_red_chips(printed, lab, covered, NOWHERE, lambda: patches, 3, 4.0, 3.0, 0.8)
    assert [bool(doubted[row, col]) for row, col in red[:3]] == [True, False, False]
    assert doubted.sum() == 1
    # too few red chips on black cards to judge
    assert not empty_like_red_chips(printed, lab, covered, NOWHERE, lambda: patches, 4, 4.0, 3.0, 0.8).any()


def test_discs_no_team_took_on_black_cards_stand_for_the_red_chips():
    black, red = np.argwhere(PRINTED_RED < 0), np.argwhere(PRINTED_RED > 0)
    lab = np.zeros((10, 10, 3), np.float32)
    unread = np.zeros((10, 10), bool)
    for row, col in black[:3]:  # an orange-red set read '?' on black cards: no black card carries orange
        lab[row, col], unread[row, col] = (60, 50, 57), True
    lab[tuple(red[0])] = (61, 51, 56)  # and read empty on a red card, taken for its ink
    printed = Board("#" + "." * 8 + "#" + "." * 80 + "#" + "." * 8 + "#")
    unlike = np.tile(np.eye(100, dtype=np.float32)[None], (9, 1, 1))
    covered = np.ones((10, 10), bool)
    doubted = empty_like_red_chips(printed, lab, covered, unread, lambda: unlike, 3, 4.0, 3.0, 0.8)
    assert bool(doubted[tuple(red[0])]) and doubted.sum() == 1
    assert not empty_like_red_chips(printed, lab, covered, NOWHERE, lambda: unlike, 3, 4.0, 3.0, 0.8).any()


def test_chips_read_only_on_court_cards_are_doubted():
    faces = [(row, col) for row, col in np.argwhere(PRINTED_FACE > 0)]
    numbers = [(row, col) for row, col in np.argwhere(PRINTED_FACE < 0)]
    cells, lab = ["."] * 100, np.full((10, 10, 3), (50.0, -35.0, 40.0), np.float32)
    for row, col in faces[:2]:  # robes read green on an empty board
        cells[row * 10 + col] = "G"
    alone = Board("".join("#" if i in (0, 9, 90, 99) else symbol for i, symbol in enumerate(cells)))
    doubted = pictures_unlike_chips(alone, lab, 2, 18.0, 25.0, 2)
    assert [bool(doubted[row, col]) for row, col in faces[:2]] == [True, True] and doubted.sum() == 2
    assert not pictures_unlike_chips(alone, lab, 2, 18.0, 25.0, 3).any()  # two alone: too few to doubt
    row, col = numbers[0]
    cells[row * 10 + col] = "B"  # a chip on a number card: the board is in play
    in_play = Board("".join("#" if i in (0, 9, 90, 99) else symbol for i, symbol in enumerate(cells)))
    assert not pictures_unlike_chips(in_play, lab, 2, 18.0, 25.0, 2).any()
