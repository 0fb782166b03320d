"""The tracker and the follower on the rendered demo game and on frames changed by hand."""

from __future__ import annotations

import itertools
import json
from dataclasses import replace

import cv2
import numpy as np
import pytest

from referee.board import Board
from seqcam.follow import Follower
from seqcam.samples import default_video
from vision.render.hands import draw_hand, sample_hand
import vision.track as track_module
from vision.config import VisionConfig
from vision.errors import BoardNotFound, VisionWarning, VisionWarningKind
from vision.locate import Candidate
from vision.pipeline import analyze_image, turned
from vision.track import (BOARD_CHANGED, BOARD_FOUND, TrackConfig, Tracker, cell_block, change_core, team_chip_colours,
                          thumbnail)
from vision.warp import GRID, rotate_lattice

GAME_EVENTS = ("placed", "removed", "sequence", "winner", "violation")


@pytest.fixture(scope="module")
def demo() -> tuple[list[np.ndarray], dict]:
    capture = cv2.VideoCapture(str(default_video()))
    frames = []
    while True:
        ok, frame = capture.read()
        if not ok:
            break
        frames.append(frame)
    label = json.loads(default_video().with_suffix(".json").read_text())
    assert len(frames) == label["frames"]
    return frames, label


def _follow(frames: list[np.ndarray], fps: float, teams: int = 2) -> list[dict]:
    follower = Follower(teams)
    return [line for k, frame in enumerate(frames) for line in follower.feed(frame, k / fps, k)]


def test_every_move_of_the_demo_and_nothing_else(demo) -> None:
    frames, label = demo
    lines = [line for line in _follow(frames, label["fps"]) if line["type"] in GAME_EVENTS]
    truth = label["events"]
    assert [(e["type"], e["team"], e["cell"]) for e in lines] == [(e["type"], e["team"], e["cell"]) for e in truth]
    for seen, true in zip(lines, truth):
        assert true["hand_in_t"] < seen["t"] <= true["t"] + 1.5  # not before the hand came, soon after it left
        if true["type"] == "sequence":
            assert len(seen["cells"]) == 5


def _tracker_on(frame: np.ndarray, track: TrackConfig | None = None) -> Tracker:
    """A tracker that has taken the board: two locatings agree (0.4 s apart)."""
    tracker = Tracker(2, track=track)
    assert tracker.feed(frame, -0.4, 0) == []
    assert [e.kind for e in tracker.feed(frame, 0.0, 0)] == [BOARD_FOUND]
    return tracker


def test_a_hand_resting_on_the_board_makes_no_move(demo) -> None:
    frames, _ = demo
    tracker = _tracker_on(frames[0])
    board = tracker.board
    rng = np.random.default_rng(4)
    centre = tracker.lattice[5, 5]
    with_hand = frames[0].copy()
    draw_hand(with_hand, sample_hand(rng, (0.0, 0.0)), centre, 1.6, rng)
    events = [e for k in range(1, 40) for e in tracker.feed(with_hand, k / 10, k)]  # 4 s of a still hand
    events += [e for k in range(40, 60) for e in tracker.feed(frames[0], k / 10, k)]
    assert [e.kind for e in events if e.kind not in ("board_lost", "board_found")] == []
    assert tracker.board == board


def test_cells_held_as_unknown_are_taken_once_they_read_clearly(demo) -> None:
    """Glare that moved with a bumped camera: the board holds four chips as ? and the
    reference differs there from every frame since, so they look covered for good; in a still
    picture they are taken as they read, with no move."""
    frames, _ = demo
    tracker = _tracker_on(frames[0])
    board = tracker.board
    glared = [c for c, symbol in enumerate(board.cells) if symbol in "BG"][:4]
    tracker.board = Board("".join("?" if c in glared else symbol for c, symbol in enumerate(board.cells)))
    n = tracker.track.thumb_cell_px
    for c in glared:
        row, col = divmod(c, 10)
        tracker.reference[(row + 1) * n : (row + 2) * n, (col + 1) * n : (col + 2) * n] = 255.0
    events = [e for k in range(1, 30) for e in tracker.feed(frames[0], k / 10, k)]
    assert tracker.board == board
    assert {e.kind for e in events} == {BOARD_CHANGED}


def test_a_hidden_board_changes_nothing(demo) -> None:
    frames, _ = demo
    tracker = _tracker_on(frames[0])
    board = tracker.board
    dark = np.full_like(frames[0], 40)
    events = [e for k in range(1, 6) for e in tracker.feed(dark, k / 10, k)]
    events += [e for k in range(6, 20) for e in tracker.feed(frames[0], k / 10, k)]
    assert events == [] and tracker.board == board


def test_a_bumped_camera_is_followed_without_events(demo) -> None:
    frames, _ = demo
    tracker = _tracker_on(frames[0])
    before = tracker.lattice.copy()
    h, w = frames[0].shape[:2]
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), 1.0, 1.0)
    turn[:, 2] += (9.0, -6.0)
    bumped = cv2.warpAffine(frames[0], turn, (w, h), borderMode=cv2.BORDER_REFLECT)
    events = [e for k in range(1, 25) for e in tracker.feed(bumped, k / 10, k)]
    assert events == []
    expected = cv2.transform(before.reshape(-1, 1, 2), turn).reshape(before.shape)
    assert np.abs(tracker.lattice - expected).mean() < 1.5


def test_a_move_made_as_the_camera_is_bumped_is_told_once_the_picture_has_been_still_long_enough(demo) -> None:
    """While the view is in doubt nothing is read; the picture, still since the bump, already
    showed the move, so it settles three frames after the board is seen again rather than
    stable_s later (rendered bench game 7: told 1.7 s after the hand left, as the next hand came)."""
    frames, label = demo
    move = label["events"][0]
    where = move["cell"][0] * 10 + move["cell"][1]
    after = frames[int((move["t"] + 0.5) * label["fps"])]
    tracker = _tracker_on(frames[0])
    board = tracker.board
    h, w = after.shape[:2]
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), 1.0, 1.0)
    turn[:, 2] += (9.0, -6.0)
    bumped = cv2.warpAffine(after, turn, (w, h), borderMode=cv2.BORDER_REFLECT)
    told = [k / 10 for k in range(1, 25) for e in tracker.feed(bumped, k / 10, k) if e.kind == BOARD_CHANGED]
    assert tracker.board == board.with_cell(where, "." if move["type"] == "removed" else move["team"])
    still_from, track = 0.1, tracker.track
    assert told[0] < still_from + track.relocate_after_s + track.stable_s


def test_a_chip_placed_as_the_camera_is_bumped_into_new_light_is_told_once_the_picture_has_been_still(demo) -> None:
    """A bump that changes the light on cards here and there makes the view new: its
    differences may be misreadings and wait stable_s from their first reading, but not a chip
    where the picture changed as much as a chip changes it (20261219 game 4: told 2.7 s after
    the hand left, after the next hand)."""
    frames, label = demo
    placed = next(e for e in label["events"] if e["type"] == "placed")
    where = placed["cell"][0] * 10 + placed["cell"][1]
    tracker = _tracker_on(frames[0])
    board, lattice = tracker.board, tracker.lattice
    after = frames[int((placed["t"] + 0.5) * label["fps"])].copy()
    lit = _apart([c for c, symbol in enumerate(board.cells) if symbol == "."], [where])[:5]
    for c in range(GRID * GRID):  # only the chip placed, and five cards in new light
        if c != where:
            r, k = divmod(c, GRID)
            corners = lattice[[r, r, r + 1, r + 1], [k, k + 1, k + 1, k]].astype(np.int32)
            mask = cv2.fillPoly(np.zeros(after.shape[:2], np.uint8), [corners], 255) > 0
            after[mask] = frames[0][mask] // 2 if c in lit else frames[0][mask]
    h, w = after.shape[:2]
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), 1.0, 1.0)
    turn[:, 2] += (9.0, -6.0)
    bumped = cv2.warpAffine(after, turn, (w, h), borderMode=cv2.BORDER_REFLECT)
    told = []
    for k in range(1, 25):
        told += [(k / 10, tracker.fresh) for e in tracker.feed(bumped, k / 10, k) if e.kind == BOARD_CHANGED]
    assert tracker.board.with_cell(where, ".") == board and tracker.board[where] == placed["team"]
    still_from, track = 0.1, tracker.track
    assert told[0][1] and told[0][0] < still_from + track.relocate_after_s + track.stable_s


