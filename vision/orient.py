"""Which side of the rectified board is the printed top: read from the card art.

Patterns of the printed layout (../shared/RULES.md) that no quarter turn maps onto itself
vote, and none needs to know the artwork:

* the twins: every card but the jacks is printed twice, the same print in every edition;
  turned right, the two copies look alike, turned wrong, every pair is two different cards
  (``twin_orientation``: it decides where the ink below is not sure and it is clear);
* red suits (hearts, diamonds) against black suits (spades, clubs): every visible card
  votes with the colour of its ink;
* the 16 queens and kings: a face card's picture is colourful (blue and yellow ink), a
  number card's ink is red or black; this counts where the suit ink is small (only a corner
  index) but the pictures are not.

Chips and hidden cells abstain.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from referee.board import CHIP_COLOURS, EMPTY, UNKNOWN, Board
from referee.cells import CORNER, LAYOUT, RED_SUITS, cells_of
from vision.read_cells import hue_deg, hue_gap, red_hued

GRID = 10
# +1 where the printed card is red, -1 where black, 0 on the corners
PRINTED_RED = np.array(
    [0 if card == CORNER else (1 if card[1] in RED_SUITS else -1) for card in LAYOUT], np.float32
).reshape(GRID, GRID)
_FACE = np.array([card != CORNER and card[0] in "QK" for card in LAYOUT]).reshape(GRID, GRID)
_CARD = np.array([card != CORNER for card in LAYOUT]).reshape(GRID, GRID)
# +1 on a queen or king, a small negative on the other cards so that the pattern sums to zero
PRINTED_FACE = np.where(_FACE, 1.0, np.where(_CARD, -_FACE.sum() / (_CARD.sum() - _FACE.sum()), 0.0)).astype(np.float32)
# the other cell printed with the same card (every card but the jacks is printed twice); -1 on the corners
TWIN = np.array([next((other for other in cells_of(card) if other != cell), -1) if card != CORNER else -1
                 for cell, card in enumerate(LAYOUT)])
PICTURE_MIN_B = 12.0  # |b*| of blue or yellow picture ink (suit ink is red, a* > 0, or black)
# the suit colour is read inside this share of the cell from each edge: the gaps between the
# cards and their outlines are dark ink on every card, and on small or blurred pips they
# outweighed the suit's colour (true corners, three dev sets: 9 of 656 boards turned, 1 after)
INK_EDGE_BAND = 0.1


@dataclass(frozen=True, slots=True)
class Orientation:
    quarter_turns: int  # clockwise quarter turns that bring the rectified board to the printed top
    margin: float  # how much better than the next best turn (votes)
    votes: int  # cards that voted


def ink_redness(lab: np.ndarray, not_paper: np.ndarray, cell_px: int, covered: np.ndarray | None = None,
                edge_band: float = INK_EDGE_BAND) -> np.ndarray:
    """Per cell, how red its ink is: the mean red-green coordinate (a*) of its ink pixels
    away from the cell's edge (``edge_band`` of the cell), NaN where a cell shows no ink.
    ``covered`` (H, W) marks pixels to ignore (chips), leaving a covered card its corners."""
    band = int(round(edge_band * cell_px))
    inside = np.zeros((cell_px, cell_px), bool)
    inside[band : cell_px - band, band : cell_px - band] = True
    ink = (not_paper > 0) & np.tile(inside, (GRID, GRID))
    if covered is not None:
        ink &= ~covered
    per_cell = (GRID, cell_px, GRID, cell_px)
    count = ink.reshape(per_cell).sum(axis=(1, 3)).astype(np.float32)
    red_sum = np.where(ink, lab[..., 1], 0.0).reshape(per_cell).sum(axis=(1, 3))
    return np.where(count >= 3, red_sum / np.maximum(count, 1.0), np.nan).astype(np.float32)


def picture_ink(lab: np.ndarray, not_paper: np.ndarray, cell_px: int, covered: np.ndarray | None = None) -> np.ndarray:
    """Per cell, the share of its uncovered pixels that are blue or yellow ink (a face
    card's picture), NaN where little of the cell shows."""
    shows = np.ones(not_paper.shape, bool) if covered is None else ~covered
    picture = (not_paper > 0) & shows & (np.abs(lab[..., 2]) >= PICTURE_MIN_B)
    per_cell = (GRID, cell_px, GRID, cell_px)
    shown = shows.reshape(per_cell).sum(axis=(1, 3)).astype(np.float32)
    share = picture.reshape(per_cell).sum(axis=(1, 3)) / np.maximum(shown, 1.0)
    return np.where(shown >= 0.25 * cell_px**2, share, np.nan).astype(np.float32)


def _votes(measure: np.ndarray, voting: np.ndarray) -> np.ndarray:
    """Each voting cell's vote in [-1, 1]: how far its measure lies from the board's median
    card, in units of the median distance (a colour cast or a faded print moves every card
    alike and changes nothing)."""
    centred = measure - np.median(measure[voting])
    spread = float(np.median(np.abs(centred[voting]))) + 1e-3
    return np.where(voting, np.clip(centred / spread, -1.0, 1.0), 0.0)


def _pattern_votes(redness: np.ndarray, voting: np.ndarray,
                   pictures: np.ndarray | None) -> list[tuple[np.ndarray, np.ndarray]]:
    """(votes, printed pattern) for each pattern that some cards vote on."""
    patterns = []
    red_voting = voting & ~np.isnan(redness)
    if red_voting.any():
        patterns.append((_votes(redness, red_voting), PRINTED_RED))
    if pictures is not None:
        picture_voting = voting & ~np.isnan(pictures)
        if picture_voting.any():
            patterns.append((_votes(pictures, picture_voting), PRINTED_FACE))
    return patterns


def find_orientation(redness: np.ndarray, voting: np.ndarray, pictures: np.ndarray | None = None) -> Orientation:
    """The quarter turn whose printed pattern best matches the cells' ink: red against black
    suits (``redness``) and, when given, face cards against number cards (``pictures``).

    ``voting`` marks the cells whose card shows.
    """
    patterns = _pattern_votes(redness, voting, pictures)
    if not patterns:
        return Orientation(0, 0.0, 0)
    scores = [sum(float((np.rot90(votes, -k) * printed).sum()) for votes, printed in patterns) for k in range(4)]
    order = np.argsort(scores)[::-1]
    voters = (voting & ~np.isnan(redness)) | (voting & ~np.isnan(pictures) if pictures is not None else False)
    return Orientation(int(order[0]), float(scores[order[0]] - scores[order[1]]), int(voters.sum()))


def _shifted_match(votes: np.ndarray, printed: np.ndarray, dy: int, dx: int) -> float:
    """How well ``votes`` match the printed pattern moved by (dy, dx) cells, over the cells
    both cover."""
    return float((votes[max(0, -dy) : GRID - max(0, dy), max(0, -dx) : GRID - max(0, dx)]
                  * printed[max(0, dy) : GRID - max(0, -dy), max(0, dx) : GRID - max(0, -dx)]).sum())


def register_lead(redness: np.ndarray, voting: np.ndarray, pictures: np.ndarray | None, quarter_turns: int) -> float:
    """How much better (votes) the printed pattern matches the cards where the grid lies than
    one cell to any side, after ``quarter_turns``. A grid a cell off still finds the red and
    black rows (which run along the rows: one column on, the red pattern still matches 70%)
    but not the face cards."""
    patterns = [(np.rot90(votes, -quarter_turns), printed) for votes, printed in _pattern_votes(redness, voting, pictures)]
    if not patterns:
        return 0.0
    scores = {(dy, dx): sum(_shifted_match(votes, printed, dy, dx) for votes, printed in patterns)
              for dy in (-1, 0, 1) for dx in (-1, 0, 1)}
    in_place = scores.pop((0, 0))
    return in_place - max(scores.values())


CENTRE_HALF = 0.32  # the centre a cell's art is compared on: this share of the cell to each side
LIKENESS_REACH_PX = 2  # the other cell is moved by up to this much to allow for the grid


def centre_patches(lab: np.ndarray, cell_px: int, reach_px: int = LIKENESS_REACH_PX) -> np.ndarray:
    """(9, 100, D): every cell's centre of ``lab``, moved by each of (-reach, 0, reach)
    pixels down and across (the unmoved centre is index 4), each channel less its mean and
    the whole scaled to unit length, so that a dot product is a normalised cross-correlation."""
    side = 2 * int(CENTRE_HALF * cell_px)
    starts = ((np.arange(GRID) + 0.5) * cell_px).astype(int) - side // 2
    span = np.arange(side)
    planes = np.ascontiguousarray(lab.transpose(2, 0, 1), np.float32)  # channels first: the means run along rows
    patches = np.empty((9, GRID * GRID, planes.shape[0], side * side), np.float32)
    shifts = (-reach_px, 0, reach_px)
    for i, dy in enumerate(shifts):
        rows = planes[:, ((starts + dy)[:, None] + span).reshape(-1)]
        for j, dx in enumerate(shifts):
            blocks = rows[:, :, ((starts + dx)[:, None] + span).reshape(-1)]  # (C, 10 side, 10 side)
            patches[3 * i + j] = (blocks.reshape(-1, GRID, side, GRID, side).transpose(1, 3, 0, 2, 4)
                                  .reshape(GRID * GRID, -1, side * side))
    patches -= patches.mean(axis=3, keepdims=True)
    patches = patches.reshape(9, GRID * GRID, -1)
    patches /= np.sqrt(np.einsum("spd,spd->sp", patches, patches)[..., None] + 1e-6)
    return patches


def pair_likeness(patches: np.ndarray, cells: np.ndarray, others: np.ndarray) -> np.ndarray:
    """The likeness of each cell's centre to its other's (``centre_patches``), the best over
    the other's moves."""
    return np.einsum("pd,spd->sp", patches[4, cells], patches[:, others]).max(axis=0)


_CELLS = np.arange(GRID * GRID).reshape(GRID, GRID)


def turned_patches(patches: np.ndarray, quarter_turns: int) -> np.ndarray:
    """``centre_patches`` of the rectified board, indexed by the cells of the board turned
    ``quarter_turns`` (a likeness does not change when both centres turn alike)."""
    return patches[:, np.rot90(_CELLS, -quarter_turns).reshape(-1)]


def likeness(patches: np.ndarray, cell: int, other: int) -> float:
    return float(pair_likeness(patches, np.array([cell]), np.array([other]))[0])


# each card printed twice, once: (cell, twin) with cell < twin, in the printed orientation
_TWIN_PAIRS = np.array([(cell, twin) for cell, twin in enumerate(TWIN) if twin > cell])


def twin_orientation(patches: np.ndarray, voting: np.ndarray) -> Orientation:
    """The quarter turn under which the cards printed twice look most alike (``patches``:
    ``centre_patches`` of the rectified board, ``voting``: (10, 10) its cells whose card
    shows). Whatever the edition, both copies of a card carry the same art, and no quarter
    turn maps a pair of twins onto another pair: turned wrongly, every pair compares two
    different cards. The margin is in pairs' likeness."""
    shows = voting.reshape(-1)
    scores, pairs = [], []
    for turns in range(4):
        rectified = np.rot90(_CELLS, -turns).reshape(-1)[_TWIN_PAIRS]  # the pairs' cells in the rectified board
        both = rectified[shows[rectified[:, 0]] & shows[rectified[:, 1]]]
        scores.append(float(pair_likeness(patches, both[:, 0], both[:, 1]).sum()) if len(both) else 0.0)
        pairs.append(len(both))
    order = np.argsort(scores)[::-1]
    return Orientation(int(order[0]), scores[order[0]] - scores[order[1]], pairs[order[0]])


def twin_doubts(patches: Callable[[], np.ndarray], reading: Board, colour_cover: np.ndarray, same: float,
                differs: float, min_cover: float) -> np.ndarray:
    """(10, 10) True on the cards whose call the card's other printed copy, read empty,
    contradicts (all in the printed orientation, ``patches`` too: ``turned_patches``, asked
    for only where a pair is compared). Every card is printed twice with the same art: a chip
    read where the empty twin looks the same (likeness ``same`` or more) is art (an ace's big
    heart, a court card's blue or green robe); and on a red card, whose suit ink looks like a
    red chip, a coloured disc read as empty art where the empty twin looks different
    (``differs`` or less) is a chip."""
    doubts = np.zeros(GRID * GRID, bool)
    cover = colour_cover.reshape(-1)
    red = PRINTED_RED.reshape(-1) > 0
    for cell, twin in enumerate(TWIN):
        if twin < 0 or reading[twin] != EMPTY:
            continue
        if reading[cell] in CHIP_COLOURS:
            doubts[cell] = likeness(patches(), cell, twin) >= same
        elif reading[cell] == EMPTY and red[cell] and cover[cell] >= min_cover:
            doubts[cell] = likeness(patches(), cell, twin) <= differs
    return doubts.reshape(GRID, GRID)


def twin_art(lab: np.ndarray, cell_px: int, patches: Callable[[], np.ndarray], reading: Board, own: np.ndarray,
             same: float, max_tint: float, chip_share: np.ndarray, max_chip_share: float, sure: float) -> np.ndarray:
    """(10, 10) True on the cards read '?' whose other printed copy, read empty, looks just
    the same (likeness ``same`` or more) and is of the same colour (mean a, b within
    ``max_tint``: a translucent chip tints the art it lies on): the cell holds the card's own
    art, not a chip (all in the printed orientation, ``patches`` and ``chip_share``, the cell
    model's share for a chip, too, as for ``twin_doubts``). Where the model leans to a chip
    (share over ``max_chip_share``), only a likeness of ``sure`` overrules it: a pale chip on a
    busy court card can look as alike as ``same``. ``own`` (100,): the cells showing their card's
    own picture, the only ones compared (``pipeline.own_pictures``).
    A chip hides or tints the art, and every card is printed twice alike, whatever the edition."""
    art = np.zeros(GRID * GRID, bool)
    for cell, twin in enumerate(TWIN):
        if twin >= 0 and own[cell] and own[twin] and reading[cell] == UNKNOWN and reading[twin] == EMPTY:
            tint = float(np.linalg.norm(centre_colour(lab, cell, cell_px)[1:] - centre_colour(lab, twin, cell_px)[1:]))
            needed = sure if chip_share[cell] > max_chip_share else same
            art[cell] = tint <= max_tint and likeness(patches(), cell, twin) >= needed
    return art.reshape(GRID, GRID)


def twin_unlike(patches: Callable[[], np.ndarray], reading: Board, own: np.ndarray, candidates: np.ndarray,
                unlike: float) -> np.ndarray:
    """(10, 10) True on the ``candidates`` read '?' whose other printed copy, read empty, looks
    unlike them (likeness ``unlike`` or less): something lies on the card (all in the printed
    orientation, ``patches`` too, as for ``twin_doubts``; ``own`` as for ``twin_art``)."""
    flagged = np.zeros(GRID * GRID, bool)
    for cell in np.flatnonzero(candidates.reshape(-1)):
        twin = TWIN[cell]
        if twin >= 0 and own[cell] and own[twin] and reading[cell] == UNKNOWN and reading[twin] == EMPTY:
            flagged[cell] = likeness(patches(), cell, twin) <= unlike
    return flagged.reshape(GRID, GRID)


def centre_colour(lab: np.ndarray, cell: int, cell_px: int) -> np.ndarray:
    """(3,) the mean Lab colour of a cell's centre, the part ``likeness`` compares."""
    half = int(CENTRE_HALF * cell_px)
    y, x = (int((k + 0.5) * cell_px) for k in divmod(cell, GRID))
    return lab[y - half : y + half, x - half : x + half].reshape(-1, lab.shape[-1]).mean(axis=0)


def nearest_ab(colour_lab: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """(10, 10) each cell's distance in (a, b) to the nearest disc of the cells ``reference`` marks."""
    return np.linalg.norm(colour_lab[..., None, 1:] - colour_lab[reference][:, 1:], axis=-1).min(axis=-1)


def red_unlike_red_chips(printed: Board, colour_lab: np.ndarray, min_chips: int, reach: float) -> np.ndarray:
    """(10, 10) True on the red chips read on red cards (``printed``, ``colour_lab``: the
    reading and its discs' colours in the printed orientation) whose colour lies further than
    ``reach`` (Lab a, b) from every red chip read on a black card, when at least ``min_chips``
    are: a big heart or diamond is red ink of a red chip's hue, but seldom of its colour.
    Every chip, not their mean: across a board in uneven light red chips range widely."""
    reds = np.array(list(printed.cells)).reshape(GRID, GRID) == "R"
    on_black = reds & (PRINTED_RED < 0)
    if on_black.sum() < min_chips:
        return np.zeros((GRID, GRID), bool)
    return reds & (PRINTED_RED > 0) & (nearest_ab(colour_lab, on_black) > reach)


def empty_like_red_chips(printed: Board, colour_lab: np.ndarray, cover: np.ndarray, unread: np.ndarray,
                         patches: Callable[[], np.ndarray], min_chips: int, reach: float, lightness_reach: float,
                         same: float) -> np.ndarray:
    """(10, 10) True on the red cards read empty (``printed``, ``colour_lab`` and ``patches``
    as for ``twin_doubts``) whose disc is wholly covered (``cover``: True where it is) in the
    very colour of a red chip on a black card, within ``reach`` in (a, b) and
    ``lightness_reach`` in L, when at least ``min_chips`` are, and whose printed twin is not
    read empty looking just the same (likeness ``same`` or more: the card's own big suit).
    A red chip on a heart or a diamond was taken for its ink; a big suit's ink may be of that
    colour too, so such cells are '?', not chips. The chips on black cards include the discs
    there that no team took (``unread``: '?' for a clear colour no black card carries), an
    orange-red set the reader does not know."""
    calls = np.array(list(printed.cells)).reshape(GRID, GRID)
    reference = ((calls == "R") | unread) & (PRINTED_RED < 0)
    if reference.sum() < min_chips:
        return np.zeros((GRID, GRID), bool)
    chips = colour_lab[reference]
    alike = ((np.linalg.norm(colour_lab[..., None, 1:] - chips[:, 1:], axis=-1) <= reach)
             & (np.abs(colour_lab[..., None, 0] - chips[:, 0]) <= lightness_reach)).any(axis=-1)
    doubtful = ((calls == EMPTY) & (PRINTED_RED > 0) & cover & alike).reshape(-1)
    for cell in np.flatnonzero(doubtful):
        twin = TWIN[cell]
        if twin >= 0 and printed[twin] == EMPTY and likeness(patches(), cell, twin) >= same:
            doubtful[cell] = False
    return doubtful.reshape(GRID, GRID)


def pictures_unlike_chips(printed: Board, colour_lab: np.ndarray, min_chips: int, reach: float,
                          hue_reach_deg: float, min_alone: int) -> np.ndarray:
    """(10, 10) True on the chips read on queens and kings (``printed``, ``colour_lab`` as for
    ``red_unlike_red_chips``) whose colour lies further than ``reach`` (Lab a, b) and
    ``hue_reach_deg`` in hue from every chip of the same call on a number card, when at least
    ``min_chips`` are: a court picture's robe may be any colour, but seldom a chip's own hue,
    while a number card's ink (red or black) cannot pass for a blue or green chip (red chips
    count on black cards only). Hue as well as distance: a chip in shade or glare keeps its
    hue but not its (a, b) (rendered photos, 2,549 chips on court cards: at most 22 degrees off;
    yellow-green robes read as green chips, 24 to 45). And where no chip lies on a number card
    but ``min_alone`` or more on pictures, those are '?': chips fall on number cards five times
    in six, and the robes of an empty board's court cards were read as chips (a team with no
    chip takes any colour near its own)."""
    calls = np.array(list(printed.cells)).reshape(GRID, GRID)
    chips = np.isin(calls, list(CHIP_COLOURS))
    if not (chips & _CARD & ~_FACE).any() and (chips & _FACE).sum() >= min_alone:
        return chips & _FACE
    hue = hue_deg(colour_lab[..., 1:])
    doubtful = np.zeros((GRID, GRID), bool)
    for colour in CHIP_COLOURS:
        reference = (calls == colour) & _CARD & ~_FACE & ((PRINTED_RED < 0) if colour == "R" else True)
        on_pictures = (calls == colour) & _FACE
        if reference.sum() < min_chips or not on_pictures.any():
            continue
        hue_apart = hue_gap(hue[..., None], hue[reference]).min(axis=-1)
        doubtful |= on_pictures & (nearest_ab(colour_lab, reference) > reach) & (hue_apart > hue_reach_deg)
    return doubtful


def cast_on_empty_cards(colour_lab: np.ndarray, colour_cover: np.ndarray, empty: np.ndarray, min_cover: float,
                        min_chroma: float, hue_reach_deg: float, min_share: float, min_cards: int) -> np.ndarray:
    """(10, 10) True where a cell's disc hue (``colour_lab``, ``colour_cover`` as for
    ``foreign_to_card``) is shown by at least ``min_share`` of the cards read empty (``empty``)
    and ``min_cards`` of them: a colour on most empty cards is the light's (a cast the white
    balance left) or the print's, not chips'. Chips read empty are a few cards among many."""
    cards = empty & _CARD
    hue = hue_deg(colour_lab[..., 1:])
    tinted = cards & (colour_cover >= min_cover) & (np.hypot(colour_lab[..., 1], colour_lab[..., 2]) >= min_chroma)
    sharing = (hue_gap(hue[..., None], hue[tinted]) <= hue_reach_deg).sum(axis=-1)
    return (sharing >= min_cards) & (sharing >= min_share * cards.sum())


def foreign_to_card(colour_lab: np.ndarray, colour_cover: np.ndarray, min_cover: float, min_chroma: float,
                    red_reach_deg: float) -> np.ndarray:
    """(10, 10) True where a cell's disc (``colour_lab``, ``colour_cover``, in the printed
    orientation) holds a clear colour that its printed card cannot carry. A number card is
    printed in red or black ink only, whatever the edition: a blue or green disc on it, or
    any clear colour on a spade or a club, is a chip, not art. Queens and kings (pictures of
    every colour) and the corners are never flagged."""
    clear = (colour_cover >= min_cover) & (np.hypot(colour_lab[..., 1], colour_lab[..., 2]) >= min_chroma)
    may_be_red_ink = (PRINTED_RED > 0) & red_hued(colour_lab, red_reach_deg)
    return _CARD & ~_FACE & clear & ~may_be_red_ink
