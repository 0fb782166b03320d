from dataclasses import replace

import cv2
import numpy as np
import pytest

from referee.board import Board
from vision.config import VisionConfig
from vision.cell_model import CLASSES
from vision.read_cells import (called_classes, card_likeness, classify, cluster_team_colours, hue_deg, hue_gap,
                               local_paper, measure_cells, prepare, read_cells, reference_change, registered_reference,
                               shaded_paper, team_of, washed_by_glare, white_balanced_lab)
from tests.vision.synthetic import CELL, CHIP_BGR, drawn_board, plain_features

CONFIG = VisionConfig(cell_px=CELL)
GRID = ["#BB......#", ".GG.R.....", "..........", "...B......", "....??....",
        "..........", ".R....G...", "..........", "......B...", "#G.......#"]


@pytest.mark.parametrize("teams", [("B", "G", "R")])
def test_reads_a_drawn_board_exactly(teams):
    reading = read_cells(prepare(drawn_board(GRID), CONFIG), teams, CONFIG)
    assert reading == Board.from_rows(GRID)


def test_a_colour_cast_does_not_change_the_reading():
    warm = drawn_board(GRID).astype(np.float32) * np.array([0.75, 0.95, 1.1])
    image = np.clip(warm, 0, 255).astype(np.uint8)
    reading = read_cells(prepare(image, CONFIG), ("B", "G", "R"), CONFIG)
    assert reading == Board.from_rows(GRID)


def test_small_cards_on_a_coloured_ground_are_read_against_their_own_paper():
    # the cards' corners show the ground: were it taken for paper, every card would be a chip
    for ground in ((60, 60, 170), (170, 120, 60), (60, 130, 50)):
        prepared = prepare(drawn_board(GRID, ground=ground, inset=6), CONFIG)
        paper = prepared.paper_lab.reshape(-1, 3)
        assert np.all(paper[:, 0] > 85) and np.all(np.hypot(paper[:, 1], paper[:, 2]) < 5)
        assert read_cells(prepared, ("B", "G", "R"), CONFIG) == Board.from_rows(GRID)


def test_small_cards_mostly_under_chips_are_still_read_against_their_own_paper():
    # chips wider than the small cards leave paper showing on few cells (a full board, late
    # in a game): the ground is still told from the paper
    rng = np.random.default_rng(3)
    rows = ["".join("#" if r in (0, 9) and c in (0, 9) else "BGR"[rng.integers(3)] if rng.random() < 0.6 else "."
                    for c in range(10)) for r in range(10)]
    image = drawn_board(rows, ground=(70, 200, 230), inset=10)
    prepared = prepare(image, CONFIG)
    assert prepared.small_cards
    assert read_cells(prepared, ("B", "G", "R"), CONFIG) == Board.from_rows(rows)