def test_a_new_view_takes_at_most_max_fresh_changes_differences_in_all(demo) -> None:
    """A move taken early in a new view must not let the misreadings that settle later pass
    one by one (20261209 game 0: a chip removed and one placed, both misread, after the real move)."""
    frames, _ = demo
    tracker = _tracker_on(frames[0])
    chip, card, other = tracker.board.cells.index("B"), tracker.board.cells.index("."), tracker.board.cells.rindex(".")
    tracker.fresh, tracker._fresh_since = True, 1.0
    tracker._pending = {c: track_module.Pending("G", 1.0, 5) for c in (card, other)} | {
        chip: track_module.Pending(".", 1.0, 5)}
    change = np.zeros(GRID * GRID)
    change[[card, other, chip]] = (0.5, 0.2, 0.2)
    assert tracker._fresh_moves(change, {card: "G"}, (), 2.0) == {card: "G"}
    assert tracker._fresh_moves(change, {chip: ".", other: "G"}, (), 2.1) == {}


def test_a_difference_first_read_after_the_new_views_still_picture_is_a_move_only_where_the_card_changed_since(
        demo) -> None:
    """A bump into new light washes a chip out: read ? at first, it reads empty once a hand has
    placed a chip elsewhere (20261220 game 12: a phantom removal). The view's picture, kept
    still before the hand, shows the chip there still; the chip placed changed its card."""
    frames, _ = demo
    tracker = _tracker_on(frames[0])
    chip, card = tracker.board.cells.index("B"), tracker.board.cells.index(".")
    tracker.fresh, tracker._fresh_since = True, 1.0
    tracker._view_picture_at = 1.1
    tracker._pending = {card: track_module.Pending("G", 3.0, 5), chip: track_module.Pending(".", 3.0, 5)}
    against_reference = np.full(GRID * GRID, 0.5)  # the new light changed every card
    against_view = np.zeros(GRID * GRID)
    against_view[card] = 0.5  # the chip placed
    assert tracker._fresh_moves(against_reference, {card: "G", chip: "."}, (), 3.5, against_view) == {card: "G"}
    # without the view's picture (a hand came before it was still), both pass as before
    assert tracker._fresh_moves(against_reference, {card: "G", chip: "."}, (), 3.5) == {card: "G", chip: "."}
    # a difference read before the picture was kept: made as the view moved
    tracker._pending[chip] = track_module.Pending(".", 1.0, 5)
    assert (tracker._fresh_moves(against_reference, {card: "G", chip: "."}, (), 3.5, against_view)
            == {card: "G", chip: "."})


def test_the_new_views_picture_is_kept_only_if_no_hand_came_before_it_was_still(demo) -> None:
    frames, _ = demo
    tracker = _tracker_on(frames[0])
    thumb = tracker.reference.copy()
    tracker._fresh_since, tracker._hands_seen_at = 2.0, 1.0
    tracker._keep_view_picture(thumb, 2.1, still=False)
    assert tracker._view_picture is None
    tracker._keep_view_picture(thumb, 2.3, still=True)
    assert tracker._view_picture_at == 2.3
    tracker._fresh_since, tracker._hands_seen_at = 5.0, 5.2  # a hand in the next new view before it was still
    tracker._keep_view_picture(thumb, 5.5, still=True)
    assert tracker._view_picture is None and tracker._view_picture_at is None  # the old view's is dropped
    tracker._fresh_since = None  # the view read: none kept
    tracker._keep_view_picture(thumb, 7.0, still=True)
    assert tracker._view_picture is None


def test_a_cell_whose_picture_moves_is_not_taken_into_the_reference(demo, monkeypatch) -> None:
    """Reading afresh, cells read as the board holds them are let go (the reference takes their
    picture), but not in the frame a hand's edge comes over them: read as the card it passes
    over, the reference would keep the hand and the move under it would wait (rendered game
    20261220/14: 2.5 s)."""
    frames, _ = demo
    tracker = _tracker_on(frames[0])
    monkeypatch.setattr(tracker, "read", lambda frame_bgr, arrived=(): tracker.board)
    tracker.fresh = True
    for k in range(1, 6):
        tracker.feed(frames[0], k / 10, k)
    edge = frames[0].copy()
    corners = tracker.lattice[[5, 5, 6, 6], [5, 7, 7, 5]].astype(np.int32)
    cv2.fillPoly(edge, [corners], (60, 80, 110))
    n = tracker.track.thumb_cell_px
    before = [cell_block(tracker.reference, c, n).copy() for c in (55, 56)]
    tracker.feed(edge, 0.6, 6)
    assert all(np.array_equal(cell_block(tracker.reference, c, n), b) for c, b in zip((55, 56), before))


@pytest.mark.parametrize("degrees", [2.0, 3.0])
def test_a_camera_turned_about_the_board_middle_is_followed(demo, degrees: float) -> None:
    """Turned about the grid's middle, the whole picture's correlation peak stays put and
    fewer than half the cells change (a fifth at 2 degrees): the lattice must still follow,
    or the cells are read through a lattice off by a tenth of a cell and more."""
    frames, _ = demo
    tracker = _tracker_on(frames[0])
    before = tracker.lattice.copy()
    h, w = frames[0].shape[:2]
    centre = before.reshape(-1, 2).mean(axis=0)
    turn = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), degrees, 1.0)
    turned_view = cv2.warpAffine(frames[0], turn, (w, h), borderMode=cv2.BORDER_REFLECT)
    events = [e for k in range(1, 25) for e in tracker.feed(turned_view, k / 10, k)]
    assert events == []
    expected = cv2.transform(before.reshape(-1, 1, 2), turn).reshape(before.shape)
    assert np.abs(tracker.lattice - expected).mean() < 1.5


def test_undo_takes_the_last_move_back_in_the_referee_and_the_tracker(demo) -> None:
    frames, label = demo
    follower = Follower(2)
    for k, frame in enumerate(frames):
        if any(line["type"] in ("placed", "removed") for line in follower.feed(frame, k / label["fps"], k)):
            break
    assert follower.referee is not None
    seen = follower.referee.board
    follower.undo()
    assert follower.tracker.board == follower.referee.board != seen
    first = label["events"][0]
    assert follower.referee.board.cells[first["cell"][0] * 10 + first["cell"][1]] == "B"  # the removed chip is back


def _weak_locator(monkeypatch, lattices: list[np.ndarray]) -> None:
    """Every locating finds no sure board, only a fit the verdict turned down (the next of
    ``lattices``, round and round), as in a blurred video of a board covered in chips."""
    real = track_module.analyze_image
    turn = itertools.count()

    def locating(frame, team_count, config, locate=None, profile=None, fitted=None):
        if locate is not None:  # the tracker reads the weak fit it chose
            return real(frame, team_count, config, locate=locate, profile=profile)
        lattice = lattices[next(turn) % len(lattices)]
        fitted.append(Candidate(lattice_xy=lattice, score=0.3, features=np.zeros(12), eligible=True))
        raise BoardNotFound("no sure board")

    monkeypatch.setattr(track_module, "analyze_image", locating)


def _found_after(frame: np.ndarray, locatings: int, track: TrackConfig | None = None) -> list[str]:
    tracker = Tracker(2, track=track)
    kinds = []
    for k in range(locatings):
        kinds += [e.kind for e in tracker.feed(frame, 0.4 * k, k)]
    return kinds


def test_a_weak_fit_that_stays_put_is_the_board(demo, monkeypatch) -> None:
    frames, _ = demo
    lattice = analyze_image(frames[0]).lattice_xy
    _weak_locator(monkeypatch, [lattice])
    assert _found_after(frames[0], 2) == []  # read on the second locating, taken when the next agrees
    assert _found_after(frames[0], 3) == [BOARD_FOUND]


def test_a_weak_fit_that_moves_is_never_taken(demo, monkeypatch) -> None:
    frames, _ = demo
    lattice = analyze_image(frames[0]).lattice_xy
    cell = lattice[0, 1] - lattice[0, 0]
    _weak_locator(monkeypatch, [lattice, lattice + cell])  # a cell to the side every other time
    assert _found_after(frames[0], 8) == []


def test_a_weak_fit_with_few_chips_on_it_is_never_taken(demo, monkeypatch) -> None:
    frames, _ = demo
    analysis = analyze_image(frames[0])
    chips = sum(symbol in "BG" for symbol in analysis.board.cells)
    _weak_locator(monkeypatch, [analysis.lattice_xy])
    assert _found_after(frames[0], 6, TrackConfig(min_weak_fit_chips=chips)) == [BOARD_FOUND]
    assert _found_after(frames[0], 6, TrackConfig(min_weak_fit_chips=chips + 1)) == []  # graph paper: no chips


def _located_once(monkeypatch) -> None:
    """Locating from scratch finds the board the first time only (proposals that come and go
    with a frame's noise, as round a board on a checked cloth)."""
    real = track_module.analyze_image
    turn = itertools.count()

    def locating(frame, team_count, config, locate=None, profile=None, fitted=None):
        if locate is not None or next(turn) == 0:
            return real(frame, team_count, config, locate=locate, profile=profile, fitted=fitted)
        raise BoardNotFound("no board")

    monkeypatch.setattr(track_module, "analyze_image", locating)


