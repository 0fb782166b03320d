"""Whether a cell looks like this photo's own chips: the colours of its disc against theirs.

Every chip of a team on one board is the same plastic under the same light, so its disc shows
the same mix of colours (body, highlight, rim and shadow) wherever it lies, and unlike card art,
which differs from card to card. A cell the cell model could not decide ('?': a chip on a
court card, a pale chip under glare) that matches several of one team's chips read on the same
photo, and no empty card as well, is that team's chip; a cell read empty that matches them so
is '?' (a chip the model took for an empty card). Nothing depends on the artwork or the chips'
colours: each photo is its own reference.

The measure is a histogram of paper-normalised Lab over the cell's central disc, compared by
the Bhattacharyya distance (0 for the same mix, 1 for nothing in common).
"""

from __future__ import annotations

import numpy as np

from referee.board import EMPTY, UNKNOWN, Board
from vision.config import VisionConfig
from vision.read_cells import centred_disc

GRID = 10
LIGHTNESS_BINS, AB_BINS, AB_REACH = 4, 8, 60.0  # L 0-100 in 4 bins; a and b from -60 to 60 in 8 each
BINS = LIGHTNESS_BINS * AB_BINS * AB_BINS


def disc_histograms(lab: np.ndarray, cell_px: int, disc_share: float) -> np.ndarray:
    """(100, BINS) the share of each Lab bin over each cell's central disc (radius
    ``disc_share`` of the cell), ``lab`` (10 cell_px, 10 cell_px, 3) the rectified board,
    normalised to its paper, cells in reading order."""
    lightness = np.clip(lab[..., 0] * (LIGHTNESS_BINS / 100.0), 0, LIGHTNESS_BINS - 1e-3).astype(np.int32)
    ab = np.clip((lab[..., 1:] + AB_REACH) * (AB_BINS / (2 * AB_REACH)), 0, AB_BINS - 1e-3).astype(np.int32)
    codes = (lightness * AB_BINS + ab[..., 0]) * AB_BINS + ab[..., 1]
    per_cell = codes.reshape(GRID, cell_px, GRID, cell_px).transpose(0, 2, 1, 3).reshape(GRID * GRID, -1)
    disc = centred_disc(cell_px, disc_share).reshape(-1)
    inside = per_cell[:, disc] + BINS * np.arange(GRID * GRID)[:, None]
    counts = np.bincount(inside.reshape(-1), minlength=GRID * GRID * BINS).reshape(GRID * GRID, BINS)
    return (counts / disc.sum()).astype(np.float32)


def distances(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(n, m) Bhattacharyya distances between histograms ``a`` (n, BINS) and ``b`` (m, BINS).

    >>> h = np.eye(3, dtype=np.float32)
    >>> distances(h[:1], h).round(3).tolist()
    [[0.0, 1.0, 1.0]]
    """
    overlap = np.sqrt(a) @ np.sqrt(b).T
    return np.sqrt(np.clip(1.0 - overlap, 0.0, 1.0))


def chips_like_team_chips(board: Board, histograms: np.ndarray, settleable: np.ndarray, teams: tuple[str, ...],
                          max_empty_ratio: float, config: VisionConfig) -> Board:
    """``board`` with a team's chip on each '?' cell that may be settled (``settleable``,
    (100,) bool) whose disc (``histograms``, (100, BINS), both in the board's cell order) is
    as near its ``like_chip_neighbours``-th nearest chip of that team as ``max_empty_ratio``
    of its nearest empty card, within ``like_chip_max_spread``
    times the team's chips' own spread (each one's distance to the nearest other), and
    ``like_chip_min_separation`` times nearer that team's chips than any other team's. Needs
    ``like_chip_neighbours`` chips of every team and two empty cards: a team whose chips were
    read '?' would have no say, and its chips could be taken for the nearest other colour."""
    cells = list(board.cells)
    unknown = [cell for cell, symbol in enumerate(cells) if symbol == UNKNOWN and settleable[cell]]
    members = {team: np.array([cell for cell, symbol in enumerate(cells) if symbol == team]) for team in teams}
    empties = np.array([cell for cell, symbol in enumerate(cells) if symbol == EMPTY])
    if not unknown or len(empties) < 2 or min(len(m) for m in members.values()) < config.like_chip_neighbours:
        return board
    spreads = {team: team_spread(histograms[m]) for team, m in members.items()}
    to_empty = distances(histograms[unknown], histograms[empties]).min(axis=1)
    to_teams = {team: np.sort(distances(histograms[unknown], histograms[m]), axis=1) for team, m in members.items()}
    for row, cell in enumerate(unknown):
        nearest = sorted((float(d[row, 0]), team) for team, d in to_teams.items())
        best, team = nearest[0]
        runner_up = nearest[1][0] if len(nearest) > 1 else np.inf
        kth = float(to_teams[team][row, config.like_chip_neighbours - 1])
        if (kth <= max_empty_ratio * to_empty[row]
                and kth <= config.like_chip_max_spread * spreads[team]
                and runner_up >= config.like_chip_min_separation * best):
            cells[cell] = team
    return Board("".join(cells))


def empties_like_team_chips(board: Board, histograms: np.ndarray, teams: tuple[str, ...], config: VisionConfig
                            ) -> Board:
    """``board`` with '?' on each cell read empty whose disc is as near its
    ``like_chip_neighbours``-th nearest chip of a team as ``like_empty_max_ratio`` of its
    ``like_empty_card_rank``-th nearest other empty card, within ``like_chip_max_spread`` times
    the team's chips' own spread: a chip the cell model took for an empty card (dark chips under
    a bright warm light). Not the nearest empty card: such chips come several at once, each the
    others' nearest. Needs as many chips of every team as ``chips_like_team_chips``."""
    cells = list(board.cells)
    empties = np.array([cell for cell, symbol in enumerate(cells) if symbol == EMPTY])
    members = {team: np.array([cell for cell, symbol in enumerate(cells) if symbol == team]) for team in teams}
    too_few_chips = min(len(m) for m in members.values()) < config.like_chip_neighbours
    if len(empties) <= config.like_empty_card_rank or too_few_chips:
        return board
    apart = distances(histograms[empties], histograms[empties])
    np.fill_diagonal(apart, np.inf)
    to_empty = np.sort(apart, axis=1)[:, config.like_empty_card_rank - 1]
    for team, m in members.items():
        kth = np.sort(distances(histograms[empties], histograms[m]), axis=1)[:, config.like_chip_neighbours - 1]
        like = ((kth <= config.like_empty_max_ratio * to_empty)
                & (kth <= config.like_chip_max_spread * team_spread(histograms[m])))
        for cell in empties[like]:
            cells[cell] = UNKNOWN
    return Board("".join(cells))


def team_spread(histograms: np.ndarray) -> float:
    """The median distance from each of a team's chips to the nearest other."""
    apart = distances(histograms, histograms)
    np.fill_diagonal(apart, np.inf)
    return float(np.median(apart.min(axis=1)))
