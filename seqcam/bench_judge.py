"""`seqcam bench-judge`: how many random positions per second the referee judges on one core."""

from __future__ import annotations

import time

import numpy as np

from referee.board import Board
from referee.cells import CELLS, CORNERS, teams_for
from referee.judge import judge

PLAYABLE = np.array([c for c in CELLS if c not in CORNERS])


def random_position(rng: np.random.Generator, team_count: int) -> Board:
    """Chips dealt as turn order would: counts differ by at most one between teams."""
    chips = int(rng.integers(0, 96))
    teams = teams_for(team_count)
    symbols = ["#" if c in CORNERS else "." for c in CELLS]
    for turn, c in enumerate(rng.choice(PLAYABLE, size=chips, replace=False)):
        symbols[int(c)] = teams[turn % team_count]
    return Board("".join(symbols))


def measure(positions: list[Board], team_count: int, repeats: int) -> float:
    """Best positions-per-second of ``repeats`` passes (sequences and protected cells)."""
    best = 0.0
    for _ in range(repeats):
        start = time.perf_counter()
        for board in positions:
            judge(board, team_count)
        best = max(best, len(positions) / (time.perf_counter() - start))
    return best


def run_bench_judge(count: int, seed: int, repeats: int = 3) -> int:
    rng = np.random.default_rng(seed)
    print(f"{'teams':>5}  {'positions':>9}  {'positions/s (best of ' + str(repeats) + ')':>26}")
    for team_count in (2, 3):
        positions = [random_position(rng, team_count) for _ in range(count)]
        rate = measure(positions, team_count, repeats)
        print(f"{team_count:>5}  {count:>9}  {rate:>26,.0f}")
    return 0