def test_a_board_located_once_is_taken_when_found_again_where_it_was(demo, monkeypatch) -> None:
    frames, _ = demo
    _located_once(monkeypatch)
    assert _found_after(frames[0], 2) == [BOARD_FOUND]


def test_a_board_located_once_and_gone_is_not_taken(demo, monkeypatch) -> None:
    frames, _ = demo
    _located_once(monkeypatch)
    tracker = Tracker(2)
    kinds = [e.kind for e in tracker.feed(frames[0], 0.0, 0)]
    blank = np.full_like(frames[0], 128)
    kinds += [e.kind for k in range(1, 6) for e in tracker.feed(blank, 0.4 * k, k)]
    assert kinds == [] and tracker.board is None


@pytest.mark.parametrize("top_unsure", [True, False])
def test_a_board_whose_top_each_locating_guesses_differently_is_taken_only_if_unsure(demo, monkeypatch,
                                                                                     top_unsure: bool) -> None:
    # few printed cards show on a board full of chips: one locating may take another side for
    # the top; two locatings sure of a top that differs found different boards
    frames, _ = demo
    real = track_module.analyze_image
    turn = itertools.count()
    unsure = (VisionWarning(VisionWarningKind.ORIENTATION_UNCERTAIN, "cannot tell the top"),) if top_unsure else ()

    def locating(frame, team_count, config, locate=None, profile=None, fitted=None):
        analysis = real(frame, team_count, config, locate=locate, profile=profile, fitted=fitted)
        k = next(turn) % 2
        return replace(analysis, lattice_xy=rotate_lattice(analysis.lattice_xy, k), board=turned(analysis.board, k),
                       warnings=unsure)

    monkeypatch.setattr(track_module, "analyze_image", locating)
    tracker = Tracker(2)
    kinds = [e.kind for k in range(2) for e in tracker.feed(frames[0], 0.4 * k, k)]
    if top_unsure:
        assert kinds == [BOARD_FOUND]
        assert tracker.board == real(frames[0]).board  # as the first locating read it
    else:
        assert kinds == [] and tracker.board is None


@pytest.mark.parametrize("sure_first", [True, False])
def test_a_board_is_taken_in_the_top_one_of_two_locatings_was_sure_of(demo, monkeypatch, sure_first: bool) -> None:
    # a board full of chips: one frame showed printed cards enough to tell the top, the next
    # (a hand over some) did not and guessed another side; taken in the guess, the board was
    # turned (rendered game 20261216/19, while the top was also guessed from the cards' rims)
    frames, _ = demo
    real = track_module.analyze_image
    unsure = (VisionWarning(VisionWarningKind.ORIENTATION_UNCERTAIN, "cannot tell the top"),)
    locatings = itertools.count()

    def locating(frame, team_count, config, locate=None, profile=None, fitted=None):
        analysis = real(frame, team_count, config, locate=locate, profile=profile, fitted=fitted)
        if (next(locatings) == 0) == sure_first:
            return analysis
        return replace(analysis, lattice_xy=rotate_lattice(analysis.lattice_xy, 1), board=turned(analysis.board, 1),
                       warnings=unsure)

    monkeypatch.setattr(track_module, "analyze_image", locating)
    tracker = Tracker(2)
    events = [e for k in range(2) for e in tracker.feed(frames[0], 0.4 * k, k)]
    assert [e.kind for e in events] == [BOARD_FOUND]
    assert tracker.board == real(frames[0]).board
    assert not any(w.kind == VisionWarningKind.ORIENTATION_UNCERTAIN for w in events[0].warnings)


def _first_placed(frames: list[np.ndarray], label: dict) -> tuple[dict, int, np.ndarray]:
    """The demo's first chip placed: its event, its cell's index, and the frame 0.5 s after it."""
    placed = next(e for e in label["events"] if e["type"] == "placed")
    return placed, placed["cell"][0] * 10 + placed["cell"][1], frames[int((placed["t"] + 0.5) * label["fps"])]


def _first_placement_on_unknown(frames: list[np.ndarray], label: dict) -> tuple[Follower, dict, int]:
    """A follower that has taken the board with the demo's first placed chip's cell held as ?
    (the first reading could not call the empty card), that event and the cell's index."""
    placed, where, _ = _first_placed(frames, label)
    follower = Follower(2)
    follower.feed(frames[0], 0.0, 0)
    follower.feed(frames[0], 0.4, 0)
    follower.tracker.board = follower.referee.board = follower.tracker.board.with_cell(where, "?")
    return follower, placed, where


def test_a_chip_placed_on_a_cell_read_unknown_is_a_move(demo) -> None:
    frames, label = demo
    follower, placed, _ = _first_placement_on_unknown(frames, label)
    lines = [line for k, frame in enumerate(frames) for line in follower.feed(frame, k / label["fps"], k)]
    assert (placed["team"], placed["cell"]) in [(line["team"], line["cell"]) for line in lines if line["type"] == "placed"]


def test_a_chip_placed_on_an_unknown_card_seen_at_rest_is_a_move_on_a_firm_change(demo) -> None:
    # the card read ? with the board at rest (the reference shows it as read): a change firm
    # enough for a hand is a chip there, even when it is not as strong as a chip on a card
    frames, label = demo
    follower, placed, _ = _first_placement_on_unknown(frames, label)
    follower.tracker.track = replace(follower.tracker.track, placed_change=10.0)  # never strong
    lines = [line for k, frame in enumerate(frames) for line in follower.feed(frame, k / label["fps"], k)]
    assert (placed["team"], placed["cell"]) in [(line["team"], line["cell"]) for line in lines if line["type"] == "placed"]


def test_a_reference_taken_with_arms_over_the_board_is_renewed(demo) -> None:
    frames, _ = demo
    tracker = _tracker_on(frames[0])
    board = tracker.board
    rng = np.random.default_rng(4)
    arms = frames[0].copy()
    for r, c in ((3, 3), (7, 7), (3, 7), (7, 3)):
        draw_hand(arms, sample_hand(rng, (0.0, 0.0)), tracker.lattice[r, c], 2.0, rng)
    tracker.reference = thumbnail(arms, tracker.lattice, tracker.track.thumb_cell_px)  # taken while arms rested
    kinds = [e.kind for k in range(1, 25) for e in tracker.feed(frames[0], 0.1 * k, k)]
    # the board, found again where it was, gives the reference anew: it is not lost for good
    assert kinds[-1:] == [BOARD_FOUND] and tracker._doubt_since is None and tracker.board == board


