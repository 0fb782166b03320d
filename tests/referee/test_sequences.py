"""Sequences and protection: hand-written rules, a data file of positions, and checks
against a brute-force search of the rule itself."""

from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.board import Board
from referee.cells import CORNERS, cell, parse_cell
from referee.judge import judge
from referee.lines import LINES, WINDOWS
from referee.sequences import count_sequences, find_runs, read_team, sequences_in_run

DATA = Path(__file__).parent / "data" / "positions.txt"


def load_positions() -> list[dict]:
    cases = []
    for block in DATA.read_text().split("\n\n"):
        lines = [line for line in block.strip().splitlines() if not line.startswith("# ")]
        if not lines:
            continue
        fields = dict(line.split(": ", 1) for line in lines if ": " in line)
        grid = [line for line in lines if ": " not in line]
        cases.append({**fields, "grid": grid})
    return cases


def cells_field(text: str) -> set[int]:
    return set() if text == "-" else {parse_cell(pair) for pair in text.split()}


@pytest.mark.parametrize("case", load_positions(), ids=lambda case: case["name"])
def test_position_file(case):
    verdict = judge(Board.from_rows(case["grid"]), int(case["teams"]))
    expected_counts = dict(pair.split("=") for pair in case["sequences"].split())
    assert verdict.sequences == {team: int(n) for team, n in expected_counts.items()}
    assert set(verdict.winner) == (set() if case["winner"] == "-" else set(case["winner"].split()))
    assert verdict.definitely_protected == cells_field(case["definite"])
    assert verdict.possibly_protected == cells_field(case["possible"])
    expected_warnings = set() if case["warnings"] == "-" else set(case["warnings"].split())
    assert {w.kind.value for w in verdict.warnings} == expected_warnings


def test_position_file_covers_the_edge_cases():
    names = " ".join(case["name"] for case in load_positions())
    for words in ("run of six", "run of nine", "run of ten", "three teams", "same corner", "hidden", "both teams"):
        assert words in names


def test_runs_hold_floor_of_length_minus_one_over_four():
    assert [sequences_in_run(n) for n in range(0, 11)] == [0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2]


def test_run_object_describes_cells_and_protection():
    rows = ["#........#"] + ["." * 10] * 8 + ["#........#"]
    rows[2] = "BBBBBB...."
    (run,) = find_runs(Board.from_rows(rows), "B")
    assert run.cells == tuple(cell(2, c) for c in range(6))
    assert run.sequences == 1
    assert run.definite == {cell(2, c) for c in range(1, 5)}
    assert run.possible == {cell(2, 0), cell(2, 5)}


def test_corners_never_protected_and_never_a_team_chip():
    board = Board.from_rows(["#BBBBBBBB#"] + ["." * 10] * 8 + ["#........#"])
    reading = read_team(board, "B")
    assert not (reading.definite | reading.possible) & CORNERS
    assert count_sequences(board, "G") == 0


# --- brute force of the rule itself: the largest set of windows sharing at most one cell


def brute_force(board: Board, team: str) -> tuple[int, set[int], set[int]]:
    complete = [w for w in WINDOWS if all(board[c] == team or c in CORNERS for c in w)]
    best, best_sets = 0, [()]
    for size in range(1, len(complete) + 1):
        sets = [
            chosen for chosen in combinations(complete, size)
            if all(len(set(a) & set(b)) <= 1 for a, b in combinations(chosen, 2))
        ]
        if not sets:
            break
        best, best_sets = size, sets
    covered = [{c for w in chosen for c in w if board[c] == team} for chosen in best_sets]
    every = set.intersection(*covered) if covered else set()
    some = set.union(*covered) if covered else set()
    return best, every, some - every


def line_biased_boards(max_chips: int):
    """Boards whose chips cluster on a few lines, so that runs are common."""
    line_strategy = st.sampled_from(LINES)
    return st.lists(
        st.tuples(line_strategy, st.integers(0, 9), st.integers(2, 10), st.sampled_from("BG")),
        min_size=1, max_size=4,
    ).map(lambda strokes: _draw(strokes, max_chips))


def _draw(strokes, max_chips: int) -> Board:
    cells = list(Board.empty().cells)
    placed = 0
    for line, start, length, team in strokes:
        for c in line[start:start + length]:
            if c not in CORNERS and placed < max_chips:
                cells[c] = team
                placed += 1
    return Board("".join(cells))


@settings(max_examples=300, deadline=None)
@given(line_biased_boards(max_chips=16))
def test_matches_brute_force_of_the_sharing_rule(board):
    for team in "BG":
        reading = read_team(board, team)
        count, definite, possible = brute_force(board, team)
        assert reading.sequences == count
        assert reading.definite == definite
        assert reading.possible == possible


@settings(max_examples=200, deadline=None)
@given(line_biased_boards(max_chips=40), st.integers(1, 7))
def test_counts_and_protection_invariant_under_the_symmetries_of_the_square(board, symmetry):
    from referee.board import symmetry_source

    moved = board.transformed(symmetry)
    for team in "BG":
        original, image = read_team(board, team), read_team(moved, team)
        assert image.sequences == original.sequences
        # cell c of the moved board came from symmetry_source(symmetry, c)
        assert {symmetry_source(symmetry, c) for c in image.definite} == original.definite
        assert {symmetry_source(symmetry, c) for c in image.possible} == original.possible


@settings(max_examples=150, deadline=None)
@given(line_biased_boards(max_chips=14), st.sets(st.integers(0, 99), max_size=3))
def test_hidden_cells_bound_every_filling(board, hidden):
    """With '?' cells, the count is certain for every filling, and the protection is sound:
    definite under every filling, unprotected under none."""
    hidden = [c for c in hidden if c not in CORNERS]
    veiled = board
    for c in hidden:
        veiled = veiled.with_cell(c, "?")
    for team in "BG":
        reading = read_team(veiled, team)
        for filling in range(2 ** len(hidden)):
            filled = veiled
            for i, c in enumerate(hidden):
                filled = filled.with_cell(c, team if filling >> i & 1 else ".")
            truth = read_team(filled, team)
            assert reading.sequences <= truth.sequences <= reading.most_sequences
            assert reading.definite <= truth.definite
            assert (truth.definite | truth.possible) - set(hidden) <= reading.definite | reading.possible