def test_cream_cards_whose_only_grey_is_a_few_highlights_are_no_small_cards():
    # the white balance left the cards cream (the brightest pixels were chips' highlights): grey
    # specks on 6% of each cell are no card paper, and the cards' own corners are their paper
    lab = np.zeros((10 * CELL, 10 * CELL, 3), np.float32)
    lab[...] = (80.0, 5.0, 17.0)
    lab[CELL // 2 :: CELL, CELL // 2 :: CELL] = (100.0, 0.0, 0.0)
    specks = cv2.dilate(lab[..., 0].copy(), np.ones((10, 10), np.uint8)) > 90  # 10 x 10 of each 40 x 40 cell
    lab[specks] = (100.0, 0.0, 0.0)
    paper, ground = local_paper(lab, CELL, CONFIG)
    assert ground is None
    assert np.allclose(paper[..., 0], 80.0, atol=1) and np.allclose(paper[..., 2], 17.0, atol=1)
    assert local_paper(lab, CELL, replace(CONFIG, ground_min_clear_cards=0))[1] is not None  # as before


def test_a_bright_coloured_ground_does_not_tint_the_white_balance():
    # an orange ground between small cards is as bright as their paper: balanced on both, the
    # cards turned blue, and so did a hand over them
    image = drawn_board(GRID, ground=(70, 215, 245), inset=4)
    lab = white_balanced_lab(image)
    card_paper = lab[CELL - 9 :: CELL, CELL // 2 - 4 :: CELL]  # low on each card, left of its bottom pip
    assert np.median(np.hypot(card_paper[..., 1], card_paper[..., 2])) < 2


def warm_light(image: np.ndarray, falling_off_to: float) -> np.ndarray:
    """``image`` under a warm, over-exposed light that falls off across the board."""
    falling_off = np.linspace(1.0, falling_off_to, image.shape[1])[None, :, None]
    return np.clip(image.astype(np.float32) * np.array([0.67, 1.0, 1.36]) * 1.8 * falling_off, 0, 255).astype(np.uint8)


def test_clipped_paper_balanced_on_its_shaded_part_gives_a_navy_chip_its_colour_back():
    # the paper clipped white where the light is strong: balanced on it, a navy chip stayed dark grey
    image = drawn_board(GRID)
    chip = (int(4.5 * CELL), int(4.5 * CELL))
    cv2.circle(image, chip, int(0.36 * CELL), (84, 43, 28), -1)
    lit = warm_light(image, 0.3)

    def chip_ab(lab: np.ndarray) -> np.ndarray:
        return lab[chip[1] - 3 : chip[1] + 4, chip[0] - 3 : chip[0] + 4, 1:].reshape(-1, 2).mean(axis=0)

    true, clipped = chip_ab(white_balanced_lab(image)), chip_ab(white_balanced_lab(lit))
    shaded = chip_ab(white_balanced_lab(lit, from_shaded_paper=True))
    assert np.hypot(*clipped) < 0.6 * np.hypot(*true) <= np.hypot(*shaded)
    assert hue_gap(hue_deg(shaded), hue_deg(true)) < 15


def test_there_is_no_shaded_paper_where_all_of_it_is_clipped_or_it_is_no_lights_colour():
    assert shaded_paper(warm_light(drawn_board(GRID), 1.0)) is None  # ink and chips are all that is not clipped
    pink = np.full((320, 320, 3), (218, 178, 248), np.uint8)  # a pink ground, not paper under some light
    assert shaded_paper(pink) is None and shaded_paper(np.full((320, 320, 3), (180, 215, 240), np.uint8)) is not None


def test_red_chips_in_a_two_team_game_are_not_given_a_team():
    reading = read_cells(prepare(drawn_board(GRID), CONFIG), ("B", "G"), CONFIG)
    assert reading[14] == "?"  # cell 1,4 holds a red chip, which no team of this game plays
    assert "R" not in reading.cells


def test_team_colours_follow_the_photo():
    light_blue, teal = np.float32([5, -30]), np.float32([-35, 5])
    colours = np.stack([light_blue + 1, light_blue - 1, teal + 2, teal - 2])
    centres = cluster_team_colours(colours, ("B", "G"), CONFIG)
    assert np.allclose(centres["B"], light_blue) and np.allclose(centres["G"], teal)


def test_light_blue_chips_that_look_green_beside_teal_ones_are_blue():
    # light blue under a warm lamp measures hue ~200, within reach of green (140), not of blue (285)
    light_blue, teal = np.float32([[-35, -12], [-34, -12], [-35, -13]]), np.float32([[-48, 17], [-47, 18], [-45, 17]])
    centres = cluster_team_colours(np.vstack([light_blue, teal]), ("B", "G"), CONFIG)
    assert np.linalg.norm(centres["B"] - light_blue.mean(axis=0)) < 2
    assert np.linalg.norm(centres["G"] - teal.mean(axis=0)) < 2


def test_cyan_chips_that_joined_no_team_are_blues_when_blue_has_none():
    # cyan (hue ~200) lies 60 degrees from green's hue and 85 from blue's: beyond both reaches
    cyan, greens = np.float32([[-32, -14], [-31, -15], [-33, -13]]), np.float32([[-60, 50], [-58, 48]])
    centres = cluster_team_colours(np.vstack([cyan, greens]), ("B", "G"), CONFIG)
    assert np.linalg.norm(centres["B"] - cyan.mean(axis=0)) < 1
    assert team_of(np.float32([-30, -12]), centres, CONFIG) == "B"
    # two such chips are too few to move blue, and blue takes nothing as far the other way (red art)
    assert hue_gap(hue_deg(cluster_team_colours(np.vstack([cyan[:2], greens]), ("B", "G"), CONFIG)["B"]), 285) < 1
    magenta = np.float32([[40, 5], [41, 4], [39, 6]])  # hue ~7: 82 degrees from blue's, away from green
    assert hue_gap(hue_deg(cluster_team_colours(np.vstack([magenta, greens]), ("B", "G"), CONFIG)["B"]), 285) < 1


def test_one_teams_chips_of_alike_hue_are_not_split_into_two_teams():
    greens = np.float32([[-48, 17], [-44, 20], [-40, 22], [-36, 20], [-33, 14]])  # hues 150 to 160
    centres = cluster_team_colours(greens, ("B", "G"), CONFIG)
    assert np.linalg.norm(centres["G"] - np.median(greens, axis=0)) < 1
    assert hue_gap(hue_deg(centres["B"]), 285) < 1  # blue keeps its typical colour


def test_blue_with_no_chip_does_not_take_the_greens_from_yellow_court_art_beside_them():
    # yellow robes called chips join green (hue ~101, within its reach): split off, the greens
    # would be the group nearer blue's hue, and every green chip would read blue
    greens, yellow = np.float32([[-60, 50], [-58, 48], [-59, 51]]), np.float32([[-8, 40], [-7, 41], [-9, 39]])
    centres = cluster_team_colours(np.vstack([greens, yellow]), ("B", "G"), CONFIG)
    assert hue_gap(hue_deg(centres["B"]), 285) < 1
    assert team_of(np.float32([-59, 50]), centres, CONFIG) != "B"


def test_red_never_takes_chips_of_another_team_whose_hues_split():
    violet, blue = np.float32([[20, -40], [21, -41], [19, -39]]), np.float32([[-10, -45], [-11, -44], [-9, -46]])
    greens = np.float32([[-40, 20], [-41, 21]])
    centres = cluster_team_colours(np.vstack([violet, blue, greens]), ("B", "G", "R"), CONFIG)
    assert hue_gap(hue_deg(centres["R"]), 25) < 1  # red keeps its typical colour


def test_a_chip_beyond_its_teams_reach_is_that_teams_only_when_no_other_team_is_near():
    centres = {"B": np.float32([10, -39]), "G": np.float32([-61, 16])}
    assert team_of(np.float32([8, -36]), centres, CONFIG) == "B"
    # blue chips in another part of the light: 25 from blue's centre (reach 18), 77 from green's
    assert team_of(np.float32([-14, -45]), centres, CONFIG, clear=True) == "B"
    assert team_of(np.float32([-14, -45]), centres, CONFIG) == "?"  # a disc of mixed colours: art
    assert team_of(np.float32([-20, -20]), centres, CONFIG, clear=True) == "?"  # 36 from blue, 55 from green
    assert team_of(np.float32([40, -70]), centres, CONFIG, clear=True) == "?"  # beyond twice blue's reach
    assert team_of(np.float32([-14, -45]), centres, replace(CONFIG, far_colour_reach=1.0), clear=True) == "?"


def test_a_cell_is_unsure_when_chip_or_empty_is_unclear_not_when_a_hand_is_merely_possible():
    # columns: chip, empty, hidden
    probabilities = np.array([
        [0.001, 0.638, 0.361],  # busy red art: maybe a hand, surely no chip -> empty
        [0.20, 0.80, 0.00],  # chip or empty unclear -> unsure
        [0.95, 0.05, 0.00],  # a clear chip
        [0.05, 0.20, 0.75],  # a hand is likely -> hidden
    ])
    calls = called_classes(probabilities, VisionConfig(min_cell_confidence=0.85, max_hidden_probability=0.7))
    assert [CLASSES[c] if c >= 0 else "unsure" for c in calls] == ["empty", "unsure", "chip", "hidden"]


def test_a_card_a_hand_likely_covers_is_unknown():
    """A chip under a finger shows no more of itself than an empty card: the model calls it
    empty, a hand only likely (dev photo 4242/76: 0.7). Such a cell is '?', not an empty card."""
    probabilities = np.array([[0.0, 0.3, 0.7], [0.0, 0.55, 0.45], [0.0, 0.2, 0.8]])
    calls = called_classes(probabilities, VisionConfig())
    assert [CLASSES[c] for c in calls] == ["hidden", "empty", "hidden"]


class Unsure:  # the cell model torn between chip and empty on every cell
    def probabilities(self, matrix: np.ndarray) -> np.ndarray:
        return np.tile([0.3, 0.7, 0.0], (len(matrix), 1))


def test_with_no_red_team_an_unsure_clear_red_disc_is_card_art():
    lab = np.zeros((10, 10, 3), np.float32)
    cover = np.zeros((10, 10), np.float32)
    lab[1, 5], cover[1, 5] = (45, 55, 25), 0.9  # an ace's big heart
    lab[4, 6], cover[4, 6] = (45, 55, 25), 0.3  # a little red: not clear enough
    lab[2, 2], cover[2, 2] = (45, -45, 35), 0.9  # clear green: may be a green chip
    two_teams = classify(plain_features(lab, cover), ("B", "G"), CONFIG, model=Unsure())
    three_teams = classify(plain_features(lab, cover), ("B", "G", "R"), CONFIG, model=Unsure())
    assert two_teams[15] == "." and two_teams[46] == "?" and two_teams[22] == "?"
    assert two_teams.cells.count("?") == 95
    assert three_teams.cells.count("?") == 96  # with red chips in play the heart may be one


class SureOfChips:
    """A cell model sure of a chip on every cell."""

    def probabilities(self, matrix: np.ndarray) -> np.ndarray:
        return np.tile([0.95, 0.03, 0.02], (len(matrix), 1))


def test_a_washed_out_chip_is_given_the_team_of_its_hue_but_never_red():
    lab = np.zeros((10, 10, 3), np.float32)
    cover = np.full((10, 10), 0.9, np.float32)
    lab[..., 1:] = (50, 25)  # a clear red: red chips, for the other cells
    lab[1, 1] = (88, 2, -19)  # a blue chip under glare: far paler than the blue chips
    lab[2, 2] = (88, -14, 9)  # a pale green chip
    lab[3, 3] = (88, 16, 8)  # a pale red disc: a red chip or red suit ink
    lab[4, 4], cover[4, 4] = (88, 2, -19), 0.2  # pale blue, but only a fifth of the disc
    lab[5, 5] = (70, 18, -20)  # black suit pips that white balance under warm light tinted violet ...
    texture = np.full((10, 10), 5.0, np.float32)
    texture[5, 5] = 30.0  # ... as busy as printed ink, which no chip is
    chip_ab = {"B": (5.0, -45.0), "G": (-40.0, 30.0), "R": (50.0, 25.0)}
    reading = classify(plain_features(lab, cover, texture), ("B", "G", "R"), CONFIG, model=SureOfChips(), chip_ab=chip_ab)
    assert [reading[i] for i in (11, 22, 33, 44, 55)] == ["B", "G", "?", "?", "?"]
    smooth = classify(plain_features(lab, cover), ("B", "G", "R"), CONFIG, model=SureOfChips(), chip_ab=chip_ab)
    assert smooth[55] == "B"  # the same colour on a smooth disc: a blue chip in shade


def test_a_lit_blue_chip_turned_cyan_is_not_given_green_by_its_hue():
    lab = np.zeros((10, 10, 3), np.float32)
    lab[..., 1:] = (50, 25)  # red chips, for the other cells
    lab[1, 1] = (88, -33, -3)  # a blue chip a lamp turned cyan: hue 185, 42 deg past green's towards blue
    lab[2, 2] = (80, -30, 6)  # a teal green chip in shade: hue 169, 26 deg past green's
    chip_ab = {"B": (5.0, -45.0), "G": (-40.0, 30.0), "R": (50.0, 25.0)}
    reading = classify(plain_features(lab, np.full((10, 10), 0.9, np.float32)), ("B", "G", "R"), CONFIG,
                       model=SureOfChips(), chip_ab=chip_ab)
    assert (reading[11], reading[22]) == ("?", "G")


def test_an_unsure_cell_where_a_chip_arrived_goes_by_the_colour_of_the_teams_chips():
    class ChipsOnEdgeRows:  # sure of the chips on rows 0 and 9, unsure everywhere else
        def probabilities(self, matrix: np.ndarray) -> np.ndarray:
            sure = np.isin(np.arange(len(matrix)) // 10, (0, 9))
            return np.where(sure[:, None], [0.98, 0.02, 0.0], [0.3, 0.7, 0.0])

    lab = np.zeros((10, 10, 3), np.float32)
    cover = np.zeros((10, 10), np.float32)
    lab[0, 1:9], cover[0, 1:9] = (60, 5, -45), 0.9  # blue chips read clearly
    lab[9, 1:9], cover[9, 1:9] = (60, -40, 30), 0.9  # green chips read clearly
    lab[4, 4], cover[4, 4] = (75, -35, 25), 0.8  # a pale green chip the model was unsure of
    lab[4, 5], cover[4, 5] = (75, -35, 25), 0.3  # green ink on a fifth of the disc only
    lab[4, 6], cover[4, 6] = (75, 0, 60), 0.9  # a yellow no team plays (a sleeve)
    features, teams, model = plain_features(lab, cover), ("B", "G"), ChipsOnEdgeRows()
    arrived = [44, 45, 46]
    vouched = classify(features, teams, CONFIG, model=model, arrived=arrived)
    assert vouched.cells[1:9] == "BBBBBBBB" and vouched.cells[91:99] == "GGGGGGGG"
    assert [vouched[i] for i in arrived] == ["G", "?", "?"]
    assert classify(features, teams, CONFIG, model=model, arrived=[45, 46])[44] == "?"  # no chip seen arriving there


class ChipsAHandOnRowOne:
    """Sure there is a chip on every cell, a hand not ruled out; on row 1 (or ``hand_row``) a
    hand, as likely as ``hand``."""

    def __init__(self, hand_row: int | None = 1, hand: float = 0.9) -> None:
        self.hand_row, self.hand = hand_row, hand

    def probabilities(self, matrix: np.ndarray) -> np.ndarray:
        on_row = np.arange(len(matrix)) // 10 == self.hand_row
        return np.where(on_row[:, None], [1.0 - self.hand, 0.0, self.hand], [0.9, 0.0, 0.1])


def test_a_chip_call_that_may_be_a_sleeve_is_unknown_unless_a_chip_was_seen_arriving_there():
    lab = np.zeros((10, 10, 3), np.float32)
    cover = np.zeros((10, 10), np.float32)
    lab[0, 1:9], cover[0, 1:9] = (40, 30, -50), 1.0  # purple-blue over row 0
    lab[9, 1:9], cover[9, 1:9] = (60, -40, 30), 0.9  # green chips
    roundness = np.zeros((10, 10), np.float32)
    roundness[9] = 0.9  # the green blobs are discs; row 0's blob is not
    # no paper at any card's corners, and they are dark
    features = replace(plain_features(lab, cover), roundness=roundness,
                       corner_lightness=np.full((10, 10), -45.0, np.float32))
    teams, model = ("B", "G"), ChipsAHandOnRowOne()
    assert classify(features, teams, CONFIG, model=model).cells[:10] == "#????????#"
    seen = classify(features, teams, CONFIG, model=model, arrived=[3])
    assert seen.cells[:10] == "#??B?????#" and seen.cells[91:99] == "GGGGGGGG"
    papered = replace(features, corner_paper=np.ones((10, 10), np.float32))  # the cards' corners show
    assert classify(papered, teams, CONFIG, model=model).cells[:10] == "#BBBBBBBB#"
    # a hand likely beside it (0.7, over sleeve_hand_probability): the dark unround chip is a sleeve
    assert classify(features, teams, CONFIG, model=ChipsAHandOnRowOne(hand=0.7)).cells[:10] == "#????????#"
    # with no hand beside it, a dark unround chip is one on a board whose ground is its colour
    assert classify(features, teams, CONFIG, model=ChipsAHandOnRowOne(hand_row=2)).cells[:10] == "#BBBBBBBB#"
    assert classify(features, teams, CONFIG, model=ChipsAHandOnRowOne(hand_row=None)).cells[:10] == "#BBBBBBBB#"


def test_a_chip_call_whose_colour_reaches_the_cards_corners_where_a_hand_may_be_is_unknown():
    """Fingers over cards in a 3-team game read as red chips (dev 7171/13, 5151/96): round
    enough, the corners paper between them, but skin reaches the card's corners, where no
    chip does."""
    class ChipsAHandMayBe:
        def probabilities(self, matrix: np.ndarray) -> np.ndarray:
            hand_possible = np.isin(np.arange(len(matrix)) // 10, (4,))
            return np.where(hand_possible[:, None], [0.8, 0.05, 0.15], [0.97, 0.03, 0.0])

    lab = np.zeros((10, 10, 3), np.float32)
    cover = np.zeros((10, 10), np.float32)
    lab[2, 1:5], cover[2, 1:5] = (52, 60, 34), 0.9  # red chips
    lab[4, 1:5], cover[4, 1:5] = (60, 41, 31), 0.9  # fingers, near enough red's colour
    corner_colour = np.zeros((10, 10), np.float32)
    corner_colour[4, 1:3] = 0.7  # skin over two cards' corners; the other two fingertips leave them paper
    features = replace(plain_features(lab, cover), corner_colour=corner_colour)
    teams, model = ("B", "G", "R"), ChipsAHandMayBe()
    reading = classify(features, teams, CONFIG, model=model)
    assert reading.cells[21:25] == "RRRR" and reading.cells[41:45] == "??RR"
    assert classify(features, teams, CONFIG, model=model, arrived=[41]).cells[41:45] == "R?RR"  # seen arriving
    # a set whose blue chips look nearly grey: their faint colour matches paper corners too
    greyish = np.zeros((10, 10, 3), np.float32)
    greyish[2, 1:5] = greyish[4, 1:5] = (50, 3, -11)
    faint = replace(features, colour_lab=greyish, colour_cover=np.where(greyish[..., 0] > 0, 0.9, 0.0))
    assert classify(faint, ("B", "G"), CONFIG, model=model).cells[41:45] == "BBBB"


def pictures() -> tuple[np.ndarray, np.ndarray]:
    """(colour_lab, colour_cover) of a board whose every cell is a picture, hardly one colour."""
    lab = np.zeros((10, 10, 3), np.float32)
    lab[..., 1:] = (15, -7)
    return lab, np.full((10, 10), 0.05, np.float32)


def test_pictures_taken_for_chips_do_not_pull_a_teams_colour_off_its_chips():
    """Face cards whose picture fills the cell (a dark red frame round blue and yellow) can be
    called chips; their disc is no one colour, and its mean (a dull purple-red) lies within
    reach of blue's typical hue. Eight of them outnumbered four real blue chips and moved the
    blue cluster onto themselves: the pictures read blue, the blue chips '?'."""
    lab, cover = pictures()
    lab[3, 1:5], cover[3, 1:5] = (60, 5, -45), 0.85  # four blue chips
    lab[6, 1:5], cover[6, 1:5] = (80, -55, 40), 0.9  # four green chips
    reading = classify(plain_features(lab, cover), ("B", "G"), CONFIG, model=SureOfChips())
    assert reading.cells[31:35] == "BBBB" and reading.cells[61:65] == "GGGG"
    assert reading.cells.count("B") == 4 and reading.cells.count("?") == 100 - 4 - 4 - 4


def test_a_team_with_no_clear_chip_takes_the_colour_of_its_chips_in_part_in_view():
    """Small chips lying off centre show much card: no disc is mostly one colour, so none
    shapes the team's colour, and azure ones lie beyond blue's typical colour. Pictures,
    hardly one colour, shape it neither way."""
    lab, cover = pictures()
    lab[6, 1:5], cover[6, 1:5] = (80, -55, 40), 0.9  # four green chips
    lab[3, 1:4], cover[3, 1:4] = (65, -12, -42), 0.4  # three small azure chips, 22 from typical blue
    reading = classify(plain_features(lab, cover), ("B", "G"), CONFIG, model=SureOfChips())
    assert reading.cells[31:34] == "BBB" and reading.cells[61:65] == "GGGG"
    assert reading.cells.count("B") == 3
    lab[3, 2:4, 1:], cover[3, 2:4] = (15, -7), 0.05  # one azure chip alone is too few to move blue
    assert classify(plain_features(lab, cover), ("B", "G"), CONFIG, model=SureOfChips()).cells[31] == "?"


def test_pictures_washed_out_to_one_colour_neither_pull_a_teams_colour_nor_go_far_to_it():
    """Dev photo 4242/71: court pictures on a dark green ground, washed out by a bright lamp,
    are one colour (olive) and were called chips; 6 of them pulled green's mean towards them
    (within its reach) and all read green. Busy (texture 28), they may not go beyond the
    reach of green's median either."""
    lab, cover = pictures()
    texture = np.full((10, 10), 5.0, np.float32)
    lab[1:3], cover[1:3], texture[1:3] = (87, -40, 52), 0.95, 6.0  # 20 green chips
    lab[5, :4], cover[5, :4] = (60, 5, -45), 0.9  # four blue chips
    lab[7, :6], cover[7, :6], texture[7, :6] = (65, -11, 33), 0.95, 28.0  # six olive pictures
    reading = classify(plain_features(lab, cover, texture), ("B", "G"), CONFIG, model=SureOfChips())
    assert reading.cells[10:30] == "G" * 20 and reading.cells[50:54] == "BBBB"
    assert reading.cells[70:76] == "??????"
    texture[7, :6] = 6.0  # as smooth as a chip: a chip of green's, far in another light
    assert classify(plain_features(lab, cover, texture), ("B", "G"), CONFIG, model=SureOfChips()).cells[70:76] == "GGGGGG"


def test_a_mended_cell_is_called_only_where_the_model_finds_a_hand_unlikely():
    """A cell filled over a hand (vision.hands) may hold more of the hand than the colour mask
    found (a pale hand's nails): the model, reading it mended, saying 0.5 of a hand is too much."""
    class LeansEmpty:
        def probabilities(self, matrix: np.ndarray) -> np.ndarray:
            return np.tile([0.05, 0.45, 0.5], (len(matrix), 1))

    mended = np.zeros((10, 10), bool)
    mended[4, 4] = True
    features = plain_features()
    assert classify(features, ("B", "G"), CONFIG, model=LeansEmpty()).cells[44] == "."
    reading = classify(features, ("B", "G"), CONFIG, model=LeansEmpty(), mended=mended)
    assert reading.cells[44] == "?" and reading.cells[45] == "."

EMPTY_GRID = ["#........#"] + [".........."] * 8 + ["#........#"]


def shifted(image: np.ndarray, dx: int, dy: int) -> np.ndarray:
    return cv2.warpAffine(image, np.float32([[1, 0, dx], [0, 1, dy]]), (image.shape[1], image.shape[0]),
                          borderMode=cv2.BORDER_REPLICATE)


@pytest.mark.parametrize("dx, dy", [(0, 0), (12, -5), (-9, 14)])
def test_the_empty_board_is_moved_onto_a_photo_whose_grid_lies_a_fraction_of_a_cell_off(dx, dy):
    """The calibration photo's grid and this photo's may each lie up to a third of a cell off
    (dev photos): every card then looked changed and the calibration went unused. Moved onto
    the board, the empty cards look unchanged and the chips still changed."""
    board = prepare(drawn_board(GRID), CONFIG)
    empty = prepare(shifted(drawn_board(EMPTY_GRID), dx, dy), CONFIG).lab
    features = measure_cells(board, CONFIG)
    change = reference_change(board, empty, features.centre_yx, CONFIG)
    chips = np.array([[symbol in "BGR" for symbol in row] for row in GRID])
    blank = np.array([[symbol == "." for symbol in row] for row in GRID])
    blank[[0, -1]] = blank[:, [0, -1]] = False  # the drawn empty board's edge cells were shifted out of it
    assert change[blank].max() < 0.05 and change[chips].min() > 0.5


def test_another_board_is_not_moved_onto_this_one():
    board = prepare(drawn_board(GRID), CONFIG)
    noise = np.random.default_rng(1).normal(0, 30, board.lab.shape).astype(np.float32) + np.float32([70, 0, 0])
    assert registered_reference(board, noise, CONFIG) is noise


def test_paper_round_a_cluster_of_large_chips_is_the_boards_not_the_chips_colour():
    # large chips packed together hide their cards' corners: the paper's colour there is not
    # theirs (a blue cast over the cluster made a blue chip look like a hand's shade)
    rows = ["#........#"] + ["." * 10] * 8 + ["#........#"]
    image = drawn_board(rows)
    for row in range(1, 6):
        for col in range(0, 3):
            centre = (col * CELL + CELL // 2, row * CELL + CELL // 2)
            cv2.circle(image, centre, int(0.7 * CELL), CHIP_BGR["B"], -1, cv2.LINE_AA)
    prepared = prepare(image, CONFIG)
    inside = prepared.paper_lab[2:5, 0:2].reshape(-1, 3)
    assert np.all(inside[:, 0] > 85) and np.all(np.hypot(inside[:, 1], inside[:, 2]) < 5)


def test_a_card_under_a_chip_no_longer_looks_as_the_empty_board_printed_it():
    """A pale chip, as light as the paper, still hides the ink under it; an empty card looks
    as printed though this photo's light is dimmer and the grid lies a pixel off."""
    config = VisionConfig()
    empty = ["." * 10] * 10
    with_chips = ["." * 10] * 3 + ["...B......"] + ["." * 10] * 6
    reference = prepare(drawn_board(empty), config).lab
    board = drawn_board(with_chips)
    cv2.circle(board, (2 * CELL + CELL // 2 + 2, 6 * CELL + CELL // 2), int(0.36 * CELL), (225, 232, 238), -1)  # pale
    board = np.roll((board * 0.85).astype(np.uint8), 1, axis=1)
    likeness, ink, _ = card_likeness(prepare(board, config), reference, config)
    assert likeness[3, 3] < 0.5 and likeness[6, 2] < 0.5  # a blue chip, a pale chip
    assert likeness[5, 5] > 0.9 and ink[5, 5] > 0


def test_an_empty_card_a_hand_covers_in_part_is_compared_on_its_part_in_view():
    """A hand over a third of an empty card: where it lies (``PreparedBoard.hand``) the card is
    not compared, the rest looks as printed; a chip under the same hand does not."""
    config = VisionConfig()
    reference = prepare(drawn_board(["." * 10] * 10), config).lab
    board = drawn_board(["." * 10] * 3 + ["...B......"] + ["." * 10] * 6)
    hand = np.zeros(board.shape[:2], bool)
    for row, col in ((3, 3), (5, 5)):
        hand[row * CELL : row * CELL + CELL // 3, col * CELL : (col + 1) * CELL] = True
    board[hand] = (120, 160, 210)
    prepared = prepare(board, config)
    unaware, _, seen_all = card_likeness(prepared, reference, config)
    likeness, ink, seen = card_likeness(replace(prepared, hand=hand), reference, config)
    assert unaware[5, 5] < 0.85 <= likeness[5, 5] and ink[5, 5] > 0
    assert likeness[3, 3] < 0.5  # the chip
    assert seen_all[5, 5] == 1.0 and 0.6 < seen[5, 5] < 0.9 and seen[0, 5] == 1.0

def test_an_empty_card_looks_as_printed_where_a_bowed_board_lies_a_little_off_elsewhere():
    """One shift cannot lay the empty board over every card of a folded or bowed board (nor
    through a lens's bend): each card is compared at its own best shift, a pixel or two."""
    config = VisionConfig()
    printed = drawn_board(["." * 10] * 10)
    for line in range(CELL // 2 - 8, CELL // 2 + 8, 6):  # fine print: thin strokes across every card
        printed[line :: CELL] = printed[line + 1 :: CELL] = np.minimum(printed[line :: CELL], 90)
    reference = prepare(printed, config).lab
    board = printed.copy()
    board[:, 5 * CELL :] = np.roll(board[:, 5 * CELL :], 2, axis=0)  # the right half lies 2 pixels lower
    likeness, _, _ = card_likeness(prepare(board, config), reference, config)
    assert min(likeness[1:9, 1:4].min(), likeness[1:9, 6:9].min()) > 0.95
    one_shift, _, _ = card_likeness(prepare(board, config), reference, replace(config, card_likeness_reach_px=0))
    assert min(one_shift[1:9, 1:4].min(), one_shift[1:9, 6:9].min()) < 0.8  # it fits one half only


def test_a_chip_washed_out_by_glare_is_the_team_whose_colour_glare_washes_to_it():
    """Under a lamp's glare a blue chip turns pale cyan (the camera clips its blue first): too
    pale for its hue and far from blue's colour, it lies on blue's colour washed by white light.
    A disc nearly paper white lies where every team's washed colour ends: no team's."""
    lab, cover = pictures()
    lab[1, :4], cover[1, :4] = (45, 15, -50), 0.9  # four blue chips
    lab[2, :4], cover[2, :4] = (60, -50, 40), 0.9  # four green chips
    washed_blue = washed_by_glare(np.float32([45, 15, -50]))
    lab[4, 0], lab[4, 1] = washed_blue[40], washed_blue[44]  # L 84 and 86, chroma 12 and 8
    lab[4, 2] = washed_by_glare(np.float32([60, -50, 40]))[40]  # a green chip as washed
    lab[4, 3] = (91.5, -1.0, -0.3)  # nearly paper white
    cover[4, :4] = 0.9
    reading = classify(plain_features(lab, cover), ("B", "G"), CONFIG, model=SureOfChips())
    assert reading.cells[10:14] == "BBBB" and reading.cells[20:24] == "GGGG"
    assert reading.cells[40:44] == "BBG?"
    assert team_of(lab[4, 0, 1:], {"B": lab[1, 0, 1:], "G": lab[2, 0, 1:]}, CONFIG, clear=True) == "?"