@pytest.mark.parametrize("checked, seen", [(False, True), (True, False)])
def test_a_first_picture_holding_a_hand_is_renewed_between_two_players_hands(demo, checked: bool, seen: bool) -> None:
    """The board found while a hand lay on it: its first picture holds the hand. The next
    players' hands come and go faster than ``still_s``: until the first picture is seen at
    rest with no hand in it (``checked``), a brief stillness renews it, and the chip placed
    meanwhile is seen before the next hand comes. A picture checked already waits ``still_s``."""
    frames, label = demo
    placed, where, after = _first_placed(frames, label)
    tracker = _tracker_on(frames[0])
    rng = np.random.default_rng(4)
    far = max(((r, c) for r in (2, 8) for c in (2, 8)),
              key=lambda rc: abs(rc[0] - where // 10) + abs(rc[1] - where % 10))  # the corner furthest from it
    resting = frames[0].copy()
    draw_hand(resting, sample_hand(rng, (0.0, 0.0)), tracker.lattice[far], 0.5, rng)
    tracker.reference = thumbnail(resting, tracker.lattice, tracker.track.thumb_cell_px)
    tracker._reference_checked = checked
    for k in range(1, 11):  # the hand has gone, the chip lies placed
        tracker.feed(after, k / 10, k)
    for k in range(11, 21):  # the next player's hand reaches in, moving
        reaching = after.copy()
        draw_hand(reaching, sample_hand(rng, (0.0, 0.0)), tracker.lattice[far[0], 1 + k % 8], 0.5, rng)
        tracker.feed(reaching, k / 10, k)
    assert (tracker.board[where] == placed["team"]) == seen


def test_a_chip_placed_on_an_unknown_card_while_the_view_is_new_is_a_move(demo, monkeypatch) -> None:
    # after a bump the view is new until every cell reads clearly; an empty card the reader
    # cannot call keeps it new, and a chip placed there was once taken for the card revealed
    frames, label = demo
    follower, placed, where = _first_placement_on_unknown(frames, label)
    tracker = follower.tracker
    read = tracker.read

    def unsure_card(frame_bgr, arrived=()):
        reading = read(frame_bgr, arrived)
        return reading.with_cell(where, "?") if reading.cells[where] == "." else reading

    monkeypatch.setattr(tracker, "read", unsure_card)
    lines = []
    for k, frame in enumerate(frames):
        t = k / label["fps"]
        if placed["hand_in_t"] - 0.7 <= t < placed["hand_in_t"] - 0.6:
            tracker.fresh = True  # a new view, a little before the hand comes
        lines += follower.feed(frame, t, k)
    assert (placed["team"], placed["cell"]) in [(line["team"], line["cell"]) for line in lines if line["type"] == "placed"]


@pytest.mark.parametrize("faint_change, noticed", [(TrackConfig().faint_change, True), (TrackConfig().cell_change, False)])
def test_a_chip_that_changes_its_card_only_faintly_is_read_not_blended_away(demo, monkeypatch, faint_change,
                                                                          noticed) -> None:
    """A pale chip on a white card changes the card's picture less than a move does; once the
    picture is still it is read, and taken within a second of the hand leaving. Blended into
    the board at rest, it would be missed for good."""
    frames, _ = demo
    tracker = _tracker_on(frames[0])
    tracker.track = replace(tracker.track, faint_change=faint_change)
    board = tracker.board
    where = next(c for c, symbol in enumerate(board.cells) if symbol == "." and c // 10 in range(3, 7))
    row, col = divmod(where, 10)
    centre, pitch = tracker.lattice[row, col] / 2 + tracker.lattice[row + 1, col + 1] / 2, \
        float(np.linalg.norm(tracker.lattice[row, col + 1] - tracker.lattice[row, col]))
    pale_chip = frames[0].copy()
    cv2.circle(pale_chip, tuple(int(v) for v in centre), int(0.35 * pitch), (235, 215, 200), -1)
    change = track_module.block_change(thumbnail(pale_chip, tracker.lattice, tracker.track.thumb_cell_px),
                                       tracker.reference, tracker.track.thumb_cell_px)[row + 1, col + 1]
    assert TrackConfig().faint_change < change < TrackConfig().cell_change
    read = tracker.read
    monkeypatch.setattr(tracker, "read", lambda frame_bgr, arrived=(): read(frames[0], arrived).with_cell(where, "B"))
    for k in range(1, 10):  # the move must show within a second of the hand leaving
        tracker.feed(pale_chip, k / 10, k)
    assert (tracker.board[where] == "B") == noticed


@pytest.mark.parametrize("faint_hold_change, noticed", [(TrackConfig().faint_hold_change, True),
                                                       (TrackConfig().faint_change, False)])
def test_a_pale_chip_whose_change_dips_under_the_faint_change_is_still_read(demo, monkeypatch, faint_hold_change,
                                                                           noticed) -> None:
    """A pale chip's change hovers about ``faint_change`` (the light drifts, the chip's sheen
    flickers): once over it, the card stays changed until well under it. Dropped as soon as it
    dips under, the chip is blended into the board at rest and missed for good."""
    frames, _ = demo
    tracker = _tracker_on(frames[0], replace(TrackConfig(), faint_hold_change=faint_hold_change))
    board = tracker.board
    where = next(c for c, symbol in enumerate(board.cells) if symbol == "." and c // 10 in range(3, 7))
    row, col = divmod(where, 10)
    centre, pitch = tracker.lattice[row, col] / 2 + tracker.lattice[row + 1, col + 1] / 2, \
        float(np.linalg.norm(tracker.lattice[row, col + 1] - tracker.lattice[row, col]))
    n = tracker.track.thumb_cell_px

    def pale_chip(strength: float) -> tuple[np.ndarray, float]:
        chip = frames[0].copy()
        cv2.circle(chip, tuple(int(v) for v in centre), int(0.35 * pitch), (235, 215, 200), -1)
        frame = cv2.addWeighted(chip, strength, frames[0], 1 - strength, 0)
        return frame, float(track_module.block_change(thumbnail(frame, tracker.lattice, n), tracker.reference,
                                                      n)[row + 1, col + 1])

    clear, clear_change = pale_chip(1.0)
    dipped, dipped_change = next((f, c) for f, c in map(pale_chip, np.linspace(0.9, 0.3, 13))
                                 if TrackConfig().faint_hold_change < c < TrackConfig().faint_change)
    assert TrackConfig().faint_change < clear_change < TrackConfig().cell_change
    read = tracker.read
    monkeypatch.setattr(tracker, "read", lambda frame_bgr, arrived=(): read(frames[0], arrived).with_cell(where, "B"))
    for k in range(1, 30):
        tracker.feed(clear if k < 3 else dipped, k / 10, k)
    assert (tracker.board[where] == "B") == noticed


@pytest.mark.parametrize("max_doubts_per_call, seen", [(TrackConfig().max_doubts_per_call, True), (0.0, False)])
def test_a_move_read_unknown_in_every_other_frame_is_seen(demo, monkeypatch, max_doubts_per_call, seen) -> None:
    """Glare or blur make the reader abstain on a new chip one frame in two: the frames read ?
    do not contradict the call, so the move settles. Counted against it, it never does."""
    frames, label = demo
    follower = Follower(2, track=replace(NO_ARRIVAL_COLOURS, max_doubts_per_call=max_doubts_per_call))
    tracker = follower.tracker
    read = tracker.read
    calls = itertools.count()

    def flickering(frame_bgr, arrived=()):
        reading = read(frame_bgr, arrived)
        if next(calls) % 2 or tracker.board is None:
            return reading
        return Board("".join("?" if new != old else new for new, old in zip(reading.cells, tracker.board.cells)))

    monkeypatch.setattr(tracker, "read", flickering)
    lines = [line for k, frame in enumerate(frames) for line in follower.feed(frame, k / label["fps"], k)]
    first = next(e for e in label["events"] if e["type"] == "placed")
    assert ((first["team"], first["cell"]) in [(line["team"], line["cell"]) for line in lines]) == seen


# the tracker cannot tell a chip's colour from its card's change either: no team's chips are known
NO_ARRIVAL_COLOURS = TrackConfig(arrival_min_team_chips=GRID * GRID)


def _placed_chip_read_as(frames: list[np.ndarray], label: dict, monkeypatch, calls: str,
                         track: TrackConfig = NO_ARRIVAL_COLOURS, new_view: bool = False,
                         hand: float | None = None) -> tuple[Tracker, int, str]:
    """A tracker on the demo's first frame (``new_view``: as if it had just moved) fed, for 4 s,
    the frame just after its first chip was placed, the chip's cell read in turn as each symbol
    of ``calls`` (and, given ``hand``, the cell model giving a hand that chance there); the
    cell, its chip."""
    placed, where, after = _first_placed(frames, label)
    tracker = _tracker_on(frames[0], track)
    tracker.fresh = new_view
    read, count = tracker.read, itertools.count()

    def read_as(frame_bgr: np.ndarray, arrived=()) -> Board:
        reading = read(frame_bgr, arrived).with_cell(where, calls[next(count) % len(calls)])
        if hand is not None:
            tracker._hand_odds = np.where(np.arange(len(tracker._hand_odds)) == where, hand, tracker._hand_odds)
        return reading

    monkeypatch.setattr(tracker, "read", read_as)
    for k in range(1, 40):
        tracker.feed(after, k / 10, k)
    return tracker, where, placed["team"]


@pytest.mark.parametrize("calls, held", [("?", "?"), ("??.", "?"), (".", ".")])
def test_an_empty_card_changed_yet_read_unknown_is_held_unknown(demo, monkeypatch, calls: str, held: str) -> None:
    """A chip neither the reader nor its card's change can make out (glare on it; no team's
    colour known) changed its card: the board holds the cell as ?, so that the referee blames
    nobody for a move it may have missed. Read empty now and then, but mostly ?, it is still no
    clear empty card; read empty throughout, it is one."""
    frames, label = demo
    tracker, where, _ = _placed_chip_read_as(frames, label, monkeypatch, calls)
    assert tracker.board[where] == held


def test_a_chip_the_reader_cannot_make_out_is_the_team_its_cards_change_is_coloured_like(demo, monkeypatch) -> None:
    """The reader abstains on a chip placed on an empty card (court art around it): the
    tracker saw the card before, and where its picture changed most has the colour of the
    placing team's other chips in the same picture."""
    frames, label = demo
    tracker, where, team = _placed_chip_read_as(frames, label, monkeypatch, "?", TrackConfig())
    assert tracker.board[where] == team


def test_a_card_read_unknown_where_a_hand_is_as_likely_as_called_is_not_told_by_its_cards_change(
        demo, monkeypatch) -> None:
    """What changed under what may be a hand is the hand's colour, no chip's (held-out 20261220
    game 7: a hand's grey edge, nearest the dull green chips, made a green chip come and go)."""
    frames, label = demo
    tracker, where, team = _placed_chip_read_as(frames, label, monkeypatch, "?", TrackConfig(), hand=0.7)
    assert tracker.board[where] == "?"
    tracker, where, team = _placed_chip_read_as(frames, label, monkeypatch, "?", TrackConfig(), hand=0.5)
    assert tracker.board[where] == team


def test_in_a_view_just_moved_a_chip_the_reader_cannot_make_out_is_not_told_by_its_cards_change(
        demo, monkeypatch) -> None:
    """Right after the view moved, the reference is the old view's picture: a card's change is
    no chip's colour (a held-out game took a chip beside a hand so)."""
    frames, label = demo
    tracker, where, team = _placed_chip_read_as(frames, label, monkeypatch, "?", TrackConfig(), new_view=True)
    assert tracker.board[where] != team


def test_a_chip_read_as_an_empty_card_whose_card_changed_as_a_chip_does_is_the_team_of_its_colour(
        demo, monkeypatch) -> None:
    """A chip hiding all of its card reads as a card of its colour (a red chip as a red card):
    where the card's picture changed as much as a chip changes it, to the colour of the placing
    team's chips, from another, the chip came."""
    frames, label = demo
    tracker, where, team = _placed_chip_read_as(frames, label, monkeypatch, ".", TrackConfig())
    n = tracker.track.thumb_cell_px
    _, _, after = _first_placed(frames, label)
    first = _tracker_on(frames[0])
    change = track_module.block_change(thumbnail(after, first.lattice, n), first.reference, n)[1:-1, 1:-1]
    assert change.reshape(-1)[where] >= TrackConfig().placed_change
    assert tracker.board[where] == team


def _card_and_chip(chip_offset: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """A 12-pixel block (Lab) of yellow card art, and the same with a blue disc on it, its
    centre ``chip_offset`` pixels from the block's."""
    before = np.zeros((12, 12, 3), np.float32) + np.float32([85, 5, 60])
    now = before.copy()
    ys, xs = np.mgrid[0:12, 0:12]
    disc = np.hypot(ys - 5.5 - chip_offset[0], xs - 5.5 - chip_offset[1]) <= 4
    now[disc] = (40, 10, -45)
    return now, before


def test_the_change_core_of_a_chip_placed_is_its_colour_in_the_cell_middle() -> None:
    colour, before, offset = change_core(*_card_and_chip((0, 0)), TrackConfig().arrival_core_share)
    np.testing.assert_allclose(colour, (10, -45))
    np.testing.assert_allclose(before, (5, 60))
    assert offset < 0.05


def test_a_chip_nudged_onto_the_cells_edge_changes_it_off_centre() -> None:
    _, _, offset = change_core(*_card_and_chip((0, 5)), TrackConfig().arrival_core_share)
    assert offset > TrackConfig().arrival_max_offset


def test_team_chip_colours_come_from_chips_at_rest_and_need_enough_of_them() -> None:
    cell_px = 12
    lab = np.zeros(((GRID + 2) * cell_px,) * 2 + (3,), np.float32)
    cells = ["."] * (GRID * GRID)
    for c, team, ab in ((11, "B", (0, -40)), (12, "B", (4, -44)), (13, "B", (60, 60)), (14, "G", (-40, 30))):
        cells[c] = team
        cell_block(lab, c, cell_px)[:] = (50, *ab)
    at_rest = np.ones(GRID * GRID, bool)
    at_rest[13] = False  # a hand's sleeve over a blue chip: not its colour
    colours = team_chip_colours(lab, "".join(cells), at_rest, ("B", "G"), cell_px, min_chips=2)
    assert set(colours) == {"B"}
    np.testing.assert_allclose(colours["B"], (2, -42))


def test_a_chip_placed_in_a_new_view_read_with_other_differences_is_a_move(demo, monkeypatch) -> None:
    """A new view read with more differences than moves make (misreadings) still takes the chip
    placed since it was taken: its card's picture changed as a chip changes it."""
    frames, label = demo
    placed, where, after = _first_placed(frames, label)
    tracker = _tracker_on(frames[0])
    board = tracker.board
    misread = [c for c, symbol in enumerate(board.cells) if symbol == "B"][:2]
    read = tracker.read
    monkeypatch.setattr(tracker, "read", lambda frame_bgr, arrived=(): Board("".join(
        "G" if c in misread else symbol for c, symbol in enumerate(read(frame_bgr, arrived).cells))))
    n = tracker.track.thumb_cell_px
    row, col = placed["cell"]
    change = track_module.block_change(thumbnail(after, tracker.lattice, n), tracker.reference, n)[row + 1, col + 1]
    assert change >= tracker.track.placed_change
    tracker.fresh = True
    for k in range(1, 20):
        tracker.feed(after, k / 10, k)
    assert tracker.board == board.with_cell(where, placed["team"])


def _apart(cells: list[int], others: list[int]) -> list[int]:
    """Of ``cells``, those beside none of ``others`` nor of each other (diagonals included), in order."""
    kept: list[int] = []
    for c in cells:
        if all(max(abs(c // 10 - o // 10), abs(c % 10 - o % 10)) > 1 for o in others + kept):
            kept.append(c)
    return kept


def test_a_new_view_changed_on_lone_cells_is_no_hand_and_takes_the_chip_placed(demo, monkeypatch) -> None:
    """A view new after a bump shows the chip placed and, on four cells far apart, misreadings
    whose picture changed (glare moved with the camera): more cells changed than a hand's
    count, but lone ones, no hand resting (test_a_hand_resting_on_the_board_makes_no_move)."""
    frames, label = demo
    placed, where, after = _first_placed(frames, label)
    tracker = _tracker_on(frames[0])
    board = tracker.board
    chips = [c for c, symbol in enumerate(board.cells) if symbol in "BG"]
    misread = _apart(chips, [where])[:4]
    read = tracker.read
    monkeypatch.setattr(tracker, "read", lambda frame_bgr, arrived=(): Board("".join(
        {"B": "G", "G": "B"}[symbol] if c in misread else symbol for c, symbol in enumerate(read(frame_bgr, arrived).cells))))
    n = tracker.track.thumb_cell_px
    for c in misread:  # the old view's picture of those cards, unlike the new one
        cell_block(tracker.reference, c, n)[:] = 255 - cell_block(tracker.reference, c, n)
    changes = track_module.block_change(thumbnail(after, tracker.lattice, n), tracker.reference, n)[1:-1, 1:-1]
    assert (changes.reshape(-1) > tracker.track.hand_change).sum() > tracker.track.hand_cells
    tracker.fresh = True
    for k in range(1, 20):
        tracker.feed(after, k / 10, k)
    assert tracker.board == board.with_cell(where, placed["team"])


@pytest.mark.parametrize("misread_from, removed", [(0.0, True), (1.2, False)])
def test_a_card_read_otherwise_only_long_after_a_new_view_is_no_move(demo, monkeypatch, misread_from: float,
                                                                    removed: bool) -> None:
    """In a view read afresh (a card read ? keeps it so for 2 s), a chip read gone from the
    start was taken while the view moved: a move. Read gone only later, its picture unchanged,
    it is glare read now one way, now another: no move."""
    frames, _ = demo
    tracker = _tracker_on(frames[0])
    board = tracker.board
    chip, unsure = board.cells.index("B"), board.cells.index(".")
    read = tracker.read

    def reading(frame_bgr, arrived=()):
        seen = read(frame_bgr, arrived).with_cell(unsure, "?")
        return seen.with_cell(chip, ".") if now >= misread_from else seen

    monkeypatch.setattr(tracker, "read", reading)
    tracker.fresh = True
    for k in range(1, 40):
        now = k / 10
        tracker.feed(frames[0], now, k)
    assert (tracker.board[chip] == ".") == removed


@pytest.mark.parametrize("clear_max_doubts, removed", [(TrackConfig().clear_max_doubts, False),
                                                      (TrackConfig().max_doubts_per_call, True)])
def test_a_chip_read_gone_in_a_new_view_only_now_and_then_is_no_move(demo, monkeypatch, clear_max_doubts: float,
                                                                     removed: bool) -> None:
    """In a view new after a bump, a chip whose highlight moved with the camera reads empty in
    one frame, ? in the next: no clear reading, so no move (a real move made meanwhile reads
    clearly). Counted as a call like any other, it is a phantom removal."""
    frames, _ = demo
    tracker = _tracker_on(frames[0], replace(TrackConfig(), clear_max_doubts=clear_max_doubts))
    board = tracker.board
    chip = board.cells.index("B")
    read = tracker.read
    calls = itertools.count()
    monkeypatch.setattr(tracker, "read", lambda frame_bgr, arrived=(): read(frame_bgr, arrived).with_cell(
        chip, "?" if next(calls) % 2 else "."))
    tracker.fresh = True
    for k in range(1, 40):
        tracker.feed(frames[0], k / 10, k)
    assert (tracker.board[chip] == ".") == removed


@pytest.mark.parametrize("unsure_s, read_afresh", [(TrackConfig().unsure_s, False), (1000.0, True)])
def test_a_new_view_with_a_chip_read_unknown_for_good_is_read_once_unsure_s_has_passed(demo, monkeypatch,
                                                                                     unsure_s: float,
                                                                                     read_afresh: bool) -> None:
    """A view new after a bump in which one chip reads ? frame after frame (a highlight on it):
    the view is read once every other cell is settled and ``unsure_s`` has passed, not read
    afresh, every cell at every frame, for the rest of the game."""
    frames, _ = demo
    tracker = _tracker_on(frames[0], replace(TrackConfig(), unsure_s=unsure_s))
    chip = tracker.board.cells.index("B")
    read = tracker.read
    monkeypatch.setattr(tracker, "read", lambda frame_bgr, arrived=(): read(frame_bgr, arrived).with_cell(chip, "?"))
    tracker.fresh = True
    for k in range(1, 50):
        tracker.feed(frames[0], k / 10, k)
    assert tracker.fresh == read_afresh and tracker.board[chip] == "B"


def _resting_with_unknown(frames: list[np.ndarray]) -> tuple[Tracker, Board, list[int]]:
    """A tracker on the demo's first frame whose board holds four chips and an empty card as ?
    (the first reading doubted them), and the board as it really reads."""
    tracker = _tracker_on(frames[0])
    board = tracker.board
    doubted = [c for c, symbol in enumerate(board.cells) if symbol in "BG"][:4] + [board.cells.index(".")]
    tracker.board = Board("".join("?" if c in doubted else symbol for c, symbol in enumerate(board.cells)))
    return tracker, board, doubted


def test_chips_held_as_unknown_on_a_resting_board_are_taken_once_read_alike_for_long(demo) -> None:
    """Not the empty card: a pale chip read empty at rest would be revealed wrongly, and a card
    held as ? costs nothing."""
    frames, _ = demo
    tracker, board, doubted = _resting_with_unknown(frames)
    events = [e for k in range(1, 10) for e in tracker.feed(frames[0], k / 10, k)]  # under reveal_s: not yet
    assert events == [] and tracker.board != board
    events = [e for k in range(10, 30) for e in tracker.feed(frames[0], k / 10, k)]
    assert tracker.board == board.with_cell(doubted[-1], "?") and {e.kind for e in events} == {BOARD_CHANGED}


def test_a_cell_held_as_unknown_that_reads_unknown_as_often_as_not_is_never_taken(demo, monkeypatch) -> None:
    frames, _ = demo
    tracker, board, doubted = _resting_with_unknown(frames)
    read = tracker.read
    calls = itertools.count()
    monkeypatch.setattr(tracker, "read", lambda frame_bgr, arrived=(): read(frame_bgr, arrived) if next(calls) % 2
                        else Board("".join("?" if c in doubted else s for c, s in enumerate(board.cells))))
    events = [e for k in range(1, 60) for e in tracker.feed(frames[0], k / 10, k)]
    assert events == [] and all(tracker.board[c] == "?" for c in doubted)


def test_a_move_in_a_new_view_is_taken_as_soon_as_it_settles_though_the_light_changed_many_cells(demo) -> None:
    """After a bump the reference is the old view's picture: cells lit anew look covered, as
    under a hand. Read as the board holds them they are no hand, and do not hold the move up."""
    frames, label = demo
    placed, _, after = _first_placed(frames, label)
    tracker = _tracker_on(frames[0])
    chips = [c for c, symbol in enumerate(tracker.board.cells) if symbol in "BG"][:10]
    n = tracker.track.thumb_cell_px
    for c in chips:  # the light on these cells changed with the view
        row, col = divmod(c, 10)
        tracker.reference[(row + 1) * n : (row + 2) * n, (col + 1) * n : (col + 2) * n] *= 0.5
    tracker.fresh = True
    where = placed["cell"][0] * 10 + placed["cell"][1]
    taken = next(k / 10 for k in range(1, 30) for e in tracker.feed(after, k / 10, k)
                 if e.kind == BOARD_CHANGED and e.board[where] == placed["team"])
    track = tracker.track
    assert taken <= track.fresh_still_s + track.stable_s + 0.1 + 1e-9  # read from the frame after it is still


def test_a_move_arriving_as_a_view_read_afresh_for_long_is_taken_at_rest_is_still_taken(demo) -> None:
    """A view read afresh for ``stuck_s`` and still unlike its reference is taken at rest as it
    is (bench game 9: ? cells kept it from settling after a bump); a chip that had just arrived
    then, its reading not yet settled, is not taken with it but settles as a move."""
    frames, label = demo
    placed, where, after = _first_placed(frames, label)
    tracker = _tracker_on(frames[0])
    chips = [c for c, symbol in enumerate(tracker.board.cells) if symbol in "BG"][:10]
    n = tracker.track.thumb_cell_px
    for c in chips:  # the view's light changed on these cells: they stay unlike the reference
        row, col = divmod(c, 10)
        tracker.reference[(row + 1) * n : (row + 2) * n, (col + 1) * n : (col + 2) * n] *= 0.5
    tracker.fresh = True
    tracker._fresh_since = -tracker.track.stuck_s  # read afresh since long before the chip came
    events = [e for k in range(1, 30) for e in tracker.feed(after, k / 10, k)]
    assert not tracker.fresh  # the premise: the view was taken at rest as it is
    assert [e.board[where] for e in events if e.kind == BOARD_CHANGED] == [placed["team"]]


def _cell_centre(lattice: np.ndarray, cell: tuple[int, int]) -> np.ndarray:
    row, col = cell
    return (lattice[row, col] + lattice[row + 1, col + 1]) / 2


@pytest.mark.parametrize("hand_apart", [True, False])
def test_a_move_settling_when_the_next_hand_reaches_in_is_taken_if_the_hand_is_apart(demo, hand_apart) -> None:
    """The next player reaches in before the last move has settled: a hand over the far side
    of the board does not hold the move up; one beside it does, until it leaves."""
    frames, label = demo
    placed, _, after = _first_placed(frames, label)
    tracker = _tracker_on(frames[0])
    row, col = placed["cell"]
    where = row * 10 + col
    target = (9 - row, 9 - col) if hand_apart else (row, min(col + 1, 9) if col < 9 else col - 1)
    cell_px = float(np.linalg.norm(tracker.lattice[0, 10] - tracker.lattice[0, 0])) / 10
    rng = np.random.default_rng(7)
    with_hand = after.copy()
    hand = draw_hand(with_hand, replace(sample_hand(rng, (0.0, 0.0)), edge=-1),
                     _cell_centre(tracker.lattice, target), cell_px / 50, rng)
    placed_at = tuple(np.round(_cell_centre(tracker.lattice, (row, col))).astype(int))
    assert (hand[placed_at[1], placed_at[0]] == 0) == hand_apart  # the premise: the hand is off the chip, or on it
    for k in range(1, 4):  # the chip read, not yet settled, when the next hand comes
        assert tracker.feed(after, k / 10, k) == []
    taken = [e.t for k in range(4, 25) for e in tracker.feed(with_hand, k / 10, k)
             if e.kind == BOARD_CHANGED and e.board[where] == placed["team"]]
    assert bool(taken) == hand_apart
    if hand_apart:
        assert taken[0] <= 0.1 + tracker.track.stable_s + 1e-9


def _card_area(frame: np.ndarray, tracker: Tracker, cell: int) -> np.ndarray:
    """(H, W) bool: where ``cell``'s card lies in ``frame``, through the tracker's lattice."""
    row, col = divmod(cell, 10)
    corners = np.int32(np.round([tracker.lattice[row, col], tracker.lattice[row, col + 1],
                                 tracker.lattice[row + 1, col + 1], tracker.lattice[row + 1, col]]))
    return cv2.fillConvexPoly(np.zeros(frame.shape[:2], np.uint8), corners, 1).astype(bool)


def _chip_alone(frame: np.ndarray, after: np.ndarray, tracker: Tracker, cell: int) -> np.ndarray:
    """``frame`` with ``cell``'s card as ``after`` shows it (the chip placed there), the rest
    as it was: the demo's light drifts between frames seconds apart."""
    placed = frame.copy()
    card = _card_area(frame, tracker, cell)
    placed[card] = after[card]
    return placed


def _chip_beside_fingers(frames: list[np.ndarray], label: dict) -> tuple[Tracker, dict, int, np.ndarray, np.ndarray]:
    """A tracker on the demo's first frame, the first chip placed and its cell, the frame with
    that chip alone, and the same with flat skin (fingers: neither a chip nor a card) over the
    card beside it."""
    placed, where, after = _first_placed(frames, label)
    tracker = _tracker_on(frames[0])
    chip = _chip_alone(frames[0], after, tracker, where)
    row, col = divmod(where, 10)
    fingers = chip.copy()
    fingers[_card_area(fingers, tracker, row * 10 + (col + 1 if col < 9 else col - 1))] = (90, 140, 200)
    return tracker, placed, where, chip, fingers


def test_a_chip_read_beside_a_card_under_fingers_waits_until_they_leave(demo) -> None:
    """A hand too small to cover several cards (fingers over one card, a thin arm across the
    ring) may hold the chip read beside them: the move waits until that card reads as before."""
    tracker, placed, where, chip, fingers = _chip_beside_fingers(*demo)
    held = [e for k in range(1, 15) for e in tracker.feed(fingers, k / 10, k) if e.kind == BOARD_CHANGED]
    assert held == []
    taken = [e for k in range(15, 25) for e in tracker.feed(chip, k / 10, k) if e.kind == BOARD_CHANGED]
    assert [e.board[where] for e in taken] == [placed["team"]] and taken[0].t <= 1.5 + 1e-9


def test_a_card_beside_a_chip_read_unknown_for_longer_than_unsure_s_no_longer_holds_it(demo) -> None:
    """What stays on the card beside a chip placed, read ? (a card's corner laid there), is no
    hand passing: once it has read ? for unsure_s the chip is taken."""
    tracker, placed, where, _, fingers = _chip_beside_fingers(*demo)
    taken = [e.t for k in range(1, 40) for e in tracker.feed(fingers, k / 10, k)
             if e.kind == BOARD_CHANGED and e.board[where] == placed["team"]]
    assert taken and taken[0] <= 0.1 + tracker.track.unsure_s + tracker.track.stable_s + 1e-9


def test_a_picture_taken_anew_where_the_board_lay_keeps_the_old_one_about_cards_read_unknown(demo) -> None:
    """An arm resting across the board for long (to its far row): the board, found where it
    was, gives the reference anew (it may be a reference that caught a hand), but the cards
    read ? under the arm, and those beside them (its edges, its shadow), keep the picture of
    the board at rest: once the arm leaves, the board looks as it did."""
    frames, _ = demo
    tracker = _tracker_on(frames[0])
    before = tracker.reference.copy()
    arm = frames[0].copy()
    for cell in (43, 44, 45, 46):
        arm[_card_area(arm, tracker, cell)] = (90, 140, 200)  # flat skin across the middle
    analysis = tracker._locate(arm, 1.0)
    assert analysis is not None
    turns = tracker._fitting_turn(analysis)
    assert turns is not None and tracker._adopt(arm, analysis, turns, True, 1.0, keep_unread=True)
    unread = np.array([symbol == "?" for symbol in turned(analysis.board, turns).cells])
    assert unread[[43, 44, 45, 46]].all()
    kept = track_module.around(unread)
    n = tracker.track.thumb_cell_px
    now = thumbnail(arm, tracker.lattice, n)
    for c in range(100):
        r, col = divmod(c, 10)
        block = (slice((r + 1) * n, (r + 2) * n), slice((col + 1) * n, (col + 2) * n))
        assert np.array_equal(tracker.reference[block], before[block] if kept[c] else now[block])


def test_a_hand_resting_a_moment_in_a_new_view_is_not_taken_into_the_picture_of_the_board(demo) -> None:
    """In a view new after a bump, the next player's hand rests a moment over cells that read
    as before (bench game 9): neither they nor the ring under the arm take the picture with
    the hand in it, so the chip it placed is taken within a second of it leaving, not held
    up as under a hand still there."""
    frames, label = demo
    placed, where, after = _first_placed(frames, label)
    tracker = _tracker_on(frames[0])
    far = max(((r, c) for r in (1, 8) for c in (1, 8)), key=lambda rc: abs(rc[0] - where // 10) + abs(rc[1] - where % 10))
    cell_px = float(np.linalg.norm(tracker.lattice[0, 10] - tracker.lattice[0, 0])) / 10
    rng = np.random.default_rng(7)
    resting = frames[0].copy()
    draw_hand(resting, replace(sample_hand(rng, (0.0, 0.0)), edge=-1), _cell_centre(tracker.lattice, far), cell_px / 50,
              rng)
    tracker.fresh = True
    tracker._fresh_since = -tracker.track.unsure_s  # new for long: read once its cells settle
    for k in range(1, 4):
        tracker.feed(frames[0], k / 10, k)
    rest_s = 0.6  # longer than a new view's brief stillness, shorter than still_s
    assert tracker.track.fresh_still_s < rest_s < tracker.track.still_s
    for k in range(4, 10):
        tracker.feed(resting, k / 10, k)
    placed_alone = _chip_alone(frames[0], after, tracker, where)
    taken = [k / 10 for k in range(10, 40) for e in tracker.feed(placed_alone, k / 10, k)
             if e.kind == BOARD_CHANGED and e.board[where] == placed["team"]]
    assert taken and taken[0] <= 1.0 + 1.0


def test_a_new_view_unlike_its_reference_for_long_on_cells_side_by_side_is_read_while_hands_come_and_go(
        demo) -> None:
    """After a bump, cells side by side stay unlike the reference (the light on them changed
    with the view) while the next players' hands come and go, never leaving the picture still
    for still_s: read as the board holds them they are let go, not held back as under a hand
    resting (h1209 game 0 stayed new for 6 s and missed a move)."""
    frames, _ = demo
    tracker = _tracker_on(frames[0])
    n = tracker.track.thumb_cell_px
    for row, col in ((7, 2), (7, 3), (8, 2), (8, 3), (8, 4)):  # the light on these cells changed with the view
        tracker.reference[(row + 1) * n : (row + 2) * n, (col + 1) * n : (col + 2) * n] *= 0.5
    cell_px = float(np.linalg.norm(tracker.lattice[0, 10] - tracker.lattice[0, 0])) / 10
    rng = np.random.default_rng(3)
    with_hand = frames[0].copy()
    draw_hand(with_hand, replace(sample_hand(rng, (0.0, 0.0)), edge=-1), _cell_centre(tracker.lattice, (2, 7)),
              cell_px / 50, rng)
    tracker.fresh = True
    for k in range(1, 31):  # a hand for 0.4 s in every second: the picture is never still for still_s
        tracker.feed(with_hand if k % 10 >= 6 else frames[0], k / 10, k)
    assert not tracker.fresh


def test_a_chip_placed_beside_lone_cards_unlike_the_reference_is_not_taken_for_hands(demo) -> None:
    """Three cards far apart stay unlike the reference (their light changed with a bump) when a
    chip is placed: four cells changed much, more than a hand's count, but lone ones, no
    hand (bench 8080 game 12 waited 3 s): the chip is taken as soon as it settles."""
    frames, label = demo
    placed, where, after = _first_placed(frames, label)
    tracker = _tracker_on(frames[0])
    n = tracker.track.thumb_cell_px
    lit_anew = _apart([c for c in range(GRID * GRID) if c not in (0, 9, 90, 99)], [where])[:3]
    for c in lit_anew:
        cell_block(tracker.reference, c, n)[:] *= 0.5
    placed_alone = _chip_alone(frames[0], after, tracker, where)
    changes = track_module.block_change(thumbnail(placed_alone, tracker.lattice, n), tracker.reference, n)[1:-1, 1:-1]
    assert (changes.reshape(-1) > tracker.track.hand_change).sum() > tracker.track.hand_cells  # the premise
    taken = [k / 10 for k in range(1, 30) for e in tracker.feed(placed_alone, k / 10, k)
             if e.kind == BOARD_CHANGED and e.board[where] == placed["team"]]
    assert taken and taken[0] <= 0.1 + tracker.track.stable_s + 1e-9


def test_a_move_just_after_the_camera_slid_is_not_held_up_by_the_old_view_of_the_table(demo) -> None:
    """The ring around the grid kept from before a bump shows the table where it no longer is:
    taken anew once the picture is still, it does not pass for an arm reaching in."""
    frames, label = demo
    placed, where, after = _first_placed(frames, label)
    tracker = _tracker_on(frames[0])
    lattice = tracker.lattice
    beside = lattice[3:8, 0] - (lattice[3:8, 1] - lattice[3:8, 0])  # a cell out from the grid's side
    table_moved = np.int32(np.concatenate([lattice[3:8, 0], beside[::-1]]))
    h, w = frames[0].shape[:2]
    shift = np.float32([[1, 0, 7.0], [0, 1, -5.0]])
    bumped_before, bumped_after = (cv2.warpAffine(cv2.fillPoly(f.copy(), [table_moved], (30, 60, 90)), shift, (w, h),
                                                  borderMode=cv2.BORDER_REFLECT) for f in (frames[0], after))
    assert [e for k in range(1, 6) for e in tracker.feed(bumped_before, k / 10, k)] == []
    taken = next(k / 10 for k in range(6, 40) for e in tracker.feed(bumped_after, k / 10, k)
                 if e.kind == BOARD_CHANGED and e.board[where] == placed["team"])
    assert taken <= 0.6 + tracker.track.stable_s + 0.1 + 1e-9  # read from the frame the chip shows on


def test_a_move_settling_through_a_flicker_that_left_the_board_as_it_was_is_not_read_anew(demo) -> None:
    """Two frames unlike the board (a flicker, a shake), then the picture as it was and no hand:
    the new chip's readings before them still count."""
    frames, label = demo
    placed, where, after = _first_placed(frames, label)
    tracker = _tracker_on(frames[0])
    feeds = [after] * 3 + [255 - after] * 2 + [after] * 15
    taken = next(k / 10 for k, frame in enumerate(feeds, start=1) for e in tracker.feed(frame, k / 10, k)
                 if e.kind == BOARD_CHANGED and e.board[where] == placed["team"])
    assert taken <= 0.1 + tracker.track.stable_s + 0.1 + 1e-9  # read from 0.1 s on, the frame after it is back


def test_a_move_made_while_the_view_moved_counts_the_reading_of_the_locating_that_found_it(demo) -> None:
    """The camera turned too far to slide the grid: the board is located again, and that
    locating's reading is the first of the move's, so it is taken stable_s after the board
    was found again, not a frame later."""
    frames, label = demo
    placed, where, after = _first_placed(frames, label)
    tracker = _tracker_on(frames[0])
    h, w = frames[0].shape[:2]
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), 12.0, 1.0)
    turned_view = cv2.warpAffine(after, turn, (w, h), borderMode=cv2.BORDER_REFLECT)
    lattice, found_again, taken = tracker.lattice, None, None
    for k in range(1, 40):
        for e in tracker.feed(turned_view, k / 10, k):
            if e.kind == BOARD_CHANGED and e.board[where] == placed["team"] and taken is None:
                taken = k / 10
        if found_again is None and tracker.lattice is not lattice and np.abs(tracker.lattice - lattice).max() > 20:
            found_again = k / 10
    assert found_again is not None and taken is not None
    assert taken <= found_again + tracker.track.stable_s + 1e-9


def test_a_move_made_while_the_view_moved_counts_from_the_new_view_though_the_old_one_was_still_new(demo) -> None:
    """The board was being read afresh (a hand had rested on it) when the camera turned: the
    view found again is a new one, and a move made meanwhile reads so from its start (held-out
    video 20261219 game 2: a chip placed under a resting hand, then a bump; the old view's
    start made its reading come too late to be a move)."""
    frames, label = demo
    placed, where, after = _first_placed(frames, label)
    tracker = _tracker_on(frames[0])
    tracker.fresh, tracker._fresh_since = True, -5.0  # read afresh since long before
    h, w = frames[0].shape[:2]
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), 12.0, 1.0)
    turned_view = cv2.warpAffine(after, turn, (w, h), borderMode=cv2.BORDER_REFLECT)
    for k in range(1, 40):
        tracker.feed(turned_view, k / 10, k)
    assert tracker.board[where] == placed["team"]


@pytest.mark.parametrize("new_view, several", [(True, False), (False, True)])
def test_two_chips_new_in_a_view_that_moved_are_told_not_called_two_in_one_turn(demo, monkeypatch, new_view,
                                                                                  several) -> None:
    """After a bump the board is read afresh: a chip misread before (under glare) and the move
    made meanwhile show up together. Each is told as placed while the view moved; in a view
    that stayed put two new chips at once are a violation."""
    frames, _ = demo
    follower = Follower(2)
    follower.feed(frames[0], -0.4, 0)
    follower.feed(frames[0], 0.0, 0)
    board = follower.tracker.board
    empty = [c for c, symbol in enumerate(board.cells) if symbol == "."][:2]
    both = board.with_cell(empty[0], "B").with_cell(empty[1], "B")
    monkeypatch.setattr(follower.tracker, "feed", lambda *_: [track_module.TrackEvent(
        BOARD_CHANGED, 0.1, 1, both, new_view=new_view)])
    lines = follower.feed(frames[0], 0.1, 1)
    assert any(line["type"] == "violation" and "several_placed" in line["detail"] for line in lines) == several
    told = sorted(tuple(line["cell"]) for line in lines if line["type"] == "placed")
    assert told == ([] if several else [divmod(c, 10) for c in empty])


def test_the_tracker_asks_cells_for_its_own_clearer_call_and_keeps_the_rest_of_the_config() -> None:
    """A frame read ? only delays a move; a wrong call makes a phantom one."""
    given = VisionConfig(min_cell_confidence=0.6, locate_long_side=640)
    tracker = Tracker(2, given, TrackConfig(min_cell_confidence=0.95))
    assert tracker.config.min_cell_confidence == 0.95
    assert tracker.config.locate_long_side == 640
    assert given.min_cell_confidence == 0.6


@pytest.mark.parametrize("read_since, arriving", [(16.5, True), (15.8, True), (15.0, False)])
def test_a_chip_read_as_the_hand_withdrew_still_arrives_when_a_new_view_is_taken_at_rest(read_since, arriving):
    """Dev video 8080/12: blue's chip was first read at 15.8 s as the hand withdrew, the
    picture came to rest at 16.1 s, and at 16.6 s the view read afresh was taken as it was:
    the chip, its reading then 0.8 s old, went into the picture at rest, never told, and
    green's next chip was called out of turn. A reading held from long before the picture came to
    rest is not taken so (a view read afresh holds back its misreadings)."""
    tracker = Tracker(2)
    tracker.board = Board.empty()
    tracker._still_since = 16.1
    tracker._pending = {46: track_module.Pending("B", read_since, 2)}
    assert (46 in tracker._arriving()) == arriving  # at 16.6 s


def _thumbnail_of(blocks_lab: dict[int, tuple[float, float, float]], ground_lab: tuple[float, float, float],
                  cell_px: int = 12) -> np.ndarray:
    """A thumbnail (float32 BGR) all ``ground_lab`` but for the cells of ``blocks_lab``, each
    filled with its colour (Lab)."""
    lab = np.zeros(((GRID + 2) * cell_px,) * 2 + (3,), np.float32) + np.float32(ground_lab)
    for c, colour in blocks_lab.items():
        cell_block(lab, c, cell_px)[:] = colour
    return cv2.cvtColor(lab, cv2.COLOR_Lab2BGR) * 255.0


@pytest.mark.parametrize("card_lab, hands_near_at, arrived", [
    ((55, 27, 21), None, True), ((95, 0, 2), None, False), ((60, 8, -22), None, False),
    ((95, 0, 2), 9.8, True), ((95, 0, 2), 8.0, False)])
def test_a_card_read_unknown_that_changed_a_little_got_a_chip_if_coloured_like_no_team_or_when_hands_were_near(
        card_lab, hands_near_at: float | None, arrived: bool) -> None:
    """A ? card whose picture changed less than a chip on a plain card changes it, since 10 s: a
    green chip came on red court art, coloured like no team. Where the card was near white
    (glare that washed out a chip, moved off now) or coloured like a team (a chip under shade),
    a chip came only if hands were beside the card when its picture changed (or just before)."""
    tracker, cell_px = Tracker(2), 12
    board = ["."] * (GRID * GRID)
    for c in (0, 9, 90, 99):
        board[c] = "#"
    chips = {22: ("B", (35, 8, -30)), 24: ("B", (37, 6, -28)), 66: ("G", (50, -30, 25)), 68: ("G", (52, -28, 27))}
    for c, (team, _) in chips.items():
        board[c] = team
    where = 45
    board[where] = "?"
    tracker.board = Board("".join(board))
    before = {c: colour for c, (_, colour) in chips.items()} | {where: card_lab}
    tracker.reference = _thumbnail_of(before, (95, 0, 2))
    lab_now = cv2.cvtColor(tracker.reference / 255.0, cv2.COLOR_BGR2Lab)
    ys, xs = np.mgrid[0:cell_px, 0:cell_px]
    disc = np.hypot(ys - 5.5, xs - 5.5) <= 2  # a chip small in its cell, a dark card: little of the card changed
    cell_block(lab_now, where, cell_px)[disc] = (52, -29, 26)
    thumb = cv2.cvtColor(lab_now, cv2.COLOR_Lab2BGR) * 255.0
    change = track_module.block_change(thumb, tracker.reference, cell_px)[1:-1, 1:-1].reshape(-1)
    changed = change > tracker.track.cell_change
    assert changed[where] and change[where] < tracker.track.placed_change
    tracker._change_since[where] = 10.0
    if hands_near_at is not None:
        tracker._hands_near_at[where] = hands_near_at
    assert (where in tracker._arrived(changed, change, thumb)) == arrived
