import numpy as np
import pytest

from referee.board import Board
from vision.config import VisionConfig
from vision.read_cells import cluster_team_colours, prepare, read_cells
from tests.vision.synthetic import CELL, drawn_board

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


def test_red_chips_in_a_two_team_game_are_not_given_a_team():
    reading = read_cells(prepare(drawn_board(GRID), CONFIG), ("B", "G"), CONFIG)
    assert reading[14] == "?"  # cell 1,4 holds a red chip, which no team of this game plays
    assert "R" not in reading.cells


def test_team_colours_follow_the_photo():
    light_blue, teal = np.float32([5, -30]), np.float32([-35, 5])
    colours = np.stack([light_blue + 1, light_blue - 1, teal + 2, teal - 2])
    centres = cluster_team_colours(colours, ("B", "G"), CONFIG)
    assert np.allclose(centres["B"], light_blue) and np.allclose(centres["G"], teal)
